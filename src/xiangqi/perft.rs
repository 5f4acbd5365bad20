//! Perft: the number of leaf nodes of the legal-move tree to a given depth,
//! the standard check of a move generator against published counts.

use super::position::Position;
use super::types::Move;

/// Leaf nodes of the legal-move tree `depth` plies deep (1 at depth 0).
///
/// The last ply is counted, not played ("bulk counting"): at depth 1 the
/// answer is the number of legal moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by first move: each legal move with the leaf count below it
/// (`depth - 1` further plies). Empty at depth 0.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
