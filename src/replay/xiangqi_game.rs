//! Replaying a xiangqi game's main line, every move checked by the kernel
//! whatever notation it is written in (Chinese, WXF, ICCS or WinBoard SAN).

use super::Status;
use super::curation::Trails;
use super::line::LineRecorder;
use super::ply_data::PlyRecorder;
use super::repetition::RepetitionTable;
use super::replayed_game::ReplayedGame;
use super::xiangqi_rules::XiangqiRules;
use super::{MoveLocation, MoveNumber, ReplayOptions};
use crate::openings::TableKind;
use crate::pgn::GameText;
use crate::xiangqi::Position;
use crate::xiangqi::notation::{
    GameReader, MoveFailure, Notation, detect_notation, move_failure, write_move_to,
};
use crate::xiangqi::types::{Color, Move};

/// Replays the main line of `game` from `fen` (or the standard start) into
/// `out`, whose tags, variant and start FEN are already set. Xiangqi has no
/// en passant: one repetition table serves both conventions. `at` says how
/// a move that cannot be played is located. Records the game's line and
/// opening in `trails`, started once the start position is set up.
#[allow(
    clippy::too_many_arguments,
    reason = "the game, its start, and what the replay records, as chess_game::replay takes them"
)]
pub(crate) fn replay(
    game: &GameText<'_>,
    fen: Option<&str>,
    has_tags: bool,
    options: &ReplayOptions,
    at: MoveLocation,
    trails: &mut Trails,
    recorder: &mut Option<PlyRecorder<'_>>,
    out: &mut ReplayedGame<'_>,
) {
    let mut repetitions = RepetitionTable::new();
    out.moves = options.moves.then(String::new);
    let mut pos = match fen {
        None => Position::startpos(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                (out.status, out.error) = match at {
                    MoveLocation::Record(record) => super::bad_record_fen(record, fen, e),
                    MoveLocation::Line => super::bad_fen(game, fen, e),
                };
                return;
            }
        },
    };
    // Named from a table only from the standard start without `[FEN]`,
    // as chess (record files write `[FEN]` only for another start).
    match fen {
        None => trails.line.start_xiangqi(),
        Some(_) => trails.line.start("xiangqi", &pos.fen()),
    }
    trails.start(TableKind::Xiangqi, fen.is_none(), &options.curation);
    let mut ply: u32 = 0;
    repetitions.start(pos.key(), pos.key(), 0);
    let mut rules = XiangqiRules::new(&pos);
    let mut tokens = game.main_line();
    let mut reader = GameReader::new();
    let mut ended_before_failure = false;
    let red_first = pos.turn() == Color::Red;
    let mut recorder = recorder.take();
    while let Some(token) = tokens.next() {
        if let Some(r) = &mut recorder {
            r.token(token.offset);
        }
        let text = String::from_utf8_lossy(token.text);
        if ply == 0 {
            reader.look_ahead(&text, || game.main_line().map(|t| t.text));
        }
        let m = match reader.read(&pos, &text) {
            Ok(m) => m,
            Err(e) => {
                let number = MoveNumber::new(pos.fullmove_number(), pos.turn() == Color::Black);
                let MoveFailure {
                    why,
                    not_a_move,
                    game_over,
                } = move_failure(&pos, &e, &text, ply);
                ended_before_failure = game_over;
                (out.status, out.error) = match at {
                    MoveLocation::Record(record) => {
                        super::failed_record_move(ply, number, &token, record, why)
                    }
                    MoveLocation::Line => {
                        let line = tokens.line_at(token.offset);
                        super::failed_move(ply, number, &token, line, has_tags, not_a_move, why)
                    }
                };
                name_in_chinese(&pos, &text, &mut out.error);
                break;
            }
        };
        super::record_move(&mut out.moves, || m);
        // The move in WXF needs the position before it.
        let mut wxf = String::new();
        if recorder.as_ref().is_some_and(PlyRecorder::wants_text) {
            let _ = write_move_to(&pos, m, Notation::Wxf, &mut wxf);
        }
        // A capture makes every earlier position unreachable.
        let irreversible = pos.is_capture(m);
        pos.play(m);
        trails.push(ply, LineRecorder::xiangqi_word(m), pos.key());
        ply += 1;
        let seen = if irreversible {
            repetitions.start(pos.key(), pos.key(), ply);
            1
        } else {
            repetitions.push(pos.key(), ply)
        };
        rules.after_ply(&pos, m, ply, irreversible, seen);
        if let Some(r) = &mut recorder {
            r.ply(token.offset + token.text.len(), seen, || {
                (wxf, m.to_string(), pos.fen())
            });
        }
    }
    super::unclosed::check_main_line(&tokens, out);
    out.plies = ply;
    out.final_fen = pos.fen();
    out.rep_ep_always = repetitions.stats_ep_legal();
    out.rep_ep_legal = out.rep_ep_always;
    // The recorded results refer to moves that were replayed only when
    // the game is ok (docs/xiangqi-rules.md, section 7). Record files
    // (XQF, CCBridge, DhtmlXQ) reach here as PGN text whose Result tag and
    // result token both hold the format's result field.
    let movetext_result = tokens
        .result()
        .map(|t| super::chess_game::result_text(t.text));
    // A game stopped at a move after its mate or stalemate ended on the
    // board: its results are held against that end as an ok game's are.
    let tag = out.tags.result.as_ref();
    let results =
        (out.status == Status::Ok || ended_before_failure).then_some((tag, movetext_result));
    let final_count = repetitions.count_ep_legal(pos.key());
    out.outcome = rules.finish(&pos, final_count, results);
    if let Some(r) = recorder {
        let end = tokens.result().map_or(game.bytes().len(), |t| t.offset);
        out.ply_data = Some(r.finish(Some(end), out.outcome.threefold_claim_ply, red_first));
    }
}

/// A move in ICCS that is not legal is named in Chinese as well (`move 1.
/// b0d1 (马八进六), ply 1 …`): the coordinates of a record's move (an XQF or
/// CCBridge move is two points, written in ICCS for the replay) mean little
/// to a collector who reads 马八进六. Nothing is added when the piece on the
/// origin cannot make such a move at all (no piece there, or a shape no
/// piece has): then no Chinese text exists.
#[cold]
#[inline(never)]
fn name_in_chinese(pos: &Position, text: &str, error: &mut String) {
    if detect_notation(text) != Some(Notation::Iccs) {
        return;
    }
    let text = text.trim();
    let Some(m) = Move::from_iccs(text.trim_end_matches(['+', '#'])) else {
        return;
    };
    let mut chinese = String::new();
    if write_move_to(pos, m, Notation::Chinese, &mut chinese).is_err() {
        return;
    }
    if let Some(at) = error.find(&format!(" {text},")) {
        error.insert_str(at + 1 + text.len(), &format!(" ({chinese})"));
    }
}
