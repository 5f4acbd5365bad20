//! A worker's task: one run of consecutive games of a batch, decoded,
//! replayed and formatted into rows.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Cancel;
use super::spare::Spare;
use crate::pgn::select::TagQuery;
use crate::pgn::{Batch, ReaderNote};
use crate::replay::{ReplayOptions, ReplayedGame, Status, replay_text_into};
use crate::report::{ChunkBuilder, ChunkPlan, FormattedChunk, GameLocation};
use crate::source::Damage;
use crate::source::{Encoding, decode_game};

/// What every task of one input shares.
pub(super) struct Job<'a> {
    /// The input's name, for the `source` column and messages.
    pub name: &'a str,
    pub encoding: Encoding,
    pub options: &'a ReplayOptions,
    /// The `--tags` and `--where` tags.
    pub select: &'a TagQuery,
    /// What each chunk is made into.
    pub plan: &'a ChunkPlan,
    pub cancel: &'a Cancel,
}

/// Why a task returned no rows.
pub(super) enum TaskError {
    /// Formatting a row failed.
    Format(String),
    /// The run was stopping (cancelled, or an earlier error): not replayed.
    Skipped,
}

/// Games taken through each pass of [`replay_chunk`] together: enough that
/// a pass's code is fetched once for many games (256: 0.82 M
/// instruction-cache misses on 10 MB; 64: 0.84 M; a whole chunk of 1,024:
/// 0.80 M), few enough that their records (some 500 bytes each with their
/// strings) stay a small, fixed amount of memory whatever the chunk's size.
const GAMES_PER_PASS: usize = 256;

/// Replays chunk `chunk` of `batch` (`per_task` games a chunk), unless the
/// run is stopping, into buffers taken from `spare`.
///
/// The chunk goes through in passes, each over a run of its games: decode
/// their texts, replay them, format their rows. Done a game at a time, the
/// code of all three (tag reader, variant detection, replay, outcome, FEN,
/// and the row writers of 38 columns) did not fit in the processor's
/// instruction cache together, and every game fetched much of it again:
/// cachegrind counted 3.5 M instruction-cache misses on 10 MB of games,
/// against 1.2 M for the smaller code before the outcome and research
/// columns. A pass keeps one stage's code hot across [`GAMES_PER_PASS`]
/// games, whose records are held until they are formatted.
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
    let mut rows = ChunkBuilder::new(spare.take(), job.plan, spans.len());
    // Empty, so no allocation, without --tags.
    let columns = job.select.column_names().len();
    for (part, games) in spans.chunks(GAMES_PER_PASS).enumerate() {
        let texts: Vec<_> = games
            .iter()
            .map(|span| decode_game(batch.game_bytes(span), job.encoding))
            .collect();
        let mut replayed = Vec::with_capacity(games.len());
        for (i, (span, text)) in games.iter().zip(&texts).enumerate() {
            // Without --tags and --where the tags are read once, by replay.
            let values = if job.select.is_empty() {
                Vec::new()
            } else {
                let values = job.select.read(text, span.line);
                if !job.select.selects(&values) {
                    rows.pass_over();
                    continue;
                }
                values
            };
            let index = part * GAMES_PER_PASS + i;
            replayed.push((index, span, ReplayedGame::empty(), values, text));
            let Some((_, _, record, _, _)) = replayed.last_mut() else {
                continue;
            };
            let game = batch.record.then(|| first_game + index as u64);
            replay_text_into(text, span.line, game, job.options, record);
            if let Some(note) = &batch.note {
                apply_note(note, record);
            }
            if let Some(damage) = batch.damage_of(span) {
                mark_damaged(record, damage);
            }
        }
        for (i, span, record, values, text) in &replayed {
            let tags: Vec<&str> = values
                .iter()
                .take(columns)
                .map(|v| v.as_deref().unwrap_or(""))
                .collect();
            let at = GameLocation {
                source: job.name,
                game: first_game + *i as u64,
                offset: span.offset,
                line: span.line,
            };
            rows.push(at, record, **span, &tags, &text[..])
                .map_err(TaskError::Format)?;
        }
    }
    rows.finish().map_err(TaskError::Format)
}

/// Turns `record` into the row of a game whose text comes from damaged
/// compressed data: what its tags say, as read, and why its moves were not
/// replayed.
#[cold]
fn mark_damaged(record: &mut ReplayedGame<'_>, damage: &Damage) {
    *record = ReplayedGame::not_replayed(
        std::mem::take(&mut record.variant),
        std::mem::take(&mut record.tags),
        Status::DamagedInput,
        format!("not replayed: {}", damage.why),
    );
}

/// A record reader's note decides the row's status unless the replay
/// found something first (an illegal move before the damage).
#[cold]
fn apply_note(note: &ReaderNote, record: &mut ReplayedGame<'_>) {
    // A heading's empty board is no bad FEN: it is no game at all.
    if record.status != Status::Ok && !matches!(note, ReaderNote::NotAGame(_)) {
        return;
    }
    let (status, why) = match note {
        ReaderNote::Damaged(why) | ReaderNote::DamagedOffMainLine(why) => (Status::ParseError, why),
        ReaderNote::NotAGame(why) => (Status::Unsupported, why),
    };
    record.status = status;
    record.error = why.clone();
}
