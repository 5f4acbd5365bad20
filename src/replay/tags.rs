//! The tags a replay needs, read once per game and turned into UTF-8.
//!
//! Chess files from old databases carry Latin-1 names ("Réti"): a value that
//! is not valid UTF-8 is read as windows-1252 (the superset of Latin-1 that
//! such files really use), so the report is always UTF-8.

use crate::pgn::GameText;
use crate::pgn::tag::unescape;
use std::borrow::Cow;

/// The tag values one game's replay and row need.
#[derive(Debug, Default)]
pub struct GameHeaders<'a> {
    pub event: Option<Cow<'a, [u8]>>,
    pub site: Option<Cow<'a, [u8]>>,
    pub date: Option<Cow<'a, [u8]>>,
    pub round: Option<Cow<'a, [u8]>>,
    pub white: Option<Cow<'a, [u8]>>,
    pub red: Option<Cow<'a, [u8]>>,
    pub black: Option<Cow<'a, [u8]>>,
    pub result: Option<Cow<'a, [u8]>>,
    pub fen: Option<Cow<'a, [u8]>>,
    pub variant: Option<Cow<'a, [u8]>>,
    pub game: Option<Cow<'a, [u8]>>,
    pub format: Option<Cow<'a, [u8]>>,
    /// Whether the game had any tag pair at all.
    pub any: bool,
}

impl<'a> GameHeaders<'a> {
    /// Reads the tags of a game; the first occurrence of a name wins, names
    /// compared case-insensitively (`[Fen]` exists in the wild).
    pub fn read(game: &GameText<'a>) -> Self {
        let mut h = GameHeaders::default();
        for tag in game.tags() {
            h.note(tag.name, tag.raw_value);
        }
        h
    }

    /// Reads the tags of the game in `bytes` (starting on `line`) in the same
    /// walk that finds where its movetext starts: the hot path of a report
    /// reads each tag section once.
    pub fn read_game(bytes: &'a [u8], line: u64) -> (Self, GameText<'a>) {
        let mut h = GameHeaders::default();
        let game = GameText::read_tags(bytes, line, |scan| {
            let name = bytes.get(scan.name.0..scan.name.1).unwrap_or_default();
            let value = bytes.get(scan.value.0..scan.value.1).unwrap_or_default();
            h.note(name, value);
        });
        (h, game)
    }

    /// Takes one tag pair into its slot, if it is one the replay needs.
    fn note(&mut self, name: &[u8], raw_value: &'a [u8]) {
        // A PGN tag name is a symbol (ASCII letters, digits, `_`); the tag
        // reader is lenient, so a line of binary bytes between `[` and `]`
        // would otherwise make noise look like a game with tags.
        if !self.any {
            self.any = name.first().is_some_and(u8::is_ascii_alphanumeric)
                && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        }
        let slot = match name.len() {
            3 if name.eq_ignore_ascii_case(b"fen") => &mut self.fen,
            3 if name.eq_ignore_ascii_case(b"red") => &mut self.red,
            4 if name.eq_ignore_ascii_case(b"site") => &mut self.site,
            4 if name.eq_ignore_ascii_case(b"date") => &mut self.date,
            4 if name.eq_ignore_ascii_case(b"game") => &mut self.game,
            5 if name.eq_ignore_ascii_case(b"event") => &mut self.event,
            5 if name.eq_ignore_ascii_case(b"round") => &mut self.round,
            5 if name.eq_ignore_ascii_case(b"white") => &mut self.white,
            5 if name.eq_ignore_ascii_case(b"black") => &mut self.black,
            6 if name.eq_ignore_ascii_case(b"result") => &mut self.result,
            6 if name.eq_ignore_ascii_case(b"format") => &mut self.format,
            7 if name.eq_ignore_ascii_case(b"variant") => &mut self.variant,
            _ => return,
        };
        if slot.is_none() {
            *slot = Some(unescape(raw_value));
        }
    }
}

/// A tag value as UTF-8 text: as is when it is UTF-8, else read as
/// windows-1252. Borrowed from the game's bytes when it can be: a report
/// reads seven tags of every game.
pub fn text<'a>(value: &Option<Cow<'a, [u8]>>) -> Cow<'a, str> {
    text_in(None, value)
}

/// [`text`] for a value borrowed from `game`, the game's text already known
/// to be UTF-8: the value is cut out of it (a value ends at ASCII quotes, so
/// on character boundaries) instead of being validated again.
pub fn text_in<'a>(game: Option<&'a str>, value: &Option<Cow<'a, [u8]>>) -> Cow<'a, str> {
    let latin1 = |bytes: &[u8]| encoding_rs::WINDOWS_1252.decode(bytes).0.into_owned();
    match value {
        None => Cow::Borrowed(""),
        Some(Cow::Borrowed(bytes)) => match game.and_then(|g| part_of(g, bytes)) {
            Some(s) => Cow::Borrowed(s),
            None => match std::str::from_utf8(bytes) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Owned(latin1(bytes)),
            },
        },
        Some(Cow::Owned(bytes)) => Cow::Owned(match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(_) => latin1(bytes),
        }),
    }
}

/// `part` as a slice of `whole`, when it lies inside `whole`'s memory on
/// character boundaries (then it is the very same bytes).
fn part_of<'a>(whole: &'a str, part: &[u8]) -> Option<&'a str> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    whole.get(start..start.checked_add(part.len())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_inside_the_game_is_cut_out_of_it() {
        let game = "[White \"Réti\"]";
        let value = Some(Cow::Borrowed(&game.as_bytes()[8..13]));
        assert!(matches!(text_in(Some(game), &value), Cow::Borrowed("Réti")));
        // Bytes from elsewhere are validated as usual, never cut out of
        // `game` by their position alone.
        let other = String::from("R\u{e9}ti");
        let value = Some(Cow::Borrowed(other.as_bytes()));
        assert_eq!(text_in(Some(game), &value), "Réti");
        // A range that splits a character is not a slice of the text: its
        // bytes are read as windows-1252.
        let value = Some(Cow::Borrowed(&game.as_bytes()[8..10]));
        assert_eq!(text_in(Some(game), &value), "R\u{c3}");
    }

    #[test]
    fn latin1_names_become_utf8() {
        let v = Some(Cow::Borrowed(&b"R\xe9ti"[..]));
        assert_eq!(text(&v), "Réti");
        let v = Some(Cow::Borrowed("Réti".as_bytes()));
        assert_eq!(text(&v), "Réti");
        assert_eq!(text(&None), "");
    }
}
