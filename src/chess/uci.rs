//! UCI move notation (`e2e4`, `e7e8q`, `0000`). Castling is written `e1g1` in
//! standard chess and king-takes-rook (`e1h1`) in Chess960, as UCI engines
//! expect; both forms are accepted when parsing.

use super::castling::CastlingMode;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::san::SanError;
use super::square::Square;
use super::types::Role;

impl Position {
    /// The UCI text of a legal move.
    pub fn uci(&self, m: Move) -> String {
        let mut out = String::with_capacity(5);
        match m.kind() {
            MoveKind::Null => return "0000".to_string(),
            MoveKind::Castle if self.mode == CastlingMode::Standard => {
                let (kto, _) = super::castling::destinations(m.from(), m.to());
                out.push_str(&m.from().to_string());
                out.push_str(&kto.to_string());
            }
            _ => {
                out.push_str(&m.from().to_string());
                out.push_str(&m.to().to_string());
            }
        }
        if let Some(r) = m.promotion_role() {
            out.push(r.char());
        }
        out
    }

    /// Parses a UCI move and checks it is legal here.
    pub fn parse_uci(&self, text: &[u8]) -> Result<Move, SanError> {
        if text == b"0000" {
            return Ok(Move::null());
        }
        let invalid = || SanError::Invalid(String::from_utf8_lossy(text).into_owned());
        if text.len() != 4 && text.len() != 5 {
            return Err(invalid());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(invalid)?;
        let to = Square::parse(&text[2..4]).ok_or_else(invalid)?;
        let promo = match text.get(4) {
            Some(&c) => Some(Role::from_char(c).ok_or_else(invalid)?),
            None => None,
        };
        self.find_move(from, to, promo)
            .ok_or_else(|| SanError::Illegal(String::from_utf8_lossy(text).into_owned()))
    }

    /// The legal move from `from` to `to` (with `promo`). Castling is
    /// king-takes-rook; in standard chess the king's two-square step
    /// (`e1g1`) is accepted too.
    pub fn find_move(&self, from: Square, to: Square, promo: Option<Role>) -> Option<Move> {
        self.legal_moves().iter().copied().find(|m| {
            if m.from() != from || m.promotion_role() != promo {
                return false;
            }
            if m.to() == to {
                return true;
            }
            m.is_castle()
                && self.mode == CastlingMode::Standard
                && super::castling::destinations(m.from(), m.to()).0 == to
        })
    }
}
