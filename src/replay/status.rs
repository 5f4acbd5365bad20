//! How far a game's replay got: the one word every row of the report
//! carries. It is what replay found, so it lives here; the report only
//! writes it.

use serde::Serialize;

/// How far a game got. Serialized in snake case: `ok`, `illegal_move`, ...
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every main-line move was replayed.
    Ok,
    /// A main-line move is not legal (or not readable) in its position; the
    /// game was replayed up to it.
    IllegalMove,
    /// The `[FEN]` header could not be read or describes no playable board.
    BadFen,
    /// The game text itself could not be read (e.g. a tag section that never
    /// closes, or bytes that are not a game at all).
    ParseError,
    /// A variant this tool does not replay (antichess, horde, ...).
    Unsupported,
}

impl Status {
    /// All statuses, in the order the summary lists them.
    pub const ALL: [Status; 5] = [
        Status::Ok,
        Status::IllegalMove,
        Status::BadFen,
        Status::ParseError,
        Status::Unsupported,
    ];

    /// The word written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::IllegalMove => "illegal_move",
            Status::BadFen => "bad_fen",
            Status::ParseError => "parse_error",
            Status::Unsupported => "unsupported",
        }
    }
}
