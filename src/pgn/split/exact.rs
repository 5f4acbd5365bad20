//! The byte-exact line reader: reads the tags and the movetext of a line
//! whose end is known, byte by byte (`memchr` for comment and line ends),
//! following `{` comments across lines. It reads every encoding, GBK and
//! Big5 among them (their trail bytes are stepped over, so one equal to `{`
//! or `}` is not taken for a brace), and every line the vector reader does
//! not take. What it finds goes to the rules (`rules.rs`, `cuts.rs`).

use super::cuts::{self, CommentCut};
use super::{Scan, Splitter};
use crate::pgn::lines::{self, skip_spaces};
use crate::pgn::tag::{OpenValue, char_len, open_value_lines, scan_tag, value_left_open};

impl Splitter<'_> {
    /// A line whose text (at `p`) starts with `[`: one or more tags, maybe
    /// followed by movetext (rule 4).
    /// A tag value left open at the line end may go on over the next lines
    /// (`tag::open_value_lines`): they are taken with the line.
    pub(super) fn tag_line(&mut self, mut p: usize, le: usize, next: usize) -> Scan {
        loop {
            let t = scan_tag(self.buf, p, le, self.dbcs);
            p = skip_spaces(self.buf, t.end.max(p + 1), le);
            if p >= le {
                let (next, lines) = if value_left_open(self.buf, t.value) {
                    match open_value_lines(self.buf, next, self.is_final) {
                        OpenValue::No => (next, 0),
                        OpenValue::Lines { next, count } => (next, count),
                        OpenValue::Incomplete => return Scan::Incomplete,
                    }
                } else {
                    (next, 0)
                };
                self.game.tags_read(next);
                self.advance(next);
                self.line += lines;
                return Scan::Done;
            }
            if self.buf.get(p) != Some(&b'[') {
                self.game.movetext_after_tags();
                return self.movetext_line(p, le, next);
            }
        }
    }

    /// Scans movetext from `p` to the end of its line, following `{`
    /// comments across lines; on return the position is at the next line.
    pub(super) fn movetext_line(&mut self, mut p: usize, mut le: usize, mut next: usize) -> Scan {
        // Whether `p` follows a comment that ran across lines (then the
        // token before it may be a result that ends this line's game); only
        // a result read in this call counts: one on a line before is rule
        // 7's business, line by line. (A stretch the vector reader hands
        // over mid-line never follows a result: it hands over the stretch
        // that holds the result.)
        let mut after_comment = false;
        self.game.last_is_result = false;
        loop {
            // Before `line_text`, whose passes run to the line end: the next
            // game may start long before it (56,000 games on a line).
            let after_result = after_comment && self.game.last_is_result;
            if let Some(cut) =
                cuts::game_after_result(self.buf, p, le, self.game.depth, after_result, self.dbcs)
            {
                self.note_text(p, cut.result_end.max(p));
                self.game.content_end = cut.result_end;
                return Scan::Next {
                    at: cut.at,
                    le,
                    next,
                    tags: cut.next == cuts::NextGame::Tags,
                };
            }
            let (text_end, open) = self.line_text(p, le);
            self.note_text(p, text_end);
            match open {
                Some(q) => match self.find_close(q + 1) {
                    // Closed on the same line: the usual `{ [%clk 0:03:00] }`.
                    Some(c) if c < le => p = c + 1,
                    Some(c) => {
                        match cuts::comment_cut(self.buf, q, Some(c), self.is_final) {
                            CommentCut::None => {}
                            CommentCut::Cut(cut) => return self.cut(cut),
                            CommentCut::Incomplete => return Scan::Incomplete,
                        }
                        self.line += lines::count_lines(self.buf.get(q..c).unwrap_or_default());
                        match lines::line_end(self.buf, c, self.is_final) {
                            Some((e, n)) => {
                                le = e;
                                next = n;
                                p = c + 1;
                                after_comment = true;
                            }
                            None => return Scan::Incomplete,
                        }
                    }
                    None => match cuts::comment_cut(self.buf, q, None, self.is_final) {
                        CommentCut::Cut(cut) => return self.cut(cut),
                        CommentCut::Incomplete => return Scan::Incomplete,
                        CommentCut::None => {
                            // Final (else `Incomplete`): the comment runs
                            // to the end of the input.
                            let rest = self.buf.get(q..).unwrap_or_default();
                            self.line += lines::count_lines(rest);
                            self.game.content_end = self.buf.len();
                            self.pos = self.buf.len();
                            return Scan::Done;
                        }
                    },
                },
                _ => {
                    // No comment left on this line (or a `;` comment to its end).
                    self.game.content_end = next;
                    self.advance(next);
                    return Scan::Done;
                }
            }
        }
    }

    /// Records what the movetext `buf[from..to]` says about the game:
    /// whether it has a body (text outside comments), and whether its last
    /// token ends the main line (`1-0`, `*`, or a result glued to a move
    /// as in `1... h6*`, `Qxf7#1-0`). Comments closed within the range are
    /// cut off its end first; a `;` comment runs to the end of the range.
    fn note_text(&mut self, from: usize, to: usize) {
        let mut text = self.buf.get(from..to).unwrap_or_default();
        let mut depth = self.game.depth;
        if memchr::memchr2(b'(', b')', text).is_some() {
            depth = variation_depth(depth, text);
        }
        loop {
            while let [rest @ .., last] = text {
                if lines::is_space_byte(*last) || *last == b'\n' || *last == b'\r' {
                    text = rest;
                } else {
                    break;
                }
            }
            match (text.last(), memchr::memrchr(b'{', text)) {
                (Some(b'}'), Some(i)) => text = text.get(..i).unwrap_or_default(),
                _ => break,
            }
        }
        let last = text
            .split(|&b| lines::is_space_byte(b) || b == b'\n' || b == b'\r' || b == b'}')
            .rfind(|t| !t.is_empty());
        self.game
            .note_tokens(depth, last.map(lines::ends_main_line));
    }

    /// Where the movetext of `buf[p..le]` ends (at the line end, a `;` or
    /// a `{` comment open at the line end; comments closed on the line are
    /// inside it), and that comment's `{`.
    fn line_text(&self, p: usize, le: usize) -> (usize, Option<usize>) {
        if !self.dbcs
            && let Some(line) = self.buf.get(p..le)
            && memchr::memchr(b';', line).is_none()
        {
            match self.open_at_line_end(line) {
                Ok(Some(q)) => return (p + q, Some(p + q)),
                Ok(None) => return (le, None),
                Err(()) => {}
            }
        }
        // The exact sequential scan: a `;` may sit inside a comment.
        let mut i = p;
        loop {
            match self.find_open(i, le) {
                None => return (le, None),
                Some((q, b';')) => return (q, None),
                Some((q, _)) => match self.find_close(q + 1) {
                    Some(c) if c < le => i = c + 1,
                    _ => return (q, Some(q)),
                },
            }
        }
    }

    /// Whether a `{` comment is open at the end of `line` (which holds no
    /// `;`), and the `{` that opens it, with a few vectorised passes
    /// instead of one call per comment: the comment state at the end is
    /// decided by the last `{` (a comment is open right after it, and it
    /// closes at the first `}` after it); it opened the comment when no
    /// `{` comes before it.
    /// `Err` when an earlier `{` may have opened that comment: the caller
    /// then scans sequentially.
    fn open_at_line_end(&self, line: &[u8]) -> Result<Option<usize>, ()> {
        let Some(last) = memchr::memrchr(b'{', line) else {
            return Ok(None);
        };
        let after = line.get(last + 1..).unwrap_or_default();
        if memchr::memchr(b'}', after).is_some() {
            Ok(None)
        } else if memchr::memchr(b'{', line.get(..last).unwrap_or_default()).is_some() {
            Err(())
        } else {
            Ok(Some(last))
        }
    }

    /// The first `{` or `;` in `buf[p..le]`.
    fn find_open(&self, p: usize, le: usize) -> Option<(usize, u8)> {
        if !self.dbcs {
            let hay = self.buf.get(p..le)?;
            let i = p + memchr::memchr2(b'{', b';', hay)?;
            return Some((i, *self.buf.get(i)?));
        }
        let mut i = p;
        while i < le {
            match self.buf.get(i) {
                Some(&b @ (b'{' | b';')) => return Some((i, b)),
                _ => i += char_len(self.buf, i, true, le),
            }
        }
        None
    }

    /// The first `}` at or after `p`, across lines.
    fn find_close(&self, p: usize) -> Option<usize> {
        if !self.dbcs {
            return memchr::memchr(b'}', self.buf.get(p..)?).map(|i| p + i);
        }
        let end = self.buf.len();
        let mut i = p;
        while i < end {
            match self.buf.get(i) {
                Some(b'}') => return Some(i),
                _ => i += char_len(self.buf, i, true, end),
            }
        }
        None
    }
}

/// The variation depth after `text`, starting from `depth`: parentheses
/// outside `{ }` comments, never below zero (a stray `)` is ignored).
fn variation_depth(mut depth: u32, text: &[u8]) -> u32 {
    let mut i = 0;
    while let Some(j) = memchr::memchr3(b'(', b')', b'{', text.get(i..).unwrap_or_default()) {
        let at = i + j;
        match text.get(at) {
            Some(b'(') => depth = depth.saturating_add(1),
            Some(b')') => depth = depth.saturating_sub(1),
            _ => match memchr::memchr(b'}', text.get(at..).unwrap_or_default()) {
                Some(k) => i = at + k,
                None => break,
            },
        }
        i = i.max(at) + 1;
    }
    depth
}
