//! The movetext of a converted game: the moves of the main line and of
//! every variation replaced, everything else copied, and a stop at the
//! first move of a line that cannot be converted.
//!
//! A line that stops keeps its failing move and the rest as written,
//! after a `{pgnmill: not converted from here, …}` comment: read back, the
//! game fails at the same move as the original, so `pgnmill report` of a
//! converted file gives the same status (`illegal_move` at the same ply)
//! and a converted file never passes for whole when its original was not.

use super::tags::{Edit, splice};
use super::variations::{Variation, find_variations};
use super::{Failure, Outcome};
use crate::pgn::{GameText, MainLine, Movetext, Token};
use crate::records::{is_stop_comment, stop_comment, stop_reason};
use crate::xiangqi::Position;
use crate::xiangqi::notation::{GameReader, InMovetext, Notation, move_failure, parse_move_as};
use crate::xiangqi::types::Move;

/// What converting a game's movetext found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovetextOutcome {
    /// The main line: converted, or where it stopped.
    pub main: Outcome,
    /// The variations that stopped early, in the order they open.
    pub variation_stops: Vec<Failure>,
}

/// Appends the game's movetext to `out` with every move of the main line
/// and of its variations written in `to`, replaying from `fen` (or the
/// start position).
///
/// Each move is read against the position (any notation the crate reads),
/// written in `to`, and the written text read back: it must name the same
/// move, so a converted file replays to the same positions. A variation is
/// replayed from the position before the move it is an alternative to.
pub fn rewrite_movetext(
    game: &GameText<'_>,
    fen: Option<&str>,
    to: Notation,
    out: &mut String,
) -> MovetextOutcome {
    let bytes = game.bytes();
    let start = game.movetext_start().min(bytes.len());
    let variations = find_variations(bytes, start);
    let mut edits: Vec<Edit> = Vec::new();
    let mut converter = LineConverter {
        game,
        to,
        keep_positions: !variations.is_empty(),
        edits: &mut edits,
    };
    let start_pos = match fen {
        None => Ok(Position::startpos()),
        Some(fen) => Position::from_fen(fen).map_err(|e| {
            let line = game.tags().find(|t| t.name_is("fen")).map_or(1, |t| t.line);
            Failure {
                ply: 0,
                line,
                text: String::new(),
                reason: format!("[FEN \"{fen}\"]: {e}"),
            }
        }),
    };
    let (main, mut lines) = match start_pos {
        Ok(pos) => {
            let mut reader = GameReader::new();
            if let Some(first) = game.main_line().next() {
                let text = String::from_utf8_lossy(first.text);
                reader.look_ahead(&text, || game.main_line().map(|t| t.text));
            }
            // Where the last move ends, seen as the line is converted (all
            // of it is read when it does not stop, the one case it is used).
            let mut last_move_end = start;
            let tokens = game
                .main_line()
                .inspect(|t| last_move_end = t.offset + t.text.len());
            let line = converter.convert(tokens, pos, 0, &mut reader);
            let main = match &line.stop {
                Some(f) => Outcome::Stopped(f.clone()),
                None => match stop_after(bytes, last_move_end) {
                    Some((at, reason)) => Outcome::Stopped(Failure {
                        ply: 0,
                        line: game.movetext().line_at(at),
                        text: String::new(),
                        reason: String::from_utf8_lossy(reason).into_owned(),
                    }),
                    None => Outcome::Converted { plies: line.plies },
                },
            };
            (main, vec![Some((line, reader))])
        }
        Err(failure) => {
            // No move to convert: the marker before the first one.
            if let Some(first) = game.main_line().next() {
                converter.mark(first.offset, &failure);
            }
            (Outcome::Stopped(failure), vec![None])
        }
    };
    let mut variation_stops = Vec::new();
    // Parents come before the variations nested in them: a variation's
    // branch position is known when it is reached.
    for v in &variations {
        // A variation is left as written when it never closes (it holds
        // the rest of the game, which the report calls a parse error) or
        // branches from a line that stopped before it.
        let parent = lines
            .get(v.parent.map_or(0, |p| p + 1))
            .and_then(Option::as_ref);
        let converted = match parent.filter(|_| v.closed) {
            None => None,
            Some((line, reader)) => match line.before(v.open) {
                Branch::At(ply, pos) => {
                    let mut reader = reader.clone();
                    let tokens = variation_tokens(bytes, v);
                    let line = converter.convert(tokens, pos.clone(), ply, &mut reader);
                    variation_stops.extend(line.stop.clone());
                    Some((line, reader))
                }
                Branch::AfterStop => None,
                Branch::NoMove => {
                    variation_stops.push(Failure {
                        ply: 0,
                        line: game.movetext().line_at(v.open),
                        text: String::new(),
                        reason: "a variation before any move of its line is left as written".into(),
                    });
                    None
                }
            },
        };
        lines.push(converted);
    }
    splice(bytes, (start, bytes.len()), &mut edits, out);
    MovetextOutcome {
        main,
        variation_stops,
    }
}

/// One line as converted: its moves' offsets with the position before
/// each (when the game has variations to branch from them; none after
/// the move it stopped at), its plies, and where it stopped.
struct Line {
    /// (offset, 0-based ply, position before the move), in order.
    moves: Vec<(usize, u32, Option<Position>)>,
    plies: u32,
    stop: Option<Failure>,
}

/// Where a variation starts from.
enum Branch<'a> {
    /// Before the line's move of this 0-based ply, in this position.
    At(u32, &'a Position),
    /// After the move the line stopped at: not known.
    AfterStop,
    /// Ahead of every move of the line: an alternative to nothing.
    NoMove,
}

impl Line {
    /// Where a variation opening at `open` starts: before the last move
    /// of this line ahead of it.
    fn before(&self, open: usize) -> Branch<'_> {
        match self.moves.iter().rev().find(|m| m.0 < open) {
            None => Branch::NoMove,
            Some((_, ply, Some(pos))) => Branch::At(*ply, pos),
            Some((_, _, None)) => Branch::AfterStop,
        }
    }
}

/// The move tokens of a variation, stretch by stretch.
fn variation_tokens<'a>(bytes: &'a [u8], v: &Variation) -> impl Iterator<Item = Token<'a>> + 'a {
    let stretches = if v.closed {
        v.stretches.clone()
    } else {
        Vec::new()
    };
    stretches.into_iter().flat_map(move |(s, e)| {
        // A stretch holds no parenthesis: its tokens are its moves.
        MainLine::new(Movetext::new(bytes.get(..e).unwrap_or_default(), s, 0))
    })
}

/// Converts lines of one game into edits of its text.
struct LineConverter<'g, 'e> {
    game: &'g GameText<'g>,
    to: Notation,
    /// Whether to keep each move's position (for variations to start from).
    keep_positions: bool,
    edits: &'e mut Vec<Edit>,
}

impl LineConverter<'_, '_> {
    /// Converts the moves `tokens` of one line, the first of which is ply
    /// `ply` + 1 of the game, from `pos`.
    fn convert<'t>(
        &mut self,
        tokens: impl Iterator<Item = Token<'t>>,
        mut pos: Position,
        mut ply: u32,
        reader: &mut GameReader,
    ) -> Line {
        let mut line = Line {
            moves: Vec::new(),
            plies: 0,
            stop: None,
        };
        let mut written = String::with_capacity(16);
        for token in tokens {
            if line.stop.is_some() {
                // Past the stop: only where the moves are, for the
                // variations that branch from them.
                line.moves.push((token.offset, ply, None));
                continue;
            }
            let text = String::from_utf8_lossy(token.text);
            if self.keep_positions {
                line.moves.push((token.offset, ply, Some(pos.clone())));
            }
            match convert_move(reader, &pos, &text, ply, self.to, &mut written) {
                Ok(m) => {
                    let end = token.offset + token.text.len();
                    if written != text {
                        self.edits.push((token.offset, end, written.clone()));
                    }
                    pos.play(m);
                    ply += 1;
                    line.plies += 1;
                }
                Err(reason) => {
                    let failure = Failure {
                        ply: ply + 1,
                        line: self.game.movetext().line_at(token.offset),
                        text: text.into_owned(),
                        reason,
                    };
                    self.mark(token.offset, &failure);
                    line.stop = Some(failure);
                    if !self.keep_positions {
                        break;
                    }
                }
            }
        }
        line
    }

    /// Says before the move at `at` why the line stops there, unless an
    /// earlier run said so already.
    fn mark(&mut self, at: usize, failure: &Failure) {
        if marked_before(self.game.bytes(), at) {
            return;
        }
        let mut comment = stop_comment(&failure.in_text());
        comment.push(' ');
        self.edits.push((at, at, comment));
    }
}

/// A stop comment after the main line's last move (`from`), outside the
/// variations, and its reason: the line broke off there in an earlier
/// conversion (a record file cut short, `records::write_pgn`), and the
/// converted game still ends early for that reason.
fn stop_after(bytes: &[u8], from: usize) -> Option<(usize, &[u8])> {
    let mut depth = 0usize;
    let mut at = from;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'{' => {
                let comment = bytes.get(at..)?;
                if depth == 0
                    && let Some(reason) = stop_reason(comment)
                {
                    return Some((at, reason));
                }
                at += comment.iter().position(|&c| c == b'}')?;
            }
            b';' => {
                let rest = bytes.get(at..)?;
                at += rest.iter().position(|&c| c == b'\n')?;
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    None
}

/// Whether the text just before `at` (spaces aside) is a marker comment,
/// or the move's number (`5...`) after one: a record converted by an
/// earlier version has its comment before the number.
fn marked_before(bytes: &[u8], at: usize) -> bool {
    let mut head = trim_spaces_end(bytes.get(..at).unwrap_or_default());
    if head.last() == Some(&b'.') {
        let number = head
            .iter()
            .rposition(|b| !(b.is_ascii_digit() || *b == b'.'))
            .map_or(0, |i| i + 1);
        head = trim_spaces_end(head.get(..number).unwrap_or_default());
    }
    let Some(close) = head.len().checked_sub(1) else {
        return false;
    };
    if head.get(close) != Some(&b'}') {
        return false;
    }
    head.get(..close)
        .and_then(|h| h.iter().rposition(|&b| b == b'{'))
        .is_some_and(|open| head.get(open..).is_some_and(is_stop_comment))
}

/// `text` without the ASCII whitespace at its end.
fn trim_spaces_end(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    text.get(..end).unwrap_or_default()
}

/// Reads `text` in `pos`, writes the move in `to` into `written`, and checks
/// that `written` reads back as the same move.
fn convert_move(
    reader: &mut GameReader,
    pos: &Position,
    text: &str,
    ply: u32,
    to: Notation,
    written: &mut String,
) -> Result<Move, String> {
    // Said as a report says it, without the move's text, which the
    // failure names already.
    let m = reader
        .read(pos, text)
        .map_err(|e| move_failure(pos, &e, text, ply).why)?;
    written.clear();
    InMovetext(to)
        .write(pos, m, written)
        .map_err(|e| e.to_string())?;
    match parse_move_as(pos, written, to) {
        Ok(back) if back == m => Ok(m),
        Ok(back) => Err(format!(
            "{m} written in {to} as {written} reads back as {back} (a notation bug; please report it)"
        )),
        Err(e) => Err(format!(
            "{m} written in {to} as {written} does not read back: {e} (a notation bug; please report it)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::marked_before;

    #[test]
    fn a_stop_comment_is_found_before_the_move_and_before_its_number() {
        let mark = "{pgnmill: not converted from here, ply 10 \"e1f0\": why}";
        for (text, marked) in [
            (format!("5. H6+5 5... {mark} e1f0"), true),
            (format!("5. H6+5 {mark}\n5... e1f0"), true),
            (
                "5. H6+5 { pgnmill: not converted from here, x } 5...\ne1f0".to_string(),
                true,
            ),
            ("5. H6+5 {a comment} 5... e1f0".to_string(), false),
            ("5. H6+5 5... e1f0".to_string(), false),
            ("e1f0".to_string(), false),
        ] {
            let at = text.rfind("e1f0").unwrap();
            assert_eq!(marked_before(text.as_bytes(), at), marked, "{text}");
        }
    }
}
