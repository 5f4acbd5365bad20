//! Chinese move notation (中文纵线格式), read in every variant of docs/xiangqi-notation.md §3
//! and written in the default form.
//!
//! Read: piece + file + verb + number (炮二平五), a place word first for
//! stacked pieces (前车进一, 后炮平四, 中兵进一), the place word after the
//! piece (车前平三), the numbered pawn forms (一兵平五, 二卒平6), the file
//! kept for two stacked pawn files (前兵九平八) and its abbreviation without
//! the piece (前九平八). Trailing check or comment marks (`+`, `#`, `!`, `?`)
//! are dropped once the move is complete.
//!
//! Written: the xqbase computer standard, which is docs/xiangqi-notation.md's [default]:
//! 前/后 for two, 前/中/后 for three, 一..五 for four or five on one file and
//! for all pawns of two stacked files; advisors and elephants keep their file.

use super::characters::{
    Glyph, Position, RED_NUMERALS, glyph, number_char, ordinal_char, piece_char, position_char,
    verb_char,
};
use super::shape::describe;
use super::spec::{MoveSpec, StackPlace, Which};
use super::tandem::Placement;
use super::{Notation, NotationBoard, NotationError};
use crate::xiangqi::types::{Color, Move, Role};

/// The longest core a Chinese move has: 前兵九平八.
const MAX_GLYPHS: usize = 5;

/// Reads the text into what it says, without a board.
pub fn parse_text(text: &str) -> Result<MoveSpec, NotationError> {
    let err = |reason: &str| NotationError::syntax(text, Notation::Chinese, reason);
    let mut glyphs = [Glyph::Number(0); MAX_GLYPHS];
    let mut len = 0;
    let mut rest = text.trim();
    while let Some(c) = rest.chars().next() {
        let Some(g) = glyph(c) else { break };
        let Some(slot) = glyphs.get_mut(len) else {
            return Err(err("too many characters for one move"));
        };
        *slot = g;
        len += 1;
        rest = &rest[c.len_utf8()..];
    }
    if !is_annotation(rest) {
        return Err(err("unexpected characters after the move"));
    }
    let core = glyphs.get(..len).unwrap_or(&[]);
    let (role, which, direction, number) = match *core {
        [
            Glyph::Piece(r),
            Glyph::Number(f),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (r, Which::File(f), d, n),
        [
            Glyph::Piece(r),
            Glyph::Position(p),
            Glyph::Verb(d),
            Glyph::Number(n),
        ]
        | [
            Glyph::Position(p),
            Glyph::Piece(r),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (
            r,
            Which::Stack {
                at: place(p),
                file: None,
            },
            d,
            n,
        ),
        [
            Glyph::Position(p),
            Glyph::Piece(r),
            Glyph::Number(f),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (
            r,
            Which::Stack {
                at: place(p),
                file: Some(f),
            },
            d,
            n,
        ),
        // 前九平八: the abbreviated stacked-pawn form drops the piece.
        [
            Glyph::Position(p),
            Glyph::Number(f),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (
            Role::Pawn,
            Which::Stack {
                at: place(p),
                file: Some(f),
            },
            d,
            n,
        ),
        [
            Glyph::Number(k),
            Glyph::Piece(r),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (
            r,
            Which::Stack {
                at: StackPlace::Nth(k),
                file: None,
            },
            d,
            n,
        ),
        [
            Glyph::Number(k),
            Glyph::Piece(r),
            Glyph::Number(f),
            Glyph::Verb(d),
            Glyph::Number(n),
        ] => (
            r,
            Which::Stack {
                at: StackPlace::Nth(k),
                file: Some(f),
            },
            d,
            n,
        ),
        [] => return Err(err("no Chinese move characters")),
        _ => {
            return Err(err(
                "expected piece, file, verb (进/退/平), number, or a place word (前/中/后, 一..五) before the piece",
            ));
        }
    };
    Ok(MoveSpec {
        role,
        which,
        direction,
        number,
        file_means_middle: false,
    })
}

fn place(p: Position) -> StackPlace {
    match p {
        Position::Front => StackPlace::Front,
        Position::Middle => StackPlace::Middle,
        Position::Rear => StackPlace::Rear,
    }
}

/// See [`super::chinese_side_hint`].
pub fn side_hint(text: &str) -> Option<Color> {
    parse_text(text).ok()?;
    let mut red = false;
    let mut black = false;
    for (i, c) in text.chars().enumerate() {
        let folded = super::characters::fold_full_width(c);
        match folded {
            '帅' | '帥' | '仕' | '相' | '兵' => red = true,
            '将' | '將' | '士' | '象' | '卒' => black = true,
            '1'..='9' => black = true,
            // A leading numeral is the 一兵 ordinal, written alike by both.
            _ if i > 0 && RED_NUMERALS.contains(&folded) => red = true,
            _ => {}
        }
    }
    match (red, black) {
        (true, false) => Some(Color::Red),
        (false, true) => Some(Color::Black),
        _ => None,
    }
}

/// True if `rest` holds only marks that may follow a complete move: check
/// (`+`, full-width `＋`), mate (`#`), and the `!`/`?` of annotations.
pub fn is_annotation(rest: &str) -> bool {
    rest.chars()
        .map(super::characters::fold_full_width)
        .all(|c| matches!(c, '+' | '#' | '!' | '?'))
}

/// Appends `m` in Chinese notation (`traditional` picks 車馬帥將進後).
pub fn write(
    board: &impl NotationBoard,
    m: Move,
    traditional: bool,
    out: &mut String,
) -> Result<(), NotationError> {
    let notation = if traditional {
        Notation::ChineseTraditional
    } else {
        Notation::Chinese
    };
    let unwritable = |reason: &str| NotationError::Unwritable {
        mv: m,
        notation,
        reason: reason.to_owned(),
    };
    let p = Placement::of(board, m.from).ok_or_else(|| unwritable("no piece on its origin"))?;
    let color = p.piece.color;
    let role = p.piece.role;
    let (direction, number) = describe(color, role, m.from, m.to)
        .ok_or_else(|| unwritable("not the shape of a move of the piece on its origin"))?;
    let keeps_file = matches!(role, Role::King | Role::Advisor | Role::Elephant) || p.count < 2;
    let piece = piece_char(color, role, traditional);
    if keeps_file {
        out.push(piece);
        out.push(number_char(color, p.own_file).ok_or_else(|| unwritable("file out of range"))?);
    } else {
        let word = if p.stacked_files >= 2 {
            ordinal_char(p.series_index as u8)
        } else {
            match (p.count, p.index) {
                (2 | 3, 0) => Some(position_char(Position::Front, traditional)),
                (2, 1) | (3, 2) => Some(position_char(Position::Rear, traditional)),
                (3, 1) => Some(position_char(Position::Middle, traditional)),
                _ => ordinal_char(p.index as u8 + 1),
            }
        };
        out.push(word.ok_or_else(|| unwritable("too many pieces on one file"))?);
        out.push(piece);
    }
    out.push(verb_char(direction, traditional));
    out.push(number_char(color, number).ok_or_else(|| unwritable("number out of range"))?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::notation::characters::Direction;

    fn which(text: &str) -> Which {
        parse_text(text).unwrap().which
    }

    #[test]
    fn every_form_of_spec_3_3_reads() {
        let stack = |at, file| Which::Stack { at, file };
        assert_eq!(which("炮二平五"), Which::File(2));
        assert_eq!(which("马８进７"), Which::File(8));
        assert_eq!(which("前车进一"), stack(StackPlace::Front, None));
        assert_eq!(which("車後進1"), stack(StackPlace::Rear, None));
        assert_eq!(which("中兵平四"), stack(StackPlace::Middle, None));
        assert_eq!(which("一卒平5"), stack(StackPlace::Nth(1), None));
        assert_eq!(which("前兵九平八"), stack(StackPlace::Front, Some(9)));
        assert_eq!(which("前九平八"), stack(StackPlace::Front, Some(9)));
        assert_eq!(parse_text("前九平八").unwrap().role, Role::Pawn);
        assert_eq!(which("二兵七平八"), stack(StackPlace::Nth(2), Some(7)));
        let spec = parse_text("炮二平五+").unwrap();
        assert_eq!((spec.direction, spec.number), (Direction::Sideways, 5));
    }

    #[test]
    fn side_hints() {
        assert_eq!(side_hint("炮二平五"), Some(Color::Red));
        assert_eq!(side_hint("马８进７"), Some(Color::Black));
        assert_eq!(side_hint("一卒平5"), Some(Color::Black));
        assert_eq!(side_hint("一兵平五"), Some(Color::Red));
        assert_eq!(side_hint("前车进1"), Some(Color::Black));
        assert_eq!(side_hint("兵7进1"), None);
        assert_eq!(side_hint("h2e2"), None);
    }

    #[test]
    fn malformed_text_is_a_syntax_error() {
        for text in [
            "",
            "炮二平",
            "炮二平五五",
            "炮炮平五",
            "炮二平五x",
            "二平五",
        ] {
            assert!(
                matches!(parse_text(text), Err(NotationError::Syntax { .. })),
                "{text}"
            );
        }
    }
}
