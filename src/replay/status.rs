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
    /// The game's text comes from compressed data that failed its check (a
    /// gzip member or zip member whose CRC-32 does not match, data that
    /// cannot be decoded): the text is not what was compressed, so the
    /// game was not replayed. It is the input's fault, not the game's, so
    /// such a game does not count as broken.
    DamagedInput,
}

impl Status {
    /// All statuses, in the order the summary lists them.
    pub const ALL: [Status; 6] = [
        Status::Ok,
        Status::IllegalMove,
        Status::BadFen,
        Status::ParseError,
        Status::Unsupported,
        Status::DamagedInput,
    ];

    /// The word written in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::IllegalMove => "illegal_move",
            Status::BadFen => "bad_fen",
            Status::ParseError => "parse_error",
            Status::Unsupported => "unsupported",
            Status::DamagedInput => "damaged_input",
        }
    }

    /// Whether a game of this status counts as broken: it did not replay
    /// to its end through a fault of its own (not of the input it is in).
    pub fn is_broken(self) -> bool {
        !matches!(self, Status::Ok | Status::DamagedInput)
    }
}
