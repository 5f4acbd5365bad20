//! Run-level errors of the command line, as opposed to a broken game, which
//! is a row in the report and never stops the run. The library's errors say
//! what happened; here they get what the user can do about it, and an exit
//! code.

use pgnmill::output::OutputError;
use pgnmill::output::collisions::Collision;
use pgnmill::pipeline::ReportError;
use pgnmill::source::SourceError;
use std::path::PathBuf;

/// Why a command could not complete. `main` prints it as one line and maps it
/// to an exit code ([`CliError::exit_code`]).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An input or output path could not be used.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The arguments were well-formed for clap but make no sense together.
    #[error("{0}")]
    Usage(String),
    /// Anything else that stops the run, said in words.
    #[error("{0}")]
    Failed(String),
    /// The run was interrupted (SIGINT, SIGTERM); nothing was renamed into
    /// place. The message names the signal, as the exit code does.
    #[error("interrupted by {signal}: {0}", signal = super::interrupt::signal_name())]
    Interrupted(String),
}

impl CliError {
    /// Exit codes are documented in the README: 1 when the run could not
    /// complete, 2 for usage errors (clap's own code), 130 after SIGINT and
    /// 143 after SIGTERM.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Interrupted(_) => super::interrupt::exit_code(),
            CliError::Io { .. } | CliError::Failed(_) => 1,
        }
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CliError::Io {
            path: path.into(),
            source,
        }
    }
}

impl From<SourceError> for CliError {
    fn from(e: SourceError) -> Self {
        match e {
            // The arguments' mistake, as a collision of outputs is.
            e @ SourceError::AgainstIsInput { .. } => CliError::Usage(e.to_string()),
            e => CliError::Failed(e.to_string()),
        }
    }
}

/// An output that would collide with another or with an input is a
/// mistake in the command's arguments.
impl From<Collision> for CliError {
    fn from(e: Collision) -> Self {
        CliError::Usage(e.0)
    }
}

impl From<OutputError> for CliError {
    fn from(e: OutputError) -> Self {
        match e {
            e @ OutputError::EarlierReport { .. } => CliError::Failed(format!(
                "{e}; use --force to replace it or -o to choose another folder"
            )),
            e => CliError::Failed(e.to_string()),
        }
    }
}

impl From<ReportError> for CliError {
    fn from(e: ReportError) -> Self {
        match e {
            ReportError::Source(e) => e.into(),
            ReportError::Output(e) => e.into(),
            e @ ReportError::Cancelled { .. } => CliError::Interrupted(e.to_string()),
            e => CliError::Failed(e.to_string()),
        }
    }
}
