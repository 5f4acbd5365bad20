//! One game's text: where its tag section ends and its movetext begins.

use super::main_line::MainLine;
use super::movetext::Movetext;
use super::tag::{TagScan, Tags, walk_tag_section};

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
        Self::read_tags(bytes, line, |_| {})
    }

    /// The game, handing each tag of its tag section to `on_tag` in the
    /// walk that finds where its movetext starts: a caller that needs the
    /// tags reads the section once.
    pub(crate) fn read_tags(bytes: &'a [u8], line: u64, on_tag: impl FnMut(&TagScan)) -> Self {
        let (movetext_start, movetext_line) = walk_tag_section(bytes, line, on_tag);
        GameText {
            bytes,
            line,
            movetext_start,
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

    /// The value (escapes resolved) of the tag named `name`, compared
    /// case-insensitively; of the last one when the name repeats
    /// (docs/pgn-dialect.md §3).
    pub fn tag(&self, name: &str) -> Option<std::borrow::Cow<'a, [u8]>> {
        self.tags()
            .filter(|t| t.name_is(name))
            .last()
            .map(|t| t.value())
    }

    /// The main-line tokens of the movetext.
    pub fn movetext(&self) -> Movetext<'a> {
        Movetext::new(self.bytes, self.movetext_start, self.movetext_line)
    }

    /// The main line's move tokens, up to the result.
    pub fn main_line(&self) -> MainLine<'a> {
        MainLine::new(self.movetext())
    }

    /// Byte index in [`Self::bytes`] where the movetext starts (the length when
    /// the game has none).
    pub fn movetext_start(&self) -> usize {
        self.movetext_start
    }
}
