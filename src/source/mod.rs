//! Opening inputs: turning command-line arguments into game-aligned batches
//! of bytes.
//!
//! The I/O strategy lives here and only here. Plain files are memory-mapped
//! (no copy, and the kernel pages them in as the splitter walks them);
//! compressed files (zstd, gzip, recognised by their magic bytes) and stdin
//! are streamed through a decoder into owned chunks. Either way the consumer
//! sees one thing: an iterator of [`Batch`]es, each a run of whole games of
//! a few megabytes, so memory stays flat whatever the input size and batches
//! can be handed to worker threads while rows are written in order.
//!
//! ```no_run
//! use pgnmill::source::{expand_inputs, ReadOptions};
//! use pgnmill::pgn::GameText;
//!
//! let inputs = expand_inputs(&["games/".into(), "-".into()])?;
//! for input in &inputs {
//!     let reader = input.open(&ReadOptions::default())?;
//!     let enc = reader.encoding();
//!     for batch in reader {
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

mod encoding;
mod inputs;
mod read_ahead;
mod reader;
mod split_parallel;

pub use encoding::{Encoding, SNIFF_BYTES, decode_game, decode_tag_value, sniff};
pub use inputs::{Input, expand_inputs};
pub use reader::{Batch, Compression, ReadOptions, Reader};
pub use split_parallel::{split_window_at, split_window_parallel};

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
    #[error("{}: directory holds no .pgn, .pgn.zst or .pgn.gz files", path.display())]
    NoPgnFiles { path: PathBuf },
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
