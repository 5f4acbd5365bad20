//! The tag names of the tag section being read, for rule 3 of
//! docs/pgn-dialect.md §2: after a blank line in a tag section, a tag line
//! that repeats a name the section already has starts the next game. That
//! is how exports write games that are only a tag section (a lichess
//! broadcast's unplayed boards, where only the first game has `[Event]`):
//! one game's tags, a blank line, the next game's tags.
//!
//! Most tag sections have no blank line, and the splitter's hot loop reads
//! their lines without looking at a name. So the names are read only when
//! the rule asks (at a tag line after a blank line), from where the last
//! question stopped: each line of a section is read for names at most once,
//! however many blank lines the section has.

use std::collections::BTreeSet;

use crate::pgn::lines::{self, skip_spaces};
use crate::pgn::tag::scan_tag;

/// The names of a tag section's tags before a point, in ASCII lower case
/// (names are matched case-insensitively, docs/pgn-dialect.md §3). A
/// B-tree: every game starts an empty one, which costs nothing (no hasher
/// to seed), and no input can make its look-ups slow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct TagNames {
    names: BTreeSet<Vec<u8>>,
    /// The first byte of the section not yet read for names.
    read_to: usize,
}

impl TagNames {
    /// A section that starts at `start` (the `[` of its first tag, or the
    /// start of its first line).
    pub(super) fn starting_at(start: usize) -> Self {
        TagNames {
            names: BTreeSet::new(),
            read_to: start,
        }
    }

    /// Whether one of the tags of the line `buf[start..end]` (whose text
    /// starts with `[` at `text`) has a name that a tag before the line,
    /// in this section, has. The lines between the last question and this
    /// line are read first; they are complete lines of the section, so
    /// their ends are known.
    pub(super) fn repeated_on_line(
        &mut self,
        buf: &[u8],
        start: usize,
        text: usize,
        end: usize,
        dbcs: bool,
    ) -> bool {
        let mut at = self.read_to;
        while at < start {
            let (le, next) = lines::line_end(buf, at, true).unwrap_or((start, start));
            let (le, next) = (le.min(start), next.min(start).max(at + 1));
            let names = &mut self.names;
            each_name(buf, skip_spaces(buf, at, le), le, dbcs, |name| {
                names.insert(name.to_ascii_lowercase());
                false
            });
            at = next;
        }
        self.read_to = start.max(self.read_to);
        let names = &self.names;
        each_name(buf, text, end, dbcs, |name| {
            names.contains(&name.to_ascii_lowercase())
        })
    }
}

/// Calls `found` with the name of each tag of the tags that start at `p`
/// and run to `end` (a line's end), until it returns true; whether it did.
/// A line that does not start with `[` has none; empty names are left out.
fn each_name(
    buf: &[u8],
    mut p: usize,
    end: usize,
    dbcs: bool,
    mut found: impl FnMut(&[u8]) -> bool,
) -> bool {
    while p < end && buf.get(p) == Some(&b'[') {
        let tag = scan_tag(buf, p, end, dbcs);
        let name = buf.get(tag.name.0..tag.name.1).unwrap_or_default();
        if !name.is_empty() && found(name) {
            return true;
        }
        p = skip_spaces(buf, tag.end.max(p + 1), end);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_before_the_line_are_read_once_and_compared_without_case() {
        let buf = b"[Event \"a\"] [Site \"s\"]\n[White \"x\"]\n\n[black \"y\"]\n\n[WHITE \"z\"]\n";
        let mut names = TagNames::starting_at(0);
        // Line 4, `[black ...]`: no earlier tag has the name.
        assert!(!names.repeated_on_line(buf, 36, 36, 47, false));
        // Line 6 repeats `White` (and the names of line 4 are read now).
        assert!(names.repeated_on_line(buf, 49, 49, 60, false));
        assert_eq!(names.read_to, 49);
        assert!(names.names.contains(&b"site"[..]));
        assert!(names.names.contains(&b"black"[..]));
    }

    #[test]
    fn any_tag_of_the_line_counts() {
        let buf = b"[A \"1\"]\n\n[B \"2\"] [a \"3\"]\n";
        let mut names = TagNames::starting_at(0);
        assert!(names.repeated_on_line(buf, 9, 9, 24, false));
    }
}
