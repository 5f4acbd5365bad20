//! Splitting one window into games on several threads at once, with the
//! same result as [`split_window`] on one.
//!
//! The splitter is the one stage of a report that runs on a single thread
//! (about 1 GB of PGN per CPU-second); at 16 cores replay eats text faster
//! than that. So a window is cut into parts, each at a likely game start (a
//! line that starts with `[` after a blank line), and every part is split
//! at once by a fresh splitter as if a game started there. That guess is
//! then checked in order, part by part: the true splitter state at a cut is
//! known from the part before it (its resume position is exact), and
//! re-splitting the text from there to the end of the cut's first line
//! says whether the true split starts a game (or stands between games)
//! exactly at the cut. If so, the state there is the fresh one, the part's
//! games are the true ones, with line numbers shifted by the cut's true
//! line; if not (the cut fell inside a comment, a variation, a tag section
//! with blank lines), the rest of the window is split on one thread from
//! the last exact position. Either way the spans and the returned position
//! are those of [`split_window`]; `tests/pgn/split_parallel.rs` checks this on
//! every file of `testdata/` at random cuts.

use super::split::{GameSpan, Position, split_window};
use crate::cpu_time::thread_cpu_ns;

/// Splits `buf` like [`split_window`] (same arguments, same spans appended
/// to `out`, same position returned), using up to `parts` threads: one cut
/// per `buf.len() / parts` bytes, each moved forward to the next likely
/// game start. Also returns the CPU nanoseconds of the threads it started
/// (not the calling thread's), for the stage times of a report.
pub fn split_window_parallel(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    out: &mut Vec<GameSpan>,
    parts: usize,
) -> (Position, u64) {
    let parts = parts.max(1);
    let mut cuts = Vec::with_capacity(parts);
    for k in 1..parts {
        if let Some(c) = game_start_after(buf, buf.len() / parts * k) {
            cuts.push(c);
        }
    }
    split_window_at(buf, start, is_final, dbcs, out, &cuts)
}

/// Splits `buf` like [`split_window_parallel`], guessing that games start
/// at `cuts` (indices into `buf`; any values: each is moved forward to the
/// next line start, and out-of-range or repeated ones are dropped). Public
/// so that tests can cut anywhere, not only where a game is likely.
pub fn split_window_at(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    out: &mut Vec<GameSpan>,
    cuts: &[usize],
) -> (Position, u64) {
    let mut bounds: Vec<usize> = cuts
        .iter()
        .filter_map(|&c| line_start_at_or_after(buf, c))
        .filter(|&c| c > 0 && c < buf.len())
        .collect();
    bounds.sort_unstable();
    bounds.dedup();
    if bounds.is_empty() {
        return (split_window(buf, start, is_final, dbcs, out), 0);
    }
    let first_end = bounds.first().copied().unwrap_or(buf.len());
    bounds.insert(0, 0);
    bounds.push(buf.len());
    // Every part at once; part 0 from the true start, the others from a
    // fresh state at line 1 (shifted once their true line is known).
    let results: Vec<(Part, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .skip(1)
            .filter_map(|w| match *w {
                [a, b] => Some((a, b)),
                _ => None,
            })
            .map(|(a, b)| {
                // A thread the system refuses makes the whole window fall
                // back to one thread, below.
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        let cpu = thread_cpu_ns();
                        let fresh = Position {
                            offset: start.offset + a as u64,
                            line: 1,
                        };
                        let last = is_final && b == buf.len();
                        let part = split_part(buf, a, b, fresh, last, dbcs);
                        (part, thread_cpu_ns().saturating_sub(cpu))
                    })
                    .ok()
            })
            .collect();
        let first = split_part(buf, 0, first_end, start, false, dbcs);
        std::iter::once(Some((first, 0)))
            .chain(handles.into_iter().map(|h| h.and_then(|h| h.join().ok())))
            .collect::<Option<Vec<(Part, u64)>>>()
            .unwrap_or_default()
    });
    let helpers_ns = results.iter().map(|(_, ns)| ns).sum();
    let mut results = results.into_iter().map(|(part, _)| part);
    let Some(first) = results.next() else {
        // A thread could not be started or failed: the one-thread split
        // gives the answer.
        return (split_window(buf, start, is_final, dbcs, out), helpers_ns);
    };
    out.extend_from_slice(&first.games);
    let mut pos = first.resume;
    for (cut, part) in bounds.iter().skip(1).zip(results) {
        // The true state at `cut`, from the exact position `pos` before it.
        let from = index_of(pos, start);
        let to = line_end_after(buf, *cut);
        let check = split_part(buf, from, to, pos, false, dbcs);
        let at = check.resume;
        if at.offset != start.offset + *cut as u64 {
            // Not a game start: the rest on this thread, from `pos`.
            let rest = buf.get(from..).unwrap_or_default();
            return (split_window(rest, pos, is_final, dbcs, out), helpers_ns);
        }
        out.extend_from_slice(&check.games);
        let shift = at.line - 1;
        out.extend(part.games.iter().map(|g| GameSpan {
            line: g.line + shift,
            ..*g
        }));
        pos = Position {
            offset: part.resume.offset,
            line: part.resume.line + shift,
        };
    }
    (pos, helpers_ns)
}

/// The games a part found and where it would resume.
struct Part {
    games: Vec<GameSpan>,
    resume: Position,
}

fn split_part(buf: &[u8], a: usize, b: usize, from: Position, is_final: bool, dbcs: bool) -> Part {
    let mut games = Vec::new();
    let resume = split_window(
        buf.get(a..b).unwrap_or_default(),
        from,
        is_final,
        dbcs,
        &mut games,
    );
    Part { games, resume }
}

/// Index in the window of a source position inside it.
fn index_of(pos: Position, start: Position) -> usize {
    usize::try_from(pos.offset.saturating_sub(start.offset)).unwrap_or(usize::MAX)
}

/// The first line start at or after `i` (a line start is index 0 or the
/// byte after a `\n`), if any before the end of `buf`.
fn line_start_at_or_after(buf: &[u8], i: usize) -> Option<usize> {
    if i == 0 {
        return Some(0);
    }
    let rest = buf.get(i - 1..)?;
    memchr::memchr(b'\n', rest).map(|k| i + k)
}

/// The index just past the `\n` that ends the line starting at `i` (the
/// end of `buf` if there is none).
fn line_end_after(buf: &[u8], i: usize) -> usize {
    buf.get(i..)
        .and_then(|rest| memchr::memchr(b'\n', rest))
        .map_or(buf.len(), |k| i + k + 1)
}

/// The first line at or after `from` that starts with `[` and follows a
/// blank line (`\n\n[` or `\n\r\n[`): where a game's tags most likely
/// begin.
fn game_start_after(buf: &[u8], from: usize) -> Option<usize> {
    let finder = memchr::memmem::Finder::new(b"\n[");
    let mut i = from;
    while let Some(k) = buf.get(i..).and_then(|rest| finder.find(rest)) {
        let at = i + k + 1;
        let before = buf.get(..i + k).unwrap_or_default();
        if before.ends_with(b"\n") || before.ends_with(b"\n\r") {
            return Some(at);
        }
        i = at;
    }
    None
}
