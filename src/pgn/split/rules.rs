//! The game-boundary rules of `docs/pgn-dialect.md` §2, line by line, in
//! one place: where a game starts, what belongs to it, where it ends.
//!
//! The splitter has two line readers: the byte-exact one (`exact.rs`, the
//! only one for GBK and Big5, whose trail bytes may equal `{` or `}`) and
//! the vector one (`vector.rs`, over the classifier of `scan.rs`). Neither
//! decides anything: each finds where a line starts, hands it to
//! [`Game::line`] as a [`Line`], and does what the [`Verdict`] says; what a
//! line's movetext says (its variation depth, whether its last token is a
//! result) goes to [`Game::note_tokens`]. The cuts inside a line or a
//! comment (rules 5 and 7) are decided in `cuts.rs`, which both readers
//! call the same way.
//!
//! The vector reader reads a line before its end is known; a question the
//! rules can only answer from the whole line (rule 3's tag name, rule 7's
//! lone result line) is then [`Verdict::NeedLineEnd`], given before the
//! game's state changes, and the byte-exact reader takes that line.

use super::tag_names::TagNames;
use crate::pgn::lines::{self, skip_spaces};

/// Where the reader is, relative to games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Outside any game.
    Between,
    /// In a game's tag section; `blank_seen` once a blank line came in it.
    Headers { blank_seen: bool },
    /// In a game's movetext.
    Movetext,
    /// In a game's movetext, after a blank line.
    MovetextBlank,
}

/// The start of one line as the rules see it. Built by a reader at the
/// line's first byte, with the line's end when the reader knows it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Line<'a> {
    buf: &'a [u8],
    /// The line's first byte.
    start: usize,
    /// Its first byte that is not whitespace (`end`, or the end of `buf`,
    /// for a blank line).
    text: usize,
    /// Where its text ends (at its terminator), when known.
    end: Option<usize>,
    /// Its 1-based line number.
    number: u64,
    dbcs: bool,
}

impl<'a> Line<'a> {
    /// The empty line at `at` (its terminator is at `at`).
    #[inline(always)]
    pub(super) fn empty(buf: &'a [u8], at: usize, number: u64) -> Self {
        Line {
            buf,
            start: at,
            text: at,
            end: Some(at),
            number,
            dbcs: false,
        }
    }

    #[inline(always)]
    pub(super) fn new(
        buf: &'a [u8],
        start: usize,
        end: Option<usize>,
        number: u64,
        dbcs: bool,
    ) -> Self {
        let text = match buf.get(start) {
            // Most lines start with their text: no byte above the space
            // starts whitespace but the first of U+00A0, U+3000, U+FEFF.
            Some(&b) if b > b' ' && !lines::is_space_lead(b) => start,
            _ => skip_spaces(buf, start, end.unwrap_or(buf.len())),
        };
        Line {
            buf,
            start,
            text,
            end,
            number,
            dbcs,
        }
    }

    /// Where the line starts.
    #[inline(always)]
    pub(super) fn start(&self) -> usize {
        self.start
    }

    /// Where the line's text starts, past leading whitespace.
    #[inline(always)]
    pub(super) fn text(&self) -> usize {
        self.text
    }

    /// Whether the line holds only whitespace; `None` when only its end
    /// can tell (whitespace up to the end of the buffer).
    #[inline(always)]
    fn blank(&self) -> Option<bool> {
        match self.end {
            Some(end) => Some(self.text >= end),
            None => match self.buf.get(self.text) {
                Some(b'\n' | b'\r') => Some(true),
                Some(_) => Some(false),
                None => None,
            },
        }
    }

    /// An escape line (`%` in the first column, PGN standard §6) or a line
    /// that is one `;` comment.
    #[inline(always)]
    fn escape(&self) -> bool {
        matches!(self.buf.get(self.start), Some(b'%' | b';'))
    }

    /// The line's text starts with `[`: a tag (or a damaged one).
    #[inline(always)]
    fn tag(&self) -> bool {
        self.buf.get(self.text) == Some(&b'[')
    }

    /// The line's text starts like movetext or a damaged tag: a digit or an
    /// ASCII letter.
    #[inline(always)]
    fn alphanumeric(&self) -> bool {
        self.buf
            .get(self.text)
            .is_some_and(u8::is_ascii_alphanumeric)
    }

    /// The line starts with white's move number 1 (`1.` but not `1...`,
    /// which continues a game after white's first move).
    #[inline(always)]
    fn move_one(&self) -> bool {
        let p = self.text;
        matches!(self.buf.get(p..p + 2), Some(b"1.")) && self.buf.get(p + 2) != Some(&b'.')
    }

    /// The line is a result token and nothing else (whitespace around
    /// it); `None` when that needs the line's end (the buffer ends first).
    #[inline(always)]
    fn lone_result(&self) -> Option<bool> {
        if !matches!(self.buf.get(self.text), Some(b'0' | b'1' | b'*')) {
            return Some(false);
        }
        let rest = self.buf.get(self.text..).unwrap_or_default();
        let Some(len) = [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"]
            .iter()
            .find(|r| rest.starts_with(r))
            .map(|r| r.len())
        else {
            return Some(false);
        };
        // Only ASCII whitespace may follow, as `is_space_byte` says.
        let mut after = self.text + len;
        while self
            .buf
            .get(after)
            .is_some_and(|&b| lines::is_space_byte(b))
        {
            after += 1;
        }
        match self.buf.get(after) {
            _ if self.end == Some(after) => Some(true),
            Some(b'\n' | b'\r') => Some(true),
            Some(_) => Some(false),
            None => None,
        }
    }

    /// Rule 3: the line is a tag line one of whose tags has a name that a
    /// tag before it in the game's tag section has; `None` when that needs
    /// the line's end.
    fn repeats_tag(&self, names: &mut TagNames) -> Option<bool> {
        if !self.tag() {
            return Some(false);
        }
        let end = self.end?;
        Some(names.repeated_on_line(self.buf, self.start, self.text, end, self.dbcs))
    }

    /// The line starts with text that is neither a tag nor an escape: the
    /// lines the vector reader reads as movetext, when the rules agree.
    #[inline(always)]
    pub(super) fn starts_with_text(&self) -> bool {
        self.blank() == Some(false) && !self.escape() && !self.tag()
    }
}

/// What a reader does with a line ([`Game::line`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The line belongs to no game (rule 1): step over it.
    Outside,
    /// The line belongs to the game as it is (an escape line, a lone result
    /// after a blank line): the game runs to its end.
    Keep,
    /// A blank line inside the game (rules 2 and 8): step over it.
    Blank,
    /// The game ends before this line: end it, then ask again.
    EndGame,
    /// Read the line as tags from [`Line::text`] (rules 2 to 4), then call
    /// [`Game::tags_read`] or [`Game::movetext_after_tags`].
    Tags,
    /// The game's movetext starts on this line: read it from
    /// [`Line::text`].
    Movetext,
    /// The line goes on with the game's movetext: read it from its first
    /// byte, [`Line::start`] (leading whitespace is then the tokens'
    /// business: an ideographic space, which is not ASCII whitespace to
    /// the token readers, stays part of the token it precedes, as the
    /// reference splitter reads it).
    MoreMovetext,
    /// Only the line's end can decide; nothing has changed.
    NeedLineEnd,
}

/// What the rules know of the game being read, and where it is.
#[derive(Debug, Clone)]
pub(super) struct Game {
    pub(super) state: State,
    /// Buffer index of the game's first byte.
    pub(super) start: usize,
    /// Line number of the game's first line.
    pub(super) line: u64,
    /// End (terminator included) of the current game's last non-blank line.
    pub(super) content_end: usize,
    /// The current game has a tag or movetext outside comments: text made
    /// only of comments between two games is not a game.
    pub(super) has_body: bool,
    /// The last movetext token so far is a result at depth 0: the game is
    /// over, and movetext after it (past blank lines) starts a tagless game
    /// (rule 7). Sticky: whatever follows on the game's lines, the main
    /// line is over.
    ended_by_result: bool,
    /// The last movetext token so far is a result at depth 0 (not sticky):
    /// a stretch of the same line after a comment that ran across lines
    /// starts after it (rule 7's cut inside a line).
    pub(super) last_is_result: bool,
    /// Variation depth (parentheses outside comments) at the end of the
    /// movetext so far: a line after a blank line inside a variation never
    /// starts a game.
    pub(super) depth: u32,
    /// The current game has movetext outside comments (not only tags and
    /// comments): only then can `1.` after a blank line start a new game.
    has_movetext: bool,
    /// Text that is not movetext followed the result (a site's footer, a
    /// signature): the rest up to the next tag section stays with the game.
    trailing_junk: bool,
    /// The names of the game's tags, which a tag after a blank line in the
    /// tag section is compared with (rule 3).
    names: TagNames,
}

impl Game {
    /// Between games, at the line numbered `line`.
    pub(super) fn new(line: u64) -> Self {
        Game {
            state: State::Between,
            start: 0,
            line,
            content_end: 0,
            has_body: false,
            ended_by_result: false,
            last_is_result: false,
            depth: 0,
            has_movetext: false,
            trailing_junk: false,
            names: TagNames::default(),
        }
    }

    /// The rules for the line `line`: what it is to the game being read
    /// (the state changes that go with the verdict are made here).
    #[inline(always)]
    pub(super) fn line(&mut self, line: &Line<'_>) -> Verdict {
        let Some(blank) = line.blank() else {
            return Verdict::NeedLineEnd;
        };
        loop {
            match self.state {
                State::Between => {
                    // Rule 1.
                    if blank || line.escape() {
                        return Verdict::Outside;
                    }
                    self.begin(line.start, line.number);
                    if line.tag() {
                        return Verdict::Tags;
                    }
                    self.state = State::Movetext;
                    return Verdict::Movetext;
                }
                State::Headers { blank_seen } => {
                    let escape = line.escape();
                    if blank_seen && !blank && !escape {
                        // Rule 3: the next tag-only game's tags after a
                        // blank line.
                        match line.repeats_tag(&mut self.names) {
                            None => return Verdict::NeedLineEnd,
                            Some(true) => return Verdict::EndGame,
                            Some(false) => {}
                        }
                    }
                    if escape {
                        return Verdict::Keep;
                    }
                    if blank {
                        // Rule 2.
                        if blank_seen {
                            return Verdict::EndGame;
                        }
                        self.state = State::Headers { blank_seen: true };
                        return Verdict::Blank;
                    }
                    if line.tag() {
                        return Verdict::Tags;
                    }
                    self.state = State::Movetext;
                    return Verdict::Movetext;
                }
                State::Movetext => {
                    if line.escape() {
                        return Verdict::Keep;
                    }
                    if blank {
                        self.state = State::MovetextBlank;
                        return Verdict::Blank;
                    }
                    // Rule 6, and rule 7's movetext after a result.
                    if line.tag() || self.starts_game_after_result(line) {
                        return Verdict::EndGame;
                    }
                    if self.ended_by_result {
                        self.trailing_junk = true;
                    }
                    return Verdict::MoreMovetext;
                }
                State::MovetextBlank => {
                    if blank {
                        return Verdict::Blank;
                    }
                    if !self.ended_by_result {
                        // A result alone on its line after a blank line
                        // ends the game it follows.
                        match line.lone_result() {
                            None => return Verdict::NeedLineEnd,
                            Some(true) => {
                                self.state = State::Movetext;
                                self.ended_by_result = true;
                                return Verdict::Keep;
                            }
                            Some(false) => {}
                        }
                        if line.escape() {
                            return Verdict::Keep;
                        }
                    }
                    // Rules 6, 7 and 8: tags, movetext after a result, or
                    // a main line that starts again at move 1 (text after
                    // a result that is not movetext, such as a site's
                    // footer, stays with its game).
                    if line.tag()
                        || self.starts_game_after_result(line)
                        || (self.depth == 0 && self.has_movetext && line.move_one())
                    {
                        return Verdict::EndGame;
                    }
                    // Rule 8: a blank line inside movetext; the game goes
                    // on with this line.
                    self.state = State::Movetext;
                }
            }
        }
    }

    /// What [`Game::line`] says of a line that is one tag, without
    /// building the line, for a run of such lines: in a tag section with no
    /// blank line, a tag line goes on with it (rule 2), verdict
    /// [`Verdict::Tags`], and nothing else changes.
    #[inline(always)]
    pub(super) fn tag_line_goes_on(&self) -> bool {
        self.state == State::Headers { blank_seen: false }
    }

    /// What [`Game::line`] says of a line that starts with text
    /// ([`Line::starts_with_text`]) while reading movetext, without the
    /// questions whose answer that is, for a run of movetext lines:
    /// whether it goes on with the movetext ([`Verdict::MoreMovetext`],
    /// with the same change), or not (nothing changes).
    #[inline(always)]
    pub(super) fn text_goes_on(&mut self, line: &Line<'_>) -> bool {
        if self.state != State::Movetext {
            return false;
        }
        if self.ended_by_result {
            if !self.trailing_junk && line.alphanumeric() {
                return false;
            }
            self.trailing_junk = true;
        }
        true
    }

    /// Rule 7: after the result, a line that starts like movetext starts a
    /// new game, unless text that is neither (`=====`, a footer in
    /// Chinese) came first.
    #[inline(always)]
    fn starts_game_after_result(&self, line: &Line<'_>) -> bool {
        self.ended_by_result && !self.trailing_junk && line.alphanumeric()
    }

    /// A game starts at `start`, on line `line`: what was known of the last
    /// one is forgotten.
    #[inline(always)]
    fn begin(&mut self, start: usize, line: u64) {
        *self = Game {
            start,
            line,
            names: TagNames::starting_at(start),
            ..Game::new(line)
        };
    }

    /// Rule 7: the next game's tags start at `at`, on line `line`, right
    /// after the result of the game before on the same line (that game has
    /// been ended).
    pub(super) fn begin_tags_at(&mut self, at: usize, line: u64) {
        self.begin(at, line);
        // In the game, whatever comes of its tag line: a window that ends
        // before the line is known resumes at the game's start.
        self.state = State::Headers { blank_seen: false };
    }

    /// Rule 7: a tagless game starts at `at`, on line `line`, right after
    /// the result of the game before on the same line (that game has been
    /// ended).
    pub(super) fn begin_movetext_at(&mut self, at: usize, line: u64) {
        self.begin(at, line);
        self.state = State::Movetext;
    }

    /// A line of tags was read to its end (`next`, the next line's start):
    /// the tag section goes on.
    #[inline(always)]
    pub(super) fn tags_read(&mut self, next: usize) {
        self.has_body = true;
        self.state = State::Headers { blank_seen: false };
        self.content_end = next;
    }

    /// Rule 4: a line of tags goes on with movetext.
    pub(super) fn movetext_after_tags(&mut self) {
        self.has_body = true;
        self.state = State::Movetext;
    }

    /// What a stretch of movetext outside comments says: the variation
    /// depth at its end, and whether it holds a token and that last token
    /// ends the main line (`1-0`, `*`, or a result glued to a move as in
    /// `1... h6*`, `Qxf7#1-0`).
    #[inline(always)]
    pub(super) fn note_tokens(&mut self, depth: u32, last_token: Option<bool>) {
        self.depth = depth;
        if let Some(is_result) = last_token {
            self.has_body = true;
            self.has_movetext = true;
            self.last_is_result = depth == 0 && is_result;
            self.ended_by_result |= self.last_is_result;
        }
    }

    /// The game's span ends at `content_end`: whether it is a game (it
    /// has a body and bytes), and the rules are between games again.
    #[inline(always)]
    pub(super) fn end(&mut self) -> Option<(usize, u64, usize)> {
        let game = (self.content_end > self.start && self.has_body)
            .then(|| (self.start, self.line, self.content_end - self.start));
        self.state = State::Between;
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdicts for each line of `text`, read whole line by line, with
    /// the tag and movetext lines taken as the readers take them.
    fn verdicts(text: &[u8]) -> Vec<Verdict> {
        let mut game = Game::new(1);
        let mut out = Vec::new();
        let mut pos = 0;
        let mut number = 1;
        while pos < text.len() {
            let (le, next) = lines::line_end(text, pos, true).unwrap();
            let line = Line::new(text, pos, Some(le), number, false);
            let v = game.line(&line);
            out.push(v);
            match v {
                Verdict::EndGame => {
                    game.end();
                    continue;
                }
                Verdict::Tags => game.tags_read(next),
                Verdict::Movetext | Verdict::MoreMovetext => {
                    let body = &text[line.text()..le];
                    let last = body.split(|&b| b == b' ').rfind(|t| !t.is_empty());
                    game.note_tokens(0, last.map(lines::ends_main_line));
                    game.content_end = next;
                }
                Verdict::Keep => game.content_end = next,
                _ => {}
            }
            pos = next;
            number += 1;
        }
        out
    }

    use Verdict::*;

    #[test]
    fn a_tag_after_movetext_starts_the_next_game() {
        let v = verdicts(b"[A \"1\"]\n\n1. e4 e5\n[B \"2\"]\n");
        assert_eq!(v, [Tags, Blank, Movetext, EndGame, Tags]);
    }

    #[test]
    fn a_second_blank_line_ends_a_tag_section() {
        let v = verdicts(b"[A \"1\"]\n\n\n[A \"2\"]\n");
        assert_eq!(v, [Tags, Blank, EndGame, Outside, Tags]);
    }

    #[test]
    fn a_tag_name_again_after_a_blank_line_starts_a_game() {
        let v = verdicts(b"[Game \"1\"]\n\n[Game \"2\"]\n\n[Other \"x\"]\n");
        assert_eq!(v, [Tags, Blank, EndGame, Tags, Blank, Tags]);
        // Any name of the section, not only the first tag's.
        let v = verdicts(b"[Event \"e\"]\n[White \"1\"]\n\n[White \"2\"]\n\n[Black \"b\"]\n");
        assert_eq!(v, [Tags, Tags, Blank, EndGame, Tags, Blank, Tags]);
        // Without a blank line, a name may repeat in one game.
        let v = verdicts(b"[White \"1\"]\n[White \"2\"]\n");
        assert_eq!(v, [Tags, Tags]);
    }

    #[test]
    fn movetext_after_a_result_starts_a_tagless_game_but_a_footer_does_not() {
        let v = verdicts(b"1. e4 1-0\n1. d4 *\n");
        assert_eq!(v, [Movetext, EndGame, Movetext]);
        let v = verdicts(b"1. e4 1-0\n=====\nabc\n");
        assert_eq!(v, [Movetext, MoreMovetext, MoreMovetext]);
    }

    #[test]
    fn move_one_after_a_blank_line_starts_a_game_only_on_the_main_line() {
        let v = verdicts(b"1. e4 e5\n\n1. d4\n");
        assert_eq!(v, [Movetext, Blank, EndGame, Movetext]);
        let v = verdicts(b"1. e4 e5\n\n1... c5\n");
        assert_eq!(v, [Movetext, Blank, MoreMovetext]);
    }

    #[test]
    fn a_lone_result_after_a_blank_line_belongs_to_the_game() {
        let v = verdicts(b"1. e4 e5\n\n1-0\n\n2. d4\n");
        assert_eq!(v, [Movetext, Blank, Keep, Blank, EndGame, Movetext]);
    }

    #[test]
    fn escapes_belong_to_no_game_between_games() {
        let v = verdicts(b"% note\n;c\n1. e4\n% kept\n");
        assert_eq!(v, [Outside, Outside, Movetext, Keep]);
    }

    #[test]
    fn a_run_of_tag_lines_goes_on_exactly_where_the_line_rules_say() {
        // The tag line at 13 repeats the name of the tag before it.
        let buf = b"[White \"x\"]\n\n[White \"y\"]\n";
        let states = [
            State::Between,
            State::Headers { blank_seen: false },
            State::Headers { blank_seen: true },
            State::Movetext,
            State::MovetextBlank,
        ];
        for state in states {
            for ended_by_result in [false, true] {
                let mut game = Game::new(1);
                game.state = state;
                game.ended_by_result = ended_by_result;
                game.names = TagNames::starting_at(0);
                let before = format!("{game:?}");
                let goes_on = game.tag_line_goes_on();
                // A game begun here would start on line 5: a change.
                let v = game.line(&Line::new(buf, 13, Some(24), 5, false));
                let unchanged = format!("{game:?}") == before;
                assert_eq!(goes_on, v == Tags && unchanged, "{state:?}");
            }
        }
    }

    #[test]
    fn a_run_of_movetext_lines_goes_on_exactly_where_the_line_rules_say() {
        let states = [
            State::Between,
            State::Headers { blank_seen: false },
            State::Headers { blank_seen: true },
            State::Movetext,
            State::MovetextBlank,
        ];
        let lines: [&[u8]; 6] = [
            b"e4 e5\n",
            b"  12. Nf3\n",
            b"1-0\n",
            b"=====\n",
            b"1. d4",
            b")\n",
        ];
        for state in states {
            for flags in 0..16u8 {
                for text in lines {
                    let mut game = Game::new(1);
                    game.state = state;
                    game.ended_by_result = flags & 1 != 0;
                    game.trailing_junk = flags & 2 != 0;
                    game.has_movetext = flags & 4 != 0;
                    game.depth = u32::from(flags & 8 != 0);
                    game.has_body = true;
                    let line = Line::new(text, 0, None, 1, false);
                    assert!(line.starts_with_text());
                    let mut shortcut = game.clone();
                    let goes_on = shortcut.text_goes_on(&line);
                    let before = format!("{game:?}");
                    let v = game.line(&line);
                    let case = format!("{state:?} {flags} {text:?}");
                    if goes_on {
                        assert_eq!(v, MoreMovetext, "{case}");
                        assert_eq!(format!("{shortcut:?}"), format!("{game:?}"), "{case}");
                    } else {
                        assert_eq!(format!("{shortcut:?}"), before, "{case}");
                    }
                }
            }
        }
    }

    #[test]
    fn without_its_end_a_line_is_decided_only_when_its_start_tells() {
        let mut game = Game::new(1);
        game.state = State::Headers { blank_seen: true };
        let buf = b"[Game \"1\"]\n\n[Game \"2\"]";
        let line = Line::new(buf, 12, None, 3, false);
        assert_eq!(game.line(&line), NeedLineEnd);
        assert_eq!(game.state, State::Headers { blank_seen: true });
        let line = Line::new(buf, 12, Some(buf.len()), 3, false);
        assert_eq!(game.line(&line), EndGame);
        let spaces = b"   ";
        assert_eq!(
            Game::new(1).line(&Line::new(spaces, 0, None, 1, false)),
            NeedLineEnd
        );
    }
}
