//! `pgnmill fen`: audit FEN/EPD lists. One CSV row per record, in input
//! order, bad records included with the reason (`docs/reports.md`, section
//! `pgnmill fen`). Reading and auditing a record is [`pgnmill::fenlist`];
//! this module opens the inputs as every command does (files, folders, `-`,
//! compressed, any encoding `report` reads), runs the audit on the worker
//! pool and writes the CSV through the shared output.

use super::CliError;
use super::output::Output;
use pgnmill::fenlist::{self, COLUMNS, FenOptions, FenRow, FileState, VariantRule};
use pgnmill::pipeline::Cancel;
use pgnmill::records::read_records;
use pgnmill::source::{Input, Listing, ReadOptions, RecordFormat, TextLines, expand_inputs_noted};
use rayon::prelude::*;
use std::path::PathBuf;

/// Audit FEN/EPD lists: one CSV row per record, written back, castling
/// rights checked against the board, legal moves and check.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one record per line: a FEN, an EPD record with operations (bm, id, \
hmvc, fmvn, ;D1 20 ...), a CSV perft line (fen,count,...), or the .perft \
format (id X / epd FEN / perft N M); blank lines and # comments are skipped. \
Chess, Chess960 (X-FEN or Shredder-FEN castling) and xiangqi (10 ranks) \
records may be mixed. Xiangqi record files (XQF, CCBridge .cbr/.cbl/.cbf, DhtmlXQ pages), recognised by their bytes, give one row per record: its start position, `game` its index in the file.

Exit status: 0 when the CSV was written (bad records are rows with status \
bad_fen), 1 when an input or the output could not be used, 2 for usage \
errors.

Examples:
  echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' | pgnmill fen
  pgnmill fen perftsuite.epd tricky.perft -o audit.csv
  pgnmill fen --chess960 --force -o frc.csv FRC_openings.epd
  pgnmill fen -j 2 -q --variant xiangqi xiangqi.epd > xiangqi.csv
  pgnmill fen -o starts.csv old-xqf-folder/")]
pub struct FenArgs {
    /// FEN/EPD/perft list files (plain, zstd or gzip), xiangqi record
    /// files, folders (searched for .fen, .epd, .perft and the record files
    /// `report` picks up) or `-`; nothing reads stdin.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Write the CSV to this file (complete or not at all) instead of
    /// standard output.
    #[arg(short, long = "out", alias = "output", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Replace the -o file if it exists.
    #[arg(long)]
    pub force: bool,
    /// Worker threads for the audit [default: all cores]; the output order
    /// is the input order whatever the number.
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// No closing summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Rules to read records with.
    #[arg(long, value_enum, default_value = "auto")]
    pub variant: VariantRule,
    /// Same as --variant chess960: every record is Chess960 (X-FEN `KQkq`
    /// then means the outermost rooks).
    #[arg(long, conflicts_with = "variant")]
    pub chess960: bool,
}

impl FenArgs {
    fn options(&self) -> FenOptions {
        FenOptions {
            variant: if self.chess960 {
                VariantRule::Chess960
            } else {
                self.variant
            },
        }
    }
}

/// Records audited together on the worker pool.
const BATCH_LINES: usize = 4096;

/// Totals for the closing summary.
#[derive(Default)]
struct Totals {
    ok: u64,
    bad: u64,
    /// Records of xiangqi record files that hold no position.
    unsupported: u64,
    perft_lines: u64,
}

impl Totals {
    fn count(&mut self, row: &FenRow) {
        match row.status {
            "ok" => self.ok += 1,
            fenlist::NO_POSITION => self.unsupported += 1,
            _ => self.bad += 1,
        }
    }
}

/// Runs the command.
pub fn run(args: &FenArgs) -> Result<(), CliError> {
    let cancel = super::interrupt::cancel_token();
    let (pool, _) = super::worker_pool(args.threads)?;
    let inputs = if args.inputs.is_empty() {
        vec![Input::stdin()]
    } else {
        let expansion = expand_inputs_noted(&args.inputs, Listing::Positions)?;
        for note in &expansion.notes {
            super::say(format_args!("pgnmill: warning: {note}"));
        }
        expansion.inputs
    };
    let input_paths: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    let mut out = Output::open(args.out.as_deref(), args.force, &input_paths)?;
    let totals = write_csv(args, &inputs, &pool, &cancel, &mut out)?;
    out.finish()?;
    if !args.quiet {
        let unsupported = if totals.unsupported > 0 {
            format!(", {} {}", totals.unsupported, fenlist::NO_POSITION)
        } else {
            String::new()
        };
        super::say(format_args!(
            "pgnmill fen: {} records ({} ok, {} bad_fen{unsupported}), {} perft count lines skipped",
            totals.ok + totals.bad + totals.unsupported,
            totals.ok,
            totals.bad,
            totals.perft_lines
        ));
    }
    Ok(())
}

/// Writes the header and one row per record of every input.
fn write_csv(
    args: &FenArgs,
    inputs: &[Input],
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    out: &mut Output,
) -> Result<Totals, CliError> {
    let name = out.name();
    let csv_err = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => CliError::io(&name, e),
        other => CliError::Failed(format!("{}: {other:?}", name.display())),
    };
    let mut csv = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out);
    csv.write_record(COLUMNS).map_err(csv_err)?;
    let opts = args.options();
    let mut totals = Totals::default();
    for input in inputs {
        let source_name = input.path.display().to_string();
        let source = input.open(&ReadOptions::default())?;
        if let Some(why) = source.unsupported() {
            super::say(format_args!("pgnmill: warning: {source_name}: {why}"));
        }
        if let Some((format, bytes)) = source.record() {
            for row in record_rows(&source_name, format, bytes) {
                totals.count(&row);
                csv.serialize(&row).map_err(csv_err)?;
            }
            continue;
        }
        let lines = TextLines::new(source);
        let mut state = FileState::default();
        let mut batch: Vec<(u64, String)> = Vec::with_capacity(BATCH_LINES);
        let mut lines = lines.peekable();
        while let Some(line) = lines.next() {
            if cancel.requested() {
                return Err(CliError::Interrupted(format!(
                    "stopped while reading {source_name}; no output file was written"
                )));
            }
            batch.push(line?);
            if batch.len() == BATCH_LINES || lines.peek().is_none() {
                let rows = audit_batch(&source_name, &batch, &opts, &mut state, pool);
                for row in &rows {
                    totals.count(row);
                    csv.serialize(row).map_err(csv_err)?;
                }
                batch.clear();
            }
        }
        totals.perft_lines += state.perft_lines;
    }
    csv.flush().map_err(|e| CliError::io(&name, e))?;
    Ok(totals)
}

/// Reads the lines of a batch in order (a `.perft` `id` line names the next
/// record), then audits the records on the pool; rows come back in order.
fn audit_batch(
    source: &str,
    batch: &[(u64, String)],
    opts: &FenOptions,
    state: &mut FileState,
    pool: &rayon::ThreadPool,
) -> Vec<FenRow> {
    let records: Vec<_> = batch
        .iter()
        .filter_map(|(n, text)| fenlist::read_line(text, state).map(|r| (*n, r)))
        .collect();
    pool.install(|| {
        records
            .par_iter()
            .map(|(n, r)| fenlist::audit_record(source, *n, r, opts))
            .collect()
    })
}

/// The rows of a xiangqi record file, one per record in file order (a
/// record's start position is one legal-move count: no pool is needed). A
/// file that cannot be read at all is named on stderr, as `report` names
/// it under `unsupported`, and gives no row.
fn record_rows(source: &str, format: RecordFormat, bytes: &[u8]) -> Vec<FenRow> {
    match read_records(format, bytes) {
        Ok(games) => (0..)
            .zip(&games)
            .map(|(i, game)| fenlist::audit_record_game(source, i, game))
            .collect(),
        Err(why) => {
            super::say(format_args!(
                "pgnmill: warning: {source}: {} file not read: {why}",
                format.name()
            ));
            Vec::new()
        }
    }
}
