//! SIGINT (Ctrl-C) and SIGTERM (what `timeout`, job schedulers and `docker
//! stop` send) handling: the first signal asks the run to stop ([`Cancel`]),
//! so that partial files are removed and the user is told; a second one ends
//! the process at once. `report`, `convert` and `fen` look at the token
//! before every run of games or records they process and while they wait
//! for input (a pipe is read on a thread of its own), so the first signal
//! takes effect within milliseconds, not at the end of a batch or when the
//! pipe closes. The exit code is
//! the shell's for the signal: 130 after SIGINT, 143 after SIGTERM.
//!
//! "A second one" means a signal that comes [`SAME_REQUEST`] or more after
//! the first. coreutils `timeout` sends its signal twice within
//! microseconds (to the child, then to the child's process group), and a
//! terminal's Ctrl-C reaches every process of the foreground group: one
//! request, delivered twice. Counting that as the impatient second signal
//! would end the process before it removed its partial files.

use pgnmill::pipeline::Cancel;
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Signals that come this soon after the first are the same request.
const SAME_REQUEST: Duration = Duration::from_secs(1);

static CANCEL: OnceLock<Cancel> = OnceLock::new();

/// Set by SIGTERM (when it is the first signal), to tell the exit code.
static TERMINATED: AtomicBool = AtomicBool::new(false);

/// When the first signal came (CLOCK_MONOTONIC, nanoseconds; 0: none yet).
static FIRST_SIGNAL_NS: AtomicU64 = AtomicU64::new(0);

/// The token the signal handlers set; installs them on first use.
/// Installing may fail (the default behaviour, dying on the signal, then
/// applies).
pub fn cancel_token() -> Cancel {
    CANCEL
        .get_or_init(|| {
            let cancel = Cancel::new();
            for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
                let flag = cancel.flag();
                // SAFETY: the handler only reads a clock, swaps atomics
                // and may call `_exit`: all async-signal-safe.
                let _ = unsafe {
                    signal_hook::low_level::register(signal, move || {
                        on_signal(&flag, signal == SIGTERM, code)
                    })
                };
            }
            cancel
        })
        .clone()
}

/// The signal handler: the first signal sets `flag` (and says whether it
/// was SIGTERM); one that comes [`SAME_REQUEST`] later ends the process.
fn on_signal(flag: &AtomicBool, term: bool, code: i32) {
    let now = monotonic_ns().max(1);
    match FIRST_SIGNAL_NS.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => {
            TERMINATED.store(term, Ordering::SeqCst);
            flag.store(true, Ordering::SeqCst);
        }
        Err(first) if now.saturating_sub(first) >= SAME_REQUEST.as_nanos() as u64 => {
            signal_hook::low_level::exit(code)
        }
        Err(_) => {}
    }
}

/// CLOCK_MONOTONIC in nanoseconds; `clock_gettime` may be called from a
/// signal handler (POSIX lists it as async-signal-safe).
fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to.
    if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) } != 0 {
        return 0;
    }
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// The signal that stopped the run, for its message: the first one that
/// came.
pub fn signal_name() -> &'static str {
    if TERMINATED.load(Ordering::SeqCst) {
        "SIGTERM"
    } else {
        "SIGINT (Ctrl-C)"
    }
}

/// The exit code of an interrupted run: 128 plus the number of the signal
/// that came first, as a shell reports a process the signal ended.
pub fn exit_code() -> i32 {
    if TERMINATED.load(Ordering::SeqCst) {
        143
    } else {
        130
    }
}
