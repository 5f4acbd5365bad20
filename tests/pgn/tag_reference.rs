//! The tag-pair reader written plainly, as the oracle of `tokens_fast.rs`:
//! the same tags (name, raw value, line) and movetext start and line as the
//! shipped reader. The rules (PGN standard 8.1, and what real files hold):
//! - the section is read line by line; blank lines and lines that start
//!   with `%` (escape) or `;` (comment) are skipped;
//! - a line may hold several tags, each after optional spaces: `[`, spaces,
//!   a name (up to a space, `"` or `]`), anything up to the `"` that opens
//!   the value, the value (`\` escapes the next byte) up to its `"` (the
//!   first one that a `]` or the line's end follows, after spaces, when
//!   one is: [`value_end`]), then anything up to the `]`; a tag without a value ends at its `]`, and any
//!   tag at the line end;
//! - the first other byte starts the movetext, even on a tag's line;
//! - a value left open at its line end (no closing quote) is ended there,
//!   and the lines after it up to the first whose text ends with `"]` are
//!   passed over, when that line comes before a blank line, a line that
//!   starts with `[` (after spaces), `%` or `;`, and the end of the text.

use crate::movetext_reference::{is_blank, space_len};
use crate::split_reference::value_end;

/// One tag pair, borrowed from the game's bytes.
#[derive(Clone, Copy)]
pub struct Tag<'a> {
    pub name: &'a [u8],
    /// The value between the quotes, escapes not resolved.
    pub raw_value: &'a [u8],
    pub line: u64,
}

/// Where a line's content ends (its first `\n` or `\r`) and the next line
/// starts (after `\n`, `\r\n` or a lone `\r`).
fn line_bounds(buf: &[u8], from: usize) -> (usize, usize) {
    match buf[from..].iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) if buf[from + i..].starts_with(b"\r\n") => (from + i, from + i + 2),
        Some(i) => (from + i, from + i + 1),
        None => (buf.len(), buf.len()),
    }
}

fn skip_spaces(buf: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && space_len(buf, i) > 0 {
        i += space_len(buf, i);
    }
    i.min(end)
}

/// The first index from `i` on whose byte `stop` accepts, or `end`.
fn scan(buf: &[u8], i: usize, end: usize, stop: impl Fn(u8) -> bool) -> usize {
    (i..end).find(|&j| stop(buf[j])).unwrap_or(end)
}

/// Reads the tag whose `[` is at `open`, within its line (which ends at
/// `end`): its name, its raw value, the index just past it, and whether its
/// value was left open at the line end.
fn read_tag(buf: &[u8], open: usize, end: usize) -> (&[u8], &[u8], usize, bool) {
    let name_start = skip_spaces(buf, open + 1, end);
    let name_end = scan(buf, name_start, end, |b| {
        is_blank(b) || b == b'"' || b == b']'
    });
    let name = &buf[name_start..name_end];
    let quote = scan(buf, name_end, end, |b| b == b'"' || b == b']');
    if quote == end || buf[quote] == b']' {
        return (name, &[], (quote + 1).min(end), false);
    }
    let i = value_end(&buf[..end], quote + 1);
    let raw_value = &buf[quote + 1..i.min(end)];
    let close = scan(buf, (i + 1).min(end), end, |b| b == b']');
    (name, raw_value, (close + 1).min(end), i >= end)
}

/// After a tag whose value was left open on the line that ends before
/// `next`: the start of the line after the lines that go on with the value
/// and how many they are, if any do.
fn open_value_lines(buf: &[u8], mut next: usize) -> Option<(usize, u64)> {
    let mut count = 0;
    while next < buf.len() {
        let (end, after) = line_bounds(buf, next);
        let text = skip_spaces(buf, next, end);
        if matches!(buf[next], b'%' | b';') || text >= end || buf[text] == b'[' {
            return None;
        }
        count += 1;
        let trimmed = buf[text..end]
            .iter()
            .rposition(|&b| !matches!(b, b' ' | b'\t' | 0x0b | 0x0c | 0x1c..=0x1f))
            .map_or(text, |k| text + k + 1);
        if buf[text..trimmed].ends_with(b"\"]") {
            return Some((after, count));
        }
        next = after;
    }
    None
}

/// The tags at the start of a game's text, in order.
#[derive(Default)]
pub struct Tags<'a> {
    buf: &'a [u8],
    pos: usize,
    line_start: usize,
    line: u64,
    /// Where the movetext starts, and its line, once the walk has met it.
    movetext: Option<(usize, u64)>,
}

impl<'a> Tags<'a> {
    /// The tags of `buf`, whose first byte is on `line`.
    pub fn new(buf: &'a [u8], line: u64) -> Self {
        Tags {
            buf,
            line,
            ..Tags::default()
        }
    }
}

impl<'a> Iterator for Tags<'a> {
    type Item = Tag<'a>;

    fn next(&mut self) -> Option<Tag<'a>> {
        let buf = self.buf;
        while self.pos < buf.len() {
            let (end, next_line) = line_bounds(buf, self.line_start);
            let escape = self.pos == self.line_start && matches!(buf[self.pos], b'%' | b';');
            let p = skip_spaces(buf, self.pos, end);
            if escape || p >= end {
                if next_line >= buf.len() {
                    break;
                }
                (self.pos, self.line_start, self.line) = (next_line, next_line, self.line + 1);
                continue;
            }
            if buf[p] != b'[' {
                self.movetext = Some((p, self.line));
                break;
            }
            let (name, raw_value, after, open) = read_tag(buf, p, end);
            self.pos = after.max(p + 1);
            let line = self.line;
            if let Some((start, count)) = open.then(|| open_value_lines(buf, next_line)).flatten() {
                (self.pos, self.line_start, self.line) = (start, start, self.line + 1 + count);
            }
            return Some(Tag {
                name,
                raw_value,
                line,
            });
        }
        self.pos = buf.len();
        None
    }
}

/// Walks the tag section of the game in `buf` (whose first byte is on
/// `line`), giving each tag to `on_tag`; returns where the movetext starts
/// and its line (the end of `buf` and `line` when there is none).
pub fn walk_tag_section<'a>(
    buf: &'a [u8],
    line: u64,
    mut on_tag: impl FnMut(&Tag<'a>),
) -> (usize, u64) {
    let mut tags = Tags::new(buf, line);
    tags.by_ref().for_each(|tag| on_tag(&tag));
    tags.movetext.unwrap_or((buf.len(), line))
}
