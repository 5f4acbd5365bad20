//! `summary.json`: the run's totals, with stable keys for scripts.

use crate::replay::Status;
use crate::source::Skipped;
use serde::Serialize;
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
    /// Why the input could not be read to its end (truncated stream), if so.
    pub error: Option<String>,
    /// Why the input was not read as PGN at all (a binary file: `XQF
    /// binary record, not PGN`), if so; it then has no games.
    pub unsupported: Option<String>,
    /// Whether every byte of the input was read: false exactly when
    /// `error` says why not.
    pub complete: bool,
    /// Games by status; every status is listed, zeros included.
    pub status: BTreeMap<&'static str, u64>,
    pub threefolds_ep_always: u64,
    pub threefolds_ep_legal: u64,
    pub missed_threefolds: u64,
    pub castling_conflicts: u64,
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

    /// Marks the input as read only in part, and why.
    pub fn broke_off(&mut self, why: String) {
        self.error = Some(why);
        self.complete = false;
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
    pub plies: u64,
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
            plies: 0,
            elapsed_seconds: 0.0,
            threads,
        }
    }

    /// Games that did not replay to the end, whatever the reason.
    pub fn errors(&self) -> u64 {
        self.games - self.status.get("ok").copied().unwrap_or(0)
    }
}
