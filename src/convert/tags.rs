//! The tag section of a converted game: copied as written, with the
//! `[Format]` tag set to the target notation (replaced where it exists,
//! added after the last tag where it does not).

use crate::pgn::GameText;

/// Byte index of `part` inside `whole`, when `part` is a subslice of it (tags
/// and tokens borrow from the game's bytes, so their place is known without
/// a search).
pub(crate) fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= whole.len()).then_some(start)
}

/// Index one past the `]` that closes the tag whose value ends at `from`,
/// looking no further than the line end (a broken tag ends with its line).
fn tag_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b']' => return i + 1,
            b'\n' | b'\r' => return i,
            _ => i += 1,
        }
    }
    i
}

/// Index of the `[` that opens the tag whose name starts at `name_start`.
fn tag_start(bytes: &[u8], name_start: usize) -> usize {
    let head = bytes.get(..name_start).unwrap_or_default();
    head.iter().rposition(|&b| b == b'[').unwrap_or(name_start)
}

/// The line terminator used by the line that contains `at` (`\n` when the
/// line has none).
fn eol_after(bytes: &[u8], at: usize) -> (usize, &'static str) {
    let rest = bytes.get(at..).unwrap_or_default();
    match memchr::memchr2(b'\n', b'\r', rest) {
        Some(i) => {
            let crlf = rest.get(i..i + 2) == Some(b"\r\n");
            let len = if crlf { 2 } else { 1 };
            (at + i + len, if crlf { "\r\n" } else { "\n" })
        }
        None => (bytes.len(), "\n"),
    }
}

/// Appends the game's tag section (everything before its movetext) to
/// `out`, with every `[Format]` tag replaced by `[Format "<format>"]`, or
/// one added after the last tag (on a line of its own when the last tag ends
/// its line; at the very start of a game without tags).
pub fn set_format_tag(game: &GameText<'_>, format: &str, out: &mut String) {
    let bytes = game.bytes();
    let head_len = game.movetext_start().min(bytes.len());
    let new_tag = format!("[Format \"{format}\"]");
    let mut cursor = 0;
    let mut replaced = false;
    let mut last_tag_end = None;
    for tag in game.tags() {
        let (Some(name_at), Some(value_at)) =
            (offset_in(bytes, tag.name), offset_in(bytes, tag.raw_value))
        else {
            continue;
        };
        let end = tag_end(bytes, value_at + tag.raw_value.len());
        last_tag_end = Some(end);
        if !tag.name_is("format") {
            continue;
        }
        let start = tag_start(bytes, name_at);
        if start < cursor {
            continue;
        }
        push_text(out, bytes.get(cursor..start));
        out.push_str(&new_tag);
        cursor = end;
        replaced = true;
    }
    if !replaced {
        match last_tag_end {
            None => {
                let (_, eol) = eol_after(bytes, 0);
                out.push_str(&new_tag);
                out.push_str(eol);
            }
            Some(end) => {
                let (line_end, eol) = eol_after(bytes, end);
                let rest_of_line = bytes.get(end..line_end).unwrap_or_default();
                let ends_line = rest_of_line.iter().all(u8::is_ascii_whitespace)
                    && line_end <= head_len
                    && line_end > end;
                if ends_line {
                    push_text(out, bytes.get(cursor..line_end));
                    out.push_str(&new_tag);
                    out.push_str(eol);
                    cursor = line_end;
                } else {
                    push_text(out, bytes.get(cursor..end));
                    out.push(' ');
                    out.push_str(&new_tag);
                    cursor = end;
                }
            }
        }
    }
    push_text(out, bytes.get(cursor..head_len));
}

/// Appends a slice of the game's text. The game is UTF-8 and every cut is at
/// an ASCII byte, so the slice is UTF-8; anything else is replaced, never a
/// panic.
pub(crate) fn push_text(out: &mut String, part: Option<&[u8]>) {
    if let Some(part) = part {
        out.push_str(&String::from_utf8_lossy(part));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(pgn: &str) -> String {
        let game = GameText::new(pgn.as_bytes(), 1);
        let mut out = String::new();
        set_format_tag(&game, "WXF", &mut out);
        out
    }

    #[test]
    fn replaces_an_existing_format_tag() {
        assert_eq!(
            head("[Event \"e\"]\n[format \"Chinese\"]\n[Result \"*\"]\n\n1. h2e2 *\n"),
            "[Event \"e\"]\n[Format \"WXF\"]\n[Result \"*\"]\n\n"
        );
    }

    #[test]
    fn adds_one_after_the_last_tag_keeping_crlf() {
        assert_eq!(
            head("[Event \"e\"]\r\n[Result \"*\"]\r\n\r\n1. h2e2 *\r\n"),
            "[Event \"e\"]\r\n[Result \"*\"]\r\n[Format \"WXF\"]\r\n\r\n"
        );
    }

    #[test]
    fn adds_one_on_the_tag_line_that_carries_movetext() {
        assert_eq!(
            head("[Event \"e\"] 1. h2e2 *\n"),
            "[Event \"e\"] [Format \"WXF\"] "
        );
    }

    #[test]
    fn adds_one_to_a_game_without_tags() {
        assert_eq!(head("1. h2e2 *\n"), "[Format \"WXF\"]\n");
    }
}
