//! Tag pairs (`[Name "value"]`): one scanner shared by the game splitter and
//! the tag iterator, so both agree on where a tag ends even when its value
//! holds escaped quotes or brackets (`[F "\"A]][\"\\"]`).
//!
//! A tag never runs past its line: a missing closing quote or bracket ends the
//! tag at the end of the line, so one broken tag cannot swallow a file.

use std::borrow::Cow;

use super::lines;

mod plain_line;
mod scan;

pub(crate) use scan::TagScan;

/// In a double-byte encoding (GBK, Big5) a byte >= 0x81 starts a two-byte
/// character whose second byte may equal `\`, `]`, `{` or `}`; such a trail
/// byte must be stepped over, never read as syntax.
#[inline]
pub(crate) fn char_len(buf: &[u8], i: usize, dbcs: bool, end: usize) -> usize {
    match buf.get(i) {
        Some(&b) if dbcs && b >= 0x81 && i + 1 < end => match buf.get(i + 1) {
            Some(b'\n' | b'\r') | None => 1,
            Some(_) => 2,
        },
        _ => 1,
    }
}

/// Scans the tag whose `[` is at `open`, not looking at or past `line_end`.
pub(crate) fn scan_tag(buf: &[u8], open: usize, line_end: usize, dbcs: bool) -> TagScan {
    let mut i = lines::skip_spaces(buf, open + 1, line_end);
    let name_start = i;
    if !dbcs {
        // Fast path: names are short ASCII words.
        while i < line_end {
            match buf.get(i) {
                Some(b'"' | b']' | b' ' | b'\t') | None => break,
                Some(&b) if lines::is_space_byte(b) => break,
                _ => i += 1,
            }
        }
    }
    while i < line_end {
        match buf.get(i) {
            Some(b'"' | b']') => break,
            Some(&b) if lines::is_space_byte(b) => break,
            _ => i += char_len(buf, i, dbcs, line_end),
        }
    }
    let name = (name_start, i.min(line_end));
    // Find the opening quote (or a closing bracket: a tag without a value).
    if !dbcs && buf.get(i) == Some(&b' ') && buf.get(i + 1) == Some(&b'"') {
        i += 1;
    }
    while i < line_end {
        match buf.get(i) {
            Some(b'"' | b']') => break,
            _ => i += char_len(buf, i, dbcs, line_end),
        }
    }
    if i >= line_end || buf.get(i) == Some(&b']') {
        let v = i.min(line_end);
        return TagScan {
            name,
            value: (v, v),
            end: (i + 1).min(line_end),
            may_escape: true,
        };
    }
    let value_start = i + 1;
    // A quote that neither a `]` nor the line's end follows (spaces
    // between allowed) was written inside the value unescaped (`[White
    // "O"Brien"]`, `[Event ""Huangshan Cup" 2002"]`): the value runs on to
    // the first quote that one of them follows, as python-chess 1.11.2
    // reads it. Without such a quote, the value ends at its first one.
    let first_quote = next_quote(buf, value_start, line_end, dbcs);
    let mut quote = first_quote;
    while quote < line_end && !closes_value(buf, quote, line_end) {
        quote = next_quote(buf, quote + 1, line_end, dbcs);
    }
    if quote >= line_end {
        quote = first_quote;
    }
    i = quote;
    let value_end = i.min(line_end);
    // Skip to the closing bracket; if there is none, the tag ends with the line.
    i = (i + 1).min(line_end);
    if !dbcs && buf.get(i) == Some(&b']') {
        return TagScan {
            name,
            value: (value_start, value_end),
            end: i + 1,
            may_escape: true,
        };
    }
    while i < line_end {
        match buf.get(i) {
            Some(b']') => {
                i += 1;
                break;
            }
            _ => i += char_len(buf, i, dbcs, line_end),
        }
    }
    TagScan {
        name,
        value: (value_start, value_end),
        end: i.min(line_end),
        may_escape: true,
    }
}

/// The first quote at or after `from` that a backslash does not escape,
/// or `line_end` (or past it) when there is none before the line's end.
fn next_quote(buf: &[u8], from: usize, line_end: usize, dbcs: bool) -> usize {
    let mut i = from;
    if !dbcs {
        // Fast path: jump between quotes and backslashes.
        while i < line_end {
            let hay = buf.get(i..line_end).unwrap_or_default();
            match memchr::memchr2(b'"', b'\\', hay) {
                Some(k) if buf.get(i + k) == Some(&b'\\') => i += k + 2,
                Some(k) => return i + k,
                None => return line_end,
            }
        }
        return i;
    }
    while i < line_end {
        match buf.get(i) {
            Some(b'"') => break,
            Some(b'\\') => i += 2,
            _ => i += char_len(buf, i, dbcs, line_end),
        }
    }
    i
}

/// Whether the quote at `quote` can close a tag's value: a `]` or the
/// line's end follows it, after spaces.
fn closes_value(buf: &[u8], quote: usize, line_end: usize) -> bool {
    let after = lines::skip_spaces(buf, quote + 1, line_end);
    after >= line_end || buf.get(after) == Some(&b']')
}

/// Whether a tag's value, `buf[start..end]` (a [`TagScan::value`]), opened
/// with a quote and ran to its line end without the closing one (the value
/// was ended there).
#[inline]
pub(crate) fn value_left_open(buf: &[u8], (start, end): (usize, usize)) -> bool {
    start > 0 && buf.get(start - 1) == Some(&b'"') && buf.get(end) != Some(&b'"')
}

/// What [`open_value_lines`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpenValue {
    /// The value does not go on: the next line is read as usual.
    No,
    /// `count` lines go on with the value; the line after them starts at
    /// `next`.
    Lines { next: usize, count: u64 },
    /// The buffer ends before that is known (it is not final).
    Incomplete,
}

/// A tag value left open at its line end ([`value_left_open`]) goes on
/// over the lines after it (docs/pgn-dialect.md §3) up to the first line
/// whose text ends with `"]` (whitespace after it allowed), when that line
/// comes before any line that is blank, starts with `[` (after whitespace),
/// `%` or `;`, and before the end of the input: a long value that an editor
/// wrapped. `from` is the start of the line after the tag's. Those lines
/// belong to the tag section, never to the movetext; the value itself is
/// still ended at its line end (the game is a `parse_error`). Each line is
/// looked at once: the search stops at the next tag line.
pub(crate) fn open_value_lines(buf: &[u8], from: usize, is_final: bool) -> OpenValue {
    let mut at = from;
    let mut count = 0;
    loop {
        if at >= buf.len() {
            return if is_final {
                OpenValue::No
            } else {
                OpenValue::Incomplete
            };
        }
        if matches!(buf.get(at), Some(b'%' | b';')) {
            return OpenValue::No;
        }
        let Some((le, next)) = lines::line_end(buf, at, is_final) else {
            return OpenValue::Incomplete;
        };
        let text = lines::skip_spaces(buf, at, le);
        if text >= le || buf.get(text) == Some(&b'[') {
            return OpenValue::No;
        }
        count += 1;
        let mut end = le;
        while end > text && buf.get(end - 1).copied().is_some_and(lines::is_space_byte) {
            end -= 1;
        }
        if buf.get(end.saturating_sub(2)..end) == Some(b"\"]") {
            return OpenValue::Lines { next, count };
        }
        at = next;
    }
}

/// One tag pair, borrowed from the game's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name as written (match it with [`Tag::name_is`]).
    pub name: &'a [u8],
    /// The value between the quotes, escapes not yet resolved.
    pub raw_value: &'a [u8],
    /// 1-based line of the tag in the source.
    pub line: u64,
}

impl<'a> Tag<'a> {
    /// Tag names are matched case-insensitively: writers use `[Fen]` for `[FEN]`.
    pub fn name_is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name.as_bytes())
    }

    /// The value with `\"` and `\\` resolved; borrowed when there is nothing
    /// to resolve, which is nearly always.
    pub fn value(&self) -> Cow<'a, [u8]> {
        unescape(self.raw_value)
    }
}

/// Resolves the two escapes of the PGN standard (`\"` and `\\`); any other
/// backslash is kept as written.
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if !has_backslash(raw) {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if let (b'\\', Some(&n @ (b'"' | b'\\'))) = (b, raw.get(i + 1)) {
            out.push(n);
            i += 2;
            continue;
        }
        out.push(b);
        i += 1;
    }
    Cow::Owned(out)
}

/// Whether `raw` holds a backslash: eight bytes per step (the last step
/// overlapping the one before), as a report asks it of seven tag values
/// of every game and `<[u8]>::contains` goes byte by byte on short slices.
#[inline]
fn has_backslash(raw: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Nonzero exactly when a byte of `w` is a backslash: the bytes of `x`
    // that are zero are those, and `(x - 0x01..) & !x & 0x80..` is nonzero
    // exactly when `x` has a zero byte.
    let hit = |w: &[u8; 8]| {
        let x = u64::from_le_bytes(*w) ^ (ONES * u64::from(b'\\'));
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    };
    match raw.len().checked_sub(8) {
        Some(last) => {
            raw.chunks_exact(8)
                .any(|w| w.first_chunk::<8>().is_some_and(hit))
                || raw
                    .get(last..)
                    .and_then(<[u8]>::first_chunk::<8>)
                    .is_some_and(hit)
        }
        None => raw.contains(&b'\\'),
    }
}

/// One step of walking a game's tag section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderItem {
    Tag(TagScan, u64),
    /// The movetext starts at this index, on this line.
    Movetext(usize, u64),
    /// The game has no movetext.
    End,
}

/// Walks the tag section line by line: blank lines and `%`/`;` lines are
/// skipped, several tags may share a line, and the first byte that is not a
/// tag starts the movetext (even on a tag's line).
///
/// A line that is exactly one well-formed tag (`[Name "value"]` and a line
/// end), which is nearly every tag line in real files, is read as
/// [`plain_tag_line`] reads it, 16 bytes at a time, without finding the
/// line end first; everything else
/// goes through [`scan_tag`] within the line's bounds.
#[derive(Debug, Clone)]
pub(crate) struct HeaderCursor {
    pos: usize,
    line_start: usize,
    /// `(content_end, next_line_start)` of the current line, once needed.
    bounds: Option<(usize, usize)>,
    line: u64,
}

/// `[Name "value"]` followed by `\n`, `\r\n` or the end of `buf`, at `open`:
/// the tag and the start of the next line. `None` for anything else (spaces,
/// escapes, a second tag on the line, a missing quote), which the general
/// scanner then reads. One reader for the splitter and the tag walk.
pub(crate) use plain_line::read as plain_tag_line;

impl HeaderCursor {
    pub(crate) fn new(line: u64) -> Self {
        HeaderCursor {
            pos: 0,
            line_start: 0,
            bounds: None,
            line,
        }
    }

    /// A cursor at `start`, the start of a line of the tag section, which
    /// is line `line`: where [`HeaderCursor::new`] would be after reading
    /// the lines before.
    fn at_line(start: usize, line: u64) -> Self {
        HeaderCursor {
            pos: start,
            line_start: start,
            bounds: None,
            line,
        }
    }

    /// Moves to the start of the next line.
    #[inline]
    fn next_line_at(&mut self, next: usize) {
        self.line_start = next;
        self.pos = next;
        self.line += 1;
        self.bounds = None;
    }

    pub(crate) fn next(&mut self, buf: &[u8]) -> HeaderItem {
        loop {
            if self.pos >= buf.len() {
                return HeaderItem::End;
            }
            if self.pos == self.line_start
                && buf.get(self.pos) == Some(&b'[')
                && let Some((scan, next)) = plain_tag_line(buf, self.pos)
            {
                let line = self.line;
                if next >= buf.len() {
                    self.pos = buf.len();
                } else {
                    self.next_line_at(next);
                }
                return HeaderItem::Tag(scan, line);
            }
            if self.pos == self.line_start {
                // The usual lines after a tag section, read without finding
                // their end first (the movetext line is the game's longest),
                // exactly as the general path below reads them: an empty
                // line, and a line that starts with a byte that is neither
                // whitespace nor one of `%`, `;`, `[` (so not an escape, not
                // blank, not a tag).
                match buf.get(self.pos) {
                    Some(b'\n') => {
                        let next_line = self.pos + 1;
                        if next_line >= buf.len() {
                            self.pos = buf.len();
                            return HeaderItem::End;
                        }
                        self.next_line_at(next_line);
                        continue;
                    }
                    Some(&b) if b > b' ' && b < 0x80 && !matches!(b, b'%' | b';' | b'[') => {
                        let p = self.pos;
                        self.pos = buf.len();
                        return HeaderItem::Movetext(p, self.line);
                    }
                    _ => {}
                }
            }
            let (line_end, next_line) = match self.bounds {
                Some(b) => b,
                None => {
                    let b = lines::line_end(buf, self.line_start, true)
                        .unwrap_or((buf.len(), buf.len()));
                    self.bounds = Some(b);
                    b
                }
            };
            let escape_line = self.pos == self.line_start
                && buf.get(self.pos).is_some_and(|&b| b == b'%' || b == b';');
            let p = lines::skip_spaces(buf, self.pos, line_end);
            if escape_line || p >= line_end {
                if next_line >= buf.len() || next_line <= self.line_start {
                    self.pos = buf.len();
                    return HeaderItem::End;
                }
                self.next_line_at(next_line);
                continue;
            }
            if buf.get(p) != Some(&b'[') {
                self.pos = buf.len();
                return HeaderItem::Movetext(p, self.line);
            }
            let s = scan_tag(buf, p, line_end, false);
            self.pos = s.end.max(p + 1);
            let line = self.line;
            if value_left_open(buf, s.value)
                && let OpenValue::Lines { next, count } = open_value_lines(buf, next_line, true)
            {
                // The lines that go on with the value are part of the tag
                // section; the value stays ended at its line end.
                self.next_line_at(next);
                self.line += count;
            }
            return HeaderItem::Tag(s, line);
        }
    }
}

/// Walks the tag section of the game in `buf` (whose first byte is on
/// `line`), handing each tag to `on_tag`, and returns where the movetext
/// starts and its line (the end of `buf` when there is none).
///
/// The run of plain tag lines a game starts with (all of a lichess header)
/// is read in a tight loop here, each line as [`HeaderCursor`] would read
/// it; the cursor takes over at the first other line. `on_tag` is called
/// from one place, so that it is inlined into the loop: called from two,
/// it was a call per tag (112 instructions a tag on lichess headers).
#[inline]
pub(crate) fn walk_tag_section(
    buf: &[u8],
    line: u64,
    mut on_tag: impl FnMut(&TagScan),
) -> (usize, u64) {
    let mut pos = 0;
    let mut pos_line = line;
    let mut cursor: Option<HeaderCursor> = None;
    loop {
        let (scan, last) = match &mut cursor {
            None => {
                let plain = match buf.get(pos) {
                    Some(b'[') => plain_tag_line(buf, pos),
                    _ => None,
                };
                let Some((scan, next)) = plain else {
                    cursor = Some(HeaderCursor::at_line(pos, pos_line));
                    continue;
                };
                pos = next;
                pos_line += 1;
                (scan, next >= buf.len())
            }
            Some(cursor) => match cursor.next(buf) {
                HeaderItem::Tag(scan, _) => (scan, false),
                HeaderItem::Movetext(p, l) => return (p, l),
                HeaderItem::End => return (buf.len(), line),
            },
        };
        on_tag(&scan);
        if last {
            return (buf.len(), line);
        }
    }
}

/// Iterator over the tag pairs at the start of one game.
#[derive(Debug, Clone)]
pub struct Tags<'a> {
    buf: &'a [u8],
    cursor: HeaderCursor,
}

impl<'a> Tags<'a> {
    pub(crate) fn new(buf: &'a [u8], line: u64) -> Self {
        Tags {
            buf,
            cursor: HeaderCursor::new(line),
        }
    }
}

impl<'a> Iterator for Tags<'a> {
    type Item = Tag<'a>;

    fn next(&mut self) -> Option<Tag<'a>> {
        match self.cursor.next(self.buf) {
            HeaderItem::Tag(s, line) => Some(Tag {
                name: self.buf.get(s.name.0..s.name.1).unwrap_or_default(),
                raw_value: self.buf.get(s.value.0..s.value.1).unwrap_or_default(),
                line,
            }),
            HeaderItem::Movetext(..) | HeaderItem::End => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the movetext starts (byte, line) and how many tags come
    /// before it, worked out by hand for each kind of line that may follow
    /// a tag section: the cursor reads empty lines and lines starting with
    /// a plain byte without finding their end first, and everything else
    /// the general way.
    #[test]
    fn movetext_start_after_each_kind_of_line() {
        let cases: &[(&[u8], (usize, u64), usize)] = &[
            (b"[A \"b\"]\n\n1. e4", (9, 3), 1),
            (b"[A \"b\"]\n  1. e4", (10, 2), 1),
            (b"[A \"b\"]\n%x\n1. e4", (11, 3), 1),
            (b"[A \"b\"]\n\n", (9, 1), 1),
            (b"[A \"b\"]\n\n\n[C \"d\"]\ne4", (18, 5), 2),
            (b"[A \"b\"]\r\n\r\n1. e4", (11, 3), 1),
            ("[A \"b\"]\n\u{3000}e4".as_bytes(), (11, 2), 1),
            (b"[A \"b\"]\n;c\n\te4\n", (12, 3), 1),
            (b"[A \"b\"] e4\n", (8, 1), 1),
            (b"[A \"b\"]\n\x7fz", (8, 2), 1),
            (b"[A \"b\"]\n\n\xc3\xa9", (9, 3), 1),
            (b"[A \"b\"]\n[B  \"c\"]\n1.", (17, 3), 2),
            (b"[A \"b\"]\n\n[B \"c\"] {x}\n", (17, 3), 2),
            (b"[A \"b\"]\n\n\n", (10, 1), 1),
        ];
        for &(game, want, tags) in cases {
            let mut seen = 0;
            let got = walk_tag_section(game, 1, |_| seen += 1);
            assert_eq!(
                (got, seen),
                (want, tags),
                "{:?}",
                String::from_utf8_lossy(game)
            );
            let mut cursor = HeaderCursor::new(1);
            let mut seen = 0;
            let got = loop {
                match cursor.next(game) {
                    HeaderItem::Tag(..) => seen += 1,
                    HeaderItem::Movetext(p, l) => break (p, l),
                    HeaderItem::End => break (game.len(), 1),
                }
            };
            assert_eq!(
                (got, seen),
                (want, tags),
                "{:?}",
                String::from_utf8_lossy(game)
            );
        }
    }

    /// The word test answers as `contains` does, for every length up to
    /// 33, a backslash (or a near byte) at every place, and none.
    #[test]
    fn backslash_found_wherever_it_is() {
        for len in 0..34 {
            let plain = vec![b'a'; len];
            assert!(!has_backslash(&plain));
            for at in 0..len {
                for b in [b'\\', b'[', b']', 0x5d, 0xdc, 0x00, 0xff] {
                    let mut raw = plain.clone();
                    raw[at] = b;
                    assert_eq!(has_backslash(&raw), raw.contains(&b'\\'), "{len} {at} {b}");
                }
            }
        }
    }
}
