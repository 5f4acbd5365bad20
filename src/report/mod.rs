//! The report: the folder's files (`games.csv` or `games.parquet`,
//! `castling.csv`, the optional `plies` and `duplicates.csv`,
//! `report.html`, `summary.json` last), the extract files the user places,
//! and the Arrow stream of the same rows; written so that a run that fails
//! part-way never leaves a folder that passes for complete.
//!
//! The report knows nothing of how a game was replayed: it receives each
//! game's [`ReplayedGame`](crate::replay::ReplayedGame), formats its rows on the
//! worker thread ([`ChunkBuilder`]), and the ordered [`ReportWriter`]
//! appends the formatted chunks in input order. Column names are a contract
//! (`docs/reports.md`): add columns, never rename or drop one.

mod arrow_rows;
mod arrow_sink;
mod chunk;
pub mod classes;
mod column;
mod column_table;
pub mod columns;
mod csv_rows;
mod csv_sink;
mod duplicate_entries;
mod duplicate_stage;
mod duplicates_sink;
mod extract;
mod facts;
mod folder;
mod format;
mod html;
mod html_chart;
mod html_outcomes;
pub mod html_stats;
mod html_table;
mod html_warnings;
pub mod parquet;
mod parquet_sink;
mod plies_sink;
pub mod ply_columns;
mod rows;
mod sink;
pub mod summary;
mod summary_sink;
mod text_pages;
mod totals;
pub mod unread;
mod writer;

pub use arrow_sink::{ArrowSink, BATCHES_QUEUED, GameBatches};
pub use chunk::{ChunkBuilder, ChunkPlan, FormattedChunk};
pub use columns::{CASTLING_COLUMNS, Column, ColumnType, GAME_COLUMNS, GameLocation, GameView};
pub use csv_sink::{CsvChunk, CsvFormat, CsvSink};
pub use duplicate_entries::{DuplicateEntries, Record};
pub use duplicate_stage::{
    AgainstSummary, DuplicateRows, DuplicateStage, DuplicateTotals, GameSide, SharedStage,
};
pub use extract::{ExtractFile, ExtractKind, ExtractRequest};
pub use facts::{FactsPlan, GameFacts};
pub use folder::{ReportFolder, planned_paths};
pub use format::ReportLayout;
pub use parquet_sink::ParquetSink;
pub use plies_sink::{PLY_ROWS_PER_GROUP, PliesSink};
pub use rows::{CastlingRow, FieldSink};
pub use sink::{Encoded, RowEncoder, RowFormat, Sink, SinkChunk};
pub use summary::{InputSummary, Summary};
pub use summary_sink::SummarySink;
pub use totals::merge_summaries;
pub use writer::ReportWriter;
