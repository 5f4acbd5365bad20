//! The kernel's [`Position`] seen through the notation's [`NotationBoard`]
//! trait: this is the one place where the two meet.

use super::notation::NotationBoard;
use super::position::Position;
use super::types::{Color, Move, Piece, Square};

impl NotationBoard for Position {
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        Position::piece_at(self, sq)
    }

    fn turn(&self) -> Color {
        Position::turn(self)
    }

    fn for_each_legal_move(&self, visit: &mut dyn FnMut(Move)) {
        for &m in self.legal_moves().iter() {
            visit(m);
        }
    }
}
