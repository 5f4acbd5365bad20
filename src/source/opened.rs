//! What an input is once opened: text to split ([`TextWindow`]), records to
//! decode ([`RecordFile`]), or refused with a reason ([`Refusal`]). The type
//! says which, so that every reader of inputs decides what to do with each.
//!
//! Opening chooses the I/O strategy, once per input. A plain file is
//! memory-mapped; a compressed file, a zip member, stdin and anything that
//! is not a regular file are streamed through a decoder (`stream.rs`).
//! Either way the bytes are classified in one place (`content.rs`) before
//! anything reads them as text.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::bzip2_blocks::{BlockReader, Reported};
use super::compression::{Compression, MAGIC_BYTES, compression_of};
use super::content::{CONTENT_BYTES, Content, RefusalKind, classify};
use super::damage::{Checked, Damage, DamageLog, check_gzip};
use super::line_ends::CrCrLfReader;
use super::mapped::MappedFile;
use super::readers::{BrokenOff, Counting, SharedReader, read_head};
use super::record_format::RecordFormat;
use super::stream::{Decoded, decode};
use super::utf16::Utf16Reader;
use super::window::{Shared, StreamText, TextWindow};
use super::zstd_frames::{FrameReader, frame_decoders};
use super::{ReadOptions, SourceError, io_err};

/// The largest record file read from a stream (a compressed record, stdin).
const RECORD_STREAM_LIMIT: usize = 256 << 20;

/// An opened input.
#[derive(Debug)]
pub enum Opened {
    /// Text to split into games (or lines): a window that moves forward.
    Text(TextWindow),
    /// A xiangqi record file, decoded whole by `crate::records`.
    Records(RecordFile),
    /// Not read, and why.
    Refused(Refusal),
}

/// A xiangqi record file (XQF, CCBridge, CBF, a DhtmlXQ page): its format
/// and all its bytes.
pub struct RecordFile {
    path: PathBuf,
    format: RecordFormat,
    bytes: Shared,
    compression: Compression,
}

impl std::fmt::Debug for RecordFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordFile")
            .field("path", &self.path)
            .field("format", &self.format)
            .field("len", &self.bytes().len())
            .field("compression", &self.compression)
            .finish()
    }
}

impl RecordFile {
    /// The input's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn format(&self) -> RecordFormat {
        self.format
    }

    /// All of the file's (decompressed) bytes.
    pub fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }
}

/// An input that is not read: of what kind, and why.
#[derive(Debug)]
pub struct Refusal {
    path: PathBuf,
    compression: Compression,
    /// Not PGN at all, or a format recognised and not read.
    pub kind: RefusalKind,
    /// In words, without the path: `PNG image, not PGN`.
    pub why: String,
    damage: Vec<Damage>,
}

impl Refusal {
    /// The input's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// What the compressed data's check found wrong (a zip member whose
    /// checksum failed), said beside the refusal.
    pub fn damage(&self) -> &[Damage] {
        &self.damage
    }
}

impl Opened {
    /// Opens a stream (any reader), as stdin is opened: decompressed if
    /// its magic bytes say so, then classified. `path` names it in
    /// messages.
    pub fn from_read(
        path: &Path,
        rd: Box<dyn Read + Send>,
        opts: &ReadOptions,
    ) -> Result<Opened, SourceError> {
        open_stream(path, rd, opts, None)
    }

    /// The input's path as given (`-` for stdin).
    pub fn path(&self) -> &Path {
        match self {
            Opened::Text(text) => text.path(),
            Opened::Records(records) => records.path(),
            Opened::Refused(refusal) => refusal.path(),
        }
    }

    /// How the input's bytes were stored.
    pub fn compression(&self) -> Compression {
        match self {
            Opened::Text(text) => text.compression(),
            Opened::Records(records) => records.compression(),
            Opened::Refused(refusal) => refusal.compression(),
        }
    }

    /// The text to split, or an error that says what the input is instead
    /// (for readers of text only, such as `crate::pgn::Batches::open`).
    pub fn into_text(self) -> Result<TextWindow, SourceError> {
        let (path, what) = match self {
            Opened::Text(text) => return Ok(text),
            Opened::Records(records) => (
                records.path,
                format!(
                    "a {} record file, whose games `records::read_records` reads",
                    records.format.name()
                ),
            ),
            Opened::Refused(refusal) => (refusal.path, refusal.why),
        };
        Err(SourceError::NotText { path, what })
    }

    /// Says the input came out of an `archive` (zip or 7z): its members
    /// are opened as streams of their decompressed text, which look
    /// uncompressed.
    pub(super) fn archived(mut self, archive: Compression) -> Opened {
        if self.compression() == Compression::None {
            match &mut self {
                Opened::Text(text) => text.set_compression(archive),
                Opened::Records(records) => records.compression = archive,
                Opened::Refused(refusal) => refusal.compression = archive,
            }
        }
        self
    }

    /// Says which stretches of the input's text are damaged (a zip member
    /// checked by its opener). A record file is decoded as it is.
    pub(super) fn with_damage(mut self, damage: Vec<Damage>) -> Opened {
        match &mut self {
            Opened::Text(text) => text.set_damage(damage),
            Opened::Refused(refusal) => refusal.damage = damage,
            Opened::Records(_) => {}
        }
        self
    }
}

/// Opens a file: plain files are mapped, compressed ones streamed, and
/// anything that is not a regular file (a FIFO, `<(cmd)`, a character
/// device) is read once, as a stream, like stdin.
pub(super) fn open_file(path: &Path, opts: &ReadOptions) -> Result<Opened, SourceError> {
    let mut file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let meta = file.metadata().map_err(|e| io_err(path, e))?;
    if meta.is_dir() {
        // A folder opens on Linux, but reading it fails: said here, as
        // the error it is, not as text that stops after byte 0 (a folder
        // is searched for inputs before this: `expand_inputs`).
        let error = std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a folder");
        return Err(io_err(path, error));
    }
    if !meta.is_file() {
        return open_stream(path, Box::new(file), opts, None);
    }
    let mut head = [0u8; MAGIC_BYTES];
    let n = match read_head(&mut file, &mut head) {
        (n, None) => n,
        (_, Some(e)) => return Err(io_err(path, e)),
    };
    let head = head.get(..n).unwrap_or_default();
    let len = meta.len();
    if compression_of(head) != Compression::None {
        // A gzip file is checked member by member before it is read.
        let checked = match compression_of(head) {
            Compression::Gzip => Some(check_gzip(path).map_err(|e| io_err(path, e))?),
            _ => None,
        };
        // Decoded in pieces on several threads, when it can be.
        let in_pieces = match compression_of(head) {
            Compression::Zstd => frame_reader(path, &file, opts)?,
            Compression::Bzip2 => block_reader(path, &file, opts)?,
            _ => None,
        };
        let opened = match in_pieces {
            Some(decoded) => open_decoded(path, decoded, opts, None)?,
            None => {
                // A file's frames were looked at: one stream.
                let one_stream = ReadOptions {
                    decode_threads: 0,
                    ..*opts
                };
                let rd = std::io::Cursor::new(head.to_vec()).chain(file);
                open_stream(path, Box::new(rd), &one_stream, checked)?
            }
        };
        return Ok(match opened {
            Opened::Text(mut text) => {
                text.set_input_len(len);
                Opened::Text(text)
            }
            other => other,
        });
    }
    if len == 0 {
        // An empty file cannot be mapped; it simply has no games.
        return Ok(Opened::Text(TextWindow::from_shared(
            path,
            Arc::new(Vec::new()),
            opts,
        )));
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
    let map: Shared = Arc::new(MappedFile::new(map, path));
    Ok(match classify(path, (*map).as_ref(), Compression::None) {
        Content::Text => Opened::Text(TextWindow::mapped_file(path, map, opts)),
        // UTF-16 is decoded to UTF-8 on the way, and doubled line ends
        // rewritten, as a stream.
        content @ (Content::Utf16(_) | Content::TextCrCrLf) => {
            let raw_read = Arc::default();
            let raw = Counting {
                inner: SharedReader { data: map, at: 0 },
                count: Arc::clone(&raw_read),
            };
            let (bytes, encoding): (Box<dyn BufRead + Send>, _) = match content {
                Content::Utf16(enc) => (Box::new(Utf16Reader::new(Box::new(raw), enc)), Some(enc)),
                _ => (
                    Box::new(CrCrLfReader::new(BufReader::new(raw))),
                    opts.encoding,
                ),
            };
            let text = StreamText {
                bytes,
                compression: Compression::None,
                raw_read,
                raw_len: Some(len),
                decoder_cpu: None,
                decoder_threads: 1,
                encoding,
                doubled_line_ends: content == Content::TextCrCrLf,
                damage: DamageLog::default(),
            };
            Opened::Text(TextWindow::stream(path, text, opts.batch_bytes.max(1)))
        }
        Content::Record(format) => Opened::Records(RecordFile {
            path: path.to_path_buf(),
            format,
            bytes: map,
            compression: Compression::None,
        }),
        Content::Refused(kind, why) => refused(path, Compression::None, kind, why),
    })
}

/// A `.zst` file of several frames, or of one small frame, decoded frame
/// by frame on `opts.decode_threads` threads (`zstd_frames.rs`), one
/// included: a frame decoded in one pass costs less than a stream, and
/// its text is handed on once its checksum is checked. `None` for a
/// larger frame ([`super::zstd_frames::frame_decoders`]), or no decoder
/// thread: streamed as any compressed file is.
fn frame_reader(
    path: &Path,
    file: &std::fs::File,
    opts: &ReadOptions,
) -> Result<Option<Decoded>, SourceError> {
    if opts.decode_threads == 0 {
        return Ok(None);
    }
    // SAFETY: as for a plain file's map below.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| io_err(path, e))?;
    let Some(most_decoders) = frame_decoders(&map) else {
        return Ok(None);
    };
    let raw_read = Arc::new(AtomicU64::new(0));
    let map: Shared = Arc::new(MappedFile::new(map, path));
    let name = path.display().to_string();
    // No more threads than the file has frames, about.
    let k = opts.decode_threads.min(most_decoders);
    let frames =
        FrameReader::spawn(map, name, k, Arc::clone(&raw_read)).map_err(|e| io_err(path, e))?;
    Ok(Some(Decoded::of_frames(frames, raw_read)))
}

/// A `.bz2` file decoded block by block on `opts.bzip2_threads` threads
/// (`bzip2_blocks.rs`); `None` for fewer than two: streamed as any
/// compressed file is.
fn block_reader(
    path: &Path,
    file: &std::fs::File,
    opts: &ReadOptions,
) -> Result<Option<Decoded>, SourceError> {
    if opts.bzip2_threads < 2 {
        return Ok(None);
    }
    // SAFETY: as for a plain file's map below.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| io_err(path, e))?;
    let map: Shared = Arc::new(MappedFile::new(map, path));
    let name = path.display().to_string();
    let reported = Reported {
        raw_read: Arc::default(),
        cpu_ns: Arc::default(),
        found: DamageLog::default(),
    };
    let (raw_read, cpu_ns, found) = (
        Arc::clone(&reported.raw_read),
        Arc::clone(&reported.cpu_ns),
        reported.found.clone(),
    );
    let k = opts.bzip2_threads;
    let blocks = BlockReader::spawn(map, name, k, reported).map_err(|e| io_err(path, e))?;
    Ok(Some(Decoded {
        bytes: Box::new(blocks),
        compression: Compression::Bzip2,
        raw_read,
        decoder_cpu: Some(cpu_ns),
        decoder_threads: k,
        found,
    }))
}

/// Opens a stream: decompresses it if it starts with the magic bytes of
/// zstd, gzip, bzip2 or xz, and decodes UTF-16 text to UTF-8. Data that
/// has been `checked` (`damage.rs`) is read only as far as it can be, past
/// the gzip members whose checksum failed, and the damage found travels
/// with its text.
pub(super) fn open_stream(
    path: &Path,
    rd: Box<dyn Read + Send>,
    opts: &ReadOptions,
    checked: Option<Checked>,
) -> Result<Opened, SourceError> {
    let readable = checked.as_ref().map_or(u64::MAX, |c| c.readable);
    let decoded = decode(path, rd, readable, checked.is_some(), opts.decode_threads)?;
    open_decoded(path, decoded, opts, checked)
}

/// Opens a stream's decoded bytes ([`open_stream`]).
fn open_decoded(
    path: &Path,
    decoded: Decoded,
    opts: &ReadOptions,
    checked: Option<Checked>,
) -> Result<Opened, SourceError> {
    let compression = decoded.compression;
    let mut rd = decoded.bytes;
    // What the check found, and what the decoder finds as it goes (from
    // the first bytes read below on).
    let damage = decoded.found;
    for found in checked.map(|c| c.damage).unwrap_or_default() {
        damage.push(found);
    }
    // What the (decompressed) text is. A stream that breaks off within
    // these first bytes (a truncated .zst) is not refused here: its error
    // comes after the bytes read, where the batches meet it and report the
    // input as incomplete.
    let mut start = Vec::with_capacity(CONTENT_BYTES);
    let broke = (&mut rd)
        .take(CONTENT_BYTES as u64)
        .read_to_end(&mut start)
        .err();
    let content = classify(path, &start, compression);
    let doubled_line_ends = content == Content::TextCrCrLf;
    let utf16 = match content {
        Content::Record(format) => {
            return Ok(read_record_stream(
                path,
                format,
                compression,
                start,
                broke,
                rd,
            ));
        }
        // The damage found in what was read is said beside the refusal (a
        // damaged first frame, and binary data after it).
        Content::Refused(kind, why) => {
            return Ok(refused(path, compression, kind, why).with_damage(damage.since(0)));
        }
        Content::Text | Content::TextCrCrLf => None,
        Content::Utf16(enc) => Some(enc),
    };
    if utf16.is_some() || doubled_line_ends {
        // UTF-16 is decoded to UTF-8, and doubled line ends are rewritten,
        // which moves the offsets: the damage then covers all of the text
        // from its start.
        damage.offsets_moved();
    }
    let mut rd: Box<dyn BufRead + Send> = match broke {
        None => Box::new(std::io::Cursor::new(start).chain(rd)),
        Some(e) => Box::new(std::io::Cursor::new(start).chain(BrokenOff(Some(e)))),
    };
    if let Some(enc) = utf16 {
        rd = Box::new(Utf16Reader::new(Box::new(rd), enc));
    }
    if doubled_line_ends {
        rd = Box::new(CrCrLfReader::new(rd));
    }
    let text = StreamText {
        bytes: rd,
        compression,
        raw_read: decoded.raw_read,
        raw_len: None,
        decoder_cpu: decoded.decoder_cpu,
        decoder_threads: decoded.decoder_threads,
        encoding: utf16.or(opts.encoding),
        doubled_line_ends,
        damage,
    };
    Ok(Opened::Text(TextWindow::stream(
        path,
        text,
        opts.batch_bytes.max(1),
    )))
}

/// A record file in a stream, of which `start` has been read (and
/// `broke`, if reading it failed): records are small (a library of a
/// thousand games is a few MB), so the rest is read now, up to a bound.
fn read_record_stream(
    path: &Path,
    format: RecordFormat,
    compression: Compression,
    start: Vec<u8>,
    broke: Option<std::io::Error>,
    mut rd: Box<dyn BufRead + Send>,
) -> Opened {
    let mut all = start;
    let limit = RECORD_STREAM_LIMIT as u64;
    let read = match broke {
        Some(e) => Err(e),
        None => (&mut rd).take(limit).read_to_end(&mut all).map(|_| ()),
    };
    let why = match read {
        Err(e) => format!("{} record: {e}", format.name()),
        Ok(()) if all.len() >= RECORD_STREAM_LIMIT => format!(
            "{} record larger than {RECORD_STREAM_LIMIT} bytes: not read",
            format.name()
        ),
        Ok(()) => {
            return Opened::Records(RecordFile {
                path: path.to_path_buf(),
                format,
                bytes: Arc::new(all),
                compression,
            });
        }
    };
    refused(path, compression, RefusalKind::Unsupported, why)
}

pub(super) fn refused(
    path: &Path,
    compression: Compression,
    kind: RefusalKind,
    why: String,
) -> Opened {
    Opened::Refused(Refusal {
        path: path.to_path_buf(),
        compression,
        kind,
        why,
        damage: Vec::new(),
    })
}
