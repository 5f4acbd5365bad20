//! Reading one input as a sequence of game-aligned batches.
//!
//! Mapped and streamed inputs go through the same splitter
//! ([`crate::pgn::split_window`]) over windows of about
//! [`ReadOptions::batch_bytes`]: a window yields the games whose end it
//! contains, and the next window starts where the first unfinished game
//! starts. A game longer than a window makes the window double until the
//! game fits, so the total work stays linear and memory is bounded by the
//! larger of the batch size and the longest game.

use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::SourceError;
use super::encoding::{Encoding, SNIFF_BYTES, sniff};
use super::read_ahead::ReadAhead;
use crate::pgn::{GameSpan, Position, split_window};

/// Tuning of how inputs are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Target size of one batch in bytes (default 8 MiB: large enough that
    /// per-batch overhead vanishes, small enough that a few batches in flight
    /// per thread keep memory flat).
    pub batch_bytes: usize,
    /// Force an encoding instead of sniffing one.
    pub encoding: Option<Encoding>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            batch_bytes: 8 << 20,
            encoding: None,
        }
    }
}

/// How an input's bytes were stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Zstd,
    Gzip,
}

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

fn compression_of(head: &[u8]) -> Compression {
    if head.starts_with(&ZSTD_MAGIC) {
        Compression::Zstd
    } else if head.starts_with(&GZIP_MAGIC) {
        Compression::Gzip
    } else {
        Compression::None
    }
}

type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Counts the bytes read from the underlying file or pipe (before any
/// decompression), for a progress bar by input bytes.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

enum BatchBytes {
    Shared(Shared, Range<usize>),
    Owned(Vec<u8>),
}

/// A run of whole games from one input: the bytes (a slice of the mapped
/// file, or an owned chunk of a stream) and where each game is in them.
/// `Send + Sync`: hand it to a worker thread as it is.
pub struct Batch {
    bytes: BatchBytes,
    /// Source offset of `bytes()[0]` (offsets count decompressed bytes).
    pub base_offset: u64,
    /// The games, in order; their offsets are source offsets.
    pub games: Vec<GameSpan>,
    /// 0-based index of this batch in its input.
    pub index: u64,
    /// Index (0-based) in its input of the first game of this batch.
    pub first_game: u64,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("base_offset", &self.base_offset)
            .field("len", &self.bytes().len())
            .field("games", &self.games.len())
            .field("index", &self.index)
            .field("first_game", &self.first_game)
            .finish()
    }
}

impl Batch {
    /// All bytes of the batch (games and whatever lies between them).
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            BatchBytes::Shared(data, r) => (**data).as_ref().get(r.clone()).unwrap_or_default(),
            BatchBytes::Owned(v) => v,
        }
    }

    /// The bytes of one of this batch's games (empty if `span` is not one).
    pub fn game_bytes(&self, span: &GameSpan) -> &[u8] {
        span.slice(self.bytes(), self.base_offset)
            .unwrap_or_default()
    }
}

enum Inner {
    Mapped {
        data: Shared,
        len: usize,
    },
    Stream {
        rd: Box<dyn Read + Send>,
        buf: Vec<u8>,
        eof: bool,
        error: Option<std::io::Error>,
    },
}

/// An opened input: an iterator of batches. A stream that fails part-way
/// (truncated `.zst`, read error) yields the batches of the games before the
/// failure, then one `Err`, then ends.
pub struct Reader {
    path: PathBuf,
    encoding: Encoding,
    compression: Compression,
    batch_bytes: usize,
    inner: Inner,
    pos: Position,
    batches: u64,
    games: u64,
    done: bool,
    raw_read: Arc<AtomicU64>,
    raw_len: Option<u64>,
    /// Threads a window is split on (1: the one-thread splitter).
    split_threads: usize,
    /// CPU nanoseconds of the threads that split parts of windows.
    split_helpers_ns: u64,
    /// CPU nanoseconds of the decoding thread of a compressed stream, set
    /// when it ends.
    decoder_cpu: Option<Arc<AtomicU64>>,
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("path", &self.path)
            .field("encoding", &self.encoding)
            .field("compression", &self.compression)
            .field("pos", &self.pos)
            .finish()
    }
}

fn io_err(path: &Path, source: std::io::Error) -> SourceError {
    if source.kind() == std::io::ErrorKind::NotFound {
        SourceError::NotFound {
            path: path.to_path_buf(),
        }
    } else {
        SourceError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl Reader {
    /// Opens a file: plain files are mapped, compressed ones streamed.
    pub fn open_file(path: &Path, opts: &ReadOptions) -> Result<Reader, SourceError> {
        let mut file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
        let mut head = [0u8; 4];
        let n = read_full(&mut file, &mut head).map_err(|e| io_err(path, e))?;
        let head = head.get(..n).unwrap_or_default();
        let len = file.metadata().map_err(|e| io_err(path, e))?.len();
        if compression_of(head) != Compression::None {
            let rd = std::io::Cursor::new(head.to_vec()).chain(file);
            let mut r = Reader::from_read(path, Box::new(rd), opts)?;
            r.raw_len = Some(len);
            return Ok(r);
        }
        if len == 0 {
            // An empty file cannot be mapped; it simply has no games.
            return Ok(Reader::from_shared(path, Arc::new(Vec::new()), opts));
        }
        // SAFETY: the map is read-only. If another process truncates or
        // rewrites the file while we read it, reads may see the new bytes
        // or fault (SIGBUS): the documented caveat of mapping, accepted as
        // ripgrep does for speed on large files.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| io_err(path, e))?;
        #[cfg(unix)]
        {
            let _ = map.advise(memmap2::Advice::Sequential);
        }
        Ok(Reader::from_shared(path, Arc::new(map), opts))
    }

    /// Reads bytes already in memory (a mapped file, or test data).
    pub fn from_shared(
        path: &Path,
        data: Arc<dyn AsRef<[u8]> + Send + Sync>,
        opts: &ReadOptions,
    ) -> Reader {
        let bytes = (*data).as_ref();
        let len = bytes.len();
        let encoding = opts
            .encoding
            .unwrap_or_else(|| sniff(bytes.get(..len.min(SNIFF_BYTES)).unwrap_or_default()));
        Reader {
            path: path.to_path_buf(),
            encoding,
            compression: Compression::None,
            batch_bytes: opts.batch_bytes.max(1),
            inner: Inner::Mapped { data, len },
            pos: Position::START,
            batches: 0,
            games: 0,
            done: false,
            raw_read: Arc::new(AtomicU64::new(0)),
            raw_len: Some(len as u64),
            split_threads: 1,
            split_helpers_ns: 0,
            decoder_cpu: None,
        }
    }

    /// Streams a reader, decompressing it if it starts with zstd or gzip
    /// magic bytes. Reads the first chunk now, to decide the encoding.
    pub fn from_read(
        path: &Path,
        rd: Box<dyn Read + Send>,
        opts: &ReadOptions,
    ) -> Result<Reader, SourceError> {
        let raw_read = Arc::new(AtomicU64::new(0));
        let mut rd: Box<dyn Read + Send> = Box::new(Counting {
            inner: rd,
            count: Arc::clone(&raw_read),
        });
        let mut head = [0u8; 4];
        let n = read_full(&mut rd, &mut head).map_err(|e| io_err(path, e))?;
        let head = head.get(..n).unwrap_or_default();
        let compression = compression_of(head);
        let raw = std::io::Cursor::new(head.to_vec()).chain(rd);
        let decoder: Box<dyn Read + Send> = match compression {
            Compression::Zstd => {
                Box::new(zstd::stream::read::Decoder::new(raw).map_err(|e| io_err(path, e))?)
            }
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
            Compression::None => Box::new(raw),
        };
        // A compressed stream is decoded on a thread of its own, so that
        // decoding overlaps splitting.
        let (rd, decoder_cpu): (Box<dyn Read + Send>, _) = match compression {
            Compression::None => (decoder, None),
            Compression::Zstd | Compression::Gzip => {
                let ahead = ReadAhead::spawn(decoder).map_err(|e| io_err(path, e))?;
                let cpu = ahead.cpu_ns();
                (Box::new(ahead), Some(cpu))
            }
        };
        let batch_bytes = opts.batch_bytes.max(1);
        let mut r = Reader {
            path: path.to_path_buf(),
            encoding: Encoding::Utf8,
            compression,
            batch_bytes,
            inner: Inner::Stream {
                rd,
                buf: Vec::new(),
                eof: false,
                error: None,
            },
            pos: Position::START,
            batches: 0,
            games: 0,
            done: false,
            raw_read,
            raw_len: None,
            split_threads: 1,
            split_helpers_ns: 0,
            decoder_cpu,
        };
        if let Inner::Stream {
            rd,
            buf,
            eof,
            error,
        } = &mut r.inner
        {
            fill(rd, buf, batch_bytes, eof, error);
            r.encoding = opts.encoding.unwrap_or_else(|| {
                sniff(buf.get(..buf.len().min(SNIFF_BYTES)).unwrap_or_default())
            });
        }
        Ok(r)
    }

    /// The input's path as given (`-` for stdin).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The text encoding, decided from the input's first bytes.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Bytes of the input itself (compressed, for `.zst`/`.gz`) consumed so
    /// far, for a progress bar; compare with [`Self::input_len`].
    pub fn input_read(&self) -> u64 {
        match self.inner {
            Inner::Mapped { .. } => self.pos.offset,
            Inner::Stream { .. } => self.raw_read.load(Ordering::Relaxed),
        }
    }

    /// Size of the input file in bytes (compressed size for `.zst`/`.gz`);
    /// `None` for stdin.
    pub fn input_len(&self) -> Option<u64> {
        self.raw_len
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// Splits each window on up to `threads` threads (see
    /// [`super::split_window_parallel`]: the batches are the same). Worth
    /// it only when many replay threads consume the batches faster than
    /// one thread splits them.
    pub fn set_split_threads(&mut self, threads: usize) {
        self.split_threads = threads.max(1);
    }

    /// CPU nanoseconds spent so far by the threads that split parts of
    /// windows (see [`Self::set_split_threads`]), beside the calling
    /// thread's own.
    pub fn split_helpers_cpu_ns(&self) -> u64 {
        self.split_helpers_ns
    }

    /// CPU nanoseconds of the thread that decodes a compressed stream
    /// (0 for plain input, and until the stream has been read to its end).
    pub fn decoder_cpu_ns(&self) -> u64 {
        self.decoder_cpu
            .as_ref()
            .map_or(0, |c| c.load(Ordering::Relaxed))
    }

    /// Where reading has got to: the start of the first game not yet
    /// delivered.
    pub fn position(&self) -> Position {
        self.pos
    }

    fn make_batch(&mut self, bytes: BatchBytes, base: u64, games: Vec<GameSpan>) -> Batch {
        let b = Batch {
            bytes,
            base_offset: base,
            index: self.batches,
            first_game: self.games,
            games,
        };
        self.batches += 1;
        self.games += b.games.len() as u64;
        b
    }

    fn next_mapped(&mut self) -> Option<Batch> {
        let Inner::Mapped { data, len } = &self.inner else {
            return None;
        };
        let (data, len) = (Arc::clone(data), *len);
        let dbcs = self.encoding.is_dbcs();
        let threads = self.split_threads;
        let mut size = self.batch_bytes;
        loop {
            let start = usize::try_from(self.pos.offset).unwrap_or(len).min(len);
            let end = start.saturating_add(size).min(len);
            let is_final = end == len;
            let window = (*data).as_ref().get(start..end).unwrap_or_default();
            let mut games = Vec::new();
            let (next, ns) = split(window, self.pos, is_final, dbcs, &mut games, threads);
            self.split_helpers_ns += ns;
            let consumed = usize::try_from(next.offset - self.pos.offset).unwrap_or(0);
            if !games.is_empty() {
                let base = self.pos.offset;
                self.pos = next;
                self.done = is_final;
                let bytes = BatchBytes::Shared(data, start..start + consumed);
                return Some(self.make_batch(bytes, base, games));
            }
            if is_final {
                self.pos = next;
                self.done = true;
                return None;
            }
            if consumed > 0 {
                self.pos = next;
            } else {
                size = size.saturating_mul(2);
            }
        }
    }

    fn next_stream(&mut self) -> Option<Result<Batch, SourceError>> {
        let dbcs = self.encoding.is_dbcs();
        let threads = self.split_threads;
        let mut target = self.batch_bytes;
        loop {
            let Inner::Stream {
                rd,
                buf,
                eof,
                error,
            } = &mut self.inner
            else {
                return None;
            };
            fill(rd, buf, target, eof, error);
            let is_final = *eof && error.is_none();
            let mut games = Vec::new();
            let (next, ns) = split(buf, self.pos, is_final, dbcs, &mut games, threads);
            self.split_helpers_ns += ns;
            let consumed = usize::try_from(next.offset - self.pos.offset)
                .unwrap_or(0)
                .min(buf.len());
            if !games.is_empty() {
                // The next batch's buffer, at its full size at once: growing
                // it by doubling would leave freed blocks of every size
                // behind, which the allocator keeps (RssAnon).
                let rest = buf.get(consumed..).unwrap_or_default();
                let mut tail = Vec::with_capacity(target.max(rest.len()));
                tail.extend_from_slice(rest);
                buf.truncate(consumed);
                let bytes = std::mem::replace(buf, tail);
                let base = self.pos.offset;
                self.pos = next;
                self.done = is_final;
                return Some(Ok(self.make_batch(BatchBytes::Owned(bytes), base, games)));
            }
            if is_final {
                self.pos = next;
                self.done = true;
                return None;
            }
            if *eof {
                // Nothing more will come, and the rest is not a whole game.
                self.done = true;
                let source = error
                    .take()
                    .unwrap_or_else(|| std::io::Error::other("read failed"));
                let what = match self.compression {
                    Compression::None => "input",
                    _ => "decompressed",
                };
                return Some(Err(SourceError::Truncated {
                    path: self.path.clone(),
                    what,
                    offset: self.pos.offset + buf.len() as u64,
                    line: self.pos.line,
                    source,
                }));
            }
            buf.drain(..consumed);
            self.pos = next;
            if consumed == 0 {
                target = target.max(buf.len()).saturating_mul(2);
            }
        }
    }
}

impl Iterator for Reader {
    type Item = Result<Batch, SourceError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.inner {
            Inner::Mapped { .. } => self.next_mapped().map(Ok),
            Inner::Stream { .. } => self.next_stream(),
        }
    }
}

/// Windows smaller than this are split on one thread: starting threads
/// would cost more than it saves.
const PARALLEL_SPLIT_MIN: usize = 1 << 20;

/// [`split_window`], on `threads` threads when the window is large; also
/// the CPU nanoseconds of the threads it started.
fn split(
    window: &[u8],
    pos: Position,
    is_final: bool,
    dbcs: bool,
    games: &mut Vec<GameSpan>,
    threads: usize,
) -> (Position, u64) {
    if threads > 1 && window.len() >= PARALLEL_SPLIT_MIN {
        super::split_window_parallel(window, pos, is_final, dbcs, games, threads)
    } else {
        (split_window(window, pos, is_final, dbcs, games), 0)
    }
}

/// Reads until `buf` is full or the reader ends.
fn read_full(rd: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match rd.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads into `buf` until it holds `target` bytes, the reader ends (`eof`),
/// or it fails (`error`, and `eof` too: nothing more will be read).
fn fill(
    rd: &mut Box<dyn Read + Send>,
    buf: &mut Vec<u8>,
    target: usize,
    eof: &mut bool,
    error: &mut Option<std::io::Error>,
) {
    const STEP: usize = 1 << 16;
    while !*eof && buf.len() < target {
        let old = buf.len();
        let want = (target - old).clamp(1, STEP.max(target / 4));
        buf.resize(old + want, 0);
        match rd.read(buf.get_mut(old..).unwrap_or_default()) {
            Ok(0) => {
                buf.truncate(old);
                *eof = true;
            }
            Ok(k) => buf.truncate(old + k),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => buf.truncate(old),
            Err(e) => {
                buf.truncate(old);
                *eof = true;
                *error = Some(e);
            }
        }
    }
}
