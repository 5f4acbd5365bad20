//! Game splitting: where each game starts and ends in a byte buffer.
//!
//! This is the one serial stage of a run, so it looks at each line once and
//! finds comment ends and line ends with `memchr`. It works on raw bytes in
//! UTF-8, Latin-1, GBK and Big5 (for the double-byte encodings, pass
//! `dbcs = true` so that trail bytes equal to `{` or `}` are stepped over).
//!
//! A game is a tag section and its movetext, or movetext alone. The rules are
//! those of python-chess's `read_game`, line by line, outside comments:
//! - blank lines and lines starting with `%` or `;` before a game belong to
//!   no game;
//! - in the tag section one blank line is allowed between tags; a second one
//!   ends the game (it has no movetext);
//! - in the movetext a blank line ends the game, and a `{` comment runs until
//!   its `}` whatever lines it spans (a `[` inside a comment never starts a
//!   game; an unterminated comment runs to the end of the input).
//!
//! Deliberate differences from python-chess, all for real files:
//! - a line starting with `[` after movetext starts the next game (exports
//!   that run games together without a blank line; python-chess would read
//!   the next game's tags as moves of this one);
//! - a line holding only a result token after blank lines still belongs to
//!   the game (the CCPD xiangqi files put `0-1` after a blank line; python-chess
//!   would count it as a game of its own).
//!
//! Kept from python-chess on purpose, so that a differential test against it
//! sees the same games: a blank line inside movetext ends the game even when
//! more moves follow (kokopu's `misc.pgn` has an annotated game written that
//! way; both readers see three games there).
//!
//! A third: after a blank line in a tag section, a tag with the name of the
//! game's first tag (`[Game ...]`, `[Event ...]`) starts the next game. Games
//! with tags and no moves are written that way (the CCPD xiangqi files);
//! python-chess runs such a game into the next one. A blank line followed by
//! other tags stays inside the tag section, as ChessBase writes it.
//!
//! And one for tag lines that carry movetext (`[Variant "x"] 1. e4 ...`):
//! such a line starts the movetext, where python-chess ignores the line as a
//! malformed tag and runs the next game into this one.
//!
//! A game's span runs from the first byte of its first line to the end (line
//! terminator included) of its last non-blank line, so every byte belongs to
//! at most one game. Splitting a buffer in windows gives the same spans as
//! splitting it whole: a window returns where the first game it could not
//! finish starts, and the next window starts there.

use super::lines::{self, is_blank, skip_spaces};
use super::tag::{char_len, scan_tag};

/// Where one game is in its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameSpan {
    /// Byte offset of the game's first byte in the (decompressed) source.
    pub offset: u64,
    /// 1-based line where the game starts.
    pub line: u64,
    /// Length in bytes.
    pub len: usize,
}

impl GameSpan {
    /// The game's bytes in `buf`, whose first byte is at source offset
    /// `buf_offset`; `None` when the span is not inside `buf`.
    pub fn slice<'b>(&self, buf: &'b [u8], buf_offset: u64) -> Option<&'b [u8]> {
        let start = usize::try_from(self.offset.checked_sub(buf_offset)?).ok()?;
        buf.get(start..start.checked_add(self.len)?)
    }

    /// Source offset one past the game's last byte.
    pub fn end(&self) -> u64 {
        self.offset + self.len as u64
    }
}

/// A place in a source: byte offset and the 1-based line that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    pub offset: u64,
    pub line: u64,
}

impl Position {
    /// The start of a source.
    pub const START: Position = Position { offset: 0, line: 1 };
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Between,
    Headers { blank_seen: bool },
    Movetext,
    MovetextBlank,
}

/// Splits the whole of `bytes` (one source, from its first byte).
pub fn split_all(bytes: &[u8], dbcs: bool) -> Vec<GameSpan> {
    let mut out = Vec::new();
    split_window(bytes, Position::START, true, dbcs, &mut out);
    out
}

/// Finds the games of `buf`, whose first byte is at `start` in its source and
/// is the start of a line outside any game (the source's start, or a
/// position this function returned). Appends every game whose end is known
/// to `out` and returns where the next window must start: the start of the
/// first unfinished game or line. With `is_final`, `buf` runs to the end of
/// the source and everything is finished (the return value is its end).
///
/// A caller that gets back `start` with no new games must grow the window
/// (doubling keeps the total work linear).
pub fn split_window(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    out: &mut Vec<GameSpan>,
) -> Position {
    let mut s = Splitter {
        buf,
        dbcs,
        is_final,
        base: start.offset,
        pos: 0,
        line: start.line,
        state: State::Between,
        game_start: 0,
        game_line: start.line,
        content_end: 0,
        first_tag: (0, 0),
    };
    if start.offset == 0 {
        if buf.starts_with(BOM) {
            s.pos = BOM.len();
        } else if !is_final && buf.len() < BOM.len() && BOM.starts_with(buf) {
            return start;
        }
    }
    s.run(out)
}

struct Splitter<'a> {
    buf: &'a [u8],
    dbcs: bool,
    is_final: bool,
    base: u64,
    pos: usize,
    line: u64,
    state: State,
    game_start: usize,
    game_line: u64,
    /// End (terminator included) of the current game's last non-blank line.
    content_end: usize,
    /// Where the name of the current game's first tag is (empty if none).
    first_tag: (usize, usize),
}

/// What scanning a line of movetext found.
enum Scan {
    /// The line (maybe after a multi-line comment) is done.
    Done,
    /// The buffer ended inside a comment or line before the game's end was known.
    Incomplete,
}

impl Splitter<'_> {
    fn run(&mut self, out: &mut Vec<GameSpan>) -> Position {
        loop {
            if self.pos >= self.buf.len() {
                return self.finish(out);
            }
            let Some((le, next)) = lines::line_end(self.buf, self.pos, self.is_final) else {
                return self.resume();
            };
            let line_start = self.pos;
            let first = self.buf.get(line_start).copied();
            let escape = matches!(first, Some(b'%' | b';'));
            let blank = is_blank(self.buf, line_start, le);
            match self.state {
                State::Between => {
                    if blank || escape {
                        self.advance(next);
                        continue;
                    }
                    self.game_start = line_start;
                    self.game_line = self.line;
                    self.first_tag = (0, 0);
                    let p = skip_spaces(self.buf, line_start, le);
                    if self.buf.get(p) == Some(&b'[') {
                        self.first_tag = scan_tag(self.buf, p, le, self.dbcs).name;
                        if let Scan::Incomplete = self.tag_line(p, le, next) {
                            return self.resume();
                        }
                    } else {
                        self.state = State::Movetext;
                        if let Scan::Incomplete = self.movetext_line(p, le, next) {
                            return self.resume();
                        }
                    }
                }
                State::Headers { blank_seen } => {
                    if blank_seen && !blank && !escape && self.repeats_first_tag(line_start, le) {
                        // `[Game ...]` after a tag-only game and a blank line.
                        self.end_game(out);
                        continue;
                    }
                    if escape {
                        self.content_end = next;
                        self.advance(next);
                    } else if blank {
                        if blank_seen {
                            self.end_game(out);
                        } else {
                            self.state = State::Headers { blank_seen: true };
                        }
                        self.advance(next);
                    } else {
                        let p = skip_spaces(self.buf, line_start, le);
                        let scan = if self.buf.get(p) == Some(&b'[') {
                            self.tag_line(p, le, next)
                        } else {
                            self.state = State::Movetext;
                            self.movetext_line(p, le, next)
                        };
                        if let Scan::Incomplete = scan {
                            return self.resume();
                        }
                    }
                }
                State::Movetext => {
                    if first == Some(b'%') {
                        self.content_end = next;
                        self.advance(next);
                    } else if blank {
                        self.state = State::MovetextBlank;
                        self.advance(next);
                    } else if self.buf.get(skip_spaces(self.buf, line_start, le)) == Some(&b'[') {
                        // Next game's tags with no blank line before them.
                        self.end_game(out);
                    } else if let Scan::Incomplete = self.movetext_line(line_start, le, next) {
                        return self.resume();
                    }
                }
                State::MovetextBlank => {
                    if blank {
                        self.advance(next);
                    } else if self.is_result_line(line_start, le) {
                        self.state = State::Movetext;
                        self.content_end = next;
                        self.advance(next);
                    } else {
                        self.end_game(out);
                    }
                }
            }
        }
    }

    /// True when the line is a tag line whose first tag has the name of the
    /// current game's first tag: the start of the next game.
    fn repeats_first_tag(&self, line_start: usize, le: usize) -> bool {
        let p = skip_spaces(self.buf, line_start, le);
        if self.buf.get(p) != Some(&b'[') || self.first_tag.1 <= self.first_tag.0 {
            return false;
        }
        let name = scan_tag(self.buf, p, le, self.dbcs).name;
        match (
            self.buf.get(name.0..name.1),
            self.buf.get(self.first_tag.0..self.first_tag.1),
        ) {
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        }
    }

    fn advance(&mut self, next: usize) {
        self.pos = next;
        self.line += 1;
    }

    fn is_result_line(&self, from: usize, to: usize) -> bool {
        let a = skip_spaces(self.buf, from, to);
        let mut b = to;
        while b > a
            && self
                .buf
                .get(b - 1)
                .is_some_and(|&c| lines::is_space_byte(c))
        {
            b -= 1;
        }
        self.buf.get(a..b).is_some_and(lines::is_result)
    }

    fn end_game(&mut self, out: &mut Vec<GameSpan>) {
        if self.content_end > self.game_start {
            out.push(GameSpan {
                offset: self.base + self.game_start as u64,
                line: self.game_line,
                len: self.content_end - self.game_start,
            });
        }
        self.state = State::Between;
    }

    fn resume(&self) -> Position {
        let (at, line) = match self.state {
            State::Between => (self.pos, self.line),
            _ => (self.game_start, self.game_line),
        };
        Position {
            offset: self.base + at as u64,
            line,
        }
    }

    fn finish(&mut self, out: &mut Vec<GameSpan>) -> Position {
        if !self.is_final {
            return self.resume();
        }
        if self.state != State::Between {
            self.end_game(out);
        }
        Position {
            offset: self.base + self.buf.len() as u64,
            line: self.line,
        }
    }

    /// A line whose first non-blank byte (at `p`) is `[`: one or more tags,
    /// maybe followed by movetext.
    fn tag_line(&mut self, mut p: usize, le: usize, next: usize) -> Scan {
        loop {
            let t = scan_tag(self.buf, p, le, self.dbcs);
            p = skip_spaces(self.buf, t.end.max(p + 1), le);
            if p >= le {
                self.state = State::Headers { blank_seen: false };
                self.content_end = next;
                self.advance(next);
                return Scan::Done;
            }
            if self.buf.get(p) != Some(&b'[') {
                self.state = State::Movetext;
                return self.movetext_line(p, le, next);
            }
        }
    }

    /// Scans movetext from `p` to the end of its line, following `{`
    /// comments across lines; on return the position is at the next line.
    fn movetext_line(&mut self, mut p: usize, mut le: usize, mut next: usize) -> Scan {
        loop {
            let open = if self.dbcs {
                self.find_open(p, le)
            } else {
                self.open_at_line_end(p, le)
            };
            match open {
                Some((q, b'{')) => match self.find_close(q + 1) {
                    // Closed on the same line: the usual `{ [%clk 0:03:00] }`.
                    Some(c) if c < le => p = c + 1,
                    Some(c) => {
                        self.line += lines::count_lines(self.buf.get(q..c).unwrap_or_default());
                        match lines::line_end(self.buf, c, self.is_final) {
                            Some((e, n)) => {
                                le = e;
                                next = n;
                                p = c + 1;
                            }
                            None => return Scan::Incomplete,
                        }
                    }
                    None if self.is_final => {
                        let rest = self.buf.get(q..).unwrap_or_default();
                        self.line += lines::count_lines(rest);
                        self.content_end = self.buf.len();
                        self.pos = self.buf.len();
                        return Scan::Done;
                    }
                    None => return Scan::Incomplete,
                },
                _ => {
                    // No comment left on this line (or a `;` comment to its end).
                    self.content_end = next;
                    self.advance(next);
                    return Scan::Done;
                }
            }
        }
    }

    /// Whether a `{` comment is open at the end of `buf[p..le]` (and the `{`
    /// after which it is open), with three vectorised passes instead of one
    /// call per comment: on a line with no `;`, the comment state at the end
    /// is decided by the last `{`. Whether it opened a comment or sat inside
    /// one, a comment is open right after it, and it closes at the first `}`
    /// after it. Lines with a `;` take the exact sequential scan.
    fn open_at_line_end(&self, p: usize, le: usize) -> Option<(usize, u8)> {
        let line = self.buf.get(p..le)?;
        if memchr::memchr(b';', line).is_some() {
            return self.find_open(p, le);
        }
        let last = memchr::memrchr(b'{', line)?;
        let after = line.get(last + 1..)?;
        if memchr::memchr(b'}', after).is_some() {
            None
        } else {
            Some((p + last, b'{'))
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
