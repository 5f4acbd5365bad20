//! `pgnmill fen`: audit FEN/EPD lists. One CSV row per record, in input
//! order, bad records included with the reason (spec `reports.md`, section
//! `pgnmill fen`).

use super::CliError;
use pgnmill::chess::{CastlingMode, EpMode, Position, Setup};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

/// Arguments of `pgnmill fen`.
#[derive(clap::Args, Debug)]
pub struct FenArgs {
    /// FEN/EPD list files, one record per line; `-` (or nothing) reads stdin.
    pub inputs: Vec<PathBuf>,
    /// Write the CSV here instead of stdout.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Read every record as Chess960 (X-FEN `KQkq` then means the outermost
    /// rooks). Without it, a Shredder-FEN castling field (`HAha`) still
    /// switches that record to Chess960.
    #[arg(long)]
    pub chess960: bool,
}

/// One output row.
#[derive(serde::Serialize, Debug, Clone, PartialEq, Eq)]
pub struct FenRow {
    pub source: String,
    pub line: u64,
    pub input: String,
    pub status: &'static str,
    pub error: String,
    pub fen: String,
    pub fen_ep_legal: String,
    pub castling_invalid: String,
    pub castling_effective: String,
    pub reason: String,
    pub legal_moves: Option<usize>,
    pub check: Option<bool>,
}

/// Runs the command.
pub fn run(args: &FenArgs) -> Result<(), CliError> {
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| CliError::io(path, e))?;
            let mut w = std::io::BufWriter::new(file);
            run_to(args, &mut w)?;
            w.flush().map_err(|e| CliError::io(path, e))
        }
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            run_to(args, &mut lock)
        }
    }
}

/// Runs the command, writing the CSV to `out`.
pub fn run_to(args: &FenArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let out_name = args
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from("<stdout>"));
    let mut csv = csv::Writer::from_writer(out);
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
        let mut buf = Vec::new();
        let mut line_no = 0u64;
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| CliError::io(path, e))?;
            if n == 0 {
                break;
            }
            line_no += 1;
            let text = String::from_utf8_lossy(&buf);
            let record = text
                .trim_end_matches(['\n', '\r'])
                .trim_start_matches('\u{feff}');
            if record.trim().is_empty() || record.trim_start().starts_with('#') {
                continue;
            }
            let row = audit_record(&source, line_no, record, args.chess960);
            csv.serialize(&row)
                .map_err(|e| CliError::Failed(format!("{}: {e}", out_name.display())))?;
        }
    }
    csv.flush().map_err(|e| CliError::io(&out_name, e))
}

/// The FEN part of a FEN or EPD record: text before any `;` or `,` (EPD
/// operations, CSV perft counts), its first four fields, and fields 5-6 when
/// they are numbers (EPD operations such as `bm Nf3` are dropped).
fn fen_part(record: &str) -> String {
    let head = record.split([';', ',']).next().unwrap_or("");
    let mut fields: Vec<&str> = head.split_ascii_whitespace().take(6).collect();
    if fields.len() > 4 {
        let counters = fields[4..]
            .iter()
            .take_while(|f| f.bytes().all(|b| b.is_ascii_digit()))
            .count();
        fields.truncate(4 + counters);
    }
    fields.join(" ")
}

/// Audits one record.
pub fn audit_record(source: &str, line: u64, record: &str, chess960: bool) -> FenRow {
    let mut row = FenRow {
        source: source.to_string(),
        line,
        input: record.to_string(),
        status: "bad_fen",
        error: String::new(),
        fen: String::new(),
        fen_ep_legal: String::new(),
        castling_invalid: String::new(),
        castling_effective: String::new(),
        reason: String::new(),
        legal_moves: None,
        check: None,
    };
    let setup = match Setup::parse(&fen_part(record)) {
        Ok(s) => s,
        Err(e) => {
            row.error = e.to_string();
            return row;
        }
    };
    let mode = if chess960 || setup.is_shredder() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match Position::from_setup(&setup, mode) {
        Ok((pos, audit)) => {
            row.status = "ok";
            row.fen = pos.fen(EpMode::Always);
            row.fen_ep_legal = pos.fen(EpMode::Legal);
            row.castling_invalid = audit.invalid;
            row.castling_effective = audit.effective;
            row.reason = audit.reason;
            row.legal_moves = Some(pos.legal_moves().len());
            row.check = Some(pos.is_check());
        }
        Err(e) => row.error = e.to_string(),
    }
    row
}
