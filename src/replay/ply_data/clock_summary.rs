//! A game's clocks and evaluations in a few numbers (the `--clocks`
//! columns, docs/reports.md): each side's first, last and lowest clock and
//! the time it used, the clock of the side that could first claim a
//! threefold repetition, and the last evaluation.

use crate::pgn::commands::{MoveCommands, Score};
use crate::pgn::time_control::TimeControl;

/// One side's clocks, in milliseconds; `None` where its moves carry none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClocks {
    /// The `[%clk]` of its first move that has one.
    pub first: Option<i32>,
    /// The `[%clk]` of its last move that has one.
    pub last: Option<i32>,
    /// Its lowest `[%clk]`.
    pub min: Option<i32>,
    /// The time it spent on its moves: for each clock after its first,
    /// the clock before minus this one plus the increment of every move
    /// in between (one, when every move has a clock). `None` without an
    /// increment to add (a `[TimeControl]` that is not one sudden-death
    /// period, or none) or with fewer than two clocks; may be negative
    /// where time was added (lichess's "give time") or a period ended.
    pub time_used: Option<i32>,
}

/// The `--clocks` facts of one game; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockSummary {
    /// `[TimeControl]` when it is one sudden-death period.
    pub time_control: Option<TimeControl>,
    /// White's clocks (Red's in xiangqi).
    pub white: SideClocks,
    pub black: SideClocks,
    /// Plies with a `[%clk]`.
    pub clock_plies: u32,
    /// At the game's `threefold_claim_ply` P, the clock of the side to
    /// move: the `[%clk]` of its last move, ply P-1.
    pub clock_at_threefold_claim: Option<i32>,
    /// Plies with an `[%eval]`.
    pub eval_plies: u32,
    /// The last `[%eval]` of the main line.
    pub eval_last: Option<Score>,
}

/// A game's clock and evaluation facts as its plies are read, so that
/// nothing is left to go over at the end.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ClockTally {
    time_control: Option<TimeControl>,
    /// Added to a side's time used for each of its moves.
    increment: i64,
    /// The sides by the parity of the ply's index: index 0, 2, 4 ... (the
    /// first mover's plies), then the others.
    by_parity: [SideTally; 2],
    plies: usize,
    eval_plies: u32,
    eval_last: Option<Score>,
}

impl ClockTally {
    /// A tally for a game whose `[TimeControl]` value is `time_control`.
    pub fn new(time_control: Option<&str>) -> Self {
        let time_control = time_control.and_then(TimeControl::parse);
        ClockTally {
            time_control,
            increment: time_control.map_or(0, |t| i64::from(t.increment_ms)),
            ..ClockTally::default()
        }
    }

    /// The next ply's commands.
    #[inline]
    pub fn add(&mut self, commands: &MoveCommands) {
        if let Some(eval) = commands.eval {
            self.eval_plies += 1;
            self.eval_last = Some(eval.score);
        }
        self.add_clock(commands.clock_ms);
    }

    /// The next ply's clock, for a ply without `[%eval]`.
    #[inline]
    pub fn add_clock(&mut self, clock: Option<i32>) {
        let ply = self.plies;
        self.plies += 1;
        if let Some(clock) = clock {
            // The side's own move number: its plies are every other one.
            let side = &mut self.by_parity[ply & 1];
            side.add(clock, (ply >> 1) as i64);
        }
    }

    /// The facts of the game, whose first move is White's (Red's) when
    /// `white_first`; `clock_before_claim` is the clock of ply
    /// `threefold_claim_ply - 1`, if any.
    pub fn summary(self, white_first: bool, clock_before_claim: Option<i32>) -> ClockSummary {
        let [first, second] = self.by_parity;
        let (white, black) = if white_first {
            (first, second)
        } else {
            (second, first)
        };
        let increment = self.time_control.map(|_| self.increment);
        ClockSummary {
            time_control: self.time_control,
            white: white.side_clocks(increment),
            black: black.side_clocks(increment),
            clock_plies: white.clocks + black.clocks,
            clock_at_threefold_claim: clock_before_claim,
            eval_plies: self.eval_plies,
            eval_last: self.eval_last,
        }
    }
}

impl ClockSummary {
    /// `time_base`: the control's base in milliseconds.
    pub fn time_base(&self) -> Option<i32> {
        self.time_control.map(|t| t.base_ms)
    }

    /// `time_increment`: the control's increment in milliseconds.
    pub fn time_increment(&self) -> Option<i32> {
        self.time_control.map(|t| t.increment_ms)
    }

    /// `eval_last_cp`: the last evaluation's centipawns, unless a mate.
    pub fn eval_last_cp(&self) -> Option<i32> {
        self.eval_last.and_then(Score::centipawns)
    }

    /// `eval_last_mate`: the last evaluation's moves to mate, if a mate.
    pub fn eval_last_mate(&self) -> Option<i32> {
        self.eval_last.and_then(Score::mate)
    }
}

/// One side's clocks as they are read.
#[derive(Clone, Copy, Debug, Default)]
struct SideTally {
    /// How many of its moves carry a clock; the fields below mean
    /// something only when there is one.
    clocks: u32,
    first: i32,
    last: i32,
    min: i32,
    /// Its own move numbers (0 for its first move) of its first and last
    /// moves with a clock.
    first_move: i64,
    last_move: i64,
}

impl SideTally {
    /// The side's clock after its move number `move_number`.
    #[inline]
    fn add(&mut self, clock: i32, move_number: i64) {
        if self.clocks == 0 {
            self.first = clock;
            self.min = clock;
            self.first_move = move_number;
        }
        self.min = self.min.min(clock);
        self.last = clock;
        self.last_move = move_number;
        self.clocks += 1;
    }

    /// The columns: the time used only with an increment to add and two
    /// clocks or more.
    fn side_clocks(self, increment: Option<i64>) -> SideClocks {
        let any = self.clocks > 0;
        // The time used, clock by clock, is the clock before minus this
        // one plus the increment of every move in between: summed over
        // the clocks after the first, the clocks telescope to the first
        // minus the last, and the moves in between to the moves from the
        // first clock's to the last's.
        let used = increment.map(|increment| {
            i64::from(self.first) - i64::from(self.last)
                + increment * (self.last_move - self.first_move)
        });
        SideClocks {
            first: any.then_some(self.first),
            last: any.then_some(self.last),
            min: any.then_some(self.min),
            // Within ±(2^31 - 1), as every signed column.
            time_used: used
                .filter(|_| self.clocks >= 2)
                .and_then(|u| i32::try_from(u).ok())
                .filter(|&u| u != i32::MIN),
        }
    }
}
