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
    pub games: u64,
    /// The encoding the input was read as (`utf-8`, `windows-1252`, `gbk`, `big5`).
    pub encoding: String,
    /// `none`, `zstd`, `gzip`, `bzip2`, `xz` or `zip`.
    pub compression: String,
    /// Why the input could not be read to its end (truncated stream), if so.
    pub error: Option<String>,
    /// Why the input was not read as PGN at all (a binary file: `XQF
    /// binary record, not PGN`), if so; it then has no games.
    pub unsupported: Option<String>,
}

/// Totals for the whole run. Every key is always present.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub pgnmill_version: &'static str,
    pub inputs: Vec<InputSummary>,
    /// What the search of the folders named passed over, and inputs
    /// named twice (docs/reports.md, "Inputs").
    pub skipped: Skipped,
    pub bytes: u64,
    pub games: u64,
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
            inputs: Vec::new(),
            skipped: Skipped::default(),
            bytes: 0,
            games: 0,
            status: Status::ALL.iter().map(|s| (s.as_str(), 0)).collect(),
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
