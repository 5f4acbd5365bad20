//! Where a report's games go: every output (`games.csv`, `games.parquet`,
//! report.html with summary.json, each extract file, an in-process Arrow
//! stream) is a [`Sink`], and the ordered writer hands each one the
//! chunks of games in input order, knowing nothing of their formats, as
//! ripgrep's searcher hands matches to its printers. Adding an output
//! format is adding one sink.
//!
//! Formatting rows is the costly part of writing them, so a sink that
//! writes rows has a second half that runs on the worker threads
//! ([`RowFormat`]): it turns each chunk of replayed games into the sink's
//! own form ([`Encoded`]: CSV bytes, a compressed Parquet row group, an
//! Arrow record batch) while other chunks are being replayed, and the
//! sink itself, on the writer thread, only appends what it gets.

use std::any::Any;
use std::sync::Arc;

use super::columns::GameView;
use super::duplicate_stage::DuplicateRows;
use super::facts::GameFacts;
use super::summary::{InputSummary, Summary};
use crate::output::{FinishedFile, OutputError};
use crate::pgn::GameSpan;

/// A sink's form of one chunk of games, made by its [`RowEncoder`] on a
/// worker thread and read back by the sink on the writer thread (which
/// knows its type). Handed back after writing, emptied, so that its
/// buffers serve a later chunk.
pub type Encoded = Box<dyn Any + Send>;

/// The half of a sink that runs on the worker threads: it makes an
/// encoder for each chunk of games.
pub trait RowFormat: Send + Sync {
    /// An encoder for a chunk of about `games` games, writing into the
    /// buffers of `recycled` (an earlier chunk of this format, already
    /// written), if any.
    fn encoder(&self, games: usize, recycled: Option<Encoded>) -> Box<dyn RowEncoder>;

    /// Whether each chunk is a unit of the output that is better large (a
    /// Parquet row group, an Arrow batch): the workers then take a
    /// thread's whole share of a batch as one chunk.
    fn large_chunks(&self) -> bool {
        false
    }
}

/// Encodes one chunk's games, in input order.
pub trait RowEncoder {
    /// One game's row(s): the column table's view of it, and the values
    /// of the `--tags` columns.
    fn push(&mut self, game: &GameView<'_, '_>, tags: &[&str]) -> Result<(), String>;
    /// The chunk in the sink's form.
    fn finish(self: Box<Self>) -> Result<Encoded, String>;
}

/// One chunk of games, as the ordered writer hands it to every sink.
pub struct SinkChunk<'c> {
    /// What the report keeps of each game (status, counts, where its text
    /// is), for the sinks that need no row: report.html, extracts.
    pub facts: &'c [GameFacts],
    /// Games read for this chunk, selected by `--where` or not.
    pub games_read: u64,
    /// This sink's encoding of the chunk (`None` for a sink without a
    /// [`RowFormat`]).
    pub encoded: Option<Encoded>,
    /// The original text of a game, for sinks that copy games.
    pub game_text: &'c dyn Fn(&GameSpan) -> Vec<u8>,
}

/// An output of a report run. Files are written under a temporary name
/// and renamed into place by [`Sink::finish`]; a sink dropped without it
/// (a failed or interrupted run) leaves nothing behind.
pub trait Sink: Send {
    /// Its worker half, if it writes rows.
    fn rows(&self) -> Option<Arc<dyn RowFormat>> {
        None
    }

    /// A new input starts; its chunks follow.
    fn begin_input(&mut self, _input: &InputSummary) {}

    /// The next chunk, in input order. Returns the chunk's encoding, once
    /// written, for its buffers to be used again.
    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError>;

    /// Every chunk was written, and (`--duplicates`) every row's verdict is
    /// known: a sink with duplicate columns or files adds them here, before
    /// [`Sink::finish`].
    fn duplicates(&mut self, _rows: &DuplicateRows) -> Result<(), OutputError> {
        Ok(())
    }

    /// Every chunk was written: finishes the output with the run's totals,
    /// its files complete under their temporary names, which the writer
    /// renames into place once every sink has finished (so that a sink
    /// that fails leaves no other's file looking finished).
    fn finish(self: Box<Self>, summary: &Summary) -> Result<Vec<FinishedFile>, OutputError>;
}

/// A chunk's encoding as the type its sink made it (`file` names the sink
/// in the error, should another type come: a sink handed another's
/// chunk); `None` for a chunk without one.
pub fn encoded_as<T: Any>(
    encoded: Option<Encoded>,
    file: &str,
) -> Result<Option<Box<T>>, OutputError> {
    match encoded.map(|e| e.downcast::<T>()) {
        None => Ok(None),
        Some(Ok(chunk)) => Ok(Some(chunk)),
        Some(Err(_)) => Err(OutputError::Format {
            file: file.into(),
            message: "a chunk of another format".into(),
        }),
    }
}
