//! Perft: count the leaf nodes of the legal move tree to a fixed depth, the
//! standard test of a move generator against published tables.

use super::moves::Move;
use super::position::Position;

/// Number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by root move: each legal move with the count below it, in
/// generation order. Depth 0 gives no moves.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
