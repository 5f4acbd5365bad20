//! A xiangqi record (XQF, CCBridge, DhtmlXQ) audited as a position list of
//! one entry: its start position, the one a `[FEN]` tag would give. The
//! record's moves are `pgnmill report`'s business; `fen` asks only whether
//! the position a collector's file sets up is a legal one, so every record
//! of a file (a CBL library holds hundreds) is one row, in file order.

use super::audit::{FenRow, Variant, audit_xiangqi};
use crate::records::RecordGame;

/// What a [`FenRow`] of a record says in `status` when the record holds no
/// position (a library's chapter heading, or a header that could not be
/// read): as `games.csv` says of the same record.
pub const NO_POSITION: &str = "unsupported";

/// Audits record `index` (from 0) of the file named `source`. The row's
/// `line` is the line the record starts on (1 for a binary file), `game`
/// its index from 1, `input` the start position as the record sets it up,
/// `id` its title.
pub fn audit_record_game(source: &str, index: u64, game: &RecordGame) -> FenRow {
    let title = game
        .tags
        .iter()
        .find(|(name, _)| *name == "Title")
        .map_or("", |(_, value)| value.as_str());
    let start = game.start_position();
    let mut row = FenRow::new(source, game.line, start.as_deref().unwrap_or(""), title);
    row.game = Some(index + 1);
    match start {
        Ok(fen) => audit_xiangqi(&fen, &mut row),
        Err(why) => {
            row.status = NO_POSITION;
            row.variant = Variant::Xiangqi.name();
            row.error = format!("{}: {why}", game.format);
        }
    }
    row
}
