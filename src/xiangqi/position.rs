//! The current state of a game: board, side to move, counters and the
//! incremental Zobrist key, with the questions a replay asks of it (legal
//! moves, check, capture) and `play` to advance it by one move.
//!
//! A `Position` is a plain value (about 200 bytes, `Clone`): searching or
//! replaying copies it instead of keeping an undo stack, and `play` touches
//! no heap.

use super::attacks::king_attacked;
use super::board::{Board, in_palace};
use super::fen::{self, FenError, Setup};
use super::movegen::{self, MAX_PIECES_PER_SIDE, MoveList};
use super::types::{Color, Move, Piece, Role, Square};
use super::zobrist;

/// Start position, as pyffish writes it.
pub const STARTPOS_FEN: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A playable xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: Board,
    turn: Color,
    /// King squares, `[red, black]`.
    kings: [Square; 2],
    key: u64,
    halfmove_clock: u32,
    fullmove_number: u32,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard start position, red to move.
    pub fn startpos() -> Position {
        match Position::from_fen(STARTPOS_FEN) {
            Ok(pos) => pos,
            // The constant above is a valid FEN (tested); this arm only
            // exists so that no code path can panic.
            Err(_) => Position::from_setup_unchecked(Setup {
                board: Board::empty(),
                turn: Color::Red,
                halfmove_clock: 0,
                fullmove_number: 1,
            }),
        }
    }

    /// Reads a FEN (see the `fen` module for what is accepted) and checks
    /// that the position is playable. Never panics.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_setup(fen::parse(fen)?)
    }

    /// Checks a parsed [`Setup`]: exactly one king per side, each in its own
    /// palace; at most 16 pieces per side (bounds the [`MoveList`]); the kings not
    /// facing each other on an open file; the side not to move not in check.
    /// These are the invariants move generation relies on.
    pub fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let mut counts = [[0usize; 7]; 2];
        let mut kings: [Option<Square>; 2] = [None, None];
        for (sq, piece) in setup.board.pieces() {
            let (c, r) = (piece.color.index(), piece.role.index());
            counts[c][r] += 1;
            if piece.role == Role::King {
                kings[c] = Some(sq);
            }
        }
        for color in [Color::Red, Color::Black] {
            let c = color.index();
            match counts[c][Role::King.index()] {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                count => return Err(FenError::TooManyKings { color, count }),
            }
            let count: usize = counts[c].iter().sum();
            if count > MAX_PIECES_PER_SIDE {
                return Err(FenError::TooManyPieces {
                    color,
                    count,
                    max: MAX_PIECES_PER_SIDE,
                });
            }
        }
        let (Some(red_king), Some(black_king)) = (kings[0], kings[1]) else {
            // Unreachable: both counts were checked to be exactly 1.
            return Err(FenError::MissingKing(if kings[0].is_none() {
                Color::Red
            } else {
                Color::Black
            }));
        };
        for (color, square) in [(Color::Red, red_king), (Color::Black, black_king)] {
            if !in_palace(color, square) {
                return Err(FenError::KingOutsidePalace { color, square });
            }
        }
        let pos = Position::from_setup_unchecked(setup);
        let them = pos.turn.opposite();
        if king_attacked(&pos.board, pos.king(them), pos.turn) {
            if red_king.file() == black_king.file()
                && kings_see_each_other(&pos.board, red_king, black_king)
            {
                return Err(FenError::KingsFacing {
                    file: char::from(b'a' + red_king.file()),
                });
            }
            return Err(FenError::OppositeCheck(them));
        }
        Ok(pos)
    }

    fn from_setup_unchecked(setup: Setup) -> Position {
        let mut kings = [Square::ALL[0]; 2];
        let mut key = zobrist::side(setup.turn);
        for (sq, piece) in setup.board.pieces() {
            key ^= zobrist::piece_square(piece, sq);
            if piece.role == Role::King {
                kings[piece.color.index()] = sq;
            }
        }
        Position {
            board: setup.board,
            turn: setup.turn,
            kings,
            key,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
        }
    }

    /// The FEN of this position, exactly as pyffish `get_fen` writes it:
    /// `<placement> <w|b> - - <half-move clock> <move number>`.
    pub fn fen(&self) -> String {
        fen::write(
            &self.board,
            self.turn,
            self.halfmove_clock,
            self.fullmove_number,
        )
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.get(sq)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Where `color`'s king stands.
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Plies since the last capture (pyffish's half-move clock).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Move number: starts at 1 (or the FEN's value), +1 after black moves.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Every legal move of the side to move. Empty means the side to move
    /// has lost (checkmate or stalemate; both lose in xiangqi).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        movegen::legal_moves(&self.board, self.turn, self.king(self.turn), &mut list);
        list
    }

    /// Whether `m` is legal for the side to move.
    pub fn is_legal(&self, m: Move) -> bool {
        movegen::is_legal(&self.board, self.turn, self.king(self.turn), m)
    }

    /// Whether the side to move is in check (its king could be captured).
    pub fn is_check(&self) -> bool {
        king_attacked(&self.board, self.king(self.turn), self.turn.opposite())
    }

    /// Whether the side to move is checkmated (in check, no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.legal_moves().is_empty()
    }

    /// Whether the side to move is stalemated (not in check, no legal move);
    /// in xiangqi this loses, like checkmate.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.legal_moves().is_empty()
    }

    /// Whether `m` takes a piece of the other side.
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.get(m.to).is_some_and(|p| p.color != self.turn)
    }

    /// Zobrist key of placement and side to move (not the counters): equal
    /// keys mean a repeated position.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plays `m`, updating the key incrementally and the counters as pyffish
    /// does (half-move clock reset by a capture, move number +1 after
    /// black's move).
    ///
    /// `m` must be legal (from [`Position::legal_moves`] or checked with
    /// [`Position::is_legal`]); for any other move the result is a position
    /// that no game reaches, but nothing panics. A move from an empty point
    /// and a null move (`from == to`) do nothing.
    pub fn play(&mut self, m: Move) {
        let Some(piece) = self.board.get(m.from).filter(|_| m.from != m.to) else {
            return;
        };
        let captured = self.board.set(m.to, Some(piece));
        self.board.set(m.from, None);
        self.key ^= zobrist::piece_square(piece, m.from)
            ^ zobrist::piece_square(piece, m.to)
            ^ zobrist::BLACK_TO_MOVE;
        if let Some(c) = captured {
            self.key ^= zobrist::piece_square(c, m.to);
            self.halfmove_clock = 0;
        } else {
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        }
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = self.turn.opposite();
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;

    /// Same as [`Position::from_fen`].
    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl std::fmt::Display for Position {
    /// The FEN, as [`Position::fen`] writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Whether nothing stands between two kings on one file.
pub(super) fn kings_see_each_other(board: &Board, a: Square, b: Square) -> bool {
    let (lo, hi) = if a.rank() < b.rank() { (a, b) } else { (b, a) };
    ((lo.rank() + 1)..hi.rank())
        .all(|r| Square::new(lo.file(), r).is_none_or(|sq| board.get(sq).is_none()))
}
