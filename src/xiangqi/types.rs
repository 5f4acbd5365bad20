//! What things are in xiangqi: squares, colours, roles, pieces and moves.
//!
//! Every other xiangqi module (board, movegen, fen, notation) speaks in these
//! types, so that a file index can never be confused with a square index, or
//! red's file numbering with black's.

use std::fmt;

/// Number of files (a..i) and ranks (0..9) on the board.
pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const NUM_SQUARES: usize = 90;

/// One of the two sides. Red moves first and sits on ranks 0-4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    /// The other side.
    pub fn opposite(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for red, 1 for black: an index into per-colour tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The seven kinds of piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    King,
    Advisor,
    Elephant,
    Horse,
    Rook,
    Cannon,
    Pawn,
}

impl Role {
    /// 0..7: an index into per-role tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter written for this role (upper case), as pyffish and
    /// xqbase write it: K A B N R C P.
    pub fn fen_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case; accepts the alternative letters
    /// `H` (horse) and `E` (elephant) used by the chessprogramming wiki.
    pub fn from_fen_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }
}

/// A piece: a role of one colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for red, lower case for black.
    pub fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (case gives the colour; `H`/`E` accepted).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A point of the board, `rank * 9 + file`, with file 0..9 = ICCS `a`..`i`
/// (red's left to red's right) and rank 0..10 = ICCS `0`..`9` (red's back
/// rank upward). The invariant `index < 90` holds for every value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square in index order (`a0`, `b0`, … `i9`). Lets the kernel's
    /// precomputed tables (built in `const` context) name squares without a
    /// fallible conversion in the move generator's hot loops.
    pub const ALL: [Square; NUM_SQUARES] = {
        let mut all = [Square(0); NUM_SQUARES];
        let mut i = 0;
        while i < NUM_SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at `file` (0..9) and `rank` (0..10), if on the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < FILES && rank < RANKS).then(|| Square(rank * FILES + file))
    }

    /// The square with this index (0..90), if on the board.
    pub fn from_index(index: usize) -> Option<Square> {
        (index < NUM_SQUARES).then_some(Square(index as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The same as [`Square::index`], usable in `const` context (the
    /// kernel's compile-time tables).
    pub const fn index_const(self) -> usize {
        self.0 as usize
    }

    /// ICCS file: 0 = `a` .. 8 = `i`.
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// ICCS rank: 0 = red's back rank .. 9 = black's back rank.
    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The square moved by (`df`, `dr`), if still on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if (0..FILES as i8).contains(&f) && (0..RANKS as i8).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    }

    /// Parses an ICCS square such as `e0` or `H2` (case-insensitive).
    pub fn from_iccs(bytes: &[u8]) -> Option<Square> {
        match bytes {
            [f, r] => {
                let f = f.to_ascii_lowercase();
                if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
                    Square::new(f - b'a', r - b'0')
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    /// ICCS form, lower case: `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move from one point to another. Xiangqi has no promotion, castling or
/// en passant, so this is all a move needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Parses ICCS: `h2e2`, `H2-E2` (case-insensitive, optional hyphen).
    pub fn from_iccs(text: &str) -> Option<Move> {
        let b = text.as_bytes();
        let (from, to) = match b.len() {
            4 => (&b[0..2], &b[2..4]),
            5 if b[2] == b'-' => (&b[0..2], &b[3..5]),
            _ => return None,
        };
        Some(Move::new(Square::from_iccs(from)?, Square::from_iccs(to)?))
    }
}

impl fmt::Display for Move {
    /// ICCS form, lower case, no hyphen: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip_uses_ranks_zero_to_nine() {
        let m = Move::from_iccs("H2-E2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.from.file(), 7);
        assert_eq!(m.from.rank(), 2);
        assert!(Move::from_iccs("a10a9").is_none());
        assert!(Move::from_iccs("j0a0").is_none());
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let corner = Square::new(0, 0).unwrap();
        assert!(corner.offset(-1, 0).is_none());
        assert_eq!(corner.offset(8, 9), Square::new(8, 9));
        assert!(corner.offset(9, 0).is_none());
    }
}
