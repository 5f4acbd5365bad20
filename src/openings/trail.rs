//! The keys of a game's first positions, kept during its replay and looked
//! up in the table once the game is over.

use super::hit::Table;
use super::{OpeningBook, OpeningHit, TableKind};

/// Keys kept in place: lichess's table is 36 plies deep, and the replay's
/// line recorder keeps as many moves in place (`INLINE_PLIES` there), so
/// that one test of the ply serves both. A deeper user table keeps the
/// rest in a vector.
pub const INLINE_KEYS: usize = 256;
const INLINE: usize = INLINE_KEYS;

/// The position keys after each of a game's first plies, stored at the
/// ply's own index (past the table's depth too, while there is room in
/// place: a store costs less than a test): the replay loop pays a store
/// for them, and keeps no count of its own. The table
/// is asked only by [`OpeningTrail::classify`], from the deepest ply down,
/// stopping at the first hit: most keys past a game's opening are turned
/// away by the table's bit filter alone. A replay thread keeps one trail
/// for all its games ([`OpeningTrail::start`]).
#[derive(Debug)]
pub struct OpeningTrail {
    keys: [u64; INLINE],
    more: Vec<u64>,
    depth: u32,
}

impl Default for OpeningTrail {
    fn default() -> Self {
        OpeningTrail {
            keys: [0; INLINE],
            more: Vec::new(),
            depth: 0,
        }
    }
}

impl OpeningTrail {
    /// A trail for a game of `kind` named from `book`; `named` false (a
    /// Chess960 game, a `[FEN]` start) keeps nothing.
    pub fn new(book: &OpeningBook, kind: TableKind, named: bool) -> Self {
        let mut trail = OpeningTrail::default();
        trail.start(book, kind, named);
        trail
    }

    /// Starts the trail of a new game, as [`OpeningTrail::new`].
    pub fn start(&mut self, book: &OpeningBook, kind: TableKind, named: bool) {
        self.depth = if named { book.depth(kind) } else { 0 };
        self.more.clear();
    }

    /// Keeps `key`, the position after ply `ply` + 1 (plies are pushed in
    /// order from 0), while the game is within the table's depth.
    #[inline(always)]
    pub fn push(&mut self, ply: u32, key: u64) {
        match (ply as usize) < INLINE {
            true => self.store_inline(ply as usize, key),
            false => self.push_more(ply, key),
        }
    }

    /// Keeps the key of ply `at` (< the room in place) whatever the depth:
    /// [`OpeningTrail::deepest`] reads no deeper than the table.
    #[inline(always)]
    pub(crate) fn store_inline(&mut self, at: usize, key: u64) {
        if let Some(slot) = self.keys.get_mut(at) {
            *slot = key;
        }
    }

    /// Keeps the key of a ply past the room in place, within the depth.
    pub(crate) fn push_more(&mut self, ply: u32, key: u64) {
        if ply < self.depth {
            self.more.push(key);
        }
    }

    /// The keys kept of a game of `plies` plies.
    fn kept(&self, plies: u32) -> (&[u64], &[u64]) {
        let kept = plies.min(self.depth) as usize;
        (&self.keys[..kept.min(INLINE)], &self.more)
    }

    /// The deepest position of a game of `plies` plies that `table` (the
    /// book the trail was made with) names (lichess's rule).
    pub fn classify(&self, table: &Table, kind: TableKind, plies: u32) -> Option<OpeningHit> {
        let (entry, ply) = self.deepest(table.book(), kind, plies)?;
        Some(OpeningHit::new(table.clone(), entry, ply))
    }

    /// The entry naming the deepest position of a game of `plies` plies
    /// that `book` names, and that position's ply (from 1).
    pub fn deepest(&self, book: &OpeningBook, kind: TableKind, plies: u32) -> Option<(u32, u32)> {
        let (inline, more) = self.kept(plies);
        let (entry, at) = match book.deepest(kind, more) {
            Some((entry, at)) => (entry, INLINE + at),
            None => book.deepest(kind, inline)?,
        };
        Some((entry, at as u32 + 1))
    }
}
