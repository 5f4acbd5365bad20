//! One game's text: where its tag section ends and its movetext begins.

use super::movetext::Movetext;
use super::tag::{HeaderCursor, HeaderItem, Tags};

/// The bytes of one game (as found by [`super::split_window`]), ready to be
/// read as tags and movetext. Construction walks the tag section once to find
/// where the movetext starts; nothing is allocated.
///
/// For GBK or Big5 inputs, decode the game to UTF-8 first
/// (`crate::source::decode_game`): their trail bytes can look like `{` or `\`.
#[derive(Debug, Clone, Copy)]
pub struct GameText<'a> {
    bytes: &'a [u8],
    line: u64,
    movetext_start: usize,
    movetext_line: u64,
}

impl<'a> GameText<'a> {
    /// `line` is the 1-based line of the game's first byte in its source
    /// ([`super::GameSpan::line`]); token and tag lines are counted from it.
    pub fn new(bytes: &'a [u8], line: u64) -> Self {
        let mut cursor = HeaderCursor::new(bytes, line);
        let (movetext_start, movetext_line) = loop {
            match cursor.next(bytes) {
                HeaderItem::Tag(..) => continue,
                HeaderItem::Movetext(p, l) => break (p, l),
                HeaderItem::End => break (bytes.len(), line),
            }
        };
        GameText {
            bytes,
            line,
            movetext_start,
            movetext_line,
        }
    }

    /// A game whose tag section was already walked (by a caller that read
    /// the tags on the way): the movetext starts at `movetext_start`, on
    /// line `movetext_line`.
    pub(crate) fn from_parts(
        bytes: &'a [u8],
        line: u64,
        movetext_start: usize,
        movetext_line: u64,
    ) -> Self {
        GameText {
            bytes,
            line,
            movetext_start: movetext_start.min(bytes.len()),
            movetext_line,
        }
    }

    /// The game's bytes as given.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The tag pairs, in order.
    pub fn tags(&self) -> Tags<'a> {
        Tags::new(
            self.bytes.get(..self.movetext_start).unwrap_or_default(),
            self.line,
        )
    }

    /// The value (escapes resolved) of the first tag named `name`, compared
    /// case-insensitively.
    pub fn tag(&self, name: &str) -> Option<std::borrow::Cow<'a, [u8]>> {
        self.tags().find(|t| t.name_is(name)).map(|t| t.value())
    }

    /// The main-line tokens of the movetext.
    pub fn movetext(&self) -> Movetext<'a> {
        Movetext::new(self.bytes, self.movetext_start, self.movetext_line)
    }

    /// Byte index in [`Self::bytes`] where the movetext starts (the length when
    /// the game has none).
    pub fn movetext_start(&self) -> usize {
        self.movetext_start
    }
}
