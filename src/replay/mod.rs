//! One game in, one record out: replays a game's main line with the rules
//! kernel its variant needs and counts repetitions under both en-passant
//! conventions. Nothing here knows about files, threads or CSV.

mod chess_game;
mod draw_rules;
mod outcome;
pub mod ply_data;
mod record;
mod repetition;
mod status;
mod unclosed;
mod xiangqi_game;
mod xiangqi_rules;

pub use outcome::{
    GameOver, MatingMaterial, Outcome, PerpetualCheck, Termination, result_conflict,
    xiangqi_result_conflict,
};
pub use record::{CastlingConflict, GameRecord, GameTags};
pub use repetition::{RepetitionStats, RepetitionTable};
pub use status::Status;

use crate::chess::CastlingMode;
use crate::pgn::headers::{GameHeaders, text_in};
use crate::variant::{self, GameVariant};
use std::borrow::Cow;

/// Where a move stands in the game as a person counts it: the number of
/// the move and whether it is the second side's (`12...`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MoveNumber {
    pub number: u32,
    pub second_side: bool,
}

impl MoveNumber {
    pub fn new(number: u32, second_side: bool) -> Self {
        MoveNumber {
            number,
            second_side,
        }
    }
}

/// A move token that could not be played. `parse_error` when it is no move
/// at all (`not_a_move`: `pawn`, `Nf9`, `P-K4`, python-chess's
/// `InvalidMoveError`) or the first token of a text with no tags (stray
/// text, not a game); else `illegal_move` (a move that the position does not
/// allow, python-chess's `IllegalMoveError` and `AmbiguousMoveError`). The
/// message names the move as a person counts it, the ply, the line, and
/// why: `move 12... Nf6, ply 24 (line 30): why`; stray text is named by its
/// line alone, with no move number it never had. `why` does not repeat the
/// token. Kept out of line: the replay loops pay for it only when a game
/// stops. It takes the token's line, not the token iterator: a reference
/// to the iterator passed to a function that is not inlined keeps the
/// iterator in memory for the whole loop (+6% of a report's instructions,
/// measured with callgrind).
#[cold]
#[inline(never)]
pub(crate) fn failed_move(
    ply: u32,
    number: MoveNumber,
    token: &crate::pgn::Token<'_>,
    line: u64,
    has_tags: bool,
    not_a_move: bool,
    why: impl std::fmt::Display,
) -> (Status, String) {
    if ply == 0 && !has_tags {
        let text = String::from_utf8_lossy(token.text);
        let error = if not_a_move {
            format!("line {line}: stray text (no tag pair, and \"{text}\" is not a move)")
        } else {
            format!("line {line}: stray text (no tag pair, and \"{text}\" cannot be played: {why})")
        };
        return (Status::ParseError, error);
    }
    let status = if not_a_move {
        Status::ParseError
    } else {
        Status::IllegalMove
    };
    let error = format!(
        "{}, ply {} (line {line}): {why}",
        named(number, token),
        ply + 1
    );
    (status, error)
}

/// Why a move failed in a position without any legal move: the game had
/// already ended at `ply` by checkmate (`in_check`) or stalemate, which
/// says more than what is wrong with the move itself (docs/outcomes.md,
/// Broken games: such a game is still held against its results).
#[cold]
#[inline(never)]
pub(crate) fn already_over(ply: u32, in_check: bool) -> String {
    let end = if in_check { "checkmate" } else { "stalemate" };
    format!("the game was already over at ply {ply} ({end})")
}

/// A move as a person names it: `move 12... Nf6`.
fn named(number: MoveNumber, token: &crate::pgn::Token<'_>) -> String {
    let text = String::from_utf8_lossy(token.text);
    let dots = if number.second_side { "..." } else { "." };
    format!("move {}{dots} {text}", number.number)
}

/// [`failed_move`] for the game of a record file (XQF, CCBridge, DhtmlXQ),
/// which reaches the replay as text the user never sees: the message names
/// the record (its index in the file, as the `game` column does), not a
/// line of that text: `record 3, move 5... e1f0, ply 10: why`.
#[cold]
#[inline(never)]
pub(crate) fn failed_record_move(
    ply: u32,
    number: MoveNumber,
    token: &crate::pgn::Token<'_>,
    record: u64,
    why: impl std::fmt::Display,
) -> (Status, String) {
    let error = format!(
        "record {record}, {}, ply {}: {why}",
        named(number, token),
        ply + 1
    );
    (Status::IllegalMove, error)
}

/// Where the replay says a failed move is: by the line of the text (a PGN
/// game), or by the record it was written from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MoveLocation {
    Line,
    /// Record N (from 1) of a record file.
    Record(u64),
}

/// The `[FEN]` tag could not be read: the message names the tag's line
/// (the last `[FEN]` tag of the game, the one that counts).
pub(crate) fn bad_fen(
    game: &crate::pgn::GameText<'_>,
    fen: &str,
    why: impl std::fmt::Display,
) -> (Status, String) {
    let line = game
        .tags()
        .filter(|t| t.name_is("FEN"))
        .last()
        .map_or(game.movetext().line(), |t| t.line);
    (
        Status::BadFen,
        format!("line {line} [FEN \"{fen}\"]: {why}"),
    )
}

/// [`bad_fen`] for the game of a record file (XQF, CCBridge, DhtmlXQ):
/// its start position comes from the record's own fields, not from a
/// line the user can see, so the message names the record (its index in
/// the file, as the `game` column does).
#[cold]
pub(crate) fn bad_record_fen(
    record: u64,
    fen: &str,
    why: impl std::fmt::Display,
) -> (Status, String) {
    (
        Status::BadFen,
        format!("record {record}: its start position \"{fen}\" cannot be played: {why}"),
    )
}

/// A `{` comment that never closes swallowed the rest of the input, other
/// games included: the game cannot pass for complete (docs/pgn-dialect.md §6: never lose a
/// game silently).
pub(crate) fn unclosed_comment(line: u64) -> (Status, String) {
    (
        Status::ParseError,
        format!(
            "the comment opened at line {line} never closes: the rest of the game \
             was read as comment"
        ),
    )
}

/// Appends a move to the `--moves` list, if one is kept. The move is
/// written by a closure so that, without `--moves`, no text is formatted:
/// a UCI string per ply was once a third of the replay's time.
pub(crate) fn record_move<D: std::fmt::Display>(list: &mut Option<String>, mv: impl FnOnce() -> D) {
    if let Some(list) = list {
        let mv = mv();
        use std::fmt::Write;
        if !list.is_empty() {
            list.push(' ');
        }
        let _ = write!(list, "{mv}");
    }
}

/// What the user asked of every game's replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Keep the main line (UCI or ICCS) for the `moves` column.
    pub moves: bool,
    /// `--variant` other than `auto`: replay every game by these rules.
    pub variant: Option<GameVariant>,
    /// Clocks, evaluations and one row per ply (`--clocks`, `--plies`).
    pub ply_data: ply_data::PlyDataOptions,
}

/// Replays one game, given its bytes (UTF-8, or ASCII-compatible with
/// Latin-1 tag values) and the line it starts on. Never fails: a broken game
/// is a record with a status and an error.
pub fn replay_game<'a>(bytes: &'a [u8], line: u64, options: &ReplayOptions) -> GameRecord<'a> {
    replay(bytes, None, line, options, MoveLocation::Line)
}

/// [`replay_game`] for a game already decoded to UTF-8 (as the report
/// does): its tag values need no second validation.
pub fn replay_text<'a>(text: &'a str, line: u64, options: &ReplayOptions) -> GameRecord<'a> {
    replay(
        text.as_bytes(),
        Some(text),
        line,
        options,
        MoveLocation::Line,
    )
}

/// [`replay_text`] for the text a record reader wrote for record `record`
/// (from 1) of its file: a move that cannot be played is located by the
/// record and its ply, never by a line of the text.
pub fn replay_record_text<'a>(
    text: &'a str,
    line: u64,
    record: u64,
    options: &ReplayOptions,
) -> GameRecord<'a> {
    replay(
        text.as_bytes(),
        Some(text),
        line,
        options,
        MoveLocation::Record(record),
    )
}

fn replay<'a>(
    bytes: &'a [u8],
    utf8: Option<&'a str>,
    line: u64,
    options: &ReplayOptions,
    at: MoveLocation,
) -> GameRecord<'a> {
    let text = |value: &Option<Cow<'a, [u8]>>| text_in(utf8, value);
    let (headers, game) = GameHeaders::read_game(bytes, line);
    let white = if headers.white.is_some() {
        &headers.white
    } else {
        &headers.red
    };
    let tags = GameTags {
        event: text(&headers.event),
        site: text(&headers.site),
        date: text(&headers.date),
        round: text(&headers.round),
        white: text(white),
        black: text(&headers.black),
        result: text(&headers.result),
    };
    let fen_tag = headers.fen.is_some().then(|| text(&headers.fen));
    let fen = fen_tag.as_deref().map(str::trim);
    let variant = match &options.variant {
        Some(v) => v.clone(),
        None => variant::detect(&headers, fen, &game),
    };
    let start_fen = match &fen_tag {
        Some(Cow::Borrowed(t)) => Cow::Borrowed(t.trim()),
        Some(Cow::Owned(t)) => Cow::Owned(t.trim().to_string()),
        None => Cow::Borrowed(""),
    };
    let mut record = GameRecord::not_replayed(
        Cow::Borrowed(variant.static_name()),
        tags,
        Status::Ok,
        String::new(),
    );
    record.start_fen = start_fen;
    match variant {
        GameVariant::Chess | GameVariant::Chess960 => {
            let mode = if variant == GameVariant::Chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            chess_game::replay(&game, fen, mode, headers.any, options, &mut record);
        }
        GameVariant::Xiangqi => {
            xiangqi_game::replay(&game, fen, headers.any, options, at, &mut record);
        }
        GameVariant::Unsupported(name) => {
            // The `variant` column holds only the three rules pgnmill
            // plays (left empty here); the tag's own text is in `error`.
            record.error =
                format!("variant \"{name}\" is not supported (chess, chess960 and xiangqi are)");
            record.status = Status::Unsupported;
        }
    }
    if options.ply_data.any() && record.ply_data.is_none() {
        // A game that was not replayed (a variant pgnmill does not play, a
        // bad `[FEN]`) still has its time control, and no plies.
        record.ply_data =
            ply_data::PlyRecorder::new(&game, options.ply_data, true).map(|r| r.finish(None, None));
    }
    if let Some(tag) = headers.unclosed_tag
        && record.status == Status::Ok
    {
        (record.status, record.error) = unclosed::tag(tag);
    }
    record
}
