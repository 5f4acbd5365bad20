//! REFERENCE COPY, not shipped: src/pgn/tag.rs exactly as it was at commit
//! 178a3e3 (the tag reader shipped before the fast tag walk of issue 5),
//! kept as the oracle of the differential tests in tests/tokens_fast.rs.
//! Only the module doc and the `use` of `lines` (it names the crate instead
//! of `super`) are changed. Do not "fix" it: its behaviour is the
//! specification.
#![allow(dead_code)]

use std::borrow::Cow;

use pgnmill::pgn::lines;

/// Where the parts of one tag are, as indices into the scanned buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TagScan {
    pub name: (usize, usize),
    pub value: (usize, usize),
    /// First byte after the tag (after its `]`, or the line end).
    pub end: usize,
}

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
        };
    }
    i += 1;
    let value_start = i;
    if !dbcs {
        // Fast path: jump between quotes and backslashes.
        while i < line_end {
            let hay = buf.get(i..line_end).unwrap_or_default();
            match memchr::memchr2(b'"', b'\\', hay) {
                Some(k) if buf.get(i + k) == Some(&b'\\') => i += k + 2,
                Some(k) => {
                    i += k;
                    break;
                }
                None => i = line_end,
            }
        }
    }
    while i < line_end {
        match buf.get(i) {
            Some(b'"') => break,
            Some(b'\\') => i += 2,
            _ => i += char_len(buf, i, dbcs, line_end),
        }
    }
    let value_end = i.min(line_end);
    // Skip to the closing bracket; if there is none, the tag ends with the line.
    i = (i + 1).min(line_end);
    if !dbcs && buf.get(i) == Some(&b']') {
        return TagScan {
            name,
            value: (value_start, value_end),
            end: i + 1,
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
    if !raw.contains(&b'\\') {
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
/// end), which is nearly every tag line in real files, is read by
/// [`plain_tag_line`] without finding the line end first; everything else
/// goes through [`scan_tag`] within the line's bounds.
#[derive(Debug, Clone)]
pub(crate) struct HeaderCursor {
    pos: usize,
    line_start: usize,
    /// `(content_end, next_line_start)` of the current line, once needed.
    bounds: Option<(usize, usize)>,
    line: u64,
}

/// [`BYTE_CLASS`]: a byte of a tag name (ASCII letter, digit, `_`).
const NAME: u8 = 1;
/// [`BYTE_CLASS`]: a byte that ends a plain value (`"`, `\\`, a line end).
const VALUE_STOP: u8 = 2;

/// The bytes [`plain_tag_line`] looks for, as a table: one load per byte of
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

/// `[Name "value"]` followed by `\n`, `\r\n` or the end of `buf`, at `open`:
/// the tag and the start of the next line. `None` for anything else (spaces,
/// escapes, a second tag on the line, a missing quote), which the general
/// scanner then reads.
#[inline]
pub(crate) fn plain_tag_line(buf: &[u8], open: usize) -> Option<(TagScan, usize)> {
    let name_start = open + 1;
    let rest = buf.get(name_start..)?;
    let name_len = rest.iter().position(|&b| BYTE_CLASS[b as usize] != NAME)?;
    if name_len == 0 || rest.get(name_len..name_len + 2) != Some(&b" \""[..]) {
        return None;
    }
    let value_start = name_start + name_len + 2;
    // Values are short: a plain loop beats memchr's set-up here.
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
    };
    Some((scan, next))
}

impl HeaderCursor {
    pub(crate) fn new(_buf: &[u8], line: u64) -> Self {
        HeaderCursor {
            pos: 0,
            line_start: 0,
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
            return HeaderItem::Tag(s, self.line);
        }
    }
}

/// Walks the tag section of the game in `buf` (whose first byte is on
/// `line`), handing each tag to `on_tag`, and returns where the movetext
/// starts and its line (the end of `buf` when there is none).
pub(crate) fn walk_tag_section(
    buf: &[u8],
    line: u64,
    mut on_tag: impl FnMut(&TagScan),
) -> (usize, u64) {
    let mut cursor = HeaderCursor::new(buf, line);
    loop {
        match cursor.next(buf) {
            HeaderItem::Tag(scan, _) => on_tag(&scan),
            HeaderItem::Movetext(p, l) => return (p, l),
            HeaderItem::End => return (buf.len(), line),
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
            cursor: HeaderCursor::new(buf, line),
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
