//! One module per subcommand: its clap arguments and its `run` function,
//! and the pieces every command shares: errors and exit codes, the number
//! of worker threads, the output target, Ctrl-C and SIGTERM handling and
//! the progress bar. This is
//! the binary's code: the library it calls knows nothing of flags or exit
//! codes.

mod bus_error;
pub mod convert;
mod error;
pub mod fen;
mod interrupt;
pub mod output;
pub mod perft;
mod progress;
pub mod report;

pub use error::CliError;
use pgnmill::job::{JobNote, NoteKind};

/// The worker threads of a command's `-j N` (all cores when not given):
/// one place that refuses `-j 0` and caps `-j` at the CPUs the process may
/// use (more threads than CPUs only take turns, at a cost in time and
/// memory), with a warning.
pub(crate) fn thread_count(threads: Option<usize>) -> Result<usize, CliError> {
    let threads = pgnmill::job::request::thread_count(threads)
        .map_err(|_| CliError::Usage("--threads must be at least 1".into()))?;
    if let Some(asked) = threads.capped_from {
        say(format_args!(
            "pgnmill: warning: -j {asked} is more than the {} CPU(s) this process may use; using {}",
            threads.count, threads.count
        ));
    }
    Ok(threads.count)
}

/// The notes of a run's folder search, as warnings.
pub(crate) fn say_notes(notes: &[String]) {
    for note in notes {
        say(format_args!("pgnmill: warning: {note}"));
    }
}

/// A note a run hands out while it goes, on stderr; `--quiet` drops the
/// ones for information only.
pub(crate) fn say_note(note: &JobNote, quiet: bool) {
    match note.kind {
        NoteKind::Warning => say(format_args!("pgnmill: warning: {}", note.text)),
        NoteKind::Stopped => say(format_args!("pgnmill: {}", note.text)),
        NoteKind::Info if quiet => {}
        NoteKind::Info => say(format_args!("pgnmill: note: {}", note.text)),
    }
}

/// Installs the SIGINT and SIGTERM handlers ([`interrupt`]) and the SIGBUS
/// one ([`bus_error`]).
pub fn catch_signals() {
    let _ = interrupt::cancel_token();
    bus_error::catch_bus_errors();
}

/// One line on stderr. Unlike `eprintln!`, a closed stderr (`2>&1 | head
/// -1`) is ignored: a panic would turn a finished run into exit code 101.
pub(crate) fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// `n` and the noun that agrees with it, for the closing lines: "1 game",
/// "2 games", "0 games".
pub(crate) fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}
