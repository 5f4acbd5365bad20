//! The castling audit: which rights of a written castling field the board
//! supports, which it contradicts and why (`docs/chess.md`, "The castling
//! field must agree with the board").
//!
//! Rights are resolved to the squares of their rooks. A right stands only if
//! its king and rook are where the rules need them; the others are dropped
//! and reported, with the same outcome as python-chess's
//! `clean_castling_rights()` (standard chess additionally requires the rook
//! on its corner, as the table of docs/chess.md says).

use super::bitboard::Bitboard;
use super::board::Board;
use super::square::Square;
use super::types::{Color, Role};

/// How castling rights are read and how castling moves are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum CastlingMode {
    /// King on e1/e8, rooks on the a- and h-files; UCI castling is `e1g1`.
    #[default]
    Standard,
    /// King between its rooks anywhere on the back rank; X-FEN or
    /// Shredder-FEN castling field; UCI castling is king-takes-rook.
    Chess960,
}

/// What the audit found in a castling field.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CastlingAudit {
    /// The rights as written that contradict the board, in field order
    /// (e.g. `"Kq"`); empty if none.
    pub invalid: String,
    /// The castling field used for replay: the written field without the
    /// invalid rights, `"-"` if none remain.
    pub effective: String,
    /// One clause per invalid right, `"; "`-separated, e.g.
    /// `"K: no white rook on h1; q: black king not on e8"`.
    pub reason: String,
}

impl CastlingAudit {
    /// True when the field agrees with the board.
    pub fn is_clean(&self) -> bool {
        self.invalid.is_empty()
    }
}

/// Where king and rook land when the king on `king` castles with the rook on
/// `rook`: (king's square, rook's square). Same rule for standard chess and
/// Chess960: g- and f-files on the h-side, c- and d-files on the a-side.
#[inline]
pub fn destinations(king: Square, rook: Square) -> (Square, Square) {
    let rank = king.rank();
    if rook.file() > king.file() {
        (Square::from_coords(6, rank), Square::from_coords(5, rank))
    } else {
        (Square::from_coords(2, rank), Square::from_coords(3, rank))
    }
}

/// Resolves the written castling field against the board: the rook squares
/// whose rights stand, and the audit.
pub fn audit(board: &Board, text: &str, mode: CastlingMode) -> (Bitboard, CastlingAudit) {
    // Each letter resolved to its rook square or to why it cannot stand;
    // a letter naming a rook already granted is a harmless repetition.
    let mut granted = Bitboard::EMPTY;
    let mut verdicts: Vec<(char, Result<Square, String>)> = Vec::new();
    for c in text.chars().filter(|&c| c != '-') {
        match resolve(board, c, mode) {
            Ok(sq) if granted.contains(sq) => {}
            Ok(sq) => {
                granted |= sq;
                verdicts.push((c, Ok(sq)));
            }
            Err(why) => verdicts.push((c, Err(why))),
        }
    }
    // Only the outermost right on each side of the king can stand (python-chess
    // keeps the lowest and highest castling rook of each colour).
    for (c, verdict) in verdicts.iter_mut() {
        let Ok(sq) = *verdict else { continue };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let mine = granted & Bitboard::rank(color.back_rank());
        let king_file = board.king_of(color).map_or(4, |k| k.file());
        let outer = if sq.file() < king_file {
            mine.first()
        } else {
            mine.last()
        };
        if let Some(o) = outer.filter(|&o| o != sq) {
            *verdict = Err(format!(
                "{} already castles on that side with the rook on {o}",
                color.name()
            ));
        }
    }
    let mut kept = Bitboard::EMPTY;
    let mut audit = CastlingAudit::default();
    let mut reasons: Vec<String> = Vec::new();
    for (c, verdict) in verdicts {
        match verdict {
            Ok(sq) => {
                kept |= sq;
                audit.effective.push(c);
            }
            Err(why) => {
                audit.invalid.push(c);
                reasons.push(format!("{c}: {why}"));
            }
        }
    }
    if audit.effective.is_empty() {
        audit.effective.push('-');
    }
    audit.reason = reasons.join("; ");
    (kept, audit)
}

/// The rook square a single castling letter names, or why it cannot stand.
fn resolve(board: &Board, c: char, mode: CastlingMode) -> Result<Square, String> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let name = color.name();
    let back = color.back_rank();
    let rooks = board.by_piece(color, Role::Rook) & Bitboard::rank(back);
    let Some(king) = board.king_of(color) else {
        return Err(format!("{name} has no king"));
    };
    let lower = c.to_ascii_lowercase();
    match mode {
        CastlingMode::Standard => {
            let file = match lower {
                'k' | 'h' => 7,
                'q' | 'a' => 0,
                _ => {
                    return Err("not a right in standard chess (rooks start on the a- and h-files; is this Chess960?)".to_string());
                }
            };
            let king_home = Square::from_coords(4, back);
            let rook_home = Square::from_coords(file, back);
            let mut problems = Vec::new();
            if king != king_home {
                problems.push(format!("{name} king not on {king_home}"));
            }
            if !rooks.contains(rook_home) {
                problems.push(format!("no {name} rook on {rook_home}"));
            }
            if problems.is_empty() {
                Ok(rook_home)
            } else {
                Err(problems.join(", "))
            }
        }
        CastlingMode::Chess960 => {
            if king.rank() != back {
                return Err(format!("{name} king not on its back rank"));
            }
            let below = Bitboard((1u64 << king.index()) - 1);
            match lower {
                'k' => (rooks & !below)
                    .last()
                    .ok_or_else(|| format!("no {name} rook on the h-side of the king on {king}")),
                'q' => (rooks & below)
                    .first()
                    .ok_or_else(|| format!("no {name} rook on the a-side of the king on {king}")),
                f @ 'a'..='h' => {
                    let sq = Square::from_coords(f as u8 - b'a', back);
                    if rooks.contains(sq) {
                        Ok(sq)
                    } else {
                        Err(format!("no {name} rook on {sq}"))
                    }
                }
                _ => Err("not a castling letter".to_string()),
            }
        }
    }
}
