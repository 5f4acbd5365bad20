//! SIGINT (Ctrl-C) handling: the first interrupt asks the run to stop
//! ([`Cancel`]), so that partial files are removed and the user is told; a
//! second one ends the process at once. The report looks at the token before
//! every run of games it replays and while it waits for input, so the first
//! one takes effect within milliseconds, not at the end of a batch.

use pgnmill::pipeline::Cancel;
use std::sync::OnceLock;

static CANCEL: OnceLock<Cancel> = OnceLock::new();

/// The token the signal handler sets; installs the handler on first use.
/// Installing may fail (the default behaviour, dying on SIGINT, then
/// applies).
pub fn cancel_token() -> Cancel {
    CANCEL
        .get_or_init(|| {
            let cancel = Cancel::new();
            let handler = cancel.clone();
            let _ = ctrlc::set_handler(move || {
                if handler.request() {
                    std::process::exit(130);
                }
            });
            cancel
        })
        .clone()
}
