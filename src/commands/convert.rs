//! `pgnmill convert`: rewrite the moves of xiangqi collections in another
//! notation (ICCS, WXF, Chinese), every move checked by replay. The run is
//! the library's [`Job::convert`]; this module turns the flags into it and
//! writes its text to the output.

use super::CliError;
use super::output::Output;
use clap::{Args, ValueEnum};
use pgnmill::job::Job;
use pgnmill::output::collisions;
use pgnmill::source::Listing;
use pgnmill::xiangqi::notation::Notation;
use std::path::{Path, PathBuf};

/// The notation to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Coordinates, lower case without hyphen: h2e2 h9g7.
    Iccs,
    /// WXF as wxf.org writes it: C2.5 H8+7, P++1 for the front pawn.
    Wxf,
    /// Chinese, simplified characters, ASCII digits for black: 炮二平五 马8进7.
    Chinese,
    /// Chinese, traditional characters: 炮二平五 馬8進7.
    ChineseTraditional,
}

impl Target {
    pub fn notation(self) -> Notation {
        match self {
            Target::Iccs => Notation::Iccs,
            Target::Wxf => Notation::Wxf,
            Target::Chinese => Notation::Chinese,
            Target::ChineseTraditional => Notation::ChineseTraditional,
        }
    }
}

/// Rewrite the moves of xiangqi games in another notation.
///
/// Every move, of the main line and of every variation, is replayed with
/// the rules kernel: it must name exactly one legal move, and the rewritten
/// move must read back as the same move. Tags are kept as written and
/// [Format] is set to the target ("ICCS", "WXF" or "Chinese"); move
/// numbers, comments, NAGs and the result are kept byte for byte. Input in
/// UTF-8, GBK/GB18030, Big5 or Latin-1 (found out per file) is written as
/// UTF-8.
#[derive(Args, Debug)]
#[command(after_help = "\
Every move, of the main line and of every variation ( ... ), is replayed: it \
must name exactly one legal move, and the rewritten move must read back as \
the same move. A variation starts from the position before the move it is \
an alternative to. Tags are kept as written and [Format] is set to ICCS, WXF \
or Chinese; move numbers, comments, NAGs and the result are kept byte for \
byte. Input in UTF-8, UTF-16, GBK, Big5 or Latin-1 (found out per file) is \
written as UTF-8.

A line with a move that cannot be read (illegal, ambiguous, not a move) is \
converted up to that move; a {pgnmill: not converted from here, ...} comment \
says why, and the move and the rest of the line follow as written, so that \
the converted game fails where the original did (pgnmill report gives the \
same status at the same ply). A main line that stops also gets a \
[PgnmillError] tag with the ply, the move and why; the game is reported on stderr \
with its file, game number, line, ply and reason, and so is each variation \
that stops. A game that is not xiangqi (chess, chess960, other \
variants) is copied unchanged, with a note on stderr (the first five of each \
input one by one, the rest counted). The run goes on either way.

A damaged input (a truncated .gz, a damaged zip member) is converted as far \
as it goes, with a warning. An input that holds no game pgnmill can read \
(binary data, a .che record, notes) is named in a warning and nothing of it \
is written. The other inputs are converted either way.

Exit status:
  0    every input was converted (even if some games stopped early, or an \
input was damaged or refused: those are warnings)
  1    an input or the output could not be used (with -o, nothing is left \
under OUT: it is written to a temporary name and renamed at the end); with \
--strict also when an input was damaged or refused or a symbolic link in a \
folder leads nowhere (the output is still written)
  2    usage error, or an output that would collide with an input or a \
folder (nothing is written)
  130  interrupted by Ctrl-C (SIGINT)
  143  stopped by SIGTERM

Examples:
  pgnmill convert --to iccs games.pgn > games-iccs.pgn
  pgnmill convert --to chinese -o all.pgn collection/
  pgnmill convert --to wxf big5-file.pgn gbk-file.pgn -o wxf.pgn
  cat games.pgn | pgnmill convert --to chinese-traditional -")]
pub struct ConvertArgs {
    /// The notation to write.
    #[arg(long, value_enum, value_name = "NOTATION")]
    pub to: Target,

    /// PGN files, xiangqi record files, zip and 7z archives, folders
    /// (searched recursively for the files `report` reads: .pgn, .pgn.zst,
    /// .pgn.zstd, .pgn.gz, .pgn.bz2, .pgn.xz, .zip, .7z, .xqf, .cbr, .cbl,
    /// .cbf, .ubb, and
    /// pages that hold a DhtmlXQ block) or - for standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// The file to write [default: standard output; `-` is standard
    /// output too].
    #[arg(short, long, value_name = "OUT")]
    pub out: Option<PathBuf>,

    /// Worker threads [default: all cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// No per-game notes for games that are not xiangqi, and no closing
    /// summary (games that stop early are still reported).
    #[arg(short, long)]
    pub quiet: bool,

    /// Replace the file given with -o if it exists.
    #[arg(long)]
    pub force: bool,

    /// Exit 1 when an input could not be read whole (damaged, binary, no
    /// game) or a symbolic link in a folder leads nowhere; the output is
    /// still written.
    #[arg(long)]
    pub strict: bool,
}

/// Runs `pgnmill convert`.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let cancel = super::interrupt::cancel_token();
    let threads = super::thread_count(args.threads)?;
    let planned = super::output::planned(args.out.as_deref());
    collisions::check(&planned, &args.inputs)?;
    let job = Job::new(&args.inputs, Listing::Games)?
        .threads(threads)
        .cancel_on(cancel);
    super::say_notes(job.notes());
    let input_paths: Vec<&Path> = job.inputs().iter().map(|i| i.path.as_path()).collect();
    collisions::check_none_is_an_input(&planned, &input_paths)?;
    let mut out = Output::open(args.out.as_deref(), args.force)?;
    let to = args.to.notation();
    let totals = job.convert(to, &mut |text| out.write(text.as_bytes()), &mut |note| {
        super::say_note(&note, args.quiet)
    })?;
    out.finish()?;
    if !args.quiet {
        super::say(format_args!(
            "pgnmill convert: {} converted to {to}, {} stopped early, {} not xiangqi (copied)",
            super::counted(totals.converted, "game", "games"),
            totals.stopped,
            totals.passed
        ));
    }
    if args.strict {
        totals
            .unread
            .check("the output was written")
            .map_err(CliError::Failed)?;
    }
    Ok(())
}
