//! Opening inputs: command-line arguments become [`Input`]s, and an opened
//! input is a [`Source`], a window of its text that moves forward.
//!
//! The I/O strategy lives here and only here. Plain files are memory-mapped
//! (no copy, and the kernel pages them in as they are read); compressed
//! files (zstd, gzip, bzip2, xz, recognised by their magic bytes), zip
//! members, stdin and anything else that is not a regular file (a FIFO,
//! `<(cmd)`) are streamed through a decoder into owned buffers; UTF-16 is
//! decoded to UTF-8 there, and a binary file (not PGN) gives no text and
//! says what it is ([`Source::unsupported`]). The source also decides
//! the text's encoding from its first bytes. What the bytes mean is the
//! next stage's business: [`crate::pgn::Batches`] cuts the window into
//! game-aligned batches.
//!
//! ```no_run
//! use pgnmill::source::{expand_inputs, ReadOptions};
//! use pgnmill::pgn::{Batches, GameText};
//!
//! let inputs = expand_inputs(&["games/".into(), "-".into()])?;
//! for input in &inputs {
//!     let opts = ReadOptions::default();
//!     let source = input.open(&opts)?;
//!     let enc = source.encoding();
//!     for batch in Batches::new(source, &opts) {
//!         let batch = batch?; // a truncated .zst ends with an error here
//!         for span in &batch.games {
//!             let text = pgnmill::source::decode_game(batch.game_bytes(span), enc);
//!             let game = GameText::new(text.as_bytes(), span.line);
//!             let _moves = game.movetext().count();
//!         }
//!     }
//! }
//! # Ok::<(), pgnmill::source::SourceError>(())
//! ```

mod content;
mod damage;
mod damaged_zip;
mod encoding;
mod inputs;
mod lines;
mod read_ahead;
mod record_format;
mod window;

pub use damage::Damage;
pub use encoding::{Encoding, SNIFF_BYTES, decode_game, decode_tag_value, sniff};
pub use inputs::{
    Expansion, Input, Listing, Skipped, expand_inputs, expand_inputs_for, expand_inputs_noted,
    extract_first_line, is_extract,
};
pub use lines::TextLines;
pub use record_format::RecordFormat;
pub use window::{Chunk, Compression, ReadOptions, Source, WindowEnd};

use std::path::PathBuf;

/// Why an input could not be read (or not to its end). Every message names
/// the input and the cause.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{}: no such file or directory", path.display())]
    NotFound { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: directory holds no {} files{}", path.display(), listing.extensions().join(", "), own_output_note(own_output))]
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
