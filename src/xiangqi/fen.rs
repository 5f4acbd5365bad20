//! Xiangqi FEN, read and written (see `docs/xiangqi-notation.md` §1-2).
//!
//! Reading is split in two, as in chess kernels: [`parse`] turns text into a
//! raw [`Setup`] (what the text says, letters and counters), and
//! `Position::from_setup` checks that the board is playable (one king each,
//! in its palace, not too many pieces, the side not to move not in check).
//! Both report through [`FenError`], whose messages name the problem.
//!
//! Accepted: ten ranks of nine points from rank 9 (black's back rank) down to
//! rank 0; letters `K A B N R C P` and the alternatives `H` (horse) and `E`
//! (elephant), upper case red, lower case black; side `w` (also `r`) or `b`;
//! optional fields 3-4 (must be `-`) and optional half-move clock and move
//! number. Written: exactly what pyffish `get_fen` writes,
//! `<placement> <w|b> - - <half-move clock> <move number>`.

use super::board::Board;
use super::types::{Color, FILES, Piece, RANKS, Square};

/// Why a FEN could not be read or does not describe a playable position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error(
        "{0:?} is not a FEN board (a xiangqi FEN starts with the board's 10 ranks, separated by '/')"
    )]
    NotABoard(String),
    #[error("placement has {found} ranks separated by '/', expected 10")]
    RankCount { found: usize },
    #[error("rank {rank} covers {points} points, expected 9")]
    RankWidth { rank: u8, points: usize },
    #[error(
        "bad letter {ch:?} in rank {rank}, column {column} (expected K A B N R C P, H E, their lower case, or a digit 1-9)"
    )]
    BadLetter { ch: char, rank: u8, column: usize },
    #[error("missing side to move (field 2, 'w' or 'b')")]
    MissingSide,
    #[error("bad side to move {0:?} (field 2), expected 'w' or 'b'")]
    BadSide(String),
    #[error("field {field} is {text:?}, expected '-' (xiangqi has no castling or en passant)")]
    BadDash { field: u8, text: String },
    #[error("field {field} ({what}) is {text:?}, expected a number")]
    BadCounter {
        field: u8,
        what: &'static str,
        text: String,
    },
    #[error("unexpected text {0:?} after the 6 FEN fields")]
    TrailingText(String),
    #[error("no {} king on the board", color_name(*.0))]
    MissingKing(Color),
    #[error("{count} {} kings on the board, expected 1", color_name(*color))]
    TooManyKings { color: Color, count: usize },
    #[error("{} king on {square} is outside its palace", color_name(*color))]
    KingOutsidePalace { color: Color, square: Square },
    #[error("{count} {} pieces on the board, at most {max} allowed", color_name(*color))]
    TooManyPieces {
        color: Color,
        count: usize,
        max: usize,
    },
    #[error("the kings face each other on the open {file} file")]
    KingsFacing { file: char },
    #[error("{} is not to move but is in check", color_name(*.0))]
    OppositeCheck(Color),
}

/// `red` / `black`, for messages.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// What a FEN says, before any check that the board is playable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// Plies since the last capture (field 5; 0 when absent).
    pub halfmove_clock: u32,
    /// Move number, incremented after black's move (field 6; 1 when absent).
    pub fullmove_number: u32,
}

/// Reads the text of a FEN into a [`Setup`]. Never panics.
pub fn parse(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    if !placement.contains('/') {
        return Err(FenError::NotABoard(placement.to_string()));
    }
    let board = parse_placement(placement)?;
    let turn = match fields.next() {
        None => return Err(FenError::MissingSide),
        Some("w" | "W" | "r" | "R") => Color::Red,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::BadSide(other.to_string())),
    };
    for field in [3u8, 4] {
        match fields.next() {
            None | Some("-") => {}
            Some(text) => {
                return Err(FenError::BadDash {
                    field,
                    text: text.to_string(),
                });
            }
        }
    }
    let halfmove_clock = counter(fields.next(), 5, "half-move clock")?.unwrap_or(0);
    // pyffish writes 1 for a missing move number; 0 is read as 1 as well so
    // that written FENs always carry a valid number.
    let fullmove_number = counter(fields.next(), 6, "move number")?
        .unwrap_or(1)
        .max(1);
    if let Some(extra) = fields.next() {
        return Err(FenError::TrailingText(extra.to_string()));
    }
    Ok(Setup {
        board,
        turn,
        halfmove_clock,
        fullmove_number,
    })
}

fn counter(text: Option<&str>, field: u8, what: &'static str) -> Result<Option<u32>, FenError> {
    match text {
        None => Ok(None),
        Some(t) => t
            .parse::<u32>()
            .map(Some)
            .map_err(|_| FenError::BadCounter {
                field,
                what,
                text: t.to_string(),
            }),
    }
}

fn parse_placement(placement: &str) -> Result<Board, FenError> {
    let found = placement.split('/').count();
    if found != RANKS as usize {
        return Err(FenError::RankCount { found });
    }
    let mut board = Board::empty();
    for (line, text) in placement.split('/').enumerate() {
        // The first line is rank 9; `line` < 10 was checked above.
        let rank = RANKS - 1 - line as u8;
        let mut points = 0usize;
        for (column, ch) in text.chars().enumerate() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                points += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(ch) {
                if let Some(sq) = u8::try_from(points).ok().and_then(|f| Square::new(f, rank)) {
                    board.set(sq, Some(piece));
                }
                points += 1;
            } else {
                return Err(FenError::BadLetter {
                    ch,
                    rank,
                    column: column + 1,
                });
            }
        }
        if points != FILES as usize {
            return Err(FenError::RankWidth { rank, points });
        }
    }
    Ok(board)
}

/// Writes the placement field: rank 9 first, runs of empty points as digits.
pub fn write_placement(board: &Board, out: &mut String) {
    for rank in (0..RANKS).rev() {
        let mut empty = 0u8;
        for file in 0..FILES {
            match Square::new(file, rank).and_then(|sq| board.get(sq)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Writes a whole FEN as pyffish `get_fen` does.
pub fn write(board: &Board, turn: Color, halfmove_clock: u32, fullmove_number: u32) -> String {
    let mut out = String::with_capacity(96);
    write_placement(board, &mut out);
    out.push_str(match turn {
        Color::Red => " w - - ",
        Color::Black => " b - - ",
    });
    out.push_str(&halfmove_clock.to_string());
    out.push(' ');
    out.push_str(&fullmove_number.to_string());
    out
}
