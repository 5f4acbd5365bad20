//! Legal move generation: candidate (pseudo-legal) moves from the step
//! tables and rays, then a legality filter that rejects every move leaving
//! the mover's king capturable or facing the other king on an open file.
//!
//! Moves go into a fixed-capacity [`MoveList`] on the stack: no heap
//! allocation per position.

use super::attacks::{
    ADVISOR, ELEPHANT, HORSE, KING, LEG, PAWN, RAYS, Steps, direction, horse_attacked_via,
    king_attacked, line_attacked, relation,
};
use super::board::Board;
use super::types::{Color, Move, Piece, Role, Square};

/// Most pieces one side may have: the 16 it starts with. Checked when a
/// FEN is read; the kinds are not limited (test positions use four cannons).
pub const MAX_PIECES_PER_SIDE: usize = 16;

/// Capacity of a [`MoveList`]. One side has at most one king (4 steps) and
/// 15 other pieces, none of which has more than 17 candidate moves (a rook or
/// cannon: 8 along its rank, 9 along its file), so 15×17 + 4 = 259 always
/// suffices, even before the legality filter.
pub const MAX_MOVES: usize = (MAX_PIECES_PER_SIDE - 1) * 17 + 4;

/// A list of moves with a fixed capacity of [`MAX_MOVES`], kept on the stack.
#[derive(Clone, Copy)]
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
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move {
                from: Square::ALL[0],
                to: Square::ALL[0],
            }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `m`. A move beyond the capacity is dropped rather than
    /// panicking; the piece-count limits make that unreachable (see
    /// [`MAX_MOVES`]).
    #[inline]
    pub fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        self.moves.get(..self.len).unwrap_or(&[])
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps only the moves for which `keep` is true, in order.
    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if let Some(&m) = self.moves.get(i)
                && keep(m)
            {
                if let Some(slot) = self.moves.get_mut(kept) {
                    *slot = m;
                }
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A destination is open to `us` if empty or held by the other side.
#[inline]
fn open_to(board: &Board, sq: Square, us: Color) -> bool {
    board.get(sq).is_none_or(|p| p.color != us)
}

#[inline]
fn push_steps(
    board: &Board,
    from: Square,
    steps: &Steps,
    blockable: bool,
    us: Color,
    list: &mut MoveList,
) {
    for (to, via) in steps.iter() {
        if (!blockable || board.get(via).is_none()) && open_to(board, to, us) {
            list.push(Move::new(from, to));
        }
    }
}

/// Appends the candidate moves of `piece` standing on `from`: every move its
/// movement rules allow, whether or not it leaves its own king attacked.
pub fn piece_candidates(board: &Board, from: Square, piece: Piece, list: &mut MoveList) {
    let us = piece.color;
    let (c, i) = (us.index(), from.index());
    match piece.role {
        Role::King => push_steps(board, from, &KING[c][i], false, us, list),
        Role::Advisor => push_steps(board, from, &ADVISOR[c][i], false, us, list),
        Role::Elephant => push_steps(board, from, &ELEPHANT[c][i], true, us, list),
        Role::Horse => push_steps(board, from, &HORSE[i], true, us, list),
        Role::Pawn => push_steps(board, from, &PAWN[c][i], false, us, list),
        Role::Rook => {
            for ray in &RAYS[i] {
                for to in ray.iter() {
                    match board.get(to) {
                        None => list.push(Move::new(from, to)),
                        Some(p) => {
                            if p.color != us {
                                list.push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
        }
        Role::Cannon => {
            for ray in &RAYS[i] {
                let mut screened = false;
                for to in ray.iter() {
                    match (board.get(to), screened) {
                        (None, false) => list.push(Move::new(from, to)),
                        (None, true) => {}
                        (Some(_), false) => screened = true,
                        (Some(p), true) => {
                            if p.color != us {
                                list.push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Whether the candidate `m` of side `us` (king on `king`) leaves that king
/// safe. `board` is a scratch copy; it is restored before returning.
///
/// A king move, or any move while in check, gets the full test. Otherwise
/// (the position before the move being legal) a move by another piece can
/// only expose the king by emptying a point on the king's file or rank
/// (opening a rook line, a cannon line or the kings' file), by landing on
/// one (becoming a cannon screen), or by emptying a diagonal neighbour of
/// the king (a horse leg); only those lines and that leg are tested. Pawn
/// attacks cannot be uncovered, and a capture leaves its point occupied.
#[inline]
fn keeps_king_safe(board: &mut Board, m: Move, king: Square, us: Color, in_check: bool) -> bool {
    let is_king = m.from == king;
    let full = in_check || is_king;
    let (from_rel, to_rel) = (relation(king, m.from), relation(king, m.to));
    if !full && from_rel == 0 && !(1..=4).contains(&to_rel) {
        return true;
    }
    let from_dir = direction(king, m.from);
    let to_dir = direction(king, m.to);
    let leg = from_rel == LEG;
    let them = us.opposite();
    let moving = board.set(m.from, None);
    let captured = board.set(m.to, moving);
    let attacked = if full {
        king_attacked(board, if is_king { m.to } else { king }, them)
    } else {
        from_dir.is_some_and(|d| line_attacked(board, king, d, them))
            || to_dir.is_some_and(|d| Some(d) != from_dir && line_attacked(board, king, d, them))
            || (leg && horse_attacked_via(board, king, m.from, them))
    };
    board.set(m.to, captured);
    board.set(m.from, moving);
    !attacked
}

/// Appends every legal move of side `us`, whose king stands on `king`.
pub fn legal_moves(board: &Board, us: Color, king: Square, list: &mut MoveList) {
    list.len = 0;
    for from in board.squares_of(us) {
        if let Some(piece) = board.get(from) {
            piece_candidates(board, from, piece, list);
        }
    }
    let in_check = king_attacked(board, king, us.opposite());
    let mut scratch = *board;
    list.retain(|m| keeps_king_safe(&mut scratch, m, king, us, in_check));
}

/// Whether `m` is a legal move for side `us` (king on `king`).
pub fn is_legal(board: &Board, us: Color, king: Square, m: Move) -> bool {
    let Some(piece) = board.get(m.from) else {
        return false;
    };
    if piece.color != us {
        return false;
    }
    let mut candidates = MoveList::new();
    piece_candidates(board, m.from, piece, &mut candidates);
    if !candidates.contains(m) {
        return false;
    }
    let in_check = king_attacked(board, king, us.opposite());
    let mut scratch = *board;
    keeps_king_safe(&mut scratch, m, king, us, in_check)
}
