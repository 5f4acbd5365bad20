//! The comments of one main-line move, read only when a caller asks for
//! them (`--clocks`, `--plies`): the main-line tokenizer skips comments
//! without looking inside, and stays as fast as that.
//!
//! A move's comments are the `{...}` comments between its token and the
//! next main-line token (or the result, or the end of the text), outside
//! variations. The caller hands over that stretch of bytes, the *gap*,
//! which the tokenizer has already read past; this module reads it again
//! by the tokenizer's own rules (`;` to the line end and `%` lines are not
//! comments, a `{` inside them opens none; a `(` opens a variation whose
//! comments belong to its own moves).
//!
//! Which comments belong to the move is python-chess 1.11.2's rule
//! (`GameBuilder.visit_comment`): a comment goes to the move before it
//! while the reader is "in a variation" (has just read a move); right after
//! a `(` it is the *starting* comment of the next move instead, and stays
//! one until a move of the variation is read. So a comment after a closed
//! variation belongs to the main-line move when the variation's last
//! nested line read a move (`1. e4 (1. d4) {c}`: `c` is `e4`'s), and is
//! the next move's starting comment after an empty one (`1. e4 () {c}`).
//! A token counts as a move here when python-chess's move pattern could
//! match in it (`[a-h][1-8]`, castling, a null move); python-chess also
//! needs it to be legal, which a reader that knows no rules cannot check:
//! docs/pgn-dialect.md names that one difference.
//!
//! Each comment is handed out as python-chess keeps it: the text between
//! the braces less one leading and one trailing space (`{ [%clk 0:03:00] }`
//! is `[%clk 0:03:00]`); empty comments are dropped, as python-chess's
//! join drops them.

use super::movetext::find_close_brace;

/// The comments of one main-line move, in order; see the module docs.
#[derive(Debug, Clone)]
pub struct MoveComments<'a> {
    buf: &'a [u8],
    pos: usize,
    end: usize,
    /// python-chess's `in_variation`: a comment now belongs to the move.
    owned: bool,
}

/// The comments that belong to the main-line move whose token ends at
/// `from`, when the next main-line token (or the result, or the end of the
/// movetext) starts at `to`; offsets into `buf`, the game's bytes.
pub fn move_comments(buf: &[u8], from: usize, to: usize) -> MoveComments<'_> {
    let end = to.min(buf.len());
    MoveComments {
        buf,
        pos: from.min(end),
        end,
        owned: true,
    }
}

impl<'a> MoveComments<'a> {
    /// Whether `at` starts a line, where `%` starts an escape line.
    fn at_line_start(&self, at: usize) -> bool {
        at == 0 || matches!(self.buf.get(at.wrapping_sub(1)), Some(b'\n' | b'\r'))
    }

    /// The index of the line end at or after `at` (not past `end`).
    fn line_end(&self, at: usize) -> usize {
        let rest = self.buf.get(at..self.end).unwrap_or_default();
        memchr::memchr2(b'\n', b'\r', rest).map_or(self.end, |i| at + i)
    }

    /// `buf[at]` is `{`: the comment's text and the index after its `}`
    /// (the end of the gap for a comment that never closes).
    fn comment(&self, at: usize) -> (&'a [u8], usize) {
        let from = at + 1;
        let rest = self.buf.get(from..self.end).unwrap_or_default();
        match find_close_brace(rest) {
            Some(i) => (rest.get(..i).unwrap_or_default(), from + i + 1),
            None => (rest, self.end),
        }
    }

    /// `buf[at]` is `(`: skips the variation and any nested in it; returns
    /// the index after its `)` and whether python-chess would be "in a
    /// variation" there (the last line it closed had read a move since its
    /// `(`).
    fn variation(&self, at: usize) -> (usize, bool) {
        let mut depth = 1u64;
        let mut moved = false;
        let mut i = at + 1;
        while i < self.end {
            match self.buf.get(i) {
                Some(b'{') => i = self.comment(i).1,
                Some(b';') => i = self.line_end(i),
                Some(b'%') if self.at_line_start(i) => i = self.line_end(i),
                Some(b'(') => {
                    depth += 1;
                    moved = false;
                    i += 1;
                }
                Some(b')') => {
                    depth -= 1;
                    i += 1;
                    if depth == 0 {
                        return (i, moved);
                    }
                }
                Some(c) if is_separator(*c) => i += 1,
                _ => {
                    let token_end = self.token_end(i);
                    moved |= looks_like_a_move(self.buf.get(i..token_end).unwrap_or_default());
                    i = token_end;
                }
            }
        }
        (self.end, moved)
    }

    /// The end of the token starting at `at`: at least one byte on (a
    /// stray `}` is a token of its own).
    fn token_end(&self, at: usize) -> usize {
        let rest = self.buf.get(at + 1..self.end).unwrap_or_default();
        rest.iter()
            .position(|&c| is_separator(c) || matches!(c, b'{' | b'}' | b'(' | b')' | b';'))
            .map_or(self.end, |i| at + 1 + i)
    }
}

/// What a move's gap holds, read at once when it is simple: nothing the
/// walk of [`MoveComments`] stops at (`Some(None)`: moves numbers, NAGs,
/// spaces), or one comment and nothing else it stops at (`Some(Some(text))`,
/// the text as [`MoveComments`] hands it out, empty for an empty comment),
/// the lichess and chess.com case `{ [%clk 0:04:58] } 2.`. `None` for any
/// other gap (several comments, a variation, `;` or `%`, a comment that
/// does not close), which [`move_comments`] reads.
#[inline]
pub fn sole_comment(buf: &[u8], from: usize, to: usize) -> Option<Option<&[u8]>> {
    let gap = buf.get(from..to.min(buf.len()))?;
    let Some(open) = gap.iter().position(|&b| stops_the_walk(b)) else {
        return Some(None);
    };
    if gap.get(open) != Some(&b'{') {
        return None;
    }
    let body = gap.get(open + 1..)?;
    let close = find_close_brace(body)?;
    let rest = body.get(close + 1..)?;
    if rest.iter().any(|&b| stops_the_walk(b)) {
        return None;
    }
    Some(Some(stripped(body.get(..close)?)))
}

/// A byte [`MoveComments`] does something with between comments (a `%`
/// only at a line's start, which is not looked at here).
#[inline(always)]
pub(super) fn stops_the_walk(b: u8) -> bool {
    STOPS[usize::from(b)]
}

/// [`stops_the_walk`] as a table: one load a byte instead of four
/// comparisons.
static STOPS: [bool; 256] = {
    let mut table = [false; 256];
    table[b'{' as usize] = true;
    table[b'(' as usize] = true;
    table[b';' as usize] = true;
    table[b'%' as usize] = true;
    table
};

/// Bytes that separate tokens (python-chess's regex skips them).
fn is_separator(c: u8) -> bool {
    c.is_ascii_whitespace() || c == 0x0b
}

/// Whether python-chess's move pattern can match somewhere in `token`:
/// a square (`[a-h][1-8]`, which every SAN, UCI and drop move holds),
/// castling with letters or digits, or a null move.
fn looks_like_a_move(token: &[u8]) -> bool {
    let square = token
        .windows(2)
        .any(|w| matches!(w, [b'a'..=b'h', b'1'..=b'8']));
    square
        || [&b"O-O"[..], b"0-0", b"--", b"Z0", b"0000", b"@@@@"]
            .iter()
            .any(|m| memchr::memmem::find(token, m).is_some())
}

/// python-chess's comment text: less one leading space (`{ `) and one
/// space before the `}`.
fn stripped(body: &[u8]) -> &[u8] {
    let body = body.strip_prefix(b" ").unwrap_or(body);
    body.strip_suffix(b" ").unwrap_or(body)
}

impl<'a> Iterator for MoveComments<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        while self.pos < self.end {
            let at = self.pos;
            match self.buf.get(at) {
                Some(b'{') => {
                    let (body, next) = self.comment(at);
                    self.pos = next;
                    let text = stripped(body);
                    if self.owned && !text.is_empty() {
                        return Some(text);
                    }
                }
                Some(b'(') => {
                    // python-chess's `begin_variation` leaves the move's
                    // comments; reading a move in the variation returns.
                    (self.pos, self.owned) = self.variation(at);
                }
                Some(b';') => self.pos = self.line_end(at),
                Some(b'%') if self.at_line_start(at) => self.pos = self.line_end(at),
                _ => {
                    // Move numbers, NAGs, glyphs, spaces: on to the next
                    // byte that can start something.
                    let rest = self.buf.get(at + 1..self.end).unwrap_or_default();
                    self.pos = rest
                        .iter()
                        .position(|&c| stops_the_walk(c))
                        .map_or(self.end, |i| at + 1 + i);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comments(text: &str) -> Vec<String> {
        move_comments(text.as_bytes(), 0, text.len())
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect()
    }

    #[test]
    fn comments_are_stripped_of_one_space_each_side() {
        assert_eq!(comments(" { [%clk 0:03:00] } "), ["[%clk 0:03:00]"]);
        assert_eq!(comments("{  two  }{}{ }{  }"), [" two "]);
    }

    #[test]
    fn variations_own_their_comments() {
        assert_eq!(comments("{a} (1... d5 {b}) {c} $1 {d}"), ["a", "c", "d"]);
        // An empty variation leaves python-chess outside the move.
        assert_eq!(comments("{a} () {b}"), ["a"]);
        assert_eq!(comments("{a} (1... d5 ({x})) {b}"), ["a"]);
        assert_eq!(comments("{a} (1... d5 (1... c5)) {b}"), ["a", "b"]);
    }

    #[test]
    fn escapes_hide_braces() {
        assert_eq!(comments("; {x}\n{a}\n% {y}\n{b}"), ["a", "b"]);
        assert_eq!(comments("(e5 ; )\n) {a}"), ["a"]);
        // A stray `}` in a variation is passed over.
        assert_eq!(comments("(e5 } {x}) {a}"), ["a"]);
    }

    #[test]
    fn an_unclosed_comment_runs_to_the_end() {
        assert_eq!(comments("{a [%clk"), ["a [%clk"]);
    }

    /// The quick reading of a simple gap is the walk's, and any other gap
    /// is left to the walk.
    #[test]
    fn sole_comments_are_the_walks() {
        use proptest::prelude::*;
        let pieces = prop::sample::select(vec![
            " ",
            "{",
            "}",
            "(",
            ")",
            ";",
            "%",
            "\n",
            "1.",
            "1...",
            "$1",
            "!?",
            "e5",
            "a",
            "[%clk 0:01:00]",
        ]);
        proptest!(|(parts in prop::collection::vec(pieces, 0..12))| {
            let text = parts.concat();
            let walked = comments(&text);
            match sole_comment(text.as_bytes(), 0, text.len()) {
                Some(None) => prop_assert!(walked.is_empty(), "{:?}", text),
                Some(Some(one)) => {
                    let one = String::from_utf8_lossy(one).into_owned();
                    let want: Vec<String> = (!one.is_empty()).then_some(one).into_iter().collect();
                    prop_assert_eq!(walked, want, "{:?}", text);
                }
                None => {}
            }
        });
        assert_eq!(
            sole_comment(b" { [%clk 0:03:00] } 2. ", 0, 22),
            Some(Some(&b"[%clk 0:03:00]"[..]))
        );
        assert_eq!(sole_comment(b" 2. ", 0, 4), Some(None));
        assert_eq!(sole_comment(b" {a} {b} ", 0, 9), None);
    }
}
