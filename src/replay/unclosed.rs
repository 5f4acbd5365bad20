//! Games whose text ends inside something that never closes: a variation
//! (the splitter ends a game at the next tag section whatever the depth,
//! docs/pgn-dialect.md §2) or a tag value (ended at its line end, §3). The
//! game cannot pass for complete: it is a `parse_error` naming the line.

use super::Status;
use crate::pgn::headers::UnclosedTag;

/// A main-line `(` opened at `line` whose variation never closes.
pub(crate) fn variation(line: u64) -> (Status, String) {
    (
        Status::ParseError,
        format!(
            "the variation opened at line {line} never closes: the rest of the game \
             was read as variation"
        ),
    )
}

/// A tag whose value has no closing quote on its line; the lines after it
/// that go on with the value (docs/pgn-dialect.md §3) are named as passed
/// over.
pub(crate) fn tag(tag: UnclosedTag) -> (Status, String) {
    let line = tag.line;
    let mut error =
        format!("the tag at line {line} has no closing quote: its value was ended at the line end");
    match tag.lines_after {
        0 => {}
        1 => error.push_str(&format!(
            ", and line {} that goes on with it was not read",
            line + 1
        )),
        n => error.push_str(&format!(
            ", and lines {}-{} that go on with it were not read",
            line + 1,
            line + n
        )),
    }
    (Status::ParseError, error)
}
