//! ICCS coordinates (`h2e2`, `H2-E2`): read with a legality check, written
//! lower case without hyphen as engines and the vectors write them.

use super::characters::fold_full_width;
use super::resolve::role_name;
use super::{Notation, NotationBoard, NotationError};
use crate::xiangqi::types::{Color, Move};

/// The longest text read: `H2-E2` plus a few trailing marks.
const MAX_LEN: usize = 10;

/// Reads the coordinates without a board. Full-width characters are folded
/// and trailing check marks (`+`, `#`, `!`, `?`) dropped.
pub fn parse_text(text: &str) -> Result<Move, NotationError> {
    let err = |reason: &str| NotationError::syntax(text, Notation::Iccs, reason);
    let mut buf = [0u8; MAX_LEN];
    let mut len = 0;
    for c in text.trim().chars().map(fold_full_width) {
        let Some(slot) = buf.get_mut(len) else {
            return Err(err("too long for an ICCS move"));
        };
        if !c.is_ascii() {
            return Err(err("ICCS uses letters a-i and digits 0-9 only"));
        }
        *slot = c as u8;
        len += 1;
    }
    let mut b = buf.get(..len).unwrap_or(&[]);
    while let [head @ .., b'+' | b'#' | b'!' | b'?'] = b {
        b = head;
    }
    std::str::from_utf8(b)
        .ok()
        .and_then(Move::from_iccs)
        .ok_or_else(|| err("expected from and to squares such as h2e2 or H2-E2"))
}

/// Reads the coordinates and checks that they are a legal move.
pub fn parse(board: &impl NotationBoard, text: &str) -> Result<Move, NotationError> {
    let m = parse_text(text)?;
    let mut legal = false;
    board.for_each_legal_move(&mut |l| legal |= l == m);
    if legal {
        return Ok(m);
    }
    let side = |c: Color| match c {
        Color::Red => "red",
        Color::Black => "black",
    };
    let turn = board.turn();
    let reason = match board.piece_at(m.from) {
        None => format!("no piece on {}", m.from),
        Some(p) if p.color != turn => format!(
            "the piece on {} is {}'s, but {} is to move",
            m.from,
            side(p.color),
            side(turn)
        ),
        Some(p) => format!(
            "the {} {} on {} has no legal move to {}",
            side(p.color),
            role_name(p.role),
            m.from,
            m.to
        ),
    };
    Err(NotationError::Illegal {
        text: text.to_owned(),
        reason,
    })
}

/// Appends `h2e2`.
pub fn write(m: Move, out: &mut String) {
    use std::fmt::Write as _;
    let _ = write!(out, "{m}");
}
