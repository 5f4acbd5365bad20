//! One module per subcommand: its clap arguments and its `run` function,
//! and the pieces every command shares: errors and exit codes, the worker
//! pool, the output target, Ctrl-C handling and the progress bar. This is
//! the binary's code: the library it calls knows nothing of flags or exit
//! codes.

mod collisions;
pub mod convert;
mod error;
pub mod fen;
mod interrupt;
pub mod output;
pub mod perft;
mod progress;
pub mod report;

pub use error::CliError;

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

/// The worker pool of a command's `-j N` ([`thread_count`]); names the
/// failure to start threads.
pub(crate) fn worker_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), CliError> {
    let threads = thread_count(threads)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start {threads} worker threads: {e}")))?;
    Ok((pool, threads))
}

/// Installs the SIGINT and SIGTERM handlers ([`interrupt`]).
pub fn catch_signals() {
    let _ = interrupt::cancel_token();
}

/// One line on stderr. Unlike `eprintln!`, a closed stderr (`2>&1 | head
/// -1`) is ignored: a panic would turn a finished run into exit code 101.
pub(crate) fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
