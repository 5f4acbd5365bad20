//! A `.zst` file of many frames, or a pzstd stream, decoded frame by
//! frame, on one thread or several.
//!
//! One zstd decoder decodes about 650 MB of PGN per CPU-second and one
//! replay thread takes about 200: a single decoder feeds only three or four
//! replay threads. The files researchers download most, the lichess dumps,
//! are written by pzstd: many independent frames (each behind a skippable
//! frame that gives its size), which can be decoded at the same time.
//!
//! The frames are found by their headers (`ZSTD_findFrameCompressedSize`,
//! which walks the block headers without decoding; a skippable frame is
//! passed over whatever it holds), one at a time on a thread of its own
//! ([`Walk`]), which deals frame `i` to decoder thread `i mod k` (at most
//! one waiting for each thread, besides the one it decodes): the walk
//! keeps just ahead of the decoders, rather than reading a 30 GB file's
//! block headers, and so the whole file from disk, before the first
//! frame is decoded. Each decoder thread hands each text over through a
//! channel of its own that holds nothing (a rendezvous): the reader takes
//! frame `i` from thread `i mod k`, so the text comes out in order and at
//! most `2k + 1` frames' buffers are in memory (below), whatever the
//! file's size.
//!
//! A stream cannot be walked ahead of its reading; a pzstd stream is cut
//! into the same pieces as it is read, by the size pzstd writes before
//! every frame (`pzstd_cut.rs`), and dealt in the same way (at most one
//! frame's compressed bytes waiting for each thread).
//!
//! Where a frame's headers make no sense (damaged), pzstd's hint before it
//! still gives its end, when another frame starts there: the frame is a
//! piece that fails ([`Extent::Announced`]). Where nothing gives the next
//! frame (a file cut in the middle of a frame, bytes that are not zstd),
//! the rest of the file from that frame on is one last piece. A piece
//! that fails to decode is decoded again,
//! alone, by the one-thread decoder ([`Decoding`], which gives the same
//! text before an error whatever the sizes of the reads), so that what it
//! gives does not depend on `-j`:
//!
//! - a frame whose data or checksum is damaged, and whose end its headers
//!   still give, is passed over as gzip passes over a member whose CRC-32
//!   fails: its text up to the error is handed out and marked as damage
//!   ([`DamageLog`]: the games there become rows of status
//!   `damaged_input`), and the frames after it are read as usual. A
//!   lichess dump with one bad frame in a thousand loses that frame's
//!   games, not the rest of the month. (`zstd -dc` stops at the first
//!   error; a frame's text is independent of the frames before it, so
//!   nothing after the damage depends on it.)
//! - the last piece gives its text up to the error, then the error: the
//!   text ends there, as the one-thread decoder's does.
//!
//! A frame whose blocks bound its text (`ZSTD_decompressBound`: a pzstd
//! frame's text is at most its block count times the block size) is
//! decoded in one pass, straight into a buffer that size: no window
//! buffer to copy out of, no growing. The buffers go round: the reader
//! sends each text it has read back to its decoder thread, which decodes
//! a later frame into it, so memory is neither zeroed nor mapped anew
//! for every frame.

use std::io::{BufRead, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::compression::starts_with_skippable;
use super::damage::{Damage, DamageLog};
use super::decoding::{Decoding, WINDOW_LOG_MAX, Zstd, fails_checksum};
use super::pzstd_cut::{Cut, HINT_BYTES, announced_frame, cut, frame_may_end_at};
use super::read_ahead::read_buffered;
use super::readers::{BrokenOff, SharedReader};
use super::window::Shared;
use crate::cpu_time::thread_cpu_ns;

/// A piece of the file to decode: a whole data frame, or (last) the rest
/// of the file from where the frame headers stop making sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Piece {
    pub bytes: Range<usize>,
    /// The text's size, when the frame header states it.
    pub content_size: Option<u64>,
    pub extent: Extent,
}

/// How a piece's end was found, which says how it is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Extent {
    /// A whole data frame, whose headers give its end and bound its text:
    /// decoded on a decoder thread.
    Frame,
    /// A whole data frame whose headers make no sense (damaged), whose end
    /// pzstd's hint before it gave: not decoded on a thread, which would
    /// hold a text nothing bounds, but alone by the reader, as a frame
    /// that fails, up to its error and to [`MOST_FRAME_TEXT`] at most.
    Announced,
    /// The rest of the input from where the frames stop making sense:
    /// streamed.
    Rest,
}

/// The most text a frame may hold for the file to be decoded frame by
/// frame: each decoder holds two frames' text at once, so a file of large
/// frames (two `zstd -c` outputs of a month each, one after the other)
/// would need memory in proportion to the file. pzstd's frames hold up to
/// 32 MiB (`-19`), the lichess dumps' about that.
pub(super) const MOST_FRAME_TEXT: u64 = 64 << 20;

/// The most text a file of one frame (what `zstd` writes by default) may
/// hold to be read frame by frame: a batch's worth (`ReadOptions`'
/// default `batch_bytes`), which the reader waits for before it splits
/// anything, so holding the frame's text until its checksum is checked
/// delays nothing. A larger lone frame is streamed, so that its decoding
/// overlaps the split: held whole, 61 MB of text took 30 % more wall
/// time at `-j 2`, and twice the memory.
const LONE_FRAME_TEXT: u64 = 8 << 20;

/// How many decoder threads the file `data` can keep busy when it is to
/// be read frame by frame: it starts with a data frame whose text its
/// header or its blocks bound to at most [`MOST_FRAME_TEXT`], followed by
/// more, or is one whole frame of at most [`LONE_FRAME_TEXT`]. `None`
/// otherwise: the file is read as one stream, in memory that does not
/// grow with its frames. Only the first frames are looked at (before its
/// blocks when a frame's header states its size, as `zstd` of a file
/// does): the rest are found as the decoders come to them ([`Walk`]).
///
/// A frame's text is handed on only once its checksum is checked, so
/// that a frame that fails it is marked as damaged; one stream hands it
/// on as sound text before the check fails at the frame's end.
pub(super) fn frame_decoders(data: &[u8]) -> Option<usize> {
    let mut walk = Walk::new(data);
    let first = walk.next()?;
    let frames = |piece: &Piece| (data.len() / piece.bytes.len().max(1)).max(1);
    match walk.next() {
        Some(_) if first.extent != Extent::Rest => Some(frames(&first)),
        Some(_) => None,
        None => {
            // Its stated size, else its blocks' bound.
            let frame = data.get(first.bytes.clone()).unwrap_or_default();
            let text = zstd::zstd_safe::decompress_bound(frame);
            let small = text.is_ok_and(|n| n <= LONE_FRAME_TEXT);
            (first.extent == Extent::Frame && small).then_some(1)
        }
    }
}

/// The data frames of `data`, in order, skippable frames left out; a tail
/// that is not a whole frame is the last piece.
#[cfg(test)]
pub(super) fn pieces(data: &[u8]) -> Vec<Piece> {
    Walk::new(data).collect()
}

/// The pieces of a file, found one at a time, as the decoders come to
/// them: a lichess month is 30 GB, and walking all its frames' block
/// headers before decoding the first would read it all from disk first.
///
/// A frame's headers give its end; where they give none, or one where no
/// frame starts, pzstd's hint before it may ([`announced_frame`]). From a
/// frame whose text may be larger than [`MOST_FRAME_TEXT`] (by its stated
/// size, else by its blocks) on, the rest of the file is one last piece,
/// streamed: a decoder thread would hold its text whole.
struct Walk<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Walk<'a> {
    fn new(data: &'a [u8]) -> Self {
        Walk { data, at: 0 }
    }

    /// The rest of the file from the walk's place on, as the last piece.
    fn rest(&mut self) -> Piece {
        let piece = Piece {
            bytes: self.at..self.data.len(),
            content_size: None,
            extent: Extent::Rest,
        };
        self.at = self.data.len();
        piece
    }
}

impl Iterator for Walk<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        let small = |text: u64| text <= MOST_FRAME_TEXT;
        loop {
            let (data, mut at) = (self.data, self.at);
            let mut rest = data.get(at..).filter(|r| !r.is_empty())?;
            // After a pzstd hint, the frame's own end, which is found once.
            let mut own_size = None;
            if let Some(size) = announced_frame(rest) {
                let frame_at = at + HINT_BYTES;
                let frame = data.get(frame_at..).unwrap_or_default();
                let own_end = zstd::zstd_safe::find_frame_compressed_size(frame)
                    .ok()
                    .filter(|&own| own > 0 && frame_may_end_at(data, frame_at + own));
                let Some(own) = own_end else {
                    self.at = frame_at + size;
                    return Some(Piece {
                        bytes: frame_at..frame_at + size,
                        content_size: None,
                        extent: Extent::Announced,
                    });
                };
                // The hint is a skippable frame: passed over.
                (at, rest, own_size) = (frame_at, frame, Some(own));
                self.at = at;
            }
            let skippable = starts_with_skippable(rest);
            let content_size = zstd::zstd_safe::get_frame_content_size(rest).ok().flatten();
            if !skippable && !content_size.is_none_or(small) {
                return Some(self.rest());
            }
            let found = own_size.or_else(|| zstd::zstd_safe::find_frame_compressed_size(rest).ok());
            let size = match found {
                Some(size) if size > 0 && size <= rest.len() => size,
                _ => return Some(self.rest()),
            };
            if skippable {
                self.at += size;
                continue;
            }
            let frame = rest.get(..size).unwrap_or_default();
            if !zstd::zstd_safe::decompress_bound(frame).is_ok_and(small) {
                return Some(self.rest());
            }
            self.at += size;
            return Some(Piece {
                bytes: at..at + size,
                content_size,
                extent: Extent::Frame,
            });
        }
    }
}

/// A piece as a decoder thread is given it: where it stands in the
/// input, its bytes, and whether anything follows it.
struct Loaded {
    piece: Piece,
    bytes: PieceBytes,
    /// Something follows it in the input: the warning of a damaged frame
    /// says the frames after it are read as usual.
    followed: bool,
}

/// Where a piece's compressed bytes are.
enum PieceBytes {
    /// In the mapped file, at `piece.bytes`.
    Mapped(Shared),
    /// Read off a stream ([`cut`]).
    Read(Vec<u8>),
    /// The rest of the input from the piece's start on (the last piece,
    /// where the frames stop making sense), to be streamed.
    Rest(Box<dyn Read + Send>),
}

impl Loaded {
    /// A piece of the mapped file `data`, which `followed` by more.
    fn of_file(data: &Shared, piece: Piece, followed: bool) -> Loaded {
        let bytes = match piece.extent {
            Extent::Frame | Extent::Announced => PieceBytes::Mapped(Arc::clone(data)),
            Extent::Rest => PieceBytes::Rest(Box::new(SharedReader {
                data: Arc::clone(data),
                at: piece.bytes.start,
            })),
        };
        Loaded {
            piece,
            bytes,
            followed,
        }
    }

    /// A piece cut off a stream.
    fn of_stream(cut: Cut, followed: bool) -> Loaded {
        let (piece, bytes) = match cut {
            Cut::Frame {
                at,
                bytes,
                content_size,
                bounded,
            } => (
                Piece {
                    bytes: at,
                    content_size,
                    extent: match bounded {
                        true => Extent::Frame,
                        false => Extent::Announced,
                    },
                },
                PieceBytes::Read(bytes),
            ),
            Cut::Rest { at, bytes } => (
                // Its end is not known until it is read.
                Piece {
                    bytes: at..at,
                    content_size: None,
                    extent: Extent::Rest,
                },
                PieceBytes::Rest(bytes),
            ),
        };
        Loaded {
            piece,
            bytes,
            followed,
        }
    }

    /// A whole frame's bytes (none for the rest).
    fn frame(&self) -> &[u8] {
        match &self.bytes {
            PieceBytes::Mapped(data) => (**data)
                .as_ref()
                .get(self.piece.bytes.clone())
                .unwrap_or_default(),
            PieceBytes::Read(bytes) => bytes,
            PieceBytes::Rest(_) => &[],
        }
    }
}

/// Where a decoder thread's pieces come from: those the file's walk or
/// the stream's cutter deals it.
type Feed = Box<dyn Iterator<Item = Loaded> + Send>;

/// What a decoder thread hands over for one piece: its text, or `None`
/// when it failed to decode (the reader then decodes it again alone, to
/// give the text before the break and say why).
type Decoded = Option<Vec<u8>>;

/// A decoder thread's hand-over: the next piece and its text, or `None`
/// when it has no more (so the input has none: piece `i` is thread
/// `i mod k`'s).
type Handed = Option<(Loaded, Decoded)>;

/// The text of a multi-frame `.zst` file or pzstd stream, decoded on `k`
/// threads ahead of the reader.
pub(super) struct FrameReader {
    /// The input's name, for the damage found.
    name: String,
    /// What the input is, for the damage found: `file` or `stream`.
    kind: &'static str,
    /// One channel per decoder thread; piece `i` comes from `rx[i % k]`.
    rx: Vec<Receiver<Handed>>,
    /// Texts read out, back to the thread that decoded them.
    spare: Vec<SyncSender<Vec<u8>>>,
    next: usize,
    text: Vec<u8>,
    at: usize,
    /// Text handed out so far: where the next piece's text starts.
    handed_out: u64,
    /// The last piece, decoded by the reader as a stream once it has
    /// failed on its thread: its text up to the error, then the error.
    stream: Option<Box<dyn BufRead + Send>>,
    /// Where the frames that fail are written down.
    found: DamageLog,
    ended: bool,
    /// Compressed bytes whose text has been handed over, for a progress
    /// bar by input bytes (a file's; a stream's are counted as read).
    raw_read: Option<Arc<AtomicU64>>,
    /// The decoder threads' CPU nanoseconds, added as each ends.
    cpu_ns: Arc<AtomicU64>,
    threads: Vec<JoinHandle<()>>,
    /// The thread that finds the pieces and deals them to the decoders.
    dealer: Option<JoinHandle<()>>,
}

impl FrameReader {
    /// Starts `k` decoder threads over the pieces of the file `data`
    /// (named `name`), walked on a thread of its own as the decoders come
    /// to them ([`Walk`]), counting the compressed bytes whose text is
    /// handed over in `raw_read`.
    pub fn spawn(
        data: Shared,
        name: String,
        k: usize,
        raw_read: Arc<AtomicU64>,
    ) -> std::io::Result<FrameReader> {
        FrameReader::spawn_dealt(
            name,
            "file",
            k,
            Some(raw_read),
            "pgnmill-walk",
            move |deal| {
                let mut pieces = Walk::new((*data).as_ref()).peekable();
                while let Some(piece) = pieces.next() {
                    let followed = pieces.peek().is_some();
                    if !deal(Loaded::of_file(&data, piece, followed)) {
                        return;
                    }
                }
            },
        )
    }

    /// Starts a thread that cuts the pzstd stream `rd` (named `name`) into
    /// its frames (`pzstd_cut.rs`) and deals them to `k` decoder threads.
    pub fn spawn_stream(
        rd: Box<dyn Read + Send>,
        name: String,
        k: usize,
    ) -> std::io::Result<FrameReader> {
        FrameReader::spawn_dealt(name, "stream", k, None, "pgnmill-cut", move |deal| {
            cut(rd, MOST_FRAME_TEXT, |piece, followed| {
                deal(Loaded::of_stream(piece, followed))
            });
        })
    }

    /// Starts `k` decoder threads, and the thread (named `thread`) that
    /// finds the pieces and deals them (`find`): piece `i` to decoder
    /// `i mod k`, at most one waiting for each. `deal` says `false` once
    /// the reader is gone.
    fn spawn_dealt(
        name: String,
        kind: &'static str,
        k: usize,
        raw_read: Option<Arc<AtomicU64>>,
        thread: &str,
        find: impl FnOnce(&mut dyn FnMut(Loaded) -> bool) + Send + 'static,
    ) -> std::io::Result<FrameReader> {
        let (deal, feeds): (Vec<_>, Vec<_>) = (0..k.max(1))
            .map(|_| {
                let (tx, rx) = sync_channel::<Loaded>(1);
                (tx, Box::new(rx.into_iter()) as Feed)
            })
            .unzip();
        let mut reader = FrameReader::start(name, kind, feeds, raw_read)?;
        let cpu = reader.cpu_ns();
        let dealer = std::thread::Builder::new()
            .name(thread.into())
            .spawn(move || {
                let start = thread_cpu_ns();
                let mut dealt = 0;
                find(&mut |loaded| {
                    let to = deal.get(dealt % deal.len());
                    dealt += 1;
                    to.is_some_and(|to| to.send(loaded).is_ok())
                });
                cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
            })?;
        reader.dealer = Some(dealer);
        Ok(reader)
    }

    /// Starts one decoder thread per feed.
    fn start(
        name: String,
        kind: &'static str,
        feeds: Vec<Feed>,
        raw_read: Option<Arc<AtomicU64>>,
    ) -> std::io::Result<FrameReader> {
        let cpu_ns = Arc::new(AtomicU64::new(0));
        let mut rx = Vec::with_capacity(feeds.len());
        let mut spare = Vec::with_capacity(feeds.len());
        let mut threads = Vec::with_capacity(feeds.len());
        for feed in feeds {
            let (tx, r) = sync_channel(0);
            rx.push(r);
            // The reader returns one text at a time to each thread.
            let (spare_tx, returned) = sync_channel(1);
            spare.push(spare_tx);
            let cpu = Arc::clone(&cpu_ns);
            threads.push(
                std::thread::Builder::new()
                    .name("pgnmill-decode".into())
                    .spawn(move || decode_every(feed, &tx, &returned, &cpu))?,
            );
        }
        Ok(FrameReader {
            name,
            kind,
            rx,
            spare,
            next: 0,
            text: Vec::new(),
            at: 0,
            handed_out: 0,
            stream: None,
            found: DamageLog::default(),
            ended: false,
            raw_read,
            cpu_ns,
            threads,
            dealer: None,
        })
    }

    /// Where the decoder threads' CPU nanoseconds will be once they end.
    pub fn cpu_ns(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.cpu_ns)
    }

    /// How many threads decode at once.
    pub fn decoders(&self) -> usize {
        self.rx.len()
    }

    /// Where the frames that fail are written down, as they are met.
    pub fn found(&self) -> DamageLog {
        self.found.clone()
    }

    /// Moves on to the next piece: its text (`true`), or the end
    /// (`false`). A piece that failed on its thread is decoded again here
    /// ([`Self::failed`]).
    fn next_piece(&mut self) -> std::io::Result<bool> {
        let from = self.next % self.rx.len().max(1);
        let handed = self
            .rx
            .get(from)
            .and_then(|rx| rx.recv().ok())
            .ok_or_else(|| std::io::Error::other("a zstd decoding thread stopped"))?;
        let Some((loaded, decoded)) = handed else {
            return Ok(false);
        };
        if let Some(raw_read) = &self.raw_read {
            raw_read.fetch_add(loaded.piece.bytes.len() as u64, Ordering::Relaxed);
        }
        let text = match decoded {
            Some(text) => text,
            None => self.failed(loaded),
        };
        let done = std::mem::replace(&mut self.text, text);
        if let Some(back) = self
            .next
            .checked_sub(1)
            .and_then(|i| self.spare.get(i % self.spare.len()))
        {
            // A thread that has ended, or has a text to spare already,
            // does without.
            let _ = back.try_send(done);
        }
        self.next += 1;
        self.at = 0;
        Ok(true)
    }

    /// The text to hand out for a piece that failed on its thread (or
    /// was not decoded there: the last piece), decoded again alone by the
    /// one-thread decoder: a whole frame's text up to its error, written
    /// down as damage; for the last piece, none here, and its stream
    /// ([`Self::stream`]) gives its text and error.
    fn failed(&mut self, loaded: Loaded) -> Vec<u8> {
        match loaded.bytes {
            PieceBytes::Rest(rest) => {
                self.stream = Some(match Zstd::new() {
                    Ok(zstd) => Box::new(std::io::BufReader::new(Decoding::buffered(rest, zstd))),
                    Err(e) => Box::new(BrokenOff(Some(e))),
                });
                Vec::new()
            }
            _ => self.failed_frame(&loaded),
        }
    }

    /// [`Self::failed`] for a whole frame.
    fn failed_frame(&mut self, frame: &Loaded) -> Vec<u8> {
        let bytes = frame.frame();
        // At most what its blocks can hold (a frame's blocks bound its
        // text whether or not their content is damaged; where its block
        // headers are damaged too, the most a frame may hold), and one
        // byte more: the read that asks for it meets the checksum.
        let (most, holds) = match zstd::zstd_safe::decompress_bound(bytes) {
            Ok(bound) => (bound, "its blocks can hold"),
            Err(_) => (MOST_FRAME_TEXT, "a frame may hold"),
        };
        let most = most.saturating_add(1);
        let mut text = Vec::new();
        let error = match Zstd::new() {
            Ok(zstd) => Decoding::new(bytes, zstd)
                .take(most)
                .read_to_end(&mut text)
                .err(),
            Err(e) => Some(e),
        };
        let start = self.handed_out;
        let end = start + text.len() as u64;
        let frame_at = format!(
            "{}: zstd frame {} (bytes {} to {} of the {})",
            self.name,
            self.next + 1,
            frame.piece.bytes.start,
            frame.piece.bytes.end,
            self.kind
        );
        let failure = match &error {
            Some(e) if fails_checksum(e) => "fails its checksum".to_string(),
            Some(e) => format!("cannot be decoded ({e})"),
            None if (text.len() as u64) < most => {
                // Whole when decoded alone, with nothing to say of it.
                return text;
            }
            None => format!("decodes to more than the {} bytes {holds}", most - 1),
        };
        let text_is = match end > start {
            true => format!("its text, decompressed bytes {start} to {end}, is unreliable"),
            false => format!(
                "none of its text can be read, and the game around decompressed byte {start} is unreliable"
            ),
        };
        let after = match frame.followed {
            true => "; the frames after it are read as usual",
            false => "",
        };
        self.found.push(Damage {
            text: start..end,
            why: format!("{frame_at} {failure}: {text_is}{after}"),
        });
        text
    }

    /// Waits for every decoder thread (and the dealer, which has ended
    /// once the pieces have), so that their CPU time is counted before
    /// the reader reports the end.
    fn join(&mut self) {
        self.rx.clear();
        self.spare.clear();
        for thread in self.threads.drain(..).chain(self.dealer.take()) {
            let _ = thread.join();
        }
    }
}

/// A decoder thread: decodes the pieces of its feed and hands each over
/// in turn, into a text the reader has sent back when there is one, a
/// piece that fails as `None`, then `None` for the end; stops when the
/// reader is gone (the run stopped).
fn decode_every(
    feed: Feed,
    tx: &SyncSender<Handed>,
    returned: &Receiver<Vec<u8>>,
    cpu: &AtomicU64,
) {
    let start = thread_cpu_ns();
    let mut context = zstd::zstd_safe::DCtx::create();
    let mut reader_gone = false;
    for loaded in feed {
        // Nothing bounds the text of the last piece, where the headers
        // stop making sense, nor of a frame whose headers are damaged:
        // they are not decoded here, and the reader decodes them in
        // bounded memory ([`FrameReader::failed`]).
        let decoded = match loaded.piece.extent {
            Extent::Rest | Extent::Announced => None,
            Extent::Frame => {
                let text = returned.try_recv().unwrap_or_default();
                let content_size = loaded.piece.content_size;
                decode_piece(&mut context, loaded.frame(), content_size, text)
            }
        };
        if tx.send(Some((loaded, decoded))).is_err() {
            reader_gone = true;
            break;
        }
    }
    cpu.fetch_add(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
    if !reader_gone {
        let _ = tx.send(None);
    }
}

/// The stated or bounded size of a piece's text is trusted up to this
/// many times its compressed size: a lying header cannot make us reserve
/// more.
const MOST_TEXT_PER_BYTE: u64 = 64;

/// The largest window the streaming decoder accepts ([`WINDOW_LOG_MAX`]).
/// Decoding in one pass needs no window buffer, and zstd does not check
/// the size there: a frame that asks for more is left to the streaming
/// decoder, so that it fails as the one-thread reading of the file does.
const LARGEST_WINDOW: u64 = 1 << WINDOW_LOG_MAX;

/// The window size a zstd frame's header asks for (RFC 8878, 3.1.1.1):
/// its window descriptor's, or, for a single-segment frame, its content
/// size; `None` when the header does not say (not a data frame, too
/// short).
fn window_size(frame: &[u8]) -> Option<u64> {
    let descriptor = *frame.get(4)?;
    if descriptor & 0x20 != 0 {
        return zstd::zstd_safe::get_frame_content_size(frame)
            .ok()
            .flatten();
    }
    let window = *frame.get(5)?;
    let base = 1u64 << (10 + (window >> 3));
    Some(base + base / 8 * u64::from(window & 7))
}

/// The room a piece is decoded into in one pass: its blocks' bound on its
/// text, when that is believable ([`MOST_TEXT_PER_BYTE`]) and its window
/// is one the streaming decoder accepts ([`LARGEST_WINDOW`]); `None` for a
/// piece that is streamed.
fn one_pass_room(bytes: &[u8]) -> Option<usize> {
    let bound = zstd::zstd_safe::decompress_bound(bytes).ok()?;
    let believable = bound <= bytes.len() as u64 * MOST_TEXT_PER_BYTE;
    let small_window = window_size(bytes).is_some_and(|w| w <= LARGEST_WINDOW);
    (believable && small_window).then_some(bound as usize)
}

/// One piece's whole text, decoded into `text` (whose bytes are written
/// over), or `None` when it does not decode to its end.
fn decode_piece(
    context: &mut zstd::zstd_safe::DCtx<'_>,
    bytes: &[u8],
    content_size: Option<u64>,
    mut text: Vec<u8>,
) -> Decoded {
    text.clear();
    match one_pass_room(bytes) {
        Some(room) => {
            text.reserve(room);
            context.decompress(&mut text, bytes).ok()?;
        }
        None => {
            let most = bytes.len() as u64 * MOST_TEXT_PER_BYTE;
            text.reserve(content_size.map_or(0, |n| n.min(most) as usize));
            let mut decoder = zstd::stream::read::Decoder::with_buffer(bytes).ok()?;
            decoder.window_log_max(WINDOW_LOG_MAX).ok()?;
            decoder.read_to_end(&mut text).ok()?;
        }
    }
    Some(text)
}

impl BufRead for FrameReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.stream.is_none() && self.at >= self.text.len() {
            if self.ended {
                return Ok(&[]);
            }
            let next = self.next_piece();
            if !matches!(next, Ok(true)) {
                self.ended = true;
                self.join();
                return next.map(|_| &[][..]);
            }
        }
        if self.stream.is_some() && !self.ended {
            // The last piece: every thread is done.
            self.ended = true;
            self.join();
        }
        if let Some(stream) = &mut self.stream {
            return stream.fill_buf();
        }
        Ok(self.text.get(self.at..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        if let Some(text) = &mut self.stream {
            text.consume(n);
            return;
        }
        let n = n.min(self.text.len().saturating_sub(self.at));
        self.at += n;
        self.handed_out += n as u64;
    }
}

impl Read for FrameReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl Drop for FrameReader {
    /// A reader dropped early (the run stopped): the channels close, each
    /// thread stops at its next hand-over; none is waited for.
    fn drop(&mut self) {
        self.rx.clear();
        self.spare.clear();
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

    /// Clock comments with the times of a linear congruential sequence:
    /// text that compresses less than 64 to 1 (as PGN does), so that its
    /// frames are decoded in one pass, unlike a repeated line's.
    fn varied_text(seed: u64, comments: usize) -> Vec<u8> {
        let mut state = seed;
        (0..comments)
            .flat_map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = state >> 40;
                format!(
                    "{{ [%clk {}:{:02}:{:02}] }} ",
                    t % 3,
                    t / 3 % 60,
                    t / 180 % 60
                )
                .into_bytes()
            })
            .collect()
    }

    /// `data` read by one streaming decoder, as one thread reads it (and
    /// `zstd -d --long=31`): its text and its error.
    fn read_as_one_stream(data: &[u8]) -> (Vec<u8>, Option<std::io::Error>) {
        let mut text = Vec::new();
        let mut decoder = zstd::stream::read::Decoder::new(data).expect("decoder");
        decoder.window_log_max(WINDOW_LOG_MAX).expect("window");
        let error = decoder.read_to_end(&mut text).err();
        (text, error)
    }

    /// What the frame reader makes of `data` on `k` threads: its text,
    /// its error, and the damage it found.
    fn read_all(data: Vec<u8>, k: usize) -> (Vec<u8>, Option<std::io::Error>, Vec<Damage>) {
        let shared: Shared = Arc::new(data);
        let mut r = FrameReader::spawn(shared, "x.zst".into(), k, Arc::default()).expect("threads");
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).err();
        (out, e, r.found().since(0))
    }

    /// `frames` as pzstd lays them out: each behind a skippable frame
    /// that gives its size.
    fn hinted(frames: &[Vec<u8>]) -> Vec<u8> {
        frames
            .iter()
            .flat_map(|f| [skippable(&(f.len() as u32).to_le_bytes()), f.clone()].concat())
            .collect()
    }

    /// What the frame reader makes of the stream `data` on `k` threads:
    /// its text, its error, and the damage it found.
    fn read_stream(data: Vec<u8>, k: usize) -> (Vec<u8>, Option<std::io::Error>, Vec<Damage>) {
        let mut r = FrameReader::spawn_stream(Box::new(std::io::Cursor::new(data)), "-".into(), k)
            .expect("threads");
        let mut out = Vec::new();
        let e = r.read_to_end(&mut out).err();
        (out, e, r.found().since(0))
    }

    /// The window sizes the compressor was asked for, read back from the
    /// frame headers it wrote (pzstd-like: streamed, so no content size
    /// and no single segment), and a single-segment frame's content size.
    #[test]
    fn window_size_reads_the_frame_header() {
        let text = "1. e4 e5 2. Nf3 Nc6 *\n".repeat(5000).into_bytes();
        for log in [10u32, 17, 20, 27, 28, 31] {
            let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).expect("encoder");
            encoder.window_log(log).expect("window log");
            encoder.include_contentsize(false).expect("no content size");
            std::io::Write::write_all(&mut encoder, &text).expect("compress");
            let frame = encoder.finish().expect("frame");
            assert_eq!(window_size(&frame), Some(1u64 << log), "window log {log}");
        }
        let single = zstd::bulk::compress(&text[..1000], 3).expect("compress");
        assert_eq!(window_size(&single), Some(1000));
        assert_eq!(window_size(&skippable(b"x")[..4]), None);
    }

    /// A frame made with `zstd --long=31` (a 2^31-byte window, which
    /// zstd's streaming decoder refuses by default) among other frames:
    /// read whole on any number of threads, as one stream reads it.
    #[test]
    fn a_frame_with_the_largest_window_is_read_on_any_threads() {
        let text = varied_text(1, 6000);
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).expect("encoder");
        encoder.long_distance_matching(true).expect("long");
        encoder.window_log(31).expect("window log");
        encoder.include_contentsize(false).expect("no content size");
        std::io::Write::write_all(&mut encoder, &text).expect("compress");
        let large = encoder.finish().expect("frame");
        assert_eq!(window_size(&large), Some(1 << 31));
        let data = [frame(b"before"), large, frame(b"after")].concat();
        let whole = [&b"before"[..], &text[..], b"after"].concat();
        let (one_stream, one_stream_err) = read_as_one_stream(&data);
        assert!(one_stream_err.is_none(), "{one_stream_err:?}");
        assert_eq!(one_stream, whole);
        for k in [1, 2] {
            let (got, e, damage) = read_all(data.clone(), k);
            assert!(e.is_none(), "{e:?}");
            assert_eq!(got, whole, "k = {k}");
            assert!(damage.is_empty(), "{damage:?}");
        }
    }

    /// A frame whose window is larger than any the decoder accepts (2^31
    /// and an eighth bytes, which the format can state and zstd cannot
    /// decode as a stream) fails on any number of threads, as it does on
    /// one, even where it could be decoded in one pass.
    #[test]
    fn a_frame_with_a_window_too_large_fails_as_on_one_thread() {
        let text = varied_text(1, 6000);
        let mut data = frame(&text);
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).expect("encoder");
        encoder.window_log(28).expect("window log");
        encoder.include_contentsize(false).expect("no content size");
        std::io::Write::write_all(&mut encoder, &text).expect("compress");
        let mut large = encoder.finish().expect("frame");
        // The window descriptor (RFC 8878, 3.1.1.1.2) after the magic
        // number and the frame header descriptor: exponent 21 (2^31
        // bytes) and mantissa 1 (an eighth more).
        assert_eq!(
            large[4] & 0x20,
            0,
            "a single-segment frame has no window descriptor"
        );
        large[5] = 21 << 3 | 1;
        assert_eq!(window_size(&large), Some((1 << 31) + (1 << 28)));
        // Only the window keeps it from the one-pass decoding.
        let bound = zstd::zstd_safe::decompress_bound(&large).expect("a frame");
        assert!(bound <= large.len() as u64 * MOST_TEXT_PER_BYTE);
        data.extend(&large);
        data.extend(frame(b"after"));
        let (_, one_stream_err) = read_as_one_stream(&large);
        let refusal = one_stream_err.expect("one stream read a window over 2^31");
        for k in [1, 2] {
            let (got, e, damage) = read_all(data.clone(), k);
            assert!(e.is_none(), "{e:?}");
            assert_eq!(got, [&text[..], b"after"].concat(), "k = {k}");
            let end = text.len() as u64;
            assert_eq!(damage.len(), 1, "{damage:?}");
            assert_eq!(damage[0].text, end..end);
            assert!(damage[0].why.contains(&refusal.to_string()), "{damage:?}");
        }
    }

    /// A file of frames larger than [`MOST_FRAME_TEXT`] is streamed,
    /// whether their headers state their size or only their blocks bound
    /// it; small frames are read frame by frame.
    #[test]
    fn only_files_of_small_frames_are_read_frame_by_frame() {
        let large = vec![b' '; (MOST_FRAME_TEXT + 1) as usize];
        let stated = frame(&large);
        assert_eq!(
            zstd::zstd_safe::get_frame_content_size(&stated)
                .ok()
                .flatten(),
            Some(MOST_FRAME_TEXT + 1)
        );
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("encoder");
        encoder.include_contentsize(false).expect("no content size");
        std::io::Write::write_all(&mut encoder, &large).expect("compress");
        let unstated = encoder.finish().expect("frame");
        let small = frame(&varied_text(1, 100));
        let extents = |data: &[u8]| pieces(data).iter().map(|p| p.extent).collect::<Vec<_>>();
        for big in [&stated[..], &unstated] {
            // A large frame first: the file is one stream.
            let data = [big, &small].concat();
            assert_eq!(extents(&data), [Extent::Rest]);
            assert!(frame_decoders(&data).is_none());
            // A large frame after small ones: streamed from there on.
            let data = [&small, big, &small].concat();
            assert_eq!(extents(&data), [Extent::Frame, Extent::Rest]);
            assert_eq!(pieces(&data)[1].bytes, small.len()..data.len());
            assert!(frame_decoders(&data).is_some());
        }
        let smalls = [&small[..], &small].concat();
        assert_eq!(extents(&smalls), [Extent::Frame, Extent::Frame]);
        assert_eq!(frame_decoders(&smalls), Some(2));
        assert_eq!(frame_decoders(&small), Some(1));
        let cut = &small[..small.len() - 1];
        assert!(frame_decoders(cut).is_none(), "a cut frame is streamed");
        // A lone frame larger than a batch is streamed, stated or not.
        let batch = vec![b' '; (LONE_FRAME_TEXT + 1) as usize];
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 1).expect("encoder");
        encoder.include_contentsize(false).expect("no content size");
        std::io::Write::write_all(&mut encoder, &batch).expect("compress");
        for lone in [frame(&batch), encoder.finish().expect("frame")] {
            assert_eq!(extents(&lone), [Extent::Frame]);
            assert!(frame_decoders(&lone).is_none());
            let two = [&lone[..], &small].concat();
            assert_eq!(extents(&two), [Extent::Frame, Extent::Frame]);
            assert!(frame_decoders(&two).is_some());
        }
    }

    #[test]
    fn frames_come_out_in_order_whatever_the_threads() {
        // Frames decoded in one pass and streamed, in turn.
        let texts: Vec<Vec<u8>> = (0..9)
            .map(|i| match i % 2 {
                0 => format!("[Event \"{i}\"]\n\n1. e4 *\n")
                    .repeat(50 * (i + 1))
                    .into_bytes(),
                _ => varied_text(i as u64, 400 * (i + 1)),
            })
            .collect();
        let mut data = skippable(b"\0\0\0\0");
        let mut one_pass = Vec::new();
        for t in &texts {
            let f = frame(t);
            one_pass.push(one_pass_room(&f).is_some());
            data.extend(f);
            data.extend(skippable(b"pzstd"));
        }
        assert!(
            one_pass.contains(&true) && one_pass.contains(&false),
            "{one_pass:?}"
        );
        let want: Vec<u8> = texts.concat();
        let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
        for k in [1, 2, 3, 16] {
            let (got, e, damage) = read_all(data.clone(), k);
            assert!(e.is_none(), "{e:?}");
            assert!(damage.is_empty(), "{damage:?}");
            assert_eq!(got, want, "k = {k}");
            let (got, e, damage) = read_stream(hinted(&frames), k);
            assert!(e.is_none() && damage.is_empty(), "{e:?} {damage:?}");
            assert_eq!(got, want, "a stream, k = {k}");
        }
    }

    /// Five frames of which frame 3 is damaged by `damage`, one after
    /// the other in a file (laid out as pzstd does, each behind its size,
    /// when `hinted_file`) and as a pzstd stream: the text before it and
    /// after it whole, on any number of threads, and one stretch of
    /// damage between them, the same on each.
    fn one_damaged_frame_of_five(
        damage: fn(&mut Vec<u8>),
        hinted_file: bool,
    ) -> (Vec<u8>, Vec<Damage>) {
        let texts: Vec<Vec<u8>> = (0..5).map(|i| varied_text(i, 500)).collect();
        let mut frames = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).expect("encoder");
            encoder.include_checksum(true).expect("checksum");
            encoder
                .set_pledged_src_size(Some(t.len() as u64))
                .expect("content size");
            std::io::Write::write_all(&mut encoder, t).expect("compress");
            let mut f = encoder.finish().expect("frame");
            if i == 2 {
                assert!(one_pass_room(&f).is_some(), "the damaged frame is streamed");
                damage(&mut f);
            }
            frames.push(f);
        }
        let data = match hinted_file {
            true => hinted(&frames),
            false => frames.concat(),
        };
        let (before, after) = (texts[..2].concat(), texts[3..].concat());
        let mut first = None;
        for k in [1, 2, 3] {
            let (got, e, damage) = read_all(data.clone(), k);
            assert!(e.is_none(), "{e:?}");
            assert!(got.starts_with(&before) && got.ends_with(&after), "k = {k}");
            let middle = before.len() as u64..(got.len() - after.len()) as u64;
            assert_eq!(damage.len(), 1, "{damage:?}");
            assert_eq!(damage[0].text, middle);
            assert!(damage[0].why.contains("zstd frame 3 (bytes "), "{damage:?}");
            // The same frames as a pzstd stream: the same text and
            // stretch, the frame's place given in the stream.
            let (piped, e, piped_damage) = read_stream(hinted(&frames), k);
            assert!(e.is_none(), "{e:?}");
            assert!(piped == got, "a stream, k = {k}");
            assert_eq!(piped_damage.len(), 1, "{piped_damage:?}");
            assert_eq!(piped_damage[0].text, damage[0].text);
            let at = |f: usize| frames[..f].iter().map(|f| f.len() + 12).sum::<usize>() + 12;
            let place = format!(
                "-: zstd frame 3 (bytes {} to {} of the stream)",
                at(2),
                at(3) - 12
            );
            assert!(piped_damage[0].why.starts_with(&place), "{piped_damage:?}");
            match &first {
                None => first = Some((got, damage)),
                Some(first) => assert!(first == &(got, damage), "k = {k}"),
            }
        }
        first.expect("read")
    }

    /// A frame whose checksum alone fails gives its whole text, marked.
    #[test]
    fn a_frame_failing_its_checksum_is_marked_and_the_rest_read() {
        let (text, damage) = one_damaged_frame_of_five(
            |f| {
                // The frame's last byte: its checksum.
                *f.last_mut().expect("a frame") ^= 0x55;
            },
            false,
        );
        let texts: Vec<Vec<u8>> = (0..5).map(|i| varied_text(i, 500)).collect();
        assert!(text == texts.concat(), "the frame's text is not whole");
        assert!(damage[0].why.contains("fails its checksum"), "{damage:?}");
    }

    /// A frame whose data is damaged gives its text up to the error,
    /// marked, and the frames after it are read.
    #[test]
    fn a_frame_that_cannot_be_decoded_is_marked_and_the_rest_read() {
        let (_, damage) = one_damaged_frame_of_five(
            |f| {
                // Eight bytes of its one block's data.
                let at = f.len() / 2;
                f.get_mut(at..at + 8).expect("a frame").fill(0xff);
            },
            false,
        );
        assert!(damage[0].why.contains("cannot be decoded"), "{damage:?}");
    }

    /// A frame whose headers are damaged, so that they give no end, or
    /// one where no frame starts, is passed over by the size pzstd wrote
    /// before it, and decoded alone as a frame that fails.
    #[test]
    fn a_frame_whose_headers_are_damaged_is_passed_over_by_its_hint() {
        // Its magic number: no text at all.
        let (_, damage) = one_damaged_frame_of_five(|f| f[..4].fill(0), true);
        assert!(damage[0].text.is_empty(), "{damage:?}");
        assert!(damage[0].why.contains("none of its text"), "{damage:?}");
        // Its block header, the three bytes after the frame header (six
        // bytes: magic, descriptor, a two-byte content size; no window
        // byte in a single-segment frame), its size made larger than a
        // block may be.
        let (_, damage) = one_damaged_frame_of_five(
            |f| {
                assert_eq!(f[4] & 0xE0, 0x60, "a single-segment frame, two-byte size");
                f[7] |= 0xF8;
                f[8..10].fill(0xff);
            },
            true,
        );
        assert!(damage[0].why.contains("cannot be decoded"), "{damage:?}");
        // The same block header zeroed: an empty block that is not the
        // last, then its data read as block headers.
        let (_, damage) = one_damaged_frame_of_five(|f| f[7..10].fill(0), true);
        assert!(damage[0].why.contains("cannot be decoded"), "{damage:?}");
    }

    #[test]
    fn a_cut_file_gives_the_text_before_the_cut_then_the_error() {
        let a = "1. e4 e5 *\n".repeat(2000).into_bytes();
        let b = "1. d4 d5 *\n".repeat(2000).into_bytes();
        let mut data = frame(&a);
        let fb = frame(&b);
        data.extend(&fb[..fb.len() / 2]);
        // The one-thread streaming decoder is the reference.
        let (want, want_err) = read_as_one_stream(&data);
        assert!(want_err.is_some(), "a cut went unseen");
        for k in [1, 2] {
            let (got, e, damage) = read_all(data.clone(), k);
            assert_eq!(got, want);
            assert_eq!(
                e.map(|e| e.to_string()),
                want_err.as_ref().map(|e| e.to_string())
            );
            assert!(damage.is_empty(), "{damage:?}");
        }
    }
}
