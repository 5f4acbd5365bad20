//! REFERENCE COPY, not shipped: src/pgn/movetext.rs exactly as it was at commit
//! 178a3e3 (the tokenizer shipped before the fast path of issue 5), kept as the
//! oracle of the differential tests in tests/tokens_fast.rs. Only the module doc,
//! the `use` of `lines` (it names the crate instead of `super`) and the unit
//! test module are changed or dropped. Do not "fix" it: its behaviour is the specification.
#![allow(dead_code)]

use pgnmill::pgn::lines;

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
const E3: u8 = 9;
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
    t[0xe3] = E3;
    t[b'%' as usize] = PERCENT;
    t
};

#[inline]
fn class(b: u8) -> u8 {
    CLASS[b as usize]
}

/// How far [`find_byte_near`] looks.
const NEAR: usize = 48;

/// The first `needle` among the first [`NEAR`] bytes of `hay`, eight bytes
/// per step (a zero-byte test on the word XOR the repeated needle): cheaper
/// than memchr's set-up for the 10-20 bytes a clock comment spans.
#[inline]
fn find_byte_near(hay: &[u8], needle: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let pattern = ONES * u64::from(needle);
    let mut at = 0;
    while at + 8 <= NEAR {
        let Some(chunk) = hay.get(at..at + 8) else {
            break;
        };
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ pattern;
        let zero = x.wrapping_sub(ONES) & !x & HIGHS;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let tail = hay.get(at..NEAR.min(hay.len())).unwrap_or_default();
    tail.iter().position(|&b| b == needle).map(|i| at + i)
}

/// Bytes of a move in SAN, long algebraic or castling notation: ASCII
/// letters and digits, `+`, `#`, `=` and `-`. A table: one load per byte
/// where the comparisons took six instructions.
static PLAIN_MOVE_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || matches!(c, b'+' | b'#' | b'=' | b'-');
        b += 1;
    }
    t
};

#[inline]
fn is_plain_move_byte(b: u8) -> bool {
    PLAIN_MOVE_BYTE[b as usize]
}

/// Textual annotations that stand alone between moves in real files.
#[inline]
fn is_glyph(tok: &[u8]) -> bool {
    // Cheap rejection first: moves like `e4`, `Nf3`, `exd5` are most tokens.
    let quick = match tok {
        [] => false,
        [b'N'] => return true,
        [b'e', b'.' | b'p', ..] => true,
        [
            b'e' | b'N' | b'a'..=b'd' | b'f'..=b'h' | b'B' | b'K' | b'Q' | b'O',
            ..,
        ] => false,
        _ => tok.len() <= 7,
    };
    quick
        && matches!(
            tok,
            b"+-"
            | b"-+"
            | b"+/-"
            | b"-/+"
            | b"+/="
            | b"=/+"
            | b"="
            | b"+="
            | b"=+"
            | b"inf"
            | b"RR"
            | b"N"
            | b"TN"
            | b"e.p."
            | b"ep"
            | b"=/inf"
            | b"inf/="
            | b"\xE2\x88\x9E" // ∞
            | b"\xC2\xB1" // ±
            | b"\xE2\x88\x93" // ∓
            | b"\xE2\xA9\xB2" // ⩲
            | b"\xE2\xA9\xB1" // ⩱
            | b"\xE2\x96\xA1" // □
            | b"=/\xE2\x88\x9E"
            | b"\xE2\x88\x9E/="
        )
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
    line_start: bool,
    done: bool,
    /// Offset of a `{` that never closes, once the iterator has met it.
    unclosed_comment: Option<usize>,
}

impl<'a> Movetext<'a> {
    /// Tokens of `buf[start..]`; `line` is the line of `buf[start]`.
    pub fn new(buf: &'a [u8], start: usize, line: u64) -> Self {
        let line_start =
            start == 0 || matches!(buf.get(start.wrapping_sub(1)), Some(b'\n' | b'\r'));
        Movetext {
            buf,
            pos: start,
            start,
            start_line: line,
            line_start,
            done: false,
            unclosed_comment: None,
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

    /// The line the iterator has reached (for "game ended early" messages).
    pub fn line(&self) -> u64 {
        self.line_at(self.pos)
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

    /// `pos` is at `{`: moves past the matching `}` (or to the end).
    #[inline]
    fn skip_comment(&mut self) {
        let rest = self.buf.get(self.pos + 1..).unwrap_or_default();
        // Most comments are short (`{ [%clk 0:03:00] }`): look at the
        // first bytes eight at a time, then let memchr take long ones.
        let close = match find_byte_near(rest, b'}') {
            Some(i) => Some(i),
            None => memchr::memchr(b'}', rest.get(NEAR..).unwrap_or_default()).map(|i| i + NEAR),
        };
        match close {
            Some(i) => self.pos += i + 2,
            None => {
                self.unclosed_comment = Some(self.pos);
                self.pos = self.buf.len();
            }
        }
        self.line_start = false;
    }

    /// `pos` is just after a `(` of the main line: skips to the matching `)`.
    /// Jumps from one parenthesis or brace to the next with memchr; only a
    /// stretch holding a `;` comment or a `%` line (either can hide a
    /// parenthesis) is read byte by byte.
    fn skip_variation(&mut self) {
        let mut depth: u64 = 1;
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
                None => return,
                Some(b'{') => self.skip_comment(),
                Some(b'(') => {
                    depth += 1;
                    self.pos += 1;
                }
                Some(_) => {
                    depth -= 1;
                    self.pos += 1;
                    if depth == 0 {
                        self.line_start = false;
                        return;
                    }
                }
            }
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
                    if self.buf.get(i) == Some(&0xe3) && lines::space_len(self.buf, i) == 0 {
                        i += 1;
                        continue;
                    }
                    return i;
                }
            }
        }
    }

    /// `pos` is at an ASCII letter: reads a plain move (`e4`, `Nbxd7+`,
    /// `exd8=Q#`, `O-O`) followed by a delimiter, without the general
    /// path's move-number, result and annotation checks, none of which can
    /// apply to such a token: it holds a digit or is castling, and no
    /// annotation glyph does. Anything else is left to the general path.
    #[inline]
    fn plain_move(&mut self) -> Option<Token<'a>> {
        let start = self.pos;
        let rest = self.buf.get(start..)?;
        let len = rest.iter().position(|&c| !is_plain_move_byte(c))?;
        let text = rest.get(..len)?;
        let delimited = matches!(
            rest.get(len),
            Some(b' ' | b'\n' | b'\r' | b'{' | b'(' | b')' | b'$' | b';')
        );
        let is_move = text.iter().any(u8::is_ascii_digit) || text.starts_with(b"O-O");
        if !delimited || !is_move {
            return None;
        }
        self.pos = start + len;
        self.line_start = false;
        Some(Token {
            kind: TokenKind::Move,
            text,
            offset: start,
        })
    }

    /// `pos` is at an ASCII digit: skips a plain move number (`12.`,
    /// `12...`) followed by whitespace and returns true; anything else (a
    /// result, `0-0`, a glued `1.e4`) is left to the general token path.
    #[inline]
    fn skip_plain_move_number(&mut self) -> bool {
        let rest = self.buf.get(self.pos..).unwrap_or_default();
        let digits = rest
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let after = rest.get(digits..).unwrap_or_default();
        let dots = after.iter().position(|&c| c != b'.').unwrap_or(after.len());
        if dots == 0 || !matches!(after.get(dots), Some(b' ' | b'\n' | b'\r')) {
            return false;
        }
        self.pos += digits + dots;
        self.line_start = false;
        true
    }
}

/// Drops a leading move number (`12.`, `12...`, `1..`, `１．`, `1…`) from a
/// token; `None` when nothing is left.
fn strip_move_number(tok: &[u8]) -> Option<&[u8]> {
    let &first = tok.first()?;
    if !matches!(first, b'0'..=b'9' | b'.' | 0xe2 | 0xef) {
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

impl<'a> Iterator for Movetext<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        if self.done {
            return None;
        }
        while let Some(&b) = self.buf.get(self.pos) {
            // The space between tokens, tested before the jump table: an
            // indirect jump that alternates between token and space is
            // poorly predicted.
            if b == b' ' {
                self.pos += 1;
                self.line_start = false;
                continue;
            }
            if b.is_ascii_alphabetic()
                && let Some(token) = self.plain_move()
            {
                return Some(token);
            }
            if b.is_ascii_digit() && self.skip_plain_move_number() {
                continue;
            }
            match class(b) {
                NL => {
                    self.pos += 1;
                    self.line_start = true;
                    continue;
                }
                PERCENT if self.line_start => {
                    self.skip_to_line_end();
                    continue;
                }
                WS | RBRACE | RPAREN => self.pos += 1,
                LBRACE => {
                    self.skip_comment();
                    continue;
                }
                SEMI => self.skip_to_line_end(),
                LPAREN => {
                    self.pos += 1;
                    self.skip_variation();
                    continue;
                }
                DOLLAR => {
                    let start = self.pos;
                    let mut end = start + 1;
                    while self.buf.get(end).is_some_and(u8::is_ascii_digit) {
                        end += 1;
                    }
                    self.pos = end;
                    self.line_start = false;
                    return Some(Token {
                        kind: TokenKind::Nag,
                        text: self.buf.get(start..end).unwrap_or_default(),
                        offset: start,
                    });
                }
                cls => {
                    if cls == E3 {
                        let n = lines::space_len(self.buf, self.pos);
                        if n > 0 {
                            self.pos += n;
                            self.line_start = false;
                            continue;
                        }
                    }
                    let start = self.pos;
                    let end = self.token_end(start).max(start + 1);
                    self.pos = end;
                    self.line_start = false;
                    let whole = self.buf.get(start..end).unwrap_or_default();
                    if matches!(whole.first(), Some(b'0' | b'1' | b'*')) && lines::is_result(whole)
                    {
                        self.done = true;
                        return Some(Token {
                            kind: TokenKind::Result,
                            text: whole,
                            offset: start,
                        });
                    }
                    let Some(tok) = strip_move_number(whole) else {
                        continue;
                    };
                    let offset = start + (whole.len() - tok.len());
                    let kind;
                    let text;
                    let trimmed_len = tok
                        .iter()
                        .rposition(|&c| c != b'!' && c != b'?')
                        .map_or(0, |p| p + 1);
                    if trimmed_len == 0 || is_glyph(tok) {
                        kind = TokenKind::Annotation;
                        text = tok;
                    } else {
                        kind = TokenKind::Move;
                        text = tok.get(..trimmed_len).unwrap_or(tok);
                    }
                    return Some(Token { kind, text, offset });
                }
            }
            self.line_start = false;
        }
        self.done = true;
        None
    }
}
