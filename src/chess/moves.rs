//! Moves as 16-bit words, and a fixed-capacity move list (no heap).
//!
//! Castling is stored as "king takes own rook" (`to` is the rook's square):
//! that form is unambiguous in Chess960, where the king may not move at all
//! or may land on the rook's square. UCI and SAN writers translate it.

use super::square::Square;
use super::types::Role;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    EnPassant,
    /// King takes own rook; the rook's square is `to`.
    Castle,
    /// Passes the turn (PGN `--` / `Z0`).
    Null,
    Promotion(Role),
}

/// A move: from (6 bits), to (6 bits), kind (4 bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(u16);

const K_NORMAL: u16 = 0;
const K_EP: u16 = 1;
const K_CASTLE: u16 = 2;
const K_NULL: u16 = 3;
const K_PROMO: u16 = 4; // + role index - 1 (knight..queen => 4..7)

impl Move {
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | K_NORMAL << 12)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | K_EP << 12)
    }

    /// Castling of the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | K_CASTLE << 12)
    }

    /// A promotion to `role` (knight, bishop, rook or queen; a king or pawn
    /// is treated as a queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let r = match role {
            Role::Knight => 0,
            Role::Bishop => 1,
            Role::Rook => 2,
            _ => 3,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | (K_PROMO + r) << 12)
    }

    /// The null move.
    #[inline]
    pub const fn null() -> Move {
        Move(K_NULL << 12)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 & 63) as u32)
    }

    /// Destination; for castling the castling rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index_masked(((self.0 >> 6) & 63) as u32)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            K_NORMAL => MoveKind::Normal,
            K_EP => MoveKind::EnPassant,
            K_CASTLE => MoveKind::Castle,
            K_NULL => MoveKind::Null,
            4 => MoveKind::Promotion(Role::Knight),
            5 => MoveKind::Promotion(Role::Bishop),
            6 => MoveKind::Promotion(Role::Rook),
            _ => MoveKind::Promotion(Role::Queen),
        }
    }

    /// The move's 16-bit word, `from | to << 6 | kind << 12` (kind 0 a
    /// normal move, 1 en passant, 2 castling with `to` the rook's square,
    /// 3 the null move, 4-7 a promotion to knight, bishop, rook, queen):
    /// its encoding in a line key (docs/reports.md, `line_key`).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 >> 12 == K_NULL
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == K_CASTLE
    }

    /// The promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }
}

/// Upper bound on legal moves in any reachable position is 218; 256 leaves
/// room for unreachable setups (a board full of queens).
pub const MAX_MOVES: usize = 512;

/// Fixed-capacity list of moves, on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends; silently drops moves beyond capacity (cannot happen for a
    /// position with one king per side, which is all `Position` allows).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len.min(MAX_MOVES)]
    }

    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
