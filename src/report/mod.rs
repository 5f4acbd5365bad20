//! The report folder: `games.csv`, `castling.csv`, `summary.json` and the
//! optional extract files, written so that a run that fails part-way never
//! leaves a folder that passes for complete.
//!
//! The report knows nothing of how a game was replayed: it receives each
//! game's [`GameRecord`](crate::replay::GameRecord), formats its rows on the
//! worker thread ([`ChunkBuilder`]), and the ordered [`ReportWriter`]
//! appends the formatted chunks in input order. Column names are a contract
//! (`docs/reports.md`): add columns, never rename or drop one.

mod arrow_rows;
mod chunk;
pub mod classes;
pub mod columns;
mod csv_record;
mod extract;
mod format;
mod html;
mod html_chart;
mod html_outcomes;
pub mod html_stats;
mod html_table;
mod html_warnings;
mod output;
pub mod parquet;
mod rows;
pub mod summary;
mod text_pages;
mod writer;

pub use chunk::{ChunkBuilder, FormattedChunk, GameFacts};
pub use columns::{CASTLING_COLUMNS, Column, ColumnType, GAME_COLUMNS};
pub use extract::{ExtractFile, ExtractKind, ExtractRequest};
pub use format::{ChunkFormat, GameLocation, ReportLayout, RowFormatter};
pub use output::{OutputDir, REPORT_FILES};
pub use rows::{CastlingRow, FieldSink, GameRow, MovesColumn};
pub use summary::{InputSummary, Summary};
pub use writer::ReportWriter;
