//! An opened input as a window of bytes that moves forward: the part of the
//! text not yet handed on, read further on demand.
//!
//! The I/O strategy is chosen here, once per input. A plain file is
//! memory-mapped: its window is a range of the map, handed on without a
//! copy, and the kernel pages the file in as it is read. A compressed file
//! (zstd, gzip, bzip2, xz: recognised by their magic bytes) or a stream (stdin) is
//! decoded into an owned buffer that grows to what the reader asks for.
//! Either way the reader of the window sees one interface ([`Source`]):
//! ask for at least so many bytes ([`Source::window`]), then hand a prefix
//! on ([`Source::take`]) or drop it ([`Source::skip`]). Where the window's
//! bytes end (a game boundary) is the reader's business: the source knows
//! encodings and compression, not PGN.

use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::SourceError;
use super::content::{CONTENT_BYTES, Content, SharedReader, Utf16Reader, content_of};
use super::damage::{Checked, Damage, GzipMembers, check_gzip};
use super::encoding::{Encoding, SNIFF_BYTES, sniff};
use super::read_ahead::ReadAhead;
use super::record_format::RecordFormat;

/// The largest record file read from a stream (a compressed record, stdin).
const RECORD_STREAM_LIMIT: usize = 256 << 20;

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
    Bzip2,
    Xz,
    /// A zip archive: its `.pgn` members are inputs of their own
    /// ([`super::expand_inputs`]); read whole, as a stream, it is refused.
    Zip,
}

impl Compression {
    /// The name `summary.json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zip => "zip",
        }
    }
}

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// A zstd *skippable frame* starts with `0x184D2A5?` (little-endian: `5?
/// 2A 4D 18`, any of sixteen values of the first byte). pzstd, which
/// writes the lichess database dumps, puts one before every data frame
/// (it holds the size of the frame that follows), so such a file starts
/// with one; the zstd decoder passes over them wherever they stand.
const ZSTD_SKIPPABLE_TAIL: [u8; 3] = [0x2a, 0x4d, 0x18];
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0];

/// Bytes of an input's start that say how it is compressed.
pub(super) const MAGIC_BYTES: usize = 6;

/// The compression an input's first bytes announce.
pub(super) fn compression_of(head: &[u8]) -> Compression {
    if head.starts_with(&ZSTD_MAGIC) || is_zstd_skippable(head) {
        Compression::Zstd
    } else if head.starts_with(&GZIP_MAGIC) {
        Compression::Gzip
    } else if head.starts_with(&XZ_MAGIC) {
        Compression::Xz
    } else if head.len() >= 4
        && head.starts_with(b"BZh")
        && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
    {
        Compression::Bzip2
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Compression::Zip
    } else {
        Compression::None
    }
}

/// Whether `head` starts with a zstd skippable frame's magic number.
fn is_zstd_skippable(head: &[u8]) -> bool {
    head.first().is_some_and(|b| b & 0xf0 == 0x50)
        && head.get(1..4) == Some(&ZSTD_SKIPPABLE_TAIL[..])
}

pub(super) type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

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

/// Bytes handed on from a [`Source`]: a range of the mapped file, or an
/// owned piece of a stream. `Send + Sync`: a worker thread reads it as it is.
pub struct Chunk(ChunkBytes);

enum ChunkBytes {
    Shared(Shared, Range<usize>),
    Owned(Vec<u8>),
}

impl Chunk {
    /// Bytes made by the reader rather than read (a record written as PGN).
    pub fn owned(bytes: Vec<u8>) -> Chunk {
        Chunk(ChunkBytes::Owned(bytes))
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.0 {
            ChunkBytes::Shared(data, r) => (**data).as_ref().get(r.clone()).unwrap_or_default(),
            ChunkBytes::Owned(v) => v,
        }
    }
}

/// How far a window reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowEnd {
    /// More bytes may follow the window.
    More,
    /// The window reaches the end of the input: nothing follows.
    Final,
    /// The input broke off after the window (a truncated or corrupt
    /// compressed stream, a read error): nothing follows, and the input is
    /// not complete. [`Source::take_error`] says why.
    Broken,
}

enum Inner {
    Mapped {
        data: Shared,
        len: usize,
        /// The window is `data[start..start + shown]`.
        start: usize,
        shown: usize,
    },
    Stream {
        rd: Box<dyn Read + Send>,
        /// The window: the bytes read and not yet handed on.
        buf: Vec<u8>,
        eof: bool,
        error: Option<std::io::Error>,
    },
}

/// An opened input. The window starts at [`Source::offset`] of the
/// (decompressed) text and grows on demand.
pub struct Source {
    path: PathBuf,
    encoding: Encoding,
    compression: Compression,
    inner: Inner,
    /// Text offset of the window's first byte.
    offset: u64,
    raw_read: Arc<AtomicU64>,
    raw_len: Option<u64>,
    /// CPU nanoseconds of the decoding thread of a compressed stream, set
    /// when it ends.
    decoder_cpu: Option<Arc<AtomicU64>>,
    /// Bytes an owned window is given room for at once (the batch size).
    room: usize,
    /// Why the input is not read as PGN text (a binary file), if so: it
    /// then has no text at all.
    unsupported: Option<String>,
    /// A xiangqi record file: its format and all its bytes. It then has no
    /// text window either; `crate::records` reads the bytes.
    record: Option<(RecordFormat, Shared)>,
    /// Stretches of the text that the compressed data does not vouch for
    /// (see `damage.rs`), known before the text is read.
    damage: Vec<Damage>,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("path", &self.path)
            .field("encoding", &self.encoding)
            .field("compression", &self.compression)
            .field("offset", &self.offset)
            .finish()
    }
}

pub(super) fn io_err(path: &Path, source: std::io::Error) -> SourceError {
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

impl Source {
    /// Opens a file: plain files are mapped, compressed ones streamed, and
    /// anything that is not a regular file (a FIFO, `<(cmd)`, a character
    /// device) is read once, as a stream, like stdin.
    pub fn open_file(path: &Path, opts: &ReadOptions) -> Result<Source, SourceError> {
        let mut file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
        let meta = file.metadata().map_err(|e| io_err(path, e))?;
        if !meta.is_file() {
            return Source::from_read(path, Box::new(file), opts);
        }
        let mut head = [0u8; MAGIC_BYTES];
        let n = read_full(&mut file, &mut head).map_err(|e| io_err(path, e))?;
        let head = head.get(..n).unwrap_or_default();
        let len = meta.len();
        let compression = compression_of(head);
        if compression != Compression::None {
            // A gzip file is checked member by member before it is read.
            let checked = match compression {
                Compression::Gzip => Some(check_gzip(path).map_err(|e| io_err(path, e))?),
                _ => None,
            };
            let rd = std::io::Cursor::new(head.to_vec()).chain(file);
            let mut r = Source::from_checked_read(path, Box::new(rd), opts, checked)?;
            r.raw_len = Some(len);
            return Ok(r);
        }
        if len == 0 {
            // An empty file cannot be mapped; it simply has no games.
            return Ok(Source::from_shared(path, Arc::new(Vec::new()), opts));
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
        let map: Shared = Arc::new(map);
        let start = (*map).as_ref();
        match content_of(
            start
                .get(..start.len().min(CONTENT_BYTES))
                .unwrap_or_default(),
        ) {
            Content::Text
                if RecordFormat::may_hold_dhtmlxq(path) && RecordFormat::holds_dhtmlxq(start) =>
            {
                Ok(Source::of_record(path, RecordFormat::DhtmlXq, map, opts))
            }
            Content::Text => Ok(Source::from_shared(path, map, opts)),
            Content::Record(format) => Ok(Source::of_record(path, format, map, opts)),
            // UTF-16 is decoded to UTF-8 on the way, as a stream.
            Content::Utf16(_) => {
                let mut r =
                    Source::from_read(path, Box::new(SharedReader { data: map, at: 0 }), opts)?;
                r.raw_len = Some(len);
                Ok(r)
            }
            Content::Binary(what) => Ok(Source::refused(path, refusal(path, what), opts)),
        }
    }

    /// A source with no text, for a record file: `data` is all of it.
    fn of_record(path: &Path, format: RecordFormat, data: Shared, opts: &ReadOptions) -> Source {
        let mut r = Source::from_shared(path, Arc::new(Vec::new()), opts);
        r.raw_len = Some((*data).as_ref().len() as u64);
        r.record = Some((format, data));
        r
    }

    /// A source with no text, for an input that is not PGN text.
    fn refused(path: &Path, why: String, opts: &ReadOptions) -> Source {
        let mut r = Source::from_shared(path, Arc::new(Vec::new()), opts);
        r.unsupported = Some(why);
        r
    }

    /// Reads bytes already in memory (a mapped file, or test data).
    pub fn from_shared(path: &Path, data: Shared, opts: &ReadOptions) -> Source {
        let bytes = (*data).as_ref();
        let len = bytes.len();
        let encoding = opts
            .encoding
            .unwrap_or_else(|| sniff(bytes.get(..len.min(SNIFF_BYTES)).unwrap_or_default()));
        Source {
            path: path.to_path_buf(),
            encoding,
            compression: Compression::None,
            inner: Inner::Mapped {
                data,
                len,
                start: 0,
                shown: 0,
            },
            offset: 0,
            raw_read: Arc::new(AtomicU64::new(0)),
            raw_len: Some(len as u64),
            decoder_cpu: None,
            room: opts.batch_bytes.max(1),
            unsupported: None,
            record: None,
            damage: Vec::new(),
        }
    }

    /// Streams a reader, decompressing it if it starts with the magic
    /// bytes of zstd, gzip, bzip2 or xz, and decoding UTF-16 text to UTF-8.
    /// Reads the first window now, to decide the encoding.
    pub fn from_read(
        path: &Path,
        rd: Box<dyn Read + Send>,
        opts: &ReadOptions,
    ) -> Result<Source, SourceError> {
        Source::from_checked_read(path, rd, opts, None)
    }

    /// [`Source::from_read`] of data that has been checked (`damage.rs`):
    /// the text is read only as far as it can be, past the gzip members
    /// whose checksum failed, and the damage found travels with it.
    pub(super) fn from_checked_read(
        path: &Path,
        rd: Box<dyn Read + Send>,
        opts: &ReadOptions,
        checked: Option<Checked>,
    ) -> Result<Source, SourceError> {
        let readable = checked.as_ref().map_or(u64::MAX, |c| c.readable);
        let raw_read = Arc::new(AtomicU64::new(0));
        let mut rd: Box<dyn Read + Send> = Box::new(Counting {
            inner: rd,
            count: Arc::clone(&raw_read),
        });
        let mut head = [0u8; MAGIC_BYTES];
        // A stream that fails within its first bytes (a zip member whose
        // data is damaged from the start) is read as far as it goes, like
        // one that fails later: its error ends the text, and the input is
        // incomplete, not a reason to stop the run.
        let (n, broke) = read_head(&mut rd, &mut head);
        let head = head.get(..n).unwrap_or_default();
        let compression = compression_of(head);
        let rd: Box<dyn Read + Send> = match broke {
            None => rd,
            Some(e) => Box::new(BrokenOff(Some(e))),
        };
        let raw = std::io::Cursor::new(head.to_vec()).chain(rd);
        let decoder: Box<dyn Read + Send> = match compression {
            Compression::Zstd => {
                Box::new(zstd::stream::read::Decoder::new(raw).map_err(|e| io_err(path, e))?)
            }
            Compression::Gzip => Box::new(GzipMembers::new(
                std::io::BufReader::new(raw),
                checked.is_some(),
            )),
            Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
            Compression::Xz => Box::new(lzma_rust2::XzReader::new(raw, true)),
            Compression::None => Box::new(raw),
            Compression::Zip => {
                let why = "zip archive read as a stream (name the file itself: its .pgn members are read)";
                let mut r = Source::refused(path, why.to_string(), opts);
                r.compression = Compression::Zip;
                return Ok(r);
            }
        };
        let decoder: Box<dyn Read + Send> = match readable {
            u64::MAX => decoder,
            n => Box::new(decoder.take(n)),
        };
        // A compressed stream is decoded on a thread of its own, so that
        // decoding overlaps splitting.
        let (mut rd, decoder_cpu): (Box<dyn Read + Send>, _) = match compression {
            Compression::None => (decoder, None),
            _ => {
                let ahead = ReadAhead::spawn(decoder).map_err(|e| io_err(path, e))?;
                let cpu = ahead.cpu_ns();
                (Box::new(ahead), Some(cpu))
            }
        };
        // What the (decompressed) text is: PGN text, UTF-16, or a binary file.
        // A stream that breaks off within these first bytes (a truncated
        // .zst) is not refused here: its error comes after the bytes read,
        // where the batches meet it and report the input as incomplete.
        let mut start = Vec::with_capacity(CONTENT_BYTES);
        let broke = (&mut rd)
            .take(CONTENT_BYTES as u64)
            .read_to_end(&mut start)
            .err();
        let content = match content_of(&start) {
            // A stream has no name to go by (stdin is `-`): a DhtmlXQ block in
            // its first bytes makes it a page of DhtmlXQ games, as the block
            // anywhere in a `.ubb`/`.txt`/`.html` file does.
            Content::Text
                if (path == Path::new("-") || RecordFormat::may_hold_dhtmlxq(path))
                    && RecordFormat::holds_dhtmlxq(&start) =>
            {
                Content::Record(RecordFormat::DhtmlXq)
            }
            other => other,
        };
        if let Content::Record(format) = content {
            // Records are small (a library of a thousand games is a few
            // MB): read the rest, up to a bound.
            let mut all = start;
            let limit = RECORD_STREAM_LIMIT as u64;
            let read = match broke {
                Some(e) => Err(e),
                None => (&mut rd).take(limit).read_to_end(&mut all).map(|_| ()),
            };
            let mut r = match read {
                Err(e) => Source::refused(path, format!("{} record: {e}", format.name()), opts),
                Ok(()) if all.len() >= RECORD_STREAM_LIMIT => Source::refused(
                    path,
                    format!(
                        "{} record larger than {RECORD_STREAM_LIMIT} bytes: not read",
                        format.name()
                    ),
                    opts,
                ),
                Ok(()) => Source::of_record(path, format, Arc::new(all), opts),
            };
            r.compression = compression;
            return Ok(r);
        }
        if let Content::Binary(what) = content {
            let mut r = Source::refused(path, what.to_string(), opts);
            r.compression = compression;
            return Ok(r);
        }
        let mut rd: Box<dyn Read + Send> = match broke {
            None => Box::new(std::io::Cursor::new(start).chain(rd)),
            Some(e) => Box::new(std::io::Cursor::new(start).chain(BrokenOff(Some(e)))),
        };
        let mut forced = opts.encoding;
        if let Content::Utf16(enc) = content {
            rd = Box::new(Utf16Reader::new(rd, enc));
            forced = Some(enc);
        }
        let room = opts.batch_bytes.max(1);
        let mut source = Source {
            path: path.to_path_buf(),
            encoding: Encoding::Utf8,
            compression,
            inner: Inner::Stream {
                rd,
                buf: Vec::new(),
                eof: false,
                error: None,
            },
            offset: 0,
            raw_read,
            raw_len: None,
            decoder_cpu,
            room,
            unsupported: None,
            record: None,
            damage: Vec::new(),
        };
        if let Some(checked) = checked {
            source.damage = match content {
                // UTF-16 is decoded to UTF-8, which moves the offsets: the
                // damage then covers all of the text from its start.
                Content::Utf16(_) => checked
                    .damage
                    .into_iter()
                    .map(|d| Damage {
                        text: 0..u64::MAX,
                        why: d.why,
                    })
                    .collect(),
                _ => checked.damage,
            };
        }
        let (head, _) = source.window(room);
        let encoding = forced
            .unwrap_or_else(|| sniff(head.get(..head.len().min(SNIFF_BYTES)).unwrap_or_default()));
        source.encoding = encoding;
        Ok(source)
    }

    /// Why the input is not read as PGN (a binary file: `XQF binary
    /// record`, `PNG image`), if so; it then gives no text.
    pub fn unsupported(&self) -> Option<&str> {
        self.unsupported.as_deref()
    }

    /// The stretches of the text that its compressed data does not vouch
    /// for (a gzip member or a zip member whose checksum failed), known
    /// when the input is opened.
    pub fn damage(&self) -> &[Damage] {
        &self.damage
    }

    /// Says which stretches of the text are damaged (a zip member checked
    /// by its opener).
    pub(super) fn with_damage(mut self, damage: Vec<Damage>) -> Source {
        self.damage = damage;
        self
    }

    /// A xiangqi record file's format and bytes, if this is one.
    pub fn record(&self) -> Option<(RecordFormat, &[u8])> {
        self.record.as_ref().map(|(f, d)| (*f, (**d).as_ref()))
    }

    /// The input's path as given (`-` for stdin).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The text encoding, decided from the input's first bytes.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// Says the text came out of a zip archive (its members are opened as
    /// streams of their decompressed text, which look uncompressed).
    pub(super) fn zipped(mut self) -> Source {
        if self.compression == Compression::None {
            self.compression = Compression::Zip;
        }
        self
    }

    /// Text offset of the window's first byte: the bytes handed on or
    /// skipped so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Bytes of the input itself (compressed, for `.zst`/`.gz`) consumed so
    /// far, for a progress bar; compare with [`Self::input_len`].
    pub fn input_read(&self) -> u64 {
        match self.inner {
            Inner::Mapped { .. } => self.offset,
            Inner::Stream { .. } => self.raw_read.load(Ordering::Relaxed),
        }
    }

    /// Size of the input file in bytes (compressed size for `.zst`/`.gz`);
    /// `None` for stdin.
    pub fn input_len(&self) -> Option<u64> {
        self.raw_len
    }

    /// CPU nanoseconds of the thread that decodes a compressed stream
    /// (0 for plain input, and until the stream has been read to its end).
    pub fn decoder_cpu_ns(&self) -> u64 {
        self.decoder_cpu
            .as_ref()
            .map_or(0, |c| c.load(Ordering::Relaxed))
    }

    /// The window, grown to at least `want` bytes unless the input ends
    /// (or breaks off) first, and how far it reaches.
    pub fn window(&mut self, want: usize) -> (&[u8], WindowEnd) {
        match &mut self.inner {
            Inner::Mapped {
                data,
                len,
                start,
                shown,
            } => {
                let end = start.saturating_add(want).min(*len);
                *shown = end - *start;
                let bytes = (**data).as_ref().get(*start..end).unwrap_or_default();
                let reach = if end == *len {
                    WindowEnd::Final
                } else {
                    WindowEnd::More
                };
                (bytes, reach)
            }
            Inner::Stream {
                rd,
                buf,
                eof,
                error,
            } => {
                fill(rd, buf, want, eof, error);
                let reach = match (*eof, error.is_some()) {
                    (false, _) => WindowEnd::More,
                    (true, false) => WindowEnd::Final,
                    (true, true) => WindowEnd::Broken,
                };
                (buf, reach)
            }
        }
    }

    /// Hands on the first `n` bytes of the window (no more than it holds);
    /// the window then starts after them.
    pub fn take(&mut self, n: usize) -> Chunk {
        let room = self.room;
        let (chunk, n) = match &mut self.inner {
            Inner::Mapped {
                data, start, shown, ..
            } => {
                let n = n.min(*shown);
                let range = *start..*start + n;
                *start += n;
                *shown -= n;
                (ChunkBytes::Shared(Arc::clone(data), range), n)
            }
            Inner::Stream { buf, .. } => {
                let n = n.min(buf.len());
                // The next window's buffer, at its full size at once:
                // growing it by doubling would leave freed blocks of every
                // size behind, which the allocator keeps (RssAnon).
                let rest = buf.get(n..).unwrap_or_default();
                let mut tail = Vec::with_capacity(room.max(rest.len()));
                tail.extend_from_slice(rest);
                buf.truncate(n);
                (ChunkBytes::Owned(std::mem::replace(buf, tail)), n)
            }
        };
        self.offset += n as u64;
        Chunk(chunk)
    }

    /// Drops the first `n` bytes of the window (no more than it holds).
    pub fn skip(&mut self, n: usize) {
        let n = match &mut self.inner {
            Inner::Mapped { start, shown, .. } => {
                let n = n.min(*shown);
                *start += n;
                *shown -= n;
                n
            }
            Inner::Stream { buf, .. } => {
                let n = n.min(buf.len());
                buf.drain(..n);
                n
            }
        };
        self.offset += n as u64;
    }

    /// Why a [`WindowEnd::Broken`] input broke off (once).
    pub fn take_error(&mut self) -> std::io::Error {
        match &mut self.inner {
            Inner::Stream { error, .. } => error.take(),
            Inner::Mapped { .. } => None,
        }
        .unwrap_or_else(|| std::io::Error::other("read failed"))
    }
}

/// Why a plain (not compressed) file is refused: `what` it is, and, when
/// its name says it is compressed, that its bytes are not (a download
/// saved under the wrong name, or damaged from its first byte).
fn refusal(path: &Path, what: &str) -> String {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let named = [
        (".zst", "zstd"),
        (".zstd", "zstd"),
        (".gz", "gzip"),
        (".bz2", "bzip2"),
        (".xz", "xz"),
    ]
    .into_iter()
    .find(|(ext, _)| name.ends_with(ext));
    match named {
        Some((ext, format)) => format!("{what} (named {ext}, but not {format} data)"),
        None => what.to_string(),
    }
}

/// A reader that has broken off: its error, once, then the end.
struct BrokenOff(Option<std::io::Error>);

impl Read for BrokenOff {
    fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Reads until `buf` is full, the reader ends or fails: the byte count,
/// and the error if it failed.
fn read_head(rd: &mut dyn Read, buf: &mut [u8]) -> (usize, Option<std::io::Error>) {
    let mut n = 0;
    while n < buf.len() {
        match rd.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}

/// Reads until `buf` is full or the reader ends.
fn read_full(rd: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    match read_head(rd, buf) {
        (n, None) => Ok(n),
        (_, Some(e)) => Err(e),
    }
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
