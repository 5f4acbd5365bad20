//! What a folder search picks up: the file name endings of game
//! collections or of position lists, the zip members read, and the web
//! pages that hold a DhtmlXQ block.

use std::path::Path;

use super::record_format::RecordFormat;

/// What a folder search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Game collections: `.pgn`, compressed (`.pgn.zst`, `.pgn.zstd`,
    /// `.pgn.gz`, `.pgn.bz2`, `.pgn.xz`) or in a `.zip` or `.7z` archive; xiangqi
    /// records (`.xqf`, `.cbr`, `.cbl`, `.cbf`, `.ubb`), and `.txt`,
    /// `.html`, `.htm` pages that hold a DhtmlXQ block.
    Games,
    /// Position lists: `.fen`, `.epd`, `.perft`, each also compressed; and
    /// the xiangqi records that `Games` picks up (a record is a list of one
    /// position, its start).
    Positions,
}

impl Listing {
    /// The file name endings a search picks up (any case).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Listing::Games => &[
                ".pgn",
                ".pgn.zst",
                ".pgn.zstd",
                ".pgn.gz",
                ".pgn.bz2",
                ".pgn.xz",
                ".zip",
                ".7z",
                ".xqf",
                ".cbr",
                ".cbl",
                ".cbf",
                ".ubb",
            ],
            Listing::Positions => &[
                ".fen", ".epd", ".perft", ".fen.zst", ".epd.zst", ".fen.gz", ".epd.gz", ".fen.bz2",
                ".epd.bz2", ".fen.xz", ".epd.xz", ".zip", ".7z", ".xqf", ".cbr", ".cbl", ".cbf",
                ".ubb",
            ],
        }
    }

    /// The endings of the members of a zip or 7z archive that are read.
    pub(super) fn members(self) -> &'static [&'static str] {
        match self {
            Listing::Games => &[".pgn"],
            Listing::Positions => &[".fen", ".epd", ".perft"],
        }
    }

    /// True for names a folder search picks up.
    pub(super) fn picks(self, path: &Path) -> bool {
        let Some(name) = path.file_name() else {
            return false;
        };
        let name = name.to_string_lossy().to_ascii_lowercase();
        self.extensions().iter().any(|ext| name.ends_with(ext)) || page_with_dhtmlxq(path)
    }
}

/// A `.txt`, `.html` or `.htm` file that holds a DhtmlXQ block (one read
/// of the file; pages are small, and larger files are not searched).
fn page_with_dhtmlxq(path: &Path) -> bool {
    const LARGEST_PAGE: u64 = 64 << 20;
    let ubb = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ubb"));
    if ubb || !RecordFormat::may_hold_dhtmlxq(path) {
        return false;
    }
    let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= LARGEST_PAGE);
    small && std::fs::read(path).is_ok_and(|t| RecordFormat::holds_dhtmlxq(&t))
}
