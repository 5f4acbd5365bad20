//! Squares, files and ranks: the coordinates every other chess module speaks.
//!
//! A [`Square`] is an index 0..64 with a1 = 0, b1 = 1, ..., h8 = 63, so that
//! bit `i` of a [`crate::chess::Bitboard`] is square `i`. The newtype makes it
//! impossible to pass a file or a move where a square is wanted.

use std::fmt;

/// One of the 64 squares, a1 = 0 ... h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const E1: Square = Square(4);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index & 63`: for callers that already know the
    /// index is in range (bit scans of a non-empty bitboard).
    #[inline]
    pub const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), both taken mod 8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square(((rank & 7) << 3) | (file & 7))
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (0 = a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Parses `e4`-style coordinates from exactly two bytes.
    pub fn parse(bytes: &[u8]) -> Option<Square> {
        match bytes {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// The file letter, `'a'..='h'`.
    #[inline]
    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'..='8'`.
    #[inline]
    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}
