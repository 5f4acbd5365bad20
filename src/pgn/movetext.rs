//! Main-line movetext tokens of one game.
//!
//! Comments (`{...}`, `;` to the end of the line), `%` escape lines and
//! variations `( ... )` are skipped: a comment with a 16-byte compare or
//! `memchr`, a variation with a depth counter (never recursion, so 100,000
//! nested parentheses cost no stack). Move numbers (`12.`, `12...`, `1..`,
//! glued `1.e4`) are dropped; the result token ends the main line.
//!
//! Speed comes from the common shape, `12. Nf3 Nc6` with or without a
//! `{ [%clk 0:03:00] }` after each move: [`Iterator::next`] reads such a
//! ply from bit masks of 16 bytes at once (the `lanes` module), and falls back to a
//! byte loop and a general path for everything else. Both give the same
//! tokens; `tests/pgn/tokens_fast.rs` checks them against a plainly written
//! reference tokenizer.
//!
//! Lines are not counted while tokenizing: a line number is only needed for
//! an error message, so [`Movetext::line_at`] counts the line ends before a
//! byte offset when one is asked for. Nor is "at a line start" tracked: it
//! matters only for a `%`, and the byte before tells.

use super::glyphs::is_annotation_glyph;
use super::lines;

mod lanes;

pub(super) use lanes::find_close_brace;

use lanes::Ply;

/// What a token is. Only [`TokenKind::Move`] and [`TokenKind::Result`] matter
/// for replay; the others are reported so a caller may keep them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A move as written (SAN, UCI, `--`, `Z0`, Chinese, WXF, ICCS ...), with
    /// suffix annotations `!`/`?` removed. Check and mate marks (`+`, `#`)
    /// are kept: in WXF `+` is part of the move, so the rules kernel decides.
    Move,
    /// A numeric annotation glyph: `$` and its digits.
    Nag,
    /// A textual annotation standing alone: `!?`, `+/=`, `inf`, `e.p.` ...
    /// (the list: [`super::glyphs`]). Any other token is a [`TokenKind::Move`],
    /// for the rules kernel to accept or refuse.
    Annotation,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` on the main line; the last token.
    Result,
}

/// One main-line token, borrowed from the game's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a [u8],
    /// Byte index of `text` in the game's bytes (its line:
    /// [`Movetext::line_at`]).
    pub offset: usize,
}

const ORD: u8 = 0;
const WS: u8 = 1;
const NL: u8 = 2;
const LBRACE: u8 = 3;
const RBRACE: u8 = 4;
const LPAREN: u8 = 5;
const RPAREN: u8 = 6;
const SEMI: u8 = 7;
const DOLLAR: u8 = 8;
/// A byte that may start a whitespace character beyond ASCII (U+00A0,
/// U+3000, U+FEFF) or another character: [`lines::space_len`] tells.
const SPACE_LEAD: u8 = 9;
const PERCENT: u8 = 10;

static CLASS: [u8; 256] = {
    let mut t = [ORD; 256];
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[0x0b] = WS;
    t[0x0c] = WS;
    t[0x1c] = WS;
    t[0x1d] = WS;
    t[0x1e] = WS;
    t[0x1f] = WS;
    t[b'\n' as usize] = NL;
    t[b'\r' as usize] = NL;
    t[b'{' as usize] = LBRACE;
    t[b'}' as usize] = RBRACE;
    t[b'(' as usize] = LPAREN;
    t[b')' as usize] = RPAREN;
    t[b';' as usize] = SEMI;
    t[b'$' as usize] = DOLLAR;
    let mut b = 0x80;
    while b < 256 {
        if lines::is_space_lead(b as u8) {
            t[b] = SPACE_LEAD;
        }
        b += 1;
    }
    t[b'%' as usize] = PERCENT;
    t
};

#[inline]
fn class(b: u8) -> u8 {
    CLASS[b as usize]
}

/// What [`Movetext::next`] does with the byte at its position, as one table
/// lookup: the bytes of the common shape (`12. Nf3 { [%clk 0:03:00] }`) are
/// handled in its loop, everything else by [`Movetext::general_step`].
const LEAD_OTHER: u8 = 0;
/// Whitespace, a line end, or a stray `}` or `)`: one byte to step over.
const LEAD_SKIP: u8 = 1;
/// An ASCII letter: maybe a plain move ([`plain_move_len`]).
const LEAD_LETTER: u8 = 2;
/// An ASCII digit: maybe a plain move number ([`plain_move_number_len`]).
const LEAD_DIGIT: u8 = 3;
/// `{`: a comment.
const LEAD_LBRACE: u8 = 4;

static LEAD: [u8; 256] = {
    let mut t = [LEAD_OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match CLASS[b] {
            WS | NL | RBRACE | RPAREN => LEAD_SKIP,
            LBRACE => LEAD_LBRACE,
            _ if c.is_ascii_alphabetic() => LEAD_LETTER,
            _ if c.is_ascii_digit() => LEAD_DIGIT,
            _ => LEAD_OTHER,
        };
        b += 1;
    }
    t
};

/// [`MOVE_BYTE`]: a byte of a plain move.
const MB_PLAIN: u8 = 1;
/// [`MOVE_BYTE`]: a digit, which makes a plain token a move (`e4`, `Nf3`).
const MB_DIGIT: u8 = 2;
/// [`MOVE_BYTE`]: a byte that may end a plain move.
const MB_DELIM: u8 = 4;

/// Bytes of a move in SAN, long algebraic or castling notation (ASCII
/// letters and digits, `+`, `#`, `=` and `-`), which of them are digits, and
/// the bytes that may follow such a move: one load per byte tells all three.
static MOVE_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'#' | b'=' | b'-') {
            t[b] = MB_PLAIN;
        }
        if c.is_ascii_digit() {
            t[b] |= MB_DIGIT;
        }
        if matches!(c, b' ' | b'\n' | b'\r' | b'{' | b'(' | b')' | b'$' | b';') {
            t[b] = MB_DELIM;
        }
        b += 1;
    }
    t
};

/// `buf[at]` is an ASCII letter: the length of a plain move there (`e4`,
/// `Nbxd7+`, `exd8=Q#`, `O-O`) followed by a delimiter, or `None` for
/// anything else, which the general path reads. Such a token needs none of
/// the general path's move-number, result and annotation checks: it holds a
/// digit or is castling, and no annotation glyph does.
#[inline]
fn plain_move_len(buf: &[u8], at: usize) -> Option<usize> {
    let rest = buf.get(at..)?;
    let mut seen = 0u8;
    let mut len = 0;
    let stop = loop {
        let class = MOVE_BYTE[usize::from(*rest.get(len)?)];
        if class & MB_PLAIN == 0 {
            break class;
        }
        seen |= class;
        len += 1;
    };
    let is_move = seen & MB_DIGIT != 0 || rest.starts_with(b"O-O");
    (stop == MB_DELIM && is_move).then_some(len)
}

/// `buf[at]` is an ASCII digit: the length of a plain move number there
/// (`12.`, `12...`) when whitespace or a line end follows it; `None` for
/// anything else (a result, `0-0`, a glued `1.e4`), which the general path
/// reads.
#[inline]
fn plain_move_number_len(buf: &[u8], at: usize) -> Option<usize> {
    let rest = buf.get(at..)?;
    let mut i = 1;
    while rest.get(i)?.is_ascii_digit() {
        i += 1;
    }
    let digits = i;
    while *rest.get(i)? == b'.' {
        i += 1;
    }
    let end = *rest.get(i)?;
    (i > digits && matches!(end, b' ' | b'\n' | b'\r')).then_some(i)
}

/// `buf[at]` is an ASCII digit: the length of a result there (`1-0`, `0-1`,
/// `1/2-1/2`) followed by a space, a line end or the end of the text, where
/// the general path would end the token too and read it as the result;
/// `None` for anything else, which the general path reads.
#[inline]
fn plain_result_len(buf: &[u8], at: usize) -> Option<usize> {
    let rest = buf.get(at..)?;
    let len = match rest {
        [b'1', b'-', b'0', ..] | [b'0', b'-', b'1', ..] => 3,
        [b'1', b'/', b'2', b'-', b'1', b'/', b'2', ..] => 7,
        _ => return None,
    };
    matches!(rest.get(len), None | Some(b' ' | b'\n' | b'\r')).then_some(len)
}

/// Iterator over the main-line tokens of one game; see the module docs.
#[derive(Debug, Clone)]
pub struct Movetext<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Where the movetext starts, and that byte's line: the origin from
    /// which [`Movetext::line_at`] counts.
    start: usize,
    start_line: u64,
    done: bool,
    /// Offset of a `{` that never closes, once the iterator has met it.
    unclosed_comment: Option<usize>,
    /// Offset of a main-line `(` whose variation never closes.
    unclosed_variation: Option<usize>,
}

impl<'a> Movetext<'a> {
    /// Tokens of `buf[start..]`; `line` is the line of `buf[start]`.
    pub fn new(buf: &'a [u8], start: usize, line: u64) -> Self {
        Movetext {
            buf,
            pos: start,
            start,
            start_line: line,
            done: false,
            unclosed_comment: None,
            unclosed_variation: None,
        }
    }

    /// The 1-based line of byte `offset` (at or after the movetext start).
    pub fn line_at(&self, offset: usize) -> u64 {
        let from = self.start.min(self.buf.len());
        let to = offset.clamp(from, self.buf.len());
        self.start_line + lines::count_lines(self.buf.get(from..to).unwrap_or_default())
    }

    /// The line of a `{` comment that runs to the end of the text without
    /// its `}`, if the iterator met one: everything after it, other games
    /// included, was read as comment, and a caller must say so rather than
    /// report the game as complete.
    pub fn unclosed_comment(&self) -> Option<u64> {
        self.unclosed_comment.map(|at| self.line_at(at))
    }

    /// The line of a main-line `(` whose variation runs to the end of the
    /// text without its `)`, if the iterator met one (the splitter ends a
    /// game at the next tag section whatever the variation depth).
    pub fn unclosed_variation(&self) -> Option<u64> {
        self.unclosed_variation.map(|at| self.line_at(at))
    }

    /// Ends the iteration: [`Iterator::next`] answers `None` from now on.
    pub fn stop(&mut self) {
        self.done = true;
    }

    /// The line the iterator has reached (for "game ended early" messages).
    pub fn line(&self) -> u64 {
        self.line_at(self.pos)
    }

    /// Whether `pos` starts a line, where `%` starts an escape line. Every
    /// step of the iterator leaves it after a byte that is not a line end
    /// unless it stepped over that line end, so the byte before tells.
    #[inline]
    fn at_line_start(&self) -> bool {
        self.pos == 0 || matches!(self.buf.get(self.pos.wrapping_sub(1)), Some(b'\n' | b'\r'))
    }

    /// Moves to the line end (not past it).
    #[inline]
    fn skip_to_line_end(&mut self) {
        let rest = self.buf.get(self.pos..).unwrap_or_default();
        self.pos = match memchr::memchr2(b'\n', b'\r', rest) {
            Some(i) => self.pos + i,
            None => self.buf.len(),
        };
    }

    /// `buf[at]` is `{`: the index after the matching `}`, or the end of the
    /// text (noting the unclosed comment).
    #[inline]
    fn comment_end(&mut self, at: usize) -> usize {
        let rest = self.buf.get(at + 1..).unwrap_or_default();
        match lanes::find_close_brace(rest) {
            Some(i) => at + i + 2,
            None => {
                self.unclosed_comment = Some(at);
                self.buf.len()
            }
        }
    }

    /// `pos` is just after a `(` of the main line: skips to the matching `)`.
    /// Jumps from one parenthesis or brace to the next with memchr; only a
    /// stretch holding a `;` comment or a `%` line (either can hide a
    /// parenthesis) is read byte by byte.
    fn skip_variation(&mut self) {
        let mut depth: u64 = 1;
        let open = self.pos.saturating_sub(1);
        while self.pos < self.buf.len() {
            let rest = self.buf.get(self.pos..).unwrap_or_default();
            let next = memchr::memchr3(b'(', b')', b'{', rest).unwrap_or(rest.len());
            let gap = rest.get(..next).unwrap_or_default();
            if memchr::memchr2(b';', b'%', gap).is_some() {
                self.skip_escapes_until(self.pos + next);
                continue;
            }
            self.pos += next;
            match self.buf.get(self.pos) {
                None => break,
                Some(b'{') => self.pos = self.comment_end(self.pos),
                Some(b'(') => {
                    depth += 1;
                    self.pos += 1;
                }
                Some(_) => {
                    depth -= 1;
                    self.pos += 1;
                    if depth == 0 {
                        return;
                    }
                }
            }
        }
        if self.unclosed_comment.is_none() {
            // The text ended inside the variation (not inside a comment,
            // which says so itself).
            self.unclosed_variation = Some(open);
        }
    }

    /// Inside a variation, reads up to `end` (which holds no parenthesis or
    /// brace) byte by byte, skipping `;` comments and `%` lines, which may
    /// run past `end`.
    fn skip_escapes_until(&mut self, end: usize) {
        while self.pos < end {
            match self.buf.get(self.pos) {
                Some(b';') => self.skip_to_line_end(),
                Some(b'\n' | b'\r') => {
                    self.pos += 1;
                    if self.buf.get(self.pos) == Some(&b'%') {
                        self.skip_to_line_end();
                    }
                }
                Some(_) => self.pos += 1,
                None => return,
            }
        }
    }

    /// End of the token starting at `from`.
    #[inline]
    fn token_end(&self, from: usize) -> usize {
        let mut i = from;
        loop {
            // An iterator search: no bounds check per byte.
            let rest = self.buf.get(i..).unwrap_or_default();
            match rest
                .iter()
                .position(|&c| !matches!(class(c), ORD | PERCENT))
            {
                None => return self.buf.len(),
                Some(k) => {
                    i += k;
                    if class(self.buf.get(i).copied().unwrap_or(0)) == SPACE_LEAD
                        && lines::space_len(self.buf, i) == 0
                    {
                        i += 1;
                        continue;
                    }
                    return i;
                }
            }
        }
    }

    /// One step of the general path at `pos` (any byte the fast loop of
    /// [`Iterator::next`] did not take): a token, or `None` after skipping
    /// something. Reads escapes, variations, NAGs, results, glued and
    /// full-width move numbers, annotations and non-ASCII moves.
    fn general_step(&mut self) -> Option<Token<'a>> {
        let &b = self.buf.get(self.pos)?;
        match class(b) {
            NL | WS | RBRACE | RPAREN => self.pos += 1,
            PERCENT if self.at_line_start() => self.skip_to_line_end(),
            LBRACE => self.pos = self.comment_end(self.pos),
            SEMI => self.skip_to_line_end(),
            LPAREN => {
                self.pos += 1;
                self.skip_variation();
            }
            DOLLAR => {
                let start = self.pos;
                let mut end = start + 1;
                while self.buf.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                self.pos = end;
                return Some(Token {
                    kind: TokenKind::Nag,
                    text: self.buf.get(start..end).unwrap_or_default(),
                    offset: start,
                });
            }
            cls => {
                if cls == SPACE_LEAD {
                    let n = lines::space_len(self.buf, self.pos);
                    if n > 0 {
                        self.pos += n;
                        return None;
                    }
                }
                let start = self.pos;
                let end = self.token_end(start).max(start + 1);
                self.pos = end;
                let whole = self.buf.get(start..end).unwrap_or_default();
                if matches!(whole.first(), Some(b'0' | b'1' | b'*')) && lines::is_result(whole) {
                    self.done = true;
                    return Some(Token {
                        kind: TokenKind::Result,
                        text: whole,
                        offset: start,
                    });
                }
                let tok = strip_move_number(whole)?;
                let offset = start + (whole.len() - tok.len());
                let trimmed_len = tok
                    .iter()
                    .rposition(|&c| c != b'!' && c != b'?')
                    .map_or(0, |p| p + 1);
                let (kind, text) = if trimmed_len == 0 || is_annotation_glyph(tok) {
                    (TokenKind::Annotation, tok)
                } else {
                    (TokenKind::Move, tok.get(..trimmed_len).unwrap_or(tok))
                };
                return Some(Token { kind, text, offset });
            }
        }
        None
    }
}

/// Drops a leading move number (`12.`, `12...`, `1..`, `１．`, `1…`) from a
/// token; `None` when nothing is left. A WXF pawn-stack move of wxf.org's
/// form (`77.6`: two file digits, a dot, a file digit) is kept whole: read
/// as a number it would leave a lone `6`, which no notation takes for a
/// move.
fn strip_move_number(tok: &[u8]) -> Option<&[u8]> {
    let &first = tok.first()?;
    if !matches!(first, b'0'..=b'9' | b'.' | 0xe2 | 0xef) {
        return Some(tok);
    }
    if is_wxf_pawn_stack_sideways(tok) {
        return Some(tok);
    }
    // ASCII digits and dots: the usual `12.` / `12...`.
    let digits = tok
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(tok.len());
    let rest = tok.get(digits..).unwrap_or_default();
    let dots = rest.iter().position(|&c| c != b'.').unwrap_or(rest.len());
    let mut i = digits + dots;
    let (mut nd, mut nt) = (digits, dots);
    if i < tok.len() && tok.get(i).is_some_and(|&c| c >= 0x80) {
        // Full-width digits and periods, and the ellipsis.
        loop {
            match tok.get(i..) {
                Some([0xef, 0xbc, 0x90..=0x99, ..]) if nt == 0 => nd += 1,
                Some([0xef, 0xbc, 0x8e, ..]) | Some([0xe2, 0x80, 0xa6, ..])
                    if nd > 0 || nt > 0 || i == 0 =>
                {
                    nt += 1
                }
                _ => break,
            }
            i += 3;
            while tok.get(i).is_some_and(|&c| c == b'.') {
                i += 1;
                nt += 1;
            }
        }
    }
    if nd > 0 && nt == 0 {
        // `0-0`, `0000`: not a move number. A bare number (`12 e4`) is one.
        if i == tok.len() && tok != b"0000" {
            return None;
        }
        return Some(tok);
    }
    let rest = tok.get(i..).unwrap_or_default();
    if rest.is_empty() { None } else { Some(rest) }
}

/// `77.6` (docs/xiangqi-notation.md §4.2: the middle of three pawns on
/// file 7 to file 6, when two files hold stacked pawns), with the marks
/// a move may carry after it (`+`, `#`, `!`, `?`); in full-width forms
/// too (`７７．６`), which the WXF reader folds to ASCII.
fn is_wxf_pawn_stack_sideways(tok: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(tok) else {
        return false;
    };
    let mut folded = text.chars().map(|c| match c as u32 {
        u @ 0xFF01..=0xFF5E => char::from_u32(u - 0xFEE0).unwrap_or(c),
        _ => c,
    });
    let file = |c: Option<char>| c.is_some_and(|c| ('1'..='9').contains(&c));
    file(folded.next())
        && file(folded.next())
        && folded.next() == Some('.')
        && file(folded.next())
        && folded.all(|c| "+#!?".contains(c))
}

impl<'a> Iterator for Movetext<'a> {
    type Item = Token<'a>;

    /// A ply in the common shape (`12. Nf3 `, `Nc6 `, after a comment
    /// such as lichess's `{ [%clk 0:03:00] }`) is read from one 16-byte
    /// chunk here, small enough to be inlined into the replay loop;
    /// anything else goes to `Movetext::next_slow`.
    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        if self.done {
            return None;
        }
        let mut chunk = self.buf.get(self.pos..).and_then(<[u8]>::first_chunk::<16>);
        if let Some([b' ', b'{', ..]) = chunk {
            self.pos = self.comment_end(self.pos + 1);
            chunk = self.buf.get(self.pos..).and_then(<[u8]>::first_chunk::<16>);
        }
        let mut skipped = None;
        if let Some(chunk) = chunk {
            match lanes::ply(chunk) {
                Ply::Move(at, len) => {
                    let offset = self.pos + at;
                    self.pos = offset + len;
                    return Some(Token {
                        kind: TokenKind::Move,
                        text: chunk.get(at..at + len).unwrap_or_default(),
                        offset,
                    });
                }
                Ply::Skip(n) => skipped = Some(n),
            }
        }
        self.next_slow(skipped)
    }
}

impl<'a> Movetext<'a> {
    /// [`Iterator::next`] for everything but a ply in the common shape:
    /// spaces, line ends, `12.`, plain moves, a plain result and `{...}`
    /// are read in this
    /// loop with the position in a local; anything else takes one step of
    /// [`Movetext::general_step`].
    ///
    /// `skipped` is what [`lanes::ply`] answered at `pos` (spaces and a
    /// move number to step over, and no plain move after them), when it
    /// was asked. The chunk is only asked again at a new position: the byte
    /// loop alone gives every token, the chunk only makes plies cheaper.
    #[inline(never)]
    fn next_slow(&mut self, skipped: Option<usize>) -> Option<Token<'a>> {
        if self.done {
            return None;
        }
        let buf = self.buf;
        let mut pos = self.pos + skipped.unwrap_or(0);
        let mut asked = if skipped.is_some() { pos } else { usize::MAX };
        while let Some(&b) = buf.get(pos) {
            let lead = LEAD[usize::from(b)];
            if lead != LEAD_OTHER
                && lead != LEAD_LBRACE
                && pos != asked
                && let Some(chunk) = buf.get(pos..).and_then(<[u8]>::first_chunk::<16>)
            {
                asked = pos;
                match lanes::ply(chunk) {
                    Ply::Move(at, len) => {
                        let start = pos + at;
                        self.pos = start + len;
                        return Some(Token {
                            kind: TokenKind::Move,
                            text: chunk.get(at..at + len).unwrap_or_default(),
                            offset: start,
                        });
                    }
                    Ply::Skip(0) => {}
                    Ply::Skip(n) => {
                        pos += n;
                        asked = pos;
                        continue;
                    }
                }
            }
            match lead {
                LEAD_SKIP => {
                    pos += 1;
                    continue;
                }
                LEAD_LETTER => {
                    if let Some(len) = plain_move_len(buf, pos) {
                        self.pos = pos + len;
                        return Some(Token {
                            kind: TokenKind::Move,
                            text: buf.get(pos..pos + len).unwrap_or_default(),
                            offset: pos,
                        });
                    }
                }
                LEAD_DIGIT => {
                    if let Some(len) = plain_move_number_len(buf, pos) {
                        pos += len;
                        continue;
                    }
                    if let Some(len) = plain_result_len(buf, pos) {
                        self.pos = pos + len;
                        self.done = true;
                        return Some(Token {
                            kind: TokenKind::Result,
                            text: buf.get(pos..pos + len).unwrap_or_default(),
                            offset: pos,
                        });
                    }
                }
                LEAD_LBRACE => {
                    pos = self.comment_end(pos);
                    continue;
                }
                _ => {}
            }
            self.pos = pos;
            let token = self.general_step();
            if token.is_some() {
                return token;
            }
            pos = self.pos;
        }
        self.pos = pos;
        self.done = true;
        None
    }
}
