//! Xiangqi game records that are not PGN: XQF (XQStudio), CCBridge's CBR
//! records, CBL libraries and CBF XML, and DhtmlXQ blocks of web pages
//! (docs/xiangqi-formats.md gives every byte).
//!
//! Every format is read into one form, [`RecordGame`]: tags, the start
//! board and side to move, the move tree with its comments, and where the
//! record is in its file. [`write_pgn`] turns that form into PGN text: in
//! ICCS and unchecked for `pgnmill report` (whose replay then checks every
//! move of the main line exactly as it checks any PGN game), or replayed
//! and written in a target notation with every variation for
//! `pgnmill convert`. So a game from a binary record goes through the same
//! replay, rows and conversion as a game from a PGN file: nothing after
//! this module knows where a game came from.
//!
//! The source stage recognises the formats by their first bytes
//! ([`crate::source::RecordFormat`]); the decoders here never panic on any
//! input, take time linear in it, and build trees without recursion.

mod cbf;
mod ccbridge;
mod dhtmlxq;
mod error;
mod game;
mod stop_comment;
mod text;
mod tree;
mod write;
mod xqf;

pub use error::RecordError;
pub use game::RecordGame;
use stop_comment::push_comment_text;
pub use stop_comment::{is_stop_comment, stop_comment, stop_reason};
pub use tree::{MoveTree, Node, Point, RawMove};
pub use write::{Checked, MoveWriter, Unchecked, Written, write_pgn};

use crate::pgn::ReaderNote;
use crate::source::RecordFormat;

/// The warning for a CBL library whose last record breaks off: the file
/// ends inside it (a download cut short, most often), so any records after
/// it are missing, where a single record's break is said by its own row.
/// `None` for every other file.
pub fn library_break(format: RecordFormat, games: &[RecordGame]) -> Option<String> {
    if format != RecordFormat::CcBridgeLibrary {
        return None;
    }
    let last = games.last()?;
    match &last.problem {
        Some(ReaderNote::Damaged(why)) => Some(format!(
            "the library breaks off in its record {} (byte {}): {why}; any records after it are missing",
            games.len(),
            last.offset
        )),
        _ => None,
    }
}

/// Reads the games of one record file. `Err` means the file as a whole
/// gives no game ([`RecordError`] says whether it is not such a record or
/// a damaged one). A library gives one game per record, a web page one
/// per DhtmlXQ block.
pub fn read_records(format: RecordFormat, bytes: &[u8]) -> Result<Vec<RecordGame>, RecordError> {
    match format {
        RecordFormat::Xqf => xqf::read(bytes).map(|g| vec![g]),
        RecordFormat::CcBridgeRecord => ccbridge::read_record(bytes, 0).map(|g| vec![g]),
        RecordFormat::CcBridgeLibrary => ccbridge::read_library(bytes),
        RecordFormat::Cbf => cbf::read(bytes).map(|g| vec![g]),
        RecordFormat::DhtmlXq => dhtmlxq::read_page(bytes),
    }
}

/// A game as the PGN text `pgnmill report` replays: ICCS, every move as
/// recorded.
pub fn report_text(game: &RecordGame) -> String {
    let mut out = String::new();
    write_pgn(game, &Unchecked, "ICCS", &mut out);
    out
}
