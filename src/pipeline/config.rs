//! What one report run is asked to do, besides where its games go (the
//! sinks of its `ReportWriter`).

use crate::pgn::select::TagQuery;
use crate::replay::ReplayOptions;
use crate::report::summary::RunOptions;
use crate::source::{Input, Skipped};

/// Everything one report run needs to know besides where its games go.
#[derive(Debug, Clone, Default)]
pub struct ReportConfig {
    pub inputs: Vec<Input>,
    /// Replay options: `--moves`, `--variant`.
    pub replay: ReplayOptions,
    /// The `--tags` columns and `--where` conditions, read from each
    /// game's tags before it is replayed.
    pub select: TagQuery,
    /// What `summary.json` records of how the run was asked for.
    pub options: RunOptions,
    /// What the search for the inputs passed over, for `summary.json`.
    pub skipped: Skipped,
}
