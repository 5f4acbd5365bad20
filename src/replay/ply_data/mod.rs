//! What a replay keeps of each ply when asked (`--clocks`, `--plies`): the
//! commands in the move's comments (`[%clk]`, `[%emt]`, `[%eval]`, read as
//! python-chess reads them, [`crate::pgn::commands`]) and, for one row per
//! ply, the move in SAN and UCI, the position after it and how often that
//! position has occurred.
//!
//! Nothing here runs in a replay that asked for neither: the chess replay
//! loop is compiled without it, and the tokenizer skips comments unread.
//! When asked, a move's comments are read from the bytes between its
//! token and the next main-line token, once the replay has reached that
//! token ([`PlyRecorder::token`]); the per-game facts are worked out at the
//! end, from one small record per ply.

mod clock_summary;
mod ply_rows;

pub use clock_summary::{ClockSummary, SideClocks};
pub use ply_rows::{PlyRow, PlyRows};

use crate::pgn::GameText;
use crate::pgn::commands::MoveCommands;
use crate::pgn::comments::move_comments;

/// Which per-ply data a replay keeps; both off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyDataOptions {
    /// The per-game clock and evaluation facts ([`ClockSummary`]).
    pub clocks: bool,
    /// One row per main-line ply ([`PlyRows`]).
    pub plies: bool,
}

impl PlyDataOptions {
    /// Whether anything is asked.
    pub fn any(self) -> bool {
        self.clocks || self.plies
    }
}

/// What was kept of one game's plies, as asked by its [`PlyDataOptions`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyData {
    /// When `clocks` was asked.
    pub clocks: Option<ClockSummary>,
    /// When `plies` was asked.
    pub plies: Option<PlyRows>,
}

/// Collects a game's per-ply data while it is replayed; see the module
/// docs.
#[derive(Debug)]
pub(crate) struct PlyRecorder<'a> {
    game: GameText<'a>,
    options: PlyDataOptions,
    /// Whether the first move is White's (Red's).
    white_first: bool,
    /// The commands of each replayed ply, ply 1 first.
    commands: Vec<MoveCommands>,
    /// Where the last ply's token ends, while its comments are unread.
    open: Option<usize>,
    /// The joined text of a move with several comments.
    scratch: Vec<u8>,
    rows: Option<PlyRows>,
}

impl<'a> PlyRecorder<'a> {
    /// A recorder for `game`, whose first move is White's (Red's) when
    /// `white_first`; `None` when nothing is asked.
    pub fn new(game: &GameText<'a>, options: PlyDataOptions, white_first: bool) -> Option<Self> {
        options.any().then(|| PlyRecorder {
            game: *game,
            options,
            white_first,
            commands: Vec::new(),
            open: None,
            scratch: Vec::new(),
            rows: options.plies.then(PlyRows::default),
        })
    }

    /// Whether the caller must hand over the text of each ply (SAN, UCI,
    /// FEN).
    pub fn wants_text(&self) -> bool {
        self.rows.is_some()
    }

    /// A main-line token (a move, or one that cannot be played) starts at
    /// `offset`: the comments of the ply before it end there.
    #[inline]
    pub fn token(&mut self, offset: usize) {
        if let Some(from) = self.open.take() {
            self.read_comments(from, offset);
        }
    }

    /// The comments between `from` and `to` belong to the last ply.
    fn read_comments(&mut self, from: usize, to: usize) {
        let comments = move_comments(self.game.bytes(), from, to);
        let commands = MoveCommands::read_comments(comments, &mut self.scratch);
        if let Some(last) = self.commands.last_mut() {
            *last = commands;
        }
    }

    /// A ply was played: its token ends at `token_end`, and the position
    /// after it has now occurred `repetition` times (ep-if-legal). `text`
    /// gives its SAN, UCI and FEN, asked only when [`Self::wants_text`].
    #[inline]
    pub fn ply(
        &mut self,
        token_end: usize,
        repetition: u32,
        text: impl FnOnce() -> (String, String, String),
    ) {
        self.commands.push(MoveCommands::default());
        self.open = Some(token_end);
        if let Some(rows) = &mut self.rows {
            let (san, uci, fen) = text();
            rows.push(&san, &uci, &fen, repetition);
        }
    }

    /// The data of the whole game. `end` is where the last ply's comments
    /// end (the result token, or the end of the text); `None` when the
    /// last move was glued to the result (`Nf3*`), which leaves it none.
    /// `threefold_claim_ply` is the game's (docs/outcomes.md).
    pub fn finish(mut self, end: Option<usize>, threefold_claim_ply: Option<u32>) -> Box<PlyData> {
        if let (Some(from), Some(end)) = (self.open.take(), end) {
            self.read_comments(from, end);
        }
        let clocks = self.options.clocks.then(|| {
            let tag = self.game.tag("TimeControl");
            let tag = tag.as_deref().map(String::from_utf8_lossy);
            ClockSummary::new(
                &self.commands,
                self.white_first,
                tag.as_deref(),
                threefold_claim_ply,
            )
        });
        let plies = self.rows.take().map(|mut rows| {
            rows.set_commands(self.commands);
            rows
        });
        Box::new(PlyData { clocks, plies })
    }
}
