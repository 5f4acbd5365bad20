//! The keys of a game's first positions, kept during its replay and looked
//! up in the table once the game is over.

use super::{OpeningBook, OpeningHit, TableKind};
use std::sync::Arc;

/// The position keys after each of a game's first plies, up to the
/// table's depth. Keeping a key is one compare and one store; the table
/// is asked only by [`OpeningTrail::classify`], from the deepest ply down.
#[derive(Debug)]
pub struct OpeningTrail {
    keys: Vec<u64>,
    depth: usize,
}

impl OpeningTrail {
    /// A trail for a game of `kind` named from `book`; `named` false (a
    /// Chess960 game, a `[FEN]` start) keeps nothing.
    pub fn new(book: &OpeningBook, kind: TableKind, named: bool) -> Self {
        let depth = if named { book.depth(kind) as usize } else { 0 };
        OpeningTrail {
            keys: Vec::with_capacity(depth),
            depth,
        }
    }

    /// Keeps the key of the position after the next ply, while the game is
    /// within the table's depth.
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        if self.keys.len() < self.depth {
            self.keys.push(key);
        }
    }

    /// The deepest kept position that the table names (lichess's rule).
    pub fn classify(&self, book: &Arc<OpeningBook>, kind: TableKind) -> Option<OpeningHit> {
        let (ply, entry) = self
            .keys
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, &key)| Some((i, book.find(kind, key)?)))?;
        Some(OpeningHit {
            book: Arc::clone(book),
            entry,
            ply: ply as u32 + 1,
        })
    }
}
