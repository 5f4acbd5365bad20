//! `pgnmill fen`: audit FEN/EPD lists. One CSV row per record, in input
//! order, bad records included with the reason (`docs/reports.md`, section
//! `pgnmill fen`). Reading and auditing a record is [`pgnmill::fenlist`];
//! this module opens the inputs as every command does (files, folders, `-`,
//! compressed, any encoding `report` reads), runs the audit on the worker
//! pool and writes the CSV through the shared output.

use super::CliError;
use super::collisions;
use super::output::Output;
use pgnmill::fenlist::{self, COLUMNS, FenOptions, FenRow, FileState, VariantRule};
use pgnmill::pipeline::Cancel;
use pgnmill::records::read_records;
use pgnmill::report::unread::{Read, Unread};
use pgnmill::source::{
    Input, Listing, Opened, ReadOptions, RecordFile, SourceError, TextLines, expand_inputs_noted,
};
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

A damaged input (a truncated .zst, a damaged zip member) is read as far as \
it goes, with a warning; an input that is not a list of positions (binary \
data, a PGN file) gives no rows and a warning. The other inputs are read \
either way.

Exit status:
  0    the CSV was written (bad records are rows with status bad_fen; \
damaged and refused inputs are warnings)
  1    an input or the output could not be used (nothing is left under -o \
FILE); with --strict also when an input was damaged or refused or a \
symbolic link in a folder leads nowhere (the CSV is still written)
  2    usage error, or an output that would collide with an input or a \
folder (nothing is written)
  130  interrupted by Ctrl-C (SIGINT)
  143  stopped by SIGTERM

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
    /// standard output; `-` is standard output.
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
    /// Exit 1 when an input could not be read whole (damaged, binary, PGN)
    /// or a symbolic link in a folder leads nowhere; the CSV is still
    /// written.
    #[arg(long)]
    pub strict: bool,
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
    /// Inputs not read whole, for `--strict`.
    unread: Unread,
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
    let planned = super::output::planned(args.out.as_deref());
    collisions::check(&planned, &args.inputs)?;
    let mut totals = Totals::default();
    let inputs = if args.inputs.is_empty() {
        vec![Input::stdin()]
    } else {
        let expansion = expand_inputs_noted(&args.inputs, Listing::Positions)?;
        for note in &expansion.notes {
            super::say(format_args!("pgnmill: warning: {note}"));
        }
        totals.unread.dangling_links = expansion.skipped.dangling_links.len();
        expansion.inputs
    };
    let input_paths: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    for p in &planned {
        collisions::check_not_an_input(p, &input_paths)?;
    }
    let mut out = Output::open(args.out.as_deref(), args.force)?;
    write_csv(args, &inputs, &pool, &cancel, &mut out, &mut totals)?;
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
    if args.strict {
        totals
            .unread
            .check("the CSV was written")
            .map_err(CliError::Failed)?;
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
    totals: &mut Totals,
) -> Result<(), CliError> {
    let mut csv = CsvRows::new(out)?;
    for input in inputs {
        let read = audit_input(args, input, pool, cancel, totals, &mut csv)?;
        if let Read::Refused(why) = &read {
            super::say(format_args!(
                "pgnmill: warning: {}: {why}; no rows from it",
                input.path.display()
            ));
        }
        totals.unread.add(&read);
    }
    csv.flush()
}

/// The CSV being written, rows counted into the totals as they go.
struct CsvRows<'a> {
    csv: csv::Writer<&'a mut Output>,
    name: PathBuf,
}

impl<'a> CsvRows<'a> {
    /// Starts the CSV with its header.
    fn new(out: &'a mut Output) -> Result<Self, CliError> {
        let name = out.name();
        let csv = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(out);
        let mut rows = CsvRows { csv, name };
        rows.csv.write_record(COLUMNS).map_err(|e| rows.error(e))?;
        Ok(rows)
    }

    /// Writes `rows`, counting them.
    fn write(&mut self, rows: &[FenRow], totals: &mut Totals) -> Result<(), CliError> {
        for row in rows {
            totals.count(row);
            self.csv.serialize(row).map_err(|e| self.error(e))?;
        }
        Ok(())
    }

    fn flush(mut self) -> Result<(), CliError> {
        self.csv.flush().map_err(|e| CliError::io(&self.name, e))
    }

    /// A CSV error, naming the output.
    fn error(&self, e: csv::Error) -> CliError {
        match e.into_kind() {
            csv::ErrorKind::Io(e) => CliError::io(&self.name, e),
            other => CliError::Failed(format!("{}: {other:?}", self.name.display())),
        }
    }
}

/// Audits the records of one input, handing their rows to `csv` in
/// order. A damaged input is read as far as it goes; one that is not a
/// list of positions (binary data, PGN) gives no rows. Either is said in a
/// warning that speaks of records and lines.
fn audit_input(
    args: &FenArgs,
    input: &Input,
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    totals: &mut Totals,
    csv: &mut CsvRows<'_>,
) -> Result<Read, CliError> {
    let source_name = input.path.display().to_string();
    let text = match input.open(&ReadOptions::default())? {
        Opened::Text(text) => text,
        Opened::Records(file) => return audit_records(&source_name, &file, totals, csv),
        Opened::Refused(refusal) => return Ok(Read::Refused(not_a_list(&refusal.why))),
    };
    let opts = args.options();
    let mut state = FileState::default();
    let mut batch: Vec<(u64, String)> = Vec::with_capacity(BATCH_LINES);
    let mut first_record_seen = false;
    let lines = TextLines::new(text);
    let mut read = Read::Whole;
    for line in lines {
        CliError::check_cancel(cancel, &source_name)?;
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                super::say(format_args!("pgnmill: warning: {}", broke_off(&e)));
                read = Read::Incomplete;
                break;
            }
        };
        if !first_record_seen && is_record_line(&line.1) {
            first_record_seen = true;
            if fenlist::looks_like_pgn(&line.1) {
                return Ok(Read::Refused(format!(
                    "looks like PGN (line {}: {}), not a FEN/EPD list; read its games with `pgnmill report`",
                    line.0,
                    shorten(&line.1)
                )));
            }
        }
        batch.push(line);
        if batch.len() == BATCH_LINES {
            let rows = audit_batch(&source_name, &batch, &opts, &mut state, pool);
            csv.write(&rows, totals)?;
            batch.clear();
        }
    }
    if !batch.is_empty() {
        let rows = audit_batch(&source_name, &batch, &opts, &mut state, pool);
        csv.write(&rows, totals)?;
    }
    totals.perft_lines += state.perft_lines;
    Ok(read)
}

/// The rows of a xiangqi record file: one a record, its start position.
fn audit_records(
    source_name: &str,
    file: &RecordFile,
    totals: &mut Totals,
    csv: &mut CsvRows<'_>,
) -> Result<Read, CliError> {
    let format = file.format();
    Ok(match read_records(format, file.bytes()) {
        Ok(games) => {
            let rows: Vec<FenRow> = (0..)
                .zip(&games)
                .map(|(i, game)| fenlist::audit_record_game(source_name, i, game))
                .collect();
            csv.write(&rows, totals)?;
            Read::Whole
        }
        Err(why) => Read::Refused(format!("{} file not read: {why}", format.name())),
    })
}

/// A line that holds a record or a `.perft` line: not blank, not a `#`
/// comment.
fn is_record_line(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim();
    !t.is_empty() && !t.starts_with('#')
}

/// A line cut to what a warning needs.
fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

/// The source's reason for refusing an input, said for a list of
/// positions: `binary data, not PGN` becomes `binary data, not a FEN/EPD
/// list`.
fn not_a_list(why: &str) -> String {
    why.replace("not PGN", "not a FEN/EPD list")
}

/// Where a damaged input stopped, in records and lines.
fn broke_off(e: &SourceError) -> String {
    match e {
        SourceError::Truncated {
            path,
            what,
            offset,
            line,
            source,
        } => format!(
            "{}: {what} text stops after byte {offset}; the records from line {line} on are missing: {source}",
            path.display()
        ),
        other => other.to_string(),
    }
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
