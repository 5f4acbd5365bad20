//! One game in, one record out: replays a game's main line with the rules
//! kernel its variant needs and counts repetitions under both en-passant
//! conventions. Nothing here knows about files, threads or CSV.

mod chess_game;
mod curation;
mod draw_rules;
pub mod line;
mod moves_column;
mod options;
mod outcome;
pub mod ply_data;
mod repetition;
mod replayed_game;
mod status;
mod stop;
mod unclosed;
mod xiangqi_game;
mod xiangqi_rules;

use curation::Trails;
pub use curation::{CurationFacts, CurationOptions};
pub use outcome::{
    GameOver, MatingMaterial, Outcome, PerpetualCheck, Termination, result_conflict,
    xiangqi_result_conflict,
};
pub use repetition::{RepetitionStats, RepetitionTable};
pub use replayed_game::{CastlingConflict, GameTags, ReplayedGame};
pub use status::Status;

pub use options::ReplayOptions;

pub(crate) use moves_column::record_move;
pub(crate) use stop::{
    MoveLocation, MoveNumber, already_over, bad_fen, bad_record_fen, failed_move,
    failed_record_move, quoted,
};

use crate::chess::CastlingMode;
use crate::pgn::headers::{GameHeaders, tag_value, text_in};
use crate::variant::{self, GameVariant};
use std::borrow::Cow;

/// Replays one game, given its bytes (UTF-8, or ASCII-compatible with
/// Latin-1 tag values) and the line it starts on (1 for a game of its own;
/// the line numbers of `error` count from it). Never fails: a broken game
/// is a record with a status and an error.
///
/// The bytes are one game, as the splitter cuts them: the replay stops at
/// the end of the first game's movetext (its result token, or a tag
/// section after it), and any text after that is not read. Give a file of
/// several games to [`crate::pgn::Batches`] or [`crate::Job`], which split
/// it:
///
/// ```
/// use pgnmill::{ReplayOptions, replay_text};
///
/// let two = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n";
/// let first = replay_text(two, 1, &ReplayOptions::default());
/// assert_eq!((first.tags.event.as_ref(), first.plies), ("a", 1));
/// ```
pub fn replay_game<'a>(bytes: &'a [u8], line: u64, options: &ReplayOptions) -> ReplayedGame<'a> {
    replayed(|out| replay_into(bytes, None, line, options, MoveLocation::Line, out))
}

/// [`replay_game`] for a game already decoded to UTF-8 (as the report
/// does): its tag values need no second validation.
pub fn replay_text<'a>(text: &'a str, line: u64, options: &ReplayOptions) -> ReplayedGame<'a> {
    replayed(|out| replay_text_into(text, line, None, options, out))
}

/// [`replay_text`] for the text a record reader wrote for record `record`
/// (from 1) of its file: a move that cannot be played is located by the
/// record and its ply, never by a line of the text.
pub fn replay_record_text<'a>(
    text: &'a str,
    line: u64,
    record: u64,
    options: &ReplayOptions,
) -> ReplayedGame<'a> {
    replayed(|out| replay_text_into(text, line, Some(record), options, out))
}

/// The record `replay` writes into an empty one.
fn replayed<'a>(replay: impl FnOnce(&mut ReplayedGame<'a>)) -> ReplayedGame<'a> {
    let mut record = ReplayedGame::empty();
    replay(&mut record);
    record
}

/// [`GameHeaders::read_game`], and the value of the `[TimeControl]` tag
/// (the last, names compared without case, as every tag) into
/// `time_control`.
#[inline(never)]
fn read_with_time_control<'a>(
    bytes: &'a [u8],
    line: u64,
    time_control: &mut Option<Cow<'a, [u8]>>,
) -> (GameHeaders<'a>, crate::pgn::GameText<'a>) {
    GameHeaders::read_game_and(bytes, line, |name, raw, may_escape| {
        if name.eq_ignore_ascii_case(b"TimeControl") {
            *time_control = Some(tag_value(raw, may_escape));
        }
    })
}

/// [`replay_text`] (or [`replay_record_text`] for `Some(record)`) into
/// `out`, whatever it held: the report's workers replay each game into the
/// slot its row is formatted from. Returned by value, a record (some 700
/// bytes) was copied five times on its way there, out of the thread's
/// trails and each function that handed it on.
pub(crate) fn replay_text_into<'a>(
    text: &'a str,
    line: u64,
    record: Option<u64>,
    options: &ReplayOptions,
    out: &mut ReplayedGame<'a>,
) {
    let at = record.map_or(MoveLocation::Line, MoveLocation::Record);
    replay_into(text.as_bytes(), Some(text), line, options, at, out);
}

fn replay_into<'a>(
    bytes: &'a [u8],
    utf8: Option<&'a str>,
    line: u64,
    options: &ReplayOptions,
    at: MoveLocation,
    out: &mut ReplayedGame<'a>,
) {
    Trails::with(|trails| replay_with(bytes, utf8, line, options, at, trails, out));
}

/// [`replay_into`], with this thread's trails.
fn replay_with<'a>(
    bytes: &'a [u8],
    utf8: Option<&'a str>,
    line: u64,
    options: &ReplayOptions,
    at: MoveLocation,
    trails: &mut Trails,
    record: &mut ReplayedGame<'a>,
) {
    let text = |value: &Option<Cow<'a, [u8]>>| text_in(utf8, value);
    // What `--clocks` and `--plies` keep is recorded apart, so that a
    // report without them runs the code it ran before they existed.
    let mut time_control = None;
    let (headers, game) = if options.ply_data.clocks {
        read_with_time_control(bytes, line, &mut time_control)
    } else {
        GameHeaders::read_game(bytes, line)
    };
    let mut recorder = if options.ply_data.any() {
        ply_data::PlyRecorder::new(&game, options.ply_data, time_control)
    } else {
        None
    };
    let white = if headers.white.is_some() {
        &headers.white
    } else {
        &headers.red
    };
    let tags = GameTags {
        event: text(&headers.event),
        site: text(&headers.site),
        date: text(&headers.date),
        round: text(&headers.round),
        white: text(white),
        black: text(&headers.black),
        result: text(&headers.result),
    };
    let fen_tag = headers.fen.is_some().then(|| text(&headers.fen));
    let fen = fen_tag.as_deref().map(str::trim);
    let variant = match &options.variant {
        Some(v) => v.clone(),
        None => variant::detect(&headers, fen, &game),
    };
    let start_fen = match &fen_tag {
        Some(Cow::Borrowed(t)) => Cow::Borrowed(t.trim()),
        Some(Cow::Owned(t)) => Cow::Owned(t.trim().to_string()),
        None => Cow::Borrowed(""),
    };
    *record = ReplayedGame::not_replayed(
        Cow::Borrowed(variant.static_name()),
        tags,
        Status::Ok,
        String::new(),
    );
    record.start_fen = start_fen;
    match variant {
        GameVariant::Chess | GameVariant::Chess960 => {
            let mode = if variant == GameVariant::Chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            chess_game::replay(
                &game,
                fen,
                mode,
                headers.any,
                options,
                trails,
                &mut recorder,
                record,
            )
        }
        GameVariant::Xiangqi => xiangqi_game::replay(
            &game,
            fen,
            headers.any,
            options,
            at,
            trails,
            &mut recorder,
            record,
        ),
        GameVariant::Unsupported(name) => {
            // The `variant` column holds only the three rules pgnmill
            // plays (left empty here); the tag's own text is in `error`.
            record.error =
                format!("variant \"{name}\" is not supported (chess, chess960 and xiangqi are)");
            record.status = Status::Unsupported;
        }
    }
    if let Some(recorder) = recorder {
        // A game that was not replayed (a variant pgnmill does not play, a
        // bad `[FEN]`) still has its time control, and no plies.
        record.ply_data = Some(recorder.finish(None, None, true));
    }
    if let Some(tag) = headers.unclosed_tag
        && record.status == Status::Ok
    {
        (record.status, record.error) = unclosed::tag(tag);
    }
    let recorded = || {
        let eco = headers.eco.is_some().then(|| text(&headers.eco));
        let opening = headers.opening.is_some().then(|| text(&headers.opening));
        (eco, opening)
    };
    let (status, plies) = (record.status, record.plies);
    // The fields, not `final_fen_ep_legal()`: `curation` is written below.
    let final_fen = record
        .final_fen_ep_legal_if_different
        .as_deref()
        .unwrap_or(&record.final_fen);
    trails.finish(
        status,
        final_fen,
        plies,
        recorded,
        &options.curation,
        &mut record.curation,
    );
}
