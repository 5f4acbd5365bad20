//! The board as notation sees it: a trait the rules kernel's position
//! implements, so that the notation code does not depend on the kernel.

use crate::xiangqi::types::{Color, Move, Piece, Square};

/// What notation needs to know about a position.
///
/// Reading needs the legal moves (a text names a move only if it is legal);
/// writing needs only the pieces.
pub trait NotationBoard {
    /// The piece standing on `sq`, if any.
    fn piece_at(&self, sq: Square) -> Option<Piece>;
    /// The side to move.
    fn turn(&self) -> Color;
    /// Calls `visit` once for every legal move of the side to move. A
    /// callback rather than a `Vec` so that a kernel can hand out moves from
    /// its own stack-allocated list.
    fn for_each_legal_move(&self, visit: &mut dyn FnMut(Move));
    /// Whether `m` is a legal move of the side to move. Reading a move asks
    /// this once per piece the text could mean (usually one), so a kernel
    /// with a direct test should override the default, which scans
    /// [`for_each_legal_move`](Self::for_each_legal_move).
    fn is_legal(&self, m: Move) -> bool {
        let mut found = false;
        self.for_each_legal_move(&mut |l| found |= l == m);
        found
    }
}
