//! Setting up a stream's decoder: the bytes of a file, a pipe or a zip
//! member are counted as they are read (for a progress bar by input bytes),
//! their magic bytes say how they are compressed ([`compression_of`]), and
//! a compressed stream is decoded on a thread of its own ([`ReadAhead`]),
//! so that decoding overlaps splitting; a pzstd stream frame by frame, on
//! several ([`FrameReader`]). What the decoded bytes are is
//! decided afterwards, by the caller (`content.rs`).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use super::SourceError;
use super::bzip2::Bzip2;
use super::compression::{Compression, MAGIC_BYTES, compression_of, starts_with_skippable};
use super::damage::{DamageLog, GzipMembers};
use super::decoding::{Decoding, Zstd};
use super::io_err;
use super::read_ahead::ReadAhead;
use super::readers::{BrokenOff, Counting, read_head};
use super::xz::Xz;
use super::zstd_frames::FrameReader;

/// A stream's decoded bytes, and what the window over them reports.
pub(super) struct Decoded {
    /// The decompressed bytes (the bytes themselves for an uncompressed
    /// stream or a zip archive, which is not read).
    pub bytes: Box<dyn BufRead + Send>,
    pub compression: Compression,
    /// Bytes read from the stream itself (compressed bytes), so far.
    pub raw_read: Arc<AtomicU64>,
    /// CPU nanoseconds of the decoding threads, set when they end.
    pub decoder_cpu: Option<Arc<AtomicU64>>,
    /// How many threads decode at once (one, but for a many-frame `.zst`,
    /// a pzstd stream or a `.bz2` file).
    pub decoder_threads: usize,
    /// Damage the decoder finds as it goes (a frame of a many-frame
    /// `.zst` or of a pzstd stream that fails, a bzip2 block that fails).
    pub found: DamageLog,
}

impl Decoded {
    /// The text of a frame reader (`zstd_frames.rs`), `raw_read` its
    /// count of compressed bytes.
    pub(super) fn of_frames(frames: FrameReader, raw_read: Arc<AtomicU64>) -> Decoded {
        Decoded {
            decoder_cpu: Some(frames.cpu_ns()),
            decoder_threads: frames.decoders(),
            found: frames.found(),
            bytes: Box::new(frames),
            compression: Compression::Zstd,
            raw_read,
        }
    }
}

/// Starts decoding `rd`: counts its bytes, reads its magic bytes, and
/// decompresses zstd, gzip, bzip2 or xz on a thread of its own; a pzstd
/// stream (a lichess dump piped in) frame by frame on `frame_threads`
/// threads (`pzstd_cut.rs`), unless that is 0. At most `readable` bytes
/// of text are read (`u64::MAX`: all); `checked` says a gzip stream has
/// been checked (`damage.rs`), so that its reader goes past the members
/// whose checksum failed.
pub(super) fn decode(
    path: &Path,
    rd: Box<dyn Read + Send>,
    readable: u64,
    checked: bool,
    frame_threads: usize,
) -> Result<Decoded, SourceError> {
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
    // A stream that starts with a skippable frame, as a pzstd-made one
    // does, is cut by its hints; any other `.zst` stream (one `zstd`
    // frame above all) is streamed whole.
    if compression == Compression::Zstd && frame_threads > 0 && starts_with_skippable(head) {
        let name = path.display().to_string();
        let frames = FrameReader::spawn_stream(Box::new(raw), name, frame_threads)
            .map_err(|e| io_err(path, e))?;
        return Ok(Decoded::of_frames(frames, raw_read));
    }
    // What the decoder finds as it goes: a bzip2 block that fails, the
    // text before an xz block's damage.
    let found = DamageLog::default();
    let decoder: Box<dyn Read + Send> = match compression {
        Compression::Zstd => Box::new(Decoding::buffered(
            raw,
            Zstd::new().map_err(|e| io_err(path, e))?,
        )),
        Compression::Gzip => Box::new(GzipMembers::new(std::io::BufReader::new(raw), checked)),
        Compression::Bzip2 => Box::new(Decoding::buffered(
            raw,
            Bzip2::new(path.display().to_string(), found.clone()),
        )),
        Compression::Xz => Box::new(Decoding::buffered(
            raw,
            Xz::new(path.display().to_string(), found.clone()).map_err(|e| io_err(path, e))?,
        )),
        Compression::None | Compression::Zip | Compression::SevenZip => Box::new(raw),
    };
    let decoder: Box<dyn Read + Send> = match readable {
        u64::MAX => decoder,
        n => Box::new(decoder.take(n)),
    };
    let (bytes, decoder_cpu): (Box<dyn BufRead + Send>, _) = match compression {
        Compression::None | Compression::Zip | Compression::SevenZip => {
            (Box::new(BufReader::new(decoder)), None)
        }
        _ => {
            let ahead = ReadAhead::spawn(decoder).map_err(|e| io_err(path, e))?;
            let cpu = ahead.cpu_ns();
            (Box::new(ahead), Some(cpu))
        }
    };
    Ok(Decoded {
        bytes,
        compression,
        raw_read,
        decoder_cpu,
        decoder_threads: 1,
        found,
    })
}
