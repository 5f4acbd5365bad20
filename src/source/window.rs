//! An input's text as a window of bytes that moves forward: the part of
//! the text not yet handed on, read further on demand.
//!
//! A mapped file's window is a range of the map, handed on without a copy;
//! a stream's (a compressed file, a zip member, stdin) is an owned buffer
//! that grows to what the reader asks for. Either way the reader of the
//! window sees one interface ([`TextWindow`]): ask for at least so many
//! bytes ([`TextWindow::window`]), then hand a prefix on
//! ([`TextWindow::take`]) or drop it ([`TextWindow::skip`]). Where the
//! window's bytes end (a game boundary) is the reader's business: the
//! window knows encodings and compression, not PGN.

use std::io::BufRead;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ReadOptions;
use super::compression::Compression;
use super::damage::{Damage, DamageLog};
use super::encoding::{Encoding, SNIFF_BYTES, sniff};

/// Bytes in memory, shared by the window and the chunks it hands on: a
/// mapped file, or a buffer.
pub(super) type Shared = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// Bytes handed on from a [`TextWindow`]: a range of the mapped file, or
/// an owned piece of a stream. `Send + Sync`: a worker thread reads it as
/// it is.
pub struct Block(BlockBytes);

enum BlockBytes {
    Shared(Shared, Range<usize>),
    /// A range of a mapped file: its pages are given back when the block
    /// is dropped ([`release_pages`]).
    Mapped(Shared, Range<usize>),
    Owned(Vec<u8>),
}

impl Block {
    /// Bytes made by the reader rather than read (a record written as PGN).
    pub fn owned(bytes: Vec<u8>) -> Block {
        Block(BlockBytes::Owned(bytes))
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.0 {
            BlockBytes::Shared(data, r) | BlockBytes::Mapped(data, r) => {
                (**data).as_ref().get(r.clone()).unwrap_or_default()
            }
            BlockBytes::Owned(v) => v,
        }
    }
}

impl Drop for Block {
    /// The pages of a mapped file's block, read by now, leave the
    /// process's memory.
    fn drop(&mut self) {
        if let BlockBytes::Mapped(..) = self.0 {
            release_pages(self.bytes());
        }
    }
}

/// Gives the pages that lie wholly inside `bytes`, read-only bytes of a
/// mapped file that have been read, back to the kernel (`MADV_DONTNEED`).
/// A mapped page stays in the process's resident memory until it is
/// unmapped, so without this an input of 20 GB read to its end is 20 GB
/// of RSS (the pages are the page cache's, but they count). After it, a
/// read of those bytes faults them in again, unchanged, from the page
/// cache or the file: only the cost of a fault is at stake, never the
/// bytes, which is why a page shared with the block before or after is
/// left alone rather than faulted in twice.
fn release_pages(bytes: &[u8]) {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
        if page == 0 {
            return;
        }
        let start = bytes.as_ptr() as usize;
        let first = start.next_multiple_of(page);
        let end = (start + bytes.len()) / page * page;
        if end > first {
            // SAFETY: [first, end) lies inside `bytes`, part of a
            // read-only file mapping that stays mapped (the block holds
            // it); on a file mapping MADV_DONTNEED drops the process's
            // page-table entries only, and the file's bytes are read
            // again on the next access.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_DONTNEED);
            }
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
    /// not complete. [`TextWindow::take_error`] says why.
    Broken,
}

enum Inner {
    Mapped {
        data: Shared,
        len: usize,
        /// The window is `data[start..start + shown]`.
        start: usize,
        shown: usize,
        /// `data` is a file mapping: blocks give its pages back when done.
        release: bool,
    },
    Stream {
        rd: Box<dyn BufRead + Send>,
        /// The window: the bytes read and not yet handed on.
        buf: Vec<u8>,
        eof: bool,
        error: Option<std::io::Error>,
    },
}

/// An input that is text to split. The window starts at
/// [`TextWindow::offset`] of the (decompressed) text and grows on demand.
pub struct TextWindow {
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
    decoder_threads: usize,
    /// Whether `\r\r\n` line ends are read as `\r\n` (`line_ends.rs`).
    doubled_line_ends: bool,
    /// Bytes an owned window is given room for at once (the batch size).
    room: usize,
    /// Stretches of the text that the compressed data does not vouch for
    /// (see `damage.rs`): known before the text is read, or found by its
    /// decoder before it hands the text concerned out.
    damage: DamageLog,
}

impl std::fmt::Debug for TextWindow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextWindow")
            .field("path", &self.path)
            .field("encoding", &self.encoding)
            .field("compression", &self.compression)
            .field("offset", &self.offset)
            .finish()
    }
}

/// A stream's text, for [`TextWindow::stream`]: the decoded bytes and
/// what the window reports of them.
pub(super) struct StreamText {
    pub bytes: Box<dyn BufRead + Send>,
    pub compression: Compression,
    /// Bytes of the input itself read so far, and its size if known.
    pub raw_read: Arc<AtomicU64>,
    pub raw_len: Option<u64>,
    pub decoder_cpu: Option<Arc<AtomicU64>>,
    /// How many threads decode at once.
    pub decoder_threads: usize,
    /// The encoding, when it is not to be sniffed (forced, or UTF-16
    /// decoded on the way).
    pub encoding: Option<Encoding>,
    /// Whether the text's `\r\r\n` line ends are rewritten as `\r\n`
    /// on the way (`line_ends.rs`).
    pub doubled_line_ends: bool,
    pub damage: DamageLog,
}

impl TextWindow {
    /// The text of bytes already in memory (a mapped file, or test data),
    /// taken to be text as they are: nothing classifies them.
    pub fn from_shared(path: &Path, data: Shared, opts: &ReadOptions) -> TextWindow {
        let bytes = (*data).as_ref();
        let len = bytes.len();
        let encoding = opts
            .encoding
            .unwrap_or_else(|| sniff(bytes.get(..len.min(SNIFF_BYTES)).unwrap_or_default()));
        TextWindow {
            path: path.to_path_buf(),
            encoding,
            compression: Compression::None,
            inner: Inner::Mapped {
                data,
                len,
                start: 0,
                shown: 0,
                release: false,
            },
            offset: 0,
            raw_read: Arc::new(AtomicU64::new(0)),
            raw_len: Some(len as u64),
            decoder_cpu: None,
            decoder_threads: 0,
            doubled_line_ends: false,
            room: opts.batch_bytes.max(1),
            damage: DamageLog::default(),
        }
    }

    /// The text of a mapped file, as [`TextWindow::from_shared`]; each
    /// block handed on gives the file's pages back when it is dropped
    /// ([`release_pages`]), so that the file read to its end is not
    /// resident as a whole.
    pub(super) fn mapped_file(path: &Path, map: Shared, opts: &ReadOptions) -> TextWindow {
        let mut window = TextWindow::from_shared(path, map, opts);
        if let Inner::Mapped { release, .. } = &mut window.inner {
            *release = true;
        }
        window
    }

    /// The text of a stream, read into owned windows of `room` bytes at a
    /// time. Reads the first window now, to decide the encoding.
    pub(super) fn stream(path: &Path, text: StreamText, room: usize) -> TextWindow {
        let mut window = TextWindow {
            path: path.to_path_buf(),
            encoding: Encoding::Utf8,
            compression: text.compression,
            inner: Inner::Stream {
                rd: text.bytes,
                buf: Vec::new(),
                eof: false,
                error: None,
            },
            offset: 0,
            raw_read: text.raw_read,
            raw_len: text.raw_len,
            decoder_cpu: text.decoder_cpu,
            decoder_threads: text.decoder_threads,
            doubled_line_ends: text.doubled_line_ends,
            room,
            damage: text.damage,
        };
        let (head, _) = window.window(room);
        window.encoding = text
            .encoding
            .unwrap_or_else(|| sniff(head.get(..head.len().min(SNIFF_BYTES)).unwrap_or_default()));
        window
    }

    /// The stretches of the text that its compressed data does not vouch
    /// for, so far: a gzip member or a zip member whose checksum failed
    /// (known when the input is opened), a frame of a `.zst` that failed
    /// (known once the window has reached its text).
    pub fn damage(&self) -> Vec<Damage> {
        self.damage.since(0)
    }

    /// The record of [`Self::damage`] as it grows while the text is read,
    /// for a reader that hands the window to another thread.
    pub fn damage_log(&self) -> &DamageLog {
        &self.damage
    }

    /// Says which stretches of the text are damaged (a zip member checked
    /// by its opener).
    pub(super) fn set_damage(&mut self, damage: Vec<Damage>) {
        self.damage = DamageLog::new(damage);
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

    /// Whether the text's lines end in `\r\r\n` (a Windows file whose
    /// line ends were converted twice), each read as one `\r\n`: its
    /// offsets then count the text so read, not the input's bytes.
    pub fn doubled_line_ends(&self) -> bool {
        self.doubled_line_ends
    }

    /// What its byte offsets count, for a message ([`super::SourceError::Truncated`]'s
    /// `what`): the input's own bytes, or the decompressed text's.
    pub fn text_word(&self) -> &'static str {
        match self.compression {
            Compression::None => "input",
            _ => "decompressed",
        }
    }

    /// The warning for a compressed input that gave no text at all (an
    /// empty frame, skippable frames only): the file is not empty, and
    /// yet nothing of it is read.
    pub fn no_text_warning(&self) -> String {
        format!(
            "{}: its {} data decodes to no text",
            self.path.display(),
            self.compression.name()
        )
    }

    /// Says the text came out of an archive (see
    /// [`super::Opened::archived`]).
    pub(super) fn set_compression(&mut self, compression: Compression) {
        self.compression = compression;
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

    /// Says how large the input file is (a compressed file, streamed).
    pub(super) fn set_input_len(&mut self, len: u64) {
        self.raw_len = Some(len);
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

    /// How many threads decode the stream at once: 1 for a compressed
    /// stream, more for a many-frame `.zst` (0 for plain input).
    pub fn decoder_threads(&self) -> usize {
        self.decoder_threads
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
                ..
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
    pub fn take(&mut self, n: usize) -> Block {
        let room = self.room;
        let (chunk, n) = match &mut self.inner {
            Inner::Mapped {
                data,
                start,
                shown,
                release,
                ..
            } => {
                let n = n.min(*shown);
                let range = *start..*start + n;
                *start += n;
                *shown -= n;
                let data = Arc::clone(data);
                let bytes = match release {
                    true => BlockBytes::Mapped(data, range),
                    false => BlockBytes::Shared(data, range),
                };
                (bytes, n)
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
                (BlockBytes::Owned(std::mem::replace(buf, tail)), n)
            }
        };
        self.offset += n as u64;
        Block(chunk)
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

/// Reads into `buf` until it holds `target` bytes, the reader ends (`eof`),
/// or it fails (`error`, and `eof` too: nothing more will be read).
///
/// The bytes are copied from the reader's own buffer into `buf`'s spare
/// room: reading into a slice (`Read::read`) would first have the room
/// zeroed, a pass over every byte of the text for nothing.
fn fill(
    rd: &mut Box<dyn BufRead + Send>,
    buf: &mut Vec<u8>,
    target: usize,
    eof: &mut bool,
    error: &mut Option<std::io::Error>,
) {
    while !*eof && buf.len() < target {
        match rd.fill_buf() {
            Ok([]) => *eof = true,
            Ok(ready) => {
                let n = ready.len().min(target - buf.len());
                buf.extend_from_slice(ready.get(..n).unwrap_or_default());
                rd.consume(n);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                *eof = true;
                *error = Some(e);
            }
        }
    }
}
