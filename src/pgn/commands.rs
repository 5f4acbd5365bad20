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
//! Unicode decimal digit and white space (`pgn::python_text`).
//!
//! Values are converted as python-chess converts them (seconds as a
//! floating-point number, an evaluation's pawns times 100 rounded half to
//! even) and kept in the 32-bit integers of the report's columns:
//! milliseconds, centipawns. A value that does not fit (a clock of more than
//! 596 hours, an evaluation beyond ±21,474,836 pawns, a mate or depth over
//! 2^31) is read as absent, and still hides later commands of its kind.

use super::comments::stops_the_walk;
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

/// A command was found: its value (`None` when it does not fit) and the
/// index after its `]`.
type Found<T> = Option<(Option<T>, usize)>;

impl MoveCommands {
    /// The commands of one comment's text (or of a move's comments joined
    /// by single spaces, as python-chess joins them).
    pub fn read(text: &[u8]) -> MoveCommands {
        let mut clock: Option<Option<i32>> = None;
        let mut emt: Option<Option<i32>> = None;
        let mut eval: Option<Option<Eval>> = None;
        // Commands are short and close together: a plain scan for the next
        // `[` costs less than setting up memchr for it. A command read is
        // passed over whole (it holds no `[`).
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
            let end = if clock.is_none() && rest.starts_with(b"clk") {
                time(text, name + 3).map(|(v, end)| {
                    clock = Some(v);
                    end
                })
            } else if emt.is_none() && rest.starts_with(b"emt") {
                time(text, name + 3).map(|(v, end)| {
                    emt = Some(v);
                    end
                })
            } else if eval.is_none() && rest.starts_with(b"eval") {
                evaluation(text, name + 4).map(|(v, end)| {
                    eval = Some(v);
                    end
                })
            } else {
                None
            };
            if clock.is_some() && emt.is_some() && eval.is_some() {
                break;
            }
            at = end.unwrap_or(at);
        }
        MoveCommands {
            clock_ms: clock.flatten(),
            emt_ms: emt.flatten(),
            eval: eval.flatten(),
        }
    }

    /// The commands of a move whose gap (the bytes from its token to the
    /// next main-line token, [`super::comments::move_comments`]) is one of
    /// the two lichess and chess.com write after nearly every move:
    /// ` { [%clk 0:04:58] } 2. ` (chess.com: `0:14:39.1`), or lichess's
    /// ` { [%eval 0.17] [%clk 0:04:58] } ` on an analysed game: one comment
    /// that holds just these, then nothing the comment walk stops at. Read
    /// in one pass over fixed-shape pieces, with what [`Self::read`] would
    /// give (the first `[%eval` is read where it stands by the general
    /// reader, as `read` reads it); `None` for any other gap.
    #[inline]
    pub fn of_usual_gap(gap: &[u8]) -> Option<MoveCommands> {
        // Eight bytes compared as one integer rather than by memcmp.
        let (head, rest) = gap.split_first_chunk::<8>()?;
        let head = u64::from_le_bytes(*head);
        let (eval, rest) = if head == CLOCK_HEAD {
            (None, rest)
        } else if head == EVAL_HEAD && rest.first() == Some(&b'l') {
            // `[%eval` ends at 9: `evaluation` reads from its space on.
            let (eval, end) = evaluation(gap, 9)?;
            let (after, rest) = gap.get(end..)?.split_first_chunk::<6>()?;
            if after != b" [%clk" {
                return None;
            }
            (eval, rest)
        } else {
            return None;
        };
        let (&space, rest) = rest.split_first()?;
        let (clock_ms, len) = usual_clock(rest)?;
        let (close, rest) = rest.get(len..)?.split_first_chunk::<3>()?;
        if space != b' ' || close != b"] }" || any_stop(gap, rest) {
            return None;
        }
        Some(MoveCommands {
            clock_ms: Some(clock_ms),
            emt_ms: None,
            eval,
        })
    }

    /// [`Self::of_usual_gap`] for its most common shape alone, lichess's
    /// ` { [%clk 0:04:58] } 2. `: the clock, in milliseconds, when the gap
    /// starts with exactly that (a one-digit hour, no tenths) and holds
    /// nothing the comment walk stops at after it; `None` otherwise,
    /// which says nothing (the gap is then read as any other). Small
    /// enough to run in the replay loop: a fixed-size head read as three
    /// integers, no branch a byte.
    #[inline(always)]
    pub fn usual_clock_of_gap(gap: &[u8]) -> Option<i32> {
        let (head, rest) = gap.split_first_chunk::<19>()?;
        let (open, clock_and_close) = head.split_first_chunk::<8>()?;
        let (clock, close) = clock_and_close.split_first_chunk::<8>()?;
        // The clock word is ` H:MM:SS`: its space shifted out, the lanes
        // [`clock_lanes`] reads.
        let clock = u64::from_le_bytes(*clock);
        if u64::from_le_bytes(*open) != CLOCK_HEAD || clock & 0xFF != u64::from(b' ') {
            return None;
        }
        let ms = clock_lanes(clock >> 8)?;
        (close == b"] }" && !any_stop(gap, rest)).then_some(ms)
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
#[inline]
fn time(text: &[u8], at: usize) -> Found<i32> {
    let usual = text.get(at) == Some(&b' ');
    if usual
        && let Some((ms, len)) = text.get(at + 1..).and_then(usual_clock)
        && text.get(at + 1 + len) == Some(&b']')
    {
        return Some((Some(ms), at + len + 2));
    }
    plain_time(text, at).or_else(|| any_time(text, at))
}

/// [`time`] in the spelling programs write, `[%clk 0:04:58]` or
/// chess.com's `[%clk 0:14:39.1]`: one space, ASCII digits (at most six a
/// number), at most three decimals. Read with integers: the milliseconds
/// are then a whole number, which python-chess's floating-point sum, exact
/// to far less than half a millisecond at these sizes, rounds to. `None`
/// for any other spelling, which [`any_time`] reads.
#[inline]
fn plain_time(text: &[u8], at: usize) -> Found<i32> {
    if text.get(at) != Some(&b' ') {
        return None;
    }
    let (hours, at) = ascii_number(text, at + 1)?;
    let (minutes, at) = ascii_number(text, expect_byte(text, at, b':')?)?;
    let (seconds, mut at) = ascii_number(text, expect_byte(text, at, b':')?)?;
    let mut ms = ((hours * 60 + minutes) * 60 + seconds) * 1000;
    if text.get(at) == Some(&b'.') {
        at += 1;
        for scale in [100, 10, 1] {
            match text.get(at) {
                Some(d @ b'0'..=b'9') => ms += u64::from(d - b'0') * scale,
                _ => break,
            }
            at += 1;
        }
    }
    let at = expect_byte(text, at, b']')?;
    Some((i32::try_from(ms).ok(), at))
}

/// `H:MM:SS` or `H:MM:SS.t` (tenths) in ASCII digits at the start of
/// `text` (a `.` after the seconds must have a digit after it), as
/// milliseconds, and its length; `None` for any other shape (and for a
/// text shorter than eight bytes, which cannot hold a clock and its `]`).
/// The first eight bytes are tested as one integer ([`clock_lanes`]).
#[inline(always)]
fn usual_clock(text: &[u8]) -> Option<(i32, usize)> {
    let (bytes, tail) = text.split_first_chunk::<8>()?;
    let ms = clock_lanes(u64::from_le_bytes(*bytes))?;
    let [.., after] = *bytes;
    match (after, tail.first()) {
        (b'.', Some(t)) if t.is_ascii_digit() => Some((ms + i32::from(t - b'0') * 100, 9)),
        (b'.', _) => None,
        _ => Some((ms, 7)),
    }
}

/// `H:MM:SS` in the low seven lanes (bytes, little-endian) of `v`, as
/// milliseconds; `None` unless the lanes hold ASCII digits and colons in
/// that shape (lane 7 is not looked at).
#[inline(always)]
fn clock_lanes(v: u64) -> Option<i32> {
    // Lanes 0, 2, 3, 5, 6 (`H`, `MM`, `SS`) digits, 1 and 4 colons.
    const DIGITS: u64 = 0x00FF_FF00_FFFF_00FF;
    const COLONS: u64 = 0x0000_00FF_0000_FF00;
    const ZEROS: u64 = 0x0030_3000_3030_0030;
    const SIXES: u64 = 0x0006_0600_0606_0006;
    const HIGH: u64 = 0x00F0_F000_F0F0_00F0;
    // A digit lane less `0` is 0 to 9: no high nibble, and none after 6 is
    // added (10 to 15 would carry into it). A lane that is no digit fails
    // the first test or the second; a lane is at most 15 in the second,
    // so no lane carries into the next.
    let d = (v & DIGITS) ^ ZEROS;
    if v & COLONS != 0x0000_003A_0000_3A00 || d & HIGH != 0 || (d + SIXES) & HIGH != 0 {
        return None;
    }
    // Each lane times ten plus the next: lane 2 the minutes, lane 5 the
    // seconds (at most 99, so no lane carries).
    let pairs = d * 10 + (d >> 8);
    let lane = |x: u64, i: u32| ((x >> (8 * i)) & 0xFF) as i32;
    Some(lane(d, 0) * 3_600_000 + lane(pairs, 2) * 60_000 + lane(pairs, 5) * 1000)
}

/// Whether `rest`, the end of `gap`, holds a byte the comment walk stops
/// at ([`stops_the_walk`]). The usual rest (` 2. `, ` 1... `) is short: the
/// last sixteen bytes of the gap are compared with the four bytes at once
/// (SSE2), and only the lanes that are the rest's counted.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn any_stop(gap: &[u8], rest: &[u8]) -> bool {
    use crate::simd::bytes16::Bytes16;
    let Some((_, last)) = gap.split_last_chunk::<16>().filter(|_| rest.len() <= 16) else {
        return rest.iter().any(|&b| stops_the_walk(b));
    };
    let v = Bytes16::load(last);
    let stops = (v.eq(b'{') | v.eq(b'(') | v.eq(b';') | v.eq(b'%')).bits();
    // Lane i is bit i; the rest is the last `rest.len()` lanes.
    stops >> (16 - rest.len()) != 0
}

/// [`any_stop`] byte by byte, where there is no SSE2.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn any_stop(_gap: &[u8], rest: &[u8]) -> bool {
    rest.iter().any(|&b| stops_the_walk(b))
}

/// ` { [%clk` and ` { [%eva` as [`MoveCommands::of_usual_gap`] compares
/// them: eight bytes read as a little-endian integer.
const CLOCK_HEAD: u64 = u64::from_le_bytes(*b" { [%clk");
const EVAL_HEAD: u64 = u64::from_le_bytes(*b" { [%eva");

/// One to six ASCII digits at `at` and the index after them; `None` for
/// none or more.
#[inline]
fn ascii_number(text: &[u8], at: usize) -> Option<(u64, usize)> {
    let mut value = 0;
    let mut i = at;
    while let Some(d @ b'0'..=b'9') = text.get(i) {
        value = value * 10 + u64::from(d - b'0');
        i += 1;
        if i - at > 6 {
            return None;
        }
    }
    (i > at).then_some((value, i))
}

/// The index after `byte` at `at`, if it is there.
#[inline]
fn expect_byte(text: &[u8], at: usize, byte: u8) -> Option<usize> {
    (text.get(at) == Some(&byte)).then_some(at + 1)
}

/// [`time`] in any spelling python-chess's pattern matches.
fn any_time(text: &[u8], at: usize) -> Found<i32> {
    let at = at + space(text, at)?;
    let mut hours: u64 = 0;
    let (at, n) = digit_run(text, at, usize::MAX, |d| hours = push_digit(hours, d));
    let at = expect(text, at, n, b':')?;
    let mut minutes: u64 = 0;
    let (at, n) = digit_run(text, at, usize::MAX, |d| minutes = push_digit(minutes, d));
    let at = expect(text, at, n, b':')?;
    let (seconds, at) = seconds(text, at)?;
    let end = expect_byte(text, at, b']')?;
    // int(hours) * 3600 + int(minutes) * 60 + float(seconds): the
    // integers' sum is converted to a float, then added.
    let whole = hours
        .checked_mul(3600)
        .and_then(|h| minutes.checked_mul(60).and_then(|m| h.checked_add(m)));
    Some((
        whole.and_then(|whole| fits((whole as f64 + seconds) * 1000.0)),
        end,
    ))
}

/// After a run of `n` digits ending at `at`: the index after `byte`, when
/// the run is not empty and `byte` follows it.
fn expect(text: &[u8], at: usize, n: usize, byte: u8) -> Option<usize> {
    if n == 0 {
        return None;
    }
    expect_byte(text, at, byte)
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
#[inline]
fn evaluation(text: &[u8], at: usize) -> Found<Eval> {
    plain_evaluation(text, at).or_else(|| any_evaluation(text, at))
}

/// [`evaluation`] in the spelling programs write, `[%eval 0.17]`,
/// `[%eval -1.5,20]`: one space, an optional sign, one to ten ASCII
/// digits, a dot and one or two decimals, an optional depth. Read with
/// integers: the centipawns are then a whole number, which python-chess's
/// `float() * 100`, exact to far less than half a centipawn at these
/// sizes, rounds to. `None` for any other spelling (mates included), which
/// [`any_evaluation`] reads.
#[inline]
fn plain_evaluation(text: &[u8], at: usize) -> Found<Eval> {
    let at = expect_byte(text, at, b' ')?;
    let (negative, at) = match text.get(at) {
        Some(b'-') => (true, at + 1),
        Some(b'+') => (false, at + 1),
        _ => (false, at),
    };
    let (pawns, at) = ascii_number(text, at)?;
    let at = expect_byte(text, at, b'.')?;
    let (hundredths, at) = match (text.get(at), text.get(at + 1)) {
        (Some(d1 @ b'0'..=b'9'), Some(d2 @ b'0'..=b'9')) => {
            (u64::from(d1 - b'0') * 10 + u64::from(d2 - b'0'), at + 2)
        }
        (Some(d1 @ b'0'..=b'9'), _) => (u64::from(d1 - b'0') * 10, at + 1),
        _ => return None,
    };
    if text.get(at).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (depth, end) = depth_and_close(text, at)?;
    let cp = int(negative, pawns * 100 + hundredths);
    let eval = cp.map(|cp| Eval {
        score: Score::Centipawns(cp),
        depth,
    });
    Some((eval, end))
}

/// [`evaluation`] in any spelling python-chess's pattern matches.
fn any_evaluation(text: &[u8], at: usize) -> Found<Eval> {
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
        let (depth, end) = depth_and_close(text, end)?;
        let eval = int(negative, mate).map(|m| Eval {
            score: Score::Mate(m),
            depth,
        });
        return Some((eval, end));
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
    let (depth, close) = depth_and_close(text, end)?;
    let pawns = decimal(text, start, end, mantissa, whole + fraction, fraction);
    let pawns = if negative { -pawns } else { pawns };
    let eval = fits(pawns * 100.0).map(|cp| Eval {
        score: Score::Centipawns(cp),
        depth,
    });
    Some((eval, close))
}

/// `(?:,(\d+))?\]` at `at`: the depth (`None` without one or with one
/// too large) and the index after the `]`; `None` when the text does not
/// match.
#[inline]
fn depth_and_close(text: &[u8], at: usize) -> Found<i32> {
    match text.get(at) {
        Some(b']') => Some((None, at + 1)),
        Some(b',') => {
            let mut depth: u64 = 0;
            let (end, n) = digit_run(text, at + 1, usize::MAX, |d| depth = push_digit(depth, d));
            (n > 0 && text.get(end) == Some(&b']')).then_some((int(false, depth), end + 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The integer reading of the usual spelling gives what the general
    /// reader (python-chess's arithmetic) gives, where it reads at all.
    #[test]
    fn plain_times_read_as_python_reads_them() {
        proptest!(|(h in 0u64..2_000_000, m in 0u64..200, s in 0u64..200,
                    fraction in "(\\.[0-9]{0,4})?", close in "\\]|\\]x| \\]|[0-9]\\]")| {
            let text = format!(" {h}:{m:02}:{s:02}{fraction}{close}");
            let plain = plain_time(text.as_bytes(), 0);
            if let Some(plain) = plain {
                prop_assert_eq!(Some(plain), any_time(text.as_bytes(), 0), "{}", text);
            }
        });
        for (text, ms) in [
            (" 0:04:58]", Some(298_000)),
            (" 0:14:39.1]", Some(879_100)),
            (" 10:00:00]", Some(36_000_000)),
            (" 0:00:00.001]", Some(1)),
            (" 596:31:23.647]", Some(i32::MAX)),
            (" 596:31:23.648]", None),
        ] {
            assert_eq!(
                plain_time(text.as_bytes(), 0),
                Some((ms, text.len())),
                "{text}"
            );
        }
        // Left to the general reader.
        for text in [
            " 0:04:58.0001]",
            "  0:04:58]",
            " 1234567:00:00]",
            " 0:4]",
            " ٠:04:58]",
        ] {
            assert_eq!(plain_time(text.as_bytes(), 0), None, "{text}");
        }
    }

    /// The integer reading of the usual evaluations gives what the general
    /// reader (python-chess's arithmetic) gives, where it reads at all;
    /// and the usual clock shape, read first, gives the general reading.
    #[test]
    fn plain_evaluations_and_clocks_read_as_python_reads_them() {
        proptest!(|(sign in "[-+]?", whole in "[0-9]{0,8}", fraction in "(\\.[0-9]{0,3})?",
                    depth in "(,[0-9]{0,3})?", close in "\\]|x|\\] ")| {
            let text = format!(" {sign}{whole}{fraction}{depth}{close}");
            if let Some(plain) = plain_evaluation(text.as_bytes(), 0) {
                prop_assert_eq!(Some(plain), any_evaluation(text.as_bytes(), 0), "{}", text);
            }
        });
        proptest!(|(clock in "[0-9]:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,3})?", close in "\\]|x")| {
            let text = format!(" {clock}{close}");
            let general = plain_time(text.as_bytes(), 0).or_else(|| any_time(text.as_bytes(), 0));
            prop_assert_eq!(time(text.as_bytes(), 0), general, "{}", text);
        });
        assert_eq!(
            plain_evaluation(b" -1.5,20]", 0),
            Some((
                Some(Eval {
                    score: Score::Centipawns(-150),
                    depth: Some(20)
                }),
                9
            ))
        );
    }

    /// The usual gap read at once gives what the comment walk and the
    /// general reader give, and any other gap is left to them.
    #[test]
    fn usual_gaps_read_as_the_walk_reads_them() {
        use crate::pgn::comments::move_comments;
        let pieces = prop::sample::select(vec![
            " ",
            "{",
            " }",
            "}",
            "(",
            ";",
            "%",
            "\n",
            " 1...",
            " 2.",
            "[%clk ",
            "[%eval 0.1]",
            "0:04:58",
            "12:00:00",
            "0:14:39.1",
            "0:14:39.12",
            "0:4:58",
            "]",
            "] ",
            "x",
        ]);
        // The usual shapes, and near misses of them.
        let evals = prop::sample::select(vec![
            "",
            "[%eval 0.17] ",
            "[%eval -1.5] ",
            "[%eval +0.05] ",
            "[%eval #-3] ",
            "[%eval #4,30] ",
            "[%eval 12.34,20] ",
            "[%eval 1.] ",
            "[%eval .5] ",
            "[%eval  0.1] ",
            "[%eval 0.123] ",
            "[%eval 99999999.99] ",
            "[%eval 0.1]",
        ]);
        let clocks = prop::sample::select(vec![
            "0:04:58",
            "9:59:59",
            "12:00:00",
            "0:14:39.1",
            "0:14:39.12",
            "0:4:58",
            "0:04:58.",
            "0:04:5x",
            "0;04:58",
            "0:04:58 ",
        ]);
        proptest!(|(parts in prop::collection::vec(pieces, 0..10), eval in evals,
                    clock in clocks, usual in any::<bool>())| {
            let gap = if usual {
                format!(" {{ {eval}[%clk {clock}] }}{}", parts.concat())
            } else {
                parts.concat()
            };
            let gap = gap.as_bytes();
            let walked =
                MoveCommands::read_comments(move_comments(gap, 0, gap.len()), &mut Vec::new());
            if let Some(quick) = MoveCommands::of_usual_gap(gap) {
                prop_assert_eq!(quick, walked, "{:?}", String::from_utf8_lossy(gap));
            }
            if let Some(ms) = MoveCommands::usual_clock_of_gap(gap) {
                let quick = MoveCommands { clock_ms: Some(ms), ..MoveCommands::default() };
                prop_assert_eq!(quick, walked, "{:?}", String::from_utf8_lossy(gap));
            }
        });
        assert_eq!(
            MoveCommands::usual_clock_of_gap(b" { [%clk 1:02:03] } 2. "),
            Some(3_723_000)
        );
        assert_eq!(
            MoveCommands::usual_clock_of_gap(b" { [%clk 1:02:03] } { a } 2. "),
            None
        );
        let analysed = MoveCommands::of_usual_gap(b" { [%eval -0.35] [%clk 0:04:58] } ").unwrap();
        assert_eq!(analysed.clock_ms, Some(298_000));
        assert_eq!(analysed.eval.map(|e| e.score), Some(Score::Centipawns(-35)));
        let usual = MoveCommands::of_usual_gap(b" { [%clk 0:14:39.1] } 2. ").unwrap();
        assert_eq!(usual.clock_ms, Some(879_100));
        assert_eq!(
            MoveCommands::of_usual_gap(b" { [%clk 0:14:39.1] } (2. e4) "),
            None
        );
        assert_eq!(
            MoveCommands::of_usual_gap(b" { [%clk 0:14:39.1] [%eval 1] } "),
            None
        );
    }

    #[test]
    fn a_command_read_is_passed_over() {
        let c = MoveCommands::read(b"[%clk 0:01:00] [%eval #-3,12] [%emt 0:00:02.5]");
        assert_eq!(c.clock_ms, Some(60_000));
        assert_eq!(c.emt_ms, Some(2_500));
        assert_eq!(
            c.eval,
            Some(Eval {
                score: Score::Mate(-3),
                depth: Some(12)
            })
        );
        // A second clock does not count; a broken first one hides nothing.
        let c = MoveCommands::read(b"[%clk 0:01] [%clk 0:02:00] [%clk 0:03:00]");
        assert_eq!(c.clock_ms, Some(120_000));
    }
}
