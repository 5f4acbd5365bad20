//! The `[TimeControl]` tag (PGN standard §9.6.1) as far as a clock can be
//! followed through a game: one sudden-death period with an optional
//! increment, `300+3` (300 seconds, 3 more a move) or a bare `60` (60
//! seconds, no increment), as lichess and chess.com write them.
//!
//! Everything else has no single base and increment and is read as none:
//! `-` (no clock), `?` (unknown), `1/259200` (moves/seconds: chess.com's
//! correspondence, so many seconds a move), multi-period controls such as
//! `40/7200:3600`, delays (`300+5d`), hourglasses (`*60`), and numbers in
//! spellings that python-chess's `parse_time_control` accepts but no
//! program writes (signs, `_`, exponents, `inf`). The base is whole
//! seconds (as python-chess reads it, `int()`); the increment may have a
//! fraction (`float()`), both converted to milliseconds. Spaces around
//! the value and around each number (spaces and tabs) are allowed, as
//! `int()` and `float()` allow them. A control whose milliseconds do not fit an `i32` (over 596
//! hours) is read as none.

/// The spaces allowed around the value and its numbers.
const SPACES: [char; 2] = [' ', '\t'];

/// A sudden-death control: its base and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: i32,
    pub increment_ms: i32,
}

impl TimeControl {
    /// The control a `[TimeControl]` value describes, if it is one
    /// sudden-death period; see the module docs.
    pub fn parse(value: &str) -> Option<TimeControl> {
        let (base, increment) = match value.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None => (value, None),
        };
        let base = base.trim_matches(SPACES);
        if base.is_empty() || !base.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let base_ms = base.parse::<i64>().ok()?.checked_mul(1000)?;
        let increment_ms = match increment.map(|i| i.trim_matches(SPACES)) {
            None => 0,
            Some(text) => increment_ms(text)?,
        };
        Some(TimeControl {
            base_ms: i32::try_from(base_ms).ok()?,
            increment_ms: i32::try_from(increment_ms).ok()?,
        })
    }
}

/// An increment in seconds, `3` or `0.5`, as whole milliseconds (rounded
/// half to even, as Python's `round()` rounds the product).
fn increment_ms(text: &str) -> Option<i64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    let seconds: f64 = text.parse().ok()?;
    let ms = (seconds * 1000.0).round_ties_even();
    (ms <= i64::MAX as f64).then_some(ms as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(value: &str) -> Option<(i32, i32)> {
        TimeControl::parse(value).map(|t| (t.base_ms, t.increment_ms))
    }

    #[test]
    fn sudden_death_controls_are_read() {
        assert_eq!(tc("300+3"), Some((300_000, 3_000)));
        assert_eq!(tc("60"), Some((60_000, 0)));
        assert_eq!(tc(" 180 + 2 "), Some((180_000, 2_000)));
        assert_eq!(tc("15+0.5"), Some((15_000, 500)));
    }

    #[test]
    fn other_controls_are_none() {
        for value in [
            "",
            "-",
            "?",
            "1/259200",
            "40/7200:3600",
            "300+5d",
            "*60",
            "+5",
            "300+",
        ] {
            assert_eq!(tc(value), None, "{value}");
        }
        assert_eq!(tc("9999999"), None);
    }
}
