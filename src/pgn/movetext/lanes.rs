//! Sixteen bytes of movetext looked at at once (lanes of one vector): the `}` that ends a short
//! comment, and the common shape of a ply (`12. Nf3 ` or `Nc6 `), read from
//! bit masks of one SSE2 classification instead of byte by byte.
//!
//! SSE2 is part of the x86_64 baseline, so no run-time detection is needed;
//! other targets get a portable version with the same answers (the unit
//! tests compare the two classifications on every byte value).

#[cfg(target_arch = "x86_64")]
use crate::simd::bytes16::Bytes16;

/// One bit per byte of 16 bytes, bit `i` for byte `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Masks {
    /// `' '`, `'\n'` or `'\r'`: the separators of the common shape.
    pub space: u32,
    /// ASCII digits.
    pub digit: u32,
    /// `'.'`.
    pub dot: u32,
    /// Bytes of a plain move: ASCII letters and digits, `+`, `#`, `=`, `-`.
    pub plain: u32,
    /// ASCII letters, with which a plain move starts.
    pub letter: u32,
    /// `'}'`.
    pub close_brace: u32,
}

/// The masks of `sixteen`: one load and a few compares.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn masks(sixteen: &[u8; 16]) -> Masks {
    let v = Bytes16::load(sixteen);
    let digit = v.in_ascii_range(b'0', b'9');
    let sign = v.eq(b'+') | v.eq(b'#') | v.eq(b'=') | v.eq(b'-');
    let letter = v.ascii_letter();
    Masks {
        space: (v.eq(b' ') | v.eq(b'\n') | v.eq(b'\r')).bits(),
        digit: digit.bits(),
        dot: v.eq(b'.').bits(),
        plain: (digit | letter | sign).bits(),
        letter: letter.bits(),
        close_brace: v.eq(b'}').bits(),
    }
}

/// The masks of `sixteen`, byte by byte (targets without SSE2).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn masks(sixteen: &[u8; 16]) -> Masks {
    portable_masks(sixteen)
}

/// The masks of `sixteen`, byte by byte: the definition the SSE2 version is
/// tested against.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn portable_masks(sixteen: &[u8; 16]) -> Masks {
    let mut m = Masks {
        space: 0,
        digit: 0,
        dot: 0,
        plain: 0,
        letter: 0,
        close_brace: 0,
    };
    for (i, &c) in sixteen.iter().enumerate() {
        let bit = 1u32 << i;
        let set = |mask: &mut u32, yes: bool| {
            if yes {
                *mask |= bit;
            }
        };
        set(&mut m.space, matches!(c, b' ' | b'\n' | b'\r'));
        set(&mut m.digit, c.is_ascii_digit());
        set(&mut m.dot, c == b'.');
        set(
            &mut m.plain,
            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'#' | b'=' | b'-'),
        );
        set(&mut m.letter, c.is_ascii_alphabetic());
        set(&mut m.close_brace, c == b'}');
    }
    m
}

/// The first `}` in `hay`. Most comments are short (`{ [%clk 0:03:00] }`
/// is 18 bytes), so the first 33 bytes are looked at before memchr, whose
/// set-up costs more than such a comment, takes the rest: byte 0 alone
/// (an empty `{}`), then 16 at a time from byte 1, so that the `}` of a
/// lichess clock comment, byte 16 after the space that follows the `{`,
/// is in the first sixteen.
#[inline]
pub(in crate::pgn) fn find_close_brace(hay: &[u8]) -> Option<usize> {
    match hay.first() {
        None => return None,
        Some(b'}') => return Some(0),
        Some(_) => {}
    }
    let mut at = 1;
    while at < 33 {
        let Some(sixteen) = hay
            .get(at..at + 16)
            .and_then(|c| <&[u8; 16]>::try_from(c).ok())
        else {
            break;
        };
        let m = masks_close_brace(sixteen);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 16;
    }
    let rest = hay.get(at..).unwrap_or_default();
    memchr::memchr(b'}', rest).map(|i| at + i)
}

/// [`Masks::close_brace`] alone (the compiler does not drop the unused
/// compares of [`masks`] reliably).
#[cfg(target_arch = "x86_64")]
#[inline]
fn masks_close_brace(sixteen: &[u8; 16]) -> u32 {
    Bytes16::load(sixteen).eq(b'}').bits()
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn masks_close_brace(sixteen: &[u8; 16]) -> u32 {
    portable_masks(sixteen).close_brace
}

/// What [`ply`] found at the start of a sixteen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ply {
    /// A plain move at this index, of this length, followed by a byte that
    /// may end one (the sixteen holds that byte).
    Move(usize, usize),
    /// No plain move there; this many leading bytes are spaces, line ends
    /// and a plain move number, which the caller may step over.
    Skip(usize),
}

/// Bytes that may follow a plain move.
#[inline]
fn is_move_delimiter(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'{' | b'(' | b')' | b'$' | b';')
}

/// Reads `[spaces][12. or 12... and spaces]move delimiter` at the start of
/// `sixteen`, where spaces are `' '`, `'\n'` and `'\r'` (the bytes
/// `Movetext` accepts after a move number) and a move is a plain move as
/// `Movetext` defines it: an ASCII letter, then letters, digits, `+`, `#`,
/// `=`, `-`, holding a digit or starting with `O-O`. A move number is
/// digits and dots, followed by spaces or glued to the move (`12.Nf3`,
/// which the general path reads as one token and strips to the same move).
#[inline]
pub(super) fn ply(sixteen: &[u8; 16]) -> Ply {
    let m = masks(sixteen);
    // Bits 16 and up of a complement are set, so every count stops at 16.
    let ones = |mask: u32, from: usize| (!(mask >> from)).trailing_zeros() as usize;
    let mut at = ones(m.space, 0);
    // Where to hand over on failure: a glued number (`12.Nf3`) is left to
    // the general path whole, which reads it as one token.
    let mut fallback = at;
    if (m.digit >> at) & 1 != 0 {
        let dots_at = at + ones(m.digit, at);
        let after = dots_at + ones(m.dot, dots_at);
        if after == dots_at {
            return Ply::Skip(at);
        }
        if (m.space >> after) & 1 != 0 {
            at = after + ones(m.space, after);
            fallback = at;
        } else {
            at = after;
        }
    }
    let len = ones(m.plain, at);
    let stop = at + len;
    if stop >= 16 {
        return Ply::Skip(fallback);
    }
    // The delimiter is nearly always a space, which the mask tells.
    let delimited =
        (m.space >> stop) & 1 != 0 || sixteen.get(stop).is_some_and(|&c| is_move_delimiter(c));
    let digits = (m.digit >> at) & ((1u32 << len) - 1);
    let rest = sixteen.get(at..).unwrap_or_default();
    if (m.letter >> at) & 1 != 0 && delimited && (digits != 0 || rest.starts_with(b"O-O")) {
        Ply::Move(at, len)
    } else {
        Ply::Skip(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SSE2 classification equals the byte-by-byte one for every byte
    /// value at every position.
    #[test]
    fn masks_match_the_portable_definition() {
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut sixteen = [b'a'; 16];
                sixteen[at] = b;
                sixteen[(at + 5) % 16] = b.wrapping_add(1);
                assert_eq!(masks(&sixteen), portable_masks(&sixteen), "{b:#x} at {at}");
                assert_eq!(
                    masks_close_brace(&sixteen),
                    portable_masks(&sixteen).close_brace
                );
            }
        }
    }

    /// The comment end search answers like a plain search, whatever the
    /// length, the position and the other bytes (0x7c, 0x7e and 0xfd sit
    /// next to `}` in value; 0xfd is negative as i8).
    #[test]
    fn find_close_brace_matches_a_plain_search() {
        let fillers = [b'a', 0x7c, 0x7e, 0xfd, 0x00, 0xff];
        for len in 0..70 {
            for at in 0..=len {
                for &fill in &fillers {
                    let mut hay = vec![fill; len];
                    if at < len {
                        hay[at] = b'}';
                        if at + 3 < len {
                            hay[at + 3] = b'}';
                        }
                    }
                    let expected = hay.iter().position(|&b| b == b'}');
                    assert_eq!(find_close_brace(&hay), expected, "{len} {at} {fill}");
                }
            }
        }
    }

    fn sixteen(s: &[u8]) -> [u8; 16] {
        let mut c = [b'?'; 16];
        c[..s.len()].copy_from_slice(s);
        c
    }

    /// The shapes of the PGN standard's export format, and near misses that
    /// must be left to the general path.
    #[test]
    fn reads_the_common_shapes() {
        assert_eq!(ply(&sixteen(b" 12. Nf3 {")), Ply::Move(5, 3));
        assert_eq!(ply(&sixteen(b" 12... Nf3 ")), Ply::Move(7, 3));
        assert_eq!(ply(&sixteen(b"\nexd8=Q# ")), Ply::Move(1, 7));
        assert_eq!(ply(&sixteen(b" O-O-O ")), Ply::Move(1, 5));
        assert_eq!(ply(&sixteen(b" 3.\nO-O)")), Ply::Move(4, 3));
        // Not moves: a result, an annotation, a glued number, no digit.
        assert_eq!(ply(&sixteen(b" 1-0 ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" Nf3! ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" 1.e4 ")), Ply::Move(3, 2));
        assert_eq!(ply(&sixteen(b"12...Nxf3+)")), Ply::Move(5, 5));
        assert_eq!(ply(&sixteen(b" 1.e4! ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" 1.inf ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" 1.0-0 ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" 1.\xe3\x80\x80e4 ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b" 1. inf ")), Ply::Skip(4));
        assert_eq!(ply(&sixteen(b" 12 e4 ")), Ply::Skip(1));
        assert_eq!(ply(&sixteen(b"1.\r\ne4 ")), Ply::Move(4, 2));
        assert_eq!(ply(&sixteen(b"1.\te4 ")), Ply::Skip(0));
        // A move that does not end inside the sixteen.
        assert_eq!(ply(&sixteen(b"   12... abcdefg")), Ply::Skip(9));
        assert_eq!(ply(&[b' '; 16]), Ply::Skip(16));
    }
}
