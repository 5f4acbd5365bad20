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
    out.repetitions.push(pos.key(), 0);
    for token in game.movetext() {
        match token.kind {
            TokenKind::Move => {}
            TokenKind::Result => break,
            TokenKind::Nag | TokenKind::Annotation => continue,
        }
        let text = String::from_utf8_lossy(token.text);
        let m = match parse_move(&pos, &text) {
            Ok(m) => m,
            Err(e) => {
                (out.status, out.error) = super::failed_move(ply, &token, has_tags, e);
                break;
            }
        };
        super::record_move(&mut out.moves, m);
        // A capture makes every earlier position unreachable.
        let irreversible = pos.is_capture(m);
        pos.play(m);
        ply += 1;
        if irreversible {
            out.repetitions.clear();
        }
        out.repetitions.push(pos.key(), ply);
    }
    out.plies = ply;
    out.final_fen = pos.fen();
    out
}
