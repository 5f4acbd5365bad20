//! SIGINT (Ctrl-C) and SIGTERM (what `timeout`, job schedulers and `docker
//! stop` send) handling: the first signal asks the run to stop ([`Cancel`]),
//! so that partial files are removed and the user is told; a second one ends
//! the process at once. The report looks at the token before every run of
//! games it replays and while it waits for input, so the first signal takes
//! effect within milliseconds, not at the end of a batch. The exit code is
//! the shell's for the signal: 130 after SIGINT, 143 after SIGTERM.

use pgnmill::pipeline::Cancel;
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

static CANCEL: OnceLock<Cancel> = OnceLock::new();

/// Set by SIGTERM (and only by it), to tell the exit code.
static TERMINATED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The token the signal handlers set; installs them on first use.
/// Installing may fail (the default behaviour, dying on the signal, then
/// applies).
pub fn cancel_token() -> Cancel {
    CANCEL
        .get_or_init(|| {
            let cancel = Cancel::new();
            let flag = cancel.flag();
            let terminated = Arc::clone(TERMINATED.get_or_init(Arc::default));
            for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
                // Registered first, so that it sees the flag as the
                // previous signal left it: a second signal exits at once.
                let _ = signal_hook::flag::register_conditional_shutdown(
                    signal,
                    code,
                    Arc::clone(&flag),
                );
                let _ = signal_hook::flag::register(signal, Arc::clone(&flag));
            }
            let _ = signal_hook::flag::register(SIGTERM, terminated);
            cancel
        })
        .clone()
}

/// The exit code of a run that stopped because it was asked to.
pub fn exit_code() -> i32 {
    match TERMINATED.get() {
        Some(t) if t.load(Ordering::Relaxed) => 143,
        _ => 130,
    }
}
