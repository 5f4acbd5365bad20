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
