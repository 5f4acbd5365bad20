//! Why a report run stopped. A broken game never stops a run (it is a row);
//! these are the things that do.

use crate::output::OutputError;
use crate::source::SourceError;

/// Why a run stopped before its end. A broken game is never one: it is a
/// row with its status; an input that cannot be read to its end is not
/// either (a warning, [`crate::pipeline::ReportOutcome`]).
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// An input could not be opened.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A report file could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The run was cancelled while reading `input`.
    #[error("stopped while reading {input}; no output file was written")]
    Cancelled { input: String },
    /// A row could not be formatted.
    #[error("games.csv: {0}")]
    Csv(String),
    /// A thread could not be started, or stopped unexpectedly.
    #[error("{0}")]
    Thread(String),
    /// The run's error, asked for again (`GameStream::finish` after the
    /// stream's last item was that error): its message.
    #[error("{0}")]
    Failed(String),
}
