//! A `.bz2` file decoded block by block on several threads, as `lbzip2`
//! decodes one.
//!
//! One bzip2 decoder gives about 40 MB of PGN a CPU-second, a fifth of what
//! one replay thread takes: read as one stream, a `.bz2` took eight times
//! the time of its text (50 MB of the throughput corpus at `-j 2`: 1.28 s
//! against 0.16 s), whatever the cores. Its blocks hold nothing that
//! refers to another (`bzip2_block.rs`), so a file read by name is walked,
//! on a thread of its own, from marker to marker: block `i` is dealt to
//! decoder thread `i mod k`, decoded there as a stream of its own with its
//! CRC-32 checked, and the reader takes the texts back in order, checking
//! each stream's combined CRC-32 against its blocks' as it goes. At most
//! one block waits for each thread besides the one it decodes, so memory
//! does not grow with the file.
//!
//! This is the reading of a sound file. Anything else ends it where the
//! reader meets it, in order: a block that fails (or a magic number met by
//! chance inside a block's data, which cuts the block in two: one chance
//! in 2^48 a bit), a combined CRC-32 that fails, a stream that does not
//! end where its blocks do, bytes after a stream that are not another one.
//! The file is then read again from its start by the one-thread decoder
//! (`bzip2.rs`), whose text is the same up to there and which finds, says
//! and passes over the damage as it does for any `.bz2`; the text already
//! handed out is passed over. So what a damaged file gives does not depend
//! on `-j`, and the rare damaged file pays for it in time.

use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::bzip2::Bzip2;
use super::bzip2_block::{
    BlockText, END_BITS, MOST_BLOCK_BYTES, Marker, decode_block, marker_at, next_marker, stored_crc,
};
use super::damage::DamageLog;
use super::decoding::Decoding;
use super::read_ahead::read_buffered;
use super::readers::{Counting, SharedReader};
use super::window::Shared;
use crate::cpu_time::thread_cpu_ns;

/// What the walk finds next in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    /// A block: its bits, from its magic number up to the next marker, and
    /// the level of its stream (the digit of the stream's header).
    Block { bits: Range<usize>, level: u8 },
    /// A stream's end-of-stream marker, with the combined CRC-32 it holds.
    StreamEnd { combined_crc: u32 },
    /// From here on the file is not a sound bzip2 stream.
    Unsound,
}

/// Where the walk stands.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// At the byte where a stream's header should begin (or the file end).
    Header(usize),
    /// At a bit where a block or the stream's end must begin.
    Marker {
        bit: usize,
        level: u8,
    },
    Done,
}

/// The pieces of a file, found one at a time as the decoders come to
/// them, up to the first that is not sound.
struct Walk<'a> {
    data: &'a [u8],
    place: Place,
}

impl<'a> Walk<'a> {
    fn new(data: &'a [u8]) -> Self {
        Walk {
            data,
            place: Place::Header(0),
        }
    }

    fn unsound(&mut self) -> Option<Piece> {
        self.place = Place::Done;
        Some(Piece::Unsound)
    }
}

impl Iterator for Walk<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        let data = self.data;
        loop {
            match self.place {
                Place::Done => return None,
                Place::Header(at) if at == data.len() => {
                    self.place = Place::Done;
                    return None;
                }
                Place::Header(at) => match data.get(at..at + 4) {
                    Some(&[b'B', b'Z', b'h', level @ b'1'..=b'9']) => {
                        self.place = Place::Marker {
                            bit: (at + 4) * 8,
                            level,
                        };
                    }
                    _ => return self.unsound(),
                },
                Place::Marker { bit, level } => {
                    return match marker_at(data, bit) {
                        Some(Marker::Block) => {
                            // A block is never longer: the search stops there.
                            let most = data.len().min(bit / 8 + MOST_BLOCK_BYTES + 8);
                            let end = data.get(..most).and_then(|d| next_marker(d, bit + 1));
                            let Some((end, _)) = end else {
                                return self.unsound();
                            };
                            self.place = Place::Marker { bit: end, level };
                            Some(Piece::Block {
                                bits: bit..end,
                                level,
                            })
                        }
                        Some(Marker::End) if bit + END_BITS <= data.len() * 8 => {
                            self.place = Place::Header((bit + END_BITS).div_ceil(8));
                            Some(Piece::StreamEnd {
                                combined_crc: stored_crc(data, bit),
                            })
                        }
                        _ => self.unsound(),
                    };
                }
            }
        }
    }
}

/// What a decoder thread hands over for one piece: the piece, and a
/// block's text when it decoded sound (`None` for the other pieces, and
/// for a block that failed). `None` when it has no more pieces (so the
/// file has none: piece `i` is thread `i mod k`'s).
type Handed = Option<(Piece, Option<Vec<u8>>)>;

/// What a block reader reports as it goes, to counters its caller holds.
pub(super) struct Reported {
    /// Compressed bytes whose text has been handed over.
    pub raw_read: Arc<AtomicU64>,
    /// The walk's and the decoder threads' CPU nanoseconds, added as each
    /// ends (all have ended when the reader has met the end).
    pub cpu_ns: Arc<AtomicU64>,
    /// The damage the one-thread decoder finds.
    pub found: DamageLog,
}

/// The text of a `.bz2` file, decoded block by block on `k` threads ahead
/// of the reader, then, from anything that is not a sound stream on, by
/// the one-thread decoder.
pub(super) struct BlockReader {
    /// The input's name, for the damage the one-thread decoder finds.
    name: String,
    data: Shared,
    /// One channel per decoder thread; piece `i` comes from `rx[i % k]`.
    rx: Vec<Receiver<Handed>>,
    next: usize,
    text: Vec<u8>,
    at: usize,
    /// Text handed out so far.
    handed_out: u64,
    /// The combined CRC-32 of the blocks of the stream being read so far.
    combined_crc: u32,
    /// Once something is not sound: the one-thread decoder's text, from
    /// the file's start, the text handed out passed over.
    again: Option<Box<dyn BufRead + Send>>,
    ended: bool,
    reported: Reported,
    /// The decoder threads and the walk's.
    threads: Vec<JoinHandle<()>>,
}

impl BlockReader {
    /// Starts `k` decoder threads over the blocks of the `.bz2` file
    /// `data` (named `name`), walked on a thread of its own, reporting to
    /// `reported`.
    pub fn spawn(
        data: Shared,
        name: String,
        k: usize,
        reported: Reported,
    ) -> std::io::Result<BlockReader> {
        let mut deal = Vec::with_capacity(k.max(1));
        let mut rx = Vec::with_capacity(k.max(1));
        let mut threads = Vec::with_capacity(k.max(1) + 1);
        for _ in 0..k.max(1) {
            let (feed_tx, feed) = sync_channel::<Piece>(1);
            let (tx, handed) = sync_channel(0);
            let (data, cpu) = (Arc::clone(&data), Arc::clone(&reported.cpu_ns));
            threads.push(
                std::thread::Builder::new()
                    .name("pgnmill-decode".into())
                    .spawn(move || decode_every(&data, &feed, &tx, &cpu))?,
            );
            deal.push(feed_tx);
            rx.push(handed);
        }
        let (walked, cpu) = (Arc::clone(&data), Arc::clone(&reported.cpu_ns));
        let walk = std::thread::Builder::new()
            .name("pgnmill-walk".into())
            .spawn(move || {
                let start = thread_cpu_ns();
                for (i, piece) in Walk::new((*walked).as_ref()).enumerate() {
                    let to = deal.get(i % deal.len());
                    if to.is_none_or(|to| to.send(piece).is_err()) {
                        break;
                    }
                }
                cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
            })?;
        threads.push(walk);
        Ok(BlockReader {
            name,
            data,
            rx,
            next: 0,
            text: Vec::new(),
            at: 0,
            handed_out: 0,
            combined_crc: 0,
            again: None,
            ended: false,
            reported,
            threads,
        })
    }

    /// Stops the threads (the channels close: each stops at its next
    /// hand-over) and waits for them, so that their CPU time is counted.
    fn join(&mut self) {
        self.rx.clear();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }

    /// Takes the next piece in order: a block's text to hand out, a
    /// stream's end checked, the file's end, or the switch to the
    /// one-thread decoder.
    fn next_piece(&mut self) -> std::io::Result<()> {
        let from = self.next % self.rx.len().max(1);
        let handed = self
            .rx
            .get(from)
            .and_then(|rx| rx.recv().ok())
            .ok_or_else(|| std::io::Error::other("a bzip2 decoding thread stopped"))?;
        self.next += 1;
        let raw_read = &self.reported.raw_read;
        match handed {
            None => {
                self.ended = true;
                raw_read.store((*self.data).as_ref().len() as u64, Ordering::Relaxed);
                self.join();
            }
            Some((Piece::Block { bits, .. }, Some(text))) => {
                let block_crc = stored_crc((*self.data).as_ref(), bits.start);
                self.combined_crc = self.combined_crc.rotate_left(1) ^ block_crc;
                raw_read.store((bits.end / 8) as u64, Ordering::Relaxed);
                self.text = text;
                self.at = 0;
            }
            Some((Piece::StreamEnd { combined_crc }, _)) if combined_crc == self.combined_crc => {
                self.combined_crc = 0;
            }
            Some(_) => self.read_again()?,
        }
        Ok(())
    }

    /// Hands the rest of the file to the one-thread decoder: the decoder
    /// threads stop, the file is decoded again from its start, and the
    /// text already handed out is passed over.
    fn read_again(&mut self) -> std::io::Result<()> {
        self.join();
        self.text = Vec::new();
        self.at = 0;
        self.reported.raw_read.store(0, Ordering::Relaxed);
        let raw = Counting {
            inner: SharedReader {
                data: Arc::clone(&self.data),
                at: 0,
            },
            count: Arc::clone(&self.reported.raw_read),
        };
        let decoder = Bzip2::new(self.name.clone(), self.reported.found.clone());
        let mut again = BufReader::new(Decoding::buffered(raw, decoder));
        let mut handed = self.handed_out;
        while handed > 0 {
            let n = match again.fill_buf()? {
                [] => break,
                text => text
                    .len()
                    .min(usize::try_from(handed).unwrap_or(usize::MAX)),
            };
            again.consume(n);
            handed -= n as u64;
        }
        self.again = Some(Box::new(again));
        Ok(())
    }
}

impl Read for BlockReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl BufRead for BlockReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.again.is_none() && self.at >= self.text.len() && !self.ended {
            self.next_piece()?;
        }
        match &mut self.again {
            Some(again) => again.fill_buf(),
            None => Ok(self.text.get(self.at..).unwrap_or_default()),
        }
    }

    fn consume(&mut self, n: usize) {
        match &mut self.again {
            Some(again) => again.consume(n),
            None => {
                let n = n.min(self.text.len().saturating_sub(self.at));
                self.at += n;
                self.handed_out += n as u64;
            }
        }
    }
}

impl Drop for BlockReader {
    /// A reader dropped early (the run stopped): the channels close, and
    /// each thread stops at its next hand-over; none is waited for.
    fn drop(&mut self) {
        self.rx.clear();
    }
}

/// A decoder thread: decodes each block of `feed` alone and hands it over
/// with its text, in the order dealt.
fn decode_every(data: &Shared, feed: &Receiver<Piece>, tx: &SyncSender<Handed>, cpu: &AtomicU64) {
    let start = thread_cpu_ns();
    let bytes = (**data).as_ref();
    let mut reader_gone = false;
    for piece in feed {
        let text = match &piece {
            Piece::Block { bits, level } => match decode_block(bytes, bits.start, bits.end, *level)
            {
                BlockText::Sound {
                    text,
                    then_lost: false,
                } => Some(text),
                _ => None,
            },
            Piece::StreamEnd { .. } | Piece::Unsound => None,
        };
        if tx.send(Some((piece, text))).is_err() {
            reader_gone = true;
            break;
        }
    }
    cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
    if !reader_gone {
        let _ = tx.send(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::bzip2_block::tests::bz;
    use crate::source::decoding::tests::{fixture, manifest, read_all, source_text, text};

    fn shared(data: &[u8]) -> Shared {
        Arc::new(data.to_vec())
    }

    /// Reads `data` through a block reader on `k` threads, `output` bytes
    /// at a time: the text, the error that ended it, the damage noted, and
    /// whether the one-thread decoder had to read it again.
    fn read_blocks(
        data: &[u8],
        k: usize,
        output: usize,
    ) -> (
        Vec<u8>,
        Option<String>,
        Vec<crate::source::damage::Damage>,
        bool,
    ) {
        let reported = Reported {
            raw_read: Arc::default(),
            cpu_ns: Arc::default(),
            found: DamageLog::default(),
        };
        let (raw_read, found) = (Arc::clone(&reported.raw_read), reported.found.clone());
        let mut reader = BlockReader::spawn(shared(data), "in.bz2".into(), k, reported).unwrap();
        let mut text = Vec::new();
        let mut buf = vec![0u8; output];
        let error = loop {
            match reader.read(&mut buf) {
                Ok(0) => break None,
                Ok(n) => text.extend_from_slice(&buf[..n]),
                Err(e) => break Some(e.to_string()),
            }
        };
        if error.is_none() {
            assert_eq!(raw_read.load(Ordering::Relaxed), data.len() as u64);
        }
        (text, error, found.since(0), reader.again.is_some())
    }

    /// What the one-thread decoder (`bzip2.rs`) gives for `data`.
    fn read_one_stream(
        data: &[u8],
    ) -> (Vec<u8>, Option<String>, Vec<crate::source::damage::Damage>) {
        let found = DamageLog::default();
        let (text, error) = read_all(data, Bzip2::new("in.bz2".into(), found.clone()), 4096, 7000);
        (text, error.map(|e| e.to_string()), found.since(0))
    }

    /// Streams of many blocks (the bzip2 library at its fastest: 100 kB
    /// blocks) one after another, an empty stream among them, and the
    /// reference tool's file of three streams: on 1, 2, 3 and 5 threads,
    /// and with reads of several sizes, the text is exactly what was
    /// compressed, with no damage, read in blocks to the end.
    #[test]
    fn a_sound_file_gives_its_text_on_any_number_of_threads() {
        let text = text();
        let (a, b) = text.split_at(text.len() / 3);
        let data = [bz(a), bz(b""), bz(b)].concat();
        let manifest = manifest();
        let sample = source_text();
        let streams = manifest["files"]["streams.pgn.bz2"]["text"].clone();
        let (from, to) = (streams[0].as_u64().unwrap(), streams[1].as_u64().unwrap());
        for (what, data, expected) in [
            ("library", data, text.as_slice()),
            (
                "streams.pgn.bz2",
                fixture("streams.pgn.bz2"),
                &sample[from as usize..to as usize],
            ),
        ] {
            for (k, output) in [(1, 1 << 16), (2, 4096), (3, 1 << 20), (5, 777)] {
                let (got, error, damage, again) = read_blocks(&data, k, output);
                assert_eq!(error, None, "{what}, {k} threads");
                assert!(
                    got == expected,
                    "{what}, {k} threads: {} of {}",
                    got.len(),
                    expected.len()
                );
                assert!(damage.is_empty(), "{what}, {k} threads: {damage:?}");
                assert!(!again, "{what}, {k} threads: read again");
            }
        }
    }

    /// Whatever is not a sound stream (a block failing its CRC-32, a
    /// stream's combined CRC-32 or header damaged, bytes after the last
    /// stream, a file cut short, a flipped bit in a block of a file made
    /// by the library) ends the reading in blocks: the text, the error
    /// and the damage are then the one-thread decoder's, on any number of
    /// threads.
    #[test]
    fn what_is_not_sound_is_read_as_the_one_thread_decoder_reads_it() {
        let text = text();
        let mut flipped = bz(&text);
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x08;
        let mut files: Vec<(String, Vec<u8>)> = [
            "crc-block.pgn.bz2",
            "crc-stream.pgn.bz2",
            "header-stream.pgn.bz2",
            "garbage-after.pgn.bz2",
            "cut-short.pgn.bz2",
        ]
        .iter()
        .map(|name| (name.to_string(), fixture(name)))
        .collect();
        files.push(("a flipped bit".into(), flipped));
        files.push(("no stream header".into(), b"BZh0 and more".to_vec()));
        for (what, data) in files {
            let (text, error, damage) = read_one_stream(&data);
            for k in [1, 2, 3] {
                let (got, got_error, got_damage, again) = read_blocks(&data, k, 5000);
                assert!(again, "{what}, {k} threads: not read again");
                assert!(
                    got == text,
                    "{what}, {k} threads: {} of {}",
                    got.len(),
                    text.len()
                );
                assert_eq!(got_error, error, "{what}, {k} threads");
                assert_eq!(got_damage, damage, "{what}, {k} threads");
            }
        }
    }
}
