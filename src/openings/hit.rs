//! What the lichess rule found of one game: the table entry of the deepest
//! position the game reached, and the recorded tags that disagree.

use std::sync::Arc;

use super::book::OpeningBook;

/// A game's opening: the table entry of the deepest hit and its ply.
#[derive(Clone, Debug)]
pub struct OpeningHit {
    pub(super) book: Arc<OpeningBook>,
    pub(super) entry: u32,
    /// `opening_ply`: the ply (from 1) after which the position was found.
    pub ply: u32,
}

impl PartialEq for OpeningHit {
    fn eq(&self, other: &Self) -> bool {
        self.eco() == other.eco() && self.name() == other.name() && self.ply == other.ply
    }
}

impl Eq for OpeningHit {}

impl OpeningHit {
    /// `eco`: the entry's ECO code as the table writes it.
    pub fn eco(&self) -> &str {
        self.book.entry(self.entry).0
    }

    /// `opening`: the entry's name.
    pub fn name(&self) -> &str {
        self.book.entry(self.entry).1
    }
}

/// What the replay found of a game's opening.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningFacts {
    /// `eco`, `opening`, `opening_ply`; `None` for games the rule does not
    /// name (Chess960, a `[FEN]` start, no hit).
    pub hit: Option<OpeningHit>,
    /// `opening_conflict`: the recorded `[ECO]`/`[Opening]` that differ
    /// from the hit (`conflict.rs`).
    pub conflict: Option<String>,
}
