//! One module per subcommand: its clap arguments and its `run` function.
//! `main.rs` only dispatches; everything a command does is library code so
//! that tests can call it without a process.
pub mod convert;
pub mod fen;
pub mod perft;
pub mod report;

use crate::CliError;

/// The worker pool of a command's `-j N` (all cores when not given): one
/// place that refuses `-j 0` and names the failure to start threads.
pub(crate) fn worker_pool(threads: Option<usize>) -> Result<(rayon::ThreadPool, usize), CliError> {
    let threads = match threads {
        Some(0) => return Err(CliError::Usage("--threads must be at least 1".into())),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start {threads} worker threads: {e}")))?;
    Ok((pool, threads))
}
