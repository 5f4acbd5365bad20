//! Opening names: the lichess rule over a table of named lines.
//!
//! A table ([`OpeningBook`]) maps the position at the end of each named
//! line (board, side to move, castling rights; the en-passant square is
//! ignored) to its ECO code and name; a position listed twice takes the
//! later entry. A game is named by the deepest of its first plies (up to
//! the table's longest line) whose position is in the table: lichess's rule
//! (scalachess `OpeningDb`, `data/SOURCE.md`). The replay keeps the keys of
//! those first positions ([`OpeningTrail`], one store a ply) and looks them
//! up once, at the end of the game.
//!
//! The table compiled in is lichess's chess table ([`compiled_in`];
//! `data/SOURCE.md` gives its origin and commit, [`COMPILED_IN_COMMIT`]).
//! `--openings FILE` replaces it with a user's tables
//! ([`OpeningBook::from_files`]), whose lines may also be xiangqi (ICCS,
//! WXF or Chinese), matched by position the same way. No xiangqi table is
//! compiled in: none with a usable licence exists.

mod book;
mod conflict;
mod hit;
mod trail;

pub use book::{OpeningBook, OpeningsError, TableKind};
pub use conflict::conflict;
pub use hit::{OpeningFacts, OpeningHit, Table};
pub use trail::{INLINE_KEYS, OpeningTrail};

use book::{Filter, Name, Positions, Starts, filter_of, starts_of};
use std::borrow::Cow;

/// The commit of lichess-org/chess-openings the compiled-in table is
/// taken from (`summary.json` names it).
pub const COMPILED_IN_COMMIT: &str = "51b8862";

/// The positions of the compiled-in table with their names (`KEYS`,
/// `NAMES`, `LINES`, `DEPTH`), written from lichess's files `data/a.tsv`
/// … `data/e.tsv` by a test (below) that fails while the two disagree: a
/// `static` costs no replay of the 3,807 lines' moves at a run's start
/// (32 M instructions, as long as replaying 40,000 plies of games), nor
/// even the reading of a text (5 M).
mod compiled {
    use super::{Cow, Name};

    /// One name of the table, one that is its own CSV field.
    const fn n(eco: &'static str, name: &'static str) -> Name {
        (Cow::Borrowed(eco), Cow::Borrowed(name), Cow::Borrowed(name))
    }

    /// One name of the table, with its CSV field.
    const fn q(eco: &'static str, name: &'static str, csv: &'static str) -> Name {
        (Cow::Borrowed(eco), Cow::Borrowed(name), Cow::Borrowed(csv))
    }

    include!("data/positions.rs");
}

/// The filter of the compiled-in keys, computed by the compiler.
static COMPILED_IN_FILTER: Filter = filter_of(&compiled::KEYS);

/// Where each bucket of the compiled-in keys starts, computed by the
/// compiler.
static COMPILED_IN_STARTS: Starts = starts_of(&compiled::KEYS);

/// lichess's table.
static COMPILED_IN: OpeningBook = OpeningBook::of_static(
    compiled::LINES,
    &compiled::NAMES,
    Positions::of_static(
        &compiled::KEYS,
        &COMPILED_IN_STARTS,
        &COMPILED_IN_FILTER,
        compiled::DEPTH,
    ),
);

/// lichess's table, compiled in.
pub fn compiled_in() -> &'static OpeningBook {
    &COMPILED_IN
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// lichess's files, in the order lichess reads them.
    const LICHESS_FILES: [(&str, &str); 5] = [
        ("a.tsv", include_str!("data/a.tsv")),
        ("b.tsv", include_str!("data/b.tsv")),
        ("c.tsv", include_str!("data/c.tsv")),
        ("d.tsv", include_str!("data/d.tsv")),
        ("e.tsv", include_str!("data/e.tsv")),
    ];

    /// `data/positions.rs` as lichess's files give it.
    fn positions_text() -> String {
        let book = OpeningBook::from_tables(&LICHESS_FILES).expect("lichess's files read");
        let named = book.named_positions(TableKind::Chess);
        let mut text = String::from(
            "// The compiled-in opening table: the position (Zobrist key without the\n\
             // en-passant square, src/chess/zobrist.rs) at the end of each line of\n\
             // a.tsv .. e.tsv, by ascending key, with the ECO code and name of the\n\
             // last line ending there. Written by\n\
             // `PGNMILL_BLESS=1 cargo test --lib openings`; do not edit.\n",
        );
        let _ = writeln!(text, "/// The lines read.");
        let _ = writeln!(text, "pub(super) const LINES: usize = {};", book.lines());
        let _ = writeln!(text, "/// The longest line's plies.");
        let depth = book.depth(TableKind::Chess);
        let _ = writeln!(text, "pub(super) const DEPTH: u32 = {depth};");
        let _ = writeln!(text, "/// The positions' keys, ascending.");
        let _ = writeln!(text, "pub(super) static KEYS: [u64; {}] = [", named.len());
        for (key, _, _) in &named {
            let _ = writeln!(text, "    0x{key:016x},");
        }
        let _ = writeln!(text, "];");
        let _ = writeln!(text, "/// Each position's ECO code and name.");
        let _ = writeln!(text, "pub(super) static NAMES: [Name; {}] = [", named.len());
        for (_, eco, name) in &named {
            match book::csv_field(name) {
                Cow::Borrowed(_) => {
                    let _ = writeln!(text, "    n({eco:?}, {name:?}),");
                }
                Cow::Owned(csv) => {
                    let _ = writeln!(text, "    q({eco:?}, {name:?}, {csv:?}),");
                }
            }
        }
        let _ = writeln!(text, "];");
        text
    }

    /// The file compiled in is lichess's table, read through its moves:
    /// every position with its name, and the depth. `PGNMILL_BLESS=1`
    /// rewrites it (after a change of the files or of the Zobrist keys).
    #[test]
    fn the_compiled_in_positions_are_those_of_lichess_files() {
        let want = positions_text();
        if std::env::var_os("PGNMILL_BLESS").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/openings/data/positions.rs"
            );
            std::fs::write(path, &want).expect("positions.rs written");
            return;
        }
        assert!(
            include_str!("data/positions.rs") == want,
            "src/openings/data/positions.rs is not lichess's files: \
             PGNMILL_BLESS=1 cargo test --lib openings rewrites it"
        );
        let book = compiled_in();
        assert_eq!(book.depth(TableKind::Chess), 36);
        assert_eq!(book.depth(TableKind::Xiangqi), 0);
        let lines = OpeningBook::from_tables(&LICHESS_FILES).expect("read");
        // 3,807 lines (the five files less their header lines), all chess,
        // ending in fewer positions: some lines name one twice.
        assert_eq!(lines.lines(), 3807);
        assert_eq!(book.lines(), 3807);
        assert_eq!(
            book.positions(TableKind::Chess),
            lines.positions(TableKind::Chess)
        );
        assert!(book.positions(TableKind::Chess) < 3807);
        // Every compiled-in position is found, with its name.
        for (key, eco, name) in lines.named_positions(TableKind::Chess) {
            let entry = book.find(TableKind::Chess, key).expect("found");
            assert_eq!(book.entry(entry), (eco, name));
            assert_eq!(book.csv_name(entry), book::csv_field(name));
        }
    }
}
