//! The columns of `games.csv` and `castling.csv`, each declared once with
//! its name, type, doc line and, for `games.csv`, how its value is read
//! from a replayed game: the CSV header, the Parquet schema, the rows of
//! both files and the column list of docs/reports.md all follow from the
//! table here (`column_table.rs` says how). A new column is one entry.
//! Names are a contract (`docs/reports.md`): add columns, never rename or
//! drop one.

use std::borrow::Cow;

use super::column_table::{Usual, column_group, game_columns};
use super::rows::{FieldSink, UsualFields};
use crate::replay::ReplayedGame;
use crate::replay::ply_data::ClockSummary;

pub use super::column::{Column, ColumnType};
use ColumnType::{Int64, Text};

/// Where a game is: the first four columns of both CSV files.
#[derive(Copy, Clone, Debug)]
pub struct GameLocation<'a> {
    pub source: &'a str,
    pub game: u64,
    pub offset: u64,
    pub line: u64,
}

/// A game as the column table reads it: where it is and what its replay
/// found.
pub struct GameView<'r, 'a> {
    pub at: GameLocation<'a>,
    pub record: &'r ReplayedGame<'a>,
}

/// A repetition count, empty when no position was replayed at all (a game
/// refused before its start position, e.g. `bad_fen` or `unsupported`).
fn nonzero(max: u32) -> Option<u32> {
    (max > 0).then_some(max)
}

game_columns! {
    |g| {
        /// the input path as given on the command line (`-` for stdin; for a folder, the path of each file found in it)
        source: Text = text(g.at.source),
        /// 1-based index of the game within its source
        game: Int64 = int64(g.at.game),
        /// byte offset of the game's first byte in the (decompressed) source
        offset: Int64 = int64(g.at.offset),
        /// 1-based line number where the game starts
        line: Int64 = int64(g.at.line),
        /// `chess`, `chess960` or `xiangqi`; empty for a game of a variant pgnmill does not play (status `unsupported`, its `[Variant]` tag quoted in `error`)
        variant: Text = text(&g.record.variant),
        /// the `Event` tag's value
        event: Text = text(&g.record.tags.event),
        /// the `Site` tag's value
        site: Text = text(&g.record.tags.site),
        /// the `Date` tag's value
        date: Text = text(&g.record.tags.date),
        /// the `Round` tag's value
        round: Text = text(&g.record.tags.round),
        /// the `White` tag's value (for xiangqi, the `Red` tag's)
        white: Text = text(&g.record.tags.white),
        /// the `Black` tag's value
        black: Text = text(&g.record.tags.black),
        /// the `Result` tag's value
        result: Text = text(&g.record.tags.result),
        /// half-moves of the main line that were replayed
        plies: Int32 = int32(Some(g.record.plies)),
        /// the `[FEN]` header as written, empty when the game starts from the standard position
        start_fen: Text = text(&g.record.start_fen),
        /// the position after the last replayed move, en-passant field written ep-always
        // Written by the FEN writers (chess, xiangqi), whose alphabet holds
        // no comma, quote or line end; empty when nothing was replayed.
        final_fen: Text = plain_text(&g.record.final_fen),
        /// the same position, en-passant field written ep-if-legal
        final_fen_ep_legal: Text = plain_text(g.record.final_fen_ep_legal()),
        /// highest occurrence count of any position key, ep-always (start position counted)
        rep_max_ep_always: Int32 = int32(nonzero(g.record.rep_ep_always.max)),
        /// first ply at which a key occurred the third time, ep-always; empty if never
        threefold_ply_ep_always: Int32 = int32(g.record.rep_ep_always.threefold_ply),
        /// as `rep_max_ep_always`, ep-if-legal
        rep_max_ep_legal: Int32 = int32(nonzero(g.record.rep_ep_legal.max)),
        /// as `threefold_ply_ep_always`, ep-if-legal
        threefold_ply_ep_legal: Int32 = int32(g.record.rep_ep_legal.threefold_ply),
        /// `true` when ep-if-legal has a threefold and ep-always has none, else `false`
        missed_threefold: Bool = boolean(g.record.missed_threefold()),
        /// the rights in the `[FEN]` header that contradict the board (e.g. `Kq`), empty if none
        castling_conflict: Text = text(g.record.castling_conflict.as_ref().map_or("", |c| &c.invalid)),
        /// `ok`, `illegal_move`, `bad_fen`, `parse_error`, `unsupported` or `damaged_input` (below)
        status: Text = plain_text(g.record.status.as_str()),
        /// empty when `ok`; otherwise what failed, where (ply, line and token) and why. A token longer than 64 bytes is quoted by its first 40 bytes and its length (`zzzz… (300 bytes)`), so that one broken stretch of text cannot fill the column
        error: Text = text(&g.record.error),
        usual {
            /// the final position: `checkmate`, `insufficient_material`, `stalemate` or `none`, in python-chess's `outcome()` order (a stalemate with insufficient material is `insufficient_material`); for xiangqi `checkmate`, `stalemate` (a loss in xiangqi) or `none`; empty for games not replayed
            termination: Text = plain_text(g.record.outcome.termination.map_or("", |t| t.as_str())) usual "none",
            /// what the board says: `1-0`/`0-1` on checkmate, `1/2-1/2` on stalemate or insufficient material, empty otherwise; for xiangqi the side to move loses on checkmate and on stalemate
            board_result: Text = plain_text(g.record.outcome.board_result) usual "",
            /// which sides can still mate by python-chess's material rule (`has_insufficient_material`): `both`, `white`, `black` or `none`; empty for xiangqi, as are the columns from `fivefold_ply` to `game_over`
            mating_material: Text = plain_text(g.record.outcome.mating_material.map_or("", |m| m.as_str())) usual "both",
            /// first ply at which a key occurs the fifth time, ep-if-legal (FIDE 9.6.1: the game is drawn, no claim needed); empty if never
            fivefold_ply: Int32 = int32(g.record.outcome.fivefold_ply) usual "",
            /// the same under ep-always
            fivefold_ply_ep_always: Int32 = int32(g.record.outcome.fivefold_ply_ep_always) usual "",
            /// first ply at which the player to move could claim a threefold (FIDE 9.2.1): the key occurred a third time, or a legal move leads to a key already seen twice (python-chess `can_claim_threefold_repetition`)
            threefold_claim_ply: Int32 = int32(g.record.outcome.threefold_claim_ply) usual "",
            /// first ply with halfmove clock >= 100 (the `[FEN]` clock counted on) and a legal move for the side to move (FIDE 9.3.2)
            fifty_move_ply: Int32 = int32(g.record.outcome.fifty_move_ply) usual "",
            /// first ply at which a fifty-move claim is correct: `fifty_move_ply`'s condition, or clock >= 99 and a legal move that is neither a capture nor a pawn move and leaves the opponent a legal move (FIDE 9.3.1 as python-chess models it)
            fifty_move_claim_ply: Int32 = int32(g.record.outcome.fifty_move_claim_ply) usual "",
            /// first ply with clock >= 150 and a legal move (FIDE 9.6.2: a mate on that move takes precedence)
            seventyfive_move_ply: Int32 = int32(g.record.outcome.seventyfive_move_ply) usual "",
            /// first ply at which the Laws end the game without a claim (python-chess `outcome()` is not `None`)
            game_over_ply: Int32 = int32(g.record.outcome.game_over.map(|(ply, _)| ply)) usual "",
            /// why: `checkmate`, `insufficient_material`, `stalemate`, `seventyfive_moves` or `fivefold_repetition`; `game_over_ply < plies` means the moves went on after the game was over
            game_over: Text = plain_text(g.record.outcome.game_over.map_or("", |(_, o)| o.as_str())) usual "",
            /// empty when the recorded results agree with the board; otherwise clauses joined by `; `: `Result tag T but movetext result M` when the tag and the movetext's result token differ, then for the tag and for a differing token, against the final position: `SRC R but White is checkmated` (or Black), `SRC R but the final position is stalemate`, `SRC R but the final position has insufficient material`, where SRC is `Result` or `movetext result`. A `*` conflicts with any finished position; a missing tag or token never conflicts; always empty when `status` is not `ok`, unless the game stopped at a move after its checkmate or stalemate (its `error` says "the game was already over at ply N"). For xiangqi: `SRC R but Red is checkmated` (or Black), `SRC R but Red is stalemated (a loss in xiangqi)` (or Black), then `SRC R but Red gave perpetual check` when `perpetual_check` is `red`, R is `1-0` (Black: `black` and `0-1`) and the game ended in the repetition (its final position is one of the cycle's and occurred at least three times); a draw, `*` or missing result is never a perpetual-check conflict
            result_conflict: Text = text(&g.record.outcome.result_conflict) usual "",
            /// xiangqi: at the first ply where some position occurs the third time (`threefold_ply_ep_legal`), the side that gave check on every one of its moves since the ply after that position's first occurrence: `red`, `black`, `both`, or empty (neither, no threefold, or a chess game)
            perpetual_check: Text = plain_text(g.record.outcome.perpetual_check.map_or("", |p| p.as_str())) usual "",
            /// xiangqi: the first ply with 120 plies in a row without a capture (the CXA 60-move natural limit; the `[FEN]` halfmove clock counts as plies already passed, checks count like any move); empty if never, and for chess
            natural_limit_ply: Int32 = int32(g.record.outcome.natural_limit_ply) usual "",
        }
        /// 128 bits naming the game's start position (board, side to move, castling rights, en-passant square when a capture is legal) and main-line moves, as 32 lowercase hexadecimal digits (`FixedSizeBinary(16)` in Parquet): two games have the same key exactly when both are the same (see "Line keys, openings and duplicates"); empty unless `status` is `ok`
        line_key: Key128 = key128(g.record.curation.line.key.as_ref()),
        /// the ECO code of the opening by lichess's rule over the opening table (the compiled-in lichess table, or `--openings`); empty for Chess960, every game with a `[FEN]` tag, and games without a hit
        eco: Text = text(g.record.curation.opening.hit.as_ref().map_or("", |h| h.eco())),
        /// the opening's name, as `eco`
        opening: Text = table_text(g.record.curation.opening.hit.as_ref().map_or(("", ""), |h| (h.name(), h.csv_name()))),
        /// the ply (from 1) of the deepest position the table names, as `eco`
        opening_ply: Int32 = int32(g.record.curation.opening.hit.as_ref().map(|h| h.ply)),
        /// when an opening was named and the game records an `[ECO]` or `[Opening]` (other than empty or `?`) that differs from it: `ECO C02 but the moves give B12`, `Opening "X" but the moves give "Y"`, or both joined with `; `; empty otherwise
        opening_conflict: Text = text(g.record.curation.opening.conflict.as_deref().unwrap_or_default()),
    }
}

/// The `moves` column, after the defaults with `--moves`.
pub const MOVES_COLUMN: Column = Column::described(
    "moves",
    Text,
    "only with `--moves`: the replayed main line, space-separated, in UCI (chess) or ICCS (xiangqi)",
);

// The `--clocks` columns (issue 33), after `moves`: present only with the
// option, as `moves` and the tag columns are, so that a report without it
// keeps its columns and bytes. Values in milliseconds and centipawns,
// empty where the game has none.
column_group! {
    /// The columns `--clocks` adds to `games.csv`, in order.
    CLOCK_COLUMNS, CLOCK_COLUMN_WRITERS, write_clock_fields,
    |c: &ClockSummary| {
        /// only with `--clocks`, as the columns down to `eval_last_mate` (times in milliseconds, evaluations in centipawns, White's point of view; docs/pgn-dialect.md, "Commands in comments"): the base of `[TimeControl]` when it is one sudden-death period (`300+3`, a bare `60`); empty for `-`, `?`, `1/259200`, `40/7200:3600` and other controls
        time_base: Int32 = int32_signed(c.time_base()),
        /// the increment of that `[TimeControl]` (0 for a bare `60`); empty when `time_base` is
        time_increment: Int32 = int32_signed(c.time_increment()),
        /// the `[%clk]` of White's first move that has one (Red's in xiangqi, as in the `white_` columns below)
        white_clock_first: Int32 = int32_signed(c.white.first),
        /// the `[%clk]` of White's last move that has one
        white_clock_last: Int32 = int32_signed(c.white.last),
        /// White's lowest `[%clk]`
        white_clock_min: Int32 = int32_signed(c.white.min),
        /// the `[%clk]` of Black's first move that has one
        black_clock_first: Int32 = int32_signed(c.black.first),
        /// the `[%clk]` of Black's last move that has one
        black_clock_last: Int32 = int32_signed(c.black.last),
        /// Black's lowest `[%clk]`
        black_clock_min: Int32 = int32_signed(c.black.min),
        /// for each of White's clocks after its first: the clock before minus this one plus `time_increment` for every White move in between (one when no clock is missing), summed; empty without a `time_increment` or with fewer than two clocks; negative where time was added or a period began
        white_time_used: Int32 = int32_signed(c.white.time_used),
        /// the same for Black
        black_time_used: Int32 = int32_signed(c.black.time_used),
        /// plies with a `[%clk]` (0 when none)
        clock_plies: Int32 = int32(Some(c.clock_plies)),
        /// at `threefold_claim_ply` P, the clock of the side to move: the `[%clk]` of its last move, ply P-1; empty where that move has none, without a claim, and for xiangqi
        clock_at_threefold_claim: Int32 = int32_signed(c.clock_at_threefold_claim),
        /// plies with an `[%eval]` (0 when none)
        eval_plies: Int32 = int32(Some(c.eval_plies)),
        /// the last `[%eval]` of the main line in centipawns; empty when it is a mate or there is none
        eval_last_cp: Int32 = int32_signed(c.eval_last_cp()),
        /// the last `[%eval]` when it is a mate: moves to mate, negative when Black mates, 0 for a mate on the board (`#0`); empty otherwise
        eval_last_mate: Int32 = int32_signed(c.eval_last_mate()),
    }
}

/// What the `--duplicates` columns of one row hold: all empty for a game
/// that copies none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DuplicateFields {
    pub dup_of: String,
    pub kind: &'static str,
    pub headers: String,
}

// The `--duplicates` columns, last (after the tag columns): a game's
// verdict is known only once every game is read (a later game may be the
// longer line it is a prefix of), so they are added to the rows then.
column_group! {
    /// The columns `--duplicates` adds to `games.csv`, last.
    DUPLICATE_COLUMNS, DUPLICATE_COLUMN_WRITERS, write_duplicate_fields,
    |d: &DuplicateFields| {
        /// only with `--duplicates` (see "Duplicates"): `source:game` of the game this one copies, as the `source` and `game` columns name it (an `--against` game's source is its path); empty if none
        dup_of: Text = text(&d.dup_of),
        /// the first that applies of `exact` (the same `line_key` as an earlier game), `prefix` (the main line, from the same start, is a strict prefix of a longer game's) and `transposition` (the same start, final position and ply count as an earlier game, by another move order); a game of fewer than `--duplicates-min-plies` plies (10) only copies a game whose White, Black, Event, Site and Date agree; empty if none
        dup_kind: Text = plain_text(d.kind),
        /// how this game's tags compare with `dup_of`'s: `same`, or a `;`-joined list of `colours_swapped`, `names_differ`, `date_differs`, `event_differs` (compared in lower case, letters and digits only); empty if no `dup_of`
        dup_headers: Text = plain_text(&d.headers),
    }
}

/// The `--clocks` facts of a game (none for a game whose text was never
/// read: damaged input).
pub fn clocks_of(record: &ReplayedGame<'_>) -> ClockSummary {
    record
        .ply_data
        .as_ref()
        .and_then(|d| d.clocks)
        .unwrap_or_default()
}

/// The columns of `castling.csv`, in order.
pub static CASTLING_COLUMNS: [Column; 9] = [
    Column::new("source", Text),
    Column::new("game", Int64),
    Column::new("offset", Int64),
    Column::new("line", Int64),
    Column::new("fen", Text),
    Column::new("castling", Text),
    Column::new("invalid", Text),
    Column::new("effective", Text),
    Column::new("reason", Text),
];

/// The columns an option adds after the defaults, before the tag
/// columns, in this order: `moves` (`--moves`), the clock columns
/// (`--clocks`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionalColumns {
    pub moves: bool,
    pub clocks: bool,
    /// The duplicate columns (`--duplicates`), last of all: added to the
    /// rows when the run ends, never by [`super::RowEncoder`]s.
    pub duplicates: bool,
}

/// The columns of one run's `games.csv`: the defaults, then `moves` with
/// `--moves`, the clock columns with `--clocks`, then one text column per
/// `--tags` tag, named as given, or [`tag_column_name`] when that name is
/// taken, then the duplicate columns with `--duplicates`.
pub fn game_columns(optional: OptionalColumns, tags: &[String]) -> Vec<Column> {
    let mut columns = GAME_COLUMNS.to_vec();
    if optional.moves {
        columns.push(MOVES_COLUMN);
    }
    if optional.clocks {
        columns.extend(CLOCK_COLUMNS.iter().cloned());
    }
    columns.extend(tags.iter().map(|t| Column {
        name: tag_column_name(t),
        kind: Text,
        doc: "the tag's value, empty when the game lacks it",
    }));
    if optional.duplicates {
        columns.extend(DUPLICATE_COLUMNS.iter().cloned());
    }
    columns
}

/// The columns the worker threads write: all of `columns` but the
/// duplicate columns, which come when the run ends.
pub fn encoded_columns(columns: &[Column]) -> &[Column] {
    let n = DUPLICATE_COLUMNS.len();
    match columns.len().checked_sub(n) {
        Some(at) if columns[at..] == DUPLICATE_COLUMNS => &columns[..at],
        _ => columns,
    }
}

/// The tags of the seven-tag roster, whose values the default columns
/// (`event` ... `result`) already hold as written: `--tags` refuses them.
const ROSTER_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Whether `tag` is a roster tag, which the report already has as a
/// column (compared without regard to case, as tag names are): `--tags
/// White` is refused, the `white` column holds it.
pub fn is_column(tag: &str) -> bool {
    ROSTER_TAGS.iter().any(|t| t.eq_ignore_ascii_case(tag))
}

/// The column of tag `tag` (`--tags`): its name as given, unless that is
/// the name of a column pgnmill computes (compared without case, `moves`
/// and the clock columns included whether or not they are written), then
/// `tag_` and the name:
/// lichess's `Termination` tag ("Normal", "Time forfeit") is the column
/// `tag_Termination`, beside `termination`, the board's verdict. A column's
/// name thus never depends on the data, and the default columns never
/// change.
pub fn tag_column_name(tag: &str) -> Cow<'static, str> {
    let taken = GAME_COLUMNS
        .iter()
        .chain(std::iter::once(&MOVES_COLUMN))
        .chain(&CLOCK_COLUMNS)
        .chain(&DUPLICATE_COLUMNS)
        .any(|c| {
            if CASE_KEPT.contains(&c.name.as_ref()) {
                c.name == tag
            } else {
                c.name.eq_ignore_ascii_case(tag)
            }
        });
    if taken {
        Cow::Owned(format!("tag_{tag}"))
    } else {
        Cow::Owned(tag.to_string())
    }
}

/// Computed columns added after `--tags` columns had these names in
/// other case (`--tags lichess` writes `ECO` and `Opening`): a tag is
/// `tag_NAME` only when it is spelled exactly so, and the `ECO` and
/// `Opening` columns of earlier reports keep their names beside `eco` and
/// `opening` (a reader that ignores case, as DuckDB does, tells them apart
/// by its own renaming).
const CASE_KEPT: [&str; 2] = ["eco", "opening"];

/// The position of column `name` in `columns`.
pub fn position(columns: &[Column], name: &str) -> Option<usize> {
    columns.iter().position(|c| c.name == name)
}

/// The tags lichess writes in its monthly dumps; `--tags lichess` adds
/// those that are not roster columns already (`Termination` as
/// `tag_Termination`).
pub const LICHESS_TAGS: [&str; 19] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "UTCDate",
    "UTCTime",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
];

/// The `--tags` tags for the names given: `lichess` expanded, a name
/// given twice kept once (first spelling). A roster tag is refused, with
/// the column that holds it; so is a tag whose column would have the name
/// of another one's (`--tags Termination,tag_Termination`).
pub fn tag_columns(given: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let add = |name: &str, out: &mut Vec<String>| -> Result<(), String> {
        if out.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            return Ok(());
        }
        let column = tag_column_name(name);
        if let Some(other) = out
            .iter()
            .find(|t| tag_column_name(t).eq_ignore_ascii_case(&column))
        {
            return Err(format!(
                "--tags {name}: its column `{column}` would have the name of tag {other}'s"
            ));
        }
        out.push(name.to_string());
        Ok(())
    };
    for name in given.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        if name.eq_ignore_ascii_case("lichess") {
            for tag in LICHESS_TAGS.iter().filter(|t| !is_column(t)) {
                add(tag, &mut out)?;
            }
        } else if is_column(name) {
            return Err(format!(
                "--tags {name}: the report already has this tag as the column `{}`",
                name.to_ascii_lowercase()
            ));
        } else if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!(
                "--tags {name}: a tag name is letters, digits and `_`"
            ));
        } else {
            add(name, &mut out)?;
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Each column is written by the sink method of its type, so that the
    /// CSV field and the Parquet column hold the same kind of value.
    #[test]
    fn every_column_is_written_as_its_type() {
        assert_types(&GAME_COLUMNS, GAME_COLUMN_WRITERS);
        assert_types(&CLOCK_COLUMNS, CLOCK_COLUMN_WRITERS);
        assert_types(&DUPLICATE_COLUMNS, DUPLICATE_COLUMN_WRITERS);
        for (kind, field) in USUAL_FIELDS.fields {
            assert!(
                *kind == ColumnType::Text || (*kind == ColumnType::Int32 && field.is_empty()),
                "{kind:?} {field:?}"
            );
        }
        let all = game_columns(
            OptionalColumns {
                moves: true,
                clocks: true,
                duplicates: true,
            },
            &["dup_of".to_string()],
        );
        let names: std::collections::HashSet<_> = all.iter().map(|c| &c.name).collect();
        assert_eq!(names.len(), all.len(), "names are unique");
    }

    /// Each of `columns` is written by the sink method of its type, so
    /// that the CSV field and the Parquet column hold the same kind of
    /// value.
    pub(crate) fn assert_types(columns: &[Column], writers: &[&str]) {
        assert_eq!(writers.len(), columns.len());
        for (column, writer) in columns.iter().zip(writers) {
            let want: &[&str] = match column.kind {
                ColumnType::Text => &["text", "plain_text", "table_text"],
                ColumnType::Int64 => &["int64"],
                ColumnType::Int32 => &["int32", "int32_signed"],
                ColumnType::Bool => &["boolean"],
                ColumnType::Key128 => &["key128"],
            };
            assert!(want.contains(writer), "{}: {writer}", column.name);
        }
    }

    /// A tag named like a clock column is `tag_` and its name, with or
    /// without `--clocks`: a column's name never depends on the options of
    /// another column.
    #[test]
    fn clock_column_names_are_taken() {
        assert_eq!(tag_column_name("time_base"), "tag_time_base");
        assert_eq!(tag_column_name("Eval_Plies"), "tag_Eval_Plies");
        assert_eq!(tag_column_name("TimeControl"), "TimeControl");
    }
}
