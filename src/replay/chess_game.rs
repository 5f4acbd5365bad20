//! Replaying a chess or Chess960 game's main line.

use super::ReplayOptions;
use super::Status;
use super::record::{CastlingConflict, GameRecord};
use super::repetition::RepetitionTable;
use crate::chess::{CastlingMode, EpMode, Position, Setup};
use crate::pgn::GameText;

/// The start position of a game: the standard one, or its `[FEN]` header
/// with the castling rights the board contradicts dropped and reported.
fn start_position(
    fen: Option<&str>,
    mode: CastlingMode,
) -> Result<(Position, Option<CastlingConflict>), String> {
    let Some(fen) = fen else {
        return Ok((Position::startpos(), None));
    };
    let setup = Setup::parse(fen).map_err(|e| format!("[FEN \"{fen}\"]: {e}"))?;
    let (pos, audit) =
        Position::from_setup(&setup, mode).map_err(|e| format!("[FEN \"{fen}\"]: {e}"))?;
    let conflict = (!audit.is_clean()).then(|| CastlingConflict {
        castling: setup.castling_text().to_string(),
        invalid: audit.invalid,
        effective: audit.effective,
        reason: audit.reason,
    });
    Ok((pos, conflict))
}

/// Replays the main line of `game` from `fen` (or the standard start) into
/// `out`, whose tags, variant and start FEN are already set. `has_tags` tells a game from a stray run of text: a tagless "game" whose
/// very first token is not a move is a parse error, not an illegal move.
///
/// Never inlined: the loop is one large function, kernel and tokenizer
/// inlined into it, and how the compiler allocates its registers decides
/// its speed; kept apart, that allocation does not change with its caller.
#[inline(never)]
pub fn replay(
    game: &GameText<'_>,
    fen: Option<&str>,
    mode: CastlingMode,
    has_tags: bool,
    options: &ReplayOptions,
    out: &mut GameRecord<'_>,
) {
    let (mut pos, castling_conflict) = match start_position(fen, mode) {
        Ok(start) => start,
        Err(error) => {
            (out.status, out.error) = (Status::BadFen, error);
            return;
        }
    };
    out.castling_conflict = castling_conflict;
    let mut moves = options.moves.then(String::new);
    let mut ply: u32 = 0;
    // The first token skipped as debris, to tell a tagless run of stray
    // bytes (a binary file, noise between games) from an empty game.
    let mut first_debris: Option<(u64, &[u8])> = None;
    let mut repetitions = RepetitionTable::new();
    repetitions.start(pos.key_ep_always(), pos.key_ep_legal(), 0);
    let mut tokens = game.main_line();
    while let Some(token) = tokens.next() {
        // Irreversible: a capture or pawn move (the halfmove clock
        // restarts) or a lost castling right (castling included).
        let rights_before = pos.castling_rooks();
        let (m, glued_result) = match pos.play_san(token.text) {
            Ok(m) => (m, false),
            Err(e) => {
                let (text, retried, glued) = retry_glued_result(&mut pos, token.text, e);
                match retried {
                    Ok(m) => (m, glued),
                    Err(_) if !names_a_move(text) => {
                        first_debris.get_or_insert((tokens.line_at(token.offset), token.text));
                        continue;
                    }
                    Err(e) => {
                        (out.status, out.error) = super::failed_move(
                            ply,
                            &token,
                            tokens.line_at(token.offset),
                            has_tags,
                            e,
                        );
                        break;
                    }
                }
            }
        };
        // UCI depends on the move and the castling mode, not the board.
        super::record_move(&mut moves, || pos.uci(m));
        let irreversible = pos.was_irreversible(rights_before);
        ply += 1;
        if irreversible {
            repetitions.start(pos.key_ep_always(), pos.key_ep_legal(), ply);
        } else {
            // Only a pawn's double step sets an en-passant square, and a
            // pawn move is irreversible: here both keys are the same.
            repetitions.push(pos.key_ep_legal(), ply);
        }
        if glued_result {
            break;
        }
    }
    let has_result = tokens.result().is_some();
    if out.status == Status::Ok && ply == 0 && !has_tags && !has_result {
        // No tag pair, no move, no result: these bytes are not a game (a
        // binary file, noise between games, a tag line that cannot be read).
        out.status = Status::ParseError;
        out.error = match first_debris {
            Some((line, text)) => format!(
                "line {line} \"{}\": text without tags, moves or a result is not a game",
                String::from_utf8_lossy(text)
            ),
            None => format!(
                "line {}: no tag pair, move or result could be read",
                game.movetext().line()
            ),
        };
    }
    if let Some(line) = tokens.unclosed_comment()
        && out.status == Status::Ok
    {
        (out.status, out.error) = super::unclosed_comment(line);
    }
    if let Some(line) = tokens.unclosed_variation()
        && out.status == Status::Ok
    {
        (out.status, out.error) = super::unclosed::variation(line);
    }
    out.plies = ply;
    out.rep_ep_always = repetitions.stats_ep_always();
    out.rep_ep_legal = repetitions.stats_ep_legal();
    out.final_fen = pos.fen(EpMode::Always);
    // The two FENs differ only when an en-passant square has no legal
    // capture.
    out.final_fen_ep_legal_if_different =
        (pos.ep_square() != pos.legal_ep_square()).then(|| pos.fen(EpMode::Legal));
    out.moves = moves;
}

/// After `token` failed as a move: `1... h6*`, a result glued to the last
/// move, still ends the game, so the move is tried again without the `*`.
/// Returns the text tried last, its outcome, and whether a `*` was cut.
/// Looked for only once a token failed (a move never ends in `*`), and
/// kept out of line: a second copy of the resolve-and-play code in the
/// replay loop would crowd its registers.
#[cold]
#[inline(never)]
fn retry_glued_result<'t>(
    pos: &mut Position,
    token: &'t [u8],
    error: crate::chess::SanError,
) -> (
    &'t [u8],
    Result<crate::chess::Move, crate::chess::SanError>,
    bool,
) {
    match token {
        [text @ .., b'*'] if !text.is_empty() => (text, pos.play_san(text), true),
        _ => (token, Err(error), false),
    }
}

/// Whether a token that failed to parse was meant as a move: it names a
/// square, or is a castling or null move. Anything else (`RR`, `N`, `+/=`,
/// words left by a broken comment) is annotation debris that python-chess
/// also skips without complaint; a token like `Sf3` (a German knight) names
/// a square and is reported.
fn names_a_move(token: &[u8]) -> bool {
    let names_square = token
        .windows(2)
        .any(|w| matches!(w, [b'a'..=b'h', b'1'..=b'8']));
    names_square
        || token.starts_with(b"O-O")
        || token.starts_with(b"0-0")
        || matches!(token, b"--" | b"Z0" | b"0000" | b"@@@@")
}

#[cfg(test)]
mod tests {
    use super::names_a_move;
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

    #[test]
    fn annotation_debris_is_not_a_move() {
        for t in ["RR", "N", "+/=", "ef\\ghij", "inf"] {
            assert!(!names_a_move(t.as_bytes()), "{t}");
        }
        for t in ["Sf3", "e4", "O-O-O", "0-0", "--", "Z0", "Nbd7"] {
            assert!(names_a_move(t.as_bytes()), "{t}");
        }
    }
}
