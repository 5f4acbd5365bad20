//! Mating material and the end of the game on the board: whether a side
//! can still mate by material alone, and whether the side to move has a
//! legal move at all (checkmate, stalemate).
//!
//! The material rule is python-chess 1.11.2's `has_insufficient_material`
//! (docs/outcomes.md, section 2), not FIDE's wider "dead position": it
//! looks at material and bishop square colours only, and it is `true` only
//! when the side can never mate, even with the opponent's help (a helpmate
//! counts). So K+N vs K+N is sufficient (each side can be mated in a
//! corner), and K+B+B vs K with both bishops on one colour is not.

use super::attacks;
use super::bitboard::Bitboard;
use super::position::Position;
use super::square::Square;
use super::types::{Color, Role};

/// The light squares (b1, d1, ..., a2, ...): a1 is dark.
const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

impl Position {
    /// Whether `color` can never checkmate, by python-chess's material rule:
    /// no pawn, rook or queen; a lone knight only against a bare king or
    /// king and queens (any other enemy piece allows a helpmate); bishops
    /// only when every bishop on the board stands on one square colour and
    /// the board holds no pawn and no knight; a bare king always.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        let heavy = b.by_role(Role::Pawn) | b.by_role(Role::Rook) | b.by_role(Role::Queen);
        if (ours & heavy).nonempty() {
            return false;
        }
        if (ours & b.by_role(Role::Knight)).nonempty() {
            let theirs = b.by_color(!color);
            let helpers = theirs & !b.by_role(Role::King) & !b.by_role(Role::Queen);
            return ours.count() <= 2 && helpers.is_empty();
        }
        let bishops = b.by_role(Role::Bishop);
        if (ours & bishops).nonempty() {
            let one_colour =
                (bishops & LIGHT_SQUARES).is_empty() || (bishops & !LIGHT_SQUARES).is_empty();
            return one_colour && (b.by_role(Role::Pawn) | b.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Neither side can ever checkmate (python-chess
    /// `is_insufficient_material`). Once true it stays true: no pawn is
    /// left and material only shrinks.
    pub fn is_insufficient_material(&self) -> bool {
        // Cheap first test: a pawn anywhere means both colours are not
        // both short of material (the pawn's side can promote).
        self.board.by_role(Role::Pawn).is_empty()
            && Color::ALL
                .iter()
                .all(|&c| self.has_insufficient_material(c))
    }

    /// Whether the side to move has at least one legal move. Asked once per
    /// game of a report, so the usual answer comes early: when not in
    /// check, any move of an unpinned piece other than the king is legal,
    /// so a pawn with its square ahead free or a piece with a square to go
    /// to answers at once; then a king step to a safe square; only the
    /// rest (mates, stalemates, pinned pieces) pays for the full move list.
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let b = &self.board;
        let king = self.our_king();
        let theirs = b.by_color(!us);
        let occ = b.occupied();
        // The enemy king is never a target (as in move generation).
        let not_ours = !b.by_color(us) & !b.by_piece(!us, Role::King);
        let checkers = self.checkers();
        if checkers.is_empty() {
            let pushes = |pawns: Bitboard| {
                let ahead = match us {
                    Color::White => pawns.0 << 8,
                    Color::Black => pawns.0 >> 8,
                };
                ahead & !occ.0 != 0
            };
            // A pawn on no line through its king cannot be pinned: most
            // positions answer here, before the pins are looked for.
            let off_lines = !(attacks::rook_rays(king) | attacks::bishop_rays(king));
            let pawns = b.by_piece(us, Role::Pawn);
            if pushes(pawns & off_lines) {
                return true;
            }
            let free = b.by_color(us) & !self.pinned(king);
            if pushes(free & b.by_role(Role::Pawn)) {
                return true;
            }
            for from in free & b.by_role(Role::Knight) {
                if (attacks::knight_attacks(from) & not_ours).nonempty() {
                    return true;
                }
            }
            for from in free & b.bishops_queens() {
                if (attacks::bishop_attacks(from, occ) & not_ours).nonempty() {
                    return true;
                }
            }
            for from in free & b.rooks_queens() {
                if (attacks::rook_attacks(from, occ) & not_ours).nonempty() {
                    return true;
                }
            }
        }
        let occ_no_king = occ ^ king;
        for to in attacks::king_attacks(king) & not_ours {
            if !self.attacked_by(to, occ_no_king, theirs) {
                return true;
            }
        }
        if checkers.more_than_one() {
            return false;
        }
        !self.legal_moves().is_empty()
    }

    /// Whether the piece of the side to move on `from` (not a pawn) can
    /// legally step or slide to the empty square `to`: the quiet piece
    /// move, with neither capture nor castling, that the threefold claim
    /// by an announced move is about.
    pub fn is_legal_quiet_move(&self, from: Square, to: Square) -> bool {
        let b = &self.board;
        let occ = b.occupied();
        let Some(piece) = b.piece_at(from) else {
            return false;
        };
        if piece.color != self.turn || occ.contains(to) {
            return false;
        }
        let reach = match piece.role {
            Role::Pawn => return false,
            Role::Knight => attacks::knight_attacks(from),
            Role::Bishop => attacks::bishop_attacks(from, occ),
            Role::Rook => attacks::rook_attacks(from, occ),
            Role::Queen => attacks::bishop_attacks(from, occ) | attacks::rook_attacks(from, occ),
            Role::King => {
                let theirs = b.by_color(!self.turn);
                return attacks::king_attacks(from).contains(to)
                    && (self.attackers_to(to, occ ^ from) & theirs).is_empty();
            }
        };
        reach.contains(to) && !self.king_attacked_after(self.our_king(), from, to, None)
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::{CastlingMode, Color, Position, Setup};

    fn pos(fen: &str) -> Position {
        let setup = Setup::parse(fen).unwrap();
        Position::from_setup(&setup, CastlingMode::Standard)
            .unwrap()
            .0
    }

    /// Each line: FEN, White insufficient, Black insufficient, as
    /// python-chess 1.11.2 answers `has_insufficient_material(color)`.
    #[test]
    fn material_rule_follows_python_chess() {
        let cases = [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true),
            ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true, true),
            ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true, true),
            // K+N vs K+N: each side can be helpmated.
            ("3nk3/8/8/8/8/8/8/3NK3 w - - 0 1", false, false),
            // K+N vs K+Q: the knight cannot mate, the queen can.
            ("3qk3/8/8/8/8/8/8/3NK3 w - - 0 1", true, false),
            // K+N+N vs K.
            ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false, true),
            // Two bishops on c1 and f1 (opposite colours), then c1 and g1 (both dark).
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false, true),
            ("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1", true, true),
            // One bishop each, both on dark squares (d8, c1).
            ("3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
            // One bishop each, on opposite colours (c8, c1).
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
            // A bishop against a knight.
            ("3nk3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true),
        ];
        for (fen, white, black) in cases {
            let p = pos(fen);
            assert_eq!(
                p.has_insufficient_material(Color::White),
                white,
                "{fen} white"
            );
            assert_eq!(
                p.has_insufficient_material(Color::Black),
                black,
                "{fen} black"
            );
            assert_eq!(p.is_insufficient_material(), white && black, "{fen}");
        }
    }

    /// The early answers of `has_legal_move` agree with the move list on
    /// every position of a perft suite, every position one move from them
    /// (checks, pins, en passant), and on mates and stalemates.
    #[test]
    fn has_legal_move_agrees_with_the_move_list() {
        let suite = include_str!("../../testdata/chess/perft/pychess-perftsuite2.epd");
        let mut fens: Vec<&str> = suite
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split(';').next())
            .map(str::trim)
            .collect();
        fens.extend([
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "7k/8/6Q1/8/8/8/8/K7 b - - 0 1",
            "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
            "6rk/6pp/8/8/8/8/8/K5R1 b - - 0 1",
            "6rk/5Npp/8/8/8/8/8/K7 b - - 0 1",
        ]);
        let mut checked = 0;
        let mut without_moves = 0;
        for fen in fens {
            let setup = Setup::parse(fen).unwrap();
            let (p, _) = Position::from_setup(&setup, CastlingMode::Standard).unwrap();
            let mut positions = vec![p];
            for &m in p.legal_moves().iter() {
                let mut child = p;
                child.play(m);
                positions.push(child);
            }
            for q in positions {
                let expected = !q.legal_moves().is_empty();
                assert_eq!(
                    q.has_legal_move(),
                    expected,
                    "{}",
                    q.fen(crate::chess::EpMode::Always)
                );
                checked += 1;
                without_moves += usize::from(!expected);
            }
        }
        assert!(checked > 500, "{checked} positions");
        assert!(
            without_moves >= 5,
            "{without_moves} positions without a move"
        );
    }
}
