//! `summary.json`: the run's totals, with stable keys for scripts.

use super::facts::{OutcomeFacts, XiangqiFacts};
use crate::replay::{GameOver, PerpetualCheck, Status, Termination};
use crate::source::{RefusalKind, Skipped};
use serde::Serialize;

use super::duplicate_stage::DuplicateTotals;
use std::collections::BTreeMap;

/// Totals for one input.
#[derive(Debug, Clone, Serialize, Default)]
pub struct InputSummary {
    pub path: String,
    pub bytes: u64,
    /// Games in the report (those `--where` selected; all without it).
    pub games: u64,
    /// Games read, selected or not.
    pub games_read: u64,
    /// Games `--where` selected: the same as `games`.
    pub games_selected: u64,
    /// The encoding the input was read as (`UTF-8`, `windows-1252`,
    /// `GB18030`, `Big5`).
    pub encoding: String,
    /// `none`, `zstd`, `gzip`, `bzip2`, `xz` or `zip`.
    pub compression: String,
    /// Whether the input's lines end in `\r\r\n` (a Windows file whose
    /// line ends were converted twice), each read as one line end; its
    /// offsets then count the text so read.
    pub doubled_line_ends: bool,
    /// Why the input could not be read to its end (truncated stream), if so.
    pub error: Option<String>,
    /// Why the input was not read as PGN at all (a binary file: `XQF
    /// binary record, not PGN`), if so; it then has no games.
    pub unsupported: Option<String>,
    /// Whether every byte of the input was read: false exactly when
    /// `error` says why not.
    pub complete: bool,
    /// Every warning about this input, in order, each with its kind and
    /// the message printed on stderr (after `pgnmill: warning: `): a file
    /// refused, compressed data that decodes to no text, a cut-off or
    /// damaged input. `--strict` fails a run in which any input has one.
    pub warnings: Vec<InputWarning>,
    /// Games by status; every status is listed, zeros included.
    pub status: BTreeMap<&'static str, u64>,
    pub threefolds_ep_always: u64,
    pub threefolds_ep_legal: u64,
    pub missed_threefolds: u64,
    pub castling_conflicts: u64,
    #[serde(flatten)]
    pub outcomes: OutcomeSummary,
}

/// Why an input was not read whole, or not read at all: the kinds of
/// `summary.json`'s `inputs[].warnings`, which report.html's banner counts
/// and `--strict` fails on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// The input ended early (a compressed stream cut off, a read error):
    /// its games up to there are in the report.
    CutShort,
    /// Part of the input decoded to unreliable text (a gzip member, zip
    /// member or `.zst` frame whose check failed): those games have status
    /// `damaged_input`.
    Damaged,
    /// Not PGN at all (an executable, an image, binary data): no games.
    NotPgn,
    /// A format pgnmill recognises but does not read (a packed CCBridge
    /// library, a record file with a broken header): no games.
    Unsupported,
    /// Compressed data that decodes to no text at all: no games.
    NoText,
}

impl WarningKind {
    /// Every kind, in the order report.html's banner lists them.
    pub const ALL: [WarningKind; 5] = [
        WarningKind::CutShort,
        WarningKind::Damaged,
        WarningKind::NotPgn,
        WarningKind::Unsupported,
        WarningKind::NoText,
    ];

    /// The warning an input's refusal gives.
    pub fn of_refusal(kind: RefusalKind) -> WarningKind {
        match kind {
            RefusalKind::NotPgn => WarningKind::NotPgn,
            RefusalKind::Unsupported => WarningKind::Unsupported,
        }
    }

    /// Whether the input's games up to some point are in the report (as
    /// opposed to none of them).
    pub fn read_in_part(self) -> bool {
        matches!(self, WarningKind::CutShort | WarningKind::Damaged)
    }
}

/// One warning of an input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputWarning {
    pub kind: WarningKind,
    /// As printed on stderr after `pgnmill: warning: `.
    pub message: String,
}

/// The outcome figures of docs/outcomes.md, section 6, for an input or the
/// run. Every key is always present, zeros included.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomeSummary {
    /// Chess games by `termination` (games without one, such as xiangqi
    /// or `bad_fen` games, are not counted), in the order of
    /// `TERMINATIONS`; written as an object keyed by the column's words.
    #[serde(serialize_with = "termination_counts")]
    pub terminations: [u64; TERMINATIONS.len()],
    /// Games by `game_over` (games the Laws did not end are not counted),
    /// in the order of `GAME_OVERS`.
    #[serde(serialize_with = "game_over_counts")]
    pub game_over: [u64; GAME_OVERS.len()],
    /// Games with a non-empty `result_conflict`, chess and xiangqi.
    pub result_conflicts: u64,
    /// Games with `game_over_ply < plies`: moves played after the end.
    pub played_on_after_game_over: u64,
    pub fivefolds_ep_always: u64,
    pub fivefolds_ep_legal: u64,
    /// Games with `fivefold_ply` set and `fivefold_ply_ep_always` empty.
    pub missed_fivefolds: u64,
    /// Games with `fifty_move_ply` set.
    pub past_fifty_moves: u64,
    /// Games with `seventyfive_move_ply` set.
    pub past_seventyfive_moves: u64,
    /// Xiangqi games by `termination` (docs/xiangqi-rules.md, section 7:
    /// `checkmate`, `stalemate`, `none`), in the order of
    /// `XIANGQI_TERMINATIONS`.
    #[serde(serialize_with = "xiangqi_termination_counts")]
    pub xiangqi_terminations: [u64; XIANGQI_TERMINATIONS.len()],
    /// Xiangqi games with a non-empty `result_conflict` (also counted in
    /// `result_conflicts`).
    pub xiangqi_result_conflicts: u64,
    /// Xiangqi games by `perpetual_check` (`red`, `black`, `both`; games
    /// without one are not counted).
    #[serde(serialize_with = "perpetual_check_counts")]
    pub perpetual_checks: [u64; PERPETUAL_CHECKS.len()],
    /// Xiangqi games with `natural_limit_ply` set.
    pub past_natural_limit: u64,
}

const XIANGQI_TERMINATIONS: [Termination; 3] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::None,
];

const PERPETUAL_CHECKS: [PerpetualCheck; 3] = [
    PerpetualCheck::Red,
    PerpetualCheck::Black,
    PerpetualCheck::Both,
];

const TERMINATIONS: [Termination; 4] = [
    Termination::Checkmate,
    Termination::InsufficientMaterial,
    Termination::Stalemate,
    Termination::None,
];

const GAME_OVERS: [GameOver; 5] = [
    GameOver::Checkmate,
    GameOver::InsufficientMaterial,
    GameOver::Stalemate,
    GameOver::SeventyfiveMoves,
    GameOver::FivefoldRepetition,
];

/// `counts` as a JSON object keyed by `words`, in their order.
fn counts_by_word<S: serde::Serializer>(
    words: impl Iterator<Item = &'static str>,
    counts: &[u64],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(counts.len()))?;
    for (word, n) in words.zip(counts) {
        map.serialize_entry(word, n)?;
    }
    map.end()
}

fn termination_counts<S: serde::Serializer>(
    counts: &[u64; TERMINATIONS.len()],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    counts_by_word(TERMINATIONS.iter().map(|t| t.as_str()), counts, serializer)
}

fn xiangqi_termination_counts<S: serde::Serializer>(
    counts: &[u64; XIANGQI_TERMINATIONS.len()],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let words = XIANGQI_TERMINATIONS.iter().map(|t| t.as_str());
    counts_by_word(words, counts, serializer)
}

fn perpetual_check_counts<S: serde::Serializer>(
    counts: &[u64; PERPETUAL_CHECKS.len()],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    counts_by_word(
        PERPETUAL_CHECKS.iter().map(|p| p.as_str()),
        counts,
        serializer,
    )
}

fn game_over_counts<S: serde::Serializer>(
    counts: &[u64; GAME_OVERS.len()],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    counts_by_word(GAME_OVERS.iter().map(|g| g.as_str()), counts, serializer)
}

impl Default for OutcomeSummary {
    fn default() -> Self {
        OutcomeSummary {
            terminations: [0; TERMINATIONS.len()],
            game_over: [0; GAME_OVERS.len()],
            result_conflicts: 0,
            played_on_after_game_over: 0,
            fivefolds_ep_always: 0,
            fivefolds_ep_legal: 0,
            missed_fivefolds: 0,
            past_fifty_moves: 0,
            past_seventyfive_moves: 0,
            xiangqi_terminations: [0; XIANGQI_TERMINATIONS.len()],
            xiangqi_result_conflicts: 0,
            perpetual_checks: [0; PERPETUAL_CHECKS.len()],
            past_natural_limit: 0,
        }
    }
}

impl OutcomeSummary {
    /// Chess games whose `termination` is `t`.
    pub fn chess_termination(&self, t: Termination) -> u64 {
        count_at(&TERMINATIONS, &self.terminations, t)
    }

    /// Xiangqi games whose `termination` is `t`.
    pub fn xiangqi_termination(&self, t: Termination) -> u64 {
        count_at(&XIANGQI_TERMINATIONS, &self.xiangqi_terminations, t)
    }

    /// Xiangqi games whose `perpetual_check` is `p`.
    pub fn perpetual_check(&self, p: PerpetualCheck) -> u64 {
        count_at(&PERPETUAL_CHECKS, &self.perpetual_checks, p)
    }

    /// Counts one game.
    pub fn add(&mut self, g: &OutcomeFacts) {
        // Counted per game, twice (the input's and the run's): an index,
        // not a map lookup by word.
        if let Some(t) = g.termination
            && let Some(n) = self.terminations.get_mut(t as usize)
        {
            *n += 1;
        }
        if let Some(over) = g.game_over
            && let Some(n) = self.game_over.get_mut(over as usize)
        {
            *n += 1;
        }
        self.result_conflicts += u64::from(g.result_conflict);
        self.played_on_after_game_over += u64::from(g.played_on);
        self.fivefolds_ep_always += u64::from(g.fivefold_ep_always);
        self.fivefolds_ep_legal += u64::from(g.fivefold_ep_legal);
        self.missed_fivefolds += u64::from(g.missed_fivefold());
        self.past_fifty_moves += u64::from(g.past_fifty_moves);
        self.past_seventyfive_moves += u64::from(g.past_seventyfive_moves);
        if let Some(x) = g.xiangqi {
            self.add_xiangqi(x, g.result_conflict);
        }
    }

    /// The xiangqi figures of one xiangqi game; kept out of line, so that
    /// a chess game pays one test for them.
    #[inline(never)]
    fn add_xiangqi(&mut self, x: XiangqiFacts, result_conflict: bool) {
        if let Some(i) = XIANGQI_TERMINATIONS
            .iter()
            .position(|&t| t == x.termination)
        {
            self.xiangqi_terminations[i] += 1;
        }
        if let Some(p) = x.perpetual_check
            && let Some(i) = PERPETUAL_CHECKS.iter().position(|&c| c == p)
        {
            self.perpetual_checks[i] += 1;
        }
        self.xiangqi_result_conflicts += u64::from(result_conflict);
        self.past_natural_limit += u64::from(x.past_natural_limit);
    }
}

/// The count of `key` in `counts`, kept in the order of `keys`.
fn count_at<K: PartialEq>(keys: &[K], counts: &[u64], key: K) -> u64 {
    keys.iter()
        .position(|k| *k == key)
        .and_then(|i| counts.get(i))
        .copied()
        .unwrap_or(0)
}

impl InputSummary {
    /// The totals of an input about to be read.
    pub fn new(path: String, encoding: String, compression: String) -> Self {
        InputSummary {
            path,
            encoding,
            compression,
            complete: true,
            status: all_statuses(),
            ..InputSummary::default()
        }
    }

    /// Marks a stretch of the input's text as damaged (its compressed data
    /// fails its check): the input is not complete, and `error` gives the
    /// first such reason (also a warning).
    pub fn damaged(&mut self, why: String) {
        self.warn(WarningKind::Damaged, why.clone());
        self.error.get_or_insert(why);
        self.complete = false;
    }

    /// Marks the input as read only in part, and why (also a warning).
    pub fn broke_off(&mut self, why: String) {
        self.warn(WarningKind::CutShort, why.clone());
        self.error = Some(why);
        self.complete = false;
    }

    /// Adds a warning about the input.
    pub fn warn(&mut self, kind: WarningKind, message: String) {
        self.warnings.push(InputWarning { kind, message });
    }
}

/// Every status with a zero count, in the order the summary lists them.
fn all_statuses() -> BTreeMap<&'static str, u64> {
    Status::ALL.iter().map(|s| (s.as_str(), 0)).collect()
}

/// The options a run was given, so that a report says how it was made.
#[derive(Debug, Clone, Serialize, Default)]
pub struct RunOptions {
    /// `auto`, `chess`, `chess960` or `xiangqi`.
    pub variant: String,
    pub moves: bool,
    /// `--clocks`, `--plies`.
    pub clocks: bool,
    pub plies: bool,
    /// The `--extract` requests, as `KIND=FILE`.
    pub extract: Vec<String>,
    pub strict: bool,
    /// The inputs as given on the command line (folders not expanded).
    pub inputs: Vec<String>,
    /// The `--tags` columns, shorthands expanded.
    pub tags: Vec<String>,
    /// The `--where` conditions, as given.
    #[serde(rename = "where")]
    pub where_: Vec<String>,
    /// The files written: `csv`, `parquet` or both.
    pub format: Vec<String>,
    /// `--openings`: the opening tables given, in order; empty for the
    /// compiled-in one.
    pub openings: Vec<String>,
    /// The table the `eco` and `opening` columns come from:
    /// `lichess-org/chess-openings COMMIT` for the compiled-in one, or
    /// `--openings`.
    pub openings_table: String,
    /// `--duplicates` (also implied by the options below and by the
    /// `unique` and `duplicates` extracts), `--duplicates-min-plies`,
    /// `--against`.
    pub duplicates: bool,
    pub duplicates_min_plies: u32,
    pub against: Vec<String>,
}

/// Totals for the whole run. Every key is always present.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub pgnmill_version: &'static str,
    /// Whether every input was read to its end.
    pub complete: bool,
    pub options: RunOptions,
    pub inputs: Vec<InputSummary>,
    /// What the search of the folders named passed over, and inputs
    /// named twice (docs/reports.md, "Inputs").
    pub skipped: Skipped,
    pub bytes: u64,
    /// Games in the report (those `--where` selected; all without it).
    pub games: u64,
    /// Games read, selected or not.
    pub games_read: u64,
    /// Games `--where` selected: the same as `games`.
    pub games_selected: u64,
    /// Games by status; every status is listed, zeros included.
    pub status: BTreeMap<&'static str, u64>,
    /// Games by variant column value.
    pub variants: BTreeMap<String, u64>,
    pub threefolds_ep_always: u64,
    pub threefolds_ep_legal: u64,
    pub missed_threefolds: u64,
    pub castling_conflicts: u64,
    #[serde(flatten)]
    pub outcomes: OutcomeSummary,
    pub plies: u64,
    /// `--duplicates`: the counts by kind (`null` without it).
    pub duplicates: Option<DuplicateTotals>,
    pub elapsed_seconds: f64,
    pub threads: usize,
}

impl Summary {
    pub fn new(threads: usize) -> Self {
        Summary {
            pgnmill_version: env!("CARGO_PKG_VERSION"),
            complete: true,
            options: RunOptions::default(),
            inputs: Vec::new(),
            skipped: Skipped::default(),
            bytes: 0,
            games: 0,
            games_read: 0,
            games_selected: 0,
            status: all_statuses(),
            variants: BTreeMap::new(),
            threefolds_ep_always: 0,
            threefolds_ep_legal: 0,
            missed_threefolds: 0,
            castling_conflicts: 0,
            outcomes: OutcomeSummary::default(),
            plies: 0,
            duplicates: None,
            elapsed_seconds: 0.0,
            threads,
        }
    }

    /// Broken games: those that did not replay to their end through a
    /// fault of their own ([`Status::is_broken`]; a game of a damaged
    /// input is not one).
    pub fn errors(&self) -> u64 {
        Status::ALL
            .iter()
            .filter(|s| s.is_broken())
            .filter_map(|s| self.status.get(s.as_str()))
            .sum()
    }
}

#[cfg(test)]
mod outcome_order_tests {
    use super::*;

    /// `OutcomeSummary::add` counts a word at its enum value's index.
    #[test]
    fn word_lists_are_in_enum_order() {
        for (i, t) in TERMINATIONS.iter().enumerate() {
            assert_eq!(*t as usize, i, "{t:?}");
        }
        for (i, g) in GAME_OVERS.iter().enumerate() {
            assert_eq!(*g as usize, i, "{g:?}");
        }
    }
}
