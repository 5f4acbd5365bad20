//! A parsed FEN as written: "what the text said", not yet checked against the
//! rules. Turning a [`Setup`] into a playable [`crate::chess::Position`] is
//! where castling rights are audited (see `castling.rs`); keeping the raw
//! text separate is what lets the audit say which written right was dropped.
//!
//! The parser refuses only text it cannot read (wrong shape, unknown letters,
//! malformed fields) and names the problem in every refusal (`docs/chess.md`,
//! section FEN). Whether the board can stand (one king each) is checked by
//! `Position::from_setup`, as in shakmaty: a parsed FEN is raw, turning it
//! into a position validates it.

use super::board::Board;
use super::square::Square;
use super::types::{Color, Piece};

/// Why a FEN could not be read. Every message names the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("{0:?} is not a FEN board (a FEN starts with the board's 8 ranks, separated by '/')")]
    NotABoard(String),
    #[error("FEN has {found} field(s), missing {missing}")]
    MissingFields { found: usize, missing: &'static str },
    #[error("FEN has {found} fields, at most 6 are allowed (unexpected {extra:?})")]
    TooManyFields { found: usize, extra: String },
    #[error("placement has {found} ranks, expected 8")]
    RankCount { found: usize },
    #[error("rank {rank} covers {covers} squares, expected 8")]
    RankSquares { rank: u8, covers: u32 },
    /// `44` for `8`: python-chess refuses it, and so do most readers.
    #[error("rank {rank} has two digits in a row ({digits:?})")]
    AdjacentDigits { rank: u8, digits: String },
    #[error("invalid piece character {ch:?} at column {column}")]
    BadPiece { ch: char, column: usize },
    #[error("side to move must be 'w' or 'b', found {0:?}")]
    BadTurn(String),
    #[error("malformed castling field {0:?} (expected '-', KQkq letters or file letters A-H/a-h)")]
    BadCastling(String),
    #[error("malformed en passant field {0:?} (expected '-' or a square)")]
    BadEnPassant(String),
    #[error("malformed halfmove clock {0:?} (expected a non-negative integer)")]
    BadHalfmove(String),
    #[error("malformed fullmove number {0:?} (expected a non-negative integer)")]
    BadFullmove(String),
    /// A counter that is a number, but one past what pgnmill counts to
    /// (a 32-bit clock): said as such, not as malformed.
    #[error("{field} {value} is too large (at most {max})", max = u32::MAX)]
    CounterTooLarge { field: &'static str, value: String },
}

/// A FEN as written, unvalidated beyond what docs/chess.md (section FEN) says a parser refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    castling: String,
    pub ep_square: Option<Square>,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Setup {
    /// Parses a FEN. Fields 5 and 6 are optional (read as 0 and 1).
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        Setup::parse_bytes(fen.as_bytes())
    }

    /// Parses a FEN given as bytes (never panics, whatever the bytes).
    pub fn parse_bytes(fen: &[u8]) -> Result<Setup, FenError> {
        // Fields with the byte offset where each starts (for column numbers).
        let mut fields: [(usize, &[u8]); 6] = [(0, &[]); 6];
        let mut n = 0usize;
        let mut i = 0usize;
        while i < fen.len() {
            while i < fen.len() && fen[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= fen.len() {
                break;
            }
            let start = i;
            while i < fen.len() && !fen[i].is_ascii_whitespace() {
                i += 1;
            }
            let field = &fen[start..i];
            if n >= 6 {
                return Err(FenError::TooManyFields {
                    found: n + 1,
                    extra: String::from_utf8_lossy(field).into_owned(),
                });
            }
            fields[n] = (start, field);
            n += 1;
        }
        // Text that does not start with a board (a word, a sentence) is
        // named as such, not as a FEN that lacks its last fields.
        if n > 0 && !fields[0].1.contains(&b'/') {
            return Err(FenError::NotABoard(lossy(fields[0].1)));
        }
        if n < 4 {
            return Err(FenError::MissingFields {
                found: n,
                missing: missing_fields(n),
            });
        }
        let board = parse_placement(fields[0].0, fields[0].1)?;
        let turn = match fields[1].1 {
            b"w" => Color::White,
            b"b" => Color::Black,
            other => return Err(FenError::BadTurn(lossy(other))),
        };
        let castling = parse_castling(fields[2].1)?;
        let ep_square = match fields[3].1 {
            b"-" => None,
            // Any square, as python-chess reads it: one no double step can
            // have made (on another rank too) is dropped when the position
            // is set up (`Position::from_setup`), and named by the audit.
            s => match Square::parse(s) {
                Some(sq) => Some(sq),
                None => return Err(FenError::BadEnPassant(lossy(s))),
            },
        };
        let halfmove = if n > 4 {
            parse_counter(fields[4].1, "halfmove clock", FenError::BadHalfmove)?
        } else {
            0
        };
        let fullmove = if n > 5 {
            parse_counter(fields[5].1, "fullmove number", FenError::BadFullmove)?.max(1)
        } else {
            1
        };
        Ok(Setup {
            board,
            turn,
            castling,
            ep_square,
            halfmove,
            fullmove,
        })
    }

    /// The castling field exactly as written (`-` when empty).
    pub fn castling_text(&self) -> &str {
        &self.castling
    }

    /// True when the castling field uses file letters (Shredder-FEN, e.g.
    /// `HAha`), which only Chess960 needs.
    pub fn is_shredder(&self) -> bool {
        self.castling
            .bytes()
            .any(|c| matches!(c.to_ascii_lowercase(), b'a'..=b'h'))
    }
}

/// Names of the required fields from the `n`-th on.
fn missing_fields(n: usize) -> &'static str {
    match n {
        0 => "placement, side to move, castling, en passant",
        1 => "side to move, castling, en passant",
        2 => "castling, en passant",
        _ => "en passant",
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A FEN counter: ASCII digits (leading zeros allowed) up to
/// `u32::MAX`; `malformed` words any other text, `field` names the
/// counter when it is too large.
fn parse_counter(
    b: &[u8],
    field: &'static str,
    malformed: fn(String) -> FenError,
) -> Result<u32, FenError> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return Err(malformed(lossy(b)));
    }
    let mut v = 0u32;
    for &d in b {
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u32::from(d - b'0')))
            .ok_or_else(|| FenError::CounterTooLarge {
                field,
                value: lossy(b),
            })?;
    }
    Ok(v)
}

fn parse_placement(offset: usize, text: &[u8]) -> Result<Board, FenError> {
    let mut board = Board::empty();
    let ranks = text.split(|&c| c == b'/').count();
    if ranks != 8 {
        return Err(FenError::RankCount { found: ranks });
    }
    let mut pos = offset;
    for (i, rank_text) in text.split(|&c| c == b'/').enumerate() {
        let rank = 7 - i as u8;
        let mut covers: u32 = 0;
        let mut previous_digit = None;
        for &c in rank_text {
            pos += 1;
            match c {
                b'1'..=b'8' => {
                    if let Some(d) = previous_digit {
                        return Err(FenError::AdjacentDigits {
                            rank: rank + 1,
                            digits: format!("{}{}", char::from(d), char::from(c)),
                        });
                    }
                    previous_digit = Some(c);
                    covers += u32::from(c - b'0');
                    continue;
                }
                _ => match Piece::from_char(c) {
                    Some(piece) if c.is_ascii_alphabetic() => {
                        previous_digit = None;
                        if covers < 8 {
                            board.put(Square::from_coords(covers as u8, rank), piece);
                        }
                        covers += 1;
                    }
                    _ => {
                        let ch = std::str::from_utf8(&text[pos - 1 - offset..])
                            .ok()
                            .and_then(|s| s.chars().next())
                            .unwrap_or(char::REPLACEMENT_CHARACTER);
                        return Err(FenError::BadPiece { ch, column: pos });
                    }
                },
            }
        }
        pos += 1; // the '/'
        if covers != 8 {
            return Err(FenError::RankSquares {
                rank: rank + 1,
                covers,
            });
        }
    }
    Ok(board)
}

/// `-`, or up to two white letters followed by up to two black letters,
/// each `K`, `Q` or a file letter: the form python-chess accepts (a side
/// has two rooks to castle with; `KQkqq` and `KQKQ` are typing errors).
fn parse_castling(text: &[u8]) -> Result<String, FenError> {
    if text == b"-" {
        return Ok("-".to_string());
    }
    let ok_char = |c: u8| matches!(c, b'K' | b'Q' | b'A'..=b'H' | b'k' | b'q' | b'a'..=b'h');
    let white = text.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let black = text.len() - white;
    let well_formed = !text.is_empty()
        && white <= 2
        && black <= 2
        && text.iter().all(|&c| ok_char(c))
        && text[white..].iter().all(|c| c.is_ascii_lowercase());
    if !well_formed {
        return Err(FenError::BadCastling(lossy(text)));
    }
    Ok(lossy(text))
}
