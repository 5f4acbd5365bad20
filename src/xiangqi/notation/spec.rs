//! What a Chinese or WXF move text says, before the board is consulted.
//!
//! Both notations name a piece (by its file, or by its place in a stack of
//! like pieces), a direction and a number. Holding that in one type lets a
//! single resolver ([`super::resolve`]) serve every dialect, so 前车进一,
//! `R+.1` and pyffish's `R5+1` all go through the same checks.

use crate::xiangqi::types::Role;

pub use super::characters::Direction;

/// Which of the mover's pieces of one kind is meant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Which {
    /// The piece on this own-numbered file (1..=9). If several stand there,
    /// the move shape has to single one out (pyffish's `R5-3`).
    File(u8),
    /// A place in a stack: on the given own-numbered file, or, when `file`
    /// is `None`, on whichever file holds two or more such pieces.
    Stack { at: StackPlace, file: Option<u8> },
}

/// A place in a stack of like pieces on one file, counted from the front
/// (the piece nearest the opponent).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StackPlace {
    /// 前, WXF `+` on a two-file stack, `++` on one file.
    Front,
    /// 中: the middle of three (or of five), WXF `77`.
    Middle,
    /// 后, WXF `-` on a two-file stack, `--` on one file.
    Rear,
    /// The n-th from the front, 1-based: 一兵..五兵 (numbered across all
    /// stacked files when no file is given), 二兵 in traditional text,
    /// pyffish `27`.
    Nth(u8),
    /// WXF `P+`: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF `P-`: the rear one of two or three, the second-to-last of four or
    /// five.
    WxfMinus,
}

/// A move as the text describes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    pub role: Role,
    pub which: Which,
    pub direction: Direction,
    /// Ranks moved, or the destination's own file number (1..=9).
    pub number: u8,
    /// WXF `P7.8` on a file of three or five pawns means the middle one; set
    /// when the text came from WXF so that an otherwise ambiguous
    /// [`Which::File`] picks the middle pawn.
    pub file_means_middle: bool,
}
