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
//! token (`PlyRecorder::token`); the per-game facts are tallied ply by
//! ply as the commands are read, and the clock before a threefold claim
//! is looked up at the end in the small record kept per ply.

mod clock_summary;
mod ply_rows;

pub use clock_summary::{ClockSummary, SideClocks};

use clock_summary::ClockTally;
pub use ply_rows::{PlyRow, PlyRows};

use std::borrow::Cow;

use crate::pgn::GameText;
use crate::pgn::commands::MoveCommands;
use crate::pgn::comments::{move_comments, sole_comment};

/// Plies of a game, about, for the first allocation of its records
/// (lichess blitz: 70 to 80).
const PLIES_HINT: usize = 128;

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
    /// The `--clocks` facts so far.
    tally: Option<ClockTally>,
    /// With `--plies`: the commands of each replayed ply whose comments
    /// were read, ply 1 first (all of them once finished).
    commands: Vec<MoveCommands>,
    /// Without `--plies`: only their clocks, all the game's summary looks
    /// up at the end (the clock before a threefold claim).
    clocks: Vec<Option<i32>>,
    /// Where the last ply's token ends, while its comments are unread.
    open: Option<usize>,
    /// The joined text of a move with several comments.
    scratch: Vec<u8>,
    rows: Option<PlyRows>,
}

impl<'a> PlyRecorder<'a> {
    /// A recorder for `game`, whose `[TimeControl]` tag holds
    /// `time_control`; `None` when nothing is asked.
    pub fn new(
        game: &GameText<'a>,
        options: PlyDataOptions,
        time_control: Option<Cow<'a, [u8]>>,
    ) -> Option<Self> {
        let tally = options.clocks.then(|| {
            let value = time_control.as_deref().map(String::from_utf8_lossy);
            ClockTally::new(value.as_deref())
        });
        // A game's plies, most of the time: one allocation, of the record
        // kept.
        let capacity = |kept: bool| if kept { PLIES_HINT } else { 0 };
        options.any().then(|| PlyRecorder {
            game: *game,
            tally,
            commands: Vec::with_capacity(capacity(options.plies)),
            clocks: Vec::with_capacity(capacity(!options.plies)),
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
    /// `offset`: the comments of the ply before it end there. Lichess's
    /// one-clock comment ([`MoveCommands::usual_clock_of_gap`]) is read
    /// and recorded here, in the replay loop; any other gap out of line.
    #[inline(always)]
    pub fn token(&mut self, offset: usize) {
        if let Some(from) = self.open.take() {
            self.record(from, offset);
        }
    }

    /// Reads and records the commands of the ply whose comments lie
    /// between `from` and `to`: lichess's one-clock comment here, any
    /// other gap out of line ([`Self::read_ply`]).
    #[inline(always)]
    fn record(&mut self, from: usize, to: usize) {
        let gap = self.game.bytes().get(from..to).unwrap_or_default();
        match MoveCommands::usual_clock_of_gap(gap) {
            Some(clock) => self.push_clock(clock),
            None => self.read_ply(from, to),
        }
    }

    /// [`Self::record`] for a gap that is not lichess's one clock: the
    /// usual gaps of analysed games and of chess.com ([`MoveCommands::of_usual_gap`]) at once, any other by
    /// the comment walk.
    #[inline(never)]
    fn read_ply(&mut self, from: usize, to: usize) {
        let gap = self.game.bytes().get(from..to).unwrap_or_default();
        let commands = match MoveCommands::of_usual_gap(gap) {
            Some(commands) => commands,
            None => self.read_comments(from, to),
        };
        self.push(commands);
    }

    /// The next ply's commands are a clock and nothing else: [`Self::push`]
    /// with what is known to be absent left out.
    #[inline(always)]
    fn push_clock(&mut self, clock: i32) {
        if let Some(tally) = &mut self.tally {
            tally.add_clock(Some(clock));
        }
        if self.rows.is_some() {
            self.commands.push(MoveCommands {
                clock_ms: Some(clock),
                ..MoveCommands::default()
            });
        } else {
            self.clocks.push(Some(clock));
        }
    }

    /// The commands of the next ply.
    #[inline]
    fn push(&mut self, commands: MoveCommands) {
        if let Some(tally) = &mut self.tally {
            tally.add(&commands);
        }
        if self.rows.is_some() {
            self.commands.push(commands);
        } else {
            self.clocks.push(commands.clock_ms);
        }
    }

    /// The commands of any gap ([`Self::read_ply`]).
    #[inline(never)]
    fn read_comments(&mut self, from: usize, to: usize) -> MoveCommands {
        let bytes = self.game.bytes();
        match sole_comment(bytes, from, to) {
            Some(None) => MoveCommands::default(),
            Some(Some(text)) => MoveCommands::read(text),
            None => MoveCommands::read_comments(move_comments(bytes, from, to), &mut self.scratch),
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
        // Its commands are pushed once its comments are read.
        self.open = Some(token_end);
        if let Some(rows) = &mut self.rows {
            let (san, uci, fen) = text();
            rows.push(&san, &uci, &fen, repetition);
        }
    }

    /// The data of the whole game, whose first move is White's (Red's)
    /// when `white_first`. `end` is where the last ply's comments end (the
    /// result token, or the end of the text); `None` when the last move
    /// was glued to the result (`Nf3*`, `Qxf7#1-0`), which leaves it none.
    /// `threefold_claim_ply` is the game's (docs/outcomes.md).
    pub fn finish(
        mut self,
        end: Option<usize>,
        threefold_claim_ply: Option<u32>,
        white_first: bool,
    ) -> Box<PlyData> {
        if let Some(from) = self.open.take() {
            match end {
                Some(end) => self.record(from, end),
                None => self.push(MoveCommands::default()),
            }
        }
        let (commands, clocks) = (&self.commands, &self.clocks);
        let clocks = self.tally.map(|tally| {
            let before_claim = threefold_claim_ply
                .and_then(|p| p.checked_sub(2))
                .and_then(|i| match commands.get(i as usize) {
                    Some(c) => c.clock_ms,
                    None => clocks.get(i as usize).copied().flatten(),
                });
            tally.summary(white_first, before_claim)
        });
        let plies = self.rows.take().map(|mut rows| {
            rows.set_commands(self.commands);
            rows
        });
        Box::new(PlyData { clocks, plies })
    }
}
