//! SIGBUS: a plain input file is memory-mapped, and a file that shrinks
//! while it is read (rewritten by a download, rsync or log rotation)
//! makes reading its lost pages a bus error, which by default kills the
//! process without a word (exit 135). ripgrep and other readers that map
//! their files have the same limit; pgnmill says what happened instead.
//!
//! The handler cannot go on with the run: returning would read the same
//! page again. It writes one line on stderr and exits with 1, the code of
//! a run that could not complete. The files being written stay under their
//! temporary names (`.NAME.partial`), never renamed into place; the next
//! report into the same folder removes them.

use signal_hook::consts::SIGBUS;

/// What the handler writes, whole: a signal handler cannot format.
const MESSAGE: &[u8] = b"pgnmill: an input file changed while it was read (a bus error on its memory map: a file cut short or rewritten during the run); the run stopped, and nothing was put in place\n";

/// Installs the handler; when it cannot be, the default action applies.
pub fn catch_bus_errors() {
    // SAFETY: the handler calls only `write` and `_exit`, both
    // async-signal-safe, and never returns to the faulting read.
    let _ = unsafe {
        signal_hook::low_level::register(SIGBUS, || {
            let _ = libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(1);
        })
    };
}
