//! The board as a mailbox: what stands on each of the 90 points, plus the
//! board regions the rules talk about (palaces, own half of the board).
//!
//! A mailbox of 90 `Option<Piece>` (180 bytes) is small enough that a
//! `Position` is cheap to copy, and the move generator reads it through
//! precomputed step tables (see `attacks`), so no bitboards are needed for
//! the speed a replay tool wants.

use super::types::{Color, NUM_SQUARES, Piece, Square};

/// What stands on each point of the board.
///
/// Besides the mailbox it keeps one occupancy bit set per colour (bit =
/// square index), so the move generator visits a side's pieces without
/// scanning all 90 points. Both are updated together by [`Board::set`], the
/// only way to change a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; NUM_SQUARES],
    occupied: [u128; 2],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            squares: [None; NUM_SQUARES],
            occupied: [0; 2],
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        // `Square` guarantees index < 90, so this never goes out of bounds.
        self.squares[sq.index()]
    }

    /// Puts `piece` (or nothing) on `sq`, returning what stood there.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) -> Option<Piece> {
        let old = std::mem::replace(&mut self.squares[sq.index()], piece);
        let bit = 1u128 << sq.index();
        if let Some(p) = old {
            self.occupied[p.color.index()] &= !bit;
        }
        if let Some(p) = piece {
            self.occupied[p.color.index()] |= bit;
        }
        old
    }

    /// The points holding a piece of `color`, in square index order.
    #[inline]
    pub fn squares_of(&self, color: Color) -> SquareSet {
        SquareSet(self.occupied[color.index()])
    }

    /// Every occupied point with its piece, in square index order
    /// (`a0`, `b0`, … `i9`).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::ALL
            .iter()
            .zip(self.squares.iter())
            .filter_map(|(&sq, p)| p.map(|p| (sq, p)))
    }
}

/// Whether `sq` is inside `color`'s palace (files d-f, ranks 0-2 for red,
/// 7-9 for black), the only points its king and advisors may move to.
#[inline]
pub fn in_palace(color: Color, sq: Square) -> bool {
    let (f, r) = (sq.file(), sq.rank());
    (3..=5).contains(&f)
        && match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        }
}

/// A set of points as bits (bit n = square index n), iterated in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareSet(u128);

impl Iterator for SquareSet {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Square::from_index(index)
    }
}
