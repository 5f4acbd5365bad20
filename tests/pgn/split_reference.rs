//! A plain game splitter, written from docs/pgn-dialect.md §2 for clarity,
//! not speed, and sharing no code with `src/pgn`: the reference the real
//! splitter (`pgnmill::pgn::split_all`, both its byte-exact and its vector
//! path) is held to in `tests/pgn/split_vs_reference.rs` and in
//! `fuzz/fuzz_targets/pgn_split.rs` (which includes this file by path, so
//! it uses nothing but `std`).
//!
//! The input is read line by line (`\n`, `\r\n` and a lone `\r` end a
//! line). A game is a span `(offset, line, len)`: from the first byte of
//! its first line (or of its `[`, for a game that starts after a result on
//! the same line) to the end of its last non-blank line, terminator
//! included. UTF-8 or single-byte text only (no GBK/Big5 trail bytes).

#![allow(dead_code)]

/// One game: byte offset, 1-based line, length in bytes.
pub type Span = (u64, u64, usize);

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whitespace between tokens (the line ends are not).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c | 0x1c..=0x1f)
}

/// Bytes of whitespace at `i`: 1 for an ASCII space, 2 for the no-break
/// space U+00A0, 3 for the ideographic space U+3000 and U+FEFF, else 0.
fn space_len(text: &[u8], i: usize) -> usize {
    match text.get(i..) {
        Some([b, ..]) if is_space(*b) => 1,
        Some([0xc2, 0xa0, ..]) => 2,
        Some([0xe3, 0x80, 0x80, ..] | [0xef, 0xbb, 0xbf, ..]) => 3,
        _ => 0,
    }
}

/// `text` from `i` on, past whitespace ([`space_len`]).
fn skip_spaces(text: &[u8], mut i: usize) -> usize {
    while space_len(text, i) > 0 {
        i += space_len(text, i);
    }
    i.min(text.len())
}

fn is_blank(text: &[u8]) -> bool {
    skip_spaces(text, 0) >= text.len()
}

fn is_result(token: &[u8]) -> bool {
    matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// A token that ends the main line: a result, or a result glued to a move
/// (`e5*`, `Qxf7#1-0`: any text before a result's).
fn ends_line(token: &[u8]) -> bool {
    is_result(token)
        || [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"]
            .iter()
            .any(|r| token.len() > r.len() && token.ends_with(r))
}

/// `[Name "` after whitespace: a tag pair (not `[%clk ...]`).
fn is_tag_pair(text: &[u8]) -> bool {
    let mut i = skip_spaces(text, 0);
    if text.get(i) != Some(&b'[') {
        return false;
    }
    i = skip_spaces(text, i + 1);
    if !text.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    while text
        .get(i)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    {
        i += 1;
    }
    text.get(skip_spaces(text, i)) == Some(&b'"')
}

/// Where the tag whose `[` is at `text[i]` ends: after its `]`, or at the
/// end of the line (a tag never runs past its line).
fn tag_end(text: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < text.len() && text[i] != b'"' && text[i] != b']' {
        i += 1;
    }
    if i >= text.len() || text[i] == b']' {
        return (i + 1).min(text.len());
    }
    i = value_end(text, i + 1) + 1;
    while i < text.len() && text[i] != b']' {
        i += 1;
    }
    (i + 1).min(text.len())
}

/// The name of the tag whose `[` is at `text[i]`, in lower case.
fn tag_name(text: &[u8], i: usize) -> Vec<u8> {
    let from = skip_spaces(text, i + 1);
    let to = (from..text.len())
        .find(|&k| matches!(text[k], b'"' | b']') || is_space(text[k]))
        .unwrap_or(text.len());
    text[from..to].to_ascii_lowercase()
}

/// The names of the tags of a line of tags from `text[p]` (the tags up to
/// the first byte that is not one), empty ones left out.
fn tag_names(text: &[u8], mut p: usize) -> Vec<Vec<u8>> {
    let mut names = Vec::new();
    while text.get(p) == Some(&b'[') {
        let name = tag_name(text, p);
        if !name.is_empty() {
            names.push(name);
        }
        p = skip_spaces(text, tag_end(text, p).max(p + 1));
    }
    names
}

/// Where the tag value that starts at `text[from]` ends (`text` is the
/// tag's line): at the first unescaped `"` that spaces and then a `]` or
/// the line's end follow; when no quote is followed so, at the first
/// unescaped `"`; at the line's end or past it without one. (A quote
/// followed by other text was written inside the value unescaped,
/// `[White "O"Brien"]`, as python-chess 1.11.2 reads it.)
pub fn value_end(text: &[u8], from: usize) -> usize {
    let mut quotes = Vec::new();
    let mut i = from;
    while i < text.len() {
        match text[i] {
            b'"' => {
                quotes.push(i);
                i += 1;
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    let closes = |q: usize| {
        let after = skip_spaces(text, q + 1);
        after >= text.len() || text[after] == b']'
    };
    match quotes.iter().find(|&&q| closes(q)).or(quotes.first()) {
        Some(&q) => q,
        None => i,
    }
}

/// Whether the tag whose `[` is at `text[i]` opens a value with a quote
/// that has no closing quote on the line.
fn value_open(text: &[u8], mut i: usize) -> bool {
    i += 1;
    while i < text.len() && text[i] != b'"' && text[i] != b']' {
        i += 1;
    }
    if i >= text.len() || text[i] == b']' {
        return false;
    }
    value_end(text, i + 1) >= text.len()
}

/// §3: how many of `lines` (the lines after a tag whose value is left
/// open) go on with that value: those up to the first whose text ends with
/// `"]`, if it comes before a blank line, a line starting with `[`, `%` or
/// `;`, and the end of the input; else none.
fn open_value_lines(input: &[u8], lines: &[(usize, usize, usize)]) -> usize {
    for (n, &(s, e, _)) in lines.iter().enumerate() {
        let text = &input[s..e];
        let lead = skip_spaces(text, 0);
        if matches!(text.first(), Some(b'%' | b';')) || lead >= text.len() || text[lead] == b'[' {
            return 0;
        }
        let end = text
            .iter()
            .rposition(|&b| !is_space(b))
            .map_or(0, |k| k + 1);
        if text[..end].ends_with(b"\"]") {
            return n + 1;
        }
    }
    0
}

/// The last token of a stretch of movetext (comments closed within it
/// skipped at its end): tokens are split by whitespace, line ends and `}`.
fn last_token(mut text: &[u8]) -> Option<&[u8]> {
    let trim = |t: &[u8]| -> usize {
        t.iter()
            .rposition(|&b| !(is_space(b) || b == b'\n' || b == b'\r'))
            .map_or(0, |k| k + 1)
    };
    loop {
        text = &text[..trim(text)];
        match (text.last(), text.iter().rposition(|&b| b == b'{')) {
            (Some(b'}'), Some(k)) => text = &text[..k],
            _ => break,
        }
    }
    text.split(|&b| is_space(b) || b == b'\n' || b == b'\r' || b == b'}')
        .rfind(|t| !t.is_empty())
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Between,
    Tags { blank_seen: bool },
    Moves { after_blank: bool },
}

struct Game {
    start: usize,
    line: u64,
    /// End of the last non-blank line (or of the result, for a game cut
    /// before a tag on the same line).
    end: usize,
    /// A tag or a token outside comments: only then is it a game.
    has_body: bool,
    has_moves: bool,
    /// The names of the tags of its tag section so far (rule 3).
    names: Vec<Vec<u8>>,
    /// The last tag line read ended in a value left open (§3).
    open_value: bool,
    depth: u32,
    /// A result ended the main line.
    ended: bool,
    /// The last token so far is a result at depth 0.
    last_result: bool,
    /// Text that is not movetext followed the result.
    junk: bool,
    /// Inside a `{` comment that runs past the line end; whether the
    /// comment's last line so far was blank.
    in_comment: Option<bool>,
}

/// What reading a line of movetext ended with.
enum Moves {
    /// The line is read.
    Done,
    /// A result, then a tag pair or a token starting with a digit or an
    /// ASCII letter at `text[at]`: a new game starts there.
    GameAt(usize),
}

/// The games of `input`.
pub fn split(input: &[u8]) -> Vec<Span> {
    let mut lines = Vec::new();
    let mut start = if input.starts_with(BOM) { 3 } else { 0 };
    let mut i = start;
    while start < input.len() {
        if i == input.len() || input[i] == b'\n' || input[i] == b'\r' {
            let next = match input.get(i) {
                Some(b'\r') if input.get(i + 1) == Some(&b'\n') => i + 2,
                Some(_) => i + 1,
                None => i,
            };
            lines.push((start, i, next));
            start = next;
            i = next;
        } else {
            i += 1;
        }
    }
    let mut out = Vec::new();
    let mut mode = Mode::Between;
    let mut g = Game::new(0, 1);
    let mut from = None; // a line re-read from this byte (a mid-line game)
    let mut k = 0;
    while k < lines.len() {
        let (s, e, next) = lines[k];
        let line_no = k as u64 + 1;
        let text = &input[s..e];
        let at = from.take();
        let rel = at.map_or(0, |a: usize| a - s);
        let first = text.first().copied();
        let escape = matches!(first, Some(b'%' | b';'));
        let blank = is_blank(text);
        let lead = skip_spaces(text, 0);
        let opens = text.get(lead).copied();
        if let Some(blank_before) = g.in_comment.filter(|_| mode != Mode::Between) {
            if blank_before && is_tag_pair(text) {
                // Rule 5: the comment ran across a blank line into a tag.
                g.finish(&mut out);
                mode = Mode::Between;
                continue;
            }
            if blank {
                g.in_comment = Some(true);
            } else {
                g.in_comment = Some(false);
                g.end = next;
                if let Some(c) = text.iter().position(|&b| b == b'}') {
                    g.in_comment = None;
                    let after_result = g.last_result;
                    if let Moves::GameAt(a) = g.moves(input, s, c + 1, e, after_result) {
                        mode = g.restart(&mut out, s + a, line_no);
                        from = Some(s + a);
                        continue;
                    }
                    g.end = next;
                }
            }
            k += 1;
            continue;
        }
        let mut reread = false;
        match mode {
            Mode::Between if at.is_none() && (blank || escape) => {}
            Mode::Between if at.is_some() && text[rel] != b'[' => {
                // Rule 7: a tagless game after a result on this line.
                g = Game::new(s + rel, line_no);
                mode = Mode::Moves { after_blank: false };
                reread = g.moves_line(input, &mut mode, s, rel, e, next, line_no, &mut from);
            }
            Mode::Between => {
                g = Game::new(at.unwrap_or(s), line_no);
                if opens == Some(b'[') || at.is_some() {
                    let p = if at.is_some() { rel } else { lead };
                    mode = Mode::Tags { blank_seen: false };
                    reread = g.tag_line(input, &mut mode, s, p, e, next, line_no, &mut from);
                } else {
                    mode = Mode::Moves { after_blank: false };
                    reread = g.moves_line(input, &mut mode, s, lead, e, next, line_no, &mut from);
                }
            }
            Mode::Tags { blank_seen } => {
                if blank_seen
                    && !blank
                    && !escape
                    && opens == Some(b'[')
                    && tag_names(text, lead).iter().any(|n| g.names.contains(n))
                {
                    // Rule 3: a tag-only game, then the next one's tags.
                    reread = true;
                } else if escape {
                    g.end = next;
                } else if blank {
                    if blank_seen {
                        g.finish(&mut out);
                        mode = Mode::Between;
                    } else {
                        mode = Mode::Tags { blank_seen: true };
                    }
                } else if opens == Some(b'[') {
                    reread = g.tag_line(input, &mut mode, s, lead, e, next, line_no, &mut from);
                } else {
                    mode = Mode::Moves { after_blank: false };
                    reread = g.moves_line(input, &mut mode, s, lead, e, next, line_no, &mut from);
                }
                if reread && from.is_none() {
                    g.finish(&mut out);
                    mode = Mode::Between;
                }
            }
            Mode::Moves { after_blank: false } => {
                let alnum = opens.is_some_and(|b| b.is_ascii_alphanumeric());
                if escape {
                    g.end = next;
                } else if blank {
                    mode = Mode::Moves { after_blank: true };
                } else if opens == Some(b'[') || (g.ended && !g.junk && alnum) {
                    // Rules 6 and 7: tags, or movetext after a result.
                    g.finish(&mut out);
                    mode = Mode::Between;
                    reread = true;
                } else {
                    if g.ended {
                        g.junk = true;
                    }
                    reread = g.moves_line(input, &mut mode, s, 0, e, next, line_no, &mut from);
                }
            }
            Mode::Moves { after_blank: true } => {
                let alnum = opens.is_some_and(|b| b.is_ascii_alphanumeric());
                let trimmed = &text[lead..];
                let trimmed = &trimmed[..trimmed
                    .iter()
                    .rposition(|&b| !is_space(b))
                    .map_or(0, |k| k + 1)];
                let move_one = trimmed.starts_with(b"1.") && trimmed.get(2) != Some(&b'.');
                if blank {
                } else if is_result(trimmed) && !g.ended {
                    mode = Mode::Moves { after_blank: false };
                    g.end = next;
                    g.ended = true;
                } else if escape && !g.ended {
                    g.end = next;
                } else if opens == Some(b'[')
                    || (g.ended && !g.junk && alnum)
                    || (g.depth == 0 && g.has_moves && move_one)
                {
                    // Rule 8: a main line starting again at move 1.
                    g.finish(&mut out);
                    mode = Mode::Between;
                    reread = true;
                } else {
                    mode = Mode::Moves { after_blank: false };
                    reread = true;
                }
            }
        }
        if !reread {
            if std::mem::take(&mut g.open_value) && mode == (Mode::Tags { blank_seen: false }) {
                // §3: the lines that go on with a value left open.
                let n = open_value_lines(input, &lines[k + 1..]);
                if n > 0 {
                    g.end = lines[k + n].2;
                    k += n;
                }
            }
            k += 1;
        } else if let Some(a) = from {
            // A tag after a result on this line: the game before ends at
            // its result, the next one starts at the `[`.
            mode = g.restart(&mut out, a, line_no);
        }
    }
    if g.in_comment.is_some() && mode != Mode::Between {
        // A comment that never closes runs to the end of the input.
        g.end = input.len();
    }
    if mode != Mode::Between {
        g.finish(&mut out);
    }
    out
}

impl Game {
    fn new(start: usize, line: u64) -> Game {
        Game {
            start,
            line,
            end: start,
            has_body: false,
            has_moves: false,
            names: Vec::new(),
            open_value: false,
            depth: 0,
            ended: false,
            last_result: false,
            junk: false,
            in_comment: None,
        }
    }

    fn finish(&mut self, out: &mut Vec<Span>) {
        if self.has_body && self.end > self.start {
            out.push((self.start as u64, self.line, self.end - self.start));
        }
        self.in_comment = None;
    }

    /// Ends this game at its result and starts the next at `at`.
    fn restart(&mut self, out: &mut Vec<Span>, at: usize, line: u64) -> Mode {
        self.finish(out);
        *self = Game::new(at, line);
        Mode::Between
    }

    /// A line of tags from `text[p]`, maybe with movetext after them.
    /// True when the line must be read again (from `from`).
    #[allow(clippy::too_many_arguments)]
    fn tag_line(
        &mut self,
        input: &[u8],
        mode: &mut Mode,
        s: usize,
        mut p: usize,
        e: usize,
        next: usize,
        line: u64,
        from: &mut Option<usize>,
    ) -> bool {
        let text = &input[s..e];
        self.has_body = true;
        self.names.extend(tag_names(text, p));
        loop {
            let tag = p;
            p = skip_spaces(text, tag_end(text, p).max(p + 1));
            if p >= text.len() {
                *mode = Mode::Tags { blank_seen: false };
                self.end = next;
                self.open_value = value_open(text, tag);
                return false;
            }
            if text[p] != b'[' {
                *mode = Mode::Moves { after_blank: false };
                return self.moves_line(input, mode, s, p, e, next, line, from);
            }
        }
    }

    /// A line of movetext from `text[p]`.
    #[allow(clippy::too_many_arguments)]
    fn moves_line(
        &mut self,
        input: &[u8],
        _mode: &mut Mode,
        s: usize,
        p: usize,
        e: usize,
        next: usize,
        line: u64,
        from: &mut Option<usize>,
    ) -> bool {
        self.end = next;
        let _ = line;
        // Only a result on this line may end the game at a token after a
        // comment that runs across lines.
        self.last_result = false;
        match self.moves(input, s, p, e, false) {
            Moves::Done => false,
            Moves::GameAt(a) => {
                *from = Some(s + a);
                true
            }
        }
    }

    /// Reads the movetext `input[s + p..s + e]` outside comments: variation
    /// depth, whether the text's last token ends the main line, a comment
    /// left open at the line end, a game after a result. `after_result`:
    /// the text starts right after a comment (that ran across lines) which
    /// followed a result.
    fn moves(&mut self, input: &[u8], s: usize, p: usize, e: usize, after_result: bool) -> Moves {
        let text = &input[s..e];
        let mut i = p;
        // The last token (`p..p` for the result before the text), for rule 7.
        let mut token: Option<(usize, usize)> = after_result.then_some((p, p));
        let ends = |token: Option<(usize, usize)>, depth: u32| {
            depth == 0 && token.is_some_and(|(a, z)| a == z || ends_line(&text[a..z]))
        };
        let mut start: Option<usize> = None;
        let mut stretch_end = text.len();
        while i < text.len() {
            let b = text[i];
            let space = space_len(text, i) > 0;
            let boundary = space || matches!(b, b'{' | b';' | b'(' | b')' | b'[' | b'}');
            if boundary && let Some(t) = start.take() {
                token = Some((t, i));
            }
            match b {
                b'{' => match text[i + 1..].iter().position(|&c| c == b'}') {
                    Some(c) => {
                        i += c + 2;
                        continue;
                    }
                    None => {
                        self.in_comment = Some(false);
                        stretch_end = i;
                        break;
                    }
                },
                b';' => {
                    stretch_end = i;
                    break;
                }
                b'(' => {
                    self.depth += 1;
                    token = None;
                }
                b')' => {
                    self.depth = self.depth.saturating_sub(1);
                    token = None;
                }
                b'[' => {
                    if ends(token, self.depth) && is_tag_pair(&text[i..]) {
                        let (_, z) = token.unwrap_or_default();
                        self.note(&text[p..z]);
                        self.end = s + z;
                        return Moves::GameAt(i);
                    }
                    token = None;
                }
                _ if boundary => {}
                _ if start.is_none() => {
                    if b.is_ascii_alphanumeric() && ends(token, self.depth) {
                        let (_, z) = token.unwrap_or_default();
                        self.note(&text[p..z]);
                        self.end = s + z;
                        return Moves::GameAt(i);
                    }
                    start = Some(i);
                }
                _ => {}
            }
            i += space_len(text, i).max(1);
        }
        self.note(&text[p..stretch_end]);
        Moves::Done
    }

    /// What a stretch of movetext says: a body, moves, a result at depth 0.
    fn note(&mut self, text: &[u8]) {
        if let Some(last) = last_token(text) {
            self.has_body = true;
            self.has_moves = true;
            self.last_result = self.depth == 0 && ends_line(last);
            self.ended |= self.last_result;
        }
    }
}
