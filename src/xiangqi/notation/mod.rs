//! Xiangqi move notation: Chinese (simplified and traditional), WXF and ICCS,
//! read and written against a board; WinBoard SAN (`Che2`) read.
//!
//! Reading works in two steps. A notation module turns the text into a
//! `spec::MoveSpec` — "the front red chariot goes forward one" — without
//! looking at the board; `resolve` then finds the one legal move that fits.
//! So a text is accepted exactly when it names one legal move, and the error
//! for any other text says which piece was missing, which move was illegal or
//! which moves were all meant. Writing follows the **default** forms of
//! `docs/xiangqi-notation.md`.
//!
//! The notation code sees the board only through [`NotationBoard`], so it
//! does not depend on the rules kernel; the kernel's position implements the
//! trait. Reading costs one [`NotationBoard::is_legal`] test per piece the
//! text could mean, not a move generation, so it can sit in a replay loop.

mod board;
mod characters;
mod chinese;
mod error;
mod failure;
mod files;
mod iccs;
mod notations;
mod resolve;
mod shape;
mod spec;
mod tandem;
mod winboard;
mod wxf;

use crate::xiangqi::types::{Color, Move};

pub use board::NotationBoard;
pub use error::NotationError;
pub use failure::{MoveFailure, move_failure};
pub use notations::Notation;
pub use winboard::{RankBase, SanMove, looks_like_winboard_san};

/// Which notation a single move token is written in, judged from its shape
/// alone (no board): ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`, `Ｃ２＝５`, `27=8`)
/// or Chinese (`ChineseTraditional` when it uses a traditional-only
/// character such as 車 or 進). `None` for anything that is no move in any of
/// them, so that a game's movetext can be sniffed token by token.
pub fn detect_notation(token: &str) -> Option<Notation> {
    let token = token.trim();
    if iccs::parse_text(token).is_ok() {
        Some(Notation::Iccs)
    } else if wxf::parse_text(token).is_ok() {
        Some(Notation::Wxf)
    } else if chinese::parse_text(token).is_ok() {
        if token.chars().any(characters::is_traditional_only) {
            Some(Notation::ChineseTraditional)
        } else {
            Some(Notation::Chinese)
        }
    } else {
        None
    }
}

/// The side a Chinese move text is written for, judged from its
/// characters alone: red numerals (炮二平五) or red-only pieces (帅 仕 相 兵)
/// say red, Arabic digits (马8进7, 马８进７) or black-only pieces (将 士 象 卒)
/// say black. `None` when the text is not Chinese, carries no such sign, or
/// its signs disagree. The ordinal of 一兵/一卒 is not a sign (xqbase writes
/// it in Chinese numerals for both sides).
///
/// [`parse_move`] does not insist on this (files mix the forms); a replay can
/// compare it with the side to move to spot a game that lost a half-move.
pub fn chinese_side_hint(text: &str) -> Option<Color> {
    chinese::side_hint(text.trim())
}

/// Reads a move in whichever notation `text` is written in (see
/// [`detect_notation`]) and returns the one legal move it names.
pub fn parse_move(board: &impl NotationBoard, text: &str) -> Result<Move, NotationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotationError::Empty);
    }
    match detect_notation(trimmed) {
        Some(notation) => parse_move_as(board, trimmed, notation),
        None => Err(NotationError::Unrecognized {
            text: trimmed.to_owned(),
        }),
    }
}

/// Reads the moves of one game, each in whichever notation it is written in
/// ([`parse_move`]), and WinBoard SAN (`Che2`) with the rank numbering the
/// game uses.
///
/// A SAN text does not say by itself whether its ranks run 0-9 (WinBoard)
/// or 1-10 (Fairy-Stockfish, elephantchess.io); docs/xiangqi-formats.md §4:
/// a `0` or `10` in any of the game's moves settles it, otherwise the first
/// move that is legal in only one of the two does. So the reader is made
/// once per game and keeps what the game has settled.
///
/// In a game whose first move is SAN, a text is read as SAN first: `C4f6`
/// (the cannon on rank 4 to f6) is also ICCS `c4f6` written in capitals.
#[derive(Clone, Debug, Default)]
pub struct GameReader {
    san_base: Option<RankBase>,
    san_game: bool,
}

impl GameReader {
    /// A reader for a game whose notation is not known yet.
    pub fn new() -> GameReader {
        GameReader::default()
    }

    /// Called with the game's first move text before it is read: when that
    /// text is SAN, the game's move texts (`texts`, asked for only then) are
    /// looked through for a rank that settles the base. Other games pay one
    /// look at their first move.
    pub fn look_ahead<'t, I>(&mut self, first: &str, texts: impl FnOnce() -> I)
    where
        I: Iterator<Item = &'t [u8]>,
    {
        if self.san_game || detect_notation(first).is_some() || !looks_like_winboard_san(first) {
            return;
        }
        self.san_game = true;
        self.san_base = texts()
            .filter_map(|t| std::str::from_utf8(t).ok())
            .find_map(|t| winboard::parse_text(t).and_then(|s| s.rank_base_hint()));
    }

    /// A reader for a game known to number its SAN ranks in `base`.
    pub fn with_san_base(base: RankBase) -> GameReader {
        GameReader {
            san_base: Some(base),
            san_game: true,
        }
    }

    /// The rank base the game has settled, if it has.
    pub fn san_base(&self) -> Option<RankBase> {
        self.san_base
    }

    /// Reads one move of the game (see [`parse_move`]; SAN as described on
    /// [`GameReader`]).
    pub fn read(&mut self, board: &impl NotationBoard, text: &str) -> Result<Move, NotationError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(NotationError::Empty);
        }
        let detected = detect_notation(trimmed);
        if let Some(notation) = detected
            && !self.san_game
        {
            return parse_move_as(board, trimmed, notation);
        }
        match (detected, winboard::parse_text(trimmed)) {
            (Some(notation), Some(san)) => self
                .read_san(board, &san, trimmed)
                .or_else(|e| parse_move_as(board, trimmed, notation).map_err(|_| e)),
            (Some(notation), None) => parse_move_as(board, trimmed, notation),
            (None, Some(san)) => self.read_san(board, &san, trimmed),
            (None, None) => Err(NotationError::Unrecognized {
                text: trimmed.to_owned(),
            }),
        }
    }

    /// Reads a SAN text with the game's rank base, or settles the base.
    fn read_san(
        &mut self,
        board: &impl NotationBoard,
        san: &SanMove,
        trimmed: &str,
    ) -> Result<Move, NotationError> {
        match self.san_base {
            Some(base) => winboard::resolve(board, san, base, trimmed),
            None => {
                let (m, base) = winboard::resolve_unknown_base(board, san, trimmed)?;
                self.san_base = Some(base);
                Ok(m)
            }
        }
    }
}

/// Reads a move written in `notation` and returns the one legal move it
/// names. `Chinese` and `ChineseTraditional` both accept every character
/// variant of docs/xiangqi-notation.md §3.2.
pub fn parse_move_as(
    board: &impl NotationBoard,
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    match notation {
        Notation::Iccs => iccs::parse(board, text),
        Notation::Wxf => {
            let specs = wxf::parse_text(text)?;
            resolve::resolve_any(board, &specs, text, notation)
        }
        Notation::Chinese | Notation::ChineseTraditional => {
            let spec = chinese::parse_text(text)?;
            resolve::resolve_any(board, &[spec], text, notation)
        }
    }
}

/// Writes `m` in `notation`, in the default form of docs/xiangqi-notation.md.
///
/// A move that the board cannot describe (no piece of the side to move on
/// its origin, or a shape no piece has) cannot be written in Chinese or WXF;
/// it is then written in ICCS, so the output still says which move it was.
/// Use [`write_move_to`] to get an error instead.
pub fn write_move(board: &impl NotationBoard, m: Move, notation: Notation) -> String {
    let mut out = String::with_capacity(16);
    if write_move_to(board, m, notation, &mut out).is_err() {
        out.clear();
        out.push_str(&m.to_string());
    }
    out
}

/// Appends `m` written in `notation` to `out` (no allocation beyond the
/// growth of `out`), or says why the move cannot be written. The legality of
/// `m` is not checked: writing needs only the pieces.
pub fn write_move_to(
    board: &impl NotationBoard,
    m: Move,
    notation: Notation,
    out: &mut String,
) -> Result<(), NotationError> {
    match notation {
        Notation::Iccs => {
            iccs::write(m, out);
            Ok(())
        }
        Notation::Wxf => wxf::write(board, m, out),
        Notation::Chinese => chinese::write(board, m, false, out),
        Notation::ChineseTraditional => chinese::write(board, m, true, out),
    }
}

/// A notation as written into PGN movetext, where every move must read back
/// as the same one move, by any PGN reader: WXF's `77.6` would be a move
/// number to most of them, so the WXF writer gives `27=6` for it
/// (`wxf::write_for_movetext`); the other notations are written as
/// [`write_move_to`] writes them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InMovetext(pub Notation);

impl InMovetext {
    /// Appends `m` to `out`, as [`write_move_to`] does.
    pub fn write(self, board: &impl NotationBoard, m: Move, out: &mut String) -> WriteResult {
        match self.0 {
            Notation::Wxf => wxf::write_for_movetext(board, m, out),
            other => write_move_to(board, m, other, out),
        }
    }
}

/// What writing a move gives: nothing, or why it cannot be written.
pub type WriteResult = Result<(), NotationError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_names_round_trip() {
        for n in [
            Notation::Iccs,
            Notation::Wxf,
            Notation::Chinese,
            Notation::ChineseTraditional,
        ] {
            let name = match n {
                Notation::Iccs => "ICCS",
                Notation::Wxf => "wxf",
                Notation::Chinese => "Chinese",
                Notation::ChineseTraditional => "chinese-traditional",
            };
            assert_eq!(name.parse::<Notation>(), Ok(n));
        }
        assert!("san".parse::<Notation>().is_err());
        assert_eq!(Notation::ChineseTraditional.format_tag(), "Chinese");
    }
}
