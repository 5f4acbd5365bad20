//! `plies.parquet`, and `plies.csv` when CSV is among the formats
//! (`--plies`, issue 33): one row per main-line ply of every game, in input
//! order, with the columns of `ply_columns.rs`.
//!
//! A game has some 80 plies, so a chunk of games is tens of thousands of
//! rows, and a month of lichess billions: the rows of a chunk are cut into
//! Parquet row groups of about [`PLY_ROWS_PER_GROUP`] rows as they fill,
//! each encoded and compressed on its worker thread at once, so that a
//! worker holds one row group's typed columns at a time and the writer
//! only appends compressed groups. Memory is that of the chunks in flight,
//! whatever the input's size; the files are written under a temporary
//! name and renamed into place like the other files of the report.

use std::sync::Arc;

use super::columns::GameView;
use super::csv_rows::CsvRows;
use super::folder::ReportFolder;
use super::format::header_bytes;
use super::parquet::{ArrowRows, ParquetFile, ParquetTable, RowGroup};
use super::ply_columns::{PLY_COLUMNS, write_game_plies};
use super::sink::{Encoded, RowEncoder, RowFormat, Sink, SinkChunk, encoded_as};
use super::summary::Summary;
use crate::output::{AtomicFile, FinishedFile, OutputError};

/// Rows a Parquet row group (and an Arrow batch of plies) is closed at:
/// the first game that reaches it ends the group. 65,536 rows of some 150
/// bytes are 10 MB of typed columns on a worker, and a group large enough
/// for readers (DuckDB's own are 122,880 rows).
pub const PLY_ROWS_PER_GROUP: usize = 65_536;

/// Plies a game has, about (lichess blitz: 70 to 80), for the first
/// buffers of a chunk.
pub(super) const PLIES_PER_GAME_HINT: usize = 80;

/// About the length of a `plies.csv` row (a FEN of 60 bytes, the source's
/// path, SAN, UCI and a clock).
const PLY_ROW_BYTES_HINT: usize = 128;

/// The plies files, being written.
pub struct PliesSink {
    csv: Option<AtomicFile>,
    parquet: ParquetFile,
    format: Arc<PliesFormat>,
}

/// What the workers encode a chunk's plies with.
struct PliesFormat {
    csv: bool,
    table: Arc<ParquetTable>,
}

/// One chunk's plies: the CSV bytes (empty without CSV) and the row
/// groups, already compressed.
struct PliesChunk {
    csv: Vec<u8>,
    groups: Vec<RowGroup>,
}

impl PliesSink {
    /// Starts `plies.parquet` in `out`, and `plies.csv` when `csv`.
    pub fn create(out: &ReportFolder, csv: bool) -> Result<Self, OutputError> {
        let csv = if csv {
            let mut file = out.create("plies.csv")?;
            file.write_all(&header_bytes(&PLY_COLUMNS))?;
            Some(file)
        } else {
            out.remove_earlier(&["plies.csv"])?;
            None
        };
        let parquet = ParquetFile::create(out, "plies.parquet", &PLY_COLUMNS)?;
        let format = Arc::new(PliesFormat {
            csv: csv.is_some(),
            table: parquet.table(),
        });
        Ok(PliesSink {
            csv,
            parquet,
            format,
        })
    }
}

impl Sink for PliesSink {
    fn rows(&self) -> Option<Arc<dyn RowFormat>> {
        Some(Arc::clone(&self.format) as Arc<dyn RowFormat>)
    }

    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        let Some(plies) = encoded_as::<PliesChunk>(chunk.encoded, "plies.parquet")? else {
            return Ok(None);
        };
        let PliesChunk { csv, groups } = *plies;
        if let Some(file) = &mut self.csv {
            file.write_all(&csv)?;
        }
        for group in groups {
            self.parquet.append(group)?;
        }
        // The CSV buffer serves the next chunk.
        Ok(Some(Box::new(PliesChunk {
            csv,
            groups: Vec::new(),
        })))
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        let mut finished = Vec::new();
        if let Some(file) = self.csv {
            finished.push(file.finish()?);
        }
        finished.push(self.parquet.finish()?);
        Ok(finished)
    }
}

impl RowFormat for PliesFormat {
    /// Many games a chunk: fewer row groups cut short at a chunk's end.
    fn large_chunks(&self) -> bool {
        true
    }

    fn encoder(&self, games: usize, recycled: Option<Encoded>) -> Box<dyn RowEncoder> {
        let rows = (games * PLIES_PER_GAME_HINT).min(PLY_ROWS_PER_GROUP);
        let csv = self.csv.then(|| {
            let buf = recycled
                .and_then(|r| r.downcast::<PliesChunk>().ok())
                .map(|c| c.csv)
                .unwrap_or_default();
            CsvRows::reusing(buf, games * PLIES_PER_GAME_HINT * PLY_ROW_BYTES_HINT)
        });
        Box::new(PliesEncoder {
            csv,
            rows: self.table.rows(rows),
            groups: Vec::new(),
            table: Arc::clone(&self.table),
        })
    }
}

/// A chunk's plies: CSV bytes, the row group being filled, the groups
/// closed so far.
struct PliesEncoder {
    csv: Option<CsvRows>,
    rows: ArrowRows,
    groups: Vec<RowGroup>,
    table: Arc<ParquetTable>,
}

impl PliesEncoder {
    /// Encodes the rows gathered into a row group, and starts another
    /// with room for `next` rows.
    fn close_group(&mut self, next: usize) -> Result<(), String> {
        let rows = std::mem::replace(&mut self.rows, self.table.rows(next));
        if let Some(group) = self.table.encode(rows)? {
            self.groups.push(group);
        }
        Ok(())
    }
}

impl RowEncoder for PliesEncoder {
    fn push(&mut self, game: &GameView<'_, '_>, _tags: &[&str]) -> Result<(), String> {
        if let Some(csv) = &mut self.csv {
            write_game_plies(game, csv);
        }
        write_game_plies(game, &mut self.rows);
        if self.rows.len() >= PLY_ROWS_PER_GROUP {
            self.close_group(PLY_ROWS_PER_GROUP)?;
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<Encoded, String> {
        self.close_group(0)?;
        let csv = self.csv.take().map(CsvRows::into_bytes).unwrap_or_default();
        Ok(Box::new(PliesChunk {
            csv,
            groups: std::mem::take(&mut self.groups),
        }))
    }
}
