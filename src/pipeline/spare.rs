//! Chunks already written, whose buffers the next tasks reuse: the report's
//! memory is then that of the most chunks ever alive at once, reached early
//! and kept, not given back to the system and faulted in again for every
//! chunk (page faults are CPU time too). Never more than the chunks of the
//! batches in flight.

use std::sync::{Arc, Mutex, MutexGuard};

use super::sizing::{MAX_GAMES_PER_TASK, chunks_out};
use crate::report::FormattedChunk;

/// The pool of written chunks, shared by the main thread (which gives
/// them back) and the workers (which take them).
#[derive(Clone, Default)]
pub(super) struct Spare(Arc<Mutex<Vec<FormattedChunk>>>);

impl Spare {
    /// Fills the pool with the buffers of every chunk that may be out at
    /// once ([`chunks_out`]), set aside before the first chunk: the memory
    /// of a report is then fixed from the start, the same for a short input
    /// as for a long one. Each has room for twice the first batch's chunk
    /// (at most [`MAX_GAMES_PER_TASK`] games): many threads make small
    /// chunks, and their buffers need not be as large.
    pub(super) fn set_aside(&self, threads: usize, per_task: usize) {
        let games = (per_task * 2).min(MAX_GAMES_PER_TASK);
        self.list()
            .extend((0..chunks_out(threads)).map(|_| FormattedChunk::with_room_for(games)));
    }

    /// Hands a written chunk's buffers back.
    pub(super) fn give_back(&self, chunk: FormattedChunk) {
        self.list().push(chunk);
    }

    /// A chunk to write into: a spare one, or a new one.
    pub(super) fn take(&self) -> FormattedChunk {
        self.list().pop().unwrap_or_default()
    }

    /// The list, locked. A poisoned lock only means another thread panicked
    /// while holding it; the vector itself is still sound.
    fn list(&self) -> MutexGuard<'_, Vec<FormattedChunk>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
