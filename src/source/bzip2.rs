//! Decoding a `.bz2` input so that no block's text is read before its
//! CRC-32 is checked, and a block that fails is passed over.
//!
//! A bzip2 block (at most 900 kB of text before bzip2's run-length coding)
//! is decoded whole before any of its text comes out, and its CRC-32 is
//! checked only after the last of it: `bzip2 -dc` has by then written all
//! of a damaged block's text, garbage that, read as PGN, made thousands of
//! rows of games nobody played. So each block's text is held here until
//! the check: the decoder is given input only while it reads (then with
//! room for one byte of text, so that it stops as soon as a block's text
//! begins), and none while it writes a block out; when, with no input, it
//! stops short of the room it was given, it has written the block whole,
//! checked it, and begun to wait for the next block's header. The text held
//! is one block's: under a megabyte for PGN.
//!
//! A block that fails its check, or whose data cannot be decoded, loses its
//! text, but not the blocks after it, which depend on nothing before them.
//! The compressed bytes read since the last block that passed are kept, so
//! when the decoder fails, from there on each block is found by its magic
//! number and decoded on its own (`bzip2_block.rs`, as `bzip2recover`
//! does): the decoder reads a few bytes ahead of the bits it needs, so its
//! error may be the next block's header as well as the block it wrote out,
//! and decoding each alone says which. The lost text is noted as damage
//! ([`DamageLog`]): the game that runs into it is a row of status
//! `damaged_input`, the games after it rows as usual. `bzip2 -dc` stops at
//! the first damaged block; a year of games with one bad block would lose
//! all the games after it.
//!
//! A file of many streams (pbzip2 writes one per 900 kB) goes on after a
//! stream whose own parts are damaged, too: after one whose combined CRC-32
//! fails though each of its blocks passed (the text is sound; what is
//! damaged is the stored sum), and after bytes where a stream should begin
//! that are not its header, from the block found after them. Both are said
//! as damage that loses no text when only those bytes are concerned;
//! `bzip2 -dc` stops at the first, and at the second writes nothing more
//! and calls the rest "trailing garbage".

use std::ops::Range;

use super::bzip2_block::{
    BlockText, END_BITS, MOST_BLOCK_BYTES, Marker, decode_block, decompress_into,
    ends_with_stream_end, next_marker,
};
use super::damage::{Damage, DamageLog};
use super::decoding::{Decompressor, Step, Stepped};

/// Room given to the decoder at a time while it writes a block out.
const BLOCK_TEXT_ROOM: usize = 1 << 20;

/// The compressed bytes kept from before the point where a block passed its
/// check: the decoder has read up to eight bytes of the next block by then.
const READ_AHEAD: usize = 16;

/// A `.bz2` input's decoder (one stream or several, one after another, as
/// `bzip2 -dc` reads a file), for [`super::decoding::Decoding`].
pub(super) struct Bzip2 {
    /// The input's name, for the damage found.
    name: String,
    found: DamageLog,
    stream: bzip2::Decompress,
    /// The last stream ended: input left over starts another one.
    between_streams: bool,
    /// The decoder is writing a block out: it is given no input until it
    /// has written it all and checked it.
    writing: bool,
    /// Set once a block has failed: the blocks are then found by their
    /// magic numbers and decoded one by one.
    recovery: Option<Recovery>,
    /// Text decoded and not handed out yet: `text[handed..checked]` has
    /// passed its block's check, `text[checked..]` is the block being
    /// written out.
    text: Vec<u8>,
    handed: usize,
    checked: usize,
    /// Text that has passed its check so far, handed out or not: where the
    /// next block's text starts.
    text_so_far: u64,
    /// Blocks passed so far, checked or lost.
    blocks: u64,
    /// Streams begun so far, and the compressed byte the last one began at.
    streams: u64,
    stream_start: u64,
    /// Compressed bytes read so far, and those read since the last block
    /// that passed its check (and [`READ_AHEAD`] before).
    read: u64,
    unchecked: Vec<u8>,
}

/// The compressed bytes from where a block failed on, searched for blocks.
struct Recovery {
    /// Compressed bytes not yet passed over; the first is byte `at` of the
    /// input.
    bytes: Vec<u8>,
    at: u64,
    /// Bits of `bytes` before this one are passed over.
    from_bit: usize,
    /// Where in `bytes` the last stream's end-of-stream marker and CRC end
    /// (rounded up to a byte), when nothing has started since.
    stream_end: Option<usize>,
    /// Until the first marker is found: the input byte it must start
    /// before to be the block that failed (whose magic number the decoder
    /// read past by at most [`READ_AHEAD`] bytes).
    first_marker_by: Option<u64>,
    /// No marker starts before this bit of `bytes` after the block at
    /// `from_bit`: where the search for its end goes on.
    end_searched: usize,
    /// Recovery began where a stream's header is not one, until a block
    /// or a stream's end is found after it.
    header_failure: Option<HeaderFailure>,
}

/// Bytes where a stream after the first should begin that are not a
/// stream header.
struct HeaderFailure {
    /// The decoder's error, said if nothing after it is bzip2 data (bytes
    /// appended after the last stream).
    error: bzip2::Error,
    /// The stream's number and its first compressed byte.
    stream: u64,
    at: u64,
}

/// The bytes of a stream header (`BZh` and the block size).
const STREAM_HEADER_BYTES: u64 = 4;

impl Bzip2 {
    /// The decoder of the input `name`, which notes the blocks it loses in
    /// `found`.
    pub(super) fn new(name: String, found: DamageLog) -> Bzip2 {
        Bzip2 {
            name,
            found,
            stream: bzip2::Decompress::new(false),
            between_streams: false,
            writing: false,
            recovery: None,
            text: Vec::new(),
            handed: 0,
            checked: 0,
            text_so_far: 0,
            blocks: 0,
            streams: 1,
            stream_start: 0,
            read: 0,
            unchecked: Vec::new(),
        }
    }

    /// Hands out as much checked text as `output` holds; 0 when none is
    /// left, and then the text held is only the block being written.
    fn hand_out(&mut self, output: &mut [u8]) -> usize {
        let ready = self.text.get(self.handed..self.checked).unwrap_or_default();
        let n = ready.len().min(output.len());
        if let (Some(to), Some(from)) = (output.get_mut(..n), ready.get(..n)) {
            to.copy_from_slice(from);
        }
        self.handed += n;
        if self.handed == self.checked {
            self.text.drain(..self.handed);
            self.handed = 0;
            self.checked = 0;
        }
        n
    }

    /// A step that hands out checked text (having used `consumed` input
    /// bytes), when there is any.
    fn hand_out_step(&mut self, output: &mut [u8], consumed: usize) -> Option<Step> {
        let produced = self.hand_out(output);
        (produced > 0).then_some(Step {
            consumed,
            produced,
            outcome: Ok(Stepped::More),
        })
    }

    /// The block being written out has passed its check.
    fn block_checked(&mut self) {
        self.text_so_far += (self.text.len() - self.checked) as u64;
        self.checked = self.text.len();
        self.blocks += 1;
        let over = self.unchecked.len().saturating_sub(READ_AHEAD);
        self.unchecked.drain(..over);
    }

    /// The decoder has read a stream's end: its last block (written out,
    /// its check passed) is checked text, and input left over starts
    /// another stream.
    fn stream_ended(&mut self) {
        self.between_streams = true;
        self.writing = false;
        if self.text.len() > self.checked {
            self.block_checked();
        }
        self.unchecked.clear();
    }

    /// Notes that the block in compressed bytes `bytes` is lost
    /// (`failure` says how), where its text would have started.
    fn block_lost(&mut self, bytes: Range<u64>, failure: &str) {
        self.blocks += 1;
        let at = self.text_so_far;
        self.found.push(Damage {
            text: at..at,
            why: format!(
                "{}: bzip2 block {} (compressed bytes {} to {}) {failure}: none of its text can be read, and the game around decompressed byte {at} is unreliable; reading goes on with the block after it",
                self.name, self.blocks, bytes.start, bytes.end
            ),
        });
    }

    /// Notes that the compressed bytes `passed`, where stream `stream`
    /// should have begun, are not a stream header and were passed over up
    /// to the block (or stream end) found after them. No text is lost when
    /// they are only the header's bytes, damaged; more may have held text,
    /// and the game around where it would have been is unreliable.
    fn header_passed_over(&mut self, stream: u64, passed: Range<u64>) {
        let what = format!(
            "{}: compressed bytes {} to {}, where bzip2 stream {stream} should begin, are not a stream header (damaged, or not bzip2 data): they are passed over, and reading goes on with the bzip2 data found after them",
            self.name, passed.start, passed.end
        );
        let damage = match passed.end - passed.start <= STREAM_HEADER_BYTES {
            true => Damage::losing_no_text(what),
            false => {
                let at = self.text_so_far;
                Damage {
                    text: at..at,
                    why: format!("{what}; the game around decompressed byte {at} is unreliable"),
                }
            }
        };
        self.found.push(damage);
    }

    /// One call of the decoder: reads from `input` while it is reading (with
    /// room for one byte of text), writes a block's text out with none;
    /// returns the input used, the text made (kept in `text`) and its status.
    fn decode(&mut self, input: &[u8]) -> (usize, usize, Result<bzip2::Status, bzip2::Error>) {
        let (given, room) = match self.writing {
            true => (&[][..], BLOCK_TEXT_ROOM),
            false => (input, 1),
        };
        let (consumed, produced, status) =
            decompress_into(&mut self.stream, given, &mut self.text, room);
        let used = given.get(..consumed).unwrap_or_default();
        self.read += consumed as u64;
        self.unchecked.extend_from_slice(used);
        (consumed, produced, status)
    }

    /// The decoder failed: the text it wrote since the last block that
    /// passed is dropped, and the compressed bytes from there on are
    /// searched for blocks.
    fn start_recovery(&mut self) {
        self.text.truncate(self.checked);
        self.writing = false;
        let bytes = std::mem::take(&mut self.unchecked);
        let at = self.read - bytes.len() as u64;
        self.recovery = Some(Recovery {
            at,
            bytes,
            from_bit: 0,
            stream_end: None,
            first_marker_by: Some(at + READ_AHEAD as u64),
            end_searched: 0,
            header_failure: None,
        });
    }

    /// A stream after the first begins with bytes that are not a stream
    /// header (`failure`): the compressed bytes from the stream's start
    /// on are searched for blocks, as after a block that failed, since
    /// the blocks after a damaged header read as well as any; what is
    /// passed over before the first is said when it is found.
    fn start_recovery_at_header(&mut self, failure: bzip2::Error) {
        self.writing = false;
        let bytes = std::mem::take(&mut self.unchecked);
        self.recovery = Some(Recovery {
            at: self.stream_start,
            bytes,
            from_bit: 0,
            stream_end: None,
            first_marker_by: None,
            end_searched: 0,
            header_failure: Some(HeaderFailure {
                error: failure,
                stream: self.streams,
                at: self.stream_start,
            }),
        });
    }

    /// A step of the stream read as one.
    fn step_stream(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        let mut consumed = 0;
        let outcome = loop {
            if let Some(step) = self.hand_out_step(output, consumed) {
                return step;
            }
            let rest = input.get(consumed..).unwrap_or_default();
            if self.between_streams {
                if !rest.is_empty() {
                    self.stream = bzip2::Decompress::new(false);
                    self.between_streams = false;
                    self.streams += 1;
                    self.stream_start = self.read;
                } else if at_end {
                    break Ok(Stepped::End);
                } else {
                    break Ok(Stepped::More);
                }
            }
            let (used, made, status) = self.decode(rest);
            consumed += used;
            match status {
                // Every block, and the stream's combined CRC, checked.
                Ok(bzip2::Status::StreamEnd) => self.stream_ended(),
                Ok(bzip2::Status::MemNeeded) => {
                    break Err(std::io::Error::new(
                        std::io::ErrorKind::OutOfMemory,
                        "bzip2: out of memory",
                    ));
                }
                Ok(_) if self.writing => {
                    if made < BLOCK_TEXT_ROOM {
                        // It stopped for want of input: the block is
                        // written whole and passed its check.
                        self.writing = false;
                        self.block_checked();
                    }
                }
                // A block's text has begun.
                Ok(_) if made > 0 => self.writing = true,
                // It wants more input: it has used all it was given.
                Ok(_) if used > 0 || rest.is_empty() => break Ok(Stepped::More),
                Ok(_) => {
                    break Err(std::io::Error::other(
                        "bzip2: the decoder took none of its input",
                    ));
                }
                // It has just read the end of the stream, whose combined
                // CRC fails though every block passed its own (it reads
                // the stream's end only after the last block's check): the
                // text is sound, and the stream after it is read.
                Err(bzip2::Error::Data) if ends_with_stream_end(&self.unchecked) => {
                    self.stream_ended();
                    self.found.push(Damage::losing_no_text(format!(
                        "{}: bzip2 stream {} (compressed bytes {} to {}) fails its combined CRC-32 check, though each of its blocks passed its own: its text is kept, and reading goes on after it",
                        self.name, self.streams, self.stream_start, self.read
                    )));
                }
                // A stream after the first whose header is damaged, or
                // bytes after the last stream that are not bzip2 data.
                Err(e @ bzip2::Error::DataMagic) if self.streams > 1 => {
                    self.start_recovery_at_header(e);
                    return self.recover_rest(input, consumed, output, at_end);
                }
                // A block that fails its check or cannot be decoded.
                Err(bzip2::Error::Data) => {
                    self.start_recovery();
                    return self.recover_rest(input, consumed, output, at_end);
                }
                Err(e) => break Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
            }
        };
        Step {
            consumed,
            produced: 0,
            outcome,
        }
    }

    /// The step of a stream read as one that has just turned to recovery,
    /// `consumed` bytes of `input` having been used: the rest of `input`
    /// is recovery's.
    fn recover_rest(
        &mut self,
        input: &[u8],
        consumed: usize,
        output: &mut [u8],
        at_end: bool,
    ) -> Step {
        let rest = input.get(consumed..).unwrap_or_default();
        let mut step = self.step_recovering(rest, output, at_end && rest.is_empty());
        step.consumed += consumed;
        step
    }

    /// A step after a block failed: the input is taken whole, and blocks
    /// are decoded one by one as their ends are found.
    fn step_recovering(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        let consumed = input.len();
        if let Some(r) = self.recovery.as_mut() {
            r.bytes.extend_from_slice(input);
        }
        self.read += consumed as u64;
        let outcome = loop {
            if let Some(step) = self.hand_out_step(output, consumed) {
                return step;
            }
            let Some(r) = self.recovery.as_mut() else {
                break Ok(Stepped::More);
            };
            let marker = next_marker(&r.bytes, r.from_bit);
            if let (Some(header), Some((bit, _))) = (&r.header_failure, marker) {
                // Up to the header of the stream the data found begins, if
                // a sound one comes before it.
                let start = (bit / 8).checked_sub(STREAM_HEADER_BYTES as usize);
                let before = start.and_then(|from| r.bytes.get(from..bit / 8));
                let sound_header =
                    bit % 8 == 0 && matches!(before, Some([b'B', b'Z', b'h', b'1'..=b'9']));
                let end =
                    r.at + (bit / 8) as u64 - if sound_header { STREAM_HEADER_BYTES } else { 0 };
                let passed = header.at..end.max(header.at);
                let stream = header.stream;
                r.header_failure = None;
                self.header_passed_over(stream, passed);
                continue;
            }
            if let (Some(first), Some((bit, _))) = (r.first_marker_by, marker) {
                // The block that failed starts where its magic number
                // is damaged: its bytes, up to the first marker, are lost.
                r.first_marker_by = None;
                let at = r.at + (bit / 8) as u64;
                if at >= first {
                    let lost = first - READ_AHEAD as u64..at;
                    self.block_lost(lost, "has a damaged header");
                    continue;
                }
            }
            match marker {
                Some((bit, Marker::End)) => {
                    r.from_bit = bit + END_BITS;
                    r.stream_end = Some(r.from_bit.div_ceil(8));
                }
                Some((start, Marker::Block)) => {
                    let search = r.end_searched.max(start + 1);
                    let end = next_marker(&r.bytes, search).map(|(bit, _)| bit);
                    let runs_on = (r.bytes.len() - start / 8) > MOST_BLOCK_BYTES;
                    let end = match (end, runs_on) {
                        (Some(end), _) => end,
                        // Its end has not been read yet.
                        (None, false) if !at_end => {
                            // Searched up to where a marker may start in
                            // the last bytes read.
                            r.end_searched = (r.bytes.len() * 8).saturating_sub(64).max(search);
                            r.keep_from(start / 8);
                            break Ok(Stepped::More);
                        }
                        // The input ends inside it: cut short.
                        (None, false) => break Ok(Stepped::More),
                        // Not a block: bytes that only look like one.
                        (None, true) => start + MOST_BLOCK_BYTES * 8,
                    };
                    r.stream_end = None;
                    r.from_bit = end;
                    r.end_searched = 0;
                    let bytes = r.at + (start / 8) as u64..r.at + end.div_ceil(8) as u64;
                    match decode_block(&r.bytes, start, end, b'9') {
                        BlockText::Sound { text, then_lost } => {
                            self.text.extend_from_slice(&text);
                            self.block_checked();
                            if then_lost {
                                self.block_lost(
                                    bytes,
                                    "follows a block that ends before it and has a damaged header",
                                );
                            }
                        }
                        BlockText::Lost => {
                            self.block_lost(bytes, "fails its CRC-32 check or cannot be decoded")
                        }
                    }
                }
                None if !at_end => {
                    // A marker may start in the last bytes read.
                    let keep = (r.bytes.len().saturating_sub(8)).max(r.from_bit / 8);
                    r.keep_from(keep.min(r.bytes.len()));
                    break Ok(Stepped::More);
                }
                None => {
                    if let Some(header) = r.header_failure.take() {
                        // Bytes after the last stream that are not bzip2.
                        break Err(std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            header.error,
                        ));
                    }
                    if let Some(first) = r.first_marker_by.take() {
                        // Nothing after the failure can be read.
                        let lost = first - READ_AHEAD as u64..r.at + r.bytes.len() as u64;
                        self.block_lost(lost, "cannot be decoded");
                        continue;
                    }
                    let after = r.stream_end.unwrap_or(0);
                    let left = r.bytes.get(after..).unwrap_or_default();
                    break match (r.stream_end, left.is_empty()) {
                        (Some(_), true) => Ok(Stepped::End),
                        // Cut short inside a stream.
                        (None, _) => Ok(Stepped::More),
                        (Some(_), false) => Err(std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            "the bytes after the last bzip2 stream are not bzip2 data",
                        )),
                    };
                }
            }
        };
        Step {
            consumed,
            produced: 0,
            outcome,
        }
    }
}

impl Recovery {
    /// Passes over the bytes before `bytes[from]`.
    fn keep_from(&mut self, from: usize) {
        self.bytes.drain(..from);
        self.at += from as u64;
        self.from_bit = self.from_bit.saturating_sub(from * 8);
        self.stream_end = self.stream_end.and_then(|e| e.checked_sub(from));
        self.end_searched = self.end_searched.saturating_sub(from * 8);
    }
}

impl Decompressor for Bzip2 {
    fn step(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        match self.recovery {
            None => self.step_stream(input, output, at_end),
            Some(_) => self.step_recovering(input, output, at_end),
        }
    }

    fn cut_short(&self) -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "decompression not finished but EOF reached",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::bzip2_block::markers;
    use crate::source::bzip2_block::tests::bz;
    use crate::source::decoding::tests::{fixture, manifest, read_all, source_text, text};

    fn decoder() -> (Bzip2, DamageLog) {
        let found = DamageLog::default();
        (Bzip2::new("in.bz2".to_string(), found.clone()), found)
    }

    /// Reads `data` (`what`, for the messages) with reads of `input`
    /// compressed bytes and `output` bytes of text: it must give
    /// `expected` and no error. The damage it noted.
    fn read_whole(
        data: &[u8],
        (input, output): (usize, usize),
        expected: &[u8],
        what: &str,
    ) -> Vec<Damage> {
        let (bzip2, found) = decoder();
        let (out, err) = read_all(data, bzip2, input, output);
        assert!(
            err.is_none(),
            "{what}, reads of {input} and {output}: {err:?}"
        );
        assert!(
            out == expected,
            "{what}, reads of {input} and {output}: {} of {}",
            out.len(),
            expected.len()
        );
        found.since(0)
    }

    /// Three streams one after another; `damage` applied to the bytes
    /// of the first two (the first's length is given): read with reads of
    /// several sizes, each gives all of the text and no error, and notes
    /// one piece of damage that loses no text, whose message holds `said`.
    fn three_streams_damaged_losing_no_text(damage: impl Fn(&mut Vec<u8>, usize), said: &str) {
        let text = text();
        let (a, rest) = text.split_at(text.len() / 3);
        let (b, c) = rest.split_at(rest.len() / 2);
        let first = bz(a);
        let mut data = [first.clone(), bz(b), bz(c)].concat();
        damage(&mut data, first.len());
        for reads in [(4096, 1 << 20), (100, 777), (1 << 20, 1 << 16), (3, 5)] {
            let found = read_whole(&data, reads, &text, said);
            assert_eq!(found.len(), 1, "{reads:?}: {found:?}");
            assert!(!found[0].loses_text(), "{found:?}");
            assert!(!found[0].covers(0, text.len() as u64));
            assert!(found[0].why.contains(said), "{}", found[0].why);
        }
    }

    /// Streams one after another decode whole, and undamaged say nothing.
    #[test]
    fn streams_decode_whole() {
        let text = text();
        let (a, b) = text.split_at(text.len() / 3);
        let data = [bz(a), bz(b)].concat();
        let found = read_whole(&data, (4096, 1 << 20), &text, "two streams");
        assert!(found.is_empty(), "{found:?}");
    }

    /// A stream whose combined CRC-32 (the last 32 bits before at most
    /// seven bits of padding, so the whole of its second last byte) is
    /// damaged: every block passed its own check, so all its text is
    /// kept, and the streams after it are read.
    #[test]
    fn a_damaged_combined_crc_keeps_the_text_and_the_streams_after_it() {
        three_streams_damaged_losing_no_text(
            |data, first| data[first - 2] ^= 1,
            "in.bz2: bzip2 stream 1 (compressed bytes 0 to ",
        );
    }

    /// A stream after the first whose header (`BZh9`) is damaged, in its
    /// magic or its block size: its blocks are read as found, and the
    /// streams after it.
    #[test]
    fn a_damaged_stream_header_loses_no_block() {
        for at in [0, 2, 3] {
            three_streams_damaged_losing_no_text(
                |data, first| data[first + at] ^= 0x40,
                "are not a stream header (damaged, or not bzip2 data)",
            );
        }
    }

    /// Bytes after the last stream that are not bzip2 data, short or over
    /// many reads: the text, then the decoder's error, as before any
    /// search; and a stream after such bytes is read, the game where they
    /// lie marked as unreliable.
    #[test]
    fn bytes_after_the_last_stream_end_the_text_unless_a_stream_follows() {
        let text = text();
        let (a, b) = text.split_at(text.len() / 2);
        for junk in [b"not a stream\n".to_vec(), vec![0x5a; 300_000]] {
            let data = [bz(a), junk.clone()].concat();
            for (input, output) in [(4096, 1 << 20), (100, 777)] {
                let (bzip2, found) = decoder();
                let (out, err) = read_all(&data, bzip2, input, output);
                let err = err.expect("junk after the stream");
                assert!(err.to_string().contains("bz2 header missing"), "{err}");
                assert!(out == a);
                assert!(found.is_empty(), "{:?}", found.since(0));
            }
            let data = [bz(a), junk.clone(), bz(b)].concat();
            let found = read_whole(&data, (4096, 1 << 20), &text, "a stream after junk");
            assert_eq!(found.len(), 1, "{found:?}");
            let at = a.len() as u64;
            assert_eq!(found[0].text, at..at);
            let first = bz(a).len();
            let said = format!("compressed bytes {first} to {},", first + junk.len());
            assert!(found[0].why.contains(&said), "{}", found[0].why);
        }
    }

    /// The fixture of testdata/compressed/ (`bzip2 -1`, three blocks, a
    /// byte of the second flipped so that it decodes to text that fails
    /// its CRC-32): the text of the first and third blocks, as
    /// `bzip2recover` cuts them out (`expected.json`'s `blocks`), one
    /// after the other, and the second noted as lost where its text would
    /// have started; none of its text, which `bzip2 -dc` writes out before
    /// it fails. The same whatever the sizes of the reads.
    #[test]
    fn a_block_failing_its_crc_is_passed_over_whatever_the_reads() {
        let data = fixture("crc-block.pgn.bz2");
        let manifest = manifest();
        let blocks = &manifest["files"]["crc-block.pgn.bz2"]["blocks"];
        let block = |i: usize| {
            let at = |j: usize| blocks[i][j].as_u64().expect("offset") as usize;
            at(0)..at(1)
        };
        let t = source_text();
        let expected = [&t[block(0)], &t[block(2)]].concat();
        for reads in [(4096, 1 << 20), (100, 777), (1 << 20, 1 << 16), (1, 1)] {
            let found = read_whole(&data, reads, &expected, "crc-block.pgn.bz2");
            assert_eq!(found.len(), 1, "{found:?}");
            let at = block(0).end as u64;
            assert_eq!(found[0].text, at..at);
            let why = &found[0].why;
            assert!(
                why.starts_with("in.bz2: bzip2 block 2 (compressed bytes "),
                "{why}"
            );
            assert!(
                why.contains("fails its CRC-32 check or cannot be decoded"),
                "{why}"
            );
        }
    }

    /// Blocks damaged in other ways, in a stream of many: a block's magic
    /// number, its Huffman tables, its data; two blocks in a row; the
    /// stream's last block. The text is always the blocks that
    /// `decode_block` decodes alone (`bzip2_block.rs`, tested against the
    /// stream's own text), one lost block noted for each that fails, and
    /// the stream read to its end.
    #[test]
    fn damage_anywhere_in_a_block_loses_that_block_only() {
        let text = text();
        let data = bz(&text);
        let starts: Vec<usize> = markers(&data).iter().map(|&(bit, _)| bit).collect();
        let blocks = starts.len() - 1;
        assert!(blocks >= 5, "{blocks} blocks");
        let byte_in = |block: usize, at: f64| {
            let (a, b) = (starts[block] / 8, starts[block + 1] / 8);
            a + ((b - a) as f64 * at) as usize
        };
        let cases: Vec<Vec<usize>> = vec![
            vec![starts[2] / 8 + 2],                // block 3's magic number
            vec![starts[1] / 8 + 30],               // block 2's tables
            vec![byte_in(1, 0.5)],                  // block 2's data
            vec![byte_in(1, 0.5), byte_in(2, 0.5)], // blocks 2 and 3
            vec![byte_in(blocks - 1, 0.5)],         // the last block
            vec![byte_in(0, 0.5)],                  // the first block
        ];
        for flips in cases {
            let mut damaged = data.clone();
            for &at in &flips {
                damaged[at] ^= 0x24;
            }
            let mut expected = Vec::new();
            let mut lost = 0;
            for i in 0..blocks {
                match decode_block(&damaged, starts[i], starts[i + 1], b'9') {
                    BlockText::Sound { text, .. } => expected.extend(text),
                    BlockText::Lost => lost += 1,
                }
            }
            assert!(lost >= 1, "{flips:?}");
            for reads in [(4096, 1 << 20), (333, 1000)] {
                let found = read_whole(&damaged, reads, &expected, &format!("flips {flips:?}"));
                assert_eq!(found.len(), lost, "{flips:?}: {found:?}");
            }
        }
    }

    /// Streams one after another, one block each (as pbzip2 writes a
    /// file), the second stream's block damaged: the other streams' text,
    /// in order, the end-of-stream markers and stream headers between
    /// them passed over, and one lost block noted.
    #[test]
    fn a_lost_block_in_one_of_many_streams_loses_that_block_only() {
        let text = text();
        let pieces: Vec<&[u8]> = text.chunks(90_000).take(5).collect();
        let streams: Vec<Vec<u8>> = pieces.iter().map(|p| bz(p)).collect();
        let mut data = streams.concat();
        let second = streams[0].len() + streams[1].len() / 2;
        data[second] ^= 0x24;
        let expected = [pieces[0], &pieces[2..].concat()].concat();
        for reads in [(4096, 1 << 20), (333, 1000), (1 << 20, 1 << 16)] {
            let found = read_whole(&data, reads, &expected, "five streams");
            assert_eq!(found.len(), 1, "{found:?}");
            let at = pieces[0].len() as u64;
            assert_eq!(found[0].text, at..at);
        }
    }

    /// A file cut inside a block after a block that failed: the text of
    /// the blocks between, then cut short.
    #[test]
    fn a_cut_after_a_lost_block_ends_the_text_as_a_cut() {
        let text = text();
        let data = bz(&text);
        let starts: Vec<usize> = markers(&data).iter().map(|&(bit, _)| bit).collect();
        let mut damaged = data.clone();
        damaged[(starts[0] + starts[1]) / 16] ^= 0x24;
        let cut = &damaged[..(starts[2] + starts[3]) / 16];
        let (out, err) = read_all(cut, decoder().0, 4096, 1 << 20);
        let BlockText::Sound { text: second, .. } = decode_block(&data, starts[1], starts[2], b'9')
        else {
            panic!("block 2 lost");
        };
        assert!(out == second, "{} bytes", out.len());
        let err = err.expect("cut short");
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof, "{err}");
    }
}
