//! What the lichess rule found of one game: the table entry of the deepest
//! position the game reached, and the recorded tags that disagree.

use std::sync::Arc;

use super::book::OpeningBook;

/// The table a game was named from: the compiled-in one, a `'static`
/// reached without touching a shared counter, or a user's (`--openings`),
/// shared by the games it names.
#[derive(Clone, Debug)]
pub enum Table {
    CompiledIn,
    User(Arc<OpeningBook>),
}

impl Table {
    /// The book itself.
    pub fn book(&self) -> &OpeningBook {
        match self {
            Table::CompiledIn => super::compiled_in(),
            Table::User(book) => book,
        }
    }
}

/// A game's opening: the table entry of the deepest hit and its ply.
#[derive(Clone, Debug)]
pub struct OpeningHit {
    pub(super) table: Table,
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
    /// Entry `entry` of `table`, reached at ply `ply` (from 1).
    pub fn new(table: Table, entry: u32, ply: u32) -> Self {
        OpeningHit { table, entry, ply }
    }

    /// `eco`: the entry's ECO code as the table writes it.
    pub fn eco(&self) -> &str {
        self.table.book().entry(self.entry).0
    }

    /// `opening`: the entry's name.
    pub fn name(&self) -> &str {
        self.table.book().entry(self.entry).1
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
