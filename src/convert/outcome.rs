//! What converting one game came to: converted, stopped at a move (where
//! and why), or passed through as not xiangqi.

use crate::replay::quoted;

/// What happened to one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every main-line move was converted.
    Converted { plies: u32 },
    /// Converted up to a move that could not be read (or a `[FEN]` that
    /// could not be used); that move and the rest are kept as written.
    Stopped(Failure),
    /// Not a xiangqi game: the text is passed through unchanged.
    NotXiangqi { variant: String },
}

/// Where and why a game's conversion stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1-based ply of the move that failed (0 for a bad `[FEN]`).
    pub ply: u32,
    /// 1-based source line of the move (or of the game for a bad `[FEN]`).
    pub line: u64,
    /// The move as written (empty for a bad `[FEN]`); messages quote a
    /// long one by its start and length.
    pub text: String,
    /// Why, in words.
    pub reason: String,
}

impl Failure {
    /// The failure without its line, for the converted text itself (the
    /// line is the input's, not the output's): `ply 115 "将5进2": reason`.
    pub fn in_text(&self) -> String {
        if self.ply == 0 {
            self.reason.clone()
        } else {
            format!(
                "ply {} \"{}\": {}",
                self.ply,
                quoted(self.text.as_bytes()),
                self.reason
            )
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.ply == 0 {
            write!(f, "line {}: {}", self.line, self.reason)
        } else {
            write!(
                f,
                "ply {} (line {}) \"{}\": {}",
                self.ply,
                self.line,
                quoted(self.text.as_bytes()),
                self.reason
            )
        }
    }
}
