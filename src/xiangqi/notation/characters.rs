//! The characters of Chinese move notation, in every variant a reader meets.
//!
//! `docs/xiangqi-notation.md` §3.2 lists the forms seen in real files (kuanCCH2, vschess, cchess):
//! simplified and traditional pieces and verbs, the red-only variants 俥/傌,
//! the black-only 砲/包, the old verbs 上/下, and black's ASCII or full-width
//! digits. Reading maps each of them to one meaning; writing picks the
//! project's default form from the tables at the end.

use crate::xiangqi::types::{Color, Role};

/// Which piece of a stack on one file is meant (前 / 中 / 后).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Position {
    Front,
    Middle,
    Rear,
}

/// How the piece moves: 进 toward the opponent, 退 back, 平 along the rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// What one character of a Chinese move means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Glyph {
    Piece(Role),
    Position(Position),
    Verb(Direction),
    /// A number 1..=9, written as a red numeral or a black digit. Readers do
    /// not insist on the colour: files mix them, and ordinals (一卒) use
    /// Chinese numerals for black too.
    Number(u8),
}

/// Folds a full-width form (U+FF01..U+FF5E, e.g. `１`, `Ｃ`, `＋`) to its
/// ASCII twin; other characters are returned unchanged.
pub fn fold_full_width(c: char) -> char {
    let u = c as u32;
    if (0xFF01..=0xFF5E).contains(&u) {
        char::from_u32(u - 0xFEE0).unwrap_or(c)
    } else {
        c
    }
}

/// The meaning of one character (full-width digits already accepted), or
/// `None` if it is not part of Chinese move notation.
pub fn glyph(c: char) -> Option<Glyph> {
    use Glyph::*;
    Some(match fold_full_width(c) {
        '车' | '車' | '俥' => Piece(Role::Rook),
        '马' | '馬' | '傌' => Piece(Role::Horse),
        '炮' | '砲' | '包' => Piece(Role::Cannon),
        '相' | '象' => Piece(Role::Elephant),
        '仕' | '士' => Piece(Role::Advisor),
        '帅' | '帥' | '将' | '將' => Piece(Role::King),
        '兵' | '卒' => Piece(Role::Pawn),
        '前' => Position(self::Position::Front),
        '中' => Position(self::Position::Middle),
        '后' | '後' => Position(self::Position::Rear),
        '进' | '進' | '上' => Verb(Direction::Forward),
        '退' | '下' => Verb(Direction::Backward),
        '平' => Verb(Direction::Sideways),
        d @ '1'..='9' => Number(d as u8 - b'0'),
        other => Number(red_numeral_value(other)?),
    })
}

/// Red's numerals 一..九 as numbers.
fn red_numeral_value(c: char) -> Option<u8> {
    RED_NUMERALS
        .iter()
        .position(|&n| n == c)
        .map(|i| i as u8 + 1)
}

/// True for characters only the traditional script uses in move text, so
/// that a sniffer can tell 車1進2 from 车1进2.
pub fn is_traditional_only(c: char) -> bool {
    matches!(
        c,
        '車' | '俥' | '馬' | '傌' | '帥' | '將' | '進' | '後' | '砲'
    )
}

/// Red's numerals, 一 = 1 .. 九 = 9.
pub const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The character written for a piece, in simplified (`traditional` false)
/// or traditional script. Only the king and horse/chariot differ, as in the
/// vectors' `chinese_trad` column (車 馬 帥 將; 仕 相 炮 兵 are shared).
pub fn piece_char(color: Color, role: Role, traditional: bool) -> char {
    match (role, color, traditional) {
        (Role::King, Color::Red, false) => '帅',
        (Role::King, Color::Red, true) => '帥',
        (Role::King, Color::Black, false) => '将',
        (Role::King, Color::Black, true) => '將',
        (Role::Advisor, Color::Red, _) => '仕',
        (Role::Advisor, Color::Black, _) => '士',
        (Role::Elephant, Color::Red, _) => '相',
        (Role::Elephant, Color::Black, _) => '象',
        (Role::Horse, _, false) => '马',
        (Role::Horse, _, true) => '馬',
        (Role::Rook, _, false) => '车',
        (Role::Rook, _, true) => '車',
        (Role::Cannon, _, _) => '炮',
        (Role::Pawn, Color::Red, _) => '兵',
        (Role::Pawn, Color::Black, _) => '卒',
    }
}

/// The verb character written by default.
pub fn verb_char(direction: Direction, traditional: bool) -> char {
    match (direction, traditional) {
        (Direction::Forward, false) => '进',
        (Direction::Forward, true) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    }
}

/// The position word written by default.
pub fn position_char(position: Position, traditional: bool) -> char {
    match (position, traditional) {
        (Position::Front, _) => '前',
        (Position::Middle, _) => '中',
        (Position::Rear, false) => '后',
        (Position::Rear, true) => '後',
    }
}

/// A file or distance as the mover writes it: red numerals for red, ASCII
/// digits for black (2020 rulebook 1.1; the vectors' default). `n` must be
/// 1..=9; anything else yields `None`.
pub fn number_char(color: Color, n: u8) -> Option<char> {
    if !(1..=9).contains(&n) {
        return None;
    }
    Some(match color {
        Color::Red => RED_NUMERALS[usize::from(n - 1)],
        Color::Black => char::from(b'0' + n),
    })
}

/// An ordinal 一..九 for the numbered pawn forms (一兵, 二卒): xqbase writes
/// Chinese numerals for both sides.
pub fn ordinal_char(n: u8) -> Option<char> {
    number_char(Color::Red, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_of_spec_3_2_is_read() {
        for c in ['车', '車', '俥'] {
            assert_eq!(glyph(c), Some(Glyph::Piece(Role::Rook)));
        }
        for c in ['马', '馬', '傌'] {
            assert_eq!(glyph(c), Some(Glyph::Piece(Role::Horse)));
        }
        for c in ['炮', '砲', '包'] {
            assert_eq!(glyph(c), Some(Glyph::Piece(Role::Cannon)));
        }
        assert_eq!(glyph('進'), Some(Glyph::Verb(Direction::Forward)));
        assert_eq!(glyph('上'), Some(Glyph::Verb(Direction::Forward)));
        assert_eq!(glyph('下'), Some(Glyph::Verb(Direction::Backward)));
        assert_eq!(glyph('後'), Some(Glyph::Position(Position::Rear)));
        assert_eq!(glyph('７'), Some(Glyph::Number(7)));
        assert_eq!(glyph('7'), Some(Glyph::Number(7)));
        assert_eq!(glyph('七'), Some(Glyph::Number(7)));
        assert_eq!(glyph('0'), None);
        assert_eq!(glyph('x'), None);
    }
}
