//! A game's main line: the move tokens of its movetext, in order, up to its
//! result. Every reader of moves (the chess and xiangqi replays, `convert`)
//! walks the movetext this one way, so that what counts as a move, what is
//! passed over (NAGs, annotation glyphs) and where the line ends is decided
//! once.

use super::movetext::{Movetext, Token, TokenKind};

/// The main line's move tokens; see the module docs. NAGs (`$1`) and
/// annotation glyphs (`!`, `?!`) are passed over; the result token ends
/// the line and is kept ([`MainLine::result`]).
#[derive(Debug, Clone)]
pub struct MainLine<'a> {
    tokens: Movetext<'a>,
    result: Option<Token<'a>>,
}

impl<'a> MainLine<'a> {
    /// The main line of the movetext `tokens` will read.
    pub fn new(tokens: Movetext<'a>) -> Self {
        MainLine {
            tokens,
            result: None,
        }
    }

    /// The result token that ended the line, once the iterator reached it.
    pub fn result(&self) -> Option<&Token<'a>> {
        self.result.as_ref()
    }

    /// The 1-based line of byte `offset` of the game.
    pub fn line_at(&self, offset: usize) -> u64 {
        self.tokens.line_at(offset)
    }

    /// The line the iterator has reached.
    pub fn line(&self) -> u64 {
        self.tokens.line()
    }

    /// The line of a `{` comment that never closes, if the iterator met
    /// one (see [`Movetext::unclosed_comment`]).
    pub fn unclosed_comment(&self) -> Option<u64> {
        self.tokens.unclosed_comment()
    }

    /// The line of a `(` that never closes, if the iterator met one (see
    /// [`Movetext::unclosed_variation`]).
    pub fn unclosed_variation(&self) -> Option<u64> {
        self.tokens.unclosed_variation()
    }

    /// Ends the line here: the iterator answers `None` from now on, and
    /// [`MainLine::result`] stays what it was (a replay that found the
    /// game's end inside a token, `2. Nf3*`).
    pub fn stop(&mut self) {
        self.tokens.stop();
    }

    /// The result token after the iterator's position, reading on from
    /// where the line stopped (a caller that stopped at a bad move).
    pub fn find_result(&mut self) -> Option<Token<'a>> {
        if self.result.is_none() {
            while self.next().is_some() {}
        }
        self.result
    }
}

impl<'a> Iterator for MainLine<'a> {
    type Item = Token<'a>;

    /// Always inlined, as [`Movetext`]'s own `next` is: the replay loop is
    /// one function with the tokenizer and the kernel inside it, and a
    /// call here per token cost a fifth of a report's time.
    ///
    /// After the result token [`Movetext`] itself answers `None` (it marks
    /// itself done), so no test of [`MainLine::result`] is needed here.
    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            let token = self.tokens.next()?;
            match token.kind {
                TokenKind::Move => return Some(token),
                TokenKind::Result => {
                    self.result = Some(token);
                    return None;
                }
                TokenKind::Nag | TokenKind::Annotation => {}
            }
        }
    }
}
