//! A decompressor's text handed on as it is decoded, its error only after
//! that text.
//!
//! The `Read` adapters of the zstd, bzip2 and liblzma crates drop the
//! output of the call that meets an error: what a damaged file gives
//! before its error then depends on the sizes of the reads that asked for
//! it (up to a megabyte of text lost in [`crate::source`]'s reads), and, on
//! a pipe, on how the bytes happened to arrive, so that two runs of one
//! command gave different rows. [`Decoding`] drives a decompressor's raw
//! step itself and hands out everything it produced before returning the
//! error, at the next read: the text before the damage is all of what the
//! decoder could make of it, whatever the read sizes.

use std::io::{BufRead, BufReader, Read};

/// Compressed bytes read at a time for a decoder: zstd's own choice of
/// input size (`ZSTD_DStreamInSize`, a block and its header), which suits
/// the other decoders as well.
const COMPRESSED_READ: usize = 1 << 17;

/// What a step of a decompressor came to.
pub(super) enum Stepped {
    /// It goes on (it may want more input, or more room).
    More,
    /// The data has ended: every stream or frame is whole.
    End,
}

/// What one step of a decompressor did.
pub(super) struct Step {
    /// Input bytes used.
    pub consumed: usize,
    /// Text bytes written, before the failure if it failed.
    pub produced: usize,
    pub outcome: std::io::Result<Stepped>,
}

/// A decompressor as a sans-I/O step, for [`Decoding`].
pub(super) trait Decompressor {
    /// Decodes from `input` into `output`; `at_end` says no input follows
    /// `input`.
    fn step(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step;

    /// The error of data that ends inside a stream or frame.
    fn cut_short(&self) -> std::io::Error;
}

/// The text `decompressor` makes of the bytes of `inner`.
pub(super) struct Decoding<R: BufRead, D: Decompressor> {
    inner: R,
    decompressor: D,
    /// The data has ended, or failed (its error returned or pending).
    done: bool,
    /// The error met in a read that also produced text, returned by the
    /// next read.
    pending: Option<std::io::Error>,
}

impl<R: BufRead, D: Decompressor> Decoding<R, D> {
    pub(super) fn new(inner: R, decompressor: D) -> Decoding<R, D> {
        Decoding {
            inner,
            decompressor,
            done: false,
            pending: None,
        }
    }
}

impl<R: Read, D: Decompressor> Decoding<BufReader<R>, D> {
    /// The text `decompressor` makes of the compressed bytes `raw`, read
    /// [`COMPRESSED_READ`] bytes at a time.
    pub(super) fn buffered(raw: R, decompressor: D) -> Self {
        Decoding::new(BufReader::with_capacity(COMPRESSED_READ, raw), decompressor)
    }
}

impl<R: BufRead, D: Decompressor> Read for Decoding<R, D> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        while !self.done {
            let input = self.inner.fill_buf()?;
            let at_end = input.is_empty();
            let Step {
                consumed,
                produced,
                outcome,
            } = self.decompressor.step(input, buf, at_end);
            self.inner.consume(consumed);
            let error = match outcome {
                Ok(Stepped::End) => {
                    self.done = true;
                    None
                }
                // No input left, and nothing more made of what the
                // decompressor holds: the data ends inside a stream.
                Ok(Stepped::More) if at_end && produced == 0 => Some(self.decompressor.cut_short()),
                Ok(Stepped::More) => None,
                Err(e) => Some(e),
            };
            if let Some(error) = error {
                self.done = true;
                if produced == 0 {
                    return Err(error);
                }
                self.pending = Some(error);
            }
            if produced > 0 {
                return Ok(produced);
            }
        }
        Ok(0)
    }
}

/// zstd: frames one after another, skippable frames passed over, as
/// `zstd -dc` reads a file.
///
/// zstd's streaming decoder may decode and flush many blocks in one call
/// and then fail (a frame's checksum is checked after its last block),
/// and a failed call's output is not handed out (the zstd crate vouches
/// only for a call that succeeded): how much text came before the error
/// would depend on the sizes of the calls. So each call is given only the
/// input the decoder asks for next (its hint: a block, or the checksum),
/// and none while it still has text to flush: the call that fails has
/// then made no text, and every block decoded before it has been handed
/// out. The hint for a block's data also takes in the header of the block
/// after it, which a call with room for the block's text then reads as
/// well: a damaged header there failed the call that had decoded the
/// block, and the block's text was lost with a 1 MiB read and handed out
/// with a small one. So the decoder is given [`BLOCK_HEADER`] bytes less
/// than it asks for, which makes no text of its own (the header is
/// asked for again on its own, or the decoder holds what it got).
pub(super) struct Zstd {
    decoder: zstd::stream::raw::Decoder<'static>,
    /// The input the decoder asks for next.
    wants: usize,
    /// A frame has begun and not ended (the decoder's hint is not 0).
    in_frame: bool,
    /// The last call filled the room it was given: it may have more text
    /// to flush before it reads on.
    flushing: bool,
}

/// The input a frame starts with that tells the size of its header
/// (`ZSTD_FRAMEHEADERSIZE_PREFIX`).
const FRAME_HEADER_PREFIX: usize = 5;

/// A block header's size (`ZSTD_blockHeaderSize`): what the decoder's
/// hint adds to a block's data for the next block's header.
const BLOCK_HEADER: usize = 3;

/// The largest window (as a power of two) a zstd frame may ask for and
/// still be read: the most the reference decoder supports, 2^31 bytes on a
/// 64-bit machine. zstd's streaming decoder refuses more than 2^27 by
/// default, which a file made with `zstd --long=28` or more exceeds (large
/// archives are compressed so, pushshift's among them); `zstd -d` reads one
/// only when told `--long=31` or `--memory=2048MB`. (The `.xz` decoder
/// runs with no memory limit, as `xz -dc` does.) The window is the
/// frame's own choice, not the input's size: its buffer is reserved once
/// per stream and filled only as far as the text goes.
pub(super) const WINDOW_LOG_MAX: u32 = if usize::BITS >= 64 {
    zstd::zstd_safe::WINDOWLOG_MAX_64
} else {
    zstd::zstd_safe::WINDOWLOG_MAX_32
};

impl Zstd {
    pub(super) fn new() -> std::io::Result<Zstd> {
        let mut decoder = zstd::stream::raw::Decoder::new()?;
        decoder.set_parameter(zstd::zstd_safe::DParameter::WindowLogMax(WINDOW_LOG_MAX))?;
        Ok(Zstd {
            decoder,
            wants: FRAME_HEADER_PREFIX,
            in_frame: false,
            flushing: false,
        })
    }
}

/// What a zstd frame whose checksum fails is, read as a stream: the check
/// comes at the frame's end, so its text has been handed on already. (zstd
/// says only "Restored data doesn't match checksum", which read after
/// "the text stops" sounds like the bytes after the stop.)
const CHECKSUM_FAILS: &str = "the zstd frame that ends here fails its checksum, so its text, read as sound up to here, is unreliable";

/// Whether `e`, from the zstd decoder, says that a frame failed its
/// checksum (rather than that its data could not be decoded).
pub(super) fn fails_checksum(e: &std::io::Error) -> bool {
    e.to_string() == CHECKSUM_FAILS
}

impl Decompressor for Zstd {
    fn step(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        use zstd::stream::raw::{InBuffer, Operation, OutBuffer};
        let room = output.len();
        // Short of the next block's header, but never nothing.
        let wants = match self.wants {
            w if w > BLOCK_HEADER => w - BLOCK_HEADER,
            w => w,
        };
        let given = match self.flushing {
            true => &[][..],
            false => input.get(..wants.min(input.len())).unwrap_or_default(),
        };
        let mut input = InBuffer::around(given);
        let mut output = OutBuffer::around(output);
        let hint = self.decoder.run(&mut input, &mut output);
        let (consumed, produced) = (input.pos(), output.pos());
        self.flushing = produced == room;
        let outcome = match hint {
            Err(e) if e.to_string().contains("checksum") => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                CHECKSUM_FAILS,
            )),
            Err(e) => Err(e),
            Ok(hint) => {
                // 0: a frame has ended and been flushed whole. A call that
                // moved nothing says nothing (with no input, the decoder
                // asks for the next frame's header).
                if consumed > 0 || produced > 0 {
                    self.in_frame = hint != 0;
                    self.wants = if hint == 0 { FRAME_HEADER_PREFIX } else { hint };
                }
                if at_end && produced == 0 && !self.in_frame {
                    Ok(Stepped::End)
                } else {
                    Ok(Stepped::More)
                }
            }
        };
        Step {
            consumed,
            produced,
            outcome,
        }
    }

    fn cut_short(&self) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "incomplete frame")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::source) fn text() -> Vec<u8> {
        (0..400_000u32)
            .flat_map(|i| format!("{} ", i.wrapping_mul(2_654_435_761) % 1000).into_bytes())
            .collect()
    }

    /// The file `name` of testdata/compressed/, the fixtures that
    /// `testdata/gen/make_compressed.py` makes and checks with the
    /// reference tools.
    pub(in crate::source) fn fixture_path(name: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/compressed")
            .join(name)
    }

    /// The bytes of the fixture `name` ([`fixture_path`]).
    pub(in crate::source) fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(fixture_path(name)).expect("fixture")
    }

    /// The fixtures' `expected.json`: what each holds, by the reference
    /// tools.
    pub(in crate::source) fn manifest() -> serde_json::Value {
        serde_json::from_slice(&fixture("expected.json")).expect("json")
    }

    /// The text the fixtures were made from (`expected.json`'s `source`,
    /// the lichess sample), of which each holds a stretch.
    pub(in crate::source) fn source_text() -> Vec<u8> {
        let manifest = manifest();
        let source = manifest["source"].as_str().expect("source");
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
            .expect("source")
    }

    /// Decodes `data` through [`Decoding`], reading `input` compressed
    /// bytes and asking for `output` bytes of text at a time.
    pub(in crate::source) fn read_all<D: Decompressor>(
        data: &[u8],
        decompressor: D,
        input: usize,
        output: usize,
    ) -> (Vec<u8>, Option<std::io::Error>) {
        let mut rd = Decoding::new(std::io::BufReader::with_capacity(input, data), decompressor);
        let mut out = Vec::new();
        let mut block = vec![0u8; output];
        loop {
            match rd.read(&mut block) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(block.get(..n).unwrap_or_default()),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    fn zstd_with_checksum(text: &[u8]) -> Vec<u8> {
        let mut w = zstd::stream::Encoder::new(Vec::new(), 3).expect("encoder");
        w.include_checksum(true).expect("checksum");
        std::io::Write::write_all(&mut w, text).expect("write");
        w.finish().expect("finish")
    }

    /// A zstd frame whose checksum alone is damaged: its text is whole,
    /// then the error, whatever the sizes of the reads.
    #[test]
    fn a_zstd_frame_failing_its_checksum_gives_all_its_text_then_the_error() {
        let text = text();
        let mut data = zstd_with_checksum(&text);
        if let Some(b) = data.last_mut() {
            *b ^= 1;
        }
        for (input, output) in [
            (4096, 1 << 20),
            (1 << 17, 1 << 20),
            (100, 777),
            (1 << 20, 1 << 16),
        ] {
            let (out, err) = read_all(&data, Zstd::new().expect("zstd"), input, output);
            let said = err.map(|e| e.to_string()).unwrap_or_default();
            assert!(
                said.contains("fails its checksum"),
                "{input} {output}: {said}"
            );
            assert_eq!(out.len(), text.len(), "reads of {input} and {output}");
            assert!(out == text);
        }
    }

    /// Where a zstd frame's block starts: the frame header's size, from
    /// its descriptor (RFC 8878, 3.1.1.1), then block after block.
    fn block_starts(frame: &[u8]) -> Vec<usize> {
        let descriptor = frame[4];
        let single_segment = descriptor & 0x20 != 0;
        let content_size = [usize::from(single_segment), 2, 4, 8][usize::from(descriptor >> 6)];
        let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
        let mut at = 5 + usize::from(!single_segment) + dictionary + content_size;
        let mut starts = Vec::new();
        loop {
            starts.push(at);
            let header = u32::from_le_bytes([frame[at], frame[at + 1], frame[at + 2], 0]);
            let size = (header >> 3) as usize;
            at += 3 + if (header >> 1) & 3 == 1 { 1 } else { size };
            if header & 1 == 1 {
                return starts;
            }
        }
    }

    /// A zstd frame whose third block's header is damaged (a size larger
    /// than a block may be): the text of the two blocks before it, then
    /// the error, whatever the sizes of the reads, the text asked for a
    /// megabyte at a time among them (one call that decoded the second
    /// block and read the bad header after it lost that block's text).
    #[test]
    fn a_damaged_block_header_gives_the_blocks_before_it_whatever_the_reads() {
        let text = text();
        let mut data = zstd_with_checksum(&text);
        let starts = block_starts(&data);
        assert!(starts.len() >= 3, "{} blocks", starts.len());
        let bad = starts[2];
        data[bad] |= 0xF8;
        data[bad + 1] = 0xFF;
        data[bad + 2] = 0xFF;
        // Each block but the last holds 128 KiB of text.
        let before = &text[..2 << 17];
        for (input, output) in [
            (4096, 1 << 20),
            (1 << 20, 1 << 20),
            (100, 777),
            (1 << 17, 32),
        ] {
            let (out, err) = read_all(&data, Zstd::new().expect("zstd"), input, output);
            assert!(err.is_some(), "{input} {output}: no error");
            assert_eq!(out.len(), before.len(), "reads of {input} and {output}");
            assert!(out == before);
        }
    }

    /// A zstd file cut anywhere gives a prefix of its text, then an
    /// error; one of several frames, with a skippable frame between, ends
    /// cleanly.
    #[test]
    fn zstd_frames_decode_whole_and_a_cut_gives_a_prefix() {
        let text = text();
        let (a, b) = text.split_at(text.len() / 3);
        let mut data = zstd_with_checksum(a);
        data.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
        data.extend_from_slice(&zstd_with_checksum(b));
        let (out, err) = read_all(&data, Zstd::new().expect("zstd"), 4096, 1 << 20);
        assert!(err.is_none(), "{err:?}");
        assert!(out == text);
        for cut in [1, 4, 9, data.len() / 3, data.len() / 2, data.len() - 1] {
            let (out, err) = read_all(&data[..cut], Zstd::new().expect("zstd"), 777, 1 << 16);
            assert!(err.is_some(), "cut at {cut}");
            assert!(text.starts_with(&out), "cut at {cut}");
        }
    }
}
