//! The tags a replay needs, read once per game and turned into UTF-8.
//!
//! Chess files from old databases carry Latin-1 names ("Réti"): a value that
//! is not valid UTF-8 is read as windows-1252 (the superset of Latin-1 that
//! such files really use), so the report is always UTF-8.

use crate::pgn::GameText;
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
            // A PGN tag name is a symbol (ASCII letters, digits, `_`); the
            // tag reader is lenient, so a line of binary bytes between `[`
            // and `]` would otherwise make noise look like a game with tags.
            h.any |= tag.name.first().is_some_and(u8::is_ascii_alphanumeric)
                && tag
                    .name
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b == b'_');
            let slot = match tag.name.to_ascii_lowercase().as_slice() {
                b"event" => &mut h.event,
                b"site" => &mut h.site,
                b"date" => &mut h.date,
                b"round" => &mut h.round,
                b"white" => &mut h.white,
                b"red" => &mut h.red,
                b"black" => &mut h.black,
                b"result" => &mut h.result,
                b"fen" => &mut h.fen,
                b"variant" => &mut h.variant,
                b"game" => &mut h.game,
                b"format" => &mut h.format,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(tag.value());
            }
        }
        h
    }
}

/// A tag value as UTF-8 text: as is when it is UTF-8, else read as
/// windows-1252.
pub fn text(value: &Option<Cow<'_, [u8]>>) -> String {
    match value {
        None => String::new(),
        Some(bytes) => match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(_) => encoding_rs::WINDOWS_1252.decode(bytes).0.into_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_names_become_utf8() {
        let v = Some(Cow::Borrowed(&b"R\xe9ti"[..]));
        assert_eq!(text(&v), "Réti");
        let v = Some(Cow::Borrowed("Réti".as_bytes()));
        assert_eq!(text(&v), "Réti");
        assert_eq!(text(&None), "");
    }
}
