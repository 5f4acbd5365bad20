//! The report folder: `games.csv`, `castling.csv`, `summary.json` and the
//! optional extract files, written so that a run that fails part-way never
//! leaves a folder that passes for complete.
//!
//! The writer knows nothing of how a game was replayed: it receives
//! [`GameRecord`](crate::replay::GameRecord)s in input order and turns them
//! into rows. Column names are a contract (see `spec/reports.md`): add
//! columns, never rename or drop one.

pub mod atomic;
pub mod chunk;
pub mod csv_record;
pub mod extract;
pub mod format;
pub mod output;
pub mod progress;
pub mod rows;
pub mod summary;
pub mod writer;

pub use extract::{ExtractFile, ExtractKind, ExtractRequest};
pub use output::OutputDir;
pub use rows::{CastlingRow, GameRow, Status};
pub use summary::Summary;
