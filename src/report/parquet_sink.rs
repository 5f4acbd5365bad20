//! `games.parquet` and `castling.parquet` (`--format parquet`): the rows of
//! the CSV files with the column table's types. Each chunk of games is one
//! row group, encoded and compressed on its worker thread
//! ([`ParquetEncoder`], `parquet.rs`); the sink appends the finished row
//! groups.

use std::sync::Arc;

use super::columns::{CASTLING_COLUMNS, Column, GameView, OptionalColumns, encoded_columns};
use super::csv_sink::write_game;
use super::duplicate_stage::DuplicateRows;
use super::folder::ReportFolder;
use super::parquet::{ArrowRows, ParquetFile, ParquetTable, RowGroup, copy_adding_text_columns};
use super::rows::CastlingRow;
use super::sink::{Encoded, RowEncoder, RowFormat, Sink, SinkChunk, encoded_as};
use super::summary::Summary;
use crate::output::{AtomicFile, FinishedFile, OutputError, Spill};

/// The two Parquet files, being written.
pub struct ParquetSink {
    games: Games,
    castling: ParquetFile,
    format: Arc<ParquetFormat>,
}

/// `games.parquet`, or with `--duplicates` its rows without the duplicate
/// columns in a scratch file, copied with them once the run is over.
enum Games {
    File(ParquetFile),
    Waiting {
        rows: ParquetFile<Spill>,
        file: AtomicFile,
        columns: Vec<Column>,
    },
    /// The verdicts are being added (an error there leaves it so).
    Copying,
    /// The copy with the verdicts, complete.
    Done(FinishedFile),
}

/// What the workers encode row groups with.
pub struct ParquetFormat {
    games: Arc<ParquetTable>,
    castling: Arc<ParquetTable>,
    optional: OptionalColumns,
}

/// One chunk's row groups (none for a chunk without rows).
struct ParquetChunk {
    games: Option<RowGroup>,
    castling: Option<RowGroup>,
}

impl ParquetSink {
    /// Starts `games.parquet` (with `columns`) and `castling.parquet` in
    /// `out`.
    pub fn create(
        out: &ReportFolder,
        columns: &[Column],
        optional: OptionalColumns,
    ) -> Result<Self, OutputError> {
        const NAME: &str = "games.parquet";
        let encoded = encoded_columns(columns);
        let (games, table) = if encoded.len() == columns.len() {
            let file = ParquetFile::create(out, NAME, columns)?;
            let table = file.table();
            (Games::File(file), table)
        } else {
            let rows =
                ParquetFile::create_on(Spill::create_for(&out.path().join(NAME))?, NAME, encoded)?;
            let table = rows.table();
            let waiting = Games::Waiting {
                rows,
                file: out.create(NAME)?,
                columns: columns.to_vec(),
            };
            (waiting, table)
        };
        let castling = ParquetFile::create(out, "castling.parquet", &CASTLING_COLUMNS)?;
        let format = Arc::new(ParquetFormat {
            games: table,
            castling: castling.table(),
            optional,
        });
        Ok(ParquetSink {
            games,
            castling,
            format,
        })
    }
}

impl Sink for ParquetSink {
    fn rows(&self) -> Option<Arc<dyn RowFormat>> {
        Some(Arc::clone(&self.format) as Arc<dyn RowFormat>)
    }

    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        let Some(groups) = encoded_as::<ParquetChunk>(chunk.encoded, "games.parquet")? else {
            return Ok(None);
        };
        let ParquetChunk { games, castling } = *groups;
        if let Some(group) = games {
            match &mut self.games {
                Games::File(f) => f.append(group)?,
                Games::Waiting { rows, .. } => rows.append(group)?,
                Games::Copying | Games::Done(_) => {}
            }
        }
        if let Some(group) = castling {
            self.castling.append(group)?;
        }
        Ok(None)
    }

    fn duplicates(&mut self, rows: &DuplicateRows) -> Result<(), OutputError> {
        let Games::Waiting {
            rows: waiting,
            file,
            columns,
        } = std::mem::replace(&mut self.games, Games::Copying)
        else {
            return Ok(());
        };
        let spill = waiting.close()?.into_reader()?;
        let copied =
            copy_adding_text_columns(spill.file()?, file, "games.parquet", &columns, &|row| {
                let f = rows.fields(row);
                vec![f.dup_of, f.kind.to_string(), f.headers]
            })?;
        self.games = Games::Done(copied);
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        let games = match self.games {
            Games::File(f) => f.finish()?,
            Games::Waiting { .. } | Games::Copying => {
                return Err(OutputError::NoVerdicts {
                    file: "games.parquet".into(),
                });
            }
            Games::Done(finished) => finished,
        };
        Ok(vec![games, self.castling.finish()?])
    }
}

impl RowFormat for ParquetFormat {
    fn large_chunks(&self) -> bool {
        true
    }

    fn encoder(&self, games: usize, _recycled: Option<Encoded>) -> Box<dyn RowEncoder> {
        Box::new(ParquetEncoder {
            games: self.games.rows(games),
            // Few games have a castling conflict.
            castling: self.castling.rows(0),
            games_table: Arc::clone(&self.games),
            castling_table: Arc::clone(&self.castling),
            optional: self.optional,
        })
    }
}

/// A chunk's rows as typed columns, encoded into row groups at the end.
struct ParquetEncoder {
    games: ArrowRows,
    castling: ArrowRows,
    games_table: Arc<ParquetTable>,
    castling_table: Arc<ParquetTable>,
    optional: OptionalColumns,
}

impl RowEncoder for ParquetEncoder {
    fn push(&mut self, game: &GameView<'_, '_>, tags: &[&str]) -> Result<(), String> {
        write_game(&mut self.games, game, self.optional, tags);
        self.games.end_record();
        if let Some(row) = CastlingRow::of(game) {
            row.write_fields(&mut self.castling);
            self.castling.end_record();
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Encoded, String> {
        Ok(Box::new(ParquetChunk {
            games: self.games_table.encode(self.games)?,
            castling: self.castling_table.encode(self.castling)?,
        }))
    }
}
