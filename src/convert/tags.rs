//! The tag section of a converted game: copied as written, with the
//! `[Format]` tag set to the target notation and `[PgnmillError]` to why
//! the conversion stopped, if it did (each replaced where it exists, added
//! after the last tag where it does not; a stale `[PgnmillError]` of an
//! earlier run removed).

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

/// A tag `convert` sets: its name, and its value, or `None` to remove it.
pub type TagValue<'a> = (&'a str, Option<&'a str>);

/// `[Name "value"]`, the value escaped (`\\` and `\"`).
fn tag_text(name: &str, value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{escaped}\"]")
}

/// Appends the game's tag section (everything before its movetext) to
/// `out`, with each of `tags` set: the first tag of its name (any case)
/// replaced by it, further ones dropped, and one added after the last tag
/// kept where the game has none (on a line of its own when that tag ends
/// its line; at the very start of a game without tags). A tag whose value
/// is `None` is dropped, its line with it when it is alone on the line.
pub fn set_tags(game: &GameText<'_>, tags: &[TagValue<'_>], out: &mut String) {
    let bytes = game.bytes();
    let head_len = game.movetext_start().min(bytes.len());
    let mut edits: Vec<Edit> = Vec::new();
    let mut seen = vec![false; tags.len()];
    // Where a tag to add goes: the end of the last tag kept (or of the
    // first one dropped, when none is kept).
    let mut after: Option<usize> = None;
    let mut first_dropped: Option<usize> = None;
    let mut cursor = 0;
    for tag in game.tags() {
        let (Some(name_at), Some(value_at)) =
            (offset_in(bytes, tag.name), offset_in(bytes, tag.raw_value))
        else {
            continue;
        };
        let start = tag_start(bytes, name_at);
        let end = tag_end(bytes, value_at + tag.raw_value.len());
        if start < cursor {
            continue;
        }
        cursor = end;
        let Some(k) = tags.iter().position(|(name, _)| tag.name_is(name)) else {
            after = Some(end);
            continue;
        };
        match tags[k].1 {
            Some(value) if !seen[k] => {
                edits.push((start, end, tag_text(tags[k].0, value)));
                after = Some(end);
            }
            _ => {
                let (from, to) = line_of_tag(bytes, start, end, head_len);
                first_dropped.get_or_insert(from);
                edits.push((from, to, String::new()));
            }
        }
        seen[k] = true;
    }
    let added: Vec<String> = tags
        .iter()
        .zip(&seen)
        .filter_map(|((name, value), seen)| match value {
            Some(v) if !seen => Some(tag_text(name, v)),
            _ => None,
        })
        .collect();
    if !added.is_empty() {
        edits.push(match after {
            Some(end) => {
                let (line_end, eol) = eol_after(bytes, end);
                let rest_of_line = bytes.get(end..line_end).unwrap_or_default();
                if rest_of_line.iter().all(u8::is_ascii_whitespace)
                    && line_end <= head_len
                    && line_end > end
                {
                    (line_end, line_end, lines(&added, eol))
                } else {
                    (end, end, format!(" {}", added.join(" ")))
                }
            }
            None => {
                let at = first_dropped.unwrap_or(0);
                (at, at, lines(&added, eol_after(bytes, 0).1))
            }
        });
    }
    splice(bytes, (0, head_len), &mut edits, out);
}

/// The tags, each on its own line ended by `eol`.
fn lines(tags: &[String], eol: &str) -> String {
    tags.iter().map(|t| format!("{t}{eol}")).collect()
}

/// The bytes a dropped tag at `start..end` takes: its whole line when
/// nothing else is on it (and the line is in the tag section), else itself.
fn line_of_tag(bytes: &[u8], start: usize, end: usize, head_len: usize) -> (usize, usize) {
    let head = bytes.get(..start).unwrap_or_default();
    let line_start = head
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let (line_end, _) = eol_after(bytes, end);
    let blank = |from: usize, to: usize| {
        bytes
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .all(u8::is_ascii_whitespace)
    };
    if blank(line_start, start) && blank(end, line_end) && line_end <= head_len {
        (line_start, line_end)
    } else {
        (start, end)
    }
}

/// A change to a game's text: the bytes `start..end` replaced by the
/// string (an insertion when the two are equal).
pub(crate) type Edit = (usize, usize, String);

/// Appends `bytes[range]` to `out` with `edits` made (sorted here by their
/// start; they must not overlap, and an insertion comes before a change
/// at its offset).
pub(crate) fn splice(bytes: &[u8], range: (usize, usize), edits: &mut [Edit], out: &mut String) {
    edits.sort_by_key(|e| (e.0, e.1));
    let mut cursor = range.0;
    for (start, end, text) in edits.iter() {
        if *start < cursor || *end > range.1 {
            continue;
        }
        push_text(out, bytes.get(cursor..*start));
        out.push_str(text);
        cursor = *end;
    }
    push_text(out, bytes.get(cursor..range.1));
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
        with_error(pgn, None)
    }

    fn with_error(pgn: &str, error: Option<&str>) -> String {
        let game = GameText::new(pgn.as_bytes(), 1);
        let mut out = String::new();
        set_tags(
            &game,
            &[("Format", Some("WXF")), ("PgnmillError", error)],
            &mut out,
        );
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

    #[test]
    fn sets_the_error_tag_escaped_and_drops_a_stale_one() {
        assert_eq!(
            with_error("[Event \"e\"]\n\n1. h2e2 *\n", Some("ply 2 \"x\\y\": no")),
            "[Event \"e\"]\n[Format \"WXF\"]\n[PgnmillError \"ply 2 \\\"x\\\\y\\\": no\"]\n\n"
        );
        assert_eq!(
            with_error(
                "[Event \"e\"]\n[PgnmillError \"old\"]\n[Format \"ICCS\"]\n\n1. h2e2 *\n",
                None
            ),
            "[Event \"e\"]\n[Format \"WXF\"]\n\n"
        );
        assert_eq!(
            with_error(
                "[PgnmillError \"old\"]\r\n[pgnmillerror \"older\"]\r\n\r\n1. h2e2 *\r\n",
                Some("new")
            ),
            "[PgnmillError \"new\"]\r\n[Format \"WXF\"]\r\n\r\n"
        );
    }
}
