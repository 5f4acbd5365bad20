//! The tags that replay and convert need, read once per game and turned
//! into UTF-8.
//!
//! Chess files from old databases carry Latin-1 names ("Réti"): a value that
//! is not valid UTF-8 is read as windows-1252 (the superset of Latin-1 that
//! such files really use), so the report is always UTF-8.

use super::GameText;
use super::tag::{OpenValue, open_value_lines, unescape, value_left_open};
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
    /// `[ECO]` and `[Opening]`, held against the opening the moves give.
    pub eco: Option<Cow<'a, [u8]>>,
    pub opening: Option<Cow<'a, [u8]>>,
    /// Whether the game had any tag pair at all.
    pub any: bool,
    /// The first tag whose value has no closing quote (the tag was ended
    /// at its line end, docs/pgn-dialect.md §3).
    pub unclosed_tag: Option<UnclosedTag>,
}

/// A tag value without its closing quote: where, and how many lines after
/// it went on with it (passed over, not read as movetext).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnclosedTag {
    /// The tag's line.
    pub line: u64,
    /// The lines after it that go on with the value (0 when none does).
    pub lines_after: u64,
}

impl UnclosedTag {
    /// The tag `scan` of `bytes` (a game's text) on line `line`, when its
    /// value has no closing quote.
    fn of(bytes: &[u8], value: (usize, usize), line: u64) -> Option<Self> {
        if !value_left_open(bytes, value) {
            return None;
        }
        // The value runs to its line end: the next line starts after it.
        let next = super::lines::line_end(bytes, value.1, true).map_or(bytes.len(), |(_, n)| n);
        let lines_after = match open_value_lines(bytes, next, true) {
            OpenValue::Lines { count, .. } => count,
            OpenValue::No | OpenValue::Incomplete => 0,
        };
        Some(UnclosedTag { line, lines_after })
    }
}

/// A tag name of up to eight bytes packed into a word with bit 5 of every
/// byte set, which folds ASCII upper case onto lower case: one comparison
/// per known name, case-insensitive as the names in the wild need. Bytes
/// that are not letters never fold onto a letter's lower case (only the
/// upper case letter does), so only the names themselves match; longer
/// names pack to 0, which matches none.
const fn folded_name(name: &[u8]) -> u64 {
    if name.len() > 8 {
        return 0;
    }
    let mut word = 0u64;
    let mut i = 0;
    while i < name.len() {
        word |= ((name[i] | 0x20) as u64) << (8 * i);
        i += 1;
    }
    word
}

/// [`folded_name`] of `name`, which starts at `start` in `bytes`: one
/// unaligned 8-byte load, masked to the name's length, when `bytes` has
/// eight bytes there (every tag line but the very last of a buffer).
#[inline]
fn folded_name_in(bytes: &[u8], start: usize, name: &[u8]) -> u64 {
    let len = name.len();
    let word = bytes
        .get(start..start.wrapping_add(8))
        .and_then(|w| <[u8; 8]>::try_from(w).ok());
    match word {
        Some(word) if (1..=8).contains(&len) => {
            (u64::from_le_bytes(word) | 0x2020_2020_2020_2020) & (u64::MAX >> (64 - 8 * len))
        }
        _ => folded_name(name),
    }
}

/// A 6-bit hash of a [`folded_name`] word: the top bits of a product.
const fn name_hash(folded: u64) -> u32 {
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as u32
}

/// One bit per [`name_hash`] of the names [`GameHeaders::note`] keeps.
const WANTED_HASHES: u64 = {
    let names = [
        FEN, RED, SITE, DATE, GAME, EVENT, ROUND, WHITE, BLACK, RESULT, FORMAT, VARIANT, ECO,
        OPENING,
    ];
    let mut bits = 0u64;
    let mut i = 0;
    while i < names.len() {
        bits |= 1 << name_hash(names[i]);
        i += 1;
    }
    bits
};

/// False only for names [`GameHeaders::note`] would not keep: a filter
/// with no false negatives (a name it keeps has its hash's bit set), and a
/// few false positives, which `note` then turns down.
#[inline(always)]
fn maybe_wanted(folded: u64) -> bool {
    WANTED_HASHES >> name_hash(folded) & 1 != 0
}

const FEN: u64 = folded_name(b"fen");
const RED: u64 = folded_name(b"red");
const SITE: u64 = folded_name(b"site");
const DATE: u64 = folded_name(b"date");
const GAME: u64 = folded_name(b"game");
const EVENT: u64 = folded_name(b"event");
const ROUND: u64 = folded_name(b"round");
const WHITE: u64 = folded_name(b"white");
const BLACK: u64 = folded_name(b"black");
const RESULT: u64 = folded_name(b"result");
const FORMAT: u64 = folded_name(b"format");
const VARIANT: u64 = folded_name(b"variant");
const ECO: u64 = folded_name(b"eco");
const OPENING: u64 = folded_name(b"opening");

impl<'a> GameHeaders<'a> {
    /// Reads the tags of a game; when a name occurs twice, the last
    /// occurrence wins (as python-chess and pgn-extract read it), names
    /// compared case-insensitively (`[Fen]` exists in the wild).
    pub fn read(game: &GameText<'a>) -> Self {
        let mut h = GameHeaders::default();
        let bytes = game.bytes();
        for tag in game.tags() {
            h.note(folded_name(tag.name), tag.name, tag.raw_value, true);
            // The value's place in the game's bytes, for its closing quote.
            let start = (tag.raw_value.as_ptr() as usize).wrapping_sub(bytes.as_ptr() as usize);
            let end = start.wrapping_add(tag.raw_value.len());
            if h.unclosed_tag.is_none() {
                h.unclosed_tag = UnclosedTag::of(bytes, (start, end), tag.line);
            }
        }
        h
    }

    /// Reads the tags of the game in `bytes` (starting on `line`) in the same
    /// walk that finds where its movetext starts: the hot path of a report
    /// reads each tag section once.
    pub fn read_game(bytes: &'a [u8], line: u64) -> (Self, GameText<'a>) {
        Self::read_game_and(bytes, line, |_, _, _| {})
    }

    /// [`Self::read_game`], handing every tag's name, raw value and
    /// whether that may hold an escape ([`tag_value`] reads it) to `also`
    /// in the same walk: for a tag only some runs need, `[TimeControl]`
    /// with `--clocks`, the others paying nothing for it.
    #[inline]
    pub fn read_game_and(
        bytes: &'a [u8],
        line: u64,
        mut also: impl FnMut(&'a [u8], &'a [u8], bool),
    ) -> (Self, GameText<'a>) {
        let mut h = GameHeaders::default();
        let game = GameText::read_tags(bytes, line, |scan| {
            let name = bytes.get(scan.name.0..scan.name.1).unwrap_or_default();
            let value = bytes.get(scan.value.0..scan.value.1).unwrap_or_default();
            let folded = folded_name_in(bytes, scan.name.0, name);
            // A plain tag line (`may_escape` false) ends in its closing
            // quote and `]`: only the general reader's tags can be unclosed.
            if scan.may_escape && h.unclosed_tag.is_none() {
                let before = bytes.get(..scan.name.0).unwrap_or_default();
                let at = line + super::lines::count_lines(before);
                h.unclosed_tag = UnclosedTag::of(bytes, scan.value, at);
            }
            // Most tags of a game are none the replay needs (ratings,
            // clocks): those skip the call once `any` is known.
            if !h.any || maybe_wanted(folded) {
                h.note(folded, name, value, scan.may_escape);
            }
            also(name, value, scan.may_escape);
        });
        (h, game)
    }

    /// Takes one tag pair into its slot, if it is one the replay needs;
    /// `folded` is [`folded_name`] of `name`.
    /// `may_escape` false: `raw_value` is known to hold no backslash, so
    /// it is its own value.
    #[inline(always)]
    fn note(&mut self, folded: u64, name: &[u8], raw_value: &'a [u8], may_escape: bool) {
        // A PGN tag name is a symbol (ASCII letters, digits, `_`); the tag
        // reader is lenient, so a line of binary bytes between `[` and `]`
        // would otherwise make noise look like a game with tags.
        if !self.any {
            self.any = name.first().is_some_and(u8::is_ascii_alphanumeric)
                && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        }
        let slot = match folded {
            FEN => &mut self.fen,
            RED => &mut self.red,
            SITE => &mut self.site,
            DATE => &mut self.date,
            GAME => &mut self.game,
            EVENT => &mut self.event,
            ROUND => &mut self.round,
            WHITE => &mut self.white,
            BLACK => &mut self.black,
            RESULT => &mut self.result,
            FORMAT => &mut self.format,
            VARIANT => &mut self.variant,
            ECO => &mut self.eco,
            OPENING => &mut self.opening,
            _ => return,
        };
        *slot = Some(tag_value(raw_value, may_escape));
    }
}

/// A tag's value from its raw bytes: itself, unless `may_escape` (it may
/// hold a backslash escape).
#[inline]
pub fn tag_value(raw_value: &[u8], may_escape: bool) -> Cow<'_, [u8]> {
    if may_escape {
        unescape(raw_value)
    } else {
        Cow::Borrowed(raw_value)
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
#[inline]
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
#[inline]
fn part_of<'a>(whole: &'a str, part: &[u8]) -> Option<&'a str> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    whole.get(start..start.checked_add(part.len())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed comparison answers as `eq_ignore_ascii_case` does, for
    /// every byte in every position of the known names.
    #[test]
    fn folded_names_match_exactly_the_case_insensitive_names() {
        let names: [&[u8]; 12] = [
            b"fen", b"red", b"site", b"date", b"game", b"event", b"round", b"white", b"black",
            b"result", b"format", b"variant",
        ];
        for name in names {
            for at in 0..name.len() {
                for b in 0..=255u8 {
                    let mut probe = name.to_vec();
                    probe[at] = b;
                    let expected = probe.eq_ignore_ascii_case(name);
                    assert_eq!(
                        folded_name(&probe) == folded_name(name),
                        expected,
                        "{probe:?}"
                    );
                }
            }
            assert_ne!(folded_name(&name[..name.len() - 1]), folded_name(name));
            let longer = [name, b"x"].concat();
            assert_ne!(folded_name(&longer), folded_name(name));
        }
        assert_eq!(folded_name(b"VaRiAnT"), VARIANT);
        assert_ne!(folded_name(b"variants"), VARIANT);
    }

    /// The filter passes every name `note` keeps, in any case, and turns
    /// down the common names of lichess and TWIC headers it does not keep
    /// often enough to pay (`name_hash` spreads them).
    #[test]
    fn wanted_names_pass_the_filter() {
        let kept: [&[u8]; 12] = [
            b"FEN", b"Red", b"Site", b"Date", b"Game", b"Event", b"Round", b"White", b"Black",
            b"Result", b"Format", b"Variant",
        ];
        for name in kept {
            assert!(maybe_wanted(folded_name(name)), "{name:?}");
            assert!(maybe_wanted(folded_name(&name.to_ascii_lowercase())));
            assert!(maybe_wanted(folded_name(&name.to_ascii_uppercase())));
        }
        let others: [&[u8]; 16] = [
            b"WhiteElo",
            b"BlackElo",
            b"UTCDate",
            b"UTCTime",
            b"ECO",
            b"Opening",
            b"Termination",
            b"TimeControl",
            b"WhiteRatingDiff",
            b"BlackRatingDiff",
            b"WhiteTitle",
            b"BlackTitle",
            b"Variation",
            b"WhiteFideId",
            b"BlackFideId",
            b"EventDate",
        ];
        let passed = others
            .iter()
            .filter(|n| maybe_wanted(folded_name(n)))
            .count();
        assert!(passed <= 4, "{passed} of the other names pass");
        // Whatever passes, `read` keeps the same tags as without the filter.
        let text = b"[WhiteElo \"1\"]\n[Event \"e\"]\n[ECO \"A00\"]\n[Site \"s\"]\n\n1. e4 *\n";
        let (h, _) = GameHeaders::read_game(text, 1);
        assert_eq!(h.event.as_deref(), Some(&b"e"[..]));
        assert_eq!(h.site.as_deref(), Some(&b"s"[..]));
        assert!(h.any);
    }

    /// The 8-byte load gives the packed word of the byte loop, for every
    /// start and length in a buffer of varied bytes, at its end too.
    #[test]
    fn folded_names_read_in_place_equal_the_byte_loop() {
        let bytes: Vec<u8> = (0..40u32).map(|i| (i * 37 + 11) as u8).collect();
        for start in 0..bytes.len() {
            for end in start..=bytes.len() {
                let name = &bytes[start..end];
                assert_eq!(folded_name_in(&bytes, start, name), folded_name(name));
            }
        }
    }

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
