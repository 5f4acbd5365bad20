//! Game splitting: where each game starts and ends in a byte buffer.
//!
//! A game is a tag section and its movetext, or movetext alone; the rules
//! that say where one ends and the next begins are those of
//! `docs/pgn-dialect.md` §2, and they are written once, in `rules` (line
//! by line) and `cuts` (the cuts inside a line or a comment). This module
//! drives them over a buffer with two line readers that decide nothing:
//!
//! - the vector reader (`vector.rs`, over the classifier of `scan.rs`) for
//!   UTF-8 and single-byte text: 64 bytes are classified at a time and only
//!   the bytes that matter (line ends, braces, parentheses and `;` in
//!   movetext, quotes and `]` in tags) are visited; a run of one-tag lines,
//!   and a run of movetext lines, are each read in one pass. This is the
//!   one serial stage of a run, so it reads the bytes once;
//! - the byte-exact reader (`exact.rs`), which finds comment ends and line
//!   ends with `memchr`, reads every line the vector reader does not take
//!   (a `;` comment, a `{` inside a comment, a stray `}`, tag lines of
//!   other shapes, lines whose verdict needs their end), and alone reads
//!   GBK and Big5 (`dbcs = true`: a trail byte may equal `{` or `}`).
//!
//! Both give the same spans and resume positions on every input
//! (`tests/pgn/split_fast.rs`), and both equal a plain reference splitter
//! written from the dialect document (`tests/pgn/split_reference.rs`).
//!
//! Differences from python-chess's `read_game`, which ends a game at every
//! blank line and reads tags after movetext as moves, are listed with their
//! files in `testdata/pgn/count_games.py` and `testdata/expected/README.md`.
//!
//! A game's span runs from the first byte of its first line to the end (line
//! terminator included) of its last non-blank line, so every byte belongs to
//! at most one game. Splitting a buffer in windows gives the same spans as
//! splitting it whole: a window returns where the first game it could not
//! finish starts, and the next window starts there.

mod cuts;
mod exact;
mod rules;
mod scan;
mod tag_names;
mod vector;

use super::lines;
use crate::simd::classify::Simd;
use rules::{Game, Line, Verdict};

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
        game: Game::new(start.line),
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
/// classification (`simd::classify::classify_avx2`) is inlined into the loops
/// that ask for it, not called once per 64 bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2(s: &mut Splitter<'_>, out: &mut Vec<GameSpan>) -> Position {
    s.run(out)
}

struct Splitter<'a> {
    buf: &'a [u8],
    dbcs: bool,
    /// Lines are read with the vector reader; lines it does not take (and
    /// all lines when false) with the byte-exact one.
    fast: bool,
    /// The vector instructions the fast path classifies bytes with.
    simd: Simd,
    is_final: bool,
    /// Source offset of `buf[0]`.
    base: u64,
    /// Start of the next line to read.
    pos: usize,
    /// Its line number.
    line: u64,
    /// What the rules know of the game being read.
    game: Game,
}

/// What reading a line of movetext or tags found.
enum Scan {
    /// The line (maybe after a multi-line comment) is done.
    Done,
    /// The buffer ended inside a comment or line before the game's end was known.
    Incomplete,
    /// The game ended at a result before its line did
    /// (`cuts::game_after_result`; `content_end` is set): the next game
    /// starts at `at` (its tags, or its movetext when `tags` is false), on
    /// the line that ends at `le` and is followed by the line at `next`.
    Next {
        at: usize,
        le: usize,
        next: usize,
        tags: bool,
    },
    /// A comment cut the game (`cuts::comment_cut`; `content_end` is
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
                match self
                    .fast_movetext_line(out)
                    .map(|scan| self.settle(scan, out))
                {
                    Some(Scan::Incomplete) => return self.resume(),
                    Some(_) => continue,
                    None => {}
                }
            }
            let line_end = if self.fast {
                scan::line_end(self.simd, self.buf, self.pos, self.is_final)
            } else {
                lines::line_end(self.buf, self.pos, self.is_final)
            };
            let Some((le, next)) = line_end else {
                return self.resume();
            };
            let scan = self.take_line(le, next, out);
            if let Scan::Incomplete = self.settle(scan, out) {
                return self.resume();
            }
        }
    }

    /// Reads the line at `pos`, whose end `le` and next line `next` are
    /// known, as the rules say: steps over it, keeps it in the game, or
    /// reads its tags or movetext with the byte-exact reader; a game the
    /// line ends is ended first.
    fn take_line(&mut self, le: usize, next: usize, out: &mut Vec<GameSpan>) -> Scan {
        let line = Line::new(self.buf, self.pos, Some(le), self.line, self.dbcs);
        loop {
            match self.game.line(&line) {
                Verdict::EndGame => self.end_game(out),
                Verdict::Outside | Verdict::Blank => {
                    self.advance(next);
                    return Scan::Done;
                }
                Verdict::Keep => {
                    self.game.content_end = next;
                    self.advance(next);
                    return Scan::Done;
                }
                Verdict::Tags => return self.tag_line(line.text(), le, next),
                // With the line's end given, the rules always decide; were
                // they not to, the line would stay with its game.
                Verdict::Movetext => return self.movetext_line(line.text(), le, next),
                Verdict::MoreMovetext | Verdict::NeedLineEnd => {
                    return self.movetext_line(line.start(), le, next);
                }
            }
        }
    }

    /// Ends the game where a line scan said it ends (`Scan::Next`,
    /// `Scan::Cut`) and reads on: the next game's tags or movetext on the
    /// same line (in a loop, not by recursion: 56,000 games may share one
    /// line), or its lines from the cut. Returns `Done` or `Incomplete`.
    fn settle(&mut self, mut scan: Scan, out: &mut Vec<GameSpan>) -> Scan {
        loop {
            match scan {
                Scan::Next { at, le, next, tags } => {
                    self.end_game(out);
                    if tags {
                        self.game.begin_tags_at(at, self.line);
                        scan = self.tag_line(at, le, next);
                    } else {
                        self.game.begin_movetext_at(at, self.line);
                        scan = self.movetext_line(at, le, next);
                    }
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

    fn advance(&mut self, next: usize) {
        self.pos = next;
        self.line += 1;
    }

    /// Ends the game being read at its `content_end`, and records it if it
    /// is one.
    fn end_game(&mut self, out: &mut Vec<GameSpan>) {
        if let Some((start, line, len)) = self.game.end() {
            out.push(GameSpan {
                offset: self.base + start as u64,
                line,
                len,
            });
        }
    }

    fn resume(&self) -> Position {
        let (at, line) = match self.game.state {
            rules::State::Between => (self.pos, self.line),
            _ => (self.game.start, self.game.line),
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
        if self.game.state != rules::State::Between {
            self.end_game(out);
        }
        Position {
            offset: self.base + self.buf.len() as u64,
            line: self.line,
        }
    }

    /// The game ends at a comment's cut (`content_end`); the next one
    /// starts at the cut's tag line.
    fn cut(&mut self, cut: cuts::Cut) -> Scan {
        self.game.content_end = cut.content_end;
        Scan::Cut {
            at: cut.next_game,
            line: self.line + cut.lines,
        }
    }
}
