//! `pgnmill report`: the main job. Reads every game of the inputs, replays
//! it on all cores and writes the report folder (the overlapped pipeline
//! that does it for one input is in `report/pipeline.rs`).

use crate::replay::GameVariant;
use crate::report::ExtractRequest;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Which rules to replay games with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantChoice {
    /// Per game, from its [Variant], [Game] and [FEN] tags and its movetext.
    Auto,
    /// Standard chess for every game.
    Chess,
    /// Chess960 for every game (X-FEN or Shredder-FEN castling fields).
    Chess960,
    /// Xiangqi for every game.
    Xiangqi,
}

impl VariantChoice {
    /// The variant forced on every game, if any.
    pub fn forced(self) -> Option<GameVariant> {
        match self {
            VariantChoice::Auto => None,
            VariantChoice::Chess => Some(GameVariant::Chess),
            VariantChoice::Chess960 => Some(GameVariant::Chess960),
            VariantChoice::Xiangqi => Some(GameVariant::Xiangqi),
        }
    }
}

/// Replay every game of PGN collections and write a report folder:
/// games.csv (one row per game, broken games included), castling.csv
/// ([FEN] headers whose castling rights contradict the board) and
/// summary.json (totals).
#[derive(Args, Debug)]
#[command(after_help = "\
Exit status: 0 when the report was written (even if some games are broken: \
they are rows with a status and an error), 1 when the run could not complete \
(an input or the output folder could not be used; nothing is left that looks \
like a finished report), 2 for usage errors, 130 when interrupted.

Examples:
  pgnmill report games.pgn
  pgnmill report -o out --moves collection/ lichess_2025-05.pgn.zst
  zstdcat dump.pgn.zst | pgnmill report -j 8 -o dump-report -
  pgnmill report --extract missed=missed.pgn --extract castling=bad-fen.pgn db.pgn")]
pub struct ReportArgs {
    /// PGN files, folders (searched recursively for .pgn, .pgn.zst and
    /// .pgn.gz files) or - for standard input. Compressed input (zstd,
    /// gzip) is recognised by its first bytes.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// The report folder to write.
    #[arg(short, long, value_name = "DIR", default_value = "pgnmill-report")]
    pub out: PathBuf,

    /// Replace an earlier report in the output folder.
    #[arg(long)]
    pub force: bool,

    /// Worker threads [default: all cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// Rules to replay games with.
    #[arg(long, value_enum, default_value = "auto")]
    pub variant: VariantChoice,

    /// Add a `moves` column to games.csv: the replayed main line in UCI
    /// (chess) or ICCS (xiangqi).
    #[arg(long)]
    pub moves: bool,

    /// Also write the original text of the games of one category to a PGN
    /// file, byte for byte: missed (threefolds that ep-always misses),
    /// castling ([FEN] castling conflicts) or errors (status not ok).
    /// Repeatable.
    #[arg(long, value_name = "KIND=FILE")]
    pub extract: Vec<ExtractRequest>,

    /// No progress bar and no closing summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

mod pipeline;
mod stages;

pub use stages::StageTimes;

use crate::cpu_time::thread_cpu_ns;

use crate::CliError;
use crate::replay::ReplayOptions;
use crate::report::progress::Progress;
use crate::report::writer::ReportWriter;
use crate::report::{OutputDir, Summary};
use crate::source::{SourceError, expand_inputs};
use pipeline::{InputEnd, Sink};
use std::time::Instant;

impl From<SourceError> for CliError {
    fn from(e: SourceError) -> Self {
        CliError::Failed(e.to_string())
    }
}

/// Runs `pgnmill report`.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    run_timed(args).map(|_| ())
}

/// Runs `pgnmill report` and returns the CPU time of each pipeline stage
/// (for `examples/pipeline_stages.rs`, which states the serial fraction).
pub fn run_timed(args: &ReportArgs) -> Result<StageTimes, CliError> {
    crate::interrupt::install();
    let started = Instant::now();
    let main_cpu = thread_cpu_ns();
    let (pool, threads) = super::worker_pool(args.threads)?;
    let workers_cpu: u64 = pool.broadcast(|_| thread_cpu_ns()).iter().sum();
    let inputs = expand_inputs(&args.inputs)?;
    let out = OutputDir::prepare(&args.out, args.force)?;
    let mut writer = ReportWriter::create(&out, args.moves, &args.extract, threads)?;
    let options = ReplayOptions {
        moves: args.moves,
        variant: args.variant.forced(),
    };
    let total_bytes = inputs
        .iter()
        .filter(|i| !i.is_stdin())
        .filter_map(|i| std::fs::metadata(&i.path).ok())
        .map(|m| m.len())
        .sum();
    let mut progress = Progress::new(total_bytes, args.quiet);
    let mut producer_cpu = stages::ProducerCpu::default();
    let mut warnings = Vec::new();
    for input in &inputs {
        let mut sink = Sink {
            writer: &mut writer,
            progress: &mut progress,
            producer_cpu: &mut producer_cpu,
            split_threads: split_threads(threads),
        };
        if let Err(warning) = pipeline::run_input(input, &pool, &options, &mut sink) {
            match warning {
                // A stream that broke off part-way: its complete games are
                // reported; say so, and go on with the other inputs.
                InputEnd::Truncated(e) => {
                    if let Some(last) = writer.summary.inputs.last_mut() {
                        last.error = Some(e.to_string());
                    }
                    warnings.push(e.to_string());
                }
                InputEnd::Fatal(e) => return Err(e),
            }
        }
    }
    progress.finish();
    let workers_cpu = pool
        .broadcast(|_| thread_cpu_ns())
        .iter()
        .sum::<u64>()
        .saturating_sub(workers_cpu);
    let summary = writer.finish(started.elapsed().as_secs_f64())?;
    for w in &warnings {
        say(format_args!("pgnmill: warning: {w}"));
    }
    if !args.quiet {
        print_summary(&summary, &out);
    }
    Ok(StageTimes {
        producer_cpu_s: stages::seconds(0, producer_cpu.own),
        decoder_cpu_s: stages::seconds(0, producer_cpu.decoder),
        split_helpers_cpu_s: stages::seconds(0, producer_cpu.split_helpers),
        split_threads: split_threads(threads),
        writer_cpu_s: stages::seconds(main_cpu, thread_cpu_ns()),
        replay_cpu_s: stages::seconds(0, workers_cpu),
        wall_s: started.elapsed().as_secs_f64(),
        bytes: summary.bytes,
        games: summary.games,
    })
}

/// Threads to split each window on with `threads` replay threads. One
/// thread splits about 1 GB of PGN per CPU-second and replay takes 100-200
/// MB per core, so one splitting thread per 3 replay threads keeps the
/// producer (which also reads, and checks the cuts) well off the critical
/// path at 16 cores; with up to 3 replay threads it stays on one thread.
fn split_threads(threads: usize) -> usize {
    threads.div_ceil(3)
}

/// One line on stderr. Unlike `eprintln!`, a closed stderr (`2>&1 | head
/// -1`) is ignored: the report is already in place, and a panic would turn
/// a finished run into exit code 101.
fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The closing lines on stderr: what a user wants to know at a glance.
fn print_summary(s: &Summary, out: &OutputDir) {
    let mb = s.bytes as f64 / 1e6;
    let secs = s.elapsed_seconds.max(1e-9);
    say(format_args!(
        "{} games ({} with errors) from {} input(s), {:.1} MB in {:.2} s ({:.1} MB/s, {:.0} games/s, {} threads)",
        s.games,
        s.errors(),
        s.inputs.len(),
        mb,
        secs,
        mb / secs,
        s.games as f64 / secs,
        s.threads
    ));
    say(format_args!(
        "threefolds: {} ep-always, {} ep-if-legal; missed by ep-always: {}; castling conflicts: {}",
        s.threefolds_ep_always, s.threefolds_ep_legal, s.missed_threefolds, s.castling_conflicts
    ));
    say(format_args!("report written to {}", out.path().display()));
}
