//! From what a text says ([`MoveSpec`]) to the one legal move it names.
//!
//! The pieces the text could mean are found on the board, each is moved the
//! way the text says, and each result is checked for legality. Exactly one must survive; otherwise the error says
//! whether the piece was missing, the move impossible or illegal, or which
//! moves were all meant. Being this lenient is deliberate: pyffish writes a
//! file digit for one of two chariots when only one of them can make the
//! move (`R5-3`), and that reading is still unique.

use std::fmt::Write as _;

use super::characters::{number_char, position_char};
use super::shape::{moves_straight, target};
use super::spec::{Direction, MoveSpec, StackPlace, Which};
use super::tandem::{Stack, StackedFiles};
use super::{Notation, NotationBoard, NotationError, files};
use crate::xiangqi::types::{Color, Move, Role, Square};

/// The most pieces a text can point at: all of one side's pawns.
const MAX_CANDIDATES: usize = 10;

/// Tries each reading of the text in turn (a WXF `33.4` can be read two
/// ways) and returns the first that names a legal move, or the first
/// reading's error.
pub fn resolve_any(
    board: &impl NotationBoard,
    specs: &[MoveSpec],
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    let mut first_error = None;
    for spec in specs {
        match resolve(board, spec, text, notation) {
            Ok(m) => return Ok(m),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| NotationError::syntax(text, notation, "no reading")))
}

/// A fixed-capacity list of the squares the text could mean.
struct Candidates {
    squares: [Option<Square>; MAX_CANDIDATES],
    len: usize,
}

impl Candidates {
    fn new() -> Self {
        Candidates {
            squares: [None; MAX_CANDIDATES],
            len: 0,
        }
    }

    fn push(&mut self, sq: Square) {
        if let Some(slot) = self.squares.get_mut(self.len) {
            *slot = Some(sq);
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares.iter().flatten().copied()
    }
}

/// Resolves one reading.
pub fn resolve(
    board: &impl NotationBoard,
    spec: &MoveSpec,
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    let color = board.turn();
    let words = Words { color, notation };
    let role = spec.role;
    let no_piece = |reason: String| NotationError::NoSuchPiece {
        text: text.to_owned(),
        reason,
    };

    if spec.direction == Direction::Sideways && !moves_straight(role) {
        return Err(NotationError::Illegal {
            text: text.to_owned(),
            reason: format!("a {} never moves sideways", role_name(role)),
        });
    }

    let mut candidates = Candidates::new();
    // The stack on a named file, kept for WXF's "file digit = middle pawn".
    let mut file_stack = None;
    match spec.which {
        Which::File(n) => {
            let stack = stack_on_own_file(board, color, role, n, text, notation)?;
            if stack.len() == 0 {
                return Err(no_piece(format!(
                    "no {} on file {}",
                    words.piece(role),
                    words.file(n)
                )));
            }
            stack.iter().for_each(|sq| candidates.push(sq));
            file_stack = Some(stack);
        }
        Which::Stack { at, file: Some(n) } => {
            let stack = stack_on_own_file(board, color, role, n, text, notation)?;
            let Some(sq) = stack.pick(at) else {
                return Err(no_piece(format!(
                    "file {} holds {} {}, so there is no {} one",
                    words.file(n),
                    stack.len(),
                    words.pieces(role),
                    place_name(at)
                )));
            };
            candidates.push(sq);
        }
        Which::Stack { at, file: None } => {
            let stacked = StackedFiles::find(board, color, role);
            if stacked.is_empty() {
                return Err(no_piece(format!(
                    "no file holds two or more {}, so {} names no piece",
                    words.pieces(role),
                    place_name(at)
                )));
            }
            match at {
                StackPlace::Nth(k) => match stacked.nth_in_series(k) {
                    Some(sq) => candidates.push(sq),
                    None => {
                        let total: usize = stacked.iter().map(Stack::len).sum();
                        return Err(no_piece(format!(
                            "the stacked files hold only {total} {}, so there is no number {k}",
                            words.pieces(role)
                        )));
                    }
                },
                _ => {
                    stacked
                        .iter()
                        .filter_map(|s| s.pick(at))
                        .for_each(|sq| candidates.push(sq));
                    if candidates.len == 0 {
                        return Err(no_piece(format!(
                            "no stack of {} has a {} one",
                            words.pieces(role),
                            place_name(at)
                        )));
                    }
                }
            }
        }
    }

    // Move each candidate the way the text says.
    let mut moves: [Option<Move>; MAX_CANDIDATES] = [None; MAX_CANDIDATES];
    for (slot, from) in moves.iter_mut().zip(candidates.iter()) {
        *slot =
            target(color, role, from, spec.direction, spec.number).map(|to| Move::new(from, to));
    }
    if moves.iter().all(Option::is_none) {
        return Err(NotationError::Illegal {
            text: text.to_owned(),
            reason: format!(
                "the {} on {} cannot move that way (off the board, or not the shape of a {} move)",
                words.piece(role),
                list_squares(candidates.iter()),
                role_name(role)
            ),
        });
    }

    // Mark the candidate moves that are legal.
    let mut legal = [false; MAX_CANDIDATES];
    for (flag, cand) in legal.iter_mut().zip(moves.iter()) {
        *flag = cand.is_some_and(|m| board.is_legal(m));
    }
    let mut found = moves
        .iter()
        .zip(legal.iter())
        .filter(|(_, ok)| **ok)
        .filter_map(|(m, _)| *m);
    let Some(first) = found.next() else {
        let mut tried = moves.iter().flatten().copied();
        let reason = match (tried.next(), tried.next()) {
            (Some(m), None) => format!(
                "the {} on {} cannot go to {}: {m} is not a legal move here",
                words.piece(role),
                m.from,
                m.to
            ),
            _ => format!(
                "none of {} is a legal move here",
                list_moves(moves.iter().flatten().copied())
            ),
        };
        return Err(NotationError::Illegal {
            text: text.to_owned(),
            reason,
        });
    };
    if found.next().is_none() {
        return Ok(first);
    }

    // Several legal moves fit. WXF's plain file digit on a stack of three or
    // five pawns means the middle one (wxf.org).
    if spec.file_means_middle
        && role == Role::Pawn
        && let Some(mid) = file_stack.and_then(|s| s.pick(StackPlace::Middle))
        && let Some(m) = moves
            .iter()
            .zip(legal.iter())
            .find_map(|(m, ok)| m.filter(|m| *ok && m.from == mid))
    {
        return Ok(m);
    }
    let meant = moves
        .iter()
        .zip(legal.iter())
        .filter(|(_, ok)| **ok)
        .filter_map(|(m, _)| *m);
    let count = meant.clone().count();
    Err(NotationError::Ambiguous {
        text: text.to_owned(),
        reason: format!(
            "{count} {} could be meant ({}); name the piece by its place on the file",
            words.pieces(role),
            list_moves(meant)
        ),
    })
}

/// The stack on the mover's own file `n`.
fn stack_on_own_file(
    board: &impl NotationBoard,
    color: Color,
    role: Role,
    n: u8,
    text: &str,
    notation: Notation,
) -> Result<Stack, NotationError> {
    let file = files::iccs_file(color, n)
        .ok_or_else(|| NotationError::syntax(text, notation, format!("file {n} is not 1..9")))?;
    Ok(Stack::on_file(board, color, role, file))
}

/// How errors name pieces and files for the side to move, in the style of
/// the notation read (red's files as 二 in Chinese text, 2 in WXF).
struct Words {
    color: Color,
    notation: Notation,
}

impl Words {
    fn side(&self) -> &'static str {
        match self.color {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    fn piece(&self, role: Role) -> String {
        format!("{} {}", self.side(), role_name(role))
    }

    fn pieces(&self, role: Role) -> String {
        format!("{} {}s", self.side(), role_name(role))
    }

    fn file(&self, n: u8) -> String {
        let chinese = matches!(
            self.notation,
            Notation::Chinese | Notation::ChineseTraditional
        );
        match (chinese, number_char(self.color, n)) {
            (true, Some(c)) => c.to_string(),
            _ => n.to_string(),
        }
    }
}

/// English names, as in the piece table of docs/xiangqi-notation.md §2.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Advisor => "advisor",
        Role::Elephant => "elephant",
        Role::Horse => "horse",
        Role::Rook => "chariot",
        Role::Cannon => "cannon",
        Role::Pawn => "pawn",
    }
}

fn place_name(at: StackPlace) -> String {
    match at {
        StackPlace::Front => format!(
            "front ({})",
            position_char(super::characters::Position::Front, false)
        ),
        StackPlace::Middle => format!(
            "middle ({})",
            position_char(super::characters::Position::Middle, false)
        ),
        StackPlace::Rear => format!(
            "rear ({})",
            position_char(super::characters::Position::Rear, false)
        ),
        StackPlace::Nth(k) => format!("number {k}"),
        StackPlace::WxfPlus => "WXF '+'".to_owned(),
        StackPlace::WxfMinus => "WXF '-'".to_owned(),
    }
}

fn list_squares(squares: impl Iterator<Item = Square>) -> String {
    let mut s = String::new();
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{sq}");
    }
    s
}

fn list_moves(moves: impl Iterator<Item = Move>) -> String {
    let mut s = String::new();
    for (i, m) in moves.enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{m}");
    }
    s
}
