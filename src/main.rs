//! The command line: parse flags, call the library, map errors to exit codes.

mod commands;

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
    /// Replay every game of PGN collections and xiangqi records; write a report folder (CSV or
    /// Parquet, summary.json, report.html).
    Report(commands::report::ReportArgs),
    /// Rewrite the moves of xiangqi games in ICCS, WXF or Chinese notation.
    Convert(commands::convert::ConvertArgs),
    /// Count legal move sequences from a position (move generator check).
    Perft(commands::perft::PerftArgs),
    /// Audit FEN/EPD lists: read each record back, check castling rights.
    Fen(commands::fen::FenArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The commands that stop cleanly on SIGINT and SIGTERM take them over
    // before anything else, so that no signal finds the default action
    // (death, and partial files left behind) once there is work to lose.
    if !matches!(cli.command, Command::Perft(_)) {
        commands::catch_signals();
    }
    // Before any file is opened: a closed stdout's descriptor would be
    // handed to the first file, and the check below would pass.
    let writes_stdout = match &cli.command {
        Command::Report(args) => args.extract.iter().any(|e| e.is_stdout()),
        Command::Perft(_) => true,
        Command::Fen(args) => commands::output::is_stdout(args.out.as_deref()),
        Command::Convert(args) => commands::output::is_stdout(args.out.as_deref()),
    };
    if writes_stdout && let Err(err) = commands::output::check_stdout() {
        let err = match cli.command {
            Command::Perft(_) => commands::perft::stdout_closed(),
            _ => err,
        };
        let _ = writeln!(std::io::stderr(), "pgnmill: {err}");
        return ExitCode::from(err.exit_code() as u8);
    }
    let result: Result<(), commands::CliError> = match cli.command {
        Command::Report(args) => commands::report::run(&args),
        Command::Perft(args) => commands::perft::run(&args),
        Command::Fen(args) => commands::fen::run(&args),
        Command::Convert(args) => commands::convert::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of our output went away (`| head`): it has what it
        // wanted. Every command stops quietly, as `head` users expect.
        Err(err) if commands::output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // `eprintln!` would panic (exit 101) if stderr is closed; the exit
            // code must still say why the run stopped.
            let _ = writeln!(std::io::stderr(), "pgnmill: {err}");
            ExitCode::from(err.exit_code() as u8)
        }
    }
}
