//! What makes a xiangqi position impossible in a real game, one word each
//! (`pgnmill fen`'s `problems` column, docs/reports.md), found on the board
//! as written, before any check that it can be played: a FEN that is
//! `bad_fen` for the kernel (a king outside its palace, kings that face
//! each other) still gets its words.
//!
//! The geometry is the rules' own (docs/xiangqi-notation.md): a piece
//! stands on a point its kind cannot reach from its start points only in
//! a made-up position. The test generator derives the same point sets
//! from pyffish's legal moves (testdata/gen/fen_expected.py).

use super::attacks::king_attacked;
use super::board::{Board, in_palace};
use super::position::kings_see_each_other;
use super::types::{Color, Piece, Role, Square};

/// At most this many pieces of a side (its 16 at the start).
const MAX_PIECES: usize = 16;

/// One impossibility, in the order the column lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Problem {
    /// The two kings face each other on a file with nothing between them
    /// (the side that made that move exposed its king).
    FlyingGeneral,
    /// The side not to move is in check by a piece (a rook, cannon, horse
    /// or pawn; facing kings are [`Problem::FlyingGeneral`]).
    OppositeCheck,
    /// An advisor off the five points of its palace it can reach (the
    /// corners and the centre).
    AdvisorOffPalace,
    /// An elephant off the seven points of its side it can reach.
    ElephantOffPoint,
    /// A pawn on a point no pawn of its side can reach: behind its start
    /// rank, or before the river on a file where no pawn starts (a pawn
    /// moves only forward until it crosses the river).
    PawnBehindStart,
    /// A king outside its palace.
    KingOffPalace,
    /// More than 16 pieces of a side.
    TooManyPieces,
}

impl Problem {
    /// The word of the `problems` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Problem::FlyingGeneral => "flying_general",
            Problem::OppositeCheck => "opposite_check",
            Problem::AdvisorOffPalace => "advisor_off_palace",
            Problem::ElephantOffPoint => "elephant_off_point",
            Problem::PawnBehindStart => "pawn_behind_start",
            Problem::KingOffPalace => "king_off_palace",
            Problem::TooManyPieces => "too_many_pieces",
        }
    }
}

/// The problems of `board` with `turn` to move, in [`Problem`] order.
pub fn problems(board: &Board, turn: Color) -> Vec<Problem> {
    let mut out = Vec::new();
    let kings = |c: Color| {
        board
            .pieces()
            .filter(move |(_, p)| *p == Piece::new(c, Role::King))
            .map(|(sq, _)| sq)
    };
    if kings(Color::Red).any(|r| kings(Color::Black).any(|b| facing(board, r, b))) {
        out.push(Problem::FlyingGeneral);
    }
    // Checks by any piece but the king: the mover's king is put out of
    // play as an advisor, which attacks nothing beyond its palace and
    // screens a cannon as the king did.
    let mut without_king = *board;
    for sq in kings(turn) {
        without_king.set(sq, Some(Piece::new(turn, Role::Advisor)));
    }
    let them = turn.opposite();
    if kings(them).any(|k| king_attacked(&without_king, k, turn)) {
        out.push(Problem::OppositeCheck);
    }
    let misplaced = |role: Role, fits: fn(Color, Square) -> bool| {
        board
            .pieces()
            .any(|(sq, p)| p.role == role && !fits(p.color, sq))
    };
    for (problem, role, fits) in [
        (
            Problem::AdvisorOffPalace,
            Role::Advisor,
            advisor_point as fn(Color, Square) -> bool,
        ),
        (Problem::ElephantOffPoint, Role::Elephant, elephant_point),
        (Problem::PawnBehindStart, Role::Pawn, pawn_point),
        (Problem::KingOffPalace, Role::King, in_palace),
    ] {
        if misplaced(role, fits) {
            out.push(problem);
        }
    }
    if [Color::Red, Color::Black]
        .iter()
        .any(|&c| board.squares_of(c).count() > MAX_PIECES)
    {
        out.push(Problem::TooManyPieces);
    }
    out
}

/// Whether the kings on `a` and `b` share a file with no piece between.
fn facing(board: &Board, a: Square, b: Square) -> bool {
    a.file() == b.file() && kings_see_each_other(board, a, b)
}

/// `rank` counted from `color`'s back rank (0 for its own back rank).
fn own_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// The palace's corners and centre: d0 f0 e1 d2 f2 (red).
fn advisor_point(color: Color, sq: Square) -> bool {
    let (file, rank) = (sq.file(), own_rank(color, sq));
    in_palace(color, sq) && (file + rank) % 2 == 1
}

/// c0 g0 a2 e2 i2 c4 g4 (red).
fn elephant_point(color: Color, sq: Square) -> bool {
    let (file, rank) = (sq.file(), own_rank(color, sq));
    match rank {
        0 | 4 => file == 2 || file == 6,
        2 => file.is_multiple_of(4),
        _ => false,
    }
}

/// From the start rank (3) on the five start files, anywhere across the
/// river (red's ranks 5-9).
fn pawn_point(color: Color, sq: Square) -> bool {
    match own_rank(color, sq) {
        0..=2 => false,
        3 | 4 => sq.file().is_multiple_of(2),
        _ => true,
    }
}
