//! The comment a converted line stops at: `{pgnmill: not converted from
//! here, ply 10 "e1f0": why}`, written before the first move that could
//! not be converted, whether the game came from a record file
//! ([`super::write_pgn`]) or from PGN (`convert`). One form for both, so
//! that converting a converted file again finds the comment and adds none.

/// The comment's opening words, after its `{`.
const STOP_WORDS: &str = "pgnmill: not converted from here, ";

/// The stop comment for a line that stops because of `why`, braces in
/// `why` neutralised: `{` and `}` made full-width (`｛` `｝`).
///
/// ```
/// use pgnmill::records::{is_stop_comment, stop_comment};
/// let c = stop_comment("ply 3 \"h0h7\": no move {here}");
/// assert_eq!(c, "{pgnmill: not converted from here, ply 3 \"h0h7\": no move ｛here｝}");
/// assert!(is_stop_comment(c.as_bytes()));
/// ```
pub fn stop_comment(why: &str) -> String {
    let mut out = String::with_capacity(STOP_WORDS.len() + why.len() + 8);
    out.push('{');
    out.push_str(STOP_WORDS);
    push_comment_text(&mut out, why);
    out.push('}');
    out
}

/// Whether `comment` (from its `{`) is a stop comment: one this module
/// writes, or one with spaces inside its braces (`{ pgnmill: not
/// converted from here, … }`), as record files converted by earlier
/// versions have it.
pub fn is_stop_comment(comment: &[u8]) -> bool {
    let Some(body) = comment.strip_prefix(b"{") else {
        return false;
    };
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    body.get(start..)
        .is_some_and(|text| text.starts_with(STOP_WORDS.as_bytes()))
}

/// The reason a stop comment gives (what follows its opening words, up to
/// its `}`), or `None` when `comment` (from its `{`) is not one.
///
/// ```
/// use pgnmill::records::{stop_comment, stop_reason};
/// let c = stop_comment("ply 4: XQF move records cut short");
/// assert_eq!(stop_reason(c.as_bytes()), Some(&b"ply 4: XQF move records cut short"[..]));
/// assert_eq!(stop_reason(b"{a comment}"), None);
/// ```
pub fn stop_reason(comment: &[u8]) -> Option<&[u8]> {
    if !is_stop_comment(comment) {
        return None;
    }
    let body = comment.get(1..)?;
    let words = body
        .windows(STOP_WORDS.len())
        .position(|w| w == STOP_WORDS.as_bytes())?;
    let reason = body.get(words + STOP_WORDS.len()..)?;
    let end = reason.iter().position(|&b| b == b'}')?;
    Some(reason.get(..end)?.trim_ascii_end())
}

/// Appends a comment's text with its braces made full-width (`｛` `｝`),
/// so that it can neither end the comment nor open another.
pub(super) fn push_comment_text(out: &mut String, text: &str) {
    out.extend(text.chars().map(|c| match c {
        '{' => '｛',
        '}' => '｝',
        c => c,
    }));
}
