//! SIGINT (Ctrl-C) handling: the first interrupt asks the run to stop, so
//! that partial files are removed and the user is told; a second one ends
//! the process at once. `report` looks at the flag before every run of 64
//! games and while it waits for input, so the first one takes effect within
//! milliseconds, not at the end of a batch.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler; harmless if called twice or if installing fails
/// (the default behaviour, dying on SIGINT, then applies).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// True once the user asked the run to stop.
pub fn requested() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
