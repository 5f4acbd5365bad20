//! Opening inputs: command-line arguments become [`Input`]s, and an opened
//! input ([`Opened`]) is one of three things: text to split (a
//! [`TextWindow`], a window of its text that moves forward), a xiangqi
//! record file to decode (a [`RecordFile`]: its format and bytes), or
//! refused with a reason (a [`Refusal`]: not PGN, or a format not read).
//!
//! The I/O strategy lives here and only here. Plain files are memory-mapped
//! (no copy, and the kernel pages them in as they are read); compressed
//! files (zstd, gzip, bzip2, xz, recognised by their magic bytes), zip
//! and 7z members, stdin and anything else that is not a regular file (a FIFO,
//! `<(cmd)`) are streamed through a decoder into owned buffers. What the
//! (decompressed) bytes are is decided once, for maps and streams alike;
//! UTF-16 is decoded to UTF-8 on the way, and the text's encoding is
//! decided from its first bytes. What the text means is the next stage's
//! business: [`crate::pgn::Batches`] cuts the window into game-aligned
//! batches, `crate::records` decodes a record file.
//!
//! ```no_run
//! use pgnmill::pgn::{Batches, GameText};
//! use pgnmill::records::read_records;
//! use pgnmill::source::{Opened, ReadOptions, expand_inputs};
//!
//! let inputs = expand_inputs(&["games/".into(), "-".into()])?;
//! for input in &inputs {
//!     let opts = ReadOptions::default();
//!     match input.open(&opts)? {
//!         Opened::Text(text) => {
//!             let enc = text.encoding();
//!             for batch in Batches::new(text, &opts) {
//!                 let batch = batch?; // a truncated .zst ends with an error here
//!                 for span in &batch.games {
//!                     let text = pgnmill::source::decode_game(batch.game_bytes(span), enc);
//!                     let game = GameText::new(text.as_bytes(), span.line);
//!                     let _moves = game.movetext().count();
//!                 }
//!             }
//!         }
//!         Opened::Records(file) => {
//!             let games = read_records(file.format(), file.bytes());
//!             println!("{}: {} games", file.path().display(), games.map_or(0, |g| g.len()));
//!         }
//!         Opened::Refused(refusal) => {
//!             eprintln!("{}: {}", refusal.path().display(), refusal.why);
//!         }
//!     }
//! }
//! # Ok::<(), pgnmill::source::SourceError>(())
//! ```

mod bzip2;
mod bzip2_block;
mod bzip2_blocks;
mod compression;
mod content;
mod damage;
mod damaged_zip;
mod decoding;
mod encoding;
mod inputs;
pub(crate) use inputs::file_id;
mod line_ends;
mod lines;
mod listing;
mod mapped;
mod opened;
mod pzstd_cut;
mod read_ahead;
mod readers;
mod record_format;
mod seven_zip;
mod stream;
mod utf16;
mod window;
mod xz;
mod xz_layout;
mod zstd_frames;

pub use compression::Compression;
pub use content::RefusalKind;
pub use damage::{Damage, DamageLog, NewDamage};
pub use encoding::{Encoding, SNIFF_BYTES, decode_game, decode_tag_value, sniff};
pub use inputs::{
    Expansion, Input, REPORT_FILES, Skipped, expand_inputs, expand_inputs_for, expand_inputs_noted,
    extract_first_line, is_extract,
};
pub use lines::TextLines;
pub use listing::Listing;
pub use mapped::mapped_names;
pub use opened::{Opened, RecordFile, Refusal};
pub use record_format::{CBL_MAGIC, CBR_MAGIC, RecordFormat};
pub use window::{Block, TextWindow, WindowEnd};

use std::path::{Path, PathBuf};

/// Tuning of how inputs are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Target size of one batch in bytes (default 8 MiB: large enough that
    /// per-batch overhead vanishes, small enough that a few batches in flight
    /// per thread keep memory flat).
    pub batch_bytes: usize,
    /// Force an encoding instead of sniffing one.
    pub encoding: Option<Encoding>,
    /// Threads that decode a `.zst` file of several frames, or a pzstd
    /// stream (a pzstd-made lichess dump, from a file or a pipe), frame by
    /// frame, at once; 0 decodes it as one stream,
    /// as every other compressed input is (the same text for a sound
    /// file; a damaged frame then ends the text, where the frame decoders
    /// pass over it).
    pub decode_threads: usize,
    /// Threads that decode a `.bz2` file read by name block by block, at
    /// once (`bzip2_blocks.rs`); below 2 it is decoded as one stream, on
    /// one thread, as a `.bz2` from a pipe always is. The same text.
    pub bzip2_threads: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            batch_bytes: 8 << 20,
            encoding: None,
            decode_threads: 1,
            bzip2_threads: 0,
        }
    }
}

/// Why an input could not be read (or not to its end). Every message names
/// the input and the cause.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{}: no such file or directory", path.display())]
    NotFound { path: PathBuf },
    /// A file (or zip member, or standard input) given both as an input
    /// and as a collection to compare against (`--against`): each of its
    /// games would be found a copy of itself.
    #[error(
        "{}: given both as an input and with --against, so each of its games would be a copy of itself; give it once",
        path.display()
    )]
    AgainstIsInput { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: folder holds no {} files{}", path.display(), listing.extensions().join(", "), own_output_note(own_output))]
    NoInputFiles {
        path: PathBuf,
        listing: Listing,
        /// Report folders and extract files the search passed over as
        /// pgnmill's own output.
        own_output: Vec<String>,
    },
    /// The input stopped before its end: a truncated or corrupt compressed
    /// stream, or a read error. The games before `line` were delivered; the
    /// text from `line` to `offset` (where reading stopped) was not.
    #[error(
        "{}: {what} text stops after byte {offset}; the game at line {line} and any after it are missing: {source}",
        path.display()
    )]
    Truncated {
        path: PathBuf,
        /// "decompressed" or "input"
        what: &'static str,
        /// Bytes of text read before the failure.
        offset: u64,
        /// Line where the first game not delivered starts.
        line: u64,
        #[source]
        source: std::io::Error,
    },
    /// The input stopped before its end, where a game ends: every game of
    /// the text was delivered, and what the input holds after `offset`
    /// (damage after the text, bytes appended to it) cannot be read.
    #[error(
        "{}: {what} text stops after byte {offset}, where a game ends; what follows cannot be read: {source}",
        path.display()
    )]
    StoppedAfterGame {
        path: PathBuf,
        /// "decompressed" or "input"
        what: &'static str,
        /// Bytes of text read before the failure.
        offset: u64,
        #[source]
        source: std::io::Error,
    },
    /// The input is not text to split (a record file, or an input refused),
    /// and a reader of text only was asked to read it
    /// ([`Opened::into_text`]).
    #[error("{}: not text to split: {what}", path.display())]
    NotText { path: PathBuf, what: String },
}

/// The error of an I/O operation on `path`: "no such file" said as such.
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

/// The end of a [`SourceError::NoInputFiles`] message: what pgnmill's own
/// output the search passed over, so that "holds no files" is not taken
/// for the whole truth.
fn own_output_note(own: &[String]) -> String {
    if own.is_empty() {
        String::new()
    } else {
        format!(
            " other than pgnmill's own output, which is never read by a folder search: {}",
            own.join(", ")
        )
    }
}
