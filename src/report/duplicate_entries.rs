//! What a worker keeps of each game for `--duplicates`, beside its rows:
//! the keys and tag prints the ordered writer's detector takes
//! ([`crate::duplicates::Entry`]), and the record the run keeps on disk
//! until its end (the line, to find prefixes; plies, White, Black and Date,
//! for `duplicates.csv`). Normalising and hashing the tags happens here,
//! on the worker threads, not on the one writer thread.

use std::ops::Range;

use crate::duplicates::{Entry, HeaderPrints, Tags};
use crate::replay::ReplayedGame;
use crate::replay::line::Key128;

/// One chunk's entries, in input order; its buffers serve chunk after
/// chunk.
#[derive(Debug, Default)]
pub struct DuplicateEntries {
    /// The games' records ([`Record`]), one after the other.
    records: Vec<u8>,
    games: Vec<Keys>,
}

#[derive(Debug)]
struct Keys {
    line_key: Option<Key128>,
    end_key: Option<Key128>,
    prints: HeaderPrints,
    /// Where its record is in `records`.
    record: Range<usize>,
}

/// The longest tag value a record keeps (bytes, cut at a character):
/// enough for any name, and a length fits in two bytes.
const TAG_ROOM: usize = 1 << 12;

fn cut(text: &str) -> &str {
    if text.len() <= TAG_ROOM {
        return text;
    }
    let mut end = TAG_ROOM;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

impl DuplicateEntries {
    pub fn clear(&mut self) {
        self.records.clear();
        self.games.clear();
    }

    /// Games held.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The next game's entry, from its replay (`curation.line` filled with
    /// `CurationOptions::duplicates`).
    pub fn push(&mut self, record: &ReplayedGame<'_>) {
        let t = &record.tags;
        let prints = HeaderPrints::of(&Tags {
            white: &t.white,
            black: &t.black,
            event: &t.event,
            site: &t.site,
            date: &t.date,
        });
        let start = self.records.len();
        self.records.extend_from_slice(&record.plies.to_le_bytes());
        for text in [&t.white, &t.black, &t.date] {
            let text = cut(text);
            self.records
                .extend_from_slice(&(text.len() as u16).to_le_bytes());
            self.records.extend_from_slice(text.as_bytes());
        }
        let line = record.curation.line.bytes.as_deref().unwrap_or_default();
        self.records.extend_from_slice(line);
        self.games.push(Keys {
            line_key: record.curation.line.key.filter(|_| !line.is_empty()),
            end_key: record.curation.line.end_key,
            prints,
            record: start..self.records.len(),
        });
    }

    /// Each game's entry for the detector and its record as kept on disk.
    pub fn iter(&self) -> impl Iterator<Item = (Entry<'_>, &[u8])> {
        self.games.iter().map(|k| {
            let bytes = &self.records[k.record.clone()];
            let line = Record::line_of(bytes).unwrap_or_default();
            let entry = Entry {
                line_key: k.line_key,
                end_key: k.end_key,
                line: (!line.is_empty()).then_some(line),
                prints: k.prints,
            };
            (entry, bytes)
        })
    }
}

/// A game's record as kept on disk (a frame of the scratch file): plies
/// (4 bytes), then White, Black and Date (each a 2-byte length and the
/// text) and the canonical line string (empty for a game without a
/// `line_key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    pub plies: u32,
    pub white: &'a str,
    pub black: &'a str,
    pub date: &'a str,
    pub line: &'a [u8],
}

impl<'a> Record<'a> {
    /// The record `body`.
    pub fn parse(body: &'a [u8]) -> Option<Record<'a>> {
        let plies = u32::from_le_bytes(body.get(..4)?.try_into().ok()?);
        let mut at = 4;
        let mut text = || -> Option<&'a str> {
            let n = u16::from_le_bytes(body.get(at..at + 2)?.try_into().ok()?) as usize;
            let s = std::str::from_utf8(body.get(at + 2..at + 2 + n)?).ok()?;
            at += 2 + n;
            Some(s)
        };
        let (white, black, date) = (text()?, text()?, text()?);
        Some(Record {
            plies,
            white,
            black,
            date,
            line: body.get(at..)?,
        })
    }

    /// The line of the record `body`, without reading its tags as text.
    pub fn line_of(body: &'a [u8]) -> Option<&'a [u8]> {
        let mut at = 4;
        for _ in 0..3 {
            let n = u16::from_le_bytes(body.get(at..at + 2)?.try_into().ok()?) as usize;
            at += 2 + n;
        }
        body.get(at..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{ReplayOptions, replay_game};

    #[test]
    fn a_record_reads_back_as_written() {
        let mut options = ReplayOptions::default();
        options.curation.duplicates = true;
        let text = b"[White \"Steinitz, William\"]\n[Black \"Zukertort\"]\n[Date \"1886.01.11\"]\n\n1. e4 e5 2. Nf3 *\n";
        let game = replay_game(text, 1, &options);
        let mut entries = DuplicateEntries::default();
        entries.push(&game);
        entries.push(&replay_game(b"1. e4 Ke7 Kxe8 *\n", 1, &options));
        let all: Vec<_> = entries.iter().collect();
        assert_eq!(all.len(), 2);
        let record = Record::parse(all[0].1).expect("a record");
        assert_eq!(
            (record.plies, record.white, record.black, record.date),
            (3, "Steinitz, William", "Zukertort", "1886.01.11")
        );
        assert_eq!(record.line, game.curation.line.bytes.as_deref().unwrap());
        assert_eq!(Record::line_of(all[0].1), Some(record.line));
        assert_eq!(all[0].0.line_key, game.curation.line.key);
        // An illegal move: no line, no key.
        assert_eq!(all[1].0.line_key, None);
        assert_eq!(Record::parse(all[1].1).unwrap().line, b"");
    }
}
