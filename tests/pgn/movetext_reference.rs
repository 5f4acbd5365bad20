//! The main-line tokenizer written plainly, byte by byte, as the oracle of
//! `tokens_fast.rs`: the same tokens (kind, text, offset), lines and
//! unclosed comment as `pgnmill::pgn::Movetext`. The rules (PGN standard
//! 8.2, and what real files hold):
//! - spaces (ASCII blanks, U+00A0, U+3000, U+FEFF), line ends, `}` and `)`
//!   are skipped;
//! - `{...}` is a comment, `;` a comment to the line end, and a `%` that
//!   starts a line an escape to the line end;
//! - `(...)` is a variation, skipped whole with what it nests (its `;`
//!   comments and `%` lines may hide parentheses); `$` and digits, a NAG;
//! - anything else runs up to the next space, line end, `{}();$`: a result
//!   (`1-0`, `0-1`, `1/2-1/2`, `*`: the last token), or a move number (`12.`,
//!   `12...`, `１２．`, `1…`), dropped, with the move or annotation glued to it;
//!   but a WXF pawn-stack move (`77.6`: two digits 1-9, a dot, a digit 1-9,
//!   then only `+#!?`, each ASCII or full-width) is a move, not a number
//!   and a `6`.

/// A move is as written but for its trailing `!` and `?`; an annotation is
/// text such as `!?`, `+/=`, `inf` standing alone.
#[derive(Debug)]
pub enum TokenKind {
    Move,
    Nag,
    Annotation,
    Result,
}

pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a [u8],
    pub offset: usize,
}

/// Annotations written as text, which would otherwise read as moves: the
/// list of docs/pgn-dialect.md section 4, with `e.p.` and `ep`
/// (`\u{221e}` is the infinity sign, `\u{b1}` plus-minus ...).
const GLYPHS: &str = "+- -+ +/- -/+ +/= =/+ = += =+ inf RR N TN e.p. ep =/inf inf/= \u{221e} \u{b1} \
    \u{2213} \u{2a72} \u{2a71} +\u{2212} \u{2212}+ \u{25a1} =/\u{221e} \u{221e}/= \u{394} \u{2206} \
    \u{21c6} \u{2192} \u{2191} \u{27f3} \u{21bb} \u{25cb} \u{2295} \u{2a00} \u{2299} \u{2313} \u{2207}";

/// Space, tab, vertical tab, form feed and the four ASCII separators.
pub fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c | 0x1c..=0x1f)
}

/// Bytes of space at `i`: 1 for a blank, 2 for U+00A0, 3 for U+3000 and
/// U+FEFF, else 0.
pub fn space_len(buf: &[u8], i: usize) -> usize {
    match buf.get(i..) {
        Some([b, ..]) if is_blank(*b) => 1,
        Some([0xc2, 0xa0, ..]) => 2,
        Some([0xe3, 0x80, 0x80, ..] | [0xef, 0xbb, 0xbf, ..]) => 3,
        _ => 0,
    }
}

/// Line ends in `bytes`: `\n`, `\r\n` and a lone `\r` count one each.
pub fn count_lines(bytes: &[u8]) -> u64 {
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    (0..bytes.len())
        .filter(|&i| bytes[i] == b'\n' || lone_cr(i))
        .count() as u64
}

/// Whether the byte at `i` ends a word token.
fn ends_word(buf: &[u8], i: usize) -> bool {
    space_len(buf, i) > 0 || b"\n\r{}();$".contains(&buf[i])
}

/// `tok` without its move number; `None` when nothing else is left (a bare
/// number such as `12` counts as a move number, but `0000` is a move).
fn strip_move_number(tok: &[u8]) -> Option<&[u8]> {
    if wxf_pawn_stack_sideways(tok) {
        return Some(tok);
    }
    let ascii_digits = tok.iter().take_while(|c| c.is_ascii_digit()).count();
    let (mut i, mut digits, mut dots) = (ascii_digits, ascii_digits, 0);
    loop {
        match tok.get(i..) {
            Some([b'.', ..]) => (i, dots) = (i + 1, dots + 1),
            // Full-width period, horizontal ellipsis.
            Some([0xef, 0xbc, 0x8e, ..] | [0xe2, 0x80, 0xa6, ..]) => (i, dots) = (i + 3, dots + 1),
            // Full-width digits, before any dot.
            Some([0xef, 0xbc, 0x90..=0x99, ..]) if dots == 0 => (i, digits) = (i + 3, digits + 1),
            _ => break,
        }
    }
    if digits > 0 && dots == 0 {
        // Digits alone: a bare move number, or a move like `0-0`.
        return Some(tok).filter(|_| i < tok.len() || tok == b"0000");
    }
    Some(&tok[i..]).filter(|rest| !rest.is_empty())
}

/// `77.6`, `７７．６`, `77.6+`: see the module's rules.
fn wxf_pawn_stack_sideways(tok: &[u8]) -> bool {
    let ascii: Vec<char> = String::from_utf8_lossy(tok)
        .chars()
        .map(|c| {
            let u = c as u32;
            if (0xFF01..=0xFF5E).contains(&u) {
                char::from_u32(u - 0xFEE0).unwrap()
            } else {
                c
            }
        })
        .collect();
    let file = |i: usize| ascii.get(i).is_some_and(|c| ('1'..='9').contains(c));
    file(0)
        && file(1)
        && ascii.get(2) == Some(&'.')
        && file(3)
        && ascii[4..].iter().all(|c| "+#!?".contains(*c))
}

fn token(kind: TokenKind, text: &[u8], offset: usize) -> Option<Token<'_>> {
    Some(Token { kind, text, offset })
}

pub struct Movetext<'a> {
    buf: &'a [u8],
    pos: usize,
    start: usize,
    start_line: u64,
    /// Whether `pos` is at the start of a line (where `%` is an escape).
    line_start: bool,
    done: bool,
    unclosed: Option<usize>,
}

impl<'a> Movetext<'a> {
    /// The tokens of `buf[start..]`, `line` being the line of `buf[start]`.
    pub fn new(buf: &'a [u8], start: usize, line: u64) -> Self {
        let line_start = start == 0 || matches!(buf.get(start - 1), Some(b'\n' | b'\r'));
        Movetext {
            buf,
            pos: start,
            start,
            start_line: line,
            line_start,
            done: false,
            unclosed: None,
        }
    }

    pub fn line_at(&self, offset: usize) -> u64 {
        let from = self.start.min(self.buf.len());
        let to = offset.clamp(from, self.buf.len());
        self.start_line + count_lines(&self.buf[from..to])
    }

    pub fn line(&self) -> u64 {
        self.line_at(self.pos)
    }

    pub fn unclosed_comment(&self) -> Option<u64> {
        self.unclosed.map(|at| self.line_at(at))
    }

    /// Moves `pos` up to the first byte at or after it that `stop` accepts.
    fn skip_until(&mut self, stop: impl Fn(&[u8], usize) -> bool) {
        while self.pos < self.buf.len() && !stop(self.buf, self.pos) {
            self.pos += 1;
        }
    }

    fn skip_to_line_end(&mut self) {
        self.skip_until(|buf, i| matches!(buf[i], b'\n' | b'\r'));
    }

    /// Just after a `{`: past the matching `}`, or to the end.
    fn skip_comment(&mut self) {
        let close = self.buf[self.pos..].iter().position(|&b| b == b'}');
        if close.is_none() {
            self.unclosed = Some(self.pos - 1);
        }
        self.pos = close.map_or(self.buf.len(), |i| self.pos + i + 1);
    }

    /// Just after a `(`: past the matching `)`, or to the end.
    fn skip_variation(&mut self) {
        let mut depth = 1;
        while let Some(&b) = self.buf.get(self.pos) {
            self.pos += 1;
            match b {
                b';' => self.skip_to_line_end(),
                b'{' => self.skip_comment(),
                b'\n' | b'\r' if self.buf.get(self.pos) == Some(&b'%') => self.skip_to_line_end(),
                b'(' => depth += 1,
                b')' if depth == 1 => return,
                b')' => depth -= 1,
                _ => {}
            }
        }
    }

    /// The word token starting at `start`, or `None` for a move number.
    fn word(&mut self, start: usize) -> Option<Token<'a>> {
        self.skip_until(ends_word);
        let whole = &self.buf[start..self.pos];
        if matches!(whole, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
            self.done = true;
            return token(TokenKind::Result, whole, start);
        }
        let tok = strip_move_number(whole)?;
        let offset = self.pos - tok.len();
        let bare = tok.iter().rposition(|&c| c != b'!' && c != b'?');
        match bare {
            Some(last) if !GLYPHS.split(' ').any(|g| g.as_bytes() == tok) => {
                token(TokenKind::Move, &tok[..=last], offset)
            }
            _ => token(TokenKind::Annotation, tok, offset),
        }
    }
}

impl<'a> Iterator for Movetext<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        while !self.done && self.pos < self.buf.len() {
            let (at, b) = (self.pos, self.buf[self.pos]);
            let line_start = std::mem::replace(&mut self.line_start, matches!(b, b'\n' | b'\r'));
            self.pos += 1;
            match b {
                b'\n' | b'\r' | b'}' | b')' => {}
                b'%' if line_start => self.skip_to_line_end(),
                b'{' => self.skip_comment(),
                b';' => self.skip_to_line_end(),
                b'(' => self.skip_variation(),
                _ if space_len(self.buf, at) > 0 => self.pos = at + space_len(self.buf, at),
                b'$' => {
                    self.skip_until(|buf, i| !buf[i].is_ascii_digit());
                    return token(TokenKind::Nag, &self.buf[at..self.pos], at);
                }
                _ => {
                    if let Some(token) = self.word(at) {
                        return Some(token);
                    }
                }
            }
        }
        self.done = true;
        None
    }
}
