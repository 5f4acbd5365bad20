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
//!
//! Several threads read the map (the splitter ahead, the replay threads
//! behind it), so several may fault at once: the first to come says it
//! and ends the process, and the others wait for that end. On Linux the
//! handler is installed with `sigaction` itself, in place of the standard
//! library's: that one, which looks for stack overflows (on Linux they
//! are SIGSEGV, never SIGBUS), resets SIGBUS to its default action when a
//! fault is not one, and chained before ours (as `signal-hook` chains
//! it), it let a second thread's fault kill the process silently while
//! the first was writing the line (3 runs in 30 of a test that cuts the
//! input while a report reads it).

use std::sync::atomic::{AtomicBool, Ordering};

/// What the handler writes around the names of the files mapped when the
/// fault came (`pgnmill::source::mapped_names`): one line, put together
/// from pieces, since a signal handler cannot format.
const BEFORE: &[u8] = b"pgnmill: ";
const AFTER: &[u8] = b": an input file was cut short or rewritten while it was read (its memory map lost the pages read next); the run stopped, nothing was put in place, and the temporary files it leaves are removed by the next report into the folder\n";
const UNNAMED: &[u8] = b"a mapped input";

/// Installs the handler; when it cannot be, the default action applies.
#[cfg(target_os = "linux")]
pub fn catch_bus_errors() {
    // SAFETY: a zeroed `sigaction` is a valid one (no flags, an empty
    // mask once `sigemptyset` has run), and the handler it installs is
    // async-signal-safe ([`say_and_exit`]).
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

#[cfg(target_os = "linux")]
extern "C" fn on_bus_error(_signal: libc::c_int) {
    say_and_exit();
}

/// Installs the handler; when it cannot be, the default action applies.
/// (Elsewhere a stack overflow may be a SIGBUS: the standard library's
/// handler is kept, chained before ours.)
#[cfg(not(target_os = "linux"))]
pub fn catch_bus_errors() {
    // SAFETY: the action is async-signal-safe ([`say_and_exit`]).
    let _ = unsafe { signal_hook::low_level::register(signal_hook::consts::SIGBUS, say_and_exit) };
}

/// Says which input was cut short, once, and ends the process with exit
/// code 1; a thread that faults while another says it waits for the end.
/// Async-signal-safe: it only swaps and loads atomics (`mapped_names`),
/// copies bytes on its stack and calls `write`, `pause` and `_exit`, and
/// never returns to the faulting read.
fn say_and_exit() {
    static SAYING: AtomicBool = AtomicBool::new(false);
    if SAYING.swap(true, Ordering::SeqCst) {
        loop {
            // SAFETY: `pause` only waits for a signal.
            unsafe { libc::pause() };
        }
    }
    let write = |bytes: &[u8]| {
        // SAFETY: writes `bytes`, which live through the call, to stderr.
        let _ = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
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
    // SAFETY: ends the process at once, running nothing of Rust's.
    unsafe { libc::_exit(1) };
}
