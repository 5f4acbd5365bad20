//! Replaying a xiangqi game's main line, every move checked by the kernel
//! whatever notation it is written in (Chinese, WXF or ICCS).

use super::ReplayOptions;
use super::Status;
use super::record::GameRecord;
use super::repetition::RepetitionTable;
use crate::pgn::GameText;
use crate::xiangqi::Position;
use crate::xiangqi::notation::NotationError;
use crate::xiangqi::notation::{WINBOARD_SAN_HINT, looks_like_winboard_san, parse_move};
use crate::xiangqi::types::Color;

/// Replays the main line of `game` from `fen` (or the standard start) into
/// `out`, whose tags, variant and start FEN are already set. Xiangqi has no
/// en passant: one repetition table serves both conventions.
pub fn replay(
    game: &GameText<'_>,
    fen: Option<&str>,
    has_tags: bool,
    options: &ReplayOptions,
    out: &mut GameRecord<'_>,
) {
    let mut repetitions = RepetitionTable::new();
    out.moves = options.moves.then(String::new);
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                (out.status, out.error) = super::bad_fen(game, fen, e);
                return;
            }
        },
    };
    let mut ply: u32 = 0;
    repetitions.start(pos.key(), pos.key(), 0);
    let mut tokens = game.main_line();
    while let Some(token) = tokens.next() {
        let text = String::from_utf8_lossy(token.text);
        let m = match parse_move(&pos, &text) {
            Ok(m) => m,
            Err(e) => {
                (out.status, out.error) = failed(
                    &pos,
                    ply,
                    &token,
                    tokens.line_at(token.offset),
                    has_tags,
                    &e,
                );
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
            repetitions.start(pos.key(), pos.key(), ply);
        } else {
            repetitions.push(pos.key(), ply);
        }
    }
    if let Some(line) = tokens.unclosed_comment()
        && out.status == Status::Ok
    {
        (out.status, out.error) = super::unclosed_comment(line);
    }
    out.plies = ply;
    out.final_fen = pos.fen();
    out.rep_ep_always = repetitions.stats_ep_legal();
    out.rep_ep_legal = out.rep_ep_always;
}

/// The record of a token that is not a legal move here, naming the move as
/// a person counts it and why; the notation's message starts with the
/// token, which the record names already. Kept out of the replay loop.
#[cold]
#[inline(never)]
fn failed(
    pos: &Position,
    ply: u32,
    token: &crate::pgn::Token<'_>,
    line: u64,
    has_tags: bool,
    error: &NotationError,
) -> (Status, String) {
    let number = super::MoveNumber {
        number: pos.fullmove_number(),
        second_side: pos.turn() == Color::Black,
    };
    let why = error.to_string();
    let head = format!("{}: ", String::from_utf8_lossy(token.text));
    let why = why.strip_prefix(&head).unwrap_or(&why);
    super::failed_move(ply, number, token, line, has_tags, why)
}
