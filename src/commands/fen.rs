//! `pgnmill fen`: audit FEN/EPD lists. One CSV row per record, in input
//! order, bad records included with the reason (`docs/reports.md`, section
//! `pgnmill fen`). The run is the library's [`Job::audit_fens`]; this
//! module turns the flags into it and writes the rows as CSV through the
//! shared output.

use super::CliError;
use super::output::Output;
use pgnmill::fenlist::{self, COLUMNS, FenOptions, FenRow, VariantRule};
use pgnmill::job::{FenTotals, Job};
use pgnmill::output::collisions;
use pgnmill::source::Listing;
use std::path::{Path, PathBuf};

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
    /// FEN/EPD/perft list files (plain, or compressed with zstd, gzip,
    /// bzip2 or xz), xiangqi record files, folders (searched recursively
    /// for .fen and .epd, each also as .zst, .gz, .bz2 or .xz, .perft, .zip
    /// and .7z archives of them, and the records .xqf, .cbr, .cbl, .cbf and
    /// .ubb)
    /// or `-` for standard input; with no input at all, standard input is
    /// read.
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

/// Runs the command.
pub fn run(args: &FenArgs) -> Result<(), CliError> {
    let cancel = super::interrupt::cancel_token();
    let threads = super::thread_count(args.threads)?;
    let planned = super::output::planned(args.out.as_deref());
    collisions::check(&planned, &args.inputs)?;
    // No input is standard input.
    let paths = if args.inputs.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.inputs.clone()
    };
    let job = Job::new(&paths, Listing::Positions)?
        .threads(threads)
        .cancel_on(cancel);
    super::say_notes(job.notes());
    let input_paths: Vec<&Path> = job.inputs().iter().map(|i| i.path.as_path()).collect();
    collisions::check_none_is_an_input(&planned, &input_paths)?;
    let mut out = Output::open(args.out.as_deref(), args.force)?;
    let mut csv = CsvRows::new(&mut out)?;
    let totals = job.audit_fens(&args.options(), &mut |rows| csv.write(rows), &mut |note| {
        super::say_note(&note, args.quiet)
    })?;
    csv.flush()?;
    out.finish()?;
    if !args.quiet {
        say_totals(&totals);
    }
    if args.strict {
        totals
            .unread
            .check("the CSV was written")
            .map_err(CliError::Failed)?;
    }
    Ok(())
}

/// The closing line on stderr.
fn say_totals(totals: &FenTotals) {
    let unsupported = if totals.unsupported > 0 {
        format!(", {} {}", totals.unsupported, fenlist::NO_POSITION)
    } else {
        String::new()
    };
    super::say(format_args!(
        "pgnmill fen: {} ({} ok, {} bad_fen{unsupported}), {} perft count lines skipped",
        super::counted(totals.rows(), "record", "records"),
        totals.ok,
        totals.bad,
        totals.perft_lines
    ));
}

/// The CSV being written.
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

    /// Writes `rows`.
    fn write(&mut self, rows: &[FenRow]) -> Result<(), CliError> {
        for row in rows {
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
