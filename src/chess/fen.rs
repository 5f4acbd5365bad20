//! Writing FEN. The castling field is written the way python-chess's
//! `Board.fen()` writes it (X-FEN): white's rights first, each colour's from
//! the h-file towards the a-file; a right is `K`/`Q` when its rook is the
//! outermost rook on that side of the king, otherwise the rook's file letter.
//! [`Position::fen_with`] can write it in Shredder-FEN instead (file letters
//! only), so that a Chess960 list read in Shredder-FEN is written back in it.

use super::bitboard::Bitboard;
use super::position::{EpMode, Position};
use super::types::{Color, Role};

/// How a written castling field names the rights.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CastlingNotation {
    /// `K`/`Q` for the outermost rook on each side, a file letter otherwise
    /// (python-chess `Board.fen()`).
    #[default]
    XFen,
    /// Always the rook's file letter, e.g. `HFhf` (python-chess
    /// `Board.fen(shredder=True)`).
    Shredder,
}

impl Position {
    /// The position as a six-field FEN, en-passant field under `ep`,
    /// castling field in X-FEN.
    /// Written without `fmt` machinery: a report writes two per game.
    pub fn fen(&self, ep: EpMode) -> String {
        self.fen_with(ep, CastlingNotation::XFen)
    }

    /// [`Position::fen`] with the castling field in the given notation.
    pub fn fen_with(&self, ep: EpMode, castling: CastlingNotation) -> String {
        let mut out = self.board.placement();
        out.push(' ');
        out.push(match self.turn {
            Color::White => 'w',
            Color::Black => 'b',
        });
        out.push(' ');
        self.push_castling_field(&mut out, castling);
        out.push(' ');
        match self.ep_for(ep) {
            Some(sq) => {
                out.push(sq.file_char());
                out.push(sq.rank_char());
            }
            None => out.push('-'),
        }
        let mut n = itoa::Buffer::new();
        out.push(' ');
        out.push_str(n.format(self.halfmove));
        out.push(' ');
        out.push_str(n.format(self.fullmove));
        out
    }

    /// Appends the castling field in the given notation, `-` if there are
    /// no rights.
    fn push_castling_field(&self, out: &mut String, notation: CastlingNotation) {
        let start = out.len();
        for color in Color::ALL {
            let Some(king) = self.board.king_of(color) else {
                continue;
            };
            let back = Bitboard::rank(color.back_rank());
            let rooks = self.board.by_piece(color, Role::Rook) & back;
            let rights = self.castling & back;
            // From the h-file towards the a-file.
            for sq in rights.into_iter().rev() {
                let a_side = sq.file() < king.file();
                let others = rooks.without(sq);
                let outer_exists = others.into_iter().any(|o| (o.file() < sq.file()) == a_side);
                let c = if outer_exists || notation == CastlingNotation::Shredder {
                    sq.file_char()
                } else if a_side {
                    'q'
                } else {
                    'k'
                };
                out.push(match color {
                    Color::White => c.to_ascii_uppercase(),
                    Color::Black => c,
                });
            }
        }
        if out.len() == start {
            out.push('-');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::castling::CastlingMode;
    use super::super::setup::Setup;
    use super::*;

    /// A rank's FEN text for an occupancy (bit `f`: a piece on file `f`),
    /// the pieces taken in turn from `pieces`, written the plain way: the
    /// reference the placement writer's tables are checked against.
    fn rank_text(occupancy: u32, pieces: &[u8]) -> String {
        let mut out = String::new();
        let mut run = 0;
        let mut next = pieces.iter().cycle();
        for file in 0..8 {
            if occupancy >> file & 1 == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push_str(&run.to_string());
                run = 0;
            }
            out.push(char::from(*next.next().unwrap()));
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        out
    }

    /// Every occupancy of a rank, on two ranks at once (the second one
    /// the complement of the first), reads back as written.
    #[test]
    fn every_rank_occupancy_round_trips() {
        for occupancy in 0..256u32 {
            let fen = format!(
                "4k3/8/8/{}/{}/8/8/4K3 w - - 0 1",
                rank_text(occupancy, b"NbRqB"),
                rank_text(!occupancy & 0xff, b"pnQr")
            );
            let setup = Setup::parse(&fen).unwrap();
            let (pos, _) = Position::from_setup(&setup, CastlingMode::Standard).unwrap();
            assert_eq!(pos.fen(EpMode::Always), fen);
        }
    }
}
