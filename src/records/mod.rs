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
fn library_break(format: RecordFormat, games: &[RecordGame]) -> Option<String> {
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

/// A record file as report, convert and fen take it, each message worded
/// here once: its games, or why it gives none.
#[derive(Debug)]
pub enum RecordFileRead {
    /// Its games, and the warning of a library cut inside its last record
    /// (its rows up to there are whole), if it is one.
    Games {
        games: Vec<RecordGame>,
        warning: Option<String>,
    },
    /// No record pgnmill reads ([`RecordError::Unsupported`]): why, for an
    /// `unsupported` entry.
    Unsupported(String),
    /// A record of its format that breaks off or is damaged before its
    /// first game ([`RecordError::Broken`]): the warning of a damaged input.
    Damaged(String),
}

/// [`read_records`] on the file named `name` (as messages name it), with
/// what its readers say of it.
pub fn read_record_file(name: &str, format: RecordFormat, bytes: &[u8]) -> RecordFileRead {
    match read_records(format, bytes) {
        Ok(games) => RecordFileRead::Games {
            warning: library_break(format, &games).map(|why| format!("{name}: {why}")),
            games,
        },
        Err(RecordError::Unsupported(why)) => {
            RecordFileRead::Unsupported(format!("{} file not read: {why}", format.name()))
        }
        Err(RecordError::Broken(why)) => {
            RecordFileRead::Damaged(format!("{name}: {why}: no game of it could be read"))
        }
    }
}

/// A game as the PGN text `pgnmill report` replays: ICCS, every move as
/// recorded.
pub fn report_text(game: &RecordGame) -> String {
    let mut out = String::new();
    write_pgn(game, &Unchecked, "ICCS", &mut out);
    out
}
