//! Decoding an `.xz` input so that a damaged one gives every byte before
//! the damage, as `xz -dc` does.
//!
//! The decoder is liblzma, the library the `xz` tool is built on, run as
//! `xz -dc` runs it: one stream or several concatenated, with stream
//! padding between and after them. So a file cut short, a flipped byte, a
//! damaged index or bytes after the last stream give the text `xz -dc`
//! writes before it fails, byte for byte.
//!
//! Driven by [`super::decoding::Decoding`], which hands on all the text
//! the decoder made before its error: with the crate's own `Read`
//! adapters, damage in the index after the last block, or bytes appended
//! to the file, lost up to a megabyte of text before it.
//!
//! That text is all handed on, but not all vouched for: a block's check
//! comes at its end, so the last [`HELD_TEXT`] bytes of the block being
//! decoded are held back, and when the decoder fails inside a block
//! (`xz_layout.rs` says where it is) they are noted as damage before they
//! go: their games are `damaged_input`, not rows of moves the damage made.

use liblzma::stream::{Action, CONCATENATED, Status, Stream};

use super::damage::{Damage, DamageLog};
use super::decoding::{Decompressor, Step, Stepped};
use super::xz_layout::Layout;

/// The text held back while a block is decoded: what the decoder made in
/// the last 64 KiB before it fails inside a block is marked unreliable.
/// Damaged data decodes to garbage for a while before liblzma notices: in
/// 300 one-bit flips of a 4 MB file of lichess games, at most 21 kB.
const HELD_TEXT: u64 = 64 << 10;

/// Room for text given to the decoder at a time.
const TEXT_ROOM: usize = 1 << 18;

/// An `.xz` input's decoder (one stream or several concatenated), for
/// [`super::decoding::Decoding`].
pub(super) struct Xz {
    stream: Stream,
    /// The input's name, for the damage found.
    name: String,
    found: DamageLog,
    /// Where the bytes used so far end in the file's layout.
    layout: Layout,
    /// Text decoded and not handed out yet, from `handed` on.
    text: Vec<u8>,
    handed: usize,
    /// The data has ended, or failed with this error: the text held is
    /// handed out, then the end or the error.
    ended: Option<Result<(), std::io::Error>>,
}

impl Xz {
    /// The decoder of the input `name`, which notes the text it finds
    /// unreliable in `found`.
    pub(super) fn new(name: String, found: DamageLog) -> std::io::Result<Xz> {
        // No memory limit, as `xz -dc` by default; CONCATENATED: several
        // streams and their padding, as `xz -dc` reads a file.
        let stream = Stream::new_stream_decoder(u64::MAX, CONCATENATED)?;
        Ok(Xz {
            stream,
            name,
            found,
            layout: Layout::new(),
            text: Vec::new(),
            handed: 0,
            ended: None,
        })
    }

    /// Hands out as much of the text that may go as `output` holds: all
    /// once the data has ended or the decoder is outside any block (every
    /// block decoded has passed its check), else all but the last
    /// [`HELD_TEXT`] bytes of the block being decoded.
    fn hand_out(&mut self, output: &mut [u8]) -> usize {
        let held = match (&self.ended, self.layout.in_block()) {
            (None, Some(block)) => {
                HELD_TEXT.min(self.stream.total_out().saturating_sub(block.text))
            }
            _ => 0,
        };
        let ready = (self.text.len() - self.handed)
            .saturating_sub(usize::try_from(held).unwrap_or(usize::MAX));
        let n = ready.min(output.len());
        let from = self
            .text
            .get(self.handed..self.handed + n)
            .unwrap_or_default();
        if let Some(to) = output.get_mut(..n) {
            to.copy_from_slice(from);
        }
        self.handed += n;
        // The text held is moved to the front now and then, not at every
        // read: at most once a megabyte.
        if self.handed > 4 * TEXT_ROOM || self.handed == self.text.len() {
            self.text.drain(..self.handed);
            self.handed = 0;
        }
        n
    }

    /// The decoder failed with `error`: if inside a block, the text made
    /// in the last [`HELD_TEXT`] bytes of it (still held) is noted as
    /// unreliable before it is handed out.
    fn failed(&mut self, error: std::io::Error) {
        if let Some(block) = self.layout.in_block() {
            // Text decoded so far, handed out or held.
            let made = self.stream.total_out();
            let from = block.text.max(made.saturating_sub(HELD_TEXT));
            self.found.push(Damage {
                text: from..made,
                why: format!(
                    "{}: xz block {} (from compressed byte {}) is damaged, and xz checks a block's text only at its end: the text decoded just before the damage, decompressed bytes {from} to {}, is unreliable (damaged data decodes to garbage for some kilobytes before the decoder notices); the text before it is taken as sound",
                    self.name, block.number, block.compressed, made
                ),
            });
        }
        self.ended = Some(Err(error));
    }
}

impl Decompressor for Xz {
    fn step(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        let mut consumed = 0;
        loop {
            let produced = self.hand_out(output);
            if produced > 0 {
                return Step {
                    consumed,
                    produced,
                    outcome: Ok(Stepped::More),
                };
            }
            match self.ended.take() {
                Some(Ok(())) => {
                    self.ended = Some(Ok(()));
                    return Step {
                        consumed,
                        produced: 0,
                        outcome: Ok(Stepped::End),
                    };
                }
                Some(Err(e)) => {
                    return Step {
                        consumed,
                        produced: 0,
                        outcome: Err(e),
                    };
                }
                None => {}
            }
            let rest = input.get(consumed..).unwrap_or_default();
            let action = if at_end { Action::Finish } else { Action::Run };
            let (read_before, written_before) = (self.stream.total_in(), self.stream.total_out());
            // Into the room after the text held, not zeroed first.
            self.text.reserve(TEXT_ROOM);
            let status = self.stream.process_vec(rest, &mut self.text, action);
            // Both are at most the lengths of the slices given.
            let used = usize::try_from(self.stream.total_in() - read_before).unwrap_or(0);
            let made = usize::try_from(self.stream.total_out() - written_before).unwrap_or(0);
            self.layout.walk(rest.get(..used).unwrap_or_default());
            consumed += used;
            match status {
                Ok(Status::StreamEnd) => self.ended = Some(Ok(())),
                // liblzma's "no progress possible", which only a cut stream
                // gives here: the reader always offers input and room. The
                // text before a cut was decoded from sound bytes.
                Ok(Status::MemNeeded) => self.ended = Some(Err(cut_short())),
                Ok(_) if used > 0 || made > 0 => {}
                // No input is left, and the decoder makes nothing more of
                // what it holds: the data ends inside a stream.
                Ok(_) if at_end => self.ended = Some(Err(cut_short())),
                // It wants more input.
                Ok(_) => {
                    return Step {
                        consumed,
                        produced: 0,
                        outcome: Ok(Stepped::More),
                    };
                }
                Err(e) => self.failed(damaged(e)),
            }
        }
    }

    fn cut_short(&self) -> std::io::Error {
        cut_short()
    }
}

fn cut_short() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        "the xz data ends before its stream does",
    )
}

/// liblzma's error in the words a user reading a warning understands.
fn damaged(e: liblzma::stream::Error) -> std::io::Error {
    use liblzma::stream::Error;
    let what = match e {
        Error::Data => "the compressed data is corrupt".to_string(),
        Error::Format => "not xz data where a stream should start".to_string(),
        Error::Options => "the stream uses options this decoder does not have".to_string(),
        Error::UnsupportedCheck => "the stream's check type is not supported".to_string(),
        Error::Mem | Error::MemLimit => "the decoder ran out of memory".to_string(),
        other => other.to_string(),
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("damaged xz data: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::decoding;
    use crate::source::decoding::tests::{fixture, manifest};

    fn xz(text: &[u8]) -> Vec<u8> {
        let mut w = liblzma::write::XzEncoder::new(Vec::new(), 6);
        std::io::Write::write_all(&mut w, text).expect("xz write");
        w.finish().expect("xz finish")
    }

    fn text() -> Vec<u8> {
        (0..40_000u32)
            .flat_map(|i| format!("{} ", i.wrapping_mul(2_654_435_761)).into_bytes())
            .collect()
    }

    fn read_all(data: &[u8]) -> (Vec<u8>, Option<std::io::Error>) {
        read_with(data, &DamageLog::default(), 4096, 1 << 20)
    }

    /// The text of `data` read `input` and `output` bytes at a time, the
    /// damage found noted in `found`.
    fn read_with(
        data: &[u8],
        found: &DamageLog,
        input: usize,
        output: usize,
    ) -> (Vec<u8>, Option<std::io::Error>) {
        let xz = Xz::new("in.xz".to_string(), found.clone()).expect("decoder");
        decoding::tests::read_all(data, xz, input, output)
    }

    #[test]
    fn a_whole_stream_decodes_to_its_text() {
        let text = text();
        let (out, err) = read_all(&xz(&text));
        assert!(err.is_none(), "{err:?}");
        assert_eq!(out, text);
    }

    /// A stream cut anywhere gives a prefix of the text, then an error;
    /// cut after its first tenth, the prefix is not empty (a reader that
    /// fills a whole megabyte before it returns gave nothing).
    #[test]
    fn a_cut_stream_gives_the_text_before_the_cut_then_an_error() {
        let text = text();
        let data = xz(&text);
        for cut in [
            0,
            5,
            12,
            40,
            data.len() / 10,
            data.len() / 2,
            data.len() - 1,
        ] {
            let (out, err) = read_all(data.get(..cut).unwrap_or_default());
            let err = err.unwrap_or_else(|| panic!("cut at {cut} of {}", data.len()));
            assert!(err.to_string().contains("ends before"), "{err}");
            assert!(text.starts_with(&out), "cut at {cut}");
            if cut >= data.len() / 10 {
                assert!(!out.is_empty(), "cut at {cut}");
            }
        }
    }

    /// Damage after the last block (its index, the stream footer, bytes
    /// appended to the file) leaves the text whole: all of it comes out,
    /// then the error, in the words of the warning.
    #[test]
    fn damage_after_the_text_gives_the_whole_text_then_an_error() {
        let text = text();
        let data = xz(&text);
        let mut appended = data.clone();
        appended.extend_from_slice(b"not xz data, appended to the file\n");
        let mut footer = data.clone();
        if let Some(b) = footer
            .len()
            .checked_sub(8)
            .and_then(|at| footer.get_mut(at))
        {
            *b ^= 0x55;
        }
        for (what, damaged) in [("appended", appended), ("footer", footer)] {
            let (out, err) = read_all(&damaged);
            assert!(out == text, "{what}: {} of {} bytes", out.len(), text.len());
            let err = err.unwrap_or_else(|| panic!("{what}: no error"));
            assert!(
                err.to_string().starts_with("damaged xz data: "),
                "{what}: {err}"
            );
        }
    }

    /// The fixtures damaged inside a block (`expected.json`: the text
    /// `xz -dc` gives before it fails, the blocks `xz --list` gives):
    /// the same text, whatever the sizes of the reads, and one damage
    /// noted, over the text decoded in the last [`HELD_TEXT`] bytes before
    /// the failure, or from the block's start if that is nearer; damage
    /// after the last block (`damaged-index.pgn.xz`) notes none.
    #[test]
    fn damage_inside_a_block_marks_the_text_just_before_it() {
        let manifest = manifest();
        for name in [
            "damaged-block.pgn.xz",
            "damaged-blocks.pgn.xz",
            "damaged-index.pgn.xz",
        ] {
            let expect = &manifest["files"][name];
            let data = fixture(name);
            let decoded = expect["decoded_by_reference"].as_u64().expect("decoded");
            let unreliable = expect["xz_damaged_block"].as_u64().map(|n| {
                let text = expect["xz_blocks"][n as usize - 1][2]
                    .as_u64()
                    .expect("text");
                text.max(decoded - HELD_TEXT)..decoded
            });
            for (input, output) in [(4096, 1 << 20), (100, 777), (1 << 20, 1 << 16), (7, 3)] {
                let found = DamageLog::default();
                let (out, err) = read_with(&data, &found, input, output);
                assert_eq!(out.len() as u64, decoded, "{name}: {input} {output}");
                assert!(err.is_some(), "{name}");
                let found = found.since(0);
                let noted: Vec<_> = found.iter().map(|d| d.text.clone()).collect();
                assert_eq!(
                    noted,
                    Vec::from_iter(unreliable.clone()),
                    "{name}: {input} {output}"
                );
            }
        }
    }
}
