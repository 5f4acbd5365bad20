//! The movetext of a converted game: main-line moves replaced, everything
//! else copied, and a stop at the first move that cannot be converted.

use super::tags::push_text;
use super::{Failure, Outcome};
use crate::pgn::GameText;
use crate::xiangqi::Position;
use crate::xiangqi::notation::{GameReader, InMovetext, Notation, parse_move_as};
use crate::xiangqi::types::Move;

/// Appends the game's movetext to `out` with every main-line move written in
/// `to`, replaying from `fen` (or the start position).
///
/// Each move is read against the position (any notation the crate reads),
/// written in `to`, and the written text read back: it must name the same
/// move, so a converted file replays to the same positions. At the first
/// move that fails, the text from that move up to the result is wrapped in a
/// `{pgnmill: … }` comment (its own braces turned into full-width ｛ ｝ so
/// the comment stays one comment) and the result is kept after it.
pub fn rewrite_movetext(
    game: &GameText<'_>,
    fen: Option<&str>,
    to: Notation,
    out: &mut String,
) -> Outcome {
    let bytes = game.bytes();
    let start = game.movetext_start().min(bytes.len());
    let mut tokens = game.main_line();
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                let line = game.tags().find(|t| t.name_is("fen")).map_or(1, |t| t.line);
                let failure = Failure {
                    ply: 0,
                    line,
                    text: String::new(),
                    reason: format!("[FEN \"{fen}\"]: {e}"),
                };
                // No move to convert (a movetext already wrapped by an
                // earlier run): copy it, so converting twice changes nothing.
                if tokens.next().is_some() {
                    let result = tokens.find_result();
                    stop(bytes, start, result.map(|t| t.offset), &failure, out);
                } else {
                    push_text(out, bytes.get(start..));
                }
                return Outcome::Stopped(failure);
            }
        },
    };
    let mut cursor = start;
    let mut ply: u32 = 0;
    let mut written = String::with_capacity(16);
    let mut reader = GameReader::new();
    while let Some(token) = tokens.next() {
        let text = String::from_utf8_lossy(token.text);
        if ply == 0 {
            reader.look_ahead(&text, || game.main_line().map(|t| t.text));
        }
        match convert_move(&mut reader, &pos, &text, to, &mut written) {
            Ok(m) => {
                push_text(out, bytes.get(cursor..token.offset));
                out.push_str(&written);
                cursor = token.offset + token.text.len();
                pos.play(m);
                ply += 1;
            }
            Err(reason) => {
                push_text(out, bytes.get(cursor..token.offset));
                let failure = Failure {
                    ply: ply + 1,
                    line: tokens.line_at(token.offset),
                    text: text.into_owned(),
                    reason,
                };
                let result = tokens.find_result();
                stop(bytes, token.offset, result.map(|t| t.offset), &failure, out);
                return Outcome::Stopped(failure);
            }
        }
    }
    push_text(out, bytes.get(cursor..));
    Outcome::Converted { plies: ply }
}

/// Reads `text` in `pos`, writes the move in `to` into `written`, and checks
/// that `written` reads back as the same move.
fn convert_move(
    reader: &mut GameReader,
    pos: &Position,
    text: &str,
    to: Notation,
    written: &mut String,
) -> Result<Move, String> {
    let m = reader.read(pos, text).map_err(|e| e.to_string())?;
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

/// Appends the text from `from` to the result (or to the end) inside one
/// comment that says why the conversion stopped, then the result and
/// whatever follows it, as written.
fn stop(bytes: &[u8], from: usize, result: Option<usize>, failure: &Failure, out: &mut String) {
    let end = result.unwrap_or(bytes.len()).max(from);
    let rest = bytes.get(from..end).unwrap_or_default();
    let kept_len = rest
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    let kept = String::from_utf8_lossy(rest.get(..kept_len).unwrap_or_default());
    out.push_str("{pgnmill: not converted from here, ");
    push_neutralised(out, &failure.to_string());
    if !kept.is_empty() {
        out.push_str("; as written: ");
        push_neutralised(out, &kept);
    }
    out.push('}');
    let trailing = rest.get(kept_len..).unwrap_or_default();
    if trailing.is_empty() && result.is_some() {
        out.push(' ');
    }
    push_text(out, Some(trailing));
    push_text(out, bytes.get(end..));
}

/// Appends `s` with `{` and `}` turned into full-width ｛ ｝, so that the
/// text can sit inside a PGN comment without ending it.
fn push_neutralised(out: &mut String, s: &str) {
    for c in s.chars() {
        out.push(match c {
            '{' => '｛',
            '}' => '｝',
            c => c,
        });
    }
}
