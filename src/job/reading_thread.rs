//! Reading an input on a thread of its own, so that a signal stops a
//! `convert` or `fen` run that waits on a pipe. The run's thread waits for
//! what the reading thread sends and looks at the cancel token every
//! [`INTERRUPT_POLL`], as the report's main thread waits on its producer
//! (`pipeline::producer`): a read blocked on a pipe that gives nothing
//! would otherwise keep the first Ctrl-C waiting until the pipe closes.
//! A reading thread still blocked when the run stops is left to end with
//! the process (or with the pipe).

use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};

use crate::pipeline::{Cancel, INTERRUPT_POLL, ReportError};
use crate::source::{Input, Opened, ReadOptions};

/// Opens `input` (named `name` in errors) on a thread of its own, which
/// reads its first bytes to tell its format, and waits for it, giving up
/// with [`ReportError::Cancelled`] once `cancel` is set.
pub(super) fn open(cancel: &Cancel, input: &Input, name: &str) -> Result<Opened, ReportError> {
    let (tx, rx) = sync_channel(1);
    let input = input.clone();
    spawn(move || {
        let _ = tx.send(input.open(&ReadOptions::default()));
    })?;
    match receive(&rx, cancel, name)? {
        Some(opened) => Ok(opened?),
        None => Err(thread_ended()),
    }
}

/// An iterator run on a thread of its own, its items handed over in
/// groups of up to `group` (one hand-over per group, not per line), at
/// most one group ahead.
pub(super) struct OnThread<I: Iterator> {
    rx: Receiver<Sent<I>>,
    group: std::vec::IntoIter<I::Item>,
    /// The iterator, back from the thread once it has ended.
    ended: Option<I>,
}

/// What the reading thread sends: groups of items, then the iterator.
enum Sent<I: Iterator> {
    Items(Vec<I::Item>),
    End(I),
}

impl<I> OnThread<I>
where
    I: Iterator + Send + 'static,
    I::Item: Send + 'static,
{
    /// Starts the thread that runs `items`.
    pub(super) fn spawn(mut items: I, group: usize) -> Result<Self, ReportError> {
        let (tx, rx) = sync_channel(1);
        spawn(move || {
            loop {
                let taken: Vec<I::Item> = items.by_ref().take(group.max(1)).collect();
                if taken.is_empty() {
                    break;
                }
                // A receiver that is gone means the run stopped reading.
                if tx.send(Sent::Items(taken)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Sent::End(items));
        })?;
        Ok(OnThread {
            rx,
            group: Vec::new().into_iter(),
            ended: None,
        })
    }

    /// The next item, `None` once the iterator has ended; an error once
    /// `cancel` is set (named by `input`).
    pub(super) fn next(
        &mut self,
        cancel: &Cancel,
        input: &str,
    ) -> Result<Option<I::Item>, ReportError> {
        loop {
            if let Some(item) = self.group.next() {
                return Ok(Some(item));
            }
            if self.ended.is_some() {
                return Ok(None);
            }
            match receive(&self.rx, cancel, input)? {
                Some(Sent::Items(group)) => self.group = group.into_iter(),
                Some(Sent::End(items)) => self.ended = Some(items),
                None => return Err(thread_ended()),
            }
        }
    }

    /// The iterator itself, once [`OnThread::next`] has said it ended
    /// (for what it knows at its end: how far it read).
    pub(super) fn ended(&self) -> Option<&I> {
        self.ended.as_ref()
    }
}

/// Starts a reading thread.
fn spawn(work: impl FnOnce() + Send + 'static) -> Result<(), ReportError> {
    std::thread::Builder::new()
        .name("pgnmill-read".into())
        .spawn(work)
        .map(drop)
        .map_err(|e| ReportError::Thread(format!("cannot start a thread to read an input: {e}")))
}

/// Waits for what the reading thread sends; `None` when it ended without
/// sending (it panicked).
fn receive<T>(rx: &Receiver<T>, cancel: &Cancel, input: &str) -> Result<Option<T>, ReportError> {
    loop {
        if cancel.requested() {
            return Err(ReportError::Cancelled {
                input: input.to_string(),
            });
        }
        match rx.recv_timeout(INTERRUPT_POLL) {
            Ok(sent) => return Ok(Some(sent)),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// The error of a reading thread that ended without a word: it panicked,
/// and its message is already on stderr.
fn thread_ended() -> ReportError {
    ReportError::Thread("the thread reading an input stopped unexpectedly".into())
}
