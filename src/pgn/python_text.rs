//! Two character classes of Python's `re` module, as python-chess's
//! comment patterns use them on text (`str`) rather than bytes: `\s` (any
//! character for which `str.isspace()` holds) and `\d` (any Unicode
//! decimal digit, category Nd), read here from UTF-8 bytes. Python 3.11,
//! the oracle's, has Unicode 14.0; the tables below were printed by it:
//!
//! ```text
//! [c for c in range(0x110000) if chr(c).isspace()]
//! [c for c in range(0x110000)
//!  if unicodedata.category(chr(c)) == "Nd" and unicodedata.decimal(chr(c)) == 0]
//! ```
//!
//! Every Nd character is one of the ten that follow a zero of the second
//! table, with the value of its distance from it.

/// The first code point (the digit zero) of each run of ten Unicode
/// decimal digits.
const DIGIT_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// The characters beyond ASCII for which `str.isspace()` holds.
const NON_ASCII_SPACES: [u32; 19] = [
    0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
    0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
];

/// The character at `text[at]`, decoded from UTF-8, and its length; `None`
/// at the end or on bytes that are not UTF-8.
fn char_at(text: &[u8], at: usize) -> Option<(u32, usize)> {
    let &first = text.get(at)?;
    let len = match first {
        0x00..=0x7f => return Some((u32::from(first), 1)),
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => return None,
    };
    let bytes = text.get(at..at + len)?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    Some((u32::from(c), len))
}

/// `\d` at `text[at]`: the digit's value and its length in bytes.
#[inline]
pub fn digit(text: &[u8], at: usize) -> Option<(u8, usize)> {
    match text.get(at) {
        Some(c @ b'0'..=b'9') => Some((c - b'0', 1)),
        Some(c) if c.is_ascii() => None,
        _ => {
            let (c, len) = char_at(text, at)?;
            let run = DIGIT_ZEROS
                .partition_point(|&zero| zero <= c)
                .checked_sub(1)?;
            let value = c - DIGIT_ZEROS.get(run)?;
            (value < 10).then_some((value as u8, len))
        }
    }
}

/// `\s` at `text[at]`: its length in bytes. A `\r\n` counts as one
/// character: python-chess reads a file in text mode, where it is one
/// `\n`.
#[inline]
pub fn space(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at) {
        Some(b'\r') if text.get(at + 1) == Some(&b'\n') => Some(2),
        Some(b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f | b' ') => Some(1),
        Some(c) if c.is_ascii() => None,
        _ => {
            let (c, len) = char_at(text, at)?;
            NON_ASCII_SPACES.contains(&c).then_some(len)
        }
    }
}

/// A run of at most `max` `\d` at `text[at]`: hands each digit's value to
/// `each` and returns the index after the run and how many digits it held.
#[inline]
pub fn digit_run(text: &[u8], at: usize, max: usize, mut each: impl FnMut(u8)) -> (usize, usize) {
    let mut i = at;
    let mut n = 0;
    while n < max
        && let Some((value, len)) = digit(text, i)
    {
        each(value);
        i += len;
        n += 1;
    }
    (i, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_digits_have_their_values() {
        assert_eq!(digit("٣".as_bytes(), 0), Some((3, 2)));
        assert_eq!(digit("９".as_bytes(), 0), Some((9, 3)));
        assert_eq!(digit("𝟘".as_bytes(), 0), Some((0, 4)));
        assert_eq!(digit("x".as_bytes(), 0), None);
        // Superscript two is a digit (No), not a decimal digit (Nd).
        assert_eq!(digit("²".as_bytes(), 0), None);
        // U+0669 is nine, U+066A (the Arabic percent sign) is no digit.
        assert_eq!(digit("\u{669}".as_bytes(), 0), Some((9, 2)));
        assert_eq!(digit("\u{66a}".as_bytes(), 0), None);
    }

    #[test]
    fn spaces_are_pythons() {
        assert_eq!(space(b"\r\n", 0), Some(2));
        assert_eq!(space(b"\x1f", 0), Some(1));
        assert_eq!(space("\u{a0}".as_bytes(), 0), Some(2));
        assert_eq!(space("\u{3000}".as_bytes(), 0), Some(3));
        assert_eq!(space("\u{200b}".as_bytes(), 0), None);
        assert_eq!(space(b"x", 0), None);
    }
}
