//! Zobrist keys: a 64-bit hash of FEN fields 1-4, kept up to date move by
//! move so that repetition counting never builds a FEN string.
//!
//! The numbers come from a fixed splitmix64 sequence computed at compile
//! time, so keys are stable across runs and machines (a key can be stored).

use super::bitboard::Bitboard;
use super::square::Square;
use super::types::{Color, Role};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// 768 piece-square keys, 64 castling-rook keys, 8 en-passant file keys, 1
/// side-to-move key.
const fn table() -> [u64; 841] {
    let mut out = [0u64; 841];
    let mut state = 0x5047_4e4d_696c_6c21; // "PGNMill!"
    let mut i = 0;
    while i < 841 {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

static KEYS: [u64; 841] = table();

/// The 768 piece-square keys of [`KEYS`] by colour, role and square: make-move
/// reads three or four of them a ply, and this shape needs no bounds check.
static PIECE_KEYS: [[[u64; 64]; 6]; 2] = {
    let keys = table();
    let mut out = [[[0u64; 64]; 6]; 2];
    let mut i = 0;
    while i < 768 {
        out[i / 384][(i / 64) % 6][i % 64] = keys[i];
        i += 1;
    }
    out
};

/// Key of `color`'s `role` standing on `sq`.
#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index() & 63]
}

/// Key of a set of castling rights, given as the rooks' squares. The set of
/// rook squares determines the castling field given the board, and vice
/// versa, so hashing the squares hashes the field.
#[inline]
pub fn castling(rooks: Bitboard) -> u64 {
    rooks.fold(0, |k, sq| k ^ KEYS[768 + sq.index()])
}

/// Key of an en-passant square (only its file matters: its rank follows from
/// the side to move).
#[inline]
pub fn ep(sq: Square) -> u64 {
    KEYS[832 + sq.file() as usize]
}

/// Key added when black is to move.
#[inline]
pub fn black_to_move() -> u64 {
    KEYS[840]
}
