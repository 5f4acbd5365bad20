//! The playable position: placement, side to move, effective castling rights,
//! en-passant square, counters, and the incrementally kept Zobrist key.
//!
//! `Position` is `Copy` (about 100 bytes) so search and replay use copy-make:
//! no undo stack, no allocation. Both en-passant conventions of docs/chess.md are
//! answered from one stored square: `ep` is the ep-always square (set after
//! every double step), and `ep_legal` says whether a legal capture exists,
//! computed once right after the double step (the only time it can change).

use super::attacks;
use super::bitboard::Bitboard;
use super::board::Board;
use super::castling::{self, CastlingAudit, CastlingMode};
use super::moves::{Move, MoveKind};
use super::setup::Setup;
use super::square::Square;
use super::types::{Color, Piece, Role};
use super::zobrist;

/// Which en-passant square a FEN or key shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EpMode {
    /// Always after a double step (PGN standard; python-chess `en_passant="fen"`).
    Always,
    /// Only when a legal en-passant capture exists (python-chess default `fen()`).
    Legal,
    /// When a pawn of the side to move attacks the square, legal or not
    /// (X-FEN; python-chess `en_passant="xfen"`).
    PseudoLegal,
}

/// Why a setup cannot become a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{color} has no king")]
    NoKing { color: &'static str },
    #[error("{color} has {count} kings")]
    TooManyKings { color: &'static str, count: u32 },
}

/// A position that moves can be played on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    /// Rook squares whose castling right stands.
    pub(crate) castling: Bitboard,
    /// The ep-always square.
    pub(crate) ep: Option<Square>,
    /// Whether the side to move has a legal capture on `ep`.
    pub(crate) ep_legal: bool,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) mode: CastlingMode,
    /// Hash of placement, side to move and castling rights (no ep part).
    pub(crate) key: u64,
    /// Each side's king square, kept by make-move: SAN resolution and the
    /// check test ask for a king every ply, and a load is shorter than a
    /// bit scan of the king bitboard.
    pub(crate) kings: [Square; 2],
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position: built once, then copied (a report
    /// starts nearly every game from it).
    pub fn startpos() -> Position {
        static STARTPOS: std::sync::LazyLock<Position> =
            std::sync::LazyLock::new(Position::build_startpos);
        *STARTPOS
    }

    /// The standard starting position under `mode`'s castling rules: a
    /// Chess960 game without a `[FEN]` starts from it (start position
    /// 518), and writes its castling moves king-takes-rook in UCI.
    pub fn startpos_with(mode: CastlingMode) -> Position {
        let mut pos = Self::startpos();
        pos.mode = mode;
        pos
    }

    fn build_startpos() -> Position {
        let board = Board::startpos();
        let castling = Bitboard::from_square(Square::A1) | Square::H1 | Square::A8 | Square::H8;
        let mut pos = Position {
            board,
            turn: Color::White,
            castling,
            ep: None,
            ep_legal: false,
            halfmove: 0,
            fullmove: 1,
            mode: CastlingMode::Standard,
            key: 0,
            kings: [Square::E1, Square::E8],
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Validates a raw setup. Refuses only what docs/chess.md (section FEN) says must be
    /// refused (a colour without exactly one king); castling rights that
    /// contradict the board are dropped and reported in the audit. An
    /// en-passant square that no double step can explain (wrong rank for the
    /// side to move, no pawn in front of it, or occupied squares) is dropped.
    pub fn from_setup(
        setup: &Setup,
        mode: CastlingMode,
    ) -> Result<(Position, CastlingAudit), PositionError> {
        let board = setup.board;
        for color in Color::ALL {
            let count = board.by_piece(color, Role::King).count();
            if count == 0 {
                return Err(PositionError::NoKing {
                    color: color.name(),
                });
            }
            if count > 1 {
                return Err(PositionError::TooManyKings {
                    color: color.name(),
                    count,
                });
            }
        }
        let (castling, audit) = castling::audit(&board, setup.castling_text(), mode);
        let turn = setup.turn;
        let ep = setup.ep_square.filter(|&ep| {
            let (ep_rank, step): (u8, i32) = match turn {
                Color::White => (5, -8),
                Color::Black => (2, 8),
            };
            let pawn_sq = Square::new((ep.index() as i32 + step) as u32);
            let origin = Square::new((ep.index() as i32 - step) as u32);
            match (pawn_sq, origin) {
                (Some(p), Some(o)) => {
                    ep.rank() == ep_rank
                        && board.by_piece(!turn, Role::Pawn).contains(p)
                        && !board.occupied().contains(ep)
                        && !board.occupied().contains(o)
                }
                _ => false,
            }
        });
        let mut pos = Position {
            board,
            turn,
            castling,
            ep,
            ep_legal: false,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            mode,
            key: 0,
            // Exactly one king each was checked above.
            kings: Color::ALL.map(|c| board.king_of(c).unwrap_or(Square::A1)),
        };
        pos.key = pos.compute_key();
        pos.ep_legal = pos.compute_ep_legal();
        Ok((pos, audit))
    }

    fn compute_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.board.by_piece(color, role) {
                    key ^= zobrist::piece(color, role, sq);
                }
            }
        }
        if self.turn == Color::Black {
            key ^= zobrist::black_to_move();
        }
        key ^ zobrist::castling(self.castling)
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn mode(&self) -> CastlingMode {
        self.mode
    }

    /// Rook squares with castling rights.
    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling
    }

    /// The en-passant square under the ep-always convention.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// The en-passant square under the ep-if-legal convention.
    #[inline]
    pub fn legal_ep_square(&self) -> Option<Square> {
        self.ep.filter(|_| self.ep_legal)
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The king of the side to move (a position always has one).
    #[inline]
    pub(crate) fn our_king(&self) -> Square {
        self.kings[self.turn.index()]
    }

    /// Pieces of both colours that attack `sq`, with `occupied` blocking.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        (attacks::pawn_attacks(Color::White, sq) & b.by_piece(Color::Black, Role::Pawn))
            | (attacks::pawn_attacks(Color::Black, sq) & b.by_piece(Color::White, Role::Pawn))
            | (attacks::knight_attacks(sq) & b.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & b.by_role(Role::King))
            | (attacks::rook_attacks(sq, occupied) & b.rooks_queens())
            | (attacks::bishop_attacks(sq, occupied) & b.bishops_queens())
    }

    /// Enemy pieces giving check, worked out from the board when asked.
    /// Make-move does not keep them: a game asks for them a few times (at
    /// its end, for a castling, a claim), while keeping them cost every ply
    /// a direct and a discovered check test, more than the one attack test
    /// on the king that SAN resolution then makes instead of a pin test.
    pub fn checkers(&self) -> Bitboard {
        let k = self.our_king();
        self.attackers_to(k, self.board.occupied()) & self.board.by_color(!self.turn)
    }

    /// Whether the side to move is in check: the attack test on its king,
    /// which stops at the first attacker, where [`Position::checkers`]
    /// finds them all.
    #[inline]
    pub fn is_check(&self) -> bool {
        let b = &self.board;
        self.attacked_by(self.our_king(), b.occupied(), b.by_color(!self.turn))
    }

    /// Hash of placement, side to move and castling rights, whatever the
    /// en-passant square: the position as an opening table names it.
    #[inline]
    pub fn key_without_ep(&self) -> u64 {
        self.key
    }

    /// Hash of FEN fields 1-4 with the ep-always en-passant field.
    #[inline]
    pub fn key_ep_always(&self) -> u64 {
        match self.ep {
            Some(ep) => self.key ^ zobrist::ep(ep),
            None => self.key,
        }
    }

    /// Hash of FEN fields 1-4 with the ep-if-legal en-passant field.
    #[inline]
    pub fn key_ep_legal(&self) -> u64 {
        match self.ep {
            Some(ep) if self.ep_legal => self.key ^ zobrist::ep(ep),
            _ => self.key,
        }
    }

    /// Whether the side to move, after removing `from` and `captured` and
    /// occupying `to`, has its king (on `king`) attacked. `to` is treated
    /// as holding our piece, so an enemy piece there is captured.
    #[inline]
    pub(crate) fn king_attacked_after(
        &self,
        king: Square,
        from: Square,
        to: Square,
        captured: Option<Square>,
    ) -> bool {
        let b = &self.board;
        let them = !self.turn;
        let mut occ = (b.occupied() ^ from) | to;
        let mut theirs = b.by_color(them) & !Bitboard::from_square(to);
        if let Some(c) = captured {
            occ &= !Bitboard::from_square(c);
            theirs &= !Bitboard::from_square(c);
        }
        self.attacked_by(king, occ, theirs)
    }

    /// Whether a piece of `theirs` (pieces of the side not to move) attacks
    /// `sq` with the pieces at `occ` in the way (`theirs` must be within
    /// `occ`). Knights, pawns and the king are looked up; a slider of the
    /// line's kind on a line through `sq` attacks it when nothing of `occ`
    /// stands between: a king has seldom more than two such sliders, and
    /// one lookup of the squares between each costs less than casting the
    /// four rays of its kind.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, sq: Square, occ: Bitboard, theirs: Bitboard) -> bool {
        let b = &self.board;
        let steppers = (attacks::knight_attacks(sq) & b.by_role(Role::Knight))
            | (attacks::pawn_attacks(self.turn, sq) & b.by_role(Role::Pawn))
            | (attacks::king_attacks(sq) & b.by_role(Role::King));
        if (steppers & theirs).nonempty() {
            return true;
        }
        let snipers = ((attacks::rook_rays(sq) & b.rooks_queens())
            | (attacks::bishop_rays(sq) & b.bishops_queens()))
            & theirs;
        snipers
            .into_iter()
            .any(|s| (attacks::between(sq, s) & occ).is_empty())
    }

    /// The square of the pawn an en-passant capture onto `ep` removes.
    #[inline]
    pub(crate) fn ep_victim(&self, ep: Square) -> Square {
        match self.turn {
            Color::White => Square::from_index_masked(ep.index() as u32 - 8),
            Color::Black => Square::from_index_masked(ep.index() as u32 + 8),
        }
    }

    /// Whether the side to move has a legal en-passant capture.
    pub(crate) fn compute_ep_legal(&self) -> bool {
        let Some(ep) = self.ep else { return false };
        let capturers =
            attacks::pawn_attacks(!self.turn, ep) & self.board.by_piece(self.turn, Role::Pawn);
        if capturers.is_empty() {
            return false;
        }
        let king = self.our_king();
        let victim = self.ep_victim(ep);
        capturers
            .into_iter()
            .any(|from| !self.king_attacked_after(king, from, ep, Some(victim)))
    }

    /// Whether a pawn of the side to move attacks the ep square (X-FEN).
    fn ep_pseudo_legal(&self) -> bool {
        self.ep.is_some_and(|ep| {
            (attacks::pawn_attacks(!self.turn, ep) & self.board.by_piece(self.turn, Role::Pawn))
                .nonempty()
        })
    }

    /// The en-passant square to write under `mode`.
    pub fn ep_for(&self, mode: EpMode) -> Option<Square> {
        match mode {
            EpMode::Always => self.ep,
            EpMode::Legal => self.legal_ep_square(),
            EpMode::PseudoLegal => self.ep.filter(|_| self.ep_pseudo_legal()),
        }
    }

    /// Whether `m` makes every earlier position unreachable: a capture, a
    /// pawn move, castling, or any move that loses a castling right. The
    /// repetition table may be cleared after such a move.
    pub fn is_zeroing_or_irreversible(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::Null => false,
            MoveKind::Castle | MoveKind::EnPassant | MoveKind::Promotion(_) => true,
            MoveKind::Normal => {
                let b = &self.board;
                let from = m.from();
                let to = m.to();
                b.occupied().contains(to)
                    || b.by_role(Role::Pawn).contains(from)
                    || (self.castling & (Bitboard::from_square(from) | to)).nonempty()
                    || (b.by_role(Role::King).contains(from)
                        && (self.castling & Bitboard::rank(self.turn.back_rank())).nonempty())
            }
        }
    }

    /// After a move was played: whether it was irreversible, told from the
    /// position it left (the halfmove clock restarted: a capture or pawn
    /// move; or a castling right was lost, `rights_before` being
    /// [`Position::castling_rooks`] before the move). The same answer as
    /// [`Position::is_zeroing_or_irreversible`] asked before the move (a
    /// test holds them equal), without resolving the move a second time:
    /// the replay reads SAN and plays it in one step.
    #[inline]
    pub fn was_irreversible(&self, rights_before: Bitboard) -> bool {
        self.halfmove_clock() == 0 || self.castling_rooks() != rights_before
    }

    /// Plays `m`, which must be legal in this position (from
    /// [`Position::legal_moves`], [`Position::parse_san`] or
    /// [`Position::parse_uci`]). Keeps both keys up to date incrementally.
    /// A move with no piece on its origin square only passes the turn.
    pub fn play(&mut self, m: Move) {
        if m.kind() == MoveKind::Normal
            && let Some(role) = self.board.role_at(m.from())
        {
            let captured = self.board.role_at(m.to());
            self.play_normal(m.from(), m.to(), role, captured);
            return;
        }
        let us = self.turn;
        let them = !us;
        let old_castling = self.castling;
        self.ep = None;
        self.ep_legal = false;
        self.halfmove = self.halfmove.saturating_add(1);
        match m.kind() {
            MoveKind::Null => {}
            MoveKind::Castle => {
                let king = m.from();
                let rook = m.to();
                let (kto, rto) = castling::destinations(king, rook);
                let k = Piece {
                    color: us,
                    role: Role::King,
                };
                let r = Piece {
                    color: us,
                    role: Role::Rook,
                };
                self.board.remove_known(king, k);
                self.board.remove_known(rook, r);
                self.board.put(kto, k);
                self.board.put(rto, r);
                self.kings[us.index()] = kto;
                self.key ^= zobrist::piece(us, Role::King, king)
                    ^ zobrist::piece(us, Role::King, kto)
                    ^ zobrist::piece(us, Role::Rook, rook)
                    ^ zobrist::piece(us, Role::Rook, rto);
                self.castling &= !Bitboard::rank(us.back_rank());
            }
            kind => {
                let from = m.from();
                let to = m.to();
                let Some(role) = self.board.role_at(from) else {
                    self.finish_turn(us, old_castling);
                    return;
                };
                if kind == MoveKind::EnPassant {
                    let victim = self.ep_victim(to);
                    self.board.remove_known(
                        victim,
                        Piece {
                            color: them,
                            role: Role::Pawn,
                        },
                    );
                    self.key ^= zobrist::piece(them, Role::Pawn, victim);
                    self.halfmove = 0;
                } else if let Some(captured) = self.board.role_at(to) {
                    self.board.remove_known(
                        to,
                        Piece {
                            color: them,
                            role: captured,
                        },
                    );
                    self.key ^= zobrist::piece(them, captured, to);
                    self.halfmove = 0;
                }
                let new_role = m.promotion_role().unwrap_or(role);
                if new_role == role {
                    self.board.move_piece(from, to, Piece { color: us, role });
                } else {
                    self.board.remove_known(from, Piece { color: us, role });
                    self.board.put(
                        to,
                        Piece {
                            color: us,
                            role: new_role,
                        },
                    );
                }
                self.key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, new_role, to);
                match role {
                    Role::Pawn => {
                        self.halfmove = 0;
                        if from.index().abs_diff(to.index()) == 16 {
                            self.ep = Some(Square::from_index_masked(
                                (from.index() + to.index()) as u32 / 2,
                            ));
                        }
                    }
                    Role::King => self.castling &= !Bitboard::rank(us.back_rank()),
                    _ => {}
                }
                self.castling &= !(Bitboard::from_square(from) | to);
            }
        }
        self.finish_turn(us, old_castling);
    }

    /// Plays a normal move (not castling, en passant or a promotion) of our
    /// piece of `role` from `from` to `to`, capturing the enemy piece of
    /// role `captured` there if any. The caller has looked both roles up
    /// already (SAN resolution must), so this path reads no square twice.
    #[inline(always)]
    pub(crate) fn play_normal(
        &mut self,
        from: Square,
        to: Square,
        role: Role,
        captured: Option<Role>,
    ) {
        let us = self.turn;
        let them = !us;
        let mut key = self.key ^ zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
        let mut halfmove = self.halfmove.saturating_add(1);
        if let Some(victim) = captured {
            self.board.remove_known(
                to,
                Piece {
                    color: them,
                    role: victim,
                },
            );
            key ^= zobrist::piece(them, victim, to);
            halfmove = 0;
        }
        self.board.move_piece(from, to, Piece { color: us, role });
        if role == Role::King {
            self.kings[us.index()] = to;
        }
        self.ep = None;
        self.ep_legal = false;
        if role == Role::Pawn {
            halfmove = 0;
            if from.index().abs_diff(to.index()) == 16 {
                self.ep = Some(Square::from_index_masked(
                    (from.index() + to.index()) as u32 / 2,
                ));
            }
        }
        let old_castling = self.castling;
        if old_castling.nonempty() {
            let mut lost = old_castling & (Bitboard::from_square(from) | to);
            if role == Role::King {
                lost |= old_castling & Bitboard::rank(us.back_rank());
            }
            self.castling = old_castling & !lost;
        }
        self.halfmove = halfmove;
        self.key = key;
        self.finish_turn(us, old_castling);
    }

    #[inline(always)]
    fn finish_turn(&mut self, us: Color, old_castling: Bitboard) {
        // The castling keys are one per rook square, XORed: only the
        // squares whose right changed need hashing.
        let changed = self.castling ^ old_castling;
        if changed.nonempty() {
            self.key ^= zobrist::castling(changed);
        }
        self.fullmove = self.fullmove.saturating_add(us.index() as u32);
        self.turn = !us;
        self.key ^= zobrist::black_to_move();
        if self.ep.is_some() {
            self.ep_legal = self.compute_ep_legal();
        }
    }
}

#[cfg(test)]
mod irreversible_tests {
    use super::*;

    /// Every legal move two plies deep from positions with castling, en
    /// passant and promotions: the after-the-move test agrees with the
    /// before-the-move one.
    #[test]
    fn was_irreversible_agrees_with_is_zeroing_or_irreversible() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            let setup = Setup::parse(fen).expect("test FEN");
            let (root, _) = Position::from_setup(&setup, CastlingMode::Standard).expect("legal");
            for &m in &root.legal_moves() {
                let mut next = root;
                next.play(m);
                assert_eq!(
                    next.was_irreversible(root.castling_rooks()),
                    root.is_zeroing_or_irreversible(m),
                    "{fen}: {}",
                    root.uci(m)
                );
                for &reply in &next.legal_moves() {
                    let mut after = next;
                    after.play(reply);
                    assert_eq!(
                        after.was_irreversible(next.castling_rooks()),
                        next.is_zeroing_or_irreversible(reply),
                        "{fen}: {} {}",
                        root.uci(m),
                        next.uci(reply)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 3_000, "{checked} moves");
    }
}
