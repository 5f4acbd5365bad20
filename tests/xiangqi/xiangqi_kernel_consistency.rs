//! Internal consistency of the kernel along random games (proptest picks
//! the moves): the fast legality filter equals a plain "play it and look for
//! any attack on the king" filter, `is_legal` agrees with `legal_moves` on
//! every from/to pair, and the incremental key and FEN equal those of a
//! position rebuilt from the FEN. The rules themselves are proven against
//! pyffish in the other `xiangqi_kernel_*` tests; this one guards the
//! shortcuts taken for speed.

use pgnmill::xiangqi::Position;
use pgnmill::xiangqi::attacks::king_attacked;
use pgnmill::xiangqi::movegen::{MoveList, piece_candidates};
use pgnmill::xiangqi::types::{Move, Square};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Legal moves by brute force: every candidate, played on a copy of the
/// board, must leave the mover's king unattacked (and not facing the other).
fn reference_legal(pos: &Position) -> BTreeSet<(usize, usize)> {
    let us = pos.turn();
    let mut out = BTreeSet::new();
    for (from, piece) in pos.board().pieces() {
        if piece.color != us {
            continue;
        }
        let mut candidates = MoveList::new();
        piece_candidates(pos.board(), from, piece, &mut candidates);
        for &m in candidates.iter() {
            let mut board = *pos.board();
            let moving = board.set(m.from, None);
            board.set(m.to, moving);
            let king = if m.from == pos.king(us) {
                m.to
            } else {
                pos.king(us)
            };
            if !king_attacked(&board, king, us.opposite()) {
                out.insert((m.from.index(), m.to.index()));
            }
        }
    }
    out
}

fn check_position(pos: &Position) {
    let legal = pos.legal_moves();
    let fast: BTreeSet<(usize, usize)> = legal
        .iter()
        .map(|m| (m.from.index(), m.to.index()))
        .collect();
    assert_eq!(fast.len(), legal.len(), "duplicate moves in {}", pos.fen());
    assert_eq!(
        fast,
        reference_legal(pos),
        "legal set differs in {}",
        pos.fen()
    );
    for from in Square::ALL {
        for to in Square::ALL {
            let m = Move::new(from, to);
            assert_eq!(
                pos.is_legal(m),
                fast.contains(&(from.index(), to.index())),
                "is_legal({m}) in {}",
                pos.fen()
            );
        }
    }
    let rebuilt = Position::from_fen(&pos.fen()).expect("own FEN reads back");
    assert_eq!(&rebuilt, pos, "FEN round trip");
    assert_eq!(rebuilt.key(), pos.key(), "incremental key");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A random game of up to 160 plies from the start position; `choices`
    /// picks each move by index among the legal ones.
    #[test]
    fn random_games_stay_consistent(choices in prop::collection::vec(any::<u16>(), 1..160)) {
        let mut pos = Position::startpos();
        for (ply, choice) in choices.iter().enumerate() {
            if ply % 8 == 0 {
                check_position(&pos);
            }
            let legal = pos.legal_moves();
            if legal.is_empty() {
                prop_assert!(reference_legal(&pos).is_empty());
                break;
            }
            let m = legal[usize::from(*choice) % legal.len()];
            pos.play(m);
        }
        check_position(&pos);
    }
}
