//! How the work of one batch is shared out: how many games a worker task
//! replays, and how many tasks may be out at once. Both bound the memory a
//! report holds, whatever the input's length.

/// Tasks each replay thread gets of a batch: enough to balance the load
/// (a thread that draws slow games takes fewer tasks).
pub(super) const TASKS_PER_THREAD: usize = 4;

/// The fewest games a task replays: a task's rows wake the main thread,
/// and on a shared core each wake-up is a context switch.
const MIN_GAMES_PER_TASK: usize = 64;

/// The most games a task replays: a task's rows are one buffer, reused
/// (see [`super::spare`]), and its size follows the games of the task.
/// Without a cap a batch of unusually short games (8 MiB of them) makes
/// the biggest buffer, and a longer input meets more such batches: memory
/// would creep up with the input's length, within its bound.
pub(super) const MAX_GAMES_PER_TASK: usize = 1024;

/// Batches handed to the workers and not yet written. Two keep the workers
/// fed while the writer finishes the older one.
pub(super) const BATCHES_IN_FLIGHT: usize = 2;

/// Batches that may wait in the channel (capacity). None: the producer
/// reads the next batch while the workers replay the ones in flight, then
/// hands it over as soon as there is room; a queued batch would only add
/// 8 MiB of memory (measured: no faster on big.pgn.zst).
pub(super) const BATCHES_AHEAD: usize = 0;

/// Games per worker task for a batch of `games` replayed on `threads`:
/// [`TASKS_PER_THREAD`] tasks a thread, within [`MIN_GAMES_PER_TASK`] and
/// [`MAX_GAMES_PER_TASK`]. With few threads tasks are large (up to 1,024
/// games), which cut the context switches of a one-core run from 9,300 to
/// 2,600 and its CPU time by 5% against a fixed 64; with many, they stay
/// small enough to share out.
pub(super) fn games_per_task(games: usize, threads: usize) -> usize {
    (games / chunks_out(threads)).clamp(MIN_GAMES_PER_TASK, MAX_GAMES_PER_TASK)
}

/// The most chunks out at once, handed to the workers and not yet written:
/// [`TASKS_PER_THREAD`] a thread.
pub(super) fn chunks_out(threads: usize) -> usize {
    threads.max(1) * TASKS_PER_THREAD
}

/// Threads to split each window on with `threads` replay threads. One
/// thread splits about 1 GB of PGN per CPU-second and replay takes 100-200
/// MB per core, so one splitting thread per 3 replay threads keeps the
/// producer (which also reads, and checks the cuts) well off the critical
/// path at 16 cores; with up to 3 replay threads it stays on one thread.
pub(super) fn split_threads(threads: usize) -> usize {
    threads.div_ceil(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_stay_within_their_bounds() {
        assert_eq!(games_per_task(10, 1), MIN_GAMES_PER_TASK);
        assert_eq!(games_per_task(1_000_000, 1), MAX_GAMES_PER_TASK);
        assert_eq!(games_per_task(4 * 2 * 100, 2), 100);
        assert_eq!(split_threads(1), 1);
        assert_eq!(split_threads(3), 1);
        assert_eq!(split_threads(4), 2);
        assert_eq!(split_threads(16), 6);
    }
}
