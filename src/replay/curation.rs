//! What a curator asks of every game besides its replay: the line's
//! identity (`line_key`, for duplicates) and the opening's name. Kept in
//! structs of their own in [`super::ReplayedGame`] and
//! [`super::ReplayOptions`].

use super::Status;
use super::line::{LineFacts, LineRecorder};
use crate::openings::{self, OpeningBook, OpeningFacts, OpeningTrail, TableKind};
use std::sync::Arc;

/// What the user asked of the curator's columns.
#[derive(Clone, Debug, Default)]
pub struct CurationOptions {
    /// Keep each ok game's canonical line string (`--duplicates`, which
    /// looks for lines that are a prefix of another).
    pub keep_line_bytes: bool,
    /// The opening table (`--openings`); `None` for the compiled-in one.
    pub openings: Option<Arc<OpeningBook>>,
}

impl CurationOptions {
    /// The table games are named from.
    pub fn book(&self) -> &Arc<OpeningBook> {
        self.openings
            .as_ref()
            .unwrap_or_else(|| openings::compiled_in())
    }
}

/// The curator's facts of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurationFacts {
    pub line: LineFacts,
    pub opening: OpeningFacts,
}

/// The line and opening of one game while it replays: the replay loops
/// hand each move and position to it.
#[derive(Debug)]
pub(crate) struct Trails {
    pub line: LineRecorder,
    pub opening: OpeningTrail,
    kind: TableKind,
}

impl Trails {
    /// Trails for a game of `kind` whose line starts with `line`; named
    /// by the opening table only when `named` (chess, not Chess960, and
    /// no `[FEN]`: lichess's rule; xiangqi likewise without `[FEN]`).
    pub fn new(
        line: LineRecorder,
        kind: TableKind,
        named: bool,
        options: &CurationOptions,
    ) -> Self {
        Trails {
            line,
            opening: OpeningTrail::new(options.book(), kind, named),
            kind,
        }
    }

    /// The facts, once the game is over: the line's keys only when the
    /// whole main line replayed (`status` ok), the opening over the plies
    /// replayed whatever the status; `final_fen` as ep-if-legal.
    pub fn finish(
        self,
        status: Status,
        final_fen: &str,
        plies: u32,
        recorded: (Option<&str>, Option<&str>),
        options: &CurationOptions,
    ) -> CurationFacts {
        let line = if status == Status::Ok {
            self.line.finish(final_fen, plies, options.keep_line_bytes)
        } else {
            LineFacts::default()
        };
        let hit = self.opening.classify(options.book(), self.kind);
        let conflict = hit
            .as_ref()
            .and_then(|hit| openings::conflict(hit, recorded.0, recorded.1));
        CurationFacts {
            line,
            opening: OpeningFacts { hit, conflict },
        }
    }
}
