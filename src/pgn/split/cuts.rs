//! The game-boundary rules that cut inside a line or inside a comment
//! (docs/pgn-dialect.md §2, rules 5 and 7), written once and called by both
//! of the splitter's line readers (`exact.rs` and `vector.rs`): those
//! readers only find where a comment opens and closes, or that a line holds
//! a `[` outside comments; whether a game ends there is decided here, as
//! `rules.rs` decides the rest line by line.
//!
//! - A `{` comment that runs across a blank line followed by a tag-pair
//!   line ([`tag_pair_at`]) ends its game at the end of the last non-blank
//!   line before it; the next game starts at the tag ([`comment_cut`]).
//! - A result token at variation depth 0 followed on the same line (past
//!   comments and whitespace) by a tag pair, or by a token that starts with
//!   a digit or an ASCII letter, starts a new game there
//!   ([`game_after_result`]): files that write every game on one line.

use crate::pgn::lines::{self, is_blank, skip_spaces};
use crate::pgn::tag::char_len;

/// Whether a tag pair, `[Name "`, starts at `at` (after whitespace): a `[`,
/// a name (an ASCII letter, then letters, digits or `_`), whitespace and a
/// quote. `[%clk 0:03:00]` and `[1]` are not. `None` when the bytes run out
/// before that is decided and more may come (`is_final` false).
pub(crate) fn tag_pair_at(buf: &[u8], at: usize, is_final: bool) -> Option<bool> {
    let undecided = if is_final { Some(false) } else { None };
    let mut i = skip_spaces(buf, at, buf.len());
    let Some(&b'[') = buf.get(i) else {
        return if i >= buf.len() {
            undecided
        } else {
            Some(false)
        };
    };
    i = skip_spaces(buf, i + 1, buf.len());
    match buf.get(i) {
        None => return undecided,
        Some(b) if !b.is_ascii_alphabetic() => return Some(false),
        Some(_) => {}
    }
    while let Some(&b) = buf.get(i) {
        if !(b.is_ascii_alphanumeric() || b == b'_') {
            break;
        }
        i += 1;
    }
    i = skip_spaces(buf, i, buf.len());
    match buf.get(i) {
        None => undecided,
        Some(&b) => Some(b == b'"'),
    }
}

/// Where a comment cut its game (see [`comment_cut`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The end (line terminator included) of the game's last non-blank line.
    pub content_end: usize,
    /// The start of the tag-pair line where the next game starts.
    pub next_game: usize,
    /// Line ends from the comment's `{` to `next_game`.
    pub lines: u64,
}

/// What [`comment_cut`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CommentCut {
    /// The comment does not cut its game (up to `close`, or the buffer end).
    None,
    /// The comment cuts its game there.
    Cut(Cut),
    /// The buffer ends before it is known (not final).
    Incomplete,
}

/// Whether the `{` comment at `open`, which closes at `close` (`None`: not
/// in `buf`), runs across a blank line followed by a tag-pair line before
/// it closes: the first such line cuts the game.
pub(crate) fn comment_cut(
    buf: &[u8],
    open: usize,
    close: Option<usize>,
    is_final: bool,
) -> CommentCut {
    let limit = close.unwrap_or(buf.len());
    // The comment's first line is not blank: it holds the `{`.
    let Some((_, mut next)) = lines::line_end(buf, open, is_final || close.is_some()) else {
        return CommentCut::Incomplete;
    };
    let mut content_end = next;
    let mut count = 1;
    let mut blank_before = false;
    while next < limit {
        let start = next;
        if blank_before {
            match tag_pair_at(buf, start, is_final || close.is_some()) {
                Some(true) => {
                    return CommentCut::Cut(Cut {
                        content_end,
                        next_game: start,
                        lines: count,
                    });
                }
                Some(false) => {}
                None => return CommentCut::Incomplete,
            }
        }
        let Some((le, n)) = lines::line_end(buf, start, is_final || close.is_some()) else {
            return CommentCut::Incomplete;
        };
        if le >= limit {
            // The line the comment closes on (or the buffer's last).
            break;
        }
        blank_before = is_blank(buf, start, le);
        if !blank_before {
            content_end = n;
        }
        next = n;
        count += 1;
    }
    if close.is_none() && !is_final {
        CommentCut::Incomplete
    } else {
        CommentCut::None
    }
}

/// What starts right after a result on the line (rule 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextGame {
    /// A tag pair: the next game's tag section.
    Tags,
    /// A token that starts with a digit or an ASCII letter: a tagless game.
    Movetext,
}

/// Where the next game starts after a result on the same line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AfterResult {
    /// The first byte of the next game.
    pub at: usize,
    /// Where the result token ends: the game before ends there.
    pub result_end: usize,
    pub next: NextGame,
}

/// Rule 7 inside a line: in the movetext `buf[from..to]` (to the line
/// end), starting at variation depth `depth`, the first result token at
/// depth 0 (`1-0`, `*`, or a token ending in `*`) that is followed, past
/// comments and whitespace, by a tag pair or by a token that starts with a
/// digit or an ASCII letter: the next game starts there. With
/// `after_result`, the text before `from` on this line ended with such a
/// result (the stretch starts after a comment that ran across lines). `None`
/// when there is none; a `;` or a comment left open ends the search (the
/// rest is comment), and so does other text after a result (a footer stays
/// with its game). Reads no further than the next game's first byte.
pub(crate) fn game_after_result(
    buf: &[u8],
    from: usize,
    to: usize,
    mut depth: u32,
    after_result: bool,
    dbcs: bool,
) -> Option<AfterResult> {
    if !after_result && !may_end_main_line(buf.get(from..to)?) {
        return None;
    }
    let mut i = from;
    let mut token_start = None;
    // The last token before `i` (`from..from` for the result before the
    // stretch), and whether it is a result at depth 0.
    let mut last: Option<(usize, usize)> = after_result.then_some((from, from));
    let ends_main_line = |last: Option<(usize, usize)>, depth: u32| {
        depth == 0
            && last.is_some_and(|(s, e)| {
                let tok = buf.get(s..e).unwrap_or_default();
                s == e || lines::ends_main_line(tok)
            })
    };
    while i < to {
        let b = *buf.get(i)?;
        let boundary = matches!(b, b'{' | b';' | b'(' | b')' | b'[' | b'}' | b'\n' | b'\r')
            || lines::space_len(buf, i) > 0;
        if boundary && let Some(s) = token_start.take() {
            last = Some((s, i));
        }
        match b {
            b'{' => {
                let close = memchr::memchr(b'}', buf.get(i + 1..to)?)?;
                i += close + 2;
                continue;
            }
            b';' => return None,
            b'(' => {
                depth = depth.saturating_add(1);
                last = None;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                last = None;
            }
            b'[' => {
                if ends_main_line(last, depth) && tag_pair_at(buf, i, true) == Some(true) {
                    return Some(AfterResult {
                        at: i,
                        result_end: last.map_or(i, |(_, e)| e),
                        next: NextGame::Tags,
                    });
                }
                last = None;
            }
            _ if boundary => {}
            _ if token_start.is_none() => {
                if b.is_ascii_alphanumeric() && ends_main_line(last, depth) {
                    return Some(AfterResult {
                        at: i,
                        result_end: last.map_or(i, |(_, e)| e),
                        next: NextGame::Movetext,
                    });
                }
                token_start = Some(i);
            }
            _ => {}
        }
        i += char_len(buf, i, dbcs, to).max(lines::space_len(buf, i));
    }
    None
}

/// Whether `text` may hold a result token followed by more on its line:
/// it has a `[` (rule 7's tag pair), a `*`, or a `-` inside `1-0`, `0-1`
/// or `1/2-1/2`. One vector search finds the candidates; a castling
/// (`O-O`) or a WXF move (`R1-2`) is turned down by the bytes around its
/// `-`, so most lines are never read token by token.
fn may_end_main_line(text: &[u8]) -> bool {
    memchr::memchr3_iter(b'[', b'*', b'-', text).any(|i| {
        text.get(i) != Some(&b'-') || {
            let around = |a: usize, b: usize| text.get(i.wrapping_sub(a)..i + b);
            matches!(around(1, 2), Some(b"1-0" | b"0-1")) || around(3, 4) == Some(b"1/2-1/2")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_pairs() {
        assert_eq!(tag_pair_at(b"[Event \"a\"]", 0, true), Some(true));
        assert_eq!(tag_pair_at(b"  [ White_2  \"", 0, true), Some(true));
        assert_eq!(tag_pair_at(b"[%clk 0:03:00]", 0, true), Some(false));
        assert_eq!(tag_pair_at(b"[Event a]", 0, true), Some(false));
        assert_eq!(tag_pair_at(b"1. e4", 0, true), Some(false));
        assert_eq!(tag_pair_at(b"[Event ", 0, false), None);
        assert_eq!(tag_pair_at(b"[Event ", 0, true), Some(false));
    }

    #[test]
    fn comments_cut_at_a_tag_after_a_blank_line() {
        let buf = b"1. e4 {open e5\n\n[Event \"b\"]\n1. d4 }\n";
        assert_eq!(
            comment_cut(buf, 6, Some(34), true),
            CommentCut::Cut(Cut {
                content_end: 15,
                next_game: 16,
                lines: 2
            })
        );
        let buf = b"1. e4 {open e5\n[Event \"b\"]\n1. d4 }\n";
        assert_eq!(comment_cut(buf, 6, Some(33), true), CommentCut::None);
        let buf = b"1. e4 {a\n\n[%clk 0:01:00]\n}\n";
        assert_eq!(comment_cut(buf, 6, Some(24), true), CommentCut::None);
        let buf = b"1. e4 {a\n\n[Ev";
        assert_eq!(comment_cut(buf, 6, None, false), CommentCut::Incomplete);
        assert!(matches!(comment_cut(buf, 6, None, true), CommentCut::None));
    }

    #[test]
    fn tags_after_results() {
        let next = |line: &[u8], from: usize| {
            game_after_result(line, from, line.len(), 0, false, false)
                .map(|a| (a.at, a.result_end, a.next))
        };
        let line = b"[Event \"a\"] 1. e4 e5 1-0 [Event \"b\"] 1. d4 d5 0-1";
        assert_eq!(next(line, 12), Some((25, 24, NextGame::Tags)));
        let line = b"1. e4 e5 1-0 {c} [Event \"b\"]";
        assert_eq!(next(line, 0), Some((17, 12, NextGame::Tags)));
        let line = b"1. e4 e5 [Event \"b\"]";
        assert_eq!(next(line, 0), None);
        let line = b"1. e4 (e5 1-0 [Event \"b\"])";
        assert_eq!(next(line, 0), None);
        let line = b"1. e4 1-0 {[Event \"b\"]}";
        assert_eq!(next(line, 0), None);
    }

    #[test]
    fn movetext_after_results() {
        let next = |line: &[u8], after: bool| {
            game_after_result(line, 0, line.len(), 0, after, false)
                .map(|a| (a.at, a.result_end, a.next))
        };
        let m = NextGame::Movetext;
        assert_eq!(next(b"1. e4 e5 * 1. d4", false), Some((11, 10, m)));
        assert_eq!(next(b"1. e4 1/2-1/2 {c} e4", false), Some((18, 13, m)));
        assert_eq!(next(b"1. e4 e5* 1. d4", false), Some((10, 9, m)));
        assert_eq!(next(b"1. e4 1-0 === 1. d4", false), None);
        assert_eq!(next(b"1. e4 1-0 ; 1. d4", false), None);
        assert_eq!(next(b"1. e4 (e5 1-0 d4) e5", false), None);
        assert_eq!(next(b"1. O-O O-O-O 2. Rf1-e1 e4", false), None);
        assert_eq!(next(b" 2. d4", true), Some((1, 0, m)));
        assert_eq!(next(b" 2. d4", false), None);
    }
}
