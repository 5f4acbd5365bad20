//! Line ends and whitespace as PGN files in the wild write them: `\n`, `\r\n`
//! and a lone `\r` (classic Mac) all end a line, and a line holding only
//! spaces, tabs, the ideographic space U+3000, the no-break space U+00A0
//! (text copied from web pages) or U+FEFF (the byte order mark a Windows
//! tool puts before each file that `cat` then joins) counts as blank.

/// The end of the line that starts at or before `from`: `(content_end,
/// next_line_start)`. `None` when the line is not known to be complete: no
/// terminator before the end of `buf`, or a `\r` as the last byte (a `\n` may
/// follow in the next chunk), unless `is_final` says no more bytes will come.
#[inline]
pub fn line_end(buf: &[u8], from: usize, is_final: bool) -> Option<(usize, usize)> {
    let rest = buf.get(from..)?;
    match memchr::memchr2(b'\n', b'\r', rest) {
        Some(i) => {
            let at = from + i;
            if buf.get(at) == Some(&b'\r') {
                match buf.get(at + 1) {
                    Some(b'\n') => Some((at, at + 2)),
                    Some(_) => Some((at, at + 1)),
                    None if is_final => Some((at, at + 1)),
                    None => None,
                }
            } else {
                Some((at, at + 1))
            }
        }
        None if is_final => Some((buf.len(), buf.len())),
        None => None,
    }
}

/// ASCII whitespace as Python's `str.isspace` sees it, minus the line ends.
#[inline]
pub fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c | 0x1c..=0x1f)
}

/// Length of the whitespace character at `buf[i]` (1 for ASCII; in UTF-8,
/// 2 for the no-break space U+00A0, 3 for the ideographic space U+3000 and
/// for U+FEFF), or 0 when there is none.
#[inline]
pub fn space_len(buf: &[u8], i: usize) -> usize {
    match buf.get(i) {
        Some(&b) if is_space_byte(b) => 1,
        Some(0xc2) if buf.get(i + 1) == Some(&0xa0) => 2,
        Some(0xe3) if buf.get(i + 1..i + 3) == Some(&[0x80, 0x80][..]) => 3,
        Some(0xef) if buf.get(i + 1..i + 3) == Some(&[0xbb, 0xbf][..]) => 3,
        _ => 0,
    }
}

/// The first byte of every whitespace character [`space_len`] takes
/// beyond ASCII (U+00A0, U+3000, U+FEFF in UTF-8): a byte above the space
/// that is not one of these starts no whitespace.
#[inline]
pub const fn is_space_lead(b: u8) -> bool {
    matches!(b, 0xc2 | 0xe3 | 0xef)
}

/// Index of the first non-whitespace byte of `buf[from..to]` (or `to`).
#[inline]
pub fn skip_spaces(buf: &[u8], mut from: usize, to: usize) -> usize {
    while from < to {
        let n = space_len(buf, from);
        if n == 0 {
            break;
        }
        from += n;
    }
    from.min(to)
}

/// True when `buf[from..to]` holds only whitespace.
#[inline]
pub fn is_blank(buf: &[u8], from: usize, to: usize) -> bool {
    skip_spaces(buf, from, to) >= to
}

/// Number of line ends in `bytes` (`\n`, `\r\n`, lone `\r`). A `\r` as the
/// last byte counts as a line end; callers only count ranges that end before
/// a non-`\n` byte or at the end of the data.
pub fn count_lines(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count() as u64;
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf;
    }
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count() as u64;
    lf + lone_cr
}

/// The four game termination markers of the PGN standard.
#[inline]
pub fn is_result(tok: &[u8]) -> bool {
    matches!(tok, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// A result written without the space before it, glued to the move it
/// follows (`Nf3*`, `Qxf7#1-0`, `Kd2 1/2-1/2` typed as `Kd21/2-1/2`):
/// the text before the result and the result. python-chess's tokenizer
/// reads such a token as a move and a result, as its regular expression
/// matches the move first; no move ends in a result's text (a rank is
/// 1-8, so a move never ends in `1-0` or `0-1`). A token that is a
/// result alone is not glued.
///
/// ```
/// use pgnmill::pgn::lines::glued_result;
/// assert_eq!(glued_result(b"Qxf7#1-0"), Some((&b"Qxf7#"[..], "1-0")));
/// assert_eq!(glued_result(b"e5*"), Some((&b"e5"[..], "*")));
/// assert_eq!(glued_result(b"1-0"), None);
/// assert_eq!(glued_result(b"Nf3"), None);
/// ```
pub fn glued_result(tok: &[u8]) -> Option<(&[u8], &'static str)> {
    ["1-0", "0-1", "1/2-1/2", "*"]
        .into_iter()
        .find_map(|result| {
            let before = tok.strip_suffix(result.as_bytes())?;
            (!before.is_empty()).then_some((before, result))
        })
}

/// Whether a main-line token ends the main line: a result, alone or glued
/// to the move before it (docs/pgn-dialect.md, rule 7).
#[inline]
pub fn ends_main_line(tok: &[u8]) -> bool {
    is_result(tok) || glued_result(tok).is_some()
}
