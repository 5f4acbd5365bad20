//! Legal move generation: candidates filtered by check and pins, so every
//! generated move is legal without playing it.
//!
//! The king's moves are tested square by square with the king lifted off the
//! board (so it cannot hide behind itself); other pieces are restricted to
//! the checking line when in check and to their pin line when pinned;
//! en passant, the one move that removes two pieces from a rank, is tested by
//! playing it on the occupancy; castling checks every square the king crosses.

use super::attacks::{self, between, line};
use super::bitboard::Bitboard;
use super::castling;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::Square;
use super::types::{Color, Role};

impl Position {
    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_legal(&mut list);
        list
    }

    /// Checkmate: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Stalemate: not in check and no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Our pieces pinned to our king on `king`.
    #[inline]
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        let b = &self.board;
        let them = b.by_color(!self.turn);
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & b.rooks_queens())
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & b.bishops_queens()))
            & them;
        let occ = b.occupied();
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(king, s) & occ;
            if blockers.nonempty() && !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        pinned & b.by_color(self.turn)
    }

    pub(crate) fn gen_legal(&self, list: &mut MoveList) {
        let us = self.turn;
        let them = !us;
        let b = &self.board;
        let occ = b.occupied();
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let Some(king) = b.king_of(us) else { return };
        // The enemy king is never a target: a position where it could be
        // taken is not reachable, and taking it would leave no king.
        let not_ours = !ours & !b.by_piece(them, Role::King);
        let checkers = self.attackers_to(king, occ) & theirs;

        let occ_no_king = occ ^ king;
        for to in attacks::king_attacks(king) & not_ours {
            if (self.attackers_to(to, occ_no_king) & theirs).is_empty() {
                list.push(Move::normal(king, to));
            }
        }
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(c) => (between(king, c) | c) & not_ours,
            None => not_ours,
        };
        let pinned = self.pinned(king);

        for from in b.by_piece(us, Role::Knight) & !pinned {
            for to in attacks::knight_attacks(from) & target {
                list.push(Move::normal(from, to));
            }
        }
        for from in b.bishops_queens() & ours {
            let mut t = attacks::bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            for to in t {
                list.push(Move::normal(from, to));
            }
        }
        for from in b.rooks_queens() & ours {
            let mut t = attacks::rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                t &= line(king, from);
            }
            for to in t {
                list.push(Move::normal(from, to));
            }
        }
        self.gen_pawns(list, king, target, pinned);
        if let Some(ep) = self.ep {
            let victim = self.ep_victim(ep);
            for from in attacks::pawn_attacks(them, ep) & b.by_piece(us, Role::Pawn) {
                if !self.king_attacked_after(king, from, ep, Some(victim)) {
                    list.push(Move::en_passant(from, ep));
                }
            }
        }
        if checkers.is_empty() {
            self.gen_castling(list, king);
        }
    }

    fn gen_pawns(&self, list: &mut MoveList, king: Square, target: Bitboard, pinned: Bitboard) {
        let us = self.turn;
        let b = &self.board;
        let occ = b.occupied();
        let theirs = b.by_color(!us);
        let (step, start_rank, last_rank): (i32, u8, u8) = match us {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        for from in b.by_piece(us, Role::Pawn) {
            let allowed = if pinned.contains(from) {
                target & line(king, from)
            } else {
                target
            };
            let mut tos = attacks::pawn_attacks(us, from) & theirs & allowed;
            if let Some(one) = Square::new((from.index() as i32 + step) as u32)
                && !occ.contains(one)
            {
                if allowed.contains(one) {
                    tos |= one;
                }
                if from.rank() == start_rank
                    && let Some(two) = Square::new((one.index() as i32 + step) as u32)
                    && !occ.contains(two)
                    && allowed.contains(two)
                {
                    tos |= two;
                }
            }
            for to in tos {
                if to.rank() == last_rank {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        list.push(Move::promotion(from, to, role));
                    }
                } else {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    /// Castling moves; the caller has checked that we are not in check.
    fn gen_castling(&self, list: &mut MoveList, king: Square) {
        let us = self.turn;
        let b = &self.board;
        let rooks = self.castling & Bitboard::rank(us.back_rank()) & b.by_piece(us, Role::Rook);
        if king.rank() != us.back_rank() {
            return;
        }
        for rook in rooks {
            if self.castling_allowed(king, rook) {
                list.push(Move::castle(king, rook));
            }
        }
    }

    /// Whether the king on `king` may castle with the rook on `rook` now
    /// (path empty, no square the king crosses attacked). Check is tested by
    /// the caller.
    pub(crate) fn castling_allowed(&self, king: Square, rook: Square) -> bool {
        let b = &self.board;
        let (kto, rto) = castling::destinations(king, rook);
        let both = Bitboard::from_square(king) | rook;
        let must_be_empty = (between(king, kto) | kto | between(rook, rto) | rto) & !both;
        let occ = b.occupied();
        if (occ & must_be_empty).nonempty() {
            return false;
        }
        let occ_after = occ & !both;
        let theirs = b.by_color(!self.turn);
        let king_path = between(king, kto) | kto;
        king_path
            .into_iter()
            .all(|sq| !self.attacked_by(sq, occ_after, theirs))
    }
}
