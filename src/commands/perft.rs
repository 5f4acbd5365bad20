//! `pgnmill perft`: count legal move sequences from a position, optionally
//! split by root move, to check the rules kernel against published tables.

use crate::CliError;
use crate::chess::{self, CastlingMode, Position, Setup};
use std::io::Write;

/// Which game's rules to count with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Variant {
    /// Standard chess (a Shredder-FEN castling field switches to Chess960).
    Chess,
    /// Chess960: castling with the king and rooks on any start files.
    Chess960,
    /// Xiangqi (Chinese chess).
    Xiangqi,
}

/// Arguments of `pgnmill perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Rules to use.
    #[arg(long, value_enum, default_value_t = Variant::Chess)]
    pub variant: Variant,
    /// Print one `move: count` line per legal root move (UCI notation).
    #[arg(long)]
    pub divide: bool,
    /// The position: a FEN (quoted) or `startpos`.
    pub position: String,
    /// Number of plies to count.
    pub depth: u32,
}

/// Runs the command, writing to stdout.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_to(args, &mut out) {
        // The reader went away (`| head -1`): it has what it wanted.
        Err(CliError::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            Ok(())
        }
        other => other,
    }
}

/// Runs the command, writing to `out`.
pub fn run_to(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mode = match args.variant {
        Variant::Xiangqi => return Err(CliError::Failed("xiangqi perft not built yet".into())),
        Variant::Chess => CastlingMode::Standard,
        Variant::Chess960 => CastlingMode::Chess960,
    };
    let pos = parse_position(&args.position, mode)?;
    let io = |e| CliError::io("<stdout>", e);
    let total = if args.divide {
        let mut total = 0;
        for (m, n) in chess::divide(&pos, args.depth) {
            writeln!(out, "{}: {n}", pos.uci(m)).map_err(io)?;
            total += n;
        }
        writeln!(out).map_err(io)?;
        if args.depth == 0 { 1 } else { total }
    } else {
        chess::perft(&pos, args.depth)
    };
    writeln!(out, "Nodes searched: {total}").map_err(io)?;
    Ok(())
}

/// `startpos` or a FEN; a Shredder-FEN castling field implies Chess960.
fn parse_position(text: &str, mode: CastlingMode) -> Result<Position, CliError> {
    if text.trim() == "startpos" {
        return Ok(Position::startpos());
    }
    let setup =
        Setup::parse(text).map_err(|e| CliError::Usage(format!("bad FEN {text:?}: {e}")))?;
    let mode = if setup.is_shredder() {
        CastlingMode::Chess960
    } else {
        mode
    };
    let (pos, _audit) = Position::from_setup(&setup, mode)
        .map_err(|e| CliError::Usage(format!("bad position {text:?}: {e}")))?;
    Ok(pos)
}
