//! Games whose text ends inside something that never closes: a comment
//! (which swallows the rest of the input, docs/pgn-dialect.md §6), a
//! variation (the splitter ends a game at the next tag section whatever the
//! depth, §2) or a tag value (ended at its line end, §3). The game cannot
//! pass for complete: it is a `parse_error` naming the line.

use super::{ReplayedGame, Status};
use crate::pgn::MainLine;
use crate::pgn::headers::UnclosedTag;

/// Marks a game that replayed without a fault (`out.status` still ok) as a
/// `parse_error` when its main line ran into a comment or a variation that
/// never closes: for chess and xiangqi alike, once the line is read.
pub(crate) fn check_main_line(line: &MainLine<'_>, out: &mut ReplayedGame<'_>) {
    if out.status != Status::Ok {
        return;
    }
    if let Some(at) = line.unclosed_comment() {
        (out.status, out.error) = comment(at);
    } else if let Some(at) = line.unclosed_variation() {
        (out.status, out.error) = variation(at);
    }
}

/// A `{` comment opened at `line` that never closes: it swallowed the rest
/// of the input, other games included.
fn comment(line: u64) -> (Status, String) {
    (
        Status::ParseError,
        format!(
            "the comment opened at line {line} never closes: the rest of the game \
             was read as comment"
        ),
    )
}

/// A main-line `(` opened at `line` whose variation never closes.
fn variation(line: u64) -> (Status, String) {
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
