//! An opening table: named lines read from TSV text (`eco`, `name`, line),
//! indexed by the position each line ends in.

use crate::chess::Position as ChessPosition;
use crate::pgn::GameText;
use crate::xiangqi::Position as XiangqiPosition;
use crate::xiangqi::notation::GameReader;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
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

/// Position keys are Zobrist hashes already: a hasher that passes them on
/// saves hashing them again at each of a game's first plies.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// The positions of one kind of game and the table entry naming each.
#[derive(Debug, Default)]
struct Positions {
    by_key: KeyMap,
    /// The longest line's plies: no later ply is looked up.
    depth: u32,
}

/// Named lines indexed by their final position, for chess and xiangqi.
#[derive(Debug, Default)]
pub struct OpeningBook {
    /// ECO code and name of each line read, in order.
    entries: Vec<(Box<str>, Box<str>)>,
    chess: Positions,
    xiangqi: Positions,
}

impl OpeningBook {
    /// Reads TSV tables given as (name, text), in order: a later line wins
    /// for a position listed twice, whichever file it is in. `name` is used
    /// in errors only.
    pub fn from_tables(tables: &[(&str, &str)]) -> Result<Self, OpeningsError> {
        let mut book = OpeningBook::default();
        for (name, text) in tables {
            book.add_table(Path::new(name), text)?;
        }
        Ok(book)
    }

    /// Reads the TSV files `paths` (`--openings`, repeatable), in order.
    /// Each is UTF-8, GBK or Big5 (sniffed as an input file is).
    pub fn from_files(paths: &[PathBuf]) -> Result<Self, OpeningsError> {
        let mut book = OpeningBook::default();
        for path in paths {
            let bytes = std::fs::read(path).map_err(|why| OpeningsError::Unreadable {
                file: path.clone(),
                why,
            })?;
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let text = crate::source::decode_game(bytes, crate::source::sniff(bytes));
            book.add_table(path, &text)?;
        }
        Ok(book)
    }

    /// Reads one table: lines `eco<TAB>name<TAB>moves`, a header line
    /// (`eco` in the first field) and blank lines passed over.
    fn add_table(&mut self, file: &Path, text: &str) -> Result<(), OpeningsError> {
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
            let entry =
                u32::try_from(self.entries.len()).map_err(|_| bad("too many lines".into()))?;
            self.entries.push((eco.trim().into(), name.trim().into()));
            let positions = match kind {
                TableKind::Chess => &mut self.chess,
                TableKind::Xiangqi => &mut self.xiangqi,
            };
            positions.by_key.insert(key, entry);
            positions.depth = positions.depth.max(plies);
        }
        Ok(())
    }

    /// The number of lines read.
    pub fn lines(&self) -> usize {
        self.entries.len()
    }

    /// How many of a game's first plies are looked up for `kind`: the
    /// longest line's (0 when the table has no line of that kind).
    pub fn depth(&self, kind: TableKind) -> u32 {
        self.positions(kind).depth
    }

    fn positions(&self, kind: TableKind) -> &Positions {
        match kind {
            TableKind::Chess => &self.chess,
            TableKind::Xiangqi => &self.xiangqi,
        }
    }

    /// The entry naming the position whose key is `key`, if any.
    #[inline]
    pub(super) fn find(&self, kind: TableKind, key: u64) -> Option<u32> {
        self.positions(kind).by_key.get(&key).copied()
    }

    /// ECO code and name of entry `entry`.
    pub(super) fn entry(&self, entry: u32) -> (&str, &str) {
        self.entries
            .get(entry as usize)
            .map_or(("", ""), |(eco, name)| (eco, name))
    }
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
        let mut pos = ChessPosition::startpos();
        for m in [b"Nf3".as_slice(), b"Nf6", b"Nc3"] {
            pos.play_san(m).unwrap();
        }
        let entry = b.find(TableKind::Chess, pos.key_without_ep()).unwrap();
        assert_eq!(b.entry(entry), ("B2", "Second"));
        assert_eq!(b.depth(TableKind::Chess), 3);
    }

    #[test]
    fn xiangqi_lines_are_read_in_any_notation() {
        // The same opening (central cannon, horse defence) in ICCS, WXF and
        // Chinese: one position, the last line wins.
        let b = book("X1\ticcs\th2e2 h9g7\nX2\twxf\tC2.5 H8+7\nX3\tchinese\t炮二平五 马８进７\n")
            .unwrap();
        assert_eq!(b.depth(TableKind::Xiangqi), 2);
        assert_eq!(b.depth(TableKind::Chess), 0);
        assert_eq!(b.xiangqi.by_key.len(), 1);
        let (_, &entry) = b.xiangqi.by_key.iter().next().unwrap();
        assert_eq!(b.entry(entry).1, "chinese");
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
