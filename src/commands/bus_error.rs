//! SIGBUS: a plain input file is memory-mapped, and a file that shrinks
//! while it is read (rewritten by a download, rsync or log rotation)
//! makes reading its lost pages a bus error, which by default kills the
//! process without a word (exit 135). ripgrep and other readers that map
//! their files have the same limit; pgnmill says what happened instead.
//!
//! The handler cannot go on with the run: returning would read the same
//! page again. It writes one line on stderr, naming the files mapped at
//! that moment (one, nearly always: the one read), and exits with 1, the
//! code of a run that could not complete. The files being written stay
//! under their temporary names (`.NAME.partial`), never renamed into
//! place; the next report into the same folder removes them.

use signal_hook::consts::SIGBUS;

/// What the handler writes around the names of the files mapped when the
/// fault came (`pgnmill::source::mapped_names`): one line, put together
/// from pieces, since a signal handler cannot format.
const BEFORE: &[u8] = b"pgnmill: ";
const AFTER: &[u8] = b": an input file was cut short or rewritten while it was read (its memory map lost the pages read next); the run stopped, nothing was put in place, and the temporary files it leaves are removed by the next report into the folder\n";
const UNNAMED: &[u8] = b"a mapped input";

/// Installs the handler; when it cannot be, the default action applies.
pub fn catch_bus_errors() {
    // SAFETY: the handler only loads atomics (`mapped_names`), copies
    // bytes on its stack and calls `write` and `_exit`, which are
    // async-signal-safe, and never returns to the faulting read.
    let _ = unsafe {
        signal_hook::low_level::register(SIGBUS, || {
            let write = |bytes: &[u8]| {
                let _ = libc::write(2, bytes.as_ptr().cast(), bytes.len());
            };
            write(BEFORE);
            let mut named = 0;
            pgnmill::source::mapped_names(|name| {
                if named > 0 {
                    write(b" or ");
                }
                write(name);
                named += 1;
            });
            if named == 0 {
                write(UNNAMED);
            }
            write(AFTER);
            libc::_exit(1);
        })
    };
}
