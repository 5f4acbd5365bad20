//! Why a game's replay stops, in the words of its `error` column: a move
//! that cannot be played (named as a person counts it), a `[FEN]` that
//! cannot be set up, a comment that never closes, a move after the end.
//! Shared by the chess and the xiangqi replay.

use super::Status;

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
    let why = shorten_token_in(why, token);
    if ply == 0 && !has_tags {
        let text = quoted(token.text);
        let error = if is_fen_board(token.text) {
            format!(
                "line {line}: stray text (no tag pair, and \"{text}\" is a FEN board, not a move: `pgnmill fen` reads FEN and EPD lists)"
            )
        } else if not_a_move {
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

/// True when `text` has the shape of a FEN's board field, chess's eight
/// ranks or xiangqi's ten (piece letters and digits between the slashes):
/// the first word of a FEN or EPD list given to `report`, whose error then
/// names the command that reads such lists.
fn is_fen_board(text: &[u8]) -> bool {
    let ranks = text.split(|&b| b == b'/').count();
    (ranks == 8 || ranks == 10)
        && text
            .iter()
            .all(|&b| b == b'/' || b.is_ascii_digit() || b"pnbrqkacPNBRQKAC".contains(&b))
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

/// The longest token an error message quotes whole, in bytes. A longer
/// one (a run of garbage, a binary stretch inside a PGN file) is quoted by
/// its start and its length, so that one broken token cannot put megabytes
/// into a report's `error` column and page.
const QUOTED_WHOLE: usize = 64;

/// How an error message quotes `text`: whole, or, past [`QUOTED_WHOLE`]
/// bytes, its first 40 bytes or fewer (whole characters) and its length:
/// `zzzz… (300 bytes)`.
pub(crate) fn quoted(text: &[u8]) -> String {
    let whole = String::from_utf8_lossy(text);
    if text.len() <= QUOTED_WHOLE {
        return whole.into_owned();
    }
    let start = (0..=40)
        .rev()
        .find(|&i| whole.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… ({} bytes)", &whole[..start], text.len())
}

/// `why` in words, with the token quoted as [`quoted`] quotes it where it
/// repeats a long one (a xiangqi notation error starts with the text).
fn shorten_token_in(why: impl std::fmt::Display, token: &crate::pgn::Token<'_>) -> String {
    let why = why.to_string();
    if token.text.len() <= QUOTED_WHOLE {
        return why;
    }
    why.replace(&*String::from_utf8_lossy(token.text), &quoted(token.text))
}

/// A move as a person names it: `move 12... Nf6`.
fn named(number: MoveNumber, token: &crate::pgn::Token<'_>) -> String {
    let text = quoted(token.text);
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
    let why = shorten_token_in(why, token);
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
