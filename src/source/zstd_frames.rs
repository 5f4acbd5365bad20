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
//! on is one last piece. A piece that fails to decode (that last piece, a
//! frame whose data or checksum is damaged) hands out none of its text:
//! how much of a damaged frame's text a streaming decoder gives before its
//! error depends on the sizes of the reads that asked for it, so no piece
//! decoded alone can give the same. The file is then read again from its
//! start as one stream, by the one-thread decoder (a [`Restart`]), and
//! read on past the text already handed out: the text up to the break and
//! the error are exactly the one-thread decoder's, whatever `-j`. Only a
//! damaged file pays for that second reading.

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

/// What a decoder thread hands over for one piece: its text, or `None`
/// when it failed to decode (the one-thread decoder that takes over then
/// gives the text before the break and says why).
type Decoded = Option<Vec<u8>>;

/// The whole file decoded again as one stream, the way one thread decodes
/// it: the text, and where its decoding thread's CPU nanoseconds will be
/// once it ends. Called once, when a piece fails.
pub(super) type Restart = Box<dyn FnOnce() -> std::io::Result<Stream> + Send>;

/// A [`Restart`]'s text, and its decoder's CPU nanoseconds.
pub(super) type Stream = (Box<dyn Read + Send>, Option<Arc<AtomicU64>>);

/// The text of a multi-frame `.zst` file, decoded on `k` threads ahead of
/// the reader.
pub(super) struct ParallelFrames {
    /// One channel per decoder thread; piece `i` comes from `rx[i % k]`.
    rx: Vec<Receiver<Decoded>>,
    pieces: Vec<Piece>,
    next: usize,
    text: Vec<u8>,
    at: usize,
    /// Text handed out so far: what the one-thread stream passes over
    /// once it takes over.
    handed_out: u64,
    /// The one-thread decoder, made when a piece fails ([`Restart`]).
    restart: Option<Restart>,
    /// That decoder once made, and its CPU nanoseconds (added to
    /// `cpu_ns` when it ends).
    stream: Option<Stream>,
    ended: bool,
    /// Compressed bytes whose text has been handed over, for a progress
    /// bar by input bytes.
    raw_read: Arc<AtomicU64>,
    /// The decoder threads' CPU nanoseconds, added as each ends.
    cpu_ns: Arc<AtomicU64>,
    threads: Vec<JoinHandle<()>>,
}

impl ParallelFrames {
    /// Starts `k` decoder threads over the pieces of `data`; `restart`
    /// decodes the whole of `data` as one stream if a piece fails.
    pub fn spawn(
        data: Shared,
        pieces: Vec<Piece>,
        k: usize,
        raw_read: Arc<AtomicU64>,
        restart: Restart,
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
            handed_out: 0,
            restart: Some(restart),
            stream: None,
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

    /// What comes after the text handed out: the next piece's text
    /// (`Some(true)`), the end (`Some(false)`), or `None` when the piece
    /// failed (its text is not handed out) or its thread is gone.
    fn next_piece(&mut self) -> Option<bool> {
        let Some(piece) = self.pieces.get(self.next) else {
            return Some(false);
        };
        let from = self.next % self.rx.len();
        // No piece: its decoder thread panicked.
        let text = self.rx.get(from).map(Receiver::recv)?.ok()??;
        self.raw_read
            .fetch_add(piece.bytes.len() as u64, Ordering::Relaxed);
        self.next += 1;
        self.text = text;
        self.at = 0;
        Some(true)
    }

    /// Hands reading over to the one-thread decoder, once a piece has
    /// failed: stops the decoder threads, decodes the file from its start
    /// and passes over the text already handed out.
    fn take_over(&mut self) -> std::io::Result<()> {
        self.join();
        let restart = self
            .restart
            .take()
            .ok_or_else(|| std::io::Error::other("the zstd stream was restarted twice"))?;
        let (mut text, cpu) = restart()?;
        let passed = std::io::copy(&mut (&mut text).take(self.handed_out), &mut std::io::sink())?;
        // The pieces before the failed one are whole frames that decoded
        // alone, and so decode the same in the stream: it cannot end
        // before their text.
        if passed != self.handed_out {
            return Err(std::io::Error::other(
                "the zstd stream ended before the text of its frames",
            ));
        }
        self.stream = Some((text, cpu));
        Ok(())
    }

    /// Reads from the one-thread decoder, adding its CPU time once it ends.
    fn read_stream(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((text, cpu)) = &mut self.stream else {
            return Ok(0);
        };
        let read = text.read(buf);
        if matches!(read, Ok(0) | Err(_))
            && !buf.is_empty()
            && let Some(cpu) = cpu.take()
        {
            self.cpu_ns
                .fetch_add(cpu.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        read
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
        let failed = decoded.is_none();
        if tx.send(decoded).is_err() || failed {
            break;
        }
    }
    cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
}

/// One piece's whole text, or `None` when it does not decode to its end.
fn decode_piece(bytes: &[u8], content_size: Option<u64>) -> Decoded {
    // The stated size is a hint only: a lying header cannot make us
    // reserve more than a generous multiple of the compressed bytes.
    let hint = content_size.map_or(0, |n| n.min(bytes.len() as u64 * 64) as usize);
    let mut text = Vec::with_capacity(hint);
    let mut decoder = zstd::stream::read::Decoder::with_buffer(bytes).ok()?;
    decoder.read_to_end(&mut text).ok()?;
    Some(text)
}

impl Read for ParallelFrames {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stream.is_some() {
            return self.read_stream(buf);
        }
        while self.at >= self.text.len() {
            if self.ended {
                return Ok(0);
            }
            match self.next_piece() {
                Some(true) => {}
                Some(false) => {
                    self.ended = true;
                    self.join();
                    return Ok(0);
                }
                None => {
                    if let Err(e) = self.take_over() {
                        self.ended = true;
                        return Err(e);
                    }
                    return self.read_stream(buf);
                }
            }
        }
        let n = hand_out(&self.text, &mut self.at, buf);
        self.handed_out += n as u64;
        Ok(n)
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

    /// The reference: `data` decoded as one stream.
    fn one_stream(data: Vec<u8>) -> Restart {
        Box::new(move || {
            let text = zstd::stream::read::Decoder::new(std::io::Cursor::new(data))?;
            Ok((Box::new(text) as Box<dyn Read + Send>, None))
        })
    }

    fn read_all(data: Vec<u8>, k: usize) -> (Vec<u8>, Option<std::io::Error>) {
        let pieces = pieces(&data);
        let restart = one_stream(data.clone());
        let shared: Shared = Arc::new(data);
        let mut r =
            ParallelFrames::spawn(shared, pieces, k, Arc::default(), restart).expect("threads");
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

    /// A frame whose checksum fails, between sound ones: the text and the
    /// error of one stream over the file, on any number of threads (the
    /// frames before it from the threads, the rest from the stream).
    #[test]
    fn a_damaged_frame_gives_what_one_stream_gives() {
        let texts: Vec<Vec<u8>> = (0..5)
            .map(|i| {
                format!("[Event \"{i}\"]\n\n1. d4 *\n")
                    .repeat(300)
                    .into_bytes()
            })
            .collect();
        let mut data = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let mut f = zstd::stream::encode_all(&t[..], 3).expect("compress");
            if i == 2 {
                // The frame's last byte: its checksum.
                *f.last_mut().expect("a frame") ^= 0x55;
            }
            data.extend(f);
        }
        let mut want = Vec::new();
        let want_err = zstd::stream::read::Decoder::new(&data[..])
            .expect("decoder")
            .read_to_end(&mut want)
            .err();
        assert!(want_err.is_some(), "the damage went unseen");
        assert!(want.starts_with(&texts[..2].concat()));
        for k in [1, 2, 3] {
            let (got, e) = read_all(data.clone(), k);
            assert_eq!(got, want, "k = {k}");
            let e = e.map(|e| e.to_string());
            assert_eq!(e, want_err.as_ref().map(|e| e.to_string()), "k = {k}");
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
