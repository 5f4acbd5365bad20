//! `pgnmill perft`: count legal move sequences from a position, optionally
//! split by root move, to check the rules kernel against published tables.

use super::CliError;
use pgnmill::chess::{self, CastlingMode, Position, Setup};
use pgnmill::xiangqi;
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
#[command(after_help = "\
The last line is `Nodes searched: N`. Compare with published perft tables \
(the Chess Programming Wiki's, or Fairy-Stockfish's for xiangqi).

A position that cannot arise in a game but can be played from \
(python-chess's Board.status(): opposite_check, pawns_on_backrank, ...; \
for xiangqi advisor_off_palace, elephant_off_point, pawn_behind_start) is \
named on stderr and counted all the same. A xiangqi board that cannot \
stand (flying_general, opposite_check, king_off_palace, too_many_pieces) \
is refused as a bad FEN, exit status 2.

Exit status:
  0    the count was printed (also when the reader of the output goes \
away, as with `| head`)
  1    standard output is closed or cannot be written
  2    a bad position or usage error
  130  interrupted by Ctrl-C (SIGINT)
  143  stopped by SIGTERM

Examples:
  pgnmill perft startpos 5
  pgnmill perft --divide 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' 3
  pgnmill perft --variant chess960 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' 3
  pgnmill perft --variant xiangqi startpos 4")]
pub struct PerftArgs {
    /// Rules to use.
    #[arg(long, value_enum, default_value_t = Variant::Chess)]
    pub variant: Variant,
    /// Print one `move: count` line per legal root move: UCI for chess and
    /// Chess960, ICCS (`h2e2`) for xiangqi.
    #[arg(long)]
    pub divide: bool,
    /// The position: a FEN (quoted) or `startpos`.
    pub position: String,
    /// Number of plies to count, at most 64: the count recurses once per
    /// ply, and published tables stop near 15, where it takes hours.
    #[arg(value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
}

/// perft's error for a closed standard output: it has no `-o` (the
/// other commands' message suggests one), so it says where the count can
/// go instead.
pub fn stdout_closed() -> CliError {
    CliError::Failed(
        "standard output is closed; perft prints its count there: give it a file or a pipe".into(),
    )
}

/// Runs the command, writing to stdout.
pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    // A reader that goes away (`| head -1`) is a quiet exit 0 (`main`).
    if super::output::check_stdout().is_err() {
        return Err(stdout_closed());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_to(args, &mut out)
}

/// Runs the command, writing to `out`.
pub fn run_to(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mode = match args.variant {
        Variant::Xiangqi => return xiangqi_to(args, out),
        Variant::Chess => CastlingMode::Standard,
        Variant::Chess960 => CastlingMode::Chess960,
    };
    let pos = parse_position(&args.position, mode)?;
    if args.divide {
        let split = chess::divide(&pos, args.depth);
        write_divide(
            out,
            split.into_iter().map(|(m, n)| (pos.uci(m), n)),
            args.depth,
        )
    } else {
        write_total(out, chess::perft(&pos, args.depth))
    }
}

/// The same counts for xiangqi: root moves in ICCS.
fn xiangqi_to(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let text = &args.position;
    let pos = if text.trim() == "startpos" {
        xiangqi::Position::startpos()
    } else {
        let bad = |e: xiangqi::FenError| {
            let hint = if ranks(text) == 8 {
                " (8 ranks: a chess FEN? leave out --variant xiangqi)"
            } else {
                ""
            };
            CliError::Usage(format!("bad xiangqi FEN {text:?}: {e}{hint}"))
        };
        let setup = xiangqi::fen::parse(text).map_err(bad)?;
        let problems = xiangqi::problems::problems(&setup.board, setup.turn);
        let pos = xiangqi::Position::from_setup(setup).map_err(bad)?;
        warn_problems(problems.iter().map(|p| p.as_str()));
        pos
    };
    if args.divide {
        let split = xiangqi::divide(&pos, args.depth);
        write_divide(
            out,
            split.into_iter().map(|(m, n)| (m.to_string(), n)),
            args.depth,
        )
    } else {
        write_total(out, xiangqi::perft(&pos, args.depth))
    }
}

/// One `move: count` line per root move, a blank line, then the total.
fn write_divide(
    out: &mut dyn Write,
    split: impl Iterator<Item = (String, u64)>,
    depth: u32,
) -> Result<(), CliError> {
    let io = |e| CliError::io("<stdout>", e);
    let mut total = 0;
    for (m, n) in split {
        writeln!(out, "{m}: {n}").map_err(io)?;
        total += n;
    }
    writeln!(out).map_err(io)?;
    write_total(out, if depth == 0 { 1 } else { total })
}

fn write_total(out: &mut dyn Write, total: u64) -> Result<(), CliError> {
    writeln!(out, "Nodes searched: {total}").map_err(|e| CliError::io("<stdout>", e))
}

/// `startpos` or a FEN; a Shredder-FEN castling field implies Chess960.
/// What makes the position impossible in a game (python-chess's
/// `Board.status()`) is said on stderr; the count goes on, as perft
/// tables of such positions exist.
fn parse_position(text: &str, mode: CastlingMode) -> Result<Position, CliError> {
    if text.trim() == "startpos" {
        return Ok(Position::startpos());
    }
    let setup = Setup::parse(text).map_err(|e| {
        let hint = if ranks(text) == usize::from(xiangqi::types::RANKS) {
            " (10 ranks: a xiangqi FEN? add --variant xiangqi)"
        } else {
            ""
        };
        CliError::Usage(format!("bad FEN {text:?}: {e}{hint}"))
    })?;
    let mode = if setup.is_shredder() {
        CastlingMode::Chess960
    } else {
        mode
    };
    let (pos, _audit) = Position::from_setup(&setup, mode)
        .map_err(|e| CliError::Usage(format!("bad position {text:?}: {e}")))?;
    let problems = chess::problems(&setup, &pos);
    warn_problems(problems.iter().map(|p| p.as_str()));
    if let Some(ep) = setup.ep_square
        && problems.contains(&chess::Problem::InvalidEpSquare)
    {
        // Counted all the same, but not as written: say what changed.
        super::say(format_args!(
            "pgnmill: warning: the en-passant square {ep} is dropped: no double step can have made it"
        ));
    }
    Ok(pos)
}

/// The number of ranks of a FEN's placement field.
fn ranks(text: &str) -> usize {
    text.split_whitespace()
        .next()
        .map_or(0, |placement| placement.split('/').count())
}

/// One stderr line naming the position's problems (the words of `pgnmill
/// fen`'s `problems` column), if it has any.
fn warn_problems<'a>(words: impl Iterator<Item = &'a str>) {
    let words: Vec<&str> = words.collect();
    if !words.is_empty() {
        super::say(format_args!(
            "pgnmill: warning: the position cannot arise in a game ({}); counting it anyway",
            words.join(", ")
        ));
    }
}
