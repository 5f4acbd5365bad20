//! Game splitting: where each game starts and ends in a byte buffer.
//!
//! This is the one serial stage of a run, so it reads the bytes once. In
//! UTF-8 and single-byte text a vector pass (`split_scan`) classifies 64
//! bytes at a time and the splitter visits only the bytes that matter to
//! it: line ends, braces, parentheses and `;` in movetext, quotes and `]`
//! in tags. One walk over those follows comments (across lines too),
//! variation depth and each line's end; the last token, for the result
//! test, is found backwards once per line. A run of one-tag lines, and a
//! run of lines that go on with the movetext, are each taken in one pass,
//! with no return to the line-by-line loop below. Lines that walk does not
//! model exactly (a `;` comment, a `{` inside a comment, a stray `}`, tag
//! lines of other shapes or with movetext after the tags) are read by the
//! byte-by-byte path from the start of the stretch, which finds comment
//! ends and line ends with `memchr`; the line-by-line loop decides the
//! other lines (blank lines, escapes, lines after a blank line or after a
//! result). The byte-by-byte path alone reads GBK and Big5 (pass `dbcs =
//! true`, so that trail bytes equal to `{` or `}` are stepped over). Both
//! paths give the same spans and resume positions on every input
//! (`tests/pgn/split_fast.rs`, against `split_window_bytewise`).
//!
//! A game is a tag section and its movetext, or movetext alone (the rules of
//! `docs/pgn-dialect.md` §2). Line by line, outside comments:
//! - blank lines and lines starting with `%` or `;` before a game belong to
//!   no game, and text made only of comments between games is not a game;
//! - in the tag section one blank line is allowed between tags; a second one
//!   ends the game (it has no movetext);
//! - a `{` comment runs until its `}` whatever lines it spans (a `[` inside a
//!   comment never starts a game; an unterminated comment runs to the end of
//!   the input);
//! - a line starting with `[` after movetext starts the next game (exports
//!   that run games together without a blank line);
//! - a result token at variation depth 0 ends the main line; a following
//!   line that starts with a digit or an ASCII letter starts a tagless game,
//!   while other text (a site's footer after a xiangqi game) stays with the
//!   game it follows;
//! - blank lines inside movetext do not end a game (annotated games, such as
//!   kokopu's `misc.pgn`, have them mid-game and inside variations), except
//!   that a main line starting again at move `1.` after a blank line is a new
//!   tagless game.
//!
//! Differences from python-chess's `read_game`, which ends a game at every
//! blank line and reads tags after movetext as moves, are listed with their
//! files in `testdata/pgn/count_games.py` and `testdata/expected/README.md`.
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

use super::boundary::{self, CommentCut};
use super::lines::{self, is_blank, skip_spaces};
use super::split_scan::{self, SegmentEnd};
use super::tag::{char_len, plain_tag_line, scan_tag};
use crate::simd::classify::Simd;

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

/// [`split_all`] with the byte-by-byte scan only: the reference the
/// vectorised scan is tested against (`tests/pgn/split_fast.rs`).
#[doc(hidden)]
pub fn split_all_bytewise(bytes: &[u8], dbcs: bool) -> Vec<GameSpan> {
    let mut out = Vec::new();
    split_window_bytewise(bytes, Position::START, true, dbcs, &mut out);
    out
}

/// [`split_window`] with the byte-by-byte scan only (see
/// [`split_all_bytewise`]).
#[doc(hidden)]
pub fn split_window_bytewise(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    out: &mut Vec<GameSpan>,
) -> Position {
    split_with(buf, start, is_final, dbcs, false, out)
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
    split_with(buf, start, is_final, dbcs, !dbcs, out)
}

/// [`split_window`], with the vectorised line scan when `fast` (never for
/// double-byte encodings, whose trail bytes the scan would misread).
fn split_with(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    fast: bool,
    out: &mut Vec<GameSpan>,
) -> Position {
    let mut s = Splitter {
        buf,
        dbcs,
        fast: fast && !dbcs,
        simd: Simd::detect(),
        is_final,
        base: start.offset,
        pos: 0,
        line: start.line,
        state: State::Between,
        game_start: 0,
        game_line: start.line,
        content_end: 0,
        has_body: false,
        ended_by_result: false,
        depth: 0,
        has_movetext: false,
        trailing_junk: false,
        first_tag: FirstTag::None,
    };
    if start.offset == 0 {
        if buf.starts_with(BOM) {
            s.pos = BOM.len();
        } else if !is_final && buf.len() < BOM.len() && BOM.starts_with(buf) {
            return start;
        }
    }
    #[cfg(target_arch = "x86_64")]
    if s.simd.has_avx2() {
        // SAFETY: `has_avx2` is true only when the processor was found to
        // have AVX2 (`Simd::detect`), all `run_avx2` needs to run.
        return unsafe { run_avx2(&mut s, out) };
    }
    s.run(out)
}

/// [`Splitter::run`] compiled with AVX2 enabled, so that the byte
/// classification (`split_scan::classify_avx2`) is inlined into the loops
/// that ask for it, not called once per 64 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2(s: &mut Splitter<'_>, out: &mut Vec<GameSpan>) -> Position {
    s.run(out)
}

struct Splitter<'a> {
    buf: &'a [u8],
    dbcs: bool,
    /// Lines are read with the vectorised scan of `split_scan`; lines it
    /// does not take (and all lines when false) with the byte-exact path.
    fast: bool,
    /// The vector instructions the fast path classifies bytes with.
    simd: Simd,
    is_final: bool,
    base: u64,
    pos: usize,
    line: u64,
    state: State,
    game_start: usize,
    game_line: u64,
    /// End (terminator included) of the current game's last non-blank line.
    content_end: usize,
    /// The current game has a tag or movetext outside comments: text made
    /// only of comments between two games is not a game.
    has_body: bool,
    /// The last movetext token so far is a result: the game is over, and
    /// movetext after it (past blank lines) starts a tagless game. Blank
    /// lines alone never end a game (docs/pgn-dialect.md §2, rule 8: a game without a result ends
    /// where the next tag section begins).
    ended_by_result: bool,
    /// Variation depth (parentheses outside comments) at the end of the
    /// movetext so far: a line after a blank line inside a variation never
    /// starts a game.
    depth: u32,
    /// The current game has movetext outside comments (not only tags and
    /// comments): only then can `1.` after a blank line start a new game.
    has_movetext: bool,
    /// Text that is not movetext followed the result (a site's footer, a
    /// signature): the rest up to the next tag section stays with the game.
    trailing_junk: bool,
    /// The current game's first tag, whose name a tag after a blank line
    /// in the tag section is compared with.
    first_tag: FirstTag,
}

/// Where the name of a game's first tag is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FirstTag {
    None,
    /// The name, found when the tag was read.
    Name(usize, usize),
    /// The tag's `[` and its line end: the fast path does not scan the
    /// name, which is only needed when a tag section has a blank line.
    Line(usize, usize),
}

/// What scanning a line of movetext found.
enum Scan {
    /// The line (maybe after a multi-line comment) is done.
    Done,
    /// The buffer ended inside a comment or line before the game's end was known.
    Incomplete,
    /// The game ended before its line did (`boundary::tag_after_result`;
    /// `content_end` is set): the next game's tags start at `at`, on the
    /// line that ends at `le` and is followed by the line at `next`.
    Tags { at: usize, le: usize, next: usize },
    /// A comment cut the game (`boundary::comment_cut`; `content_end` is
    /// set): the next game starts at the line at `at`, line number `line`.
    Cut { at: usize, line: u64 },
}

impl Splitter<'_> {
    #[inline(always)]
    fn run(&mut self, out: &mut Vec<GameSpan>) -> Position {
        loop {
            if self.pos >= self.buf.len() {
                return self.finish(out);
            }
            if self.fast {
                if self.one_tag_lines(out) {
                    continue;
                }
                match self.fast_movetext_line().map(|scan| self.settle(scan, out)) {
                    Some(Scan::Incomplete) => return self.resume(),
                    Some(_) => continue,
                    None => {}
                }
            } else if self.plain_tag_line() {
                continue;
            }
            let line_end = if self.fast {
                split_scan::line_end(self.simd, self.buf, self.pos, self.is_final)
            } else {
                lines::line_end(self.buf, self.pos, self.is_final)
            };
            let Some((le, next)) = line_end else {
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
                    self.begin_game(line_start);
                    let p = skip_spaces(self.buf, line_start, le);
                    if self.buf.get(p) == Some(&b'[') {
                        let (a, b) = scan_tag(self.buf, p, le, self.dbcs).name;
                        self.first_tag = FirstTag::Name(a, b);
                        let scan = self.tag_line(p, le, next);
                        if let Scan::Incomplete = self.settle(scan, out) {
                            return self.resume();
                        }
                    } else {
                        self.state = State::Movetext;
                        let scan = self.movetext_line(p, le, next);
                        if let Scan::Incomplete = self.settle(scan, out) {
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
                        if let Scan::Incomplete = self.settle(scan, out) {
                            return self.resume();
                        }
                    }
                }
                State::Movetext => {
                    if escape {
                        self.content_end = next;
                        self.advance(next);
                    } else if blank {
                        self.state = State::MovetextBlank;
                        self.advance(next);
                    } else if self.buf.get(skip_spaces(self.buf, line_start, le)) == Some(&b'[')
                        || self.starts_game_after_result(line_start, le)
                    {
                        // Next game's tags with no blank line before them, or
                        // movetext after a result: a new game starts here.
                        self.end_game(out);
                    } else if self.ended_by_result {
                        self.trailing_junk = true;
                        let scan = self.movetext_line(line_start, le, next);
                        if let Scan::Incomplete = self.settle(scan, out) {
                            return self.resume();
                        }
                    } else {
                        let scan = self.movetext_line(line_start, le, next);
                        if let Scan::Incomplete = self.settle(scan, out) {
                            return self.resume();
                        }
                    }
                }
                State::MovetextBlank => {
                    if blank {
                        self.advance(next);
                    } else if self.is_result_line(line_start, le) && !self.ended_by_result {
                        self.state = State::Movetext;
                        self.content_end = next;
                        self.ended_by_result = true;
                        self.advance(next);
                    } else if escape && !self.ended_by_result {
                        self.content_end = next;
                        self.advance(next);
                    } else if self.buf.get(skip_spaces(self.buf, line_start, le)) == Some(&b'[')
                        || self.starts_game_after_result(line_start, le)
                        || (self.depth == 0
                            && self.has_movetext
                            && self.starts_move_one(line_start, le))
                    {
                        // Tags, movetext after a result, or a main line that
                        // starts again at move 1 after a blank line: a new
                        // game (text after a result that is not movetext,
                        // such as a site's footer, stays with its game).
                        self.end_game(out);
                    } else {
                        // A blank line inside movetext: the game goes on.
                        self.state = State::Movetext;
                    }
                }
            }
        }
    }

    /// Ends the game where a line scan said it ends (`Scan::Tags`,
    /// `Scan::Cut`) and reads on: the next game's tags on the same line
    /// (in a loop, not by recursion: 56,000 games may share one line), or
    /// its lines from the cut. Returns `Done` or `Incomplete`.
    fn settle(&mut self, mut scan: Scan, out: &mut Vec<GameSpan>) -> Scan {
        loop {
            match scan {
                Scan::Tags { at, le, next } => {
                    self.end_game(out);
                    self.begin_game(at);
                    let (a, b) = scan_tag(self.buf, at, le, self.dbcs).name;
                    self.first_tag = FirstTag::Name(a, b);
                    scan = self.tag_line(at, le, next);
                }
                Scan::Cut { at, line } => {
                    self.end_game(out);
                    self.pos = at;
                    self.line = line;
                    return Scan::Done;
                }
                done => return done,
            }
        }
    }

    /// A game starts at `line_start`: resets what is known of the game.
    fn begin_game(&mut self, line_start: usize) {
        self.game_start = line_start;
        self.game_line = self.line;
        self.has_body = false;
        self.ended_by_result = false;
        self.depth = 0;
        self.has_movetext = false;
        self.trailing_junk = false;
        self.first_tag = FirstTag::None;
    }

    /// The usual tag line, `[Name "value"]` and its line end, starting a
    /// game or continuing a tag section with no blank line before it: takes
    /// it whole, as the general path would, without finding the line end,
    /// testing for blankness and scanning the tag in separate passes. Tag
    /// lines are most lines of a lichess or TWIC file.
    fn plain_tag_line(&mut self) -> bool {
        let starts_tags = match self.state {
            State::Between => true,
            State::Headers { blank_seen: false } => false,
            _ => return false,
        };
        if self.dbcs || self.buf.get(self.pos) != Some(&b'[') {
            return false;
        }
        let Some((scan, next)) = plain_tag_line(self.buf, self.pos) else {
            return false;
        };
        // Without its line end the line may go on in the next window.
        if !self.is_final && self.buf.get(next.wrapping_sub(1)) != Some(&b'\n') {
            return false;
        }
        if starts_tags {
            self.begin_game(self.pos);
            self.first_tag = FirstTag::Name(scan.name.0, scan.name.1);
        }
        self.has_body = true;
        self.state = State::Headers { blank_seen: false };
        self.content_end = next;
        self.advance(next);
        true
    }

    /// The fast path's [`Self::plain_tag_line`], for a run of lines: each
    /// line that is one tag (`split_scan::one_tag_line`) is taken whole, the
    /// run's lines with one vector pass, and so is an empty line after them.
    /// False when the line at `pos` is not such a tag line.
    ///
    /// The first line may start a game (between games, or ending the game
    /// before it, as a tag line does after movetext) or continue a tag
    /// section with no blank line before it. The general path would read
    /// each line to the same effect: a tag section line with nothing after
    /// the tag; and the empty line is the tag section's first blank line.
    #[inline(always)]
    fn one_tag_lines(&mut self, out: &mut Vec<GameSpan>) -> bool {
        let buf = self.buf;
        if buf.get(self.pos) != Some(&b'[') {
            return false;
        }
        let ends_game = match self.state {
            State::Between | State::Headers { blank_seen: false } => false,
            State::Movetext | State::MovetextBlank => true,
            State::Headers { blank_seen: true } => return false,
        };
        let mut ev = split_scan::Events::new(self.simd, buf, self.pos);
        let Some((first_end, mut pos)) =
            split_scan::one_tag_line(buf, &mut ev, self.pos, self.is_final)
        else {
            return false;
        };
        let mut taken = 1;
        while buf.get(pos) == Some(&b'[') {
            let Some((_, next)) = split_scan::one_tag_line(buf, &mut ev, pos, self.is_final) else {
                break;
            };
            taken += 1;
            pos = next;
        }
        if ends_game {
            self.end_game(out);
        }
        if self.state == State::Between {
            self.begin_game(self.pos);
            self.first_tag = FirstTag::Line(self.pos, first_end);
        }
        self.has_body = true;
        self.state = State::Headers { blank_seen: false };
        self.content_end = pos;
        self.pos = pos;
        self.line += taken;
        if let Some(next) = self.empty_line() {
            self.state = State::Headers { blank_seen: true };
            self.advance(next);
        }
        true
    }

    /// When the line at `pos` is empty and known to be complete, the start
    /// of the next line.
    fn empty_line(&self) -> Option<usize> {
        match self.buf.get(self.pos)? {
            b'\n' | b'\r' => split_scan::next_line(self.buf, self.pos, self.is_final),
            _ => None,
        }
    }

    /// A line that the general path would read with [`Self::movetext_line`]
    /// (movetext starting a game, following the tag section, or going on),
    /// read with the vectorised scan, with the lines after it that go on
    /// with the movetext. `None` for every other line (blank, `%` or `;`
    /// escape, tags, a line after a result that starts a new game, or any
    /// line after a blank line in movetext), which the general path then
    /// reads.
    ///
    /// The state may change before the line is known to be complete; when
    /// it is not, the caller resumes at the game's start, as the general
    /// path does (no game is ended here).
    #[inline(always)]
    fn fast_movetext_line(&mut self) -> Option<Scan> {
        let p = match self.state {
            State::Between | State::Headers { .. } => {
                let q = self.movetext_start()?;
                if self.state == State::Between {
                    self.begin_game(self.pos);
                }
                // After a blank line in the tag section, a tag repeating
                // the first one would start the next game, but this line
                // is not a tag.
                self.state = State::Movetext;
                q
            }
            State::Movetext => self.movetext_goes_on()?,
            State::MovetextBlank => return None,
        };
        Some(self.movetext_fast(p))
    }

    /// Where the movetext of the line at `pos` starts (its first non-blank
    /// byte), unless the line is blank, a `%` or `;` escape or starts with
    /// a tag. A line end right after the blanks is a blank line; so is the
    /// end of the buffer, which the general path reads.
    fn movetext_start(&self) -> Option<usize> {
        let first = *self.buf.get(self.pos)?;
        if matches!(first, b'%' | b';') {
            return None;
        }
        if first > b' ' && first < 0x80 && first != b'[' {
            // Not whitespace (nor the first byte of U+3000) nor a tag.
            return Some(self.pos);
        }
        let q = skip_spaces(self.buf, self.pos, self.buf.len());
        match self.buf.get(q)? {
            b'\n' | b'\r' | b'[' => None,
            _ => Some(q),
        }
    }

    /// In movetext, whether the line at `pos` goes on with the game's
    /// movetext, as the general path decides it (not blank, an escape,
    /// tags, or movetext after a result), and from where to read it.
    fn movetext_goes_on(&mut self) -> Option<usize> {
        let q = self.movetext_start()?;
        if self.ended_by_result {
            if !self.trailing_junk && self.buf.get(q).is_some_and(u8::is_ascii_alphanumeric) {
                return None;
            }
            self.trailing_junk = true;
        }
        Some(self.pos)
    }

    /// [`Self::movetext_line`] from `p`, with the line end not yet known,
    /// and on over the following lines while they go on with the movetext
    /// (and an empty line after them): each stretch of a line (up to a
    /// comment open at its end, then from that comment's end) is scanned by
    /// `split_scan::scan_segment`; an irregular stretch is read by
    /// `movetext_line` from its start, so the two paths agree byte for byte.
    #[inline(always)]
    fn movetext_fast(&mut self, mut p: usize) -> Scan {
        let buf = self.buf;
        let mut ev = split_scan::Events::new(self.simd, buf, p);
        loop {
            let seg = split_scan::scan_segment(buf, &mut ev, p, self.depth);
            if seg.end == SegmentEnd::Irregular {
                return match split_scan::line_end(self.simd, buf, p, self.is_final) {
                    Some((le, next)) => self.movetext_line(p, le, next),
                    None => Scan::Incomplete,
                };
            }
            // What `note_text` records for the text before the comment or
            // line end.
            self.depth = seg.depth;
            if let Some(e) = seg.token_end {
                self.has_body = true;
                self.has_movetext = true;
                self.ended_by_result |= self.depth == 0 && split_scan::ends_in_result(buf, p, e);
            }
            match seg.end {
                SegmentEnd::Line(le) => {
                    let Some(next) = split_scan::next_line(buf, le, self.is_final) else {
                        return Scan::Incomplete;
                    };
                    self.content_end = next;
                    self.advance(next);
                    if next == le + 2 {
                        // The `\n` of a `\r\n`.
                        ev.next();
                    }
                    if let Some(start) = self.movetext_goes_on() {
                        p = start;
                        continue;
                    }
                    if let Some(next) = self.empty_line() {
                        self.state = State::MovetextBlank;
                        self.advance(next);
                    }
                    return Scan::Done;
                }
                SegmentEnd::Eof | SegmentEnd::Irregular => {
                    if !self.is_final {
                        return Scan::Incomplete;
                    }
                    self.content_end = buf.len();
                    self.advance(buf.len());
                    return Scan::Done;
                }
                SegmentEnd::Comment { open, close, lines } => {
                    match boundary::comment_cut(buf, open, close, self.is_final) {
                        CommentCut::None => {}
                        CommentCut::Cut(cut) => return self.cut(cut),
                        CommentCut::Incomplete => return Scan::Incomplete,
                    }
                    self.line += lines;
                    match close {
                        Some(c) => p = c + 1,
                        None if self.is_final => {
                            self.content_end = buf.len();
                            self.pos = buf.len();
                            return Scan::Done;
                        }
                        None => return Scan::Incomplete,
                    }
                }
            }
        }
    }

    /// After the result, a line that starts like movetext or a damaged tag
    /// (a digit or an ASCII letter) starts a new game, unless text that is
    /// neither (`=====`, a footer in Chinese) came first.
    fn starts_game_after_result(&self, from: usize, to: usize) -> bool {
        self.ended_by_result
            && !self.trailing_junk
            && self
                .buf
                .get(skip_spaces(self.buf, from, to))
                .is_some_and(u8::is_ascii_alphanumeric)
    }

    /// The line starts with white's move number 1 (`1.` but not `1...`,
    /// which continues a game after white's first move), i.e. a main line
    /// that begins anew.
    fn starts_move_one(&self, from: usize, to: usize) -> bool {
        let p = skip_spaces(self.buf, from, to);
        matches!(self.buf.get(p..p + 2), Some(b"1.")) && self.buf.get(p + 2) != Some(&b'.')
    }

    /// True when the line is a tag line whose first tag has the name of the
    /// current game's first tag: the start of the next game.
    fn repeats_first_tag(&self, line_start: usize, le: usize) -> bool {
        let p = skip_spaces(self.buf, line_start, le);
        let first = match self.first_tag {
            FirstTag::None => return false,
            FirstTag::Name(a, b) => (a, b),
            FirstTag::Line(open, end) => scan_tag(self.buf, open, end, self.dbcs).name,
        };
        if self.buf.get(p) != Some(&b'[') || first.1 <= first.0 {
            return false;
        }
        let name = scan_tag(self.buf, p, le, self.dbcs).name;
        match (self.buf.get(name.0..name.1), self.buf.get(first.0..first.1)) {
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
        if self.content_end > self.game_start && self.has_body {
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
        self.has_body = true;
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
            // Before `line_text`, whose passes run to the line end: the next
            // game's tags may come long before it (56,000 games on a line).
            if let Some((at, result_end)) =
                boundary::tag_after_result(self.buf, p, le, self.depth, self.dbcs)
            {
                self.note_text(p, result_end);
                self.content_end = result_end;
                return Scan::Tags { at, le, next };
            }
            let (text_end, open) = self.line_text(p, le);
            self.note_text(p, text_end);
            match open {
                Some(q) => match self.find_close(q + 1) {
                    // Closed on the same line: the usual `{ [%clk 0:03:00] }`.
                    Some(c) if c < le => p = c + 1,
                    Some(c) => {
                        match boundary::comment_cut(self.buf, q, Some(c), self.is_final) {
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
                            }
                            None => return Scan::Incomplete,
                        }
                    }
                    None => match boundary::comment_cut(self.buf, q, None, self.is_final) {
                        CommentCut::Cut(cut) => return self.cut(cut),
                        CommentCut::Incomplete => return Scan::Incomplete,
                        CommentCut::None => {
                            // Final (else `Incomplete`): the comment runs
                            // to the end of the input.
                            let rest = self.buf.get(q..).unwrap_or_default();
                            self.line += lines::count_lines(rest);
                            self.content_end = self.buf.len();
                            self.pos = self.buf.len();
                            return Scan::Done;
                        }
                    },
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

    /// The game ends at a comment's cut (`content_end`); the next one
    /// starts at the cut's tag line.
    fn cut(&mut self, cut: boundary::Cut) -> Scan {
        self.content_end = cut.content_end;
        Scan::Cut {
            at: cut.next_game,
            line: self.line + cut.lines,
        }
    }

    /// Records what the movetext `buf[from..to]` says about the game:
    /// whether it has a body (text outside comments), and whether its last
    /// token is a result (`1-0`, `*`, or `*` glued to a move as in
    /// `1... h6*`). Comments closed within the range are cut off its end
    /// first; a `;` comment runs to the end of the range.
    fn note_text(&mut self, from: usize, to: usize) {
        let mut text = self.buf.get(from..to).unwrap_or_default();
        if memchr::memchr2(b'(', b')', text).is_some() {
            self.depth = variation_depth(self.depth, text);
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
        let Some(last) = text
            .split(|&b| lines::is_space_byte(b) || b == b'\n' || b == b'\r' || b == b'}')
            .rfind(|t| !t.is_empty())
        else {
            return;
        };
        self.has_body = true;
        self.has_movetext = true;
        // Sticky: after a result at depth 0 the main line is over, whatever
        // follows on the same game's lines.
        self.ended_by_result |= self.depth == 0 && (lines::is_result(last) || last.ends_with(b"*"));
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
