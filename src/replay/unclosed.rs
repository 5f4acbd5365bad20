//! Games whose text ends inside something that never closes: a variation
//! (the splitter ends a game at the next tag section whatever the depth,
//! docs/pgn-dialect.md §2) or a tag value (ended at its line end, §3). The
//! game cannot pass for complete: it is a `parse_error` naming the line.

use super::Status;

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

/// A tag at `line` whose value has no closing quote.
pub(crate) fn tag(line: u64) -> (Status, String) {
    (
        Status::ParseError,
        format!("the tag at line {line} has no closing quote: its value was ended at the line end"),
    )
}
