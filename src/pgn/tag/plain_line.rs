//! The common tag line, `[Name "value"]` and a line end, read 16 bytes at a
//! time (the splitter and the tag walk both call it as
//! [`super::plain_tag_line`]). A report reads ~17 such lines per lichess
//! game; the tests hold it equal to a byte-by-byte reading of the same
//! grammar.
//!
//! SSE2 is part of the x86_64 baseline; other targets use the byte loops.

use super::TagScan;
#[cfg(target_arch = "x86_64")]
use crate::simd::bytes16::Bytes16;

/// [`BYTE_CLASS`]: a byte of a tag name (ASCII letter, digit, `_`).
const NAME: u8 = 1;
/// [`BYTE_CLASS`]: a byte that ends a plain value (`"`, `\\`, a line end).
const VALUE_STOP: u8 = 2;

/// The bytes [`read`] looks for, as a table: one load per byte of
/// the ~500 bytes of tags a game has, where the tests took several
/// comparisons each.
static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            t[b] = NAME;
        } else if matches!(c, b'"' | b'\\' | b'\n' | b'\r') {
            t[b] = VALUE_STOP;
        }
        b += 1;
    }
    t
};

/// Bit `i` set when byte `i` of `chunk` is a tag-name byte (ASCII letter,
/// digit, `_`), and when it ends a plain value (`"`, `\\`, `\n`, `\r`).
#[cfg(target_arch = "x86_64")]
#[inline]
fn masks(chunk: &[u8; 16]) -> (u32, u32) {
    let v = Bytes16::load(chunk);
    let name = v.ascii_letter() | v.in_ascii_range(b'0', b'9') | v.eq(b'_');
    let stop = v.eq(b'"') | v.eq(b'\\') | v.eq(b'\n') | v.eq(b'\r');
    (name.bits(), stop.bits())
}

/// The masks of `chunk`, byte by byte: the portable version and the
/// definition the SSE2 one is tested against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn portable_masks(chunk: &[u8; 16]) -> (u32, u32) {
    let (mut name, mut stop) = (0, 0);
    for (i, &b) in chunk.iter().enumerate() {
        match BYTE_CLASS[usize::from(b)] {
            NAME => name |= 1 << i,
            VALUE_STOP => stop |= 1 << i,
            _ => {}
        }
    }
    (name, stop)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn masks(chunk: &[u8; 16]) -> (u32, u32) {
    portable_masks(chunk)
}

/// Index in `buf[from..]` of the first byte whose [`BYTE_CLASS`] is (or,
/// with `is == false`, is not) `class`; `None` when there is none. Sixteen
/// bytes per step while that many remain, then byte by byte.
#[inline]
fn find(buf: &[u8], from: usize, class: u8, is: bool) -> Option<usize> {
    let rest = buf.get(from..)?;
    let mut at = 0;
    while let Some(chunk) = rest.get(at..).and_then(<[u8]>::first_chunk::<16>) {
        let (name, stop) = masks(chunk);
        let hits = match (class, is) {
            (NAME, false) => !name & 0xffff,
            _ => stop,
        };
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize);
        }
        at += 16;
    }
    let tail = rest.get(at..).unwrap_or_default();
    tail.iter()
        .position(|&b| (BYTE_CLASS[usize::from(b)] == class) == is)
        .map(|i| at + i)
}

/// `[Name "value"]` followed by `\n`, `\r\n` or the end of `buf` at `open`,
/// with the name and the value measured 16 bytes at a time: the tag and the
/// start of the next line; `None` for anything else. Always inlined: in the walk's loop over the tag lines its
/// constants stay in registers and its result is never stored.
#[inline(always)]
pub(crate) fn read(buf: &[u8], open: usize) -> Option<(TagScan, usize)> {
    let name_start = open + 1;
    let name_len = find(buf, name_start, NAME, false)?;
    let value_start = name_start + name_len + 2;
    if name_len == 0 || buf.get(value_start - 2..value_start) != Some(&b" \""[..]) {
        return None;
    }
    let value_end = value_start + find(buf, value_start, VALUE_STOP, true)?;
    let next = match buf.get(value_end..) {
        Some([b'"', b']', b'\n', ..]) => value_end + 3,
        Some([b'"', b']', b'\r', b'\n', ..]) => value_end + 4,
        Some([b'"', b']']) => value_end + 2,
        _ => return None,
    };
    let scan = TagScan {
        name: (name_start, name_start + name_len),
        value: (value_start, value_end),
        end: value_end + 2,
        // The value stopped at its first `"`, `\\` or line end, and it
        // is a `"`: there is no backslash in it.
        may_escape: false,
    };
    Some((scan, next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The grammar of [`read`], byte by byte: the definition it is tested
    /// against (this was the splitter's own reader before [`read`]).
    fn plain_tag_line(buf: &[u8], open: usize) -> Option<(TagScan, usize)> {
        let name_start = open + 1;
        let rest = buf.get(name_start..)?;
        let name_len = rest.iter().position(|&b| BYTE_CLASS[b as usize] != NAME)?;
        if name_len == 0 || rest.get(name_len..name_len + 2) != Some(&b" \""[..]) {
            return None;
        }
        let value_start = name_start + name_len + 2;
        let value_len = buf
            .get(value_start..)?
            .iter()
            .position(|&b| BYTE_CLASS[b as usize] == VALUE_STOP)?;
        let value_end = value_start + value_len;
        if buf.get(value_end) != Some(&b'"') {
            return None;
        }
        let next = match buf.get(value_end + 1..) {
            Some([b']', b'\n', ..]) => value_end + 3,
            Some([b']', b'\r', b'\n', ..]) => value_end + 4,
            Some([b']']) => value_end + 2,
            _ => return None,
        };
        let scan = TagScan {
            name: (name_start, name_start + name_len),
            value: (value_start, value_end),
            end: value_end + 2,
            may_escape: false,
        };
        Some((scan, next))
    }

    /// The SSE2 classification equals the table's for every byte value at
    /// every position.
    #[test]
    fn masks_match_the_byte_table() {
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[at] = b;
                chunk[(at + 7) % 16] = b.wrapping_add(1);
                assert_eq!(masks(&chunk), portable_masks(&chunk), "{b:#x} at {at}");
            }
        }
    }

    /// Lines made of tag-like pieces, to compare with the definition.
    fn line() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(b"[".to_vec()),
            Just(b"]".to_vec()),
            Just(b" \"".to_vec()),
            Just(b"\"".to_vec()),
            Just(b"\\".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\r".to_vec()),
            Just(b" ".to_vec()),
            Just(b"Event".to_vec()),
            Just(b"WhiteElo_2".to_vec()),
            Just(b"https://lichess.org/abcdefgh".to_vec()),
            Just("R\u{e9}ti \u{3000}".as_bytes().to_vec()),
            "[a-zA-Z0-9_]{0,20}".prop_map(String::into_bytes),
            proptest::collection::vec(any::<u8>(), 0..20),
        ];
        proptest::collection::vec(piece, 0..12).prop_map(|p| p.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn same_answer_as_plain_tag_line(body in line(), name in "[A-Za-z0-9_]{1,20}",
                                         value in "[^\"\\\\\r\n]{0,40}", tail in line()) {
            let mut well_formed = format!("[{name} \"{value}\"]\n").into_bytes();
            well_formed.extend_from_slice(&tail);
            for buf in [body.clone(), [b"[".as_slice(), &body].concat(), well_formed] {
                for open in 0..buf.len().min(3) {
                    let got = read(&buf, open);
                    prop_assert_eq!(got, plain_tag_line(&buf, open));
                    if let Some((scan, _)) = got {
                        // What `may_escape: false` promises.
                        prop_assert!(!buf[scan.value.0..scan.value.1].contains(&b'\\'));
                    }
                }
            }
        }
    }

    #[test]
    fn same_answer_on_edges() {
        let cases: &[&[u8]] = &[
            b"[Event \"x\"]",
            b"[Event \"x\"]\n",
            b"[Event \"x\"]\r\n",
            b"[Event \"x\"]\r",
            b"[Event \"x\"] \n",
            b"[Event \"x\\\"y\"]\n",
            b"[Event  \"x\"]\n",
            b"[ Event \"x\"]\n",
            b"[ABCDEFGHIJKLMNOPQRSTUVWXYZ \"0123456789abcdef0123456789\"]\n",
            b"[ABCDEFGHIJKLMNO \"0123456789abcdef\"]\n",
            b"[ABCDEFGHIJKLMNOP",
            b"[A \"0123456789abcdef0123456789",
            b"[",
            b"",
            b"[\"x\"]\n",
            b"[Site \"https://lichess.org/abcdefgh\"]\n[Date \"2025.05.01\"]\n",
        ];
        for &buf in cases {
            for open in 0..buf.len().max(1) {
                assert_eq!(read(buf, open), plain_tag_line(buf, open), "{buf:?} {open}");
            }
        }
    }
}
