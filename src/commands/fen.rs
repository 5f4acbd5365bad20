//! `pgnmill fen`: audit FEN/EPD lists. One CSV row per record, in input
//! order, bad records included with the reason (spec `reports.md`, section
//! `pgnmill fen`). Reading and auditing a record is [`crate::fenlist`]; this
//! module opens the inputs, runs the audit on the worker pool and writes the
//! CSV.

use crate::CliError;
use crate::fenlist::{self, COLUMNS, FenOptions, FenRow, FileState, VariantRule};
use crate::report::atomic::AtomicFile;
use rayon::prelude::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// Audit FEN/EPD lists: one CSV row per record, written back, castling
/// rights checked against the board, legal moves and check.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one record per line: a FEN, an EPD record with operations (bm, id, \
hmvc, fmvn, ;D1 20 ...), a CSV perft line (fen,count,...), or the .perft \
format (id X / epd FEN / perft N M); blank lines and # comments are skipped. \
Chess, Chess960 (X-FEN or Shredder-FEN castling) and xiangqi (10 ranks) \
records may be mixed.

Exit status: 0 when the CSV was written (bad records are rows with status \
bad_fen), 1 when an input or the output could not be used, 2 for usage \
errors.

Examples:
  echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' | pgnmill fen
  pgnmill fen perftsuite.epd tricky.perft -o audit.csv
  pgnmill fen --chess960 --force -o frc.csv FRC_openings.epd
  pgnmill fen -j 2 -q --variant xiangqi xiangqi.epd > xiangqi.csv")]
pub struct FenArgs {
    /// FEN/EPD list files, one record per line; `-` (or nothing) reads stdin.
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
    perft_lines: u64,
}

/// Runs the command.
pub fn run(args: &FenArgs) -> Result<(), CliError> {
    let (pool, _) = super::worker_pool(args.threads)?;
    let totals = match &args.out {
        Some(path) => {
            check_output(path, args)?;
            let mut file = AtomicFile::create(path)?;
            let totals = write_csv(args, &pool, &mut AtomicWriter(&mut file), path)?;
            file.commit()?;
            totals
        }
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let stdout = Path::new("standard output");
            match write_csv(args, &pool, &mut out, stdout)
                .and_then(|t| out.flush().map(|()| t).map_err(|e| CliError::io(stdout, e)))
            {
                // The reader went away (`| head`): it has what it wanted.
                Err(CliError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::BrokenPipe =>
                {
                    return Ok(());
                }
                other => other?,
            }
        }
    };
    if !args.quiet {
        let _ = writeln!(
            std::io::stderr(),
            "pgnmill fen: {} records ({} ok, {} bad_fen), {} perft count lines skipped",
            totals.ok + totals.bad,
            totals.ok,
            totals.bad,
            totals.perft_lines
        );
    }
    Ok(())
}

/// Refuses an existing output without --force, and an output that is also
/// an input (even with --force: the input is read while the output is
/// written).
fn check_output(path: &Path, args: &FenArgs) -> Result<(), CliError> {
    let Ok(out) = path.canonicalize() else {
        return Ok(()); // does not exist yet
    };
    for input in &args.inputs {
        if input.canonicalize().is_ok_and(|i| i == out) {
            return Err(CliError::Usage(format!(
                "{}: the output is also an input",
                path.display()
            )));
        }
    }
    if !args.force {
        return Err(CliError::Usage(format!(
            "{}: exists (use --force to replace it)",
            path.display()
        )));
    }
    Ok(())
}

/// `io::Write` over an [`AtomicFile`], for the CSV writer.
struct AtomicWriter<'a>(&'a mut AtomicFile);

impl Write for AtomicWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .write_all(buf)
            .map(|()| buf.len())
            .map_err(|e| match e {
                CliError::Io { source, .. } => source,
                other => std::io::Error::other(other.to_string()),
            })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes the header and one row per record of every input.
fn write_csv(
    args: &FenArgs,
    pool: &rayon::ThreadPool,
    out: &mut dyn Write,
    out_name: &Path,
) -> Result<Totals, CliError> {
    let csv_err = |e: csv::Error| match e.into_kind() {
        csv::ErrorKind::Io(e) => CliError::io(out_name, e),
        other => CliError::Failed(format!("{}: {other:?}", out_name.display())),
    };
    let mut csv = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out);
    csv.write_record(COLUMNS).map_err(csv_err)?;
    let opts = args.options();
    let mut totals = Totals::default();
    let stdin_only = [PathBuf::from("-")];
    let inputs: &[PathBuf] = if args.inputs.is_empty() {
        &stdin_only
    } else {
        &args.inputs
    };
    for path in inputs {
        let (source, reader): (String, Box<dyn Read>) = if path.as_os_str() == "-" {
            ("-".to_string(), Box::new(std::io::stdin()))
        } else {
            let f = std::fs::File::open(path).map_err(|e| CliError::io(path, e))?;
            (path.display().to_string(), Box::new(f))
        };
        let mut reader = BufReader::new(reader);
        let mut state = FileState::default();
        let mut line_no = 0u64;
        let mut batch: Vec<(u64, String)> = Vec::with_capacity(BATCH_LINES);
        loop {
            let mut buf = Vec::new();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| CliError::io(path, e))?;
            if n > 0 {
                line_no += 1;
                batch.push((line_no, String::from_utf8_lossy(&buf).into_owned()));
            }
            if batch.len() == BATCH_LINES || (n == 0 && !batch.is_empty()) {
                let rows = audit_batch(&source, &batch, &opts, &mut state, pool);
                for row in &rows {
                    if row.status == "ok" {
                        totals.ok += 1;
                    } else {
                        totals.bad += 1;
                    }
                    csv.serialize(row).map_err(csv_err)?;
                }
                batch.clear();
            }
            if n == 0 {
                break;
            }
        }
        totals.perft_lines += state.perft_lines;
    }
    csv.flush().map_err(|e| CliError::io(out_name, e))?;
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
