//! A decimal number as a tag value writes it, compared exactly: `--where`
//! compares numbers as written (`9007199254740993` is above
//! `9007199254740992`, which a 64-bit float cannot tell apart), however
//! many digits they have.

use std::borrow::Cow;
use std::cmp::Ordering;

/// A decimal number in canonical parts: no leading zeros before the
/// point, no trailing zeros after it, and zero never negative. Borrowed
/// from a tag value's text (no allocation per game); owned for the number
/// a condition compares with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decimal<'a> {
    negative: bool,
    whole: Cow<'a, str>,
    fraction: Cow<'a, str>,
}

impl<'a> Decimal<'a> {
    /// Reads `[+-]digits[.digits]` (either side of the point may be empty,
    /// not both), spaces around it allowed; anything else is no number.
    pub fn parse(text: &'a str) -> Option<Decimal<'a>> {
        let t = text.trim();
        let (negative, digits) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction)
        {
            return None;
        }
        let whole = whole.trim_start_matches('0');
        let fraction = fraction.trim_end_matches('0');
        let zero = whole.is_empty() && fraction.is_empty();
        Some(Decimal {
            negative: negative && !zero,
            whole: Cow::Borrowed(whole),
            fraction: Cow::Borrowed(fraction),
        })
    }

    /// The same number, no longer tied to its text.
    pub fn into_owned(self) -> Decimal<'static> {
        Decimal {
            negative: self.negative,
            whole: Cow::Owned(self.whole.into_owned()),
            fraction: Cow::Owned(self.fraction.into_owned()),
        }
    }

    /// The order of the magnitudes: more whole digits is larger; then digit
    /// by digit, the fraction's missing digits counting as zeros.
    fn cmp_magnitude(&self, other: &Decimal<'_>) -> Ordering {
        self.whole
            .len()
            .cmp(&other.whole.len())
            .then_with(|| self.whole.cmp(&other.whole))
            .then_with(|| self.fraction.cmp(&other.fraction))
    }
}

impl Ord for Decimal<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for Decimal<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal<'_> {
        Decimal::parse(s).unwrap_or_else(|| panic!("{s:?} is a number"))
    }

    #[test]
    fn numbers_order_as_their_values_do() {
        // In increasing order; neighbours differ where a float would not.
        let ordered = [
            "-100000000000000000001",
            "-100000000000000000000",
            "-2.5",
            "-2.49999999999999999999",
            "-.5",
            "0",
            "0.00000000000000000001",
            "1",
            "1.000000000000000000001",
            "9007199254740992",
            "9007199254740993",
            "99999999999999999999",
            "100000000000000000000",
        ];
        for (i, a) in ordered.iter().enumerate() {
            for (j, b) in ordered.iter().enumerate() {
                assert_eq!(d(a).cmp(&d(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn one_value_has_one_form() {
        for same in [
            ["0", "-0", "+0.000"],
            ["12", "0012", "12.00"],
            [".5", "0.50", "+00.5"],
        ] {
            assert_eq!(d(same[0]), d(same[1]));
            assert_eq!(d(same[0]), d(same[2]));
        }
        assert_eq!(d(" 7 "), d("7"));
    }

    #[test]
    fn text_that_is_no_decimal_is_none() {
        for s in [
            "", "-", ".", "+.", "1.2.3", "1e5", "inf", "NaN", "0x10", "--1", "1 2", "?",
        ] {
            assert_eq!(Decimal::parse(s), None, "{s:?}");
        }
    }
}
