//! A `.zst` file of many frames decoded on several threads.
//!
//! One zstd decoder decodes about 650 MB of PGN per CPU-second and one
//! replay thread takes about 200: a single decoder feeds only three or four
//! replay threads. The files researchers download most, the lichess dumps,
//! are written by pzstd: many independent frames (each behind a skippable
//! frame that gives its size), which can be decoded at the same time.
//!
//! The frames are found by their headers (`ZSTD_findFrameCompressedSize`,
//! which walks the block headers without decoding; a skippable frame is
//! passed over whatever it holds). Decoder thread `t` of `k` decodes frames
//! `t`, `t + k`, `t + 2k`, ... in turn and hands each over through a
//! channel of its own that holds nothing (a rendezvous): the reader takes
//! frame `i` from thread `i mod k`, so the text comes out in order and at
//! most `k + 1` frames' text is in memory, whatever the file's size.
//!
//! Where the headers stop making sense (a file cut in the middle of a
//! frame, bytes that are not zstd), the rest of the file from that frame
//! on is one last piece, decoded as a stream by the thread whose turn it
//! is: its text up to the break, then the decoder's error, exactly as the
//! one-thread decoder gives them.

use std::io::Read;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::read_ahead::hand_out;
use super::window::Shared;
use crate::cpu_time::thread_cpu_ns;

/// The first four bytes of a skippable frame, little-endian, without its
/// low four bits (which may be anything).
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// A piece of the file to decode: a whole data frame, or (last) the rest
/// of the file from where the frame headers stop making sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Piece {
    pub bytes: Range<usize>,
    /// The text's size, when the frame header states it.
    pub content_size: Option<u64>,
}

/// The data frames of `data`, in order, skippable frames left out; a tail
/// that is not a whole frame is the last piece.
pub(super) fn pieces(data: &[u8]) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut at = 0;
    while let Some(rest) = data.get(at..).filter(|r| !r.is_empty()) {
        let size = match zstd::zstd_safe::find_frame_compressed_size(rest) {
            Ok(size) if size > 0 && size <= rest.len() => size,
            _ => {
                pieces.push(Piece {
                    bytes: at..data.len(),
                    content_size: None,
                });
                break;
            }
        };
        if !is_skippable(rest) {
            pieces.push(Piece {
                bytes: at..at + size,
                content_size: zstd::zstd_safe::get_frame_content_size(rest).ok().flatten(),
            });
        }
        at += size;
    }
    pieces
}

fn is_skippable(frame: &[u8]) -> bool {
    frame
        .get(..4)
        .and_then(|m| m.try_into().ok())
        .is_some_and(|m: [u8; 4]| u32::from_le_bytes(m) & !0xF == SKIPPABLE_MAGIC)
}

/// What a decoder thread hands over for one piece: its text, and the
/// error that ended it, if one did.
type Decoded = (Vec<u8>, Option<std::io::Error>);

/// The text of a multi-frame `.zst` file, decoded on `k` threads ahead of
/// the reader.
pub(super) struct ParallelFrames {
    /// One channel per decoder thread; piece `i` comes from `rx[i % k]`.
    rx: Vec<Receiver<Decoded>>,
    pieces: Vec<Piece>,
    next: usize,
    text: Vec<u8>,
    at: usize,
    /// The error that ended the current piece, delivered after its text.
    error: Option<std::io::Error>,
    ended: bool,
    /// Compressed bytes whose text has been handed over, for a progress
    /// bar by input bytes.
    raw_read: Arc<AtomicU64>,
    /// The decoder threads' CPU nanoseconds, added as each ends.
    cpu_ns: Arc<AtomicU64>,
    threads: Vec<JoinHandle<()>>,
}

impl ParallelFrames {
    /// Starts `k` decoder threads over the pieces of `data`.
    pub fn spawn(
        data: Shared,
        pieces: Vec<Piece>,
        k: usize,
        raw_read: Arc<AtomicU64>,
    ) -> std::io::Result<ParallelFrames> {
        let k = k.clamp(1, pieces.len().max(1));
        let cpu_ns = Arc::new(AtomicU64::new(0));
        let shared_pieces: Arc<[Piece]> = pieces.clone().into();
        let mut rx = Vec::with_capacity(k);
        let mut threads = Vec::with_capacity(k);
        for t in 0..k {
            let (tx, r) = sync_channel(0);
            rx.push(r);
            let (data, pieces, cpu) = (
                Arc::clone(&data),
                Arc::clone(&shared_pieces),
                Arc::clone(&cpu_ns),
            );
            threads.push(
                std::thread::Builder::new()
                    .name("pgnmill-decode".into())
                    .spawn(move || decode_every(t, k, &data, &pieces, &tx, &cpu))?,
            );
        }
        Ok(ParallelFrames {
            rx,
            pieces,
            next: 0,
            text: Vec::new(),
            at: 0,
            error: None,
            ended: false,
            raw_read,
            cpu_ns,
            threads,
        })
    }

    /// Where the decoder threads' CPU nanoseconds will be once they end.
    pub fn cpu_ns(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.cpu_ns)
    }

    /// Takes the next piece's text; `false` at the end.
    fn next_piece(&mut self) -> bool {
        let Some(piece) = self.pieces.get(self.next) else {
            return false;
        };
        let from = self.next % self.rx.len();
        let Some(Ok((text, error))) = self.rx.get(from).map(Receiver::recv) else {
            // A decoder thread is gone without its piece: it panicked.
            self.error = Some(std::io::Error::other("a zstd decoder thread stopped"));
            return true;
        };
        self.raw_read
            .fetch_add(piece.bytes.len() as u64, Ordering::Relaxed);
        self.next += 1;
        self.text = text;
        self.at = 0;
        self.error = error;
        true
    }

    /// Waits for every decoder thread, so that their CPU time is counted
    /// before the reader reports the end.
    fn join(&mut self) {
        self.rx.clear();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Decoder thread `t` of `k`: decodes pieces `t`, `t + k`, ... and hands
/// each over in turn; stops at the first error, or when the reader is
/// gone (the run stopped).
fn decode_every(
    t: usize,
    k: usize,
    data: &Shared,
    pieces: &[Piece],
    tx: &SyncSender<Decoded>,
    cpu: &AtomicU64,
) {
    let start = thread_cpu_ns();
    for piece in pieces.iter().skip(t).step_by(k) {
        let bytes = (**data)
            .as_ref()
            .get(piece.bytes.clone())
            .unwrap_or_default();
        let decoded = decode_piece(bytes, piece.content_size);
        let failed = decoded.1.is_some();
        if tx.send(decoded).is_err() || failed {
            break;
        }
    }
    cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
}

/// One piece's text, as a streaming decoder gives it: up to a break, then
/// the break.
fn decode_piece(bytes: &[u8], content_size: Option<u64>) -> Decoded {
    // The stated size is a hint only: a lying header cannot make us
    // reserve more than a generous multiple of the compressed bytes.
    let hint = content_size.map_or(0, |n| n.min(bytes.len() as u64 * 64) as usize);
    let mut text = Vec::with_capacity(hint);
    let error = match zstd::stream::read::Decoder::with_buffer(bytes) {
        Ok(mut decoder) => decoder.read_to_end(&mut text).err(),
        Err(e) => Some(e),
    };
    (text, error)
}

impl Read for ParallelFrames {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at >= self.text.len() {
            if let Some(e) = self.error.take() {
                self.ended = true;
                self.join();
                return Err(e);
            }
            if self.ended || !self.next_piece() {
                self.ended = true;
                self.join();
                return Ok(0);
            }
        }
        Ok(hand_out(&self.text, &mut self.at, buf))
    }
}

impl Drop for ParallelFrames {
    /// A reader dropped early (the run stopped): the channels close, each
    /// thread stops at its next hand-over; none is waited for.
    fn drop(&mut self) {
        self.rx.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &[u8]) -> Vec<u8> {
        zstd::bulk::compress(text, 3).expect("compress")
    }

    fn skippable(content: &[u8]) -> Vec<u8> {
        let mut f = 0x184D_2A5Eu32.to_le_bytes().to_vec();
        f.extend((content.len() as u32).to_le_bytes());
        f.extend(content);
        f
    }

    fn read_all(data: Vec<u8>, k: usize) -> (Vec<u8>, Option<std::io::Error>) {
        let pieces = pieces(&data);
        let shared: Shared = Arc::new(data);
        let mut r = ParallelFrames::spawn(shared, pieces, k, Arc::default()).expect("threads");
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).err();
        (out, e)
    }

    #[test]
    fn frames_come_out_in_order_whatever_the_threads() {
        let texts: Vec<Vec<u8>> = (0..9)
            .map(|i| {
                format!("[Event \"{i}\"]\n\n1. e4 *\n")
                    .repeat(50 * (i + 1))
                    .into_bytes()
            })
            .collect();
        let mut data = skippable(b"\0\0\0\0");
        for t in &texts {
            data.extend(frame(t));
            data.extend(skippable(b"pzstd"));
        }
        let want: Vec<u8> = texts.concat();
        for k in [1, 2, 3, 16] {
            let (got, e) = read_all(data.clone(), k);
            assert!(e.is_none(), "{e:?}");
            assert_eq!(got, want, "k = {k}");
        }
    }

    #[test]
    fn a_cut_file_gives_the_text_before_the_cut_then_the_error() {
        let a = "1. e4 e5 *\n".repeat(2000).into_bytes();
        let b = "1. d4 d5 *\n".repeat(2000).into_bytes();
        let mut data = frame(&a);
        let fb = frame(&b);
        data.extend(&fb[..fb.len() / 2]);
        // The one-thread streaming decoder is the reference.
        let mut want = Vec::new();
        let want_err = zstd::stream::read::Decoder::new(&data[..])
            .expect("decoder")
            .read_to_end(&mut want)
            .err();
        let (got, e) = read_all(data, 2);
        assert_eq!(got, want);
        assert_eq!(e.map(|e| e.to_string()), want_err.map(|e| e.to_string()));
    }
}
