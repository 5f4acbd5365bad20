//! Waiting for a run's next batch or its end: without the GIL (another
//! Python thread runs meanwhile), and watching for Ctrl-C, so that it
//! stops the run within [`POLL`] and Python raises `KeyboardInterrupt`.
//!
//! Python's own SIGINT handler only notes the signal; Python acts on it
//! when its main thread runs Python code, which it does not while it waits
//! here. So the wait wakes every [`POLL`] to look. Called from Python
//! (`report`, iterating a stream) it runs Python's signal handlers itself
//! (`PyErr_CheckSignals`) and returns their exception. Called by another
//! library reading the Arrow C stream (pyarrow, polars, DuckDB), where a
//! Python exception cannot be returned, it takes the note of a SIGINT
//! (`PyOS_InterruptOccurred`), stops the run, and notes the SIGINT again
//! (`PyErr_SetInterrupt`), for Python to raise `KeyboardInterrupt` as soon
//! as the reader returns.

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread::ThreadId;
use std::time::Duration;

use pgnmill::pipeline::Cancel;
use pyo3::prelude::*;

/// How often a wait looks for Ctrl-C.
pub const POLL: Duration = Duration::from_millis(50);

/// Waits, from Python, for the one message of `rx` (a run's result); on
/// Ctrl-C (any exception of a signal handler), stops the run through
/// `cancel`, waits for it to stop (it removes its partial files) and
/// returns the exception.
pub fn finish<T: Send>(py: Python<'_>, rx: &Mutex<Receiver<T>>, cancel: &Cancel) -> PyResult<T> {
    let recv = |timeout: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    loop {
        match py.detach(|| recv(Some(POLL))) {
            Ok(result) => return Ok(result),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(crate::errors::PgnmillError::new_err(
                    "the run's thread stopped without a result",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    cancel.request();
                    let _ = py.detach(|| recv(None));
                    return Err(interrupt);
                }
            }
        }
    }
}

/// The thread that runs Python's signal handlers, when the stream was
/// made there: the one thread where a C stream reader looks for Ctrl-C.
pub fn main_thread(py: Python<'_>) -> PyResult<Option<ThreadId>> {
    let threading = py.import("threading")?;
    let main = threading.call_method0("main_thread")?;
    let current = threading.call_method0("current_thread")?;
    Ok(main.is(&current).then(|| std::thread::current().id()))
}

unsafe extern "C" {
    /// Whether this thread holds the GIL. In CPython's C API since 3.4,
    /// though not in the limited API's list; pyo3 declares it only for
    /// full-API builds.
    fn PyGILState_Check() -> std::os::raw::c_int;
}

/// Runs `wait` with the GIL released if this thread holds it: a reader
/// of the C stream may call with it held (another Python thread could
/// not run meanwhile) or without (then it is not taken: the thread that
/// holds it may be waiting for this one).
pub fn without_gil<T: Send>(wait: impl FnOnce() -> T + Send) -> T {
    // SAFETY: PyGILState_Check only reads this thread's state.
    if unsafe { PyGILState_Check() } == 1 {
        Python::attach(|py| py.detach(wait))
    } else {
        wait()
    }
}

/// For a C stream reader on Python's main thread, after a [`POLL`] of
/// waiting: whether Ctrl-C was pressed. If so the SIGINT is noted again
/// for Python, which raises `KeyboardInterrupt` (or runs the program's own
/// handler) when it next runs Python code.
pub fn interrupted(main: Option<ThreadId>) -> bool {
    if main != Some(std::thread::current().id()) {
        return false;
    }
    Python::attach(|_| {
        // SAFETY: both are called on the main thread with the GIL held,
        // as they require.
        unsafe {
            if pyo3::ffi::PyOS_InterruptOccurred() != 0 {
                pyo3::ffi::PyErr_SetInterrupt();
                true
            } else {
                false
            }
        }
    })
}
