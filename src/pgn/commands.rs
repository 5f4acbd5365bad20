//! The commands lichess, chess.com and other programs embed in a move's
//! comments: `[%clk 0:04:58]` (the mover's clock after the move),
//! `[%emt 0:00:21]` (the time the move took) and `[%eval 0.17]`,
//! `[%eval #-3]`, `[%eval 0.17,20]` (an engine's evaluation, from White's
//! point of view, with the search depth after the comma).
//!
//! They are read exactly as python-chess 1.11.2 reads them (`GameNode.clock()`,
//! `emt()`, `eval()`, `eval_depth()`): by its regular expressions, on the
//! move's comments joined by single spaces, the first match of each kind
//! counting. So `[%clk 0:04:58]`, `[%clk 10:00:00]` and chess.com's tenths
//! `[%clk 0:14:39.1]` are clocks, while `[%clk 0:05]` (no seconds),
//! `[%clk  0:05:00]` (two spaces) and `[%clk 0:05:00 ]` match nothing, so
//! that a valid clock after them counts. Engine comments in other shapes
//! (`{+0.35/20 5s}`) are no `%eval`. Python's `\d` and `\s` match any
//! Unicode decimal digit and white space ([`super::python_text`]).
//!
//! Values are converted as python-chess converts them (seconds as a
//! floating-point number, an evaluation's pawns times 100 rounded half to
//! even) and kept in the 32-bit integers of the report's columns:
//! milliseconds, centipawns. A value that does not fit (a clock of more than
//! 596 hours, an evaluation beyond ±21,474,836 pawns, a mate or depth over
//! 2^31) is read as absent, and still hides later commands of its kind.

use super::python_text::{digit_run, space};

/// What one move's comments say; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCommands {
    /// `[%clk]`: the mover's remaining time after the move, in milliseconds.
    pub clock_ms: Option<i32>,
    /// `[%emt]`: the time the move took, in milliseconds.
    pub emt_ms: Option<i32>,
    /// `[%eval]`.
    pub eval: Option<Eval>,
}

/// An engine's evaluation, from White's point of view as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    pub score: Score,
    /// The search depth after the comma (`[%eval 0.17,20]`).
    pub depth: Option<i32>,
}

/// An evaluation's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (`[%eval -1.5]` is -150).
    Centipawns(i32),
    /// Mate in so many moves, negative when Black mates (`[%eval #-3]`);
    /// 0 for a position already mate (`#0`).
    Mate(i32),
}

impl Score {
    /// The centipawns, for a score that is not a mate.
    pub fn centipawns(self) -> Option<i32> {
        match self {
            Score::Centipawns(cp) => Some(cp),
            Score::Mate(_) => None,
        }
    }

    /// The moves to mate, for a mate score.
    pub fn mate(self) -> Option<i32> {
        match self {
            Score::Mate(n) => Some(n),
            Score::Centipawns(_) => None,
        }
    }
}

/// A command was found: its value, or `None` when the value does not fit.
type Found<T> = Option<Option<T>>;

impl MoveCommands {
    /// The commands of one comment's text (or of a move's comments joined
    /// by single spaces, as python-chess joins them).
    pub fn read(text: &[u8]) -> MoveCommands {
        let mut clock: Found<i32> = None;
        let mut emt: Found<i32> = None;
        let mut eval: Found<Eval> = None;
        // Commands are short and close together: a plain scan for the next
        // `[` costs less than setting up memchr for it.
        let mut at = 0;
        while let Some(i) = text
            .get(at..)
            .and_then(|rest| rest.iter().position(|&b| b == b'['))
        {
            let bracket = at + i;
            at = bracket + 1;
            if text.get(at) != Some(&b'%') {
                continue;
            }
            let name = bracket + 2;
            let rest = text.get(name..).unwrap_or_default();
            if clock.is_none() && rest.starts_with(b"clk") {
                clock = time(text, name + 3);
            } else if emt.is_none() && rest.starts_with(b"emt") {
                emt = time(text, name + 3);
            } else if eval.is_none() && rest.starts_with(b"eval") {
                eval = evaluation(text, name + 4);
            }
            if clock.is_some() && emt.is_some() && eval.is_some() {
                break;
            }
        }
        MoveCommands {
            clock_ms: clock.flatten(),
            emt_ms: emt.flatten(),
            eval: eval.flatten(),
        }
    }

    /// The commands of a move's comments: python-chess joins them with
    /// single spaces into one text (so a command can even span two of
    /// them) and reads that; one comment, the usual case, is read where it
    /// is. `scratch` holds the joined text.
    pub fn read_comments<'a>(
        mut comments: impl Iterator<Item = &'a [u8]>,
        scratch: &mut Vec<u8>,
    ) -> MoveCommands {
        let Some(first) = comments.next() else {
            return MoveCommands::default();
        };
        let Some(second) = comments.next() else {
            return MoveCommands::read(first);
        };
        scratch.clear();
        scratch.extend_from_slice(first);
        for comment in std::iter::once(second).chain(comments) {
            scratch.push(b' ');
            scratch.extend_from_slice(comment);
        }
        MoveCommands::read(scratch)
    }
}

/// `[%clk` or `[%emt` has been read up to `at`: the rest of
/// `\s(\d+):(\d+):(\d+(?:\.\d*)?)\]`, as milliseconds.
fn time(text: &[u8], at: usize) -> Found<i32> {
    let at = at + space(text, at)?;
    let mut hours: u64 = 0;
    let (at, n) = digit_run(text, at, usize::MAX, |d| hours = push_digit(hours, d));
    let at = expect(text, at, n, b':')?;
    let mut minutes: u64 = 0;
    let (at, n) = digit_run(text, at, usize::MAX, |d| minutes = push_digit(minutes, d));
    let at = expect(text, at, n, b':')?;
    let (seconds, at) = seconds(text, at)?;
    (text.get(at) == Some(&b']')).then_some(())?;
    // int(hours) * 3600 + int(minutes) * 60 + float(seconds): the
    // integers' sum is converted to a float, then added.
    let whole = hours
        .checked_mul(3600)
        .and_then(|h| minutes.checked_mul(60).and_then(|m| h.checked_add(m)));
    Some(whole.and_then(|whole| fits((whole as f64 + seconds) * 1000.0)))
}

/// After a run of `n` digits ending at `at`: the index after `byte`, when
/// the run is not empty and `byte` follows it.
fn expect(text: &[u8], at: usize, n: usize, byte: u8) -> Option<usize> {
    (n > 0 && text.get(at) == Some(&byte)).then_some(at + 1)
}

/// `\d+(?:\.\d*)?` at `at`, as Python's `float()` reads it, and the index
/// after it.
fn seconds(text: &[u8], at: usize) -> Option<(f64, usize)> {
    let mut mantissa: u64 = 0;
    let (end, whole) = digit_run(text, at, usize::MAX, |d| mantissa = push_digit(mantissa, d));
    if whole == 0 {
        return None;
    }
    let (end, fraction) = if text.get(end) == Some(&b'.') {
        digit_run(text, end + 1, usize::MAX, |d| {
            mantissa = push_digit(mantissa, d)
        })
    } else {
        (end, 0)
    };
    Some((
        decimal(text, at, end, mantissa, whole + fraction, fraction),
        end,
    ))
}

/// The number written in `text[from..to]` (digits and at most one `.`),
/// whose digits make `mantissa` (`digits` of them, `fraction` after the
/// dot), correctly rounded as Python's `float()` rounds it. Up to 15
/// digits the mantissa and the power of ten are exact doubles and one
/// division rounds correctly; longer numbers, which no program writes, are
/// spelt out in ASCII and parsed.
fn decimal(
    text: &[u8],
    from: usize,
    to: usize,
    mantissa: u64,
    digits: usize,
    fraction: usize,
) -> f64 {
    if digits <= 15 {
        return mantissa as f64 / POW10[fraction.min(15)];
    }
    let mut ascii = String::with_capacity(digits + 1);
    let mut i = from;
    while i < to {
        if text.get(i) == Some(&b'.') {
            ascii.push('.');
            i += 1;
            continue;
        }
        let (next, _) = digit_run(text, i, 1, |d| ascii.push(char::from(b'0' + d)));
        if next == i {
            break;
        }
        i = next;
    }
    ascii.parse().unwrap_or(f64::INFINITY)
}

/// The exact doubles 10^0 to 10^15.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `value * 10 + digit`, saturating (a saturated number is out of range
/// for every column).
fn push_digit(value: u64, digit: u8) -> u64 {
    value.saturating_mul(10).saturating_add(u64::from(digit))
}

/// A float rounded half to even (Python's `round()`), if the result fits
/// an `i32`.
fn fits(value: f64) -> Option<i32> {
    let rounded = value.round_ties_even();
    (rounded.is_finite() && rounded.abs() <= f64::from(i32::MAX)).then_some(rounded as i32)
}

/// An integer that fits an `i32`, with its sign.
fn int(negative: bool, value: u64) -> Option<i32> {
    let value = i32::try_from(value).ok()?;
    Some(if negative { -value } else { value })
}

/// `[%eval` has been read up to `at`: the rest of
/// `\s(?:\#([+-]?\d+)|([+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))(?:,(\d+))?\]`.
fn evaluation(text: &[u8], at: usize) -> Found<Eval> {
    let at = at + space(text, at)?;
    let sign = |at: usize| match text.get(at) {
        Some(b'-') => (true, at + 1),
        Some(b'+') => (false, at + 1),
        _ => (false, at),
    };
    if text.get(at) == Some(&b'#') {
        let (negative, at) = sign(at + 1);
        let mut mate: u64 = 0;
        let (end, n) = digit_run(text, at, usize::MAX, |d| mate = push_digit(mate, d));
        if n == 0 {
            return None;
        }
        let depth = depth_and_close(text, end)?;
        return Some(int(negative, mate).map(|m| Eval {
            score: Score::Mate(m),
            depth,
        }));
    }
    let (negative, start) = sign(at);
    let mut mantissa: u64 = 0;
    // `\d{0,10}\.\d{1,2}` or `\d{1,10}\.?`, then `,` or `]`: digit runs
    // are read one digit past their limit, and a run that long cannot be
    // followed by what the pattern needs next.
    let (end, whole) = digit_run(text, start, 11, |d| mantissa = push_digit(mantissa, d));
    if whole > 10 {
        return None;
    }
    let (end, fraction) = if text.get(end) == Some(&b'.') {
        let (after, fraction) = digit_run(text, end + 1, 3, |d| mantissa = push_digit(mantissa, d));
        match fraction {
            1 | 2 => (after, fraction),
            0 if whole > 0 => (after, 0),
            _ => return None,
        }
    } else if whole > 0 {
        (end, 0)
    } else {
        return None;
    };
    let depth = depth_and_close(text, end)?;
    let pawns = decimal(text, start, end, mantissa, whole + fraction, fraction);
    let pawns = if negative { -pawns } else { pawns };
    Some(fits(pawns * 100.0).map(|cp| Eval {
        score: Score::Centipawns(cp),
        depth,
    }))
}

/// `(?:,(\d+))?\]` at `at`: the depth, `Some(None)` without one or with one
/// too large, `None` when the text does not match.
fn depth_and_close(text: &[u8], at: usize) -> Option<Option<i32>> {
    match text.get(at) {
        Some(b']') => Some(None),
        Some(b',') => {
            let mut depth: u64 = 0;
            let (end, n) = digit_run(text, at + 1, usize::MAX, |d| depth = push_digit(depth, d));
            (n > 0 && text.get(end) == Some(&b']')).then_some(int(false, depth))
        }
        _ => None,
    }
}
