//! The overlapped pipeline that reports one input: three stages at once, so
//! that replay workers never wait for reading or writing.
//!
//! 1. A producer thread runs the source [`Reader`] (map or read, decompress,
//!    split into game spans) ahead of the workers, through a bounded channel.
//! 2. The rayon pool (`-j N` threads) replays each run of games (see
//!    [`games_per_task`]) as one task and sends its rows back.
//! 3. The main thread writes the chunks strictly in input order as they
//!    arrive (a reorder buffer over the batches in flight), so the files are
//!    byte-identical whatever the number of threads.
//!
//! Memory stays flat in the input size: at most [`BATCHES_IN_FLIGHT`]
//! batches are being replayed or written and the producer holds one more
//! (being read, or read and waiting to be handed over), whatever the
//! input's length; of their chunks at most [`TASKS_PER_THREAD`] a thread
//! are out at once, their rows in buffers that are reused, never given
//! back and faulted in again.
//!
//! Ctrl-C is honoured inside a batch: each task checks
//! [`crate::interrupt::requested`] before it starts and skips its games, and
//! the main thread checks it after every chunk it writes and every 50 ms
//! while it waits (for a producer blocked on a pipe, say).
//!
//! From 4 replay threads on, the producer also splits each window on
//! several threads (`Reader::set_split_threads`), so that it stays ahead of
//! many workers.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::stages::ProducerCpu;
use crate::CliError;
use crate::cpu_time::thread_cpu_ns;
use crate::replay::ReplayOptions;
use crate::report::chunk::{ChunkResult, process_chunk};
use crate::report::progress::Progress;
use crate::report::summary::InputSummary;
use crate::report::writer::ReportWriter;
use crate::source::{Batch, Compression, Encoding, Input, ReadOptions, SourceError};

/// Tasks each replay thread gets of a batch: enough to balance the load
/// (a thread that draws slow games takes fewer tasks).
const TASKS_PER_THREAD: usize = 4;

/// The fewest games a task replays: a task's rows wake the main thread,
/// and on a shared core each wake-up is a context switch.
const MIN_GAMES_PER_TASK: usize = 64;

/// The most games a task replays: a task's rows are one buffer, reused
/// (see [`Spare`]), and its size follows the games of the task. Without a
/// cap a batch of unusually short games (8 MiB of them) makes the biggest
/// buffer, and a longer input meets more such batches: memory would creep
/// up with the input's length, within its bound.
const MAX_GAMES_PER_TASK: usize = 1024;

/// Games per worker task for a batch of `games` replayed on `threads`:
/// [`TASKS_PER_THREAD`] tasks a thread, within [`MIN_GAMES_PER_TASK`] and
/// [`MAX_GAMES_PER_TASK`]. With few threads tasks are large (up to 1,024
/// games, against about 1,500 at `-j 1` before the cap), which cut the context
/// switches of a one-core run from 9,300 to 2,600 and its CPU time by 5%
/// against a fixed 64; with many, they stay small enough to share out.
fn games_per_task(games: usize, threads: usize) -> usize {
    (games / chunks_out(threads)).clamp(MIN_GAMES_PER_TASK, MAX_GAMES_PER_TASK)
}

/// The most chunks out at once, handed to the workers and not yet written:
/// [`TASKS_PER_THREAD`] a thread.
fn chunks_out(threads: usize) -> usize {
    threads.max(1) * TASKS_PER_THREAD
}

/// Batches handed to the workers and not yet written. Two keep the workers
/// fed while the writer finishes the older one.
const BATCHES_IN_FLIGHT: usize = 2;

/// Batches that may wait in the channel (capacity). None: the producer
/// reads the next batch while the workers replay the ones in flight, then
/// hands it over as soon as there is room; a queued batch would only add
/// 8 MiB of memory (measured: no faster on big.pgn.zst).
const BATCHES_AHEAD: usize = 0;

/// Why reading an input stopped early.
pub(crate) enum InputEnd {
    /// The input ended in the middle (truncated compressed stream, read
    /// error): the games before are in the report.
    Truncated(SourceError),
    /// The run cannot go on.
    Fatal(CliError),
}

/// What every task of one input shares.
struct Job<'a> {
    /// The input's name, for the `source` column and messages.
    name: &'a str,
    encoding: Encoding,
    options: &'a ReplayOptions,
}

/// Where the main thread sends what it learns, and the totals it keeps.
pub(crate) struct Sink<'a> {
    pub writer: &'a mut ReportWriter,
    pub progress: &'a mut Progress,
    /// CPU time of the producer threads, their split helpers and
    /// decoders, added when each producer ends.
    pub producer_cpu: &'a mut ProducerCpu,
    /// Threads each window is split on.
    pub split_threads: usize,
}

/// What the producer thread sends, in this order: whether the input
/// opened, then its batches, then possibly the error that cut it short.
enum Produced {
    Opened {
        encoding: Encoding,
        compression: Compression,
    },
    OpenFailed(SourceError),
    Batch(Batch),
    Truncated(SourceError),
}

/// Why a task returned no rows.
enum TaskError {
    /// Formatting a row failed.
    Csv(csv::Error),
    /// The run was stopping (interrupt or an earlier error): not replayed.
    Skipped,
}

/// One task's result, addressed by batch sequence number and chunk index.
struct Done {
    batch: u64,
    chunk: usize,
    result: Result<ChunkResult, TaskError>,
}

/// A batch handed to the workers: its chunks as they come back, and how
/// many of them are written.
struct InFlight {
    batch: Arc<Batch>,
    /// The batch's sequence number.
    seq: u64,
    /// Games per chunk (the last may have fewer).
    per_task: usize,
    chunks: Vec<Option<ChunkResult>>,
    /// Chunks handed to the workers so far, in order.
    dispatched: usize,
    written: usize,
}

/// How often a waiting main thread looks at the interrupt flag: a producer
/// blocked on a pipe must not keep Ctrl-C waiting.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// Replays every game of `input` on `pool` and writes the rows in order.
pub(crate) fn run_input(
    input: &Input,
    pool: &rayon::ThreadPool,
    options: &ReplayOptions,
    sink: &mut Sink<'_>,
) -> Result<(), InputEnd> {
    let name = input.path.to_string_lossy().into_owned();
    let (batch_tx, batch_rx) = mpsc::sync_channel(BATCHES_AHEAD);
    let producer = spawn_producer(input.clone(), sink.split_threads, batch_tx).map_err(|e| {
        InputEnd::Fatal(CliError::Failed(format!(
            "cannot start the reading thread for {name}: {e}"
        )))
    })?;
    let (encoding, compression) = match recv(&batch_rx, &name)? {
        Some(Produced::Opened {
            encoding,
            compression,
        }) => (encoding, compression),
        Some(Produced::OpenFailed(e)) => return Err(InputEnd::Fatal(e.into())),
        _ => {
            // A producer that saw Ctrl-C stops before it says anything.
            check_interrupt(&name)?;
            return Err(InputEnd::Fatal(CliError::Failed(format!(
                "{name}: the reading thread stopped before opening it"
            ))));
        }
    };
    sink.writer.begin_input(InputSummary {
        path: name.clone(),
        bytes: 0,
        games: 0,
        encoding: encoding.name().to_string(),
        compression: match compression {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
        }
        .to_string(),
        error: None,
    });
    let job = Job {
        name: &name,
        encoding,
        options,
    };
    let stop = AtomicBool::new(false);
    let outcome = pool.in_place_scope(|scope| {
        let threads = pool.current_num_threads();
        let mut state = State {
            scope,
            threads,
            job: &job,
            stop: &stop,
            done: mpsc::channel(),
            spare: Arc::new(Mutex::new(Vec::new())),
            outstanding: 0,
            in_flight: VecDeque::new(),
            next_batch: 0,
            consumed: 0,
        };
        let r = state.drive(&batch_rx, sink);
        if r.is_err() {
            // Tasks still queued skip their games: the scope ends soon.
            stop.store(true, Ordering::Relaxed);
        }
        r
    });
    // Unblocks a producer waiting to send; it stops at its next batch.
    drop(batch_rx);
    if outcome.is_ok() {
        // The producer has ended (its channel was drained to the end).
        if let Ok(cpu) = producer.join() {
            sink.producer_cpu.own += cpu.own;
            sink.producer_cpu.split_helpers += cpu.split_helpers;
            sink.producer_cpu.decoder += cpu.decoder;
        }
    }
    // Otherwise the producer is left to end on its own: it may be blocked
    // in a read of a pipe, which must not delay reporting the error.
    outcome
}

/// Starts the thread that opens `input` and reads it ahead, splitting
/// windows on `split_threads` threads; it returns its own CPU time and
/// that of its split helpers and decoder.
fn spawn_producer(
    input: Input,
    split_threads: usize,
    tx: SyncSender<Produced>,
) -> std::io::Result<std::thread::JoinHandle<ProducerCpu>> {
    std::thread::Builder::new()
        .name("pgnmill-read".into())
        .spawn(move || {
            let start = thread_cpu_ns();
            let mut reader = match input.open(&ReadOptions::default()) {
                Ok(reader) => reader,
                Err(e) => {
                    let _ = tx.send(Produced::OpenFailed(e));
                    return ProducerCpu::default();
                }
            };
            reader.set_split_threads(split_threads);
            let opened = Produced::Opened {
                encoding: reader.encoding(),
                compression: reader.compression(),
            };
            let mut item = Some(opened);
            while let Some(message) = item {
                // A receiver that is gone means the run stopped.
                if crate::interrupt::requested() || tx.send(message).is_err() {
                    break;
                }
                item = reader.next().map(|r| match r {
                    Ok(batch) => Produced::Batch(batch),
                    Err(e) => Produced::Truncated(e),
                });
            }
            ProducerCpu {
                own: thread_cpu_ns().saturating_sub(start),
                split_helpers: reader.split_helpers_cpu_ns(),
                decoder: reader.decoder_cpu_ns(),
            }
        })
}

/// Waits for a message, giving up with [`InputEnd::Fatal`] on an
/// interrupt; `None` when every sender is gone.
fn recv<T>(rx: &Receiver<T>, name: &str) -> Result<Option<T>, InputEnd> {
    loop {
        check_interrupt(name)?;
        match rx.recv_timeout(INTERRUPT_POLL) {
            Ok(item) => return Ok(Some(item)),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// The error of an interrupted run, if the user asked it to stop.
fn check_interrupt(name: &str) -> Result<(), InputEnd> {
    if crate::interrupt::requested() {
        return Err(InputEnd::Fatal(CliError::Interrupted(format!(
            "stopped while reading {name}; no report was written"
        ))));
    }
    Ok(())
}

/// The main thread's side of one input.
struct State<'s, 'a> {
    scope: &'s rayon::Scope<'a>,
    /// Replay threads of the pool.
    threads: usize,
    job: &'a Job<'a>,
    stop: &'a AtomicBool,
    done: (Sender<Done>, Receiver<Done>),
    /// Batches given to the workers, oldest (the one being written) first.
    in_flight: VecDeque<InFlight>,
    /// Written chunk results, handed back to the workers for their buffers.
    spare: Spare,
    /// Chunks handed to the workers and not yet written: at most
    /// [`TASKS_PER_THREAD`] a thread (see [`State::dispatch_more`]).
    outstanding: usize,
    /// Sequence number of the next batch to dispatch.
    next_batch: u64,
    /// Source offset up to which the input is written (for progress).
    consumed: u64,
}

impl<'a> State<'_, 'a> {
    /// Takes batches from the producer while there is room, and writes
    /// chunks as they come back, until the input is done.
    fn drive(&mut self, batches: &Receiver<Produced>, sink: &mut Sink<'_>) -> Result<(), InputEnd> {
        let mut producer_done = false;
        let mut truncated = None;
        loop {
            check_interrupt(self.job.name)?;
            while !producer_done && self.in_flight.len() < BATCHES_IN_FLIGHT {
                // With nothing in flight there is nothing else to wait for;
                // otherwise take only what is ready and go back to writing.
                let item = if self.in_flight.is_empty() {
                    recv(batches, self.job.name)?
                } else {
                    match batches.try_recv() {
                        Ok(item) => Some(item),
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => None,
                    }
                };
                match item {
                    Some(Produced::Batch(batch)) => self.dispatch(batch, sink),
                    // The reader yields nothing after an error: finish the
                    // games before it, then report it.
                    Some(Produced::Truncated(e)) => {
                        truncated = Some(e);
                        producer_done = true;
                    }
                    Some(Produced::Opened { .. } | Produced::OpenFailed(_)) | None => {
                        producer_done = true;
                    }
                }
            }
            if self.in_flight.is_empty() {
                break;
            }
            // Every batch in flight has a chunk not yet received (written
            // chunks are dropped as soon as they are in order), and the
            // sender is alive here: this receives.
            let Some(done) = recv(&self.done.1, self.job.name)? else {
                break;
            };
            self.accept(done, sink)?;
        }
        // The producer also stops on an interrupt: a short input is not a
        // finished one.
        check_interrupt(self.job.name)?;
        match truncated {
            Some(e) => Err(InputEnd::Truncated(e)),
            None => Ok(()),
        }
    }

    /// Hands a batch's chunks to the workers.
    fn dispatch(&mut self, batch: Batch, sink: &mut Sink<'_>) {
        let seq = self.next_batch;
        self.next_batch += 1;
        let per_task = games_per_task(batch.games.len(), self.threads);
        if seq == 0 {
            set_aside(&self.spare, self.threads, per_task);
        }
        let n = batch.games.len().div_ceil(per_task);
        self.in_flight.push_back(InFlight {
            batch: Arc::new(batch),
            seq,
            per_task,
            chunks: (0..n).map(|_| None).collect(),
            dispatched: 0,
            written: 0,
        });
        self.dispatch_more();
        // A batch without games (none are made, but cheap to allow) is
        // finished at once.
        self.finish_batches(sink);
    }

    /// Hands the workers the next chunks in input order, as long as fewer
    /// than [`TASKS_PER_THREAD`] a thread are out and unwritten. All the
    /// chunks of two batches at once made the memory held depend on how far
    /// one worker ran ahead of a slow chunk, so a longer input, meeting
    /// rarer such moments, peaked higher; the window bounds it, and still
    /// leaves each worker a few chunks past a slow one.
    fn dispatch_more(&mut self) {
        while self.outstanding < chunks_out(self.threads) {
            let Some(front) = self
                .in_flight
                .iter_mut()
                .find(|b| b.dispatched < b.chunks.len())
            else {
                return;
            };
            let chunk = front.dispatched;
            front.dispatched += 1;
            self.outstanding += 1;
            let (batch, seq, per_task) = (Arc::clone(&front.batch), front.seq, front.per_task);
            let tx = self.done.0.clone();
            let (job, stop) = (self.job, self.stop);
            let spare = Arc::clone(&self.spare);
            self.scope.spawn(move |_| {
                let result = replay_chunk(&batch, chunk, per_task, job, stop, &spare);
                // The main thread has gone only if the run is stopping.
                let _ = tx.send(Done {
                    batch: seq,
                    chunk,
                    result,
                });
            });
        }
    }

    /// Files a chunk's result and writes every chunk that is now in order.
    fn accept(&mut self, done: Done, sink: &mut Sink<'_>) -> Result<(), InputEnd> {
        let chunk = match done.result {
            Ok(chunk) => chunk,
            Err(TaskError::Csv(e)) => {
                return Err(InputEnd::Fatal(CliError::Failed(format!("games.csv: {e}"))));
            }
            Err(TaskError::Skipped) => {
                check_interrupt(self.job.name)?;
                return Err(InputEnd::Fatal(CliError::Failed(
                    "a replay task was skipped".into(),
                )));
            }
        };
        let first = self.next_batch - self.in_flight.len() as u64;
        let slot = usize::try_from(done.batch.wrapping_sub(first))
            .ok()
            .and_then(|i| self.in_flight.get_mut(i))
            .and_then(|b| b.chunks.get_mut(done.chunk));
        if let Some(slot) = slot {
            *slot = Some(chunk);
        }
        while let Some(front) = self.in_flight.front_mut() {
            let Some(chunk) = front.chunks.get_mut(front.written).and_then(Option::take) else {
                break;
            };
            let batch = &front.batch;
            sink.writer
                .add(&chunk, &|span| batch.game_bytes(span).to_vec())
                .map_err(InputEnd::Fatal)?;
            front.written += 1;
            self.outstanding -= 1;
            give_back(&self.spare, chunk);
            check_interrupt(self.job.name)?;
            self.finish_batches(sink);
            self.dispatch_more();
        }
        Ok(())
    }

    /// Retires the oldest batches whose chunks are all written: the
    /// progress bar and the input's byte count advance.
    fn finish_batches(&mut self, sink: &mut Sink<'_>) {
        while let Some(front) = self.in_flight.front() {
            if front.written < front.chunks.len() {
                break;
            }
            let batch = &front.batch;
            let end = batch.base_offset + batch.bytes().len() as u64;
            sink.progress
                .advance(end.saturating_sub(self.consumed), batch.games.len() as u64);
            self.consumed = end;
            if let Some(input) = sink.writer.summary.inputs.last_mut() {
                input.bytes = end;
            }
            self.in_flight.pop_front();
        }
    }
}

/// Chunk results already written, whose buffers the next tasks reuse: the
/// report's memory is then that of the most chunks ever alive at once,
/// reached early and kept, not given back to the system and faulted in
/// again for every chunk (page faults are CPU time too). Never more than
/// the chunks of the batches in flight.
type Spare = Arc<Mutex<Vec<ChunkResult>>>;

/// Fills `spare` with the buffers of every chunk that may be out at once
/// ([`TASKS_PER_THREAD`] a thread), set aside before the first chunk: the
/// memory of a report is then fixed from the start, the same for a short
/// input as for a long one. Each has room for twice the first batch's
/// chunk (at most [`MAX_GAMES_PER_TASK`] games): many threads make small
/// chunks, and their buffers need not be as large.
fn set_aside(spare: &Spare, threads: usize, per_task: usize) {
    let games = (per_task * 2).min(MAX_GAMES_PER_TASK);
    spare_list(spare).extend((0..chunks_out(threads)).map(|_| ChunkResult::with_room_for(games)));
}

/// Hands a written chunk's buffers back to [`Spare`].
fn give_back(spare: &Spare, chunk: ChunkResult) {
    spare_list(spare).push(chunk);
}

/// The list behind `spare`, locked. A poisoned lock only means another
/// thread panicked while holding it; the vector itself is still sound.
fn spare_list(spare: &Spare) -> MutexGuard<'_, Vec<ChunkResult>> {
    spare.lock().unwrap_or_else(|e| e.into_inner())
}

/// A worker's task: replays chunk `chunk` of `batch`, unless the run is
/// stopping.
fn replay_chunk(
    batch: &Batch,
    chunk: usize,
    per_task: usize,
    job: &Job<'_>,
    stop: &AtomicBool,
    spare: &Spare,
) -> Result<ChunkResult, TaskError> {
    if stop.load(Ordering::Relaxed) || crate::interrupt::requested() {
        return Err(TaskError::Skipped);
    }
    let spans = batch.games.chunks(per_task).nth(chunk).unwrap_or_default();
    let recycled = spare_list(spare).pop().unwrap_or_default();
    process_chunk(
        recycled,
        job.name,
        batch.bytes(),
        batch.base_offset,
        spans,
        batch.first_game + 1 + (chunk * per_task) as u64,
        job.encoding,
        job.options,
    )
    .map_err(TaskError::Csv)
}
