//! Zobrist keys: one random 64-bit number per (piece, point) and one for
//! "black to move". A position's key is the XOR of the numbers that apply,
//! so `play` updates it with two or three XORs instead of rehashing the
//! board, and equal placements with the same side to move get equal keys
//! (what repetition counting needs).
//!
//! The numbers come from a fixed-seed SplitMix64 stream computed at compile
//! time, so keys are stable across runs and platforms.

use super::types::{Color, NUM_SQUARES, Piece, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const SEED: u64 = 0x7869_616E_6771_6921; // "xiangqi!"

/// `[colour * 7 + role][square]`.
static PIECE_SQUARE: [[u64; NUM_SQUARES]; 14] = {
    let mut t = [[0u64; NUM_SQUARES]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < NUM_SQUARES {
            let (next, value) = splitmix64(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
};

/// XORed in when black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(SEED ^ 0x5555_5555_5555_5555).1;

/// The key part for `piece` standing on `sq`.
#[inline]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.color.index() * 7 + piece.role.index()][sq.index()]
}

/// The key part for the side to move.
#[inline]
pub fn side(color: Color) -> u64 {
    match color {
        Color::Red => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}
