//! The game splitter's one pass over a line: bytes are classified 64 at a
//! time into a bitmask of the few bytes the splitter acts on (line
//! ends, braces, parentheses, `;`, or a tag's quotes and bracket), and only
//! the set bits are visited. Most bytes of a PGN file (moves, clock values,
//! tag values) are thus looked at by one vector compare, not by a loop.
//!
//! On x86_64 the classification uses SSE2, which every x86_64 processor has
//! (no run-time detection); other targets use a plain loop with the same
//! result. Only UTF-8 and single-byte text take this path: in GBK or Big5 a
//! trail byte may equal `{` or `}`, so the splitter scans those with its
//! byte-by-byte path.

use super::lines;

/// `\n` and `\r`.
pub(super) const LINE_END: u8 = 0;
/// The movetext bytes that change the splitter's state: line ends, `{`,
/// `}`, `(`, `)`, `;`. The class also holds a few bytes that take fewer
/// vector instructions to leave in than to leave out (the other control
/// bytes up to `\r`, `y` and DEL); whoever reads the class skips them.
pub(super) const MOVETEXT: u8 = 1;
/// The bytes that shape a tag: line ends, `"`, `]`, `\`; and, as in
/// [`MOVETEXT`], the other control bytes up to `\r`.
pub(super) const TAG: u8 = 2;

/// Whether `b` is of byte class `C` (the reference for [`classify`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn in_class<const C: u8>(b: u8) -> bool {
    match C {
        LINE_END => matches!(b, b'\n' | b'\r'),
        MOVETEXT => b <= b'\r' || b & 0xfe == b'(' || b & 0xf9 == b'y' || b == b';',
        _ => b <= b'\r' || b == b'"' || b & 0xfe == b'\\',
    }
}

/// Bit `i` set when `block[i]` is of class `C`, one byte at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn classify_bytes<const C: u8>(block: &[u8; 64]) -> u64 {
    block
        .iter()
        .enumerate()
        .filter(|&(_, &b)| in_class::<C>(b))
        .fold(0, |m, (i, _)| m | 1 << i)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify<const C: u8>(block: &[u8; 64]) -> u64 {
    classify_bytes::<C>(block)
}

/// Bit `i` set when `block[i]` is of class `C`, with SSE2 compares, for
/// the 64 bytes of `block` (four 16-byte loads).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify<const C: u8>(block: &[u8; 64]) -> u64 {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    let mut mask = 0u64;
    for (k, quarter) in block.chunks_exact(16).enumerate() {
        // SAFETY: the intrinsics need SSE2, which is part of the x86_64
        // baseline (enabled for every x86_64 target), so the instructions
        // exist on every processor this code runs on. The one memory access
        // is the load, which reads the 16 bytes of `quarter`, a slice of
        // exactly 16 initialised bytes (`chunks_exact(16)`);
        // `_mm_loadu_si128` has no alignment requirement.
        let bits = unsafe {
            let v = _mm_loadu_si128(quarter.as_ptr().cast::<__m128i>());
            let splat = |b: u8| _mm_set1_epi8(b as i8);
            let eq = |b: u8| _mm_cmpeq_epi8(v, splat(b));
            // Bytes whose bits outside `free` are those of `b`.
            let like = |free: u8, b: u8| _mm_cmpeq_epi8(_mm_and_si128(v, splat(!free)), splat(b));
            // Bytes up to `\r`: one unsigned minimum and a compare.
            let low = _mm_cmpeq_epi8(_mm_min_epu8(v, splat(b'\r')), v);
            let m = match C {
                LINE_END => _mm_or_si128(eq(b'\n'), eq(b'\r')),
                // `(` `)`; `y` `{` `}` DEL; `;`.
                MOVETEXT => _mm_or_si128(
                    _mm_or_si128(low, like(0x01, b'(')),
                    _mm_or_si128(like(0x06, b'y'), eq(b';')),
                ),
                // `"`; `\` `]`.
                _ => _mm_or_si128(_mm_or_si128(low, eq(b'"')), like(0x01, b'\\')),
            };
            _mm_movemask_epi8(m)
        };
        // `_mm_movemask_epi8` sets only the low 16 bits.
        mask |= u64::from(bits as u16) << (16 * k);
    }
    mask
}

/// The class-`C` mask of the 64 bytes from `at` (fewer at the end of
/// `buf`: the bits past its end are clear).
#[inline(always)]
fn chunk_mask<const C: u8>(buf: &[u8], at: usize) -> u64 {
    let rest = buf.get(at..).unwrap_or_default();
    if let Some(chunk) = rest.first_chunk::<CHUNK>() {
        return classify::<C>(chunk);
    }
    let mut padded = [0u8; CHUNK];
    if let Some(head) = padded.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    // `rest` is shorter than 64 bytes here.
    classify::<C>(&padded) & ((1u64 << rest.len()) - 1)
}

/// Bytes classified at a time: one bit each in a `u64`.
const CHUNK: usize = 64;

/// The positions of the class-`C` bytes of `buf` from a start, in order.
pub(super) struct Events<'a, const C: u8> {
    buf: &'a [u8],
    /// Position of bit 0 of `bits`.
    base: usize,
    /// The chunk's class bytes not yet returned.
    bits: u64,
}

impl<'a, const C: u8> Events<'a, C> {
    #[inline(always)]
    pub(super) fn new(buf: &'a [u8], from: usize) -> Self {
        Events {
            buf,
            base: from,
            bits: chunk_mask::<C>(buf, from),
        }
    }

    /// The next class-`C` byte's position, `None` at the end of `buf`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub(super) fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            // `base` is below `buf.len()` here, which is at most isize::MAX.
            self.base += CHUNK;
            if self.base >= self.buf.len() {
                return None;
            }
            self.bits = chunk_mask::<C>(self.buf, self.base);
        }
        let i = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.base + i)
    }
}

/// Where the line that holds `from` ends: `(content_end, next_line_start)`,
/// exactly as [`lines::line_end`] says, with one vector pass.
#[inline]
pub(super) fn line_end(buf: &[u8], from: usize, is_final: bool) -> Option<(usize, usize)> {
    let le = Events::<LINE_END>::new(buf, from)
        .next()
        .unwrap_or(buf.len());
    Some((le, next_line(buf, le, is_final)?))
}

/// The start of the line after the line end at `le` (a `\n`, `\r`, `\r\n`,
/// or `buf.len()` for a last line without one); `None` when more bytes may
/// change it: the end of a buffer that is not final, or a `\r` as its last
/// byte (a `\n` may follow).
#[inline(always)]
pub(super) fn next_line(buf: &[u8], le: usize, is_final: bool) -> Option<usize> {
    match buf.get(le) {
        Some(b'\n') => Some(le + 1),
        Some(_) => match buf.get(le + 1) {
            Some(b'\n') => Some(le + 2),
            Some(_) => Some(le + 1),
            None => is_final.then_some(le + 1),
        },
        None => is_final.then_some(buf.len()),
    }
}

/// When the line whose class-[`TAG`] bytes `ev` returns next (a line
/// starting with `[`) is one tag and nothing else, in the shape
/// `[...."...."]` with no `\` and no `]` before the first quote: the
/// position of its line end (or `buf.len()`). `None` for any other line,
/// which the general tag scanner then reads. Takes the line's events from
/// `ev`, the line end's included.
///
/// For such a line the tag scanner (`tag::scan_tag`) stops its name at or
/// before the first quote, takes the value up to the second quote (no
/// escape can hide it) and the tag's end right after the `]`, which is the
/// line end: the line holds exactly one tag.
#[inline(always)]
pub(super) fn one_tag_line(buf: &[u8], ev: &mut Events<'_, TAG>) -> Option<usize> {
    let q1 = ev.next()?;
    let q2 = ev.next()?;
    let close = ev.next()?;
    let shaped = buf.get(q1) == Some(&b'"')
        && buf.get(q2) == Some(&b'"')
        && close == q2 + 1
        && buf.get(close) == Some(&b']');
    if !shaped {
        return None;
    }
    let le = ev.next().unwrap_or(buf.len());
    (le == close + 1 && matches!(buf.get(le), Some(b'\n' | b'\r') | None)).then_some(le)
}

/// How the scan of one stretch of movetext stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SegmentEnd {
    /// At the line end at this position, outside comments.
    Line(usize),
    /// The `{` at `open` starts a comment still open at `scanned`, the
    /// line's end (or the end of the buffer); it closes at the first `}`
    /// from there.
    Comment { open: usize, scanned: usize },
    /// At the end of the buffer, outside comments, with no line end.
    Eof,
    /// The line has a `;`, a `{` inside a comment or a `}` outside one: the
    /// splitter reads it with its byte-exact path from the stretch's start.
    Irregular,
}

/// What [`scan_segment`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Segment {
    pub end: SegmentEnd,
    /// Variation depth at the end of the stretch (parentheses outside
    /// comments, never below zero).
    pub depth: u32,
    /// Where the last token outside comments is, if there is one: the text
    /// between two comments that holds it, up to the token's end. A token
    /// is a run of bytes that are neither whitespace nor braces.
    pub token: Option<(usize, usize)>,
}

/// Scans the movetext from `from` to its line end, following `{ }`
/// comments within the line, starting at variation depth `depth`. `ev`
/// returns the class-[`MOVETEXT`] bytes from `from` on; it is left after
/// the byte the scan stopped at.
///
/// Only regular lines are read here: no `;`, every `}` closing a comment,
/// no `{` inside a comment. On those, a comment open at the line end starts
/// at the line's last `{`, and the last token outside comments is what the
/// splitter's byte-exact path takes for the text's last token, so both
/// paths agree; any other line is [`SegmentEnd::Irregular`].
#[inline]
pub(super) fn scan_segment(
    buf: &[u8],
    ev: &mut Events<'_, MOVETEXT>,
    from: usize,
    mut depth: u32,
) -> Segment {
    // Start of the text after the last comment, and the last non-blank
    // stretch of text between comments seen so far: (its start, the end of
    // its last token).
    let mut gap = from;
    let mut last: Option<(usize, usize)> = None;
    let mut open: Option<usize> = None;
    let end = loop {
        let Some(i) = ev.next() else {
            break match open {
                Some(o) => SegmentEnd::Comment {
                    open: o,
                    scanned: buf.len(),
                },
                None => {
                    note_gap(buf, gap, buf.len(), &mut last);
                    SegmentEnd::Eof
                }
            };
        };
        match (buf.get(i).copied().unwrap_or_default(), open) {
            (b'\n' | b'\r', None) => {
                note_gap(buf, gap, i, &mut last);
                break SegmentEnd::Line(i);
            }
            (b'\n' | b'\r', Some(o)) => {
                break SegmentEnd::Comment {
                    open: o,
                    scanned: i,
                };
            }
            (b'{', None) => {
                note_gap(buf, gap, i, &mut last);
                open = Some(i);
            }
            (b'}', Some(_)) => {
                open = None;
                gap = i + 1;
            }
            (b'(', None) => depth = depth.saturating_add(1),
            (b')', None) => depth = depth.saturating_sub(1),
            (b';', _) | (b'{', Some(_)) | (b'}', None) => break SegmentEnd::Irregular,
            // In a comment, or one of the class's other bytes.
            _ => {}
        }
    };
    Segment {
        end,
        depth,
        token: last,
    }
}

/// Whether the last token of `buf[start..end]` (bytes after its last
/// whitespace byte) is a result (`1-0`, `0-1`, `1/2-1/2`, `*`) or ends
/// with `*` (a result glued to a move): the test of the splitter's
/// byte-exact path (`lines::is_result(last) || last.ends_with(b"*")`),
/// without finding where the token starts.
#[inline]
pub(super) fn ends_in_result(buf: &[u8], start: usize, end: usize) -> bool {
    let text = buf.get(start..end).unwrap_or_default();
    let result: &[u8] = match text.last() {
        Some(b'*') => return true,
        Some(b'0') => b"1-0",
        Some(b'1') => b"0-1",
        Some(b'2') => b"1/2-1/2",
        _ => return false,
    };
    match text.len().checked_sub(result.len()) {
        Some(before) => {
            text.ends_with(result)
                && (before == 0
                    || text
                        .get(before - 1)
                        .is_some_and(|&b| lines::is_space_byte(b)))
        }
        None => false,
    }
}

/// Records the text `buf[start..end]` between comments as the last
/// non-blank one when it holds more than whitespace.
#[inline(always)]
fn note_gap(buf: &[u8], start: usize, end: usize, last: &mut Option<(usize, usize)>) {
    let mut e = end;
    while e > start && buf.get(e - 1).is_some_and(|&b| lines::is_space_byte(b)) {
        e -= 1;
    }
    if e > start {
        *last = Some((start, e));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// The vector classification equals the byte-by-byte one on blocks of
    /// random bytes drawn mostly from the bytes the classes hold.
    #[test]
    fn classify_matches_bytes() {
        let alphabet = b"\n\r{}();\"]\\[ a0\t\x00\xff\x80\x7b\x7d";
        let mut seed = 7;
        for _ in 0..20_000 {
            let mut block = [0u8; 64];
            for b in &mut block {
                let r = lcg(&mut seed) as usize;
                *b = if r.is_multiple_of(4) {
                    r as u8
                } else {
                    alphabet[r % alphabet.len()]
                };
            }
            assert_eq!(
                classify::<LINE_END>(&block),
                classify_bytes::<LINE_END>(&block)
            );
            assert_eq!(
                classify::<MOVETEXT>(&block),
                classify_bytes::<MOVETEXT>(&block)
            );
            assert_eq!(classify::<TAG>(&block), classify_bytes::<TAG>(&block));
        }
    }

    #[test]
    fn events_visit_every_class_byte_in_order() {
        let mut seed = 11;
        for len in 0..200 {
            let buf: Vec<u8> = (0..len)
                .map(|_| b"a{}()\n;x\r\"]"[lcg(&mut seed) as usize % 11])
                .collect();
            for from in 0..=len {
                let want: Vec<usize> = (from..len)
                    .filter(|&i| in_class::<MOVETEXT>(buf[i]))
                    .collect();
                let mut ev = Events::<MOVETEXT>::new(&buf, from);
                let got: Vec<usize> = std::iter::from_fn(|| ev.next()).collect();
                assert_eq!(got, want, "{:?} from {from}", String::from_utf8_lossy(&buf));
            }
        }
    }

    #[test]
    fn line_end_matches_lines() {
        let cases: &[&[u8]] = &[
            b"", b"ab", b"a\n", b"a\r", b"a\r\n", b"a\rb", b"\r", b"\n\n",
        ];
        for &buf in cases {
            for from in 0..=buf.len() {
                for is_final in [false, true] {
                    assert_eq!(
                        line_end(buf, from, is_final),
                        lines::line_end(buf, from, is_final),
                        "{buf:?} {from} {is_final}"
                    );
                }
            }
        }
    }

    fn tag_line(buf: &[u8]) -> Option<usize> {
        one_tag_line(buf, &mut Events::new(buf, 0))
    }

    #[test]
    fn one_tag_lines() {
        assert_eq!(tag_line(b"[A \"b\"]\n["), Some(7));
        assert_eq!(tag_line(b"[A \"b\"]"), Some(7));
        assert_eq!(tag_line(b"[A \"b\"]\r\n"), Some(7));
        assert_eq!(tag_line(b"[A \"b\"] \n"), None);
        assert_eq!(tag_line(b"[A \"b\\\"\"]\n"), None);
        assert_eq!(tag_line(b"[A] \"b\"]\n"), None);
        assert_eq!(tag_line(b"[A \"b\"][C \"d\"]\n"), None);
        assert_eq!(tag_line(b"[A \"b\"] 1. e4\n"), None);
    }

    fn segment(buf: &[u8], depth: u32) -> Segment {
        scan_segment(buf, &mut Events::new(buf, 0), 0, depth)
    }

    #[test]
    fn segments() {
        let buf = b"1. e4 { [%clk 0:03:00] } 1... e5 { x } \n";
        let s = segment(buf, 0);
        assert_eq!(s.end, SegmentEnd::Line(buf.len() - 1));
        assert_eq!(s.token.map(|(a, b)| &buf[a..b]), Some(&b" 1... e5"[..]));
        let buf = b"(1. e4 (e5)) 1-0 {open\n";
        let s = segment(buf, 0);
        assert_eq!(
            s.end,
            SegmentEnd::Comment {
                open: 17,
                scanned: 22
            }
        );
        assert_eq!(s.depth, 0);
        assert_eq!(s.token, Some((0, 16)));
        assert_eq!(segment(b"e4 ; c\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"e4 }\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"{a {b}\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"(e4", 2).depth, 3);
        assert_eq!(segment(b"e4)))", 2).depth, 0);
    }

    #[test]
    fn results_at_the_end() {
        let yes: &[&[u8]] = &[b"1-0", b"e4 0-1", b"\t1/2-1/2", b"*", b"h6*", b"e4 x*"];
        let no: &[&[u8]] = &[
            b"",
            b"11-0",
            b"e4",
            b"e4 0-11",
            b"x1/2-1/2",
            b"1-0)",
            b"Nf1",
            b"-0",
        ];
        for t in yes {
            assert!(ends_in_result(t, 0, t.len()), "{t:?}");
        }
        for t in no {
            assert!(!ends_in_result(t, 0, t.len()), "{t:?}");
        }
    }
}
