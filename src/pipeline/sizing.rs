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
///
/// A report with Parquet files (`row_groups`) gets one task a thread of
/// each batch instead, of up to [`MAX_GAMES_PER_ROW_GROUP`] games: a task's
/// rows are one row group, and each column of a row group is compressed by
/// one zstd call, whose set-up (its tables are cleared for every call)
/// costs as much as compressing a few thousand values. Row groups of a
/// fourth of a batch's games (at most 1,024) made `--format parquet` cost
/// 25% more instructions than CSV at `-j 1`; of a whole batch, 16%. The
/// rows of such a task are held until it is written, so the bound stays a
/// bound: a batch's games (8 MiB of input) at most, in a few buffers.
pub(super) fn games_per_task(games: usize, threads: usize, row_groups: bool) -> usize {
    if row_groups {
        return games
            .div_ceil(threads.max(1))
            .clamp(MIN_GAMES_PER_TASK, MAX_GAMES_PER_ROW_GROUP);
    }
    (games / chunks_out(threads)).clamp(MIN_GAMES_PER_TASK, MAX_GAMES_PER_TASK)
}

/// The most games a task replays when its rows are a Parquet row group
/// (see [`games_per_task`]): more than an 8 MiB batch of lichess games
/// holds (about 6,000), so that at `-j 1` a batch is one row group.
pub(super) const MAX_GAMES_PER_ROW_GROUP: usize = 8192;

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

/// Threads to decode a multi-frame `.zst` input on with `threads` replay
/// threads. One zstd decoder gives about 650 MB of PGN per CPU-second and
/// one replay thread takes 150-200 MB, so one decoder per 3 replay threads
/// keeps decoding off the critical path; never fewer than 2 from 2 replay
/// threads on, so that two cores share the decoding too. Each decoder
/// holds at most two frames' text (pzstd's are a few MiB to 32 MiB).
pub(super) fn decode_threads(threads: usize) -> usize {
    match threads {
        0 | 1 => 1,
        n => n.div_ceil(3).max(2),
    }
}

/// Threads to decode a `.bz2` file on, block by block, with `threads`
/// replay threads: one bzip2 decoder gives about 40 MB of PGN per
/// CPU-second, a fifth of what a replay thread takes, so decoding is the
/// work of the run and every core does it (the replay threads wait for
/// text meanwhile). With one thread, none: the file is one stream,
/// decoded on a thread beside the replay's.
pub(super) fn bzip2_threads(threads: usize) -> usize {
    match threads {
        0 | 1 => 0,
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_stay_within_their_bounds() {
        assert_eq!(games_per_task(10, 1, false), MIN_GAMES_PER_TASK);
        assert_eq!(games_per_task(1_000_000, 1, false), MAX_GAMES_PER_TASK);
        assert_eq!(games_per_task(4 * 2 * 100, 2, false), 100);
        assert_eq!(games_per_task(6_000, 1, true), 6_000);
        assert_eq!(games_per_task(6_001, 2, true), 3_001);
        assert_eq!(games_per_task(1_000_000, 1, true), MAX_GAMES_PER_ROW_GROUP);
        assert_eq!(games_per_task(10, 16, true), MIN_GAMES_PER_TASK);
        assert_eq!(split_threads(1), 1);
        assert_eq!(split_threads(3), 1);
        assert_eq!(split_threads(4), 2);
        assert_eq!(split_threads(16), 6);
        assert_eq!(decode_threads(1), 1);
        assert_eq!(decode_threads(2), 2);
        assert_eq!(decode_threads(16), 6);
        assert_eq!(bzip2_threads(1), 0);
        assert_eq!(bzip2_threads(2), 2);
        assert_eq!(bzip2_threads(16), 16);
    }
}
