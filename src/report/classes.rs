//! The classes report.html breaks missed threefolds down by: lichess's
//! time-control classes, rating bands of 200, and years. Computed per game
//! on the worker thread from tag values the report already has, and the
//! `UTCDate` of a game whose `Date` has no year.

use crate::pgn::GameText;

/// Lichess's time-control classes, fastest first.
pub const TIME_CONTROL_CLASSES: [&str; 5] =
    ["ultrabullet", "bullet", "blitz", "rapid", "classical"];

/// The class of a `TimeControl` value `BASE[+INC]` (seconds), as lichess
/// defines it: estimated duration BASE + 40 x INC, below 29 s ultrabullet,
/// 180 s bullet, 480 s blitz, 1500 s rapid, else classical. `-`, `?` and
/// other forms (`1/259200`, `40/7200:3600`) have no class. Returns the
/// index into [`TIME_CONTROL_CLASSES`].
pub fn time_control_class(tc: &str) -> Option<u8> {
    let tc = tc.trim();
    let (base, inc) = match tc.split_once('+') {
        Some((b, i)) => (b, i),
        None => (tc, "0"),
    };
    let seconds = |s: &str| -> Option<u64> {
        if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let estimate = seconds(base)? + 40 * seconds(inc)?;
    Some(match estimate {
        0..29 => 0,
        29..180 => 1,
        180..480 => 2,
        480..1500 => 3,
        _ => 4,
    })
}

/// The lower end of the 200-point band of the mean of two ratings (whole
/// numbers, as `WhiteElo` and `BlackElo` are written); none when either is
/// missing or not a number (`?`, `-`).
pub fn rating_band(white: &str, black: &str) -> Option<u32> {
    let elo = |s: &str| -> Option<u32> {
        let s = s.trim();
        if s.is_empty() || s.len() > 5 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let sum = elo(white)? + elo(black)?;
    // floor(mean / 200) * 200, with the mean a half-integer at most.
    Some(sum / 400 * 200)
}

/// The year of a PGN `Date` value (`2025.05.01`, `1851.??.??`): its first
/// four characters, when they are digits.
pub fn year(date: &str) -> Option<u16> {
    let y = date.as_bytes().get(..4)?;
    if !y.iter().all(u8::is_ascii_digit) {
        return None;
    }
    y.iter()
        .try_fold(0u16, |n, &d| Some(n * 10 + u16::from(d - b'0')))
}

/// The year of the `UTCDate` tag of the game `text` (starting on source
/// line `line`), the year of a game whose `Date` has none: lichess writes
/// both, other servers only `UTCDate`. Read only for such games, so that a
/// game with a Date pays nothing for it.
pub fn utc_year(text: &str, line: u64) -> Option<u16> {
    let value = GameText::new(text.as_bytes(), line).tag("UTCDate")?;
    year(std::str::from_utf8(&value).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lichess's boundaries, each side of each (lichess.org/faq#time-controls).
    #[test]
    fn time_control_boundaries() {
        let cases = [
            ("0+0", Some(0)),
            ("15+0", Some(0)),
            ("28", Some(0)),
            ("29", Some(1)),
            ("60+0", Some(1)),
            ("179", Some(1)),
            ("180+0", Some(2)),
            ("60+3", Some(2)),
            ("300+3", Some(2)),
            ("479", Some(2)),
            ("480", Some(3)),
            ("600+5", Some(3)),
            ("1499", Some(3)),
            ("1500", Some(4)),
            ("1800+20", Some(4)),
            ("-", None),
            ("?", None),
            ("1/259200", None),
            ("40/7200:3600", None),
            ("", None),
            ("+5", None),
        ];
        for (tc, want) in cases {
            assert_eq!(time_control_class(tc), want, "{tc}");
        }
    }

    #[test]
    fn bands_and_years() {
        assert_eq!(rating_band("1028", "1132"), Some(1000));
        assert_eq!(rating_band("1399", "1400"), Some(1200));
        assert_eq!(rating_band("1400", "1400"), Some(1400));
        assert_eq!(rating_band("1500", "?"), None);
        assert_eq!(rating_band("", "1500"), None);
        assert_eq!(year("2025.05.01"), Some(2025));
        assert_eq!(year("1851.??.??"), Some(1851));
        assert_eq!(year("????.??.??"), None);
        assert_eq!(year("85"), None);
        let utc = "[Date \"????.??.??\"]\n[UTCDate \"2013.01.02\"]\n\n1. e4 *\n";
        assert_eq!(utc_year(utc, 1), Some(2013));
        assert_eq!(utc_year("[UTCDate \"?\"]\n\n*\n", 1), None);
        assert_eq!(utc_year("1. e4 *\n", 1), None);
    }
}
