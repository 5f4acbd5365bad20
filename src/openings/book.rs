//! An opening table: named lines read from TSV text (`eco`, `name`, line),
//! indexed by the position each line ends in.

use crate::chess::Position as ChessPosition;
use crate::pgn::GameText;
use crate::xiangqi::Position as XiangqiPosition;
use crate::xiangqi::notation::GameReader;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Which game a table line is a line of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Chess from the standard start, in SAN (lichess's tables).
    Chess,
    /// Xiangqi from the standard start, in ICCS, WXF or Chinese notation.
    Xiangqi,
}

/// Why a table could not be read: the file, its line (from 1) and why.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("{file}: {why}")]
    Unreadable { file: PathBuf, why: std::io::Error },
    #[error("{file}, line {line}: {why}")]
    BadLine {
        file: PathBuf,
        line: usize,
        why: String,
    },
}

/// Bits of the filter that most look-ups stop at: 2¹⁷ (16 KiB, in the
/// first-level cache beside the replay's own data). With lichess's 3,806
/// positions a key that is in no line passes with a chance of 1 in 34.
const FILTER_BITS: u32 = 17;

/// The filter's 64-bit words.
pub(super) const FILTER_WORDS: usize = 1 << (FILTER_BITS - 6);

/// One bit per value of a key's top [`FILTER_BITS`] bits, set for the
/// keys of a table's positions: a key whose bit is clear is in no line.
/// An array whose every index a key can give, so a test has no bounds
/// check: the replay tests each of a game's first positions.
pub(super) type Filter = [u64; FILTER_WORDS];

/// The filter of `keys`, computed by the compiler for the compiled-in
/// table.
pub(super) const fn filter_of(keys: &[u64]) -> Filter {
    let mut filter = [0; FILTER_WORDS];
    let mut i = 0;
    while i < keys.len() {
        let (word, bit) = filter_bit(keys[i]);
        filter[word] |= bit;
        i += 1;
    }
    filter
}

/// Bits of a key that choose its bucket in [`Starts`]: 2¹¹ buckets, about
/// two of lichess's 3,806 positions in each.
const BUCKET_BITS: u32 = 11;

/// For each value `b` of a key's top [`BUCKET_BITS`] bits, where the keys
/// of bucket `b` start among the ascending keys; the last entry is the
/// number of keys. A key that passes the filter is looked for among its
/// bucket's one or two keys: two dependent loads, where a binary search
/// over the 30 KB of keys made twelve, most of them cache misses (2.6 %
/// of a report's time went to this look-up, 1 % of its instructions).
pub(super) type Starts = [u32; (1 << BUCKET_BITS) + 1];

/// The [`Starts`] of `keys` (ascending), computed by the compiler for the
/// compiled-in table.
pub(super) const fn starts_of(keys: &[u64]) -> Starts {
    let mut starts = [0u32; (1 << BUCKET_BITS) + 1];
    let mut i = 0;
    while i < keys.len() {
        starts[bucket(keys[i]) + 1] += 1;
        i += 1;
    }
    let mut b = 1;
    while b < starts.len() {
        starts[b] += starts[b - 1];
        b += 1;
    }
    starts
}

/// The bucket of `key` in [`Starts`].
const fn bucket(key: u64) -> usize {
    (key >> (64 - BUCKET_BITS)) as usize
}

/// The filter's word and bit for `key` (Zobrist keys are uniform: their
/// top bits will do).
#[inline(always)]
const fn filter_bit(key: u64) -> (usize, u64) {
    let at = key >> (64 - FILTER_BITS);
    ((at >> 6) as usize % FILTER_WORDS, 1 << (at & 63))
}

/// A filter for a user's table, built at run time; the compiled-in one is
/// a `static`.
#[derive(Debug)]
enum FilterStore {
    Static(&'static Filter),
    Owned(Box<Filter>),
}

/// The filter of a table with no position of a kind.
static EMPTY_FILTER: Filter = [0; FILTER_WORDS];

/// The positions of one kind of game: their keys in ascending order, each
/// named by the book's name at the same index plus `first`. A look-up is a
/// bit of the filter, then, for the few keys that pass it, a look among
/// the keys of its bucket ([`Starts`]).
#[derive(Debug)]
pub(super) struct Positions {
    keys: Cow<'static, [u64]>,
    /// Where each bucket's keys start in `keys` ([`Starts`]).
    starts: Cow<'static, [u32]>,
    /// The index in [`OpeningBook`]'s names of `keys[0]`'s name.
    first: u32,
    filter: FilterStore,
    /// The longest line's plies: no later ply is looked up.
    depth: u32,
}

impl Positions {
    /// No position.
    const EMPTY: Positions = Positions {
        keys: Cow::Borrowed(&[]),
        starts: Cow::Borrowed(&[0; (1 << BUCKET_BITS) + 1]),
        first: 0,
        filter: FilterStore::Static(&EMPTY_FILTER),
        depth: 0,
    };

    /// The compiled-in positions: `keys` ascending, with their buckets'
    /// starts and their filter.
    pub(super) const fn of_static(
        keys: &'static [u64],
        starts: &'static Starts,
        filter: &'static Filter,
        depth: u32,
    ) -> Self {
        Positions {
            keys: Cow::Borrowed(keys),
            starts: Cow::Borrowed(starts),
            first: 0,
            filter: FilterStore::Static(filter),
            depth,
        }
    }

    /// The positions of `keys` (ascending, each once), named from `first`
    /// on, `depth` plies deep at most.
    fn of_keys(keys: Vec<u64>, first: u32, depth: u32) -> Self {
        let mut filter = Box::new([0; FILTER_WORDS]);
        for &key in &keys {
            let (word, bit) = filter_bit(key);
            filter[word] |= bit;
        }
        Positions {
            starts: Cow::Owned(starts_of(&keys).to_vec()),
            keys: Cow::Owned(keys),
            first,
            filter: FilterStore::Owned(filter),
            depth,
        }
    }

    fn filter(&self) -> &Filter {
        match &self.filter {
            FilterStore::Static(filter) => filter,
            FilterStore::Owned(filter) => filter,
        }
    }

    /// The name index of `key`, if it is a position of the table.
    #[inline]
    fn find(&self, key: u64) -> Option<u32> {
        let (word, bit) = filter_bit(key);
        if self.filter()[word] & bit == 0 {
            return None;
        }
        let b = bucket(key);
        let (from, to) = (*self.starts.get(b)?, *self.starts.get(b + 1)?);
        let at = self
            .keys
            .get(from as usize..to as usize)?
            .iter()
            .position(|&k| k == key)?;
        Some(self.first + from + at as u32)
    }
}

/// An ECO code, a name and the name as a CSV field (quoted when it holds
/// `,`, `"` or a line end: lichess's names hold commas, and quoting them
/// at every row cost more than all the columns' other work); borrowed
/// from the compiled-in table, owned for a user's.
pub(super) type Name = (Cow<'static, str>, Cow<'static, str>, Cow<'static, str>);

/// `name` as the csv crate writes a field: in quotes, its quotes doubled,
/// when it holds `,`, `"`, `\r` or `\n`.
pub(super) fn csv_field(name: &str) -> Cow<'_, str> {
    if name.contains([',', '"', '\r', '\n']) {
        Cow::Owned(format!("\"{}\"", name.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(name)
    }
}

/// Named lines indexed by their final position, for chess and xiangqi.
#[derive(Debug)]
pub struct OpeningBook {
    /// The lines read (a position named twice counts twice).
    lines: usize,
    /// ECO code and name of each position: the chess positions' in their
    /// keys' order, then the xiangqi positions'.
    names: Cow<'static, [Name]>,
    chess: Positions,
    xiangqi: Positions,
}

/// A line read from a table: its entry (ECO code, name), kind, final
/// position's key and plies.
type TableLine<'t> = ((&'t str, &'t str), TableKind, u64, u32);

impl OpeningBook {
    /// The compiled-in book: chess positions only, every part a `static`
    /// (reading it costs nothing at run time).
    pub(super) const fn of_static(lines: usize, names: &'static [Name], chess: Positions) -> Self {
        OpeningBook {
            lines,
            names: Cow::Borrowed(names),
            chess,
            xiangqi: Positions::EMPTY,
        }
    }

    /// Reads TSV tables given as (name, text), in order: a later line wins
    /// for a position listed twice, whichever file it is in. `name` is used
    /// in errors only.
    pub fn from_tables(tables: &[(&str, &str)]) -> Result<Self, OpeningsError> {
        let mut lines = Vec::new();
        for (name, text) in tables {
            read_table(Path::new(name), text, &mut |line| {
                lines.push(owned(line));
                Ok(())
            })?;
        }
        Ok(OpeningBook::of(lines))
    }

    /// Reads the TSV files `paths` (`--openings`, repeatable), in order.
    /// Each is UTF-8, GBK or Big5 (sniffed as an input file is).
    pub fn from_files(paths: &[PathBuf]) -> Result<Self, OpeningsError> {
        let mut lines = Vec::new();
        for path in paths {
            let bytes = std::fs::read(path).map_err(|why| OpeningsError::Unreadable {
                file: path.clone(),
                why,
            })?;
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let text = crate::source::decode_game(bytes, crate::source::sniff(bytes));
            read_table(path, &text, &mut |line| {
                lines.push(owned(line));
                Ok(())
            })?;
        }
        Ok(OpeningBook::of(lines))
    }

    /// The book of `lines` (entry, kind, key, plies), in table order: a
    /// position listed twice takes the later line's name.
    fn of(lines: Vec<(Name, TableKind, u64, u32)>) -> Self {
        let count = lines.len();
        let mut names = Vec::new();
        let mut kinds = [TableKind::Chess, TableKind::Xiangqi].map(|kind| {
            let mut of_kind: Vec<(u64, usize, u32)> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.1 == kind)
                .map(|(i, l)| (l.2, i, l.3))
                .collect();
            let depth = of_kind.iter().map(|l| l.2).max().unwrap_or(0);
            // By key, the later line first, so that the first of each key
            // is the one kept.
            of_kind.sort_unstable_by_key(|l| (l.0, std::cmp::Reverse(l.1)));
            of_kind.dedup_by_key(|l| l.0);
            (of_kind, depth)
        });
        let mut positions = kinds.iter_mut().map(|(of_kind, depth)| {
            let first = names.len() as u32;
            names.extend(of_kind.iter().map(|l| lines[l.1].0.clone()));
            Positions::of_keys(of_kind.iter().map(|l| l.0).collect(), first, *depth)
        });
        let chess = positions.next().unwrap_or(Positions::EMPTY);
        let xiangqi = positions.next().unwrap_or(Positions::EMPTY);
        drop(positions);
        OpeningBook {
            lines: count,
            names: Cow::Owned(names),
            chess,
            xiangqi,
        }
    }

    /// The number of lines read.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The distinct positions of `kind` the table names.
    pub fn positions(&self, kind: TableKind) -> usize {
        self.positions_of(kind).keys.len()
    }

    /// How many of a game's first plies are looked up for `kind`: the
    /// longest line's (0 when the table has no line of that kind).
    pub fn depth(&self, kind: TableKind) -> u32 {
        self.positions_of(kind).depth
    }

    fn positions_of(&self, kind: TableKind) -> &Positions {
        match kind {
            TableKind::Chess => &self.chess,
            TableKind::Xiangqi => &self.xiangqi,
        }
    }

    /// The entry naming the position whose key is `key`, if any.
    #[cfg(test)]
    pub(super) fn find(&self, kind: TableKind, key: u64) -> Option<u32> {
        self.positions_of(kind).find(key)
    }

    /// The deepest of `keys` (a game's positions after its first plies, in
    /// order) that the table names: its entry and its index in `keys`.
    pub(super) fn deepest(&self, kind: TableKind, keys: &[u64]) -> Option<(u32, usize)> {
        let positions = self.positions_of(kind);
        let filter = positions.filter();
        // Most keys past the opening fail the filter: a tight loop of
        // filter tests, and a search of the keys for the few that pass.
        for (i, &key) in keys.iter().enumerate().rev() {
            let (word, bit) = filter_bit(key);
            if filter[word] & bit != 0
                && let Some(entry) = positions.find(key)
            {
                return Some((entry, i));
            }
        }
        None
    }

    /// ECO code and name of entry `entry`.
    pub(super) fn entry(&self, entry: u32) -> (&str, &str) {
        self.names
            .get(entry as usize)
            .map_or(("", ""), |(eco, name, _)| (eco, name))
    }

    /// The name of entry `entry` as a CSV field.
    pub(super) fn csv_name(&self, entry: u32) -> &str {
        self.names.get(entry as usize).map_or("", |n| &n.2)
    }

    /// Every position of `kind` with its entry's ECO code and name, by
    /// ascending key: what `data/positions.rs` holds for the compiled-in
    /// table.
    #[cfg(test)]
    pub(super) fn named_positions(&self, kind: TableKind) -> Vec<(u64, &str, &str)> {
        let positions = self.positions_of(kind);
        (positions.first..)
            .zip(positions.keys.iter())
            .map(|(entry, &key)| {
                let (eco, name) = self.entry(entry);
                (key, eco, name)
            })
            .collect()
    }
}

/// A line's name owned, control bytes (which no report field holds)
/// written as U+FFFD, with its CSV field.
fn owned(((eco, name), kind, key, plies): TableLine<'_>) -> (Name, TableKind, u64, u32) {
    let clean = |text: &str| text.replace(|c: char| c.is_ascii_control() && c != '\t', "\u{FFFD}");
    let (eco, name) = (clean(eco), clean(name));
    let csv = csv_field(&name).into_owned();
    (
        (Cow::Owned(eco), Cow::Owned(name), Cow::Owned(csv)),
        kind,
        key,
        plies,
    )
}

/// Reads one table, handing each line to `each`: lines
/// `eco<TAB>name<TAB>moves`, a header line (`eco` in the first field) and
/// blank lines passed over.
pub(super) fn read_table<'t>(
    file: &Path,
    text: &'t str,
    each: &mut dyn FnMut(TableLine<'t>) -> Result<(), String>,
) -> Result<(), OpeningsError> {
    for (index, line) in text.lines().enumerate() {
        let bad = |why: String| OpeningsError::BadLine {
            file: file.to_path_buf(),
            line: index + 1,
            why,
        };
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [eco, name, moves] = fields[..] else {
            return Err(bad(format!(
                "{} tab-separated fields, not the three eco, name, line",
                fields.len()
            )));
        };
        if index == 0 && eco.trim().eq_ignore_ascii_case("eco") {
            continue;
        }
        let (kind, key, plies) = read_line(moves).map_err(bad)?;
        each(((eco.trim(), name.trim()), kind, key, plies)).map_err(bad)?;
    }
    Ok(())
}

/// Reads a table line's moves from the standard start: chess SAN if every
/// move plays as such, else xiangqi. Returns the kind, the final
/// position's key and the plies.
fn read_line(moves: &str) -> Result<(TableKind, u64, u32), String> {
    let game = GameText::new(moves.as_bytes(), 1);
    let texts: Vec<&[u8]> = game.main_line().map(|t| t.text).collect();
    if texts.is_empty() {
        return Err(format!("no move in \"{}\"", moves.trim()));
    }
    let plies = u32::try_from(texts.len()).map_err(|_| "too many moves".to_string())?;
    let chess = (|| {
        let mut pos = ChessPosition::startpos();
        for (i, text) in texts.iter().enumerate() {
            pos.play_san(text)
                .map_err(|e| (i, e.reason().into_owned()))?;
        }
        Ok::<u64, (usize, String)>(pos.key_without_ep())
    })();
    let chess_error = match chess {
        Ok(key) => return Ok((TableKind::Chess, key, plies)),
        Err(e) => e,
    };
    let mut pos = XiangqiPosition::startpos();
    let mut reader = GameReader::new();
    let strings: Vec<String> = texts
        .iter()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    if let Some(first) = strings.first() {
        reader.look_ahead(first, || texts.iter().copied());
    }
    for (i, text) in strings.iter().enumerate() {
        match reader.read(&pos, text) {
            Ok(m) => pos.play(m),
            Err(xiangqi_error) => {
                // Name the failure of the kind the line got further in.
                let (at, why) = if chess_error.0 >= i {
                    (chess_error.0, format!("as chess SAN, {}", chess_error.1))
                } else {
                    (i, format!("as xiangqi, {xiangqi_error}"))
                };
                let token = String::from_utf8_lossy(texts[at]);
                return Err(format!(
                    "ply {} \"{token}\" cannot be played from the standard start ({why})",
                    at + 1
                ));
            }
        }
    }
    Ok((TableKind::Xiangqi, pos.key(), plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(text: &str) -> Result<OpeningBook, OpeningsError> {
        OpeningBook::from_tables(&[("t.tsv", text)])
    }

    #[test]
    fn a_later_line_wins_for_a_position_listed_twice() {
        // The two lines end in the same position by different move orders.
        let b =
            book("eco\tname\tpgn\nA1\tFirst\t1. Nf3 Nf6 2. Nc3\nB2\tSecond\t1. Nc3 Nf6 2. Nf3\n")
                .unwrap();
        assert_eq!(b.lines(), 2);
        assert_eq!(b.positions(TableKind::Chess), 1);
        let mut pos = ChessPosition::startpos();
        for m in [b"Nf3".as_slice(), b"Nf6", b"Nc3"] {
            pos.play_san(m).unwrap();
        }
        let entry = b.find(TableKind::Chess, pos.key_without_ep()).unwrap();
        assert_eq!(b.entry(entry), ("B2", "Second"));
        assert_eq!(b.depth(TableKind::Chess), 3);
        // The start itself and a position of no line are not found.
        let start = ChessPosition::startpos().key_without_ep();
        assert_eq!(b.find(TableKind::Chess, start), None);
        assert_eq!(b.find(TableKind::Xiangqi, pos.key_without_ep()), None);
    }

    /// A look-up by bucket finds what a binary search of the ascending
    /// keys (the standard library's) finds: every key of the compiled-in
    /// table at its index, and nothing for keys one bit away from them,
    /// which fall into the same buckets or their neighbours; also for keys
    /// put in a table at run time, crowded into few buckets.
    #[test]
    fn a_bucket_look_up_agrees_with_a_binary_search() {
        let check = |positions: &Positions, keys: &[u64]| {
            for &key in keys {
                for probe in [
                    key,
                    key ^ 1,
                    key ^ (1 << 52),
                    key ^ (1 << 53),
                    key.wrapping_add(1),
                ] {
                    let want = keys.binary_search(&probe).ok().map(|at| at as u32);
                    assert_eq!(positions.find(probe), want, "{probe:#x}");
                }
            }
        };
        let compiled = super::super::compiled_in().positions_of(TableKind::Chess);
        check(compiled, &compiled.keys);
        assert!(compiled.keys.len() > 3_000);
        // Many keys in few buckets, the first and the last bucket among
        // them.
        let mut crowded: Vec<u64> = (0..500u64)
            .map(|i| (i % 5) << 61 | i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 8)
            .chain([0, u64::MAX])
            .collect();
        crowded.sort_unstable();
        crowded.dedup();
        check(&Positions::of_keys(crowded.clone(), 0, 1), &crowded);
    }

    #[test]
    fn xiangqi_lines_are_read_in_any_notation() {
        // The same opening (central cannon, horse defence) in ICCS, WXF and
        // Chinese: one position, the last line wins.
        let b = book("X1\ticcs\th2e2 h9g7\nX2\twxf\tC2.5 H8+7\nX3\tchinese\t炮二平五 马８进７\n")
            .unwrap();
        assert_eq!(b.depth(TableKind::Xiangqi), 2);
        assert_eq!(b.depth(TableKind::Chess), 0);
        assert_eq!(b.positions(TableKind::Xiangqi), 1);
        let (key, _, name) = b.named_positions(TableKind::Xiangqi)[0];
        assert_eq!(name, "chinese");
        assert_eq!(
            b.entry(b.find(TableKind::Xiangqi, key).unwrap()).1,
            "chinese"
        );
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_line() {
        let e = book("A00\tx\t1. e4 e5\nA01\ty\t1. e4 e5 2. Qh6\n")
            .err()
            .unwrap();
        let text = e.to_string();
        assert!(text.starts_with("t.tsv, line 2: ply 3 \"Qh6\""), "{text}");
        let e = book("A00\tonly two fields\n").err().unwrap();
        assert!(e.to_string().contains("2 tab-separated fields"), "{e}");
        let e = book("A00\tx\t\n").err().unwrap();
        assert!(e.to_string().contains("no move"), "{e}");
    }
}
