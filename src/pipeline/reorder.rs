//! The main thread's side of one input: it takes batches from the
//! producer, hands their chunks to the workers, and writes the chunks back
//! strictly in input order as they arrive (a reorder buffer over the
//! batches in flight), so the files are byte-identical whatever the number
//! of threads.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};

use super::ReportConfig;
use super::producer::{self, Produced};
use super::sizing::{BATCHES_AHEAD, BATCHES_IN_FLIGHT, chunks_out, games_per_task};
use super::spare::Spare;
use super::stages::ProducerCpu;
use super::task::{Job, TaskError, replay_chunk};
use super::{Cancel, INTERRUPT_POLL, Observer, ReportError};
use crate::pgn::Batch;
use crate::report::summary::{InputSummary, WarningKind};
use crate::report::{FormattedChunk, ReportWriter};
use crate::source::{Input, SourceError};

/// Why reading an input stopped early.
pub(super) enum InputEnd {
    /// The input ended in the middle (truncated compressed stream, read
    /// error): the games before are in the report.
    Truncated(SourceError),
    /// The run cannot go on.
    Fatal(ReportError),
}

/// Where the main thread sends what it learns, and the totals it keeps.
pub(super) struct Sink<'a> {
    pub writer: &'a mut ReportWriter,
    pub observer: &'a mut dyn Observer,
    /// CPU time of the producer threads, their split helpers and
    /// decoders, added when each producer ends.
    pub producer_cpu: &'a mut ProducerCpu,
    /// Threads each window is split on.
    pub split_threads: usize,
    /// Threads a multi-frame `.zst` input is decoded on.
    pub decode_threads: usize,
    /// Threads a `.bz2` file is decoded on.
    pub bzip2_threads: usize,
}

/// One task's result, addressed by batch sequence number and chunk index.
struct Done {
    batch: u64,
    chunk: usize,
    result: Result<FormattedChunk, TaskError>,
}

/// A batch handed to the workers: its chunks as they come back, and how
/// many of them are written.
struct InFlight {
    batch: Arc<Batch>,
    /// The batch's sequence number.
    seq: u64,
    /// Games per chunk (the last may have fewer).
    per_task: usize,
    chunks: Vec<Option<FormattedChunk>>,
    /// Chunks handed to the workers so far, in order.
    dispatched: usize,
    written: usize,
}

/// Replays every game of `input` on `pool` and writes the rows in order.
pub(super) fn run_input(
    input: &Input,
    pool: &rayon::ThreadPool,
    config: &ReportConfig,
    cancel: &Cancel,
    sink: &mut Sink<'_>,
) -> Result<(), InputEnd> {
    let name = input.path.to_string_lossy().into_owned();
    let (batch_tx, batch_rx) = mpsc::sync_channel(BATCHES_AHEAD);
    let producer = producer::spawn(
        input.clone(),
        (sink.split_threads, sink.decode_threads, sink.bzip2_threads),
        cancel.clone(),
        batch_tx,
    )
    .map_err(|e| {
        InputEnd::Fatal(ReportError::Thread(format!(
            "cannot start the reading thread for {name}: {e}"
        )))
    })?;
    let first = recv(&batch_rx, &name, cancel)?;
    let (encoding, compression, doubled_line_ends, refused) = match first {
        Some(Produced::Opened {
            encoding,
            compression,
            doubled_line_ends,
            refused,
        }) => (encoding, compression, doubled_line_ends, refused),
        Some(Produced::OpenFailed(e)) => return Err(InputEnd::Fatal(ReportError::Source(e))),
        _ => {
            // A producer that saw Ctrl-C stops before it says anything.
            check_cancel(&name, cancel)?;
            return Err(InputEnd::Fatal(ReportError::Thread(format!(
                "{name}: the reading thread stopped before opening it"
            ))));
        }
    };
    let mut summary = InputSummary::new(
        name.clone(),
        encoding.name().to_string(),
        compression.name().to_string(),
    );
    summary.doubled_line_ends = doubled_line_ends;
    if let Some((kind, why)) = refused {
        // Not read at all: one warning, first, and no rows.
        let message = format!("{}: {why}", input.path.display());
        summary.warn(WarningKind::of_refusal(kind), message);
        summary.unsupported = Some(why);
    }
    sink.writer.begin_input(summary);
    let plan = sink.writer.chunk_plan().clone();
    let job = Job {
        name: &name,
        encoding,
        options: &config.replay,
        select: &config.select,
        plan: &plan,
        cancel,
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
            spare: Spare::default(),
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
            sink.producer_cpu.decoder_wall += cpu.decoder_wall;
        }
    }
    // Otherwise the producer is left to end on its own: it may be blocked
    // in a read of a pipe, which must not delay reporting the error.
    outcome
}

/// Waits for a message, giving up with [`InputEnd::Fatal`] when the run
/// is cancelled; `None` when every sender is gone.
fn recv<T>(rx: &Receiver<T>, name: &str, cancel: &Cancel) -> Result<Option<T>, InputEnd> {
    loop {
        check_cancel(name, cancel)?;
        match rx.recv_timeout(INTERRUPT_POLL) {
            Ok(item) => return Ok(Some(item)),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// The error of a cancelled run, if it was asked to stop.
fn check_cancel(name: &str, cancel: &Cancel) -> Result<(), InputEnd> {
    if cancel.requested() {
        return Err(InputEnd::Fatal(ReportError::Cancelled {
            input: name.to_string(),
        }));
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
    /// Bytes of the input itself up to the last batch written (for
    /// progress).
    consumed: u64,
}

impl<'a> State<'_, 'a> {
    /// Takes batches from the producer while there is room, and writes
    /// chunks as they come back, until the input is done.
    fn drive(&mut self, batches: &Receiver<Produced>, sink: &mut Sink<'_>) -> Result<(), InputEnd> {
        let mut producer_done = false;
        let mut truncated = None;
        loop {
            check_cancel(self.job.name, self.job.cancel)?;
            while !producer_done && self.in_flight.len() < BATCHES_IN_FLIGHT {
                // With nothing in flight there is nothing else to wait for;
                // otherwise take only what is ready and go back to writing.
                let item = if self.in_flight.is_empty() {
                    recv(batches, self.job.name, self.job.cancel)?
                } else {
                    match batches.try_recv() {
                        Ok(item) => Some(item),
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => None,
                    }
                };
                match item {
                    Some(Produced::Batch(batch)) => self.dispatch(batch, sink),
                    Some(Produced::NoText(why)) => {
                        if let Some(input) = sink.writer.summary.inputs.last_mut() {
                            input.warn(WarningKind::NoText, why);
                        }
                    }
                    Some(Produced::Damaged(why)) => {
                        if let Some(input) = sink.writer.summary.inputs.last_mut() {
                            input.damaged(why);
                        }
                    }
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
            let Some(done) = recv(&self.done.1, self.job.name, self.job.cancel)? else {
                break;
            };
            self.accept(done, sink)?;
        }
        // The producer also stops on an interrupt: a short input is not a
        // finished one.
        check_cancel(self.job.name, self.job.cancel)?;
        match truncated {
            Some(e) => Err(InputEnd::Truncated(e)),
            None => Ok(()),
        }
    }

    /// Hands a batch's chunks to the workers.
    fn dispatch(&mut self, batch: Batch, sink: &mut Sink<'_>) {
        let seq = self.next_batch;
        self.next_batch += 1;
        let row_groups = self.job.plan.large_chunks();
        let per_task = games_per_task(batch.games.len(), self.threads, row_groups);
        if seq == 0 {
            self.spare.set_aside(self.threads, per_task);
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
            let spare = self.spare.clone();
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
            Err(TaskError::Format(e)) => {
                return Err(InputEnd::Fatal(ReportError::Csv(e)));
            }
            Err(TaskError::Skipped) => {
                check_cancel(self.job.name, self.job.cancel)?;
                return Err(InputEnd::Fatal(ReportError::Thread(
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
            let Some(mut chunk) = front.chunks.get_mut(front.written).and_then(Option::take) else {
                break;
            };
            let batch = &front.batch;
            sink.writer
                .add(&mut chunk, &|span| batch.game_bytes(span).to_vec())
                .map_err(|e| InputEnd::Fatal(ReportError::Output(e)))?;
            front.written += 1;
            self.outstanding -= 1;
            self.spare.give_back(chunk);
            check_cancel(self.job.name, self.job.cancel)?;
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
            // Progress counts the input's own bytes (compressed ones for a
            // compressed input), the unit of the file sizes it is out of,
            // and the text's, the unit of its rate.
            let text_before = sink.writer.summary.inputs.last().map_or(0, |i| i.bytes);
            sink.observer.advance(
                batch.input_read.saturating_sub(self.consumed),
                end.saturating_sub(text_before),
                batch.games.len() as u64,
            );
            self.consumed = batch.input_read;
            if let Some(input) = sink.writer.summary.inputs.last_mut() {
                input.bytes = end;
            }
            self.in_flight.pop_front();
        }
    }
}
