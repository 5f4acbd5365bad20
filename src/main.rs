//! The command line: parse flags, call the library, map errors to exit codes.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Bulk processing of chess and xiangqi game collections.
///
/// Replays every game of PGN files of any size on all cores and reports final
/// positions, repetitions under two en-passant conventions, and [FEN] headers
/// whose castling rights contradict the board.
#[derive(Parser)]
#[command(name = "pgnmill", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game of PGN collections and write a CSV report folder.
    Report(pgnmill::commands::report::ReportArgs),
    /// Rewrite the moves of xiangqi games in ICCS, WXF or Chinese notation.
    Convert(pgnmill::commands::convert::ConvertArgs),
    /// Count legal move sequences from a position (move generator check).
    Perft(pgnmill::commands::perft::PerftArgs),
    /// Audit FEN/EPD lists: read each record back, check castling rights.
    Fen(pgnmill::commands::fen::FenArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), pgnmill::CliError> = match cli.command {
        Command::Report(args) => pgnmill::commands::report::run(&args),
        Command::Perft(args) => pgnmill::commands::perft::run(&args),
        Command::Fen(args) => pgnmill::commands::fen::run(&args),
        Command::Convert(args) => pgnmill::commands::convert::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // `eprintln!` would panic (exit 101) if stderr is closed; the exit
            // code must still say why the run stopped.
            let _ = writeln!(std::io::stderr(), "pgnmill: {err}");
            ExitCode::from(err.exit_code() as u8)
        }
    }
}
