//! A worker's task: one run of consecutive games of a batch, decoded,
//! replayed and formatted into rows.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Cancel;
use super::spare::Spare;
use crate::pgn::select::TagQuery;
use crate::pgn::{Batch, ReaderNote};
use crate::replay::{GameRecord, ReplayOptions, Status, replay_record_text, replay_text};
use crate::report::{ChunkBuilder, ChunkFormat, FormattedChunk, GameLocation};
use crate::source::{Encoding, decode_game};

/// What every task of one input shares.
pub(super) struct Job<'a> {
    /// The input's name, for the `source` column and messages.
    pub name: &'a str,
    pub encoding: Encoding,
    pub options: &'a ReplayOptions,
    /// The `--tags` and `--where` tags.
    pub select: &'a TagQuery,
    /// The files the rows are formatted for.
    pub format: &'a ChunkFormat,
    pub cancel: &'a Cancel,
}

/// Why a task returned no rows.
pub(super) enum TaskError {
    /// Formatting a row failed.
    Format(String),
    /// The run was stopping (cancelled, or an earlier error): not replayed.
    Skipped,
}

/// Replays chunk `chunk` of `batch` (`per_task` games a chunk), unless the
/// run is stopping, into buffers taken from `spare`.
pub(super) fn replay_chunk(
    batch: &Batch,
    chunk: usize,
    per_task: usize,
    job: &Job<'_>,
    stop: &AtomicBool,
    spare: &Spare,
) -> Result<FormattedChunk, TaskError> {
    if stop.load(Ordering::Relaxed) || job.cancel.requested() {
        return Err(TaskError::Skipped);
    }
    let spans = batch.games.chunks(per_task).nth(chunk).unwrap_or_default();
    let first_game = batch.first_game + 1 + (chunk * per_task) as u64;
    let mut rows = ChunkBuilder::new(spare.take(), job.format, spans.len());
    for (i, span) in spans.iter().enumerate() {
        let text = decode_game(batch.game_bytes(span), job.encoding);
        // Without --tags and --where the tags are read once, by replay.
        let values = if job.select.is_empty() {
            Vec::new()
        } else {
            let values = job.select.read(&text, span.line);
            if !job.select.selects(&values) {
                rows.pass_over();
                continue;
            }
            values
        };
        // Empty, so no allocation, without --tags.
        let columns = job.select.column_names().len();
        let tags: Vec<&str> = values
            .iter()
            .take(columns)
            .map(|v| v.as_deref().unwrap_or(""))
            .collect();
        let game = first_game + i as u64;
        let mut record = if batch.record {
            replay_record_text(&text, span.line, game, job.options)
        } else {
            replay_text(&text, span.line, job.options)
        };
        if let Some(note) = &batch.note {
            apply_note(note, &mut record);
        }
        let at = GameLocation {
            source: job.name,
            game,
            offset: span.offset,
            line: span.line,
        };
        rows.push(at, &record, *span, &tags)
            .map_err(|e| TaskError::Format(e.to_string()))?;
    }
    rows.finish().map_err(TaskError::Format)
}

/// A record reader's note decides the row's status unless the replay
/// found something first (an illegal move before the damage).
#[cold]
fn apply_note(note: &ReaderNote, record: &mut GameRecord<'_>) {
    // A heading's empty board is no bad FEN: it is no game at all.
    if record.status != Status::Ok && !matches!(note, ReaderNote::NotAGame(_)) {
        return;
    }
    let (status, why) = match note {
        ReaderNote::Damaged(why) => (Status::ParseError, why),
        ReaderNote::NotAGame(why) => (Status::Unsupported, why),
    };
    record.status = status;
    record.error = why.clone();
}
