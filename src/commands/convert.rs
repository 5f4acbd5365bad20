//! `pgnmill convert`: rewrite the moves of xiangqi collections in another
//! notation (ICCS, WXF, Chinese), every move checked by replay.

use super::collisions;
use super::output::Output;
use super::{CliError, say};
use clap::{Args, ValueEnum};
use pgnmill::convert::{Outcome, convert_game};
use pgnmill::pgn::headers::GameHeaders;
use pgnmill::pgn::{Batch, Batches, ReaderNote};
use pgnmill::pipeline::Cancel;
use pgnmill::records::{Checked, read_records, write_pgn};
use pgnmill::replay::{ReplayOptions, Status, replay_text};
use pgnmill::report::unread::{Read, Unread};
use pgnmill::source::{
    Encoding, Input, Listing, Opened, ReadOptions, RecordFormat, decode_game, expand_inputs_noted,
};
use pgnmill::xiangqi::notation::Notation;
use rayon::prelude::*;
use std::path::PathBuf;

/// The notation to write.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Coordinates, lower case without hyphen: h2e2 h9g7.
    Iccs,
    /// WXF as wxf.org writes it: C2.5 H8+7, +P+1 for the front pawn.
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
byte. Input in UTF-8, GBK, Big5 or Latin-1 (found out per file) is written \
as UTF-8.

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

    /// PGN files, zip archives, folders (searched recursively for .pgn,
    /// .pgn.zst, .pgn.gz, .pgn.bz2, .pgn.xz and .zip files) or - for
    /// standard input.
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

/// Games of one input that are not xiangqi get a note each up to this many;
/// the rest one note together (a chess file would otherwise flood stderr).
const NOTES_PER_INPUT: u64 = 5;

/// Counts for the closing summary.
#[derive(Default)]
struct Totals {
    converted: u64,
    stopped: u64,
    passed: u64,
    /// Inputs not read whole, for `--strict`.
    unread: Unread,
}

/// Runs `pgnmill convert`.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let cancel = super::interrupt::cancel_token();
    let (pool, _) = super::worker_pool(args.threads)?;
    let planned = super::output::planned(args.out.as_deref());
    collisions::check(&planned, &args.inputs)?;
    let expansion = expand_inputs_noted(&args.inputs, Listing::Games)?;
    for note in &expansion.notes {
        say(format_args!("pgnmill: warning: {note}"));
    }
    let inputs = expansion.inputs;
    let input_paths: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    for p in &planned {
        collisions::check_not_an_input(p, &input_paths)?;
    }
    let mut sink = Output::open(args.out.as_deref(), args.force)?;
    let mut totals = Totals {
        unread: Unread {
            dangling_links: expansion.skipped.dangling_links.len(),
            ..Unread::default()
        },
        ..Totals::default()
    };
    let mut tail = Tail::default();
    for input in &inputs {
        let mut held = Held::new(&mut sink, &mut tail);
        let read = convert_input(input, args, &pool, &cancel, &mut held, &mut totals)?;
        let read = held.finish(read);
        if let Read::Refused(why) = &read {
            say(format_args!(
                "pgnmill: warning: {}: {why}; nothing of it was written",
                input.path.display()
            ));
        }
        totals.unread.add(&read);
    }
    sink.finish()?;
    if !args.quiet {
        super::say(format_args!(
            "pgnmill convert: {} games converted to {}, {} stopped early, {} not xiangqi (copied)",
            totals.converted,
            args.to.notation(),
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

/// Held output of one input: nothing of an input is written until it
/// shows a game, so that a file pgnmill cannot read (a `.che` record,
/// notes, any text without a tag pair, move or result) is refused whole,
/// never copied through. Text before the first game is held in memory up
/// to [`HOLD_LIMIT`]; an input with no game that far is refused.
struct Held<'a> {
    sink: &'a mut Output,
    tail: &'a mut Tail,
    /// `Some` until the input's first game.
    pending: Option<String>,
}

/// Text held before an input's first game, at most.
const HOLD_LIMIT: usize = 16 << 20;

impl<'a> Held<'a> {
    fn new(sink: &'a mut Output, tail: &'a mut Tail) -> Self {
        Held {
            sink,
            tail,
            pending: Some(String::new()),
        }
    }

    /// What to write before the input's first text: a blank line after
    /// the previous input's last game.
    fn separator(&self) -> &'static str {
        self.tail.separator()
    }

    /// Writes `text`, or holds it while no game was seen.
    fn write(&mut self, text: &str) -> Result<(), CliError> {
        match &mut self.pending {
            Some(held) => {
                held.push_str(text);
                Ok(())
            }
            None => self.write_through(text),
        }
    }

    fn write_through(&mut self, text: &str) -> Result<(), CliError> {
        self.sink.write(text.as_bytes())?;
        self.tail.note(text);
        Ok(())
    }

    /// Whether the input has shown no game yet (its text is held).
    fn holding(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether more than [`HOLD_LIMIT`] is held.
    fn over_limit(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.len() > HOLD_LIMIT)
    }

    /// The input showed a game: what was held is written.
    fn game_seen(&mut self) -> Result<(), CliError> {
        if let Some(held) = self.pending.take() {
            self.write_through(&held)?;
        }
        Ok(())
    }

    /// The end of the input: one that never showed a game is refused
    /// (its held text dropped), whatever else was found.
    fn finish(self, read: Read) -> Read {
        match (self.pending, read) {
            (_, refused @ Read::Refused(_)) => refused,
            (Some(held), _) if !held.trim().is_empty() => Read::Refused(
                "holds no game pgnmill can read (no tag pair, move or result), not PGN".into(),
            ),
            (_, read) => read,
        }
    }
}

/// The last bytes written, so that games of consecutive inputs stay
/// separated by a blank line.
#[derive(Default)]
struct Tail {
    last: [u8; 3],
    any: bool,
}

impl Tail {
    fn note(&mut self, text: &str) {
        for &b in text.as_bytes().iter().rev().take(3).rev() {
            self.last = [self.last[1], self.last[2], b];
        }
        self.any |= !text.is_empty();
    }

    /// What to write before a new input's first game.
    fn separator(&self) -> &'static str {
        match self.last {
            _ if !self.any => "",
            [_, b'\n', b'\n'] | [b'\n', b'\r', b'\n'] => "",
            [_, _, b'\n'] => "\n",
            _ => "\n\n",
        }
    }
}

/// Converts every game of one input, batch by batch, in order; the text
/// between games (blank lines, `%` lines) is copied as well. A break in
/// the input ends it with a warning ([`Read::Incomplete`]).
fn convert_input(
    input: &Input,
    args: &ConvertArgs,
    pool: &rayon::ThreadPool,
    cancel: &Cancel,
    sink: &mut Held<'_>,
    totals: &mut Totals,
) -> Result<Read, CliError> {
    let name = input.path.to_string_lossy().into_owned();
    let opts = ReadOptions::default();
    let text = match input.open(&opts)? {
        Opened::Text(text) => text,
        Opened::Records(file) => {
            return convert_records(&name, file.format(), file.bytes(), args, sink, totals);
        }
        Opened::Refused(refusal) => return Ok(Read::Refused(refusal.why)),
    };
    let encoding = text.encoding();
    let to = args.to.notation();
    let mut written_upto: u64 = 0;
    let mut last: Option<Batch> = None;
    let mut first = true;
    let mut passed_here: u64 = 0;
    let mut read = Read::Whole;
    for batch in Batches::new(text, &opts) {
        CliError::check_cancel(cancel, &name)?;
        let batch = match batch {
            Ok(batch) => batch,
            Err(e) => {
                say(format_args!("pgnmill: warning: {e}"));
                read = Read::Incomplete;
                break;
            }
        };
        let converted: Vec<_> = pool.install(|| {
            batch
                .games
                .par_iter()
                .map(|span| {
                    let text = decode_game(batch.game_bytes(span), encoding);
                    let game = convert_game(&text, span.line, to);
                    (text, game)
                })
                .collect()
        });
        for (i, (span, (text, game))) in batch.games.iter().zip(&converted).enumerate() {
            let gap = gap_text(&batch, written_upto, span.offset, encoding, first);
            if first {
                let sep = sink.separator();
                sink.write(sep)?;
                first = false;
            }
            sink.write(&gap)?;
            written_upto = span.end();
            if sink.holding() {
                if !is_a_game(text, span.line) {
                    // Stray text before any game: held with the rest, and
                    // no game to count or name.
                    sink.write(&game.text)?;
                    continue;
                }
                sink.game_seen()?;
            }
            sink.write(&game.text)?;
            let number = batch.first_game + i as u64 + 1;
            for f in &game.variation_stops {
                super::say(format_args!(
                    "pgnmill: {name}: game {number} (line {}): a variation stops at {f}",
                    span.line
                ));
            }
            match &game.outcome {
                Outcome::Converted { .. } => totals.converted += 1,
                Outcome::Stopped(f) => {
                    totals.stopped += 1;
                    super::say(format_args!(
                        "pgnmill: {name}: game {number} (line {}): {f}",
                        span.line
                    ));
                }
                Outcome::NotXiangqi { variant } => {
                    totals.passed += 1;
                    passed_here += 1;
                    if !args.quiet && passed_here <= NOTES_PER_INPUT {
                        super::say(format_args!(
                            "pgnmill: note: {name}: game {number} (line {}) is {variant}, not xiangqi; copied unchanged",
                            span.line
                        ));
                    }
                }
            }
        }
        last = Some(batch);
        if sink.over_limit() {
            return Ok(Read::Refused(format!(
                "no game pgnmill can read in its first {} MiB, not PGN",
                HOLD_LIMIT >> 20
            )));
        }
    }
    if !args.quiet && passed_here > NOTES_PER_INPUT {
        super::say(format_args!(
            "pgnmill: note: {name}: {} more games are not xiangqi; copied unchanged",
            passed_here - NOTES_PER_INPUT
        ));
    }
    // Whatever follows the last game (blank lines, a trailer) is kept too.
    if let Some(batch) = last {
        let end = batch.base_offset + batch.bytes().len() as u64;
        let rest = gap_text(&batch, written_upto, end, encoding, first);
        let rest = if first {
            rest.trim_start_matches('\u{feff}').to_string()
        } else {
            rest
        };
        sink.write(&rest)?;
    }
    Ok(read)
}

/// Whether a game's text is a game as `pgnmill report` reads it: a tag
/// pair, or a move or result it can read. Stray text (a `.che` record's
/// numbers, notes) is not.
fn is_a_game(text: &str, line: u64) -> bool {
    if GameHeaders::read_game(text.as_bytes(), line).0.any {
        return true;
    }
    let record = replay_text(text, line, &ReplayOptions::default());
    !(record.status == Status::ParseError && record.plies == 0)
}

/// Converts the games of a record file (XQF, CCBridge, DhtmlXQ): each is
/// written whole, its variations and comments included, every move of
/// every line replayed and written in the target notation
/// ([`pgnmill::records::Checked`]). A line stops at a move that is not
/// legal, with a comment that keeps the rest as recorded.
fn convert_records(
    name: &str,
    format: RecordFormat,
    bytes: &[u8],
    args: &ConvertArgs,
    sink: &mut Held<'_>,
    totals: &mut Totals,
) -> Result<Read, CliError> {
    let games = match read_records(format, bytes) {
        Ok(games) => games,
        Err(why) => {
            return Ok(Read::Refused(format!(
                "{} file not read: {why}",
                format.name()
            )));
        }
    };
    let to = args.to.notation();
    let writer = Checked(to);
    let sep = sink.separator();
    sink.write(sep)?;
    sink.game_seen()?;
    for (i, game) in games.iter().enumerate() {
        let mut text = String::new();
        let written = write_pgn(game, &writer, to.format_tag(), &mut text);
        sink.write(&text)?;
        let at = format!("{name}: game {} (byte {})", i + 1, game.offset);
        if let Some(note) = &game.problem {
            let (ReaderNote::Damaged(why) | ReaderNote::NotAGame(why)) = note;
            say(format_args!("pgnmill: {at}: {why}"));
        }
        match &written.main_line_stop {
            Some((ply, why)) => {
                totals.stopped += 1;
                say(format_args!("pgnmill: {at}: ply {ply}: {why}"));
            }
            None => totals.converted += 1,
        }
        if written.variation_stops > 0 {
            say(format_args!(
                "pgnmill: {at}: {} variation(s) stop at a move that is not legal",
                written.variation_stops
            ));
        }
    }
    Ok(Read::Whole)
}

/// The decoded bytes of `batch` from source offset `from` (or the batch's
/// start, if later) to `to`; a byte order mark at the start of an input is
/// dropped (the output is UTF-8 without one).
fn gap_text(batch: &Batch, from: u64, to: u64, encoding: Encoding, at_start: bool) -> String {
    let base = batch.base_offset;
    let start = usize::try_from(from.max(base) - base).unwrap_or(usize::MAX);
    let end = usize::try_from(to.max(base) - base).unwrap_or(usize::MAX);
    let bytes = batch.bytes().get(start..end).unwrap_or_default();
    let bytes = if at_start {
        bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
    } else {
        bytes
    };
    decode_game(bytes, encoding).into_owned()
}
