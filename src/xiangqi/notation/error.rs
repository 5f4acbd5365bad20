//! Why a move text could not be read, or a move could not be written.
//!
//! Every message starts with the text (or move) concerned and then says what
//! was wrong in words a game collector understands: which piece is missing,
//! which move is not legal, which moves were all meant.

use crate::xiangqi::notation::Notation;
use crate::xiangqi::types::Move;

/// A failure to read or write a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing but white space.
    #[error("empty move text")]
    Empty,
    /// The text does not have the shape of a move in any known notation.
    #[error("{text}: not a move in Chinese, WXF, ICCS or SAN notation")]
    Unrecognized { text: String },
    /// The text is not shaped like a move in the notation asked for.
    #[error("{text}: not a {notation} move: {reason}")]
    Syntax {
        text: String,
        notation: Notation,
        reason: String,
    },
    /// The board has no piece where the text says, e.g. "no red cannon on
    /// file 二".
    #[error("{text}: {reason}")]
    NoSuchPiece { text: String, reason: String },
    /// The piece exists but the move the text describes is impossible or
    /// not legal in this position.
    #[error("{text}: {reason}")]
    Illegal { text: String, reason: String },
    /// More than one legal move fits the text.
    #[error("{text}: {reason}")]
    Ambiguous { text: String, reason: String },
    /// The move cannot be expressed in the notation (no piece of the side to
    /// move on its origin square, or a shape no piece makes).
    #[error("{mv}: cannot be written in {notation}: {reason}")]
    Unwritable {
        mv: Move,
        notation: Notation,
        reason: String,
    },
}

impl NotationError {
    /// A syntax error; a helper so parsers stay short.
    pub(crate) fn syntax(text: &str, notation: Notation, reason: impl Into<String>) -> Self {
        NotationError::Syntax {
            text: text.to_owned(),
            notation,
            reason: reason.into(),
        }
    }
}
