//! `pgnmill report`: the main job. Reads every game of the inputs, replays
//! it on all cores and writes the report folder.

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

use crate::pgn::{split_window, GameSpan, Position as SourcePosition};
use crate::replay::ReplayOptions;
use crate::report::chunk::{process_chunk, ChunkResult};
use crate::report::progress::Progress;
use crate::report::summary::InputSummary;
use crate::report::writer::ReportWriter;
use crate::report::{OutputDir, Summary};
use crate::CliError;
use rayon::prelude::*;
use std::time::Instant;

/// Bytes of PGN split per step: large enough that a batch keeps every core
/// busy, small enough that memory stays flat whatever the input's size.
const WINDOW_BYTES: usize = 8 << 20;
/// Games per worker task: amortises formatting setup, keeps load balanced.
const GAMES_PER_TASK: usize = 64;

/// Runs `pgnmill report`.
pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    crate::interrupt::install();
    let started = Instant::now();
    let threads = match args.threads {
        Some(0) => return Err(CliError::Usage("--threads must be at least 1".into())),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start {threads} worker threads: {e}")))?;
    let inputs = crate::report::inputs::expand_inputs(&args.inputs)?;
    let out = OutputDir::prepare(&args.out, args.force)?;
    let mut writer = ReportWriter::create(&out, args.moves, &args.extract, threads)?;
    let options = ReplayOptions {
        moves: args.moves,
        variant: args.variant.forced(),
    };
    let total_bytes = inputs.iter().map(|i| i.size_hint()).sum();
    let mut progress = Progress::new(total_bytes, args.quiet);
    for input in &inputs {
        let opened = input.open()?;
        writer.begin_input(InputSummary {
            path: input.display_name().to_string(),
            bytes: opened.bytes().len() as u64,
            games: 0,
            encoding: opened.encoding_name().to_string(),
            compression: opened.compression_name().to_string(),
        });
        let bytes = opened.bytes();
        let mut start = SourcePosition::START;
        let mut next_game = 1u64;
        let mut window = WINDOW_BYTES;
        let mut spans: Vec<GameSpan> = Vec::new();
        while (start.offset as usize) < bytes.len() {
            if crate::interrupt::requested() {
                return Err(CliError::Interrupted(format!(
                    "stopped while reading {}; no report was written",
                    input.display_name()
                )));
            }
            let from = start.offset as usize;
            let to = from.saturating_add(window).min(bytes.len());
            let is_final = to == bytes.len();
            spans.clear();
            let next = split_window(
                &bytes[from..to],
                start,
                is_final,
                opened.is_double_byte(),
                &mut spans,
            );
            if spans.is_empty() && next == start && !is_final {
                // One game longer than the window: grow it (doubling keeps
                // the total work linear).
                window = window.saturating_mul(2);
                continue;
            }
            window = WINDOW_BYTES;
            let results: Vec<csv::Result<ChunkResult>> = pool.install(|| {
                spans
                    .par_chunks(GAMES_PER_TASK)
                    .enumerate()
                    .map(|(i, chunk)| {
                        process_chunk(
                            input.display_name(),
                            bytes,
                            0,
                            chunk,
                            next_game + (i * GAMES_PER_TASK) as u64,
                            &opened,
                            &options,
                        )
                    })
                    .collect()
            });
            for result in results {
                let chunk = result.map_err(|e| CliError::Failed(format!("games.csv: {e}")))?;
                writer.add(&chunk, &|span| {
                    span.slice(bytes, 0).unwrap_or_default().to_vec()
                })?;
            }
            next_game += spans.len() as u64;
            progress.advance(next.offset - start.offset, spans.len() as u64);
            if is_final {
                break;
            }
            start = next;
        }
    }
    progress.finish();
    let summary = writer.finish(started.elapsed().as_secs_f64())?;
    if !args.quiet {
        print_summary(&summary, &out);
    }
    Ok(())
}

/// The closing lines on stderr: what a user wants to know at a glance.
fn print_summary(s: &Summary, out: &OutputDir) {
    let mb = s.bytes as f64 / 1e6;
    let secs = s.elapsed_seconds.max(1e-9);
    eprintln!(
        "{} games ({} with errors) from {} input(s), {:.1} MB in {:.2} s ({:.1} MB/s, {:.0} games/s, {} threads)",
        s.games,
        s.errors(),
        s.inputs.len(),
        mb,
        secs,
        mb / secs,
        s.games as f64 / secs,
        s.threads
    );
    eprintln!(
        "threefolds: {} ep-always, {} ep-if-legal; missed by ep-always: {}; castling conflicts: {}",
        s.threefolds_ep_always, s.threefolds_ep_legal, s.missed_threefolds, s.castling_conflicts
    );
    eprintln!("report written to {}", out.path().display());
}
