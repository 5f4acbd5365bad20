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

impl ClockSummary {
    /// The facts of a game whose plies (ply 1 first) carry `commands`,
    /// the first of them White's (Red's) when `white_first`, given its
    /// `[TimeControl]` value and `threefold_claim_ply`.
    pub fn new(
        commands: &[MoveCommands],
        white_first: bool,
        time_control: Option<&str>,
        threefold_claim_ply: Option<u32>,
    ) -> Self {
        let time_control = time_control.and_then(TimeControl::parse);
        let increment = time_control.map(|t| i64::from(t.increment_ms));
        let mut sides = [SideTally::default(), SideTally::default()];
        let mut summary = ClockSummary {
            time_control,
            ..ClockSummary::default()
        };
        for (i, c) in commands.iter().enumerate() {
            let ply = i as u64 + 1;
            // sides[0] is White's: the odd plies when White moves first.
            let side = usize::from((i % 2 == 0) != white_first);
            if let Some(clock) = c.clock_ms {
                summary.clock_plies += 1;
                if let Some(side) = sides.get_mut(side) {
                    side.add(clock, ply, increment);
                }
            }
            if let Some(eval) = c.eval {
                summary.eval_plies += 1;
                summary.eval_last = Some(eval.score);
            }
        }
        let [white, black] = sides;
        summary.white = white.clocks();
        summary.black = black.clocks();
        summary.clock_at_threefold_claim = threefold_claim_ply
            .and_then(|p| p.checked_sub(2))
            .and_then(|i| commands.get(i as usize))
            .and_then(|c| c.clock_ms);
        summary
    }

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
    first: Option<i32>,
    /// The last clock and its ply.
    last: Option<(i32, u64)>,
    min: Option<i32>,
    /// The time used so far, once a second clock was read (and only with
    /// an increment to add).
    used: Option<i64>,
}

impl SideTally {
    /// The side's clock after ply `ply`.
    fn add(&mut self, clock: i32, ply: u64, increment: Option<i64>) {
        self.first.get_or_insert(clock);
        self.min = Some(self.min.map_or(clock, |m| m.min(clock)));
        if let (Some((before, at)), Some(increment)) = (self.last, increment) {
            // The side moved every second ply since its last clock.
            let moves = ((ply - at) / 2) as i64;
            let spent = i64::from(before) - i64::from(clock) + increment * moves;
            self.used = Some(self.used.unwrap_or(0) + spent);
        }
        self.last = Some((clock, ply));
    }

    fn clocks(self) -> SideClocks {
        SideClocks {
            first: self.first,
            last: self.last.map(|(clock, _)| clock),
            min: self.min,
            // Within ±(2^31 - 1), as every signed column.
            time_used: self
                .used
                .and_then(|u| i32::try_from(u).ok())
                .filter(|&u| u != i32::MIN),
        }
    }
}
