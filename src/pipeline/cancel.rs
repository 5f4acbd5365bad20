//! Stopping a run early: a token the command line sets on SIGINT, which
//! every thread of the run looks at.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a thread that waits on a reader looks at the token: a read
/// blocked on a pipe must not keep Ctrl-C waiting.
pub const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// A request to stop a run early, shared by whoever asks (a signal
/// handler) and the threads of the run, which look at it often.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token that has not been set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop; returns whether it had been asked before.
    pub fn request(&self) -> bool {
        self.0.swap(true, Ordering::SeqCst)
    }

    /// True once the run was asked to stop.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag behind the token, for a signal handler to set (one that
    /// may only store to an atomic, as signal handlers must).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}
