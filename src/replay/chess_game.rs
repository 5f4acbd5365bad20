//! Replaying a chess or Chess960 game's main line.

use super::ReplayOptions;
use super::Status;
use super::curation::{CurationOptions, Trails};
use super::draw_rules::DrawRules;
use super::line::LineRecorder;
use super::ply_data::PlyRecorder;
use super::repetition::RepetitionTable;
use super::replayed_game::{CastlingConflict, ReplayedGame};
use crate::chess::{CastlingMode, EpMode, Move, Position, Role, SanError, Setup};
use crate::openings::TableKind;
use crate::pgn::{GameText, MainLine, Token, lines};

/// The start position of a game: the standard one, or its `[FEN]` header
/// with the castling rights the board contradicts dropped and reported.
fn start_position(
    fen: Option<&str>,
    mode: CastlingMode,
) -> Result<(Position, Option<CastlingConflict>), String> {
    let Some(fen) = fen else {
        return Ok((Position::startpos_with(mode), None));
    };
    let setup = Setup::parse(fen).map_err(|e| e.to_string())?;
    let (pos, audit) = Position::from_setup(&setup, mode).map_err(|e| e.to_string())?;
    let conflict = (!audit.is_clean()).then(|| CastlingConflict {
        castling: setup.castling_text().to_string(),
        invalid: audit.invalid,
        effective: audit.effective,
        reason: audit.reason,
    });
    Ok((pos, conflict))
}

/// Replays the main line of `game` from `fen` (or the standard start) into
/// `out`, whose tags, variant and start FEN are already set. `has_tags`
/// tells a game from a stray run of text: a tagless "game" whose very first
/// token cannot be played is a parse error, not an illegal move. Records
/// the game's line and opening in `trails`, started once the start
/// position is set up.
#[allow(
    clippy::too_many_arguments,
    reason = "the game, its start, and what the replay records, passed on to the loop as they are"
)]
pub(crate) fn replay(
    game: &GameText<'_>,
    fen: Option<&str>,
    mode: CastlingMode,
    has_tags: bool,
    options: &ReplayOptions,
    trails: &mut Trails,
    recorder: &mut Option<PlyRecorder<'_>>,
    out: &mut ReplayedGame<'_>,
) {
    let curation = &options.curation;
    let replay = match (options.moves, recorder.is_some()) {
        (false, false) => replay_main_line::<false, false>,
        (true, false) => replay_main_line::<true, false>,
        (false, true) => replay_main_line::<false, true>,
        (true, true) => replay_main_line::<true, true>,
    };
    replay(game, fen, mode, has_tags, curation, trails, recorder, out)
}

/// Starts the trails of a game from `pos`, played under `mode` (a
/// Chess960 game without `[FEN]` starts from the standard array, `pos`
/// then in standard mode): lichess names only standard chess from the
/// standard start without a `[FEN]` tag.
fn start_trails(
    trails: &mut Trails,
    pos: &Position,
    fen: Option<&str>,
    mode: CastlingMode,
    variant: &str,
    curation: &CurationOptions,
) {
    let standard = fen.is_none() && mode == CastlingMode::Standard;
    if standard {
        trails.line.start_chess();
    } else {
        trails.line.start(variant, &pos.fen(EpMode::Legal));
    }
    trails.start(TableKind::Chess, standard, curation);
}

/// [`replay`], with the `moves` column kept when `MOVES` and the per-ply
/// data of `recorder` when `DATA`: a copy of the loop for each, so that a
/// report without `--moves`, `--clocks` or `--plies` (nearly all) does not
/// ask about them at every ply.
///
/// Never inlined: the loop is one large function, kernel and tokenizer
/// inlined into it, and how the compiler allocates its registers decides
/// its speed; kept apart, that allocation does not change with its caller.
#[inline(never)]
#[allow(
    clippy::too_many_arguments,
    reason = "the game, its start, and what the loop records: grouping them would add a copy or an indirection to the hottest function"
)]
fn replay_main_line<const MOVES: bool, const DATA: bool>(
    game: &GameText<'_>,
    fen: Option<&str>,
    mode: CastlingMode,
    has_tags: bool,
    curation: &CurationOptions,
    trails: &mut Trails,
    recorder: &mut Option<PlyRecorder<'_>>,
    out: &mut ReplayedGame<'_>,
) {
    let (mut pos, castling_conflict) = match start_position(fen, mode) {
        Ok(start) => start,
        Err(why) => {
            (out.status, out.error) = super::bad_fen(game, fen.unwrap_or_default(), why);
            return;
        }
    };
    start_trails(trails, &pos, fen, mode, &out.variant, curation);
    out.castling_conflict = castling_conflict;
    let mut moves = MOVES.then(String::new);
    let mut ply: u32 = 0;
    let mut repetitions = RepetitionTable::new();
    repetitions.start(pos.key_ep_always(), pos.key_ep_legal(), 0);
    let mut rules = DrawRules::new(&pos);
    let mut tokens = game.main_line();
    // The result glued to the last move (`Qxf7#1-0`), which ends the line.
    let mut glued_result = None;
    let mut ended_before_failure = false;
    // Taken once the start position is set up (a game refused before has
    // its time control and no plies, `super::replay`).
    let white_first = DATA && pos.turn() == crate::chess::Color::White;
    let mut recorder = if DATA { recorder.take() } else { None };
    let wants_text = recorder.as_ref().is_some_and(PlyRecorder::wants_text);
    // The line is read one token ahead: the tokenizer's work for the next
    // ply (a load, lane masks, bit scans, each step waiting for the one
    // before) is issued before this ply's move is played, and the
    // processor runs the two side by side instead of one after the other
    // (docs/performance.md, "Reading one token ahead"). A replay that
    // stops at a token puts the line back as it stood there
    // (`line_after`): what follows that token (a result, a comment that
    // never closes) was never read.
    let mut ahead = tokens.next();
    while let Some(token) = ahead {
        ahead = tokens.next();
        if DATA && let Some(r) = &mut recorder {
            r.token(token.offset);
        }
        // The position before the move, for its SAN: copied only for
        // `--plies` (`then_some` would copy it every ply).
        let before = if DATA && wants_text { Some(pos) } else { None };
        // Irreversible: a capture or pawn move (the halfmove clock
        // restarts) or a lost castling right (castling included).
        let rights_before = pos.castling_rooks();
        let m = match pos.play_san(token.text) {
            Ok(m) => m,
            Err(e) => {
                let (retried, glued) = retry(&mut pos, token.text, e, &mut rules, ply);
                match retried {
                    Ok(m) => {
                        if glued.is_some() {
                            // This move is the last: the line ends after it,
                            // with no test of a flag at every ply.
                            glued_result = glued;
                            tokens = line_after(game, &token);
                            tokens.stop();
                            ahead = None;
                        }
                        m
                    }
                    Err(e) => {
                        tokens = line_after(game, &token);
                        let black = pos.turn() == crate::chess::Color::Black;
                        let number = super::MoveNumber::new(pos.fullmove_number(), black);
                        // A token that is no move is one whatever the position;
                        // a move that cannot be played after the game had
                        // ended says so.
                        let not_a_move = matches!(e, crate::chess::SanError::Invalid(_));
                        let why = if not_a_move {
                            e.reason().into_owned()
                        } else {
                            let (why, over) = why_failed(&pos, &e, ply);
                            ended_before_failure = over;
                            why
                        };
                        (out.status, out.error) = super::failed_move(
                            ply,
                            number,
                            &token,
                            tokens.line_at(token.offset),
                            has_tags,
                            not_a_move,
                            why,
                        );
                        break;
                    }
                }
            }
        };
        trails.push(ply, LineRecorder::chess_word(m), pos.key_without_ep());
        // UCI depends on the move and the castling mode, not the board.
        if MOVES {
            super::record_move(&mut moves, || pos.uci(m));
        }
        let irreversible = pos.was_irreversible(rights_before);
        ply += 1;
        // How often the position has now occurred (ep-if-legal).
        let repetition = if irreversible {
            repetitions.start(pos.key_ep_always(), pos.key_ep_legal(), ply);
            // Material only shrinks on such a move, and cannot be
            // insufficient while a pawn is left; a lost castling right
            // does not restart the clock (and ends a watched run).
            if pos.board().by_role(Role::Pawn).is_empty() || pos.halfmove_clock() != 0 {
                rules.after_irreversible(&pos, &repetitions, ply);
            }
            1
        } else {
            // Only a pawn's double step sets an en-passant square, and a
            // pawn move is irreversible: here both keys are the same.
            let seen = repetitions.push(pos.key_ep_legal(), ply);
            if seen >= 2 || pos.halfmove_clock() >= rules.from {
                rules.after_ply(&pos, &repetitions, ply, seen);
            }
            seen
        };
        if DATA && let Some(r) = &mut recorder {
            r.ply(token.offset + token.text.len(), repetition, || {
                let san = before.map(|b| b.san(m)).unwrap_or_default();
                (san, pos.uci(m), pos.fen(EpMode::Legal))
            });
        }
    }
    let movetext_result = glued_result.or_else(|| tokens.result().map(|t| result_text(t.text)));
    let has_result = movetext_result.is_some();
    if out.status == Status::Ok && ply == 0 && !has_tags && !has_result {
        // No tag pair, no move, no result: these bytes are not a game (a
        // binary file, noise between games, a tag line that cannot be read).
        out.status = Status::ParseError;
        out.error = format!(
            "line {}: no tag pair, move or result could be read",
            game.movetext().line()
        );
    }
    super::unclosed::check_main_line(&tokens, out);
    out.plies = ply;
    out.rep_ep_always = repetitions.stats_ep_always();
    out.rep_ep_legal = repetitions.stats_ep_legal();
    // The recorded results refer to moves that were replayed only when
    // the game is ok, or when it stopped at a move after its mate or
    // stalemate (docs/outcomes.md, "Broken games").
    let tag = out.tags.result.as_ref();
    let results =
        (out.status == Status::Ok || ended_before_failure).then_some((tag, movetext_result));
    out.outcome = rules.finish(&pos, ply, out.rep_ep_legal, out.rep_ep_always, results);
    out.final_fen = pos.fen(EpMode::Always);
    // The two FENs differ only when an en-passant square has no legal
    // capture.
    out.final_fen_ep_legal_if_different =
        (pos.ep_square() != pos.legal_ep_square()).then(|| pos.fen(EpMode::Legal));
    out.moves = moves;
    if DATA && let Some(r) = recorder {
        // The last move's comments end at the result (none when glued to it).
        let end = glued_result
            .is_none()
            .then(|| tokens.result().map_or(game.bytes().len(), |t| t.offset));
        out.ply_data = Some(r.finish(end, out.outcome.threefold_claim_ply, white_first));
    }
}

/// The main line of `game` as it stood once it had handed out `last`:
/// the replay, which reads one token ahead, puts the line back so when it
/// stops at `last`. Reads the tokens up to it again, at most once a game.
#[cold]
fn line_after<'a>(game: &GameText<'a>, last: &Token<'a>) -> MainLine<'a> {
    let mut line = game.main_line();
    while line.next().is_some_and(|t| t.offset < last.offset) {}
    line
}

/// A result token's text (one of the four results, which the tokenizer
/// alone classifies as results), without validating it as UTF-8 again.
pub(super) fn result_text(token: &[u8]) -> &'static str {
    match token {
        b"1-0" => "1-0",
        b"0-1" => "0-1",
        b"1/2-1/2" => "1/2-1/2",
        _ => "*",
    }
}

/// After `token` failed as a move: a null move passes the turn (python-chess
/// plays it, docs/chess.md), once [`DrawRules::before_null_move`] has seen
/// whether the position it passes over had already ended the game; and
/// `1... h6*` or `4. Qxf7#1-0`, a result glued to the last move, still
/// ends the game, so the move is tried again without the result. Returns
/// the outcome of the last try, and the result cut off. Looked for only
/// once a token failed (no move ends in a result's text, and the hot path
/// plays no null move), and kept out of line: a second copy of the
/// resolve-and-play code in the replay loop would crowd its registers.
#[cold]
#[inline(never)]
fn retry(
    pos: &mut Position,
    token: &[u8],
    error: SanError,
    rules: &mut DrawRules,
    ply: u32,
) -> (Result<Move, SanError>, Option<&'static str>) {
    let (result, glued) = match (error, lines::glued_result(token)) {
        (SanError::NullMove, _) => (Err(SanError::NullMove), None),
        (_, Some((text, result))) => (pos.play_san(text), Some(result)),
        (error, None) => (Err(error), None),
    };
    match result {
        Err(SanError::NullMove) => {
            rules.before_null_move(pos, ply);
            pos.play(Move::null());
            (Ok(Move::null()), glued)
        }
        other => (other, glued),
    }
}

/// Why a move could not be played in `pos`, the position at `ply`; and
/// whether the game was already over there (checkmate or stalemate: no
/// move at all could be played), which the message then says instead of
/// what is wrong with the move itself.
#[cold]
#[inline(never)]
fn why_failed(pos: &Position, error: &SanError, ply: u32) -> (String, bool) {
    if pos.has_legal_move() {
        return (error.reason().into_owned(), false);
    }
    (super::already_over(ply, pos.is_check()), true)
}

#[cfg(test)]
mod tests {
    use crate::replay::Status;
    use crate::replay::{ReplayOptions, replay_text};

    /// A result glued to the last move (`2. Nf3*`) ends the game after that
    /// move, as python-chess reads it: 3 plies, this final position
    /// (`chess.pgn.read_game` on the same text).
    #[test]
    fn a_result_glued_to_the_last_move_ends_the_game() {
        let options = ReplayOptions::default();
        let game = "[Event \"x\"]\n\n1. e4 e5 2. Nf3* 3. Nc3\n";
        let record = replay_text(game, 1, &options);
        assert_eq!(record.status, Status::Ok, "{}", record.error);
        assert_eq!(record.plies, 3);
        assert_eq!(
            record.final_fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
        // Not a move even without the `*`: reported as the illegal move it is.
        let record = replay_text("[Event \"x\"]\n\n1. e4 e5 2. Ke3*\n", 1, &options);
        assert_eq!(record.status, Status::IllegalMove, "{}", record.error);
        assert_eq!(record.plies, 2);
    }
}
