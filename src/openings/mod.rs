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
//! The table compiled in is lichess's chess table ([`compiled_in`], parsed
//! once at first use; `data/SOURCE.md` gives its origin and commit,
//! [`COMPILED_IN_COMMIT`]). `--openings FILE` replaces it with a user's
//! tables ([`OpeningBook::from_files`]), whose lines may also be xiangqi
//! (ICCS, WXF or Chinese), matched by position the same way. No xiangqi
//! table is compiled in: none with a usable licence exists.

mod book;
mod conflict;
mod hit;
mod trail;

pub use book::{OpeningBook, OpeningsError, TableKind};
pub use conflict::conflict;
pub use hit::{OpeningFacts, OpeningHit};
pub use trail::OpeningTrail;

use std::sync::{Arc, LazyLock};

/// The commit of lichess-org/chess-openings the compiled-in table is
/// taken from (`summary.json` names it).
pub const COMPILED_IN_COMMIT: &str = "51b8862";

/// The compiled-in table's files, in the order lichess reads them.
const COMPILED_IN: [(&str, &str); 5] = [
    ("a.tsv", include_str!("data/a.tsv")),
    ("b.tsv", include_str!("data/b.tsv")),
    ("c.tsv", include_str!("data/c.tsv")),
    ("d.tsv", include_str!("data/d.tsv")),
    ("e.tsv", include_str!("data/e.tsv")),
];

/// lichess's table, parsed at first use (a few milliseconds; a run that
/// names no opening never pays them).
pub fn compiled_in() -> &'static Arc<OpeningBook> {
    static BOOK: LazyLock<Arc<OpeningBook>> = LazyLock::new(|| {
        // The compiled-in files are tested to parse (tests below): an
        // error here is a build of a broken table, not a user's input.
        let book = OpeningBook::from_tables(&COMPILED_IN)
            .unwrap_or_else(|e| panic!("the compiled-in opening table: {e}"));
        Arc::new(book)
    });
    &BOOK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_table_parses_with_every_line() {
        let book = compiled_in();
        // 3,807 lines (the five files less their header lines), all chess.
        assert_eq!(book.lines(), 3807);
        assert_eq!(book.depth(TableKind::Chess), 36);
        assert_eq!(book.depth(TableKind::Xiangqi), 0);
    }
}
