//! The game rows (or the ply rows) handed out in process, as Arrow record
//! batches through a bounded channel ([`ArrowSink`], [`GameBatches`]): what
//! a program (or the Python package) reads instead of a file, with the
//! columns, names, types and row order of `games.parquet` (or
//! `plies.parquet`) for the same options. Each chunk of games becomes one
//! batch on its worker thread (its plies, batches of about
//! [`PLY_ROWS_PER_GROUP`] rows); the channel holds at most a few batches,
//! so memory is bounded by the channel, not by the input: a reader that
//! falls behind makes the run wait.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::SchemaRef;

use super::arrow_rows::{ArrowRows, Finished, TextRoom};
use super::columns::{Column, GameView, OptionalColumns};
use super::csv_sink::write_game;
use super::parquet::schema;
use super::plies_sink::{PLIES_PER_GAME_HINT, PLY_ROWS_PER_GROUP};
use super::ply_columns::{PLY_COLUMNS, write_game_plies};
use super::sink::{Encoded, RowEncoder, RowFormat, Sink, SinkChunk, encoded_as};
use super::summary::Summary;
use crate::output::{FinishedFile, OutputError};

/// Batches a reader may fall behind by before the run waits for it.
pub const BATCHES_QUEUED: usize = 4;

/// The sending side: a sink that hands each chunk's batch to the channel.
pub struct ArrowSink {
    tx: SyncSender<RecordBatch>,
    format: Arc<ArrowFormat>,
}

/// The receiving side: the batches in input order, until the run ends.
pub struct GameBatches {
    rx: Receiver<RecordBatch>,
    schema: SchemaRef,
}

/// What the workers build batches with.
struct ArrowFormat {
    table: Arc<ArrowTable>,
}

/// The columns of the batches, shared by the encoders.
struct ArrowTable {
    columns: Vec<Column>,
    schema: SchemaRef,
    room: TextRoom,
    rows: RowKind,
}

/// What a row of the batches is.
#[derive(Clone, Copy)]
enum RowKind {
    /// A game, with these optional columns.
    Game(OptionalColumns),
    /// A ply.
    Ply,
}

impl ArrowSink {
    /// A sink for game rows of `columns` (`optional`: the columns the
    /// options add, as in [`super::columns::game_columns`]), and the
    /// batches it will hand out.
    pub fn channel(columns: &[Column], optional: OptionalColumns) -> (ArrowSink, GameBatches) {
        Self::of(columns, RowKind::Game(optional))
    }

    /// A sink for the ply rows (`plies.parquet`'s columns) of games
    /// replayed with `ReplayOptions::ply_data.plies`, and the batches it
    /// will hand out.
    pub fn plies_channel() -> (ArrowSink, GameBatches) {
        Self::of(&PLY_COLUMNS, RowKind::Ply)
    }

    fn of(columns: &[Column], rows: RowKind) -> (ArrowSink, GameBatches) {
        let (tx, rx) = sync_channel(BATCHES_QUEUED);
        let schema = schema(columns);
        let format = Arc::new(ArrowFormat {
            table: Arc::new(ArrowTable {
                columns: columns.to_vec(),
                schema: Arc::clone(&schema),
                room: TextRoom::new(columns),
                rows,
            }),
        });
        (ArrowSink { tx, format }, GameBatches { rx, schema })
    }
}

impl GameBatches {
    /// The schema of every batch: that of `games.parquet` (or
    /// `plies.parquet`).
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }
}

impl GameBatches {
    /// Batches of `schema` that another thread sends (a stream made of a
    /// file rather than of a running sink).
    pub fn fed(schema: SchemaRef) -> (SyncSender<RecordBatch>, GameBatches) {
        let (tx, rx) = sync_channel(BATCHES_QUEUED);
        (tx, GameBatches { rx, schema })
    }
}

impl Iterator for GameBatches {
    type Item = RecordBatch;

    /// The next batch; `None` once the run has ended (finished or not:
    /// the run's own result says which).
    fn next(&mut self) -> Option<RecordBatch> {
        self.rx.recv().ok()
    }
}

impl Sink for ArrowSink {
    fn rows(&self) -> Option<Arc<dyn RowFormat>> {
        Some(Arc::clone(&self.format) as Arc<dyn RowFormat>)
    }

    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        let batches = encoded_as::<Vec<RecordBatch>>(chunk.encoded, STREAM)?;
        for batch in batches.into_iter().flat_map(|b| *b) {
            // The reader is gone: nobody wants the rest of the run.
            self.tx
                .send(batch)
                .map_err(|_| stream_error("the reader of the stream went away"))?;
        }
        Ok(None)
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        // Dropping the sender ends the stream.
        Ok(Vec::new())
    }
}

/// How errors name the stream.
const STREAM: &str = "the Arrow stream";

fn stream_error(message: &str) -> OutputError {
    OutputError::Format {
        file: STREAM.into(),
        message: message.into(),
    }
}

impl RowFormat for ArrowFormat {
    fn large_chunks(&self) -> bool {
        true
    }

    fn encoder(&self, games: usize, _recycled: Option<Encoded>) -> Box<dyn RowEncoder> {
        let table = Arc::clone(&self.table);
        let rows = match table.rows {
            RowKind::Game(_) => games,
            RowKind::Ply => PLY_ROWS_PER_GROUP.min(games * PLIES_PER_GAME_HINT),
        };
        Box::new(ArrowEncoder {
            rows: ArrowRows::new(&table.columns, rows, &table.room),
            batches: Vec::new(),
            table,
        })
    }
}

/// A chunk's rows as typed columns, made into record batches: one for a
/// chunk of games, one each [`PLY_ROWS_PER_GROUP`] rows or so of plies.
struct ArrowEncoder {
    rows: ArrowRows,
    batches: Vec<RecordBatch>,
    table: Arc<ArrowTable>,
}

impl ArrowEncoder {
    /// Makes the rows gathered into a batch (none without rows), and
    /// starts again with room for `next` rows.
    fn close_batch(&mut self, next: usize) -> Result<(), String> {
        let rows = std::mem::replace(
            &mut self.rows,
            ArrowRows::new(&self.table.columns, next, &self.table.room),
        );
        if rows.is_empty() {
            return Ok(());
        }
        let (columns, rows) = rows.finish(&self.table.room)?;
        let arrays = columns
            .into_iter()
            .map(|column| match column {
                Finished::Array(array) => Ok(array),
                Finished::Text(body) => string_array(&body, rows).map(|a| Arc::new(a) as ArrayRef),
            })
            .collect::<Result<Vec<_>, String>>()?;
        let batch = RecordBatch::try_new(Arc::clone(&self.table.schema), arrays)
            .map_err(|e| e.to_string())?;
        self.batches.push(batch);
        Ok(())
    }
}

impl RowEncoder for ArrowEncoder {
    fn push(&mut self, game: &GameView<'_, '_>, tags: &[&str]) -> Result<(), String> {
        match self.table.rows {
            RowKind::Game(optional) => {
                write_game(&mut self.rows, game, optional, tags);
                self.rows.end_record();
            }
            RowKind::Ply => {
                write_game_plies(game, &mut self.rows);
                if self.rows.len() >= PLY_ROWS_PER_GROUP {
                    self.close_batch(PLY_ROWS_PER_GROUP)?;
                }
            }
        }
        Ok(())
    }

    /// The batches (none for a chunk without rows).
    fn finish(mut self: Box<Self>) -> Result<Encoded, String> {
        self.close_batch(0)?;
        Ok(Box::new(std::mem::take(&mut self.batches)))
    }
}

/// The UTF-8 array of a text column's PLAIN page body (per value, its
/// length as 4 bytes little-endian, then its bytes): the bytes without
/// the lengths, and the offsets the lengths give.
fn string_array(body: &[u8], rows: usize) -> Result<StringArray, String> {
    let mut offsets = Vec::with_capacity(rows + 1);
    let mut values = Vec::with_capacity(body.len().saturating_sub(4 * rows));
    offsets.push(0i32);
    let mut at = 0;
    while at < body.len() {
        let len = body
            .get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or("a text column ends inside a length")? as usize;
        let value = body
            .get(at + 4..at + 4 + len)
            .ok_or("a text column ends inside a value")?;
        values.extend_from_slice(value);
        let end = i32::try_from(values.len()).map_err(|_| "a text column over 2 GiB")?;
        offsets.push(end);
        at += 4 + len;
    }
    if offsets.len() != rows + 1 {
        return Err(format!(
            "a text column of {} values, not {rows}",
            offsets.len() - 1
        ));
    }
    StringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Buffer::from_vec(values),
        None,
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_bodies_become_string_arrays() {
        let mut body = Vec::new();
        for value in ["", "Réti", "a,b"] {
            body.extend((value.len() as u32).to_le_bytes());
            body.extend(value.as_bytes());
        }
        let array = string_array(&body, 3).unwrap();
        assert_eq!(
            array.iter().collect::<Vec<_>>(),
            [Some(""), Some("Réti"), Some("a,b")]
        );
        assert!(string_array(&body, 2).is_err());
        assert!(string_array(&body[..body.len() - 1], 3).is_err());
    }
}
