//! Replaying a xiangqi game's main line, every move checked by the kernel
//! whatever notation it is written in (Chinese, WXF or ICCS).

use super::ReplayOptions;
use super::repetition::RepetitionTable;
use super::tags::GameHeaders;
use crate::pgn::{GameText, TokenKind};
use crate::report::Status;
use crate::xiangqi::Position;
use crate::xiangqi::notation::parse_move;

/// What replaying a xiangqi main line found.
pub struct XiangqiReplay {
    pub plies: u32,
    pub final_fen: String,
    /// Xiangqi has no en passant: one table serves both conventions.
    pub repetitions: RepetitionTable,
    pub status: Status,
    pub error: String,
    pub moves: Option<String>,
}

/// Replays the main line of `game` from `fen` (or the standard start).
pub fn replay(
    game: &GameText<'_>,
    _headers: &GameHeaders<'_>,
    fen: Option<&str>,
    has_tags: bool,
    options: &ReplayOptions,
) -> XiangqiReplay {
    let mut out = XiangqiReplay {
        plies: 0,
        final_fen: String::new(),
        repetitions: RepetitionTable::new(),
        status: Status::Ok,
        error: String::new(),
        moves: options.moves.then(String::new),
    };
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                out.status = Status::BadFen;
                out.error = format!("[FEN \"{fen}\"]: {e}");
                return out;
            }
        },
    };
    let mut ply: u32 = 0;
    out.repetitions.start(pos.key(), pos.key(), 0);
    let mut tokens = game.movetext();
    while let Some(token) = tokens.next() {
        match token.kind {
            TokenKind::Move => {}
            TokenKind::Result => break,
            TokenKind::Nag | TokenKind::Annotation => continue,
        }
        let text = String::from_utf8_lossy(token.text);
        let m = match parse_move(&pos, &text) {
            Ok(m) => m,
            Err(e) => {
                (out.status, out.error) =
                    super::failed_move(ply, &token, tokens.line_at(token.offset), has_tags, e);
                if ply == 0 && looks_like_winboard_san(&text) {
                    out.status = Status::Unsupported;
                    out.error.push_str(WINBOARD_SAN_HINT);
                }
                break;
            }
        };
        super::record_move(&mut out.moves, || m);
        // A capture makes every earlier position unreachable.
        let irreversible = pos.is_capture(m);
        pos.play(m);
        ply += 1;
        if irreversible {
            out.repetitions.start(pos.key(), pos.key(), ply);
        } else {
            out.repetitions.push(pos.key(), ply);
        }
    }
    if let Some(line) = tokens.unclosed_comment()
        && out.status == Status::Ok
    {
        (out.status, out.error) = super::unclosed_comment(line);
    }
    out.plies = ply;
    out.final_fen = pos.fen();
    out
}

/// Appended to the error of a game whose first move is WinBoard SAN.
pub const WINBOARD_SAN_HINT: &str = " (WinBoard/XBoard xiangqi SAN such as Che2 or Hxc7 is not read; save the game in ICCS, WXF or Chinese notation)";

/// True for a move written in WinBoard/XBoard's xiangqi SAN (`Che2`, `Hc7`,
/// `Cxe6`, `Ege7`, `Rxi5`, `gf3`): an optional piece letter, an optional
/// origin file and/or rank, an optional `x`, a destination square a0..i9 and
/// an optional `+`/`#`. Only asked about a text that no notation this crate
/// reads accepted (plain ICCS `h2e2` has this shape too, but is read first),
/// so that such games get status `unsupported` rather than `illegal_move`.
pub fn looks_like_winboard_san(text: &str) -> bool {
    let b = text.trim_end_matches(['+', '#']).as_bytes();
    let file = |c: &u8| (b'a'..=b'i').contains(c);
    let rest = match b {
        [p, rest @ ..] if b"KAEHRCPNB".contains(p) => rest,
        rest => rest,
    };
    let [head @ .., f, r] = rest else {
        return false;
    };
    if !file(f) || !r.is_ascii_digit() {
        return false;
    }
    let head = head.strip_suffix(b"x").unwrap_or(head);
    match head {
        [] => true,
        [c] => file(c) || c.is_ascii_digit(),
        [c, d] => file(c) && d.is_ascii_digit(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::looks_like_winboard_san;

    #[test]
    fn winboard_san_is_told_apart() {
        // From wukong-xiangqi's WinBoard games (testdata/xiangqi/corpus).
        for t in [
            "Che2", "Hc7", "Cxe6", "Ege7", "Rxi5", "ixi5", "gf3", "Ci4+", "Rh0", "g5",
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
        ] {
            assert!(!looks_like_winboard_san(t), "{t}");
        }
    }
}
