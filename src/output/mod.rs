//! Files the user sees appear only when they are complete.
//!
//! Every command writes through [`AtomicFile`]: a temporary name in the
//! destination's folder, renamed into place once everything is written, and
//! removed if the run fails first. Errors name the user's path, never the
//! temporary one. A path that names a device, a pipe or a descriptor
//! ([`is_stream`]) is written where it is, as standard output is.

mod atomic;
pub mod collisions;
mod spill;
mod stream_path;

pub use atomic::{AtomicFile, FinishedFile};
pub use spill::{Frames, Spill, SpillReader};
pub use stream_path::is_stream;

use std::path::{Path, PathBuf};

/// Whether something is at `path` that an output written there would
/// replace: a file, a folder, or a symbolic link, even one that leads
/// nowhere (`Path::exists` follows the link and says no, and the rename
/// would replace the link). A stream ([`is_stream`]) is written to, not
/// replaced.
pub fn is_taken(path: &Path) -> bool {
    path.symlink_metadata().is_ok() && !is_stream(path)
}

/// Why an output could not be written. The command line adds what the user
/// can do about it (`--force`, `-o`); these messages only say what happened.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Creating, writing, syncing or renaming failed. The message says
    /// it is the output that failed: an input's path and an output's look
    /// alike on a line that names only a path and an OS error.
    #[error("{}: the output cannot be written: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The report folder's path names something that is not a folder:
    /// `what` it is, "a file" or "a device or a pipe" ([`is_stream`]).
    #[error("{}: is {what}, and a report is a folder (--force replaces an earlier report, not a file): give -o a folder's name", path.display())]
    NotAFolder { path: PathBuf, what: &'static str },
    /// The folder holds files of an earlier report.
    #[error("{}: holds an earlier report ({})", path.display(), files.join(", "))]
    EarlierReport { path: PathBuf, files: Vec<String> },
    /// A file that waits for the duplicate verdicts (`--duplicates`) was
    /// finished without them: a writer built without its duplicate stage.
    #[error("{file}: the run ended without the duplicate verdicts this file waits for")]
    NoVerdicts { file: String },
    /// Serialising a file's contents failed (a bug, not a user error).
    #[error("{file}: {message}")]
    Format { file: String, message: String },
}

impl OutputError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        OutputError::Io {
            path: path.into(),
            source,
        }
    }
}
