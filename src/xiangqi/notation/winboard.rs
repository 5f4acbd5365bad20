//! XBoard/WinBoard's xiangqi SAN (`Che2`, `Hxc7`, `ed6+`) and its 1-10
//! rank dialect (Fairy-Stockfish, elephantchess.io: `Che3`, `Pg5`), read as
//! docs/xiangqi-formats.md §4 describes them.
//!
//! A SAN text names a piece letter (none for a pawn), an optional origin
//! file and/or rank, and a destination square. Which legal move it means is
//! found the chess way: every legal move of that piece type to that square
//! that fits the origin given, and exactly one must fit. Unlike Chinese and
//! WXF the text alone does not say which squares it means: WinBoard numbers
//! the ranks 0-9, the other dialects 1-10, so a game's [`RankBase`] must be
//! known (or found) before its moves can be read.

use super::resolve::role_name;
use super::{NotationBoard, NotationError};
use crate::xiangqi::types::{Move, Role, Square};

/// How a SAN game numbers the ranks, red's back rank first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RankBase {
    /// WinBoard/XBoard: ranks 0-9 (`Rh0`).
    Zero,
    /// Fairy-Stockfish, elephantchess.io: ranks 1-10 (`Rh1`, `Ra10`).
    One,
}

impl RankBase {
    /// The board rank (0-9) of a rank number written in this base.
    fn board_rank(self, written: u8) -> Option<u8> {
        let rank = match self {
            RankBase::Zero => Some(written),
            RankBase::One => written.checked_sub(1),
        }?;
        (rank < 10).then_some(rank)
    }

    /// How the base is named in messages.
    fn name(self) -> &'static str {
        match self {
            RankBase::Zero => "ranks 0-9",
            RankBase::One => "ranks 1-10",
        }
    }
}

/// A SAN text as written, before a board is looked at. Ranks are as
/// written (0-10), not yet put on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanMove {
    /// The piece type; a text without a letter is a pawn move.
    pub role: Role,
    /// The origin file (0 = a) the text gives, if any.
    pub from_file: Option<u8>,
    /// The origin rank as written, if any.
    pub from_rank: Option<u8>,
    /// The destination file (0 = a).
    pub to_file: u8,
    /// The destination rank as written.
    pub to_rank: u8,
}

impl SanMove {
    /// The rank base a rank in this text settles: a `0` can only be
    /// WinBoard's, a `10` only the 1-10 dialects'.
    pub fn rank_base_hint(&self) -> Option<RankBase> {
        [self.from_rank, Some(self.to_rank)]
            .into_iter()
            .flatten()
            .find_map(|r| match r {
                0 => Some(RankBase::Zero),
                10 => Some(RankBase::One),
                _ => None,
            })
    }
}

/// The longest SAN text read (`R10xa10+` and a few marks).
const MAX_LEN: usize = 12;

/// Reads the shape of a SAN text: an optional piece letter (K A E/B H/N R C
/// P), an optional origin file a-i and/or rank, an optional `x`, a
/// destination square, then optional `+`, `#`, `!`, `?`. `None` for any
/// other text. Plain ICCS (`h2e2`) has this shape as well (a pawn with its
/// full origin square), so callers try ICCS first.
pub fn parse_text(text: &str) -> Option<SanMove> {
    let mut b = text.trim().as_bytes();
    if b.len() > MAX_LEN {
        return None;
    }
    while let [head @ .., b'+' | b'#' | b'!' | b'?'] = b {
        b = head;
    }
    let (role, lettered, mut b) = match b {
        [p, rest @ ..] => match piece_role(*p) {
            Some(role) => (role, true, rest),
            None => (Role::Pawn, false, b),
        },
        [] => return None,
    };
    let to_rank = take_rank_back(&mut b)?;
    let to_file = take_file_back(&mut b)?;
    let mut capture = false;
    if let [head @ .., b'x'] = b {
        b = head;
        capture = true;
    }
    let from_rank = take_rank_back(&mut b);
    let from_file = take_file_back(&mut b);
    // A pawn capture names the pawn's file (`exe6`); a bare `xe6` is no move.
    if !b.is_empty() || (capture && !lettered && from_file.is_none()) {
        return None;
    }
    Some(SanMove {
        role,
        from_file,
        from_rank,
        to_file,
        to_rank,
    })
}

/// The role of an upper-case SAN piece letter (either letter of the two
/// naming conventions for elephant and horse).
fn piece_role(letter: u8) -> Option<Role> {
    Some(match letter {
        b'K' => Role::King,
        b'A' => Role::Advisor,
        b'E' | b'B' => Role::Elephant,
        b'H' | b'N' => Role::Horse,
        b'R' => Role::Rook,
        b'C' => Role::Cannon,
        b'P' => Role::Pawn,
        _ => return None,
    })
}

/// Takes a rank number (0-10) off the end of `b`.
fn take_rank_back(b: &mut &[u8]) -> Option<u8> {
    match *b {
        [head @ .., b'1', b'0'] => {
            *b = head;
            Some(10)
        }
        [head @ .., d] if d.is_ascii_digit() => {
            *b = head;
            Some(d - b'0')
        }
        _ => None,
    }
}

/// Takes a file letter a-i off the end of `b`.
fn take_file_back(b: &mut &[u8]) -> Option<u8> {
    match *b {
        [head @ .., f @ b'a'..=b'i'] => {
            *b = head;
            Some(f - b'a')
        }
        _ => None,
    }
}

/// True for a text shaped like WinBoard/XBoard xiangqi SAN (`Che2`, `Hc7`,
/// `Cxe6`, `Ege7`, `Rxi5`, `gf3`). Plain ICCS `h2e2` has this shape too, so
/// callers ask only about texts no other notation accepted.
pub fn looks_like_winboard_san(text: &str) -> bool {
    parse_text(text).is_some()
}

/// The one legal move `san` names in `board` with ranks numbered in `base`.
pub fn resolve(
    board: &impl NotationBoard,
    san: &SanMove,
    base: RankBase,
    text: &str,
) -> Result<Move, NotationError> {
    let illegal = |reason: String| NotationError::Illegal {
        text: text.to_owned(),
        reason,
    };
    let to_rank = base.board_rank(san.to_rank).ok_or_else(|| {
        illegal(format!(
            "rank {} does not exist in {}",
            san.to_rank,
            base.name()
        ))
    })?;
    let from_rank = match san.from_rank {
        None => None,
        Some(r) => Some(
            base.board_rank(r)
                .ok_or_else(|| illegal(format!("rank {r} does not exist in {}", base.name())))?,
        ),
    };
    let to = Square::new(san.to_file, to_rank)
        .ok_or_else(|| illegal("no such destination square".to_owned()))?;
    let turn = board.turn();
    let mut found: Option<Move> = None;
    let mut more = 0usize;
    board.for_each_legal_move(&mut |m| {
        let fits = m.to == to
            && san.from_file.is_none_or(|f| m.from.file() == f)
            && from_rank.is_none_or(|r| m.from.rank() == r)
            && board
                .piece_at(m.from)
                .is_some_and(|p| p.color == turn && p.role == san.role);
        if fits {
            if found.is_none() {
                found = Some(m);
            } else {
                more += 1;
            }
        }
    });
    match found {
        Some(m) if more == 0 => Ok(m),
        Some(m) => Err(NotationError::Ambiguous {
            text: text.to_owned(),
            reason: format!(
                "{} legal {} moves to {to} fit ({m} and {more} more); the text must name the origin file or rank",
                more + 1,
                role_name(san.role)
            ),
        }),
        None => Err(illegal(format!(
            "no {} can legally move to {to} ({})",
            role_name(san.role),
            base.name()
        ))),
    }
}

/// Reads a SAN text whose game has not settled its rank base: the text is
/// tried in both, and it must name a legal move in exactly one of them
/// (docs/xiangqi-formats.md §4), which is then the game's base.
pub fn resolve_unknown_base(
    board: &impl NotationBoard,
    san: &SanMove,
    text: &str,
) -> Result<(Move, RankBase), NotationError> {
    if let Some(base) = san.rank_base_hint() {
        return resolve(board, san, base, text).map(|m| (m, base));
    }
    let zero = resolve(board, san, RankBase::Zero, text);
    let one = resolve(board, san, RankBase::One, text);
    match (zero, one) {
        (Ok(m), Err(_)) => Ok((m, RankBase::Zero)),
        (Err(_), Ok(m)) => Ok((m, RankBase::One)),
        (Ok(a), Ok(b)) => Err(NotationError::Ambiguous {
            text: text.to_owned(),
            reason: format!(
                "SAN that is {a} with ranks 0-9 (WinBoard) and {b} with ranks 1-10; no move of the game says which"
            ),
        }),
        (Err(e), Err(_)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winboard_san_is_told_apart() {
        // From wukong-xiangqi's WinBoard games (testdata/xiangqi/corpus).
        for t in [
            "Che2", "Hc7", "Cxe6", "Ege7", "Rxi5", "ixi5", "gf3", "Ci4+", "Rh0", "g5", "Ra10",
            "Pg5", "R3a3", "Rxd9#",
        ] {
            assert!(looks_like_winboard_san(t), "{t}");
        }
        for t in [
            "炮二平五",
            "C2.5",
            "H8+7",
            "Ｃ２＝５",
            "e4x",
            "Qh4",
            "--",
            "1-0",
            "Cj2",
            "xe2",
            "Ch11",
            "",
        ] {
            assert!(!looks_like_winboard_san(t), "{t}");
        }
    }

    #[test]
    fn shapes_are_split_from_the_end() {
        let s = parse_text("R1a0").unwrap();
        assert_eq!(
            (s.role, s.from_file, s.from_rank, s.to_file, s.to_rank),
            (Role::Rook, None, Some(1), 0, 0)
        );
        let s = parse_text("exe6").unwrap();
        assert_eq!(
            (s.role, s.from_file, s.from_rank, s.to_file, s.to_rank),
            (Role::Pawn, Some(4), None, 4, 6)
        );
        let s = parse_text("Cbxb10+").unwrap();
        assert_eq!((s.from_file, s.to_rank), (Some(1), 10));
        assert_eq!(s.rank_base_hint(), Some(RankBase::One));
        assert_eq!(
            parse_text("Rh0").unwrap().rank_base_hint(),
            Some(RankBase::Zero)
        );
        assert_eq!(parse_text("Che2").unwrap().rank_base_hint(), None);
    }
}
