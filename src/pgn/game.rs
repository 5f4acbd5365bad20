//! One game's text: where its tag section ends and its movetext begins.

use super::main_line::MainLine;
use super::movetext::{Movetext, TokenKind};
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

    /// Whether the game's text is whole by its own account: its main
    /// line ends with a result (`1-0`, `0-1`, `1/2-1/2`, `*`) and nothing
    /// but white space follows. A text broken off inside the game (a file
    /// cut short) has neither, unless it broke off just after the result.
    pub fn ends_with_result(&self) -> bool {
        let Some(result) = self.movetext().find(|t| t.kind == TokenKind::Result) else {
            return false;
        };
        let end = result.offset + result.text.len();
        self.bytes
            .get(end..)
            .is_some_and(|rest| rest.iter().all(u8::is_ascii_whitespace))
    }

    /// Byte index in [`Self::bytes`] where the movetext starts (the length when
    /// the game has none).
    pub fn movetext_start(&self) -> usize {
        self.movetext_start
    }
}

#[cfg(test)]
mod tests {
    use super::GameText;

    /// A text cut anywhere before its result is not whole; one that ends
    /// with its result, white space after it, is.
    #[test]
    fn a_game_is_whole_when_its_text_ends_with_its_result() {
        let game = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 {a 1-0 comment} e5 (1... c5 1-0) 2. Qh5 1-0\n\n";
        let whole = |text: &str| GameText::new(text.as_bytes(), 1).ends_with_result();
        assert!(whole(game));
        assert!(whole(game.trim_end()));
        assert!(whole("1. e4 *"));
        // Cut at every byte before the result's last: never whole (the
        // result inside the comment and the variation does not count).
        let result_end = game.find("1-0\n\n").map(|at| at + 3);
        for cut in 0..result_end.unwrap_or(0) - 1 {
            assert!(!whole(&game[..cut]), "cut at {cut}: {:?}", &game[..cut]);
        }
        assert!(!whole("1. e4 1-0 2. d4"), "text after the result");
        assert!(!whole("1. e4 {unclosed 1-0"), "a result inside a comment");
    }
}
