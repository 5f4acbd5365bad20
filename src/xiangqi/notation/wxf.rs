//! WXF notation (`C2.5`, `H8+7`, `R+.3`), read in the wxf.org and pyffish
//! dialects and written in the wxf.org form.
//!
//! Read (docs/xiangqi-notation.md §4, §6.2): piece letters K A E H R C P and the alternatives
//! G, B, N, S, in either case; ASCII or full-width characters (`Ｃ２＝５`);
//! `.` or `=` for sideways, or no operator at all (`C25`); tandem `+`/`-`
//! after the letter or before it (`R+.3`, `+R.3` as some files write);
//! pyffish's file digit for one of two tandem pieces (`R5-3`); the pawn
//! stacks `++`, `--`, `P7` (the middle of three or five), `7+`, `77`, `7-`
//! and pyffish's index + file `27=8`. Trailing `+`, `#`, `!`, `?` after a
//! complete move are dropped.
//!
//! Written: letters K A E H R C P, `+ - .`, tandem and pawn-stack forms of
//! wxf.org; advisors and elephants keep their file digit. For PGN movetext
//! ([`write_for_movetext`]) one form changes: a sideways move whose form
//! starts with two digits (`77.6`, the middle of three pawns when two files
//! hold stacked pawns) is a move number `77.` and a `6` to PGN readers that
//! follow the standard to the letter (pgnmill's own reads it as the move),
//! so it is written in pyffish's form, the pawn's index from the front and
//! `=` (`27=6`), which [`parse_text`] reads as that pawn first.

use super::characters::fold_full_width;
use super::shape::describe;
use super::spec::{Direction, MoveSpec, StackPlace, Which};
use super::tandem::Placement;
use super::{Notation, NotationBoard, NotationError};
use crate::xiangqi::types::{Move, Role};

/// A WXF text can mean two things only in one case (`33.4`: the middle pawn
/// of file 3 to wxf.org, the third pawn of file 3 to pyffish), so at most
/// two readings, the likelier first.
#[derive(Copy, Clone, Debug)]
pub struct Readings {
    specs: [MoveSpec; 2],
    len: usize,
}

impl std::ops::Deref for Readings {
    type Target = [MoveSpec];
    fn deref(&self) -> &[MoveSpec] {
        self.specs.get(..self.len).unwrap_or(&[])
    }
}

/// The longest text read: a 4-character move and a few trailing marks.
const MAX_LEN: usize = 12;

/// Reads the text into what it says, without a board.
pub fn parse_text(text: &str) -> Result<Readings, NotationError> {
    let err = |reason: &str| NotationError::syntax(text, Notation::Wxf, reason);
    let mut buf = [0u8; MAX_LEN];
    let mut len = 0;
    for c in text.trim().chars().map(fold_full_width) {
        if !c.is_ascii() {
            return Err(err("WXF uses letters, digits and + - . = only"));
        }
        let Some(slot) = buf.get_mut(len) else {
            return Err(err("too long for a WXF move"));
        };
        *slot = c as u8;
        len += 1;
    }
    let b = buf.get(..len).unwrap_or(&[]);
    let [s0, s1, op, rest @ ..] = b else {
        return Err(err(
            "too short: a WXF move is piece, file, operator, number",
        ));
    };

    // The operator, and where the number is.
    let (direction, number, tail) = match (op, rest) {
        (b'+', [n, tail @ ..]) => (Direction::Forward, *n, tail),
        (b'-', [n, tail @ ..]) => (Direction::Backward, *n, tail),
        (b'.' | b'=', [n, tail @ ..]) => (Direction::Sideways, *n, tail),
        (n @ b'1'..=b'9', tail) => (Direction::Sideways, *n, tail),
        _ => return Err(err("expected + - . or = and a number after the piece")),
    };
    let number = digit(number).ok_or_else(|| err("the number must be a digit 1-9"))?;
    if !tail.iter().all(|c| matches!(c, b'+' | b'#' | b'!' | b'?')) {
        return Err(err("unexpected characters after the move"));
    }

    let spec = |role, which| MoveSpec {
        role,
        which,
        direction,
        number,
        file_means_middle: false,
    };
    let stack = |at, file| Which::Stack { at, file };
    let one = |s: MoveSpec| Readings {
        specs: [s, s],
        len: 1,
    };
    let readings = match (*s0, *s1) {
        (l, d) if letter(l).is_some() && digit(d).is_some() => {
            let (Some(role), Some(file)) = (letter(l), digit(d)) else {
                return Err(err("bad piece letter"));
            };
            one(MoveSpec {
                file_means_middle: true,
                ..spec(role, Which::File(file))
            })
        }
        (l, sign @ (b'+' | b'-')) | (sign @ (b'+' | b'-'), l) if letter(l).is_some() => {
            let role = letter(l).ok_or_else(|| err("bad piece letter"))?;
            let at = if sign == b'+' {
                StackPlace::WxfPlus
            } else {
                StackPlace::WxfMinus
            };
            one(spec(role, stack(at, None)))
        }
        (b'+', b'+') => one(spec(Role::Pawn, stack(StackPlace::Front, None))),
        (b'-', b'-') => one(spec(Role::Pawn, stack(StackPlace::Rear, None))),
        (f, sign @ (b'+' | b'-')) if digit(f).is_some() => {
            let at = if sign == b'+' {
                StackPlace::Front
            } else {
                StackPlace::Rear
            };
            one(spec(Role::Pawn, stack(at, digit(f))))
        }
        (a, f) if digit(a).is_some() && digit(f).is_some() => {
            let (Some(a), Some(f)) = (digit(a), digit(f)) else {
                return Err(err("bad digit"));
            };
            let pyffish = spec(Role::Pawn, stack(StackPlace::Nth(a), Some(f)));
            if a == f {
                let official = spec(Role::Pawn, stack(StackPlace::Middle, Some(f)));
                // pyffish writes `=` for sideways and wxf.org `.`; let the
                // operator pick which reading comes first.
                let specs = if *op == b'=' {
                    [pyffish, official]
                } else {
                    [official, pyffish]
                };
                Readings { specs, len: 2 }
            } else {
                one(pyffish)
            }
        }
        _ => {
            return Err(err(
                "expected a piece letter (K A E H R C P) with a file digit or + / -, or a pawn-stack form",
            ));
        }
    };
    Ok(readings)
}

/// The role of a WXF piece letter, either case, with the alternatives of
/// docs/xiangqi-notation.md §2 (G king, B elephant, N horse, S pawn).
fn letter(c: u8) -> Option<Role> {
    Some(match c.to_ascii_uppercase() {
        b'K' | b'G' => Role::King,
        b'A' => Role::Advisor,
        b'E' | b'B' => Role::Elephant,
        b'H' | b'N' => Role::Horse,
        b'R' => Role::Rook,
        b'C' => Role::Cannon,
        b'P' | b'S' => Role::Pawn,
        _ => return None,
    })
}

fn digit(c: u8) -> Option<u8> {
    matches!(c, b'1'..=b'9').then(|| c - b'0')
}

/// The official letter of a role.
fn role_letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Rook => 'R',
        Role::Cannon => 'C',
        Role::Pawn => 'P',
    }
}

fn digit_char(n: usize) -> Option<char> {
    (1..=9).contains(&n).then(|| char::from(b'0' + n as u8))
}

/// Appends `m` in official WXF notation.
pub fn write(board: &impl NotationBoard, m: Move, out: &mut String) -> Result<(), NotationError> {
    write_form(board, m, false, out)
}

/// Appends `m` in official WXF notation, but in a form that PGN movetext
/// reads as one move (see the module's notes: `27=6`, not `77.6`).
pub fn write_for_movetext(
    board: &impl NotationBoard,
    m: Move,
    out: &mut String,
) -> Result<(), NotationError> {
    write_form(board, m, true, out)
}

/// `movetext`: no form that starts with two digits and `.`.
fn write_form(
    board: &impl NotationBoard,
    m: Move,
    movetext: bool,
    out: &mut String,
) -> Result<(), NotationError> {
    let unwritable = |reason: &str| NotationError::Unwritable {
        mv: m,
        notation: Notation::Wxf,
        reason: reason.to_owned(),
    };
    let p = Placement::of(board, m.from).ok_or_else(|| unwritable("no piece on its origin"))?;
    let role = p.piece.role;
    let (direction, number) = describe(p.piece.color, role, m.from, m.to)
        .ok_or_else(|| unwritable("not the shape of a move of the piece on its origin"))?;
    let letter = role_letter(role);
    let file = digit_char(usize::from(p.own_file)).ok_or_else(|| unwritable("bad file"))?;
    let keeps_file = matches!(role, Role::King | Role::Advisor | Role::Elephant) || p.count < 2;
    let last = p.count.saturating_sub(1);
    let (a, b) = if keeps_file {
        (letter, file)
    } else if p.stacked_files >= 2 {
        // Two stacked pawn files: the file digit replaces the letter.
        match (p.count, p.index) {
            (_, 0) => (file, '+'),
            (3, 1) => (file, file),
            (_, i) if i == last => (file, '-'),
            (_, i) => pyffish_form(i, file).ok_or_else(|| unwritable("stack too tall"))?,
        }
    } else {
        match (p.count, p.index) {
            (2 | 3, 0) => (letter, '+'),
            (2, 1) | (3, 2) => (letter, '-'),
            (3, 1) | (5, 2) => (letter, file),
            (4 | 5, 0) => ('+', '+'),
            (4 | 5, 1) => (letter, '+'),
            (4, 2) | (5, 3) => (letter, '-'),
            (4, 3) | (5, 4) => ('-', '-'),
            (_, i) => pyffish_form(i, file).ok_or_else(|| unwritable("stack too tall"))?,
        }
    };
    let mut operator = match direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    };
    let (mut a, b) = (a, b);
    if movetext && operator == '.' && a.is_ascii_digit() && b.is_ascii_digit() {
        // `=` makes the reader try pyffish's `<index><file>` first.
        a = digit_char(p.index + 1).ok_or_else(|| unwritable("stack too tall"))?;
        operator = '=';
    }
    out.push(a);
    out.push(b);
    out.push(operator);
    out.push(digit_char(usize::from(number)).ok_or_else(|| unwritable("bad number"))?);
    Ok(())
}

/// pyffish's `<index><file>` for stacks wxf.org has no form for.
fn pyffish_form(index: usize, file: char) -> Option<(char, char)> {
    Some((digit_char(index + 1)?, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> MoveSpec {
        parse_text(text).unwrap()[0]
    }

    #[test]
    fn every_form_of_spec_4_reads() {
        let stack = |at, file| Which::Stack { at, file };
        assert_eq!(first("C2.5").which, Which::File(2));
        assert_eq!(first("c2=5").direction, Direction::Sideways);
        assert_eq!(first("C25").number, 5);
        assert_eq!(first("Ｈ８＋７").role, Role::Horse);
        assert_eq!(first("N8+7").role, Role::Horse);
        assert_eq!(first("B3+5").role, Role::Elephant);
        assert_eq!(first("R+.3").which, stack(StackPlace::WxfPlus, None));
        assert_eq!(first("+R.3").which, stack(StackPlace::WxfPlus, None));
        assert_eq!(first("C--1").which, stack(StackPlace::WxfMinus, None));
        assert_eq!(first("++.4").which, stack(StackPlace::Front, None));
        assert_eq!(first("--.4").which, stack(StackPlace::Rear, None));
        assert_eq!(first("3+.4").which, stack(StackPlace::Front, Some(3)));
        assert_eq!(first("27=8").which, stack(StackPlace::Nth(2), Some(7)));
        // `33.4`: wxf.org's middle pawn first, pyffish's third pawn second;
        // with `=` the other way round.
        let dot = parse_text("33.4").unwrap();
        assert_eq!(dot.len(), 2);
        assert_eq!(dot[0].which, stack(StackPlace::Middle, Some(3)));
        let eq = parse_text("33=4").unwrap();
        assert_eq!(eq[0].which, stack(StackPlace::Nth(3), Some(3)));
        assert_eq!(first("R1+1+").number, 1);
    }

    #[test]
    fn malformed_text_is_a_syntax_error() {
        for text in [
            "",
            "C2",
            "C2.",
            "C2.0",
            "X2.5",
            "C2*5",
            "C2.5x",
            "C0.5",
            "炮二平五",
        ] {
            assert!(
                matches!(parse_text(text), Err(NotationError::Syntax { .. })),
                "{text}"
            );
        }
    }
}
