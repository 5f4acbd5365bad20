//! The game splitter's one pass over its lines: bytes are classified 64
//! at a time into a bitmask of the few bytes the splitter acts on (line
//! ends, braces, parentheses, `;`, or a tag's quotes and bracket), and only
//! the set bits are visited. Most bytes of a PGN file (moves, clock values,
//! tag values) are thus looked at by a vector compare, not by a loop.
//!
//! On x86_64 the classification uses AVX2 when the processor has it
//! (checked once per window with `is_x86_feature_detected!`) and SSE2,
//! which every x86_64 processor has, otherwise; other targets use a plain
//! loop. All three give the same masks (unit tests below). Only UTF-8 and
//! single-byte text take this path: in GBK or Big5 a trail byte may equal
//! `{` or `}`, so the splitter scans those with its byte-by-byte path.

use crate::pgn::lines;
use crate::simd::classify::{LINE_END, MOVETEXT, Simd, TAG};
use crate::simd::prefetch;

/// The class-`C` mask of the 64 bytes from `at` (fewer at the end of
/// `buf`: the bits past its end are clear).
#[inline(always)]
fn chunk_mask<const C: u8>(simd: Simd, buf: &[u8], at: usize) -> u64 {
    prefetch::ahead(buf, at);
    let rest = buf.get(at..).unwrap_or_default();
    if let Some(chunk) = rest.first_chunk::<CHUNK>() {
        return simd.classify::<C>(chunk);
    }
    let mut padded = [0u8; CHUNK];
    if let Some(head) = padded.get_mut(..rest.len()) {
        head.copy_from_slice(rest);
    }
    // `rest` is shorter than 64 bytes here.
    simd.classify::<C>(&padded) & ((1u64 << rest.len()) - 1)
}

/// Bytes classified at a time: one bit each in a `u64`.
const CHUNK: usize = 64;

/// The positions of the class-`C` bytes of `buf` from a start, in order.
pub(super) struct Events<'a, const C: u8> {
    simd: Simd,
    buf: &'a [u8],
    /// Position of bit 0 of `bits`.
    base: usize,
    /// The chunk's class bytes not yet returned.
    bits: u64,
}

impl<'a, const C: u8> Events<'a, C> {
    #[inline(always)]
    pub(super) fn new(simd: Simd, buf: &'a [u8], from: usize) -> Self {
        Events {
            simd,
            buf,
            base: from,
            bits: chunk_mask::<C>(simd, buf, from),
        }
    }

    /// The next class-`C` byte's position, `None` at the end of `buf`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub(super) fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            if !self.refill() {
                return None;
            }
        }
        let i = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(self.base + i)
    }

    /// Moves on to the next chunk and classifies it; false, with nothing
    /// changed, when `buf` ends before it.
    #[inline(always)]
    fn refill(&mut self) -> bool {
        // `base` is below `buf.len()`, which is at most isize::MAX.
        let base = self.base + CHUNK;
        if base >= self.buf.len() {
            return false;
        }
        self.base = base;
        self.bits = chunk_mask::<C>(self.simd, self.buf, base);
        true
    }

    /// The next class-`C` byte's position, taken only when it is `byte`:
    /// [`Self::next`] and a look at the byte. Otherwise nothing is taken,
    /// and [`Self::next`] returns that byte next (the chunk may have been
    /// refilled here, as [`Self::next`] would have).
    #[inline(always)]
    pub(super) fn next_if(&mut self, byte: u8) -> Option<usize> {
        // The next chunk, refilled as `next` would; none, or an empty
        // one, leaves nothing to take here.
        if self.bits == 0 {
            self.refill();
        }
        if self.bits == 0 {
            return None;
        }
        let at = self.base + self.bits.trailing_zeros() as usize;
        if self.buf.get(at) != Some(&byte) {
            return None;
        }
        self.bits &= self.bits - 1;
        Some(at)
    }
}

/// Where the line that holds `from` ends: `(content_end, next_line_start)`,
/// exactly as [`lines::line_end`] says, with one vector pass.
#[inline]
pub(super) fn line_end(
    simd: Simd,
    buf: &[u8],
    from: usize,
    is_final: bool,
) -> Option<(usize, usize)> {
    let le = Events::<LINE_END>::new(simd, buf, from)
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

/// When the line at `pos`, which starts with `[` and whose class-[`TAG`]
/// bytes `ev` returns next, is one tag and nothing else, in the shape
/// `[...."...."]` with no `\` and no `]` before the first quote: its line
/// end and the start of the next line (`None` if the line is not known to
/// be complete, see [`next_line`]). `None` for any other line, which the
/// general tag scanner then reads. Takes the line's class bytes from `ev`,
/// the line end's included.
///
/// For such a line the tag scanner (`tag::scan_tag`) stops its name at or
/// before the first quote, takes the value up to the second quote (no
/// escape can hide it) and the tag's end right after the `]`, which is the
/// line end: the line holds exactly one tag.
#[inline(always)]
pub(super) fn one_tag_line<'a>(
    buf: &'a [u8],
    ev: &mut Events<'a, TAG>,
    pos: usize,
    is_final: bool,
) -> Option<(usize, usize)> {
    if let Some(ends) = ev.plain_tag_line(buf) {
        return Some(ends);
    }
    if pos > ev.base {
        // The line may run past the chunk at hand: classify from its start.
        *ev = Events::new(ev.simd, buf, pos);
        if let Some(ends) = ev.plain_tag_line(buf) {
            return Some(ends);
        }
    }
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
    if le != close + 1 || !matches!(buf.get(le), Some(b'\n' | b'\r') | None) {
        return None;
    }
    let next = next_line(buf, le, is_final)?;
    if next == le + 2 {
        // The `\n` of a `\r\n`.
        ev.next();
    }
    Some((le, next))
}

impl Events<'_, TAG> {
    /// [`one_tag_line`] for the usual line, `[Name "value"]` and `\n` or
    /// `\r\n`, when it is within the chunk at hand: its first two class
    /// bytes are the quotes, and the next ones, right after the second
    /// quote, are the `]` and the line end; all are taken from the mask at
    /// once.
    #[inline(always)]
    fn plain_tag_line(&mut self, buf: &[u8]) -> Option<(usize, usize)> {
        let first = self.bits;
        let rest = first & first.wrapping_sub(1);
        let q2 = rest.trailing_zeros();
        if q2 > 60 {
            return None;
        }
        let run = rest >> q2;
        let at = self.base + q2 as usize;
        if run & 0b111 != 0b111
            || buf.get(self.base + first.trailing_zeros() as usize) != Some(&b'"')
        {
            return None;
        }
        let (taken, ends): (u64, _) = match buf.get(at..at + 3)? {
            b"\"]\n" => (0b111, (at + 2, at + 3)),
            b"\"]\r" if q2 <= 59 && run & 0b1111 == 0b1111 && buf.get(at + 3) == Some(&b'\n') => {
                (0b1111, (at + 2, at + 4))
            }
            _ => return None,
        };
        self.bits = rest & !(taken << q2);
        Some(ends)
    }
}

/// How the scan of one stretch of movetext stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SegmentEnd {
    /// At the line end at this position, outside comments.
    Line(usize),
    /// At the end of a comment that started on this line and went on past
    /// its end: it opens at `open`, closes at `close` (`None`: it runs to
    /// the end of the buffer), and holds `lines` line ends; `blank_line`
    /// when a whole line inside it is blank (only then can it cut its game,
    /// `cuts::comment_cut`).
    Comment {
        open: usize,
        close: Option<usize>,
        lines: u64,
        blank_line: bool,
    },
    /// At the end of the buffer, outside comments, with no line end.
    Eof,
    /// The line has a `;`, a `{` inside a comment, a `}` outside one, a
    /// `"` outside comments (a tag pair after a result has one, and
    /// movetext none), or a result at depth 0 with more text after it on
    /// the line: the splitter reads it with its byte-exact reader from the
    /// stretch's start, which applies `cuts::game_after_result`.
    Irregular,
}

/// What [`scan_segment`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Segment {
    pub end: SegmentEnd,
    /// Variation depth at the end of the stretch (parentheses outside
    /// comments, never below zero).
    pub depth: u32,
    /// Where the last token of the stretch's text (up to the comment open
    /// at its end, if any) ends, as [`token_end`] finds it.
    pub token_end: Option<usize>,
}

/// Scans the movetext from `from` to its line end, following `{ }`
/// comments within the line, or to the end of a comment open at the line
/// end, starting at variation depth `depth`. `ev` returns the
/// class-[`MOVETEXT`] bytes from `from` on; it is left after the byte the
/// scan stopped at.
///
/// Only regular lines are read here: no `;`, every `}` closing a comment,
/// no `{` inside a comment. On those, a comment open at the line end starts
/// at the line's last `{` and the parentheses outside comments are those
/// the splitter's byte-exact path counts, so both paths agree; any other
/// line is [`SegmentEnd::Irregular`].
#[inline(always)]
pub(super) fn scan_segment(
    buf: &[u8],
    ev: &mut Events<'_, MOVETEXT>,
    from: usize,
    mut depth: u32,
) -> Segment {
    // The last comment closed so far: where its `{` is, and the first byte
    // after its `}` (`from` while there is none).
    let mut last_open = from;
    let mut gap = from;
    let (end, to) = 'text: loop {
        // Outside comments.
        let Some(i) = ev.next() else {
            break (SegmentEnd::Eof, buf.len());
        };
        match buf.get(i).copied().unwrap_or_default() {
            b'\n' | b'\r' => break (SegmentEnd::Line(i), i),
            b'(' => depth = depth.saturating_add(1),
            b')' => depth = depth.saturating_sub(1),
            b'{' => {
                // The usual comment (a lichess `{ [%clk 0:03:00] }`) has
                // no class byte but its `}`: the first turn of the loop
                // below, without setting up its state.
                if let Some(j) = ev.next_if(b'}') {
                    last_open = i;
                    gap = j + 1;
                    continue;
                }
                // Inside the comment opened at `i`; past a line end, only
                // its `}` matters, as for the byte-exact path.
                let mut lines = 0;
                let mut crossed = false;
                // Whether a whole line inside the comment is blank, and
                // where the current line started (once `crossed`).
                let mut blank_line = false;
                let mut line_start = i;
                loop {
                    let Some(j) = ev.next() else {
                        let end = SegmentEnd::Comment {
                            open: i,
                            close: None,
                            lines,
                            blank_line,
                        };
                        break 'text (end, i);
                    };
                    match buf.get(j).copied().unwrap_or_default() {
                        b'}' if !crossed => {
                            last_open = i;
                            gap = j + 1;
                            break;
                        }
                        b'}' => {
                            let end = SegmentEnd::Comment {
                                open: i,
                                close: Some(j),
                                lines,
                                blank_line,
                            };
                            break 'text (end, i);
                        }
                        b'\n' => {
                            // The line's terminator starts at its `\r`, if any.
                            let end = if j > line_start && buf.get(j - 1) == Some(&b'\r') {
                                j - 1
                            } else {
                                j
                            };
                            blank_line |= crossed && lines::is_blank(buf, line_start, end);
                            line_start = j + 1;
                            lines += 1;
                            crossed = true;
                        }
                        b'\r' => {
                            // A `\r\n` counts once, at its `\n`.
                            if buf.get(j + 1) != Some(&b'\n') {
                                blank_line |= crossed && lines::is_blank(buf, line_start, j);
                                line_start = j + 1;
                                lines += 1;
                            }
                            crossed = true;
                        }
                        b'{' | b';' if !crossed => break 'text (SegmentEnd::Irregular, i),
                        _ => {}
                    }
                }
            }
            b'}' | b';' | b'"' => break (SegmentEnd::Irregular, i),
            b'-' | b'*' if depth == 0 && result_goes_on(buf, i) => {
                break (SegmentEnd::Irregular, i);
            }
            // One of the class's other bytes.
            _ => {}
        }
    };
    let token_end = if end == SegmentEnd::Irregular {
        None
    } else {
        token_end(buf, from, to, gap, last_open)
    };
    Segment {
        end,
        depth,
        token_end,
    }
}

/// Whether the `*` or `-` at `i`, outside comments, may be part of a result
/// token (`*`, a token ending in `*`, `1-0`, `0-1`, `1/2-1/2`) that more
/// text follows on its line (rule 7: another game may start there). Asked
/// only at those two bytes: a castling's `-` is turned down by the bytes
/// around it, and the usual result, the last token of its line, by the
/// line end after it. It may say yes where the byte-exact reader then
/// finds no new game (`1-0x y`, a result inside a token); never the other
/// way round.
#[inline(always)]
fn result_goes_on(buf: &[u8], i: usize) -> bool {
    let around = |before: usize, after: usize| buf.get(i.wrapping_sub(before)..i + after);
    let end = if buf.get(i) == Some(&b'*') {
        i + 1
    } else if matches!(around(1, 2), Some(b"1-0" | b"0-1")) {
        i + 2
    } else if around(3, 4) == Some(b"1/2-1/2") {
        i + 4
    } else {
        return false;
    };
    let mut j = end;
    while buf.get(j).copied().is_some_and(lines::is_space_byte) {
        j += 1;
    }
    !matches!(buf.get(j), Some(b'\n' | b'\r') | None)
}

/// Where the last token of the movetext `buf[from..to]` of a regular
/// stretch ends, as the splitter's byte-exact path (`note_text`) finds it:
/// whitespace and comments are cut off the end of the text, and the token
/// is the last run of bytes that are neither whitespace nor `}`. `gap` is
/// the first byte after the last comment in the text and `last_open` that
/// comment's `{` (both `from` when the text has no comment), so that the
/// usual case, a token after the last comment, takes no search. `None`
/// when the text has no token.
#[inline(always)]
fn token_end(buf: &[u8], from: usize, to: usize, gap: usize, last_open: usize) -> Option<usize> {
    let mut e = trim_end(buf, gap, to);
    if e > gap {
        // After the last comment, before any line end: no brace, and the
        // byte before `e` is not whitespace.
        return Some(e);
    }
    if gap > from {
        // Only whitespace after the last comment: cut it off, and any
        // comments and whitespace before it, as `note_text` does.
        e = last_open;
        loop {
            e = trim_end(buf, from, e);
            if e > from
                && buf.get(e - 1) == Some(&b'}')
                && let Some(k) = memchr::memrchr(b'{', buf.get(from..e).unwrap_or_default())
            {
                e = from + k;
                continue;
            }
            break;
        }
    }
    while e > from && buf.get(e - 1).copied().is_some_and(is_token_end) {
        e -= 1;
    }
    (e > from).then_some(e)
}

/// Bytes that end a token: whitespace, line ends and `}`.
#[inline(always)]
fn is_token_end(b: u8) -> bool {
    b == b'}' || (b <= b' ' && (lines::is_space_byte(b) || matches!(b, b'\n' | b'\r')))
}

/// Whether the token of `buf[from..end]` that ends at `end` (it starts
/// after the last whitespace byte, line end or `}` of the range) ends the
/// main line: a result (`1-0`, `0-1`, `1/2-1/2`, `*`), alone or glued to a
/// move (`Nf3*`, `Qxf7#1-0`). The byte-exact path's
/// `lines::ends_main_line(last)`, without finding where the token starts:
/// a token that ends in a result's text is one or the other.
#[inline(always)]
pub(super) fn ends_in_result(buf: &[u8], from: usize, end: usize) -> bool {
    let text = buf.get(from..end).unwrap_or_default();
    let result: &[u8] = match text.last() {
        Some(b'*') => return true,
        Some(b'0') => b"1-0",
        Some(b'1') => b"0-1",
        Some(b'2') => b"1/2-1/2",
        _ => return false,
    };
    text.ends_with(result)
}

/// `end` moved back over the whitespace (and line ends) before it, not
/// below `start`.
#[inline(always)]
fn trim_end(buf: &[u8], start: usize, mut end: usize) -> usize {
    while end > start
        && buf
            .get(end - 1)
            .is_some_and(|&b| lines::is_space_byte(b) || matches!(b, b'\n' | b'\r'))
    {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::classify::in_class;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
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
                for simd in [Simd::baseline(), Simd::detect()] {
                    let mut ev = Events::<MOVETEXT>::new(simd, &buf, from);
                    let got: Vec<usize> = std::iter::from_fn(|| ev.next()).collect();
                    assert_eq!(got, want, "{:?} from {from}", String::from_utf8_lossy(&buf));
                }
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
                        line_end(Simd::detect(), buf, from, is_final),
                        lines::line_end(buf, from, is_final),
                        "{buf:?} {from} {is_final}"
                    );
                }
            }
        }
    }

    fn tag_line(buf: &[u8]) -> Option<usize> {
        let ev = &mut Events::new(Simd::detect(), buf, 0);
        one_tag_line(buf, ev, 0, true).map(|(le, _)| le)
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
        scan_segment(buf, &mut Events::new(Simd::detect(), buf, 0), 0, depth)
    }

    #[test]
    fn segments() {
        let buf = b"1. e4 { [%clk 0:03:00] } 1... e5 { x } \n";
        let s = segment(buf, 0);
        assert_eq!(s.end, SegmentEnd::Line(buf.len() - 1));
        assert_eq!(s.token_end, Some(32));
        let buf = b"(1. e4 (e5)) Nf3 {open\n";
        let s = segment(buf, 0);
        assert_eq!(
            s.end,
            SegmentEnd::Comment {
                open: 17,
                close: None,
                lines: 1,
                blank_line: false
            }
        );
        assert_eq!(s.depth, 0);
        assert_eq!(s.token_end, Some(16));
        let buf = b"e4 {a\r\nb\rc\nd} e5\n";
        let s = segment(buf, 0);
        assert_eq!(
            s.end,
            SegmentEnd::Comment {
                open: 3,
                close: Some(12),
                lines: 3,
                blank_line: false
            }
        );
        for (buf, blank) in [
            (&b"e4 {a\n\nb} e5\n"[..], true),
            (b"e4 {a\r\n \t\r\nb} e5\n", true),
            (b"e4 {a\r\rb} e5\n", true),
            (b"e4 {a\n \xe3\x80\x80\nb} e5\n", true),
            (b"e4 {a\r\nb\nc\rd} e5\n", false),
            (b"e4 {\nb\n}\n", false),
            (b"e4 {a\nb\n\n", true),
        ] {
            let SegmentEnd::Comment { blank_line, .. } = segment(buf, 0).end else {
                panic!("{buf:?}");
            };
            assert_eq!(blank_line, blank, "{buf:?}");
        }
        assert_eq!(segment(b"e4 {a ; b\n}\n", 0).end, SegmentEnd::Irregular);
        assert!(matches!(
            segment(b"e4 {a\n ; { b}\n", 0).end,
            SegmentEnd::Comment { .. }
        ));
        assert_eq!(segment(b"e4 ; c\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"e4 }\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"1-0 [A \"b\"]\n", 0).end, SegmentEnd::Irregular);
        // A result with more after it on its line; not at its line end, nor
        // in a variation, nor a castling.
        for line in [
            &b"e4 * 1. d4\n"[..],
            b"e4 1-0 {c}\n",
            b"h6* e4\n",
            b"1/2-1/2 x\n",
        ] {
            assert_eq!(segment(line, 0).end, SegmentEnd::Irregular, "{line:?}");
        }
        for line in [
            &b"e4 1-0 \n"[..],
            b"e4 h6*",
            b"(e4 1-0 e5)\n",
            b"O-O O-O-O e4\n",
        ] {
            assert_ne!(segment(line, 0).end, SegmentEnd::Irregular, "{line:?}");
        }
        assert_eq!(
            segment(b"e4 {[%clk 0:03:00]}\n", 0).end,
            SegmentEnd::Line(19)
        );
        assert_eq!(segment(b"{a {b}\n", 0).end, SegmentEnd::Irregular);
        assert_eq!(segment(b"(e4", 2).depth, 3);
        assert_eq!(segment(b"e4)))", 2).depth, 0);
    }

    #[test]
    fn last_tokens() {
        let cases: &[(&[u8], Option<usize>, bool)] = &[
            (b"", None, false),
            (b"  ", None, false),
            (b"{a}", None, false),
            (b"e4 {a} {b} ", Some(2), false),
            (b"e4 {a}x", Some(7), false),
            (b"e4 {a}1-0", Some(9), true),
            (b"e4 {1-0}0-1 ", Some(11), true),
            (b"(e4 h6*) ", Some(8), false),
            (b"{a} e4 h6*", Some(10), true),
            // Glued to the move before it, as python-chess reads them.
            (b"e4 11-0", Some(7), true),
            (b"1/2-1/2", Some(7), true),
            (b"e4 x1/2-1/2", Some(11), true),
            (b"Qxf7#1-0", Some(8), true),
            (b"Nf30-1", Some(6), true),
            (b"Nf1", Some(3), false),
            (b"Rd1-d0", Some(6), false),
            (b"0-0-0", Some(5), false),
            (b"e2-e1", Some(5), false),
        ];
        for &(text, want, result) in cases {
            let mut ev = Events::new(Simd::detect(), text, 0);
            let seg = scan_segment(text, &mut ev, 0, 0);
            assert_eq!(seg.token_end, want, "{text:?}");
            assert_eq!(
                seg.token_end.is_some_and(|e| ends_in_result(text, 0, e)),
                result,
                "{text:?}"
            );
        }
    }
}
