//! What makes a position that pgnmill can play impossible in a real game:
//! the checks of python-chess 1.11.2's `Board.status()` that its parser
//! lets through, one word each (`pgnmill fen`'s `problems` column,
//! docs/reports.md). The others are refused before: no king or two kings
//! of a colour is `bad_fen`, and castling rights the board contradicts are
//! the audit's `castling_invalid`.
//!
//! Asked once per FEN, never during a replay.

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Role};

/// One impossibility, in the order the column lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Problem {
    /// The side not to move is in check (kings that touch included):
    /// python-chess `STATUS_OPPOSITE_CHECK`.
    OppositeCheck,
    /// A pawn on the first or last rank: `STATUS_PAWNS_ON_BACKRANK`.
    PawnsOnBackrank,
    /// An en-passant square that no double step can have made (off the
    /// side to move's 6th rank, no pawn in front of it, occupied squares);
    /// the position is played without it:
    /// `STATUS_INVALID_EP_SQUARE`.
    InvalidEpSquare,
    /// More than two pieces give check: `STATUS_TOO_MANY_CHECKERS`.
    TooManyCheckers,
    /// A check no last move can have given (two checkers on one line
    /// with the king; a check that the double step named by the
    /// en-passant square cannot explain): `STATUS_IMPOSSIBLE_CHECK`.
    ImpossibleCheck,
    /// More than 16 pieces of a colour: `STATUS_TOO_MANY_*_PIECES`.
    TooManyPieces,
    /// More than 8 pawns of a colour: `STATUS_TOO_MANY_*_PAWNS`.
    TooManyPawns,
}

impl Problem {
    /// The word of the `problems` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Problem::OppositeCheck => "opposite_check",
            Problem::PawnsOnBackrank => "pawns_on_backrank",
            Problem::InvalidEpSquare => "invalid_ep_square",
            Problem::TooManyCheckers => "too_many_checkers",
            Problem::ImpossibleCheck => "impossible_check",
            Problem::TooManyPieces => "too_many_pieces",
            Problem::TooManyPawns => "too_many_pawns",
        }
    }
}

/// The problems of `pos`, the position `setup` became, in [`Problem`]
/// order. `setup` holds the en-passant square as written, which the
/// position dropped if no double step can explain it.
pub fn problems(setup: &Setup, pos: &Position) -> Vec<Problem> {
    let b = pos.board();
    let mut out = Vec::new();
    let us = pos.turn();
    let their_king = b.by_piece(!us, Role::King);
    if their_king
        .into_iter()
        .any(|k| (pos.attackers_to(k, b.occupied()) & b.by_color(us)).nonempty())
    {
        out.push(Problem::OppositeCheck);
    }
    let back_ranks = Bitboard::rank(0) | Bitboard::rank(7);
    if (b.by_role(Role::Pawn) & back_ranks).nonempty() {
        out.push(Problem::PawnsOnBackrank);
    }
    if setup.ep_square.is_some() && pos.ep_square() != setup.ep_square {
        out.push(Problem::InvalidEpSquare);
    }
    let checkers = pos.checkers();
    if checkers.count() > 2 {
        out.push(Problem::TooManyCheckers);
    }
    if checkers.nonempty() && impossible_check(pos, checkers) {
        out.push(Problem::ImpossibleCheck);
    }
    if Color::ALL.iter().any(|&c| b.by_color(c).count() > 16) {
        out.push(Problem::TooManyPieces);
    }
    if Color::ALL
        .iter()
        .any(|&c| b.by_piece(c, Role::Pawn).count() > 8)
    {
        out.push(Problem::TooManyPawns);
    }
    out
}

/// python-chess's test for a check that no last move can have given.
/// With an en-passant square, the last move was that double step: only
/// the pushed pawn, or a piece it uncovered, can give check. Without one,
/// two checkers (a discovered and a direct check) never stand on one line
/// with the king, and three never check at once.
fn impossible_check(pos: &Position, checkers: Bitboard) -> bool {
    let b = pos.board();
    let king = b.by_piece(pos.turn(), Role::King);
    let count = checkers.count();
    match pos.ep_square() {
        Some(ep) => {
            let pushed_to = Square::from_index_masked(ep.index() as u32 ^ 8);
            let pushed_from = Square::from_index_masked(ep.index() as u32 ^ 24);
            let before = (b.occupied().without(pushed_to)) | pushed_from;
            let last = checkers.last();
            count > 1
                || (last != Some(pushed_to)
                    && king.into_iter().any(|k| {
                        (pos.attackers_to(k, before) & b.by_color(!pos.turn())).nonempty()
                    }))
        }
        None => {
            let aligned = match (checkers.first(), checkers.last()) {
                (Some(a), Some(z)) => (attacks::line(a, z) & king).nonempty(),
                _ => false,
            };
            count > 2 || (count == 2 && aligned)
        }
    }
}
