//! Why a move's text cannot be played in a position, in the words every
//! command uses for it: a report's `error`, `convert`'s note and stop
//! comment, a record file's stopped line. One wording, so that a game
//! converted twice says the same thing both times (the second conversion
//! reads the move the first one stopped at, from the PGN the first wrote).

use super::NotationError;
use crate::xiangqi::Position;

/// The null-move spellings chess movetext uses (docs/chess.md). Xiangqi
/// has no null move: pyffish, the oracle, refuses `0000`, and no xiangqi
/// notation or record format writes a pass, so such a token stops the
/// replay, named for what it is.
const NULL_MOVES: [&str; 4] = ["--", "Z0", "0000", "@@@@"];

/// Whether `text` is one of chess's null-move spellings.
fn is_null_move(text: &str) -> bool {
    NULL_MOVES.contains(&text.trim().trim_end_matches(['+', '#']))
}

/// Why a xiangqi move could not be read or played.
pub struct MoveFailure {
    /// In words, without the move's text (the messages name it already).
    pub why: String,
    /// The text is no move whatever the position: in none of the
    /// notations, or not shaped like a move in the one it looks like.
    pub not_a_move: bool,
    /// The game was already over (checkmate or stalemate: no move at all
    /// could be played), which `why` then says instead, as the chess
    /// replay does (docs/outcomes.md, "Broken games").
    pub game_over: bool,
}

/// Why `text` could not be played in `pos`, the position after `ply`
/// plies of its line, given the notation's `error`. A null move is a
/// move, which xiangqi does not have.
#[cold]
#[inline(never)]
pub fn move_failure(pos: &Position, error: &NotationError, text: &str, ply: u32) -> MoveFailure {
    let null = is_null_move(text);
    let not_a_move = !null
        && matches!(
            error,
            NotationError::Empty
                | NotationError::Unrecognized { .. }
                | NotationError::Syntax { .. }
        );
    let (why, game_over) = if not_a_move {
        (reason(error, text), false)
    } else if pos.legal_moves().is_empty() {
        let end = if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        (
            format!("the game was already over at ply {ply} ({end})"),
            true,
        )
    } else if null {
        let why = "a null move, which xiangqi does not have (pyffish refuses one too)";
        (why.to_string(), false)
    } else {
        (reason(error, text), false)
    };
    MoveFailure {
        why,
        not_a_move,
        game_over,
    }
}

/// `error` in words, without the move's text that its message starts
/// with.
fn reason(error: &NotationError, text: &str) -> String {
    let why = error.to_string();
    match why
        .strip_prefix(text)
        .and_then(|rest| rest.strip_prefix(": "))
    {
        Some(rest) => rest.to_string(),
        None => why,
    }
}
