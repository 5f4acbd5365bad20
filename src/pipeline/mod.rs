//! The report run: every stage put together, overlapped so that replay
//! workers never wait for reading or writing.
//!
//! 1. A producer thread per input (`producer`) opens it
//!    ([`crate::source`]) and cuts it into game-aligned batches
//!    ([`crate::pgn::Batches`]) ahead of the workers, through a bounded
//!    channel.
//! 2. The rayon pool (`-j N` threads) replays each run of games as one task
//!    (`task`: decode, [`crate::replay`], format rows with
//!    [`crate::report::ChunkBuilder`]); `sizing` says how large a task is.
//! 3. The main thread writes the chunks strictly in input order as they
//!    arrive (`reorder`), so the files are byte-identical whatever the
//!    number of threads.
//!
//! Memory stays flat in the input size: at most two batches are being
//! replayed or written and the producer holds one more, whatever the
//! input's length; of their chunks at most four a thread are out at once,
//! their rows in buffers that are reused (`spare`), never given back and
//! faulted in again.
//!
//! A run can be cancelled ([`Cancel`], set by the command line on SIGINT
//! and SIGTERM, and by the Python package on Ctrl-C):
//! each task checks before it starts and skips its games, and the main
//! thread checks after every chunk it writes and every 50 ms while it waits
//! (for a producer blocked on a pipe, say).

mod cancel;
mod config;
mod error;
mod observer;
mod producer;
mod reorder;
mod sizing;
mod spare;
mod stages;
mod task;

pub use cancel::{Cancel, INTERRUPT_POLL};
pub use config::ReportConfig;
pub use error::ReportError;
pub use observer::Observer;
pub use stages::StageTimes;

use std::time::Instant;

use crate::cpu_time::thread_cpu_ns;
use crate::report::{ReportWriter, Summary};
use reorder::{InputEnd, Sink};

/// A finished run: its totals, the CPU time of each stage, and the
/// warnings of its inputs, in order (each input's are in its summary too).
#[derive(Debug)]
pub struct ReportOutcome {
    /// The totals of summary.json. `summary.complete` is false when an
    /// input could not be read to its end (cut short, damaged): the games
    /// before the break are in the report, the rest are not.
    pub summary: Summary,
    /// The CPU time of each stage (docs/performance.md).
    pub stages: StageTimes,
    /// The inputs' warnings (an input cut short, damaged data), in input
    /// order: the messages of summary.json's `warnings`. What a folder
    /// search passed over is not among them: [`crate::Job::notes`] has it.
    pub warnings: Vec<String>,
}

/// Replays every game of `config.inputs` on `pool` and hands the chunks
/// of games to the sinks of `writer`, in input order. The sinks' files
/// appear only when the run is complete; on an error or a cancellation,
/// none do.
pub fn run_writer(
    config: &ReportConfig,
    mut writer: ReportWriter,
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    observer: &mut dyn Observer,
) -> Result<ReportOutcome, ReportError> {
    let started = Instant::now();
    let main_cpu = thread_cpu_ns();
    let workers_cpu: u64 = pool.broadcast(|_| thread_cpu_ns()).iter().sum();
    writer.summary.options = config.options.clone();
    writer.summary.skipped = config.skipped.clone();
    let mut producer_cpu = stages::ProducerCpu::default();
    let mut warnings = Vec::new();
    let split_threads = sizing::split_threads(pool.current_num_threads());
    let decode_threads = sizing::decode_threads(pool.current_num_threads());
    let bzip2_threads = sizing::bzip2_threads(pool.current_num_threads());
    for input in &config.inputs {
        let mut sink = Sink {
            writer: &mut writer,
            observer: &mut *observer,
            producer_cpu: &mut producer_cpu,
            split_threads,
            decode_threads,
            bzip2_threads,
        };
        let ran = reorder::run_input(input, pool, config, cancel, &mut sink);
        let end = match ran {
            Ok(()) => None,
            // A stream that broke off part-way: its complete games are
            // reported; say so, and go on with the other inputs.
            Err(InputEnd::Truncated(e)) => Some(e.to_string()),
            Err(InputEnd::Fatal(e)) => return Err(e),
        };
        if let Some(summary) = writer.summary.inputs.last_mut() {
            if let Some(why) = end {
                summary.broke_off(why);
            }
            warnings.extend(summary.warnings.iter().map(|w| w.message.clone()));
        }
    }
    let workers_cpu = pool
        .broadcast(|_| thread_cpu_ns())
        .iter()
        .sum::<u64>()
        .saturating_sub(workers_cpu);
    let summary = writer.finish(started.elapsed().as_secs_f64())?;
    let stages = StageTimes {
        producer_cpu_s: stages::seconds(0, producer_cpu.own),
        decoder_cpu_s: stages::seconds(0, producer_cpu.decoder),
        decoder_serial_cpu_s: stages::seconds(0, producer_cpu.decoder_wall),
        split_helpers_cpu_s: stages::seconds(0, producer_cpu.split_helpers),
        split_threads,
        writer_cpu_s: stages::seconds(main_cpu, thread_cpu_ns()),
        replay_cpu_s: stages::seconds(0, workers_cpu),
        wall_s: started.elapsed().as_secs_f64(),
        bytes: summary.bytes,
        games: summary.games,
    };
    Ok(ReportOutcome {
        summary,
        stages,
        warnings,
    })
}
