//! Watching a xiangqi game's plies for the outcome columns of
//! docs/xiangqi-rules.md, section 7: which side checked throughout the
//! cycle of the first threefold repetition (`perpetual_check`), the first
//! ply of the CXA 60-move natural limit (`natural_limit_ply`), and at the
//! end checkmate or stalemate (both lose in xiangqi) against the recorded
//! result. Only the xiangqi replay calls in here: the chess path pays
//! nothing for it.

use super::outcome::{Outcome, PerpetualCheck, Termination, xiangqi_result_conflict};
use crate::xiangqi::Position;
use crate::xiangqi::types::{Color, Move};

/// Plies in a row without a capture after which the natural limit is
/// reached (CXA 4.2.4: 60 moves by both sides).
const NATURAL_LIMIT: u32 = 120;

/// The rules' state along one game; see the module docs.
#[derive(Debug)]
pub(super) struct XiangqiRules {
    /// The run's first position: the start, or the position after the
    /// last capture. A capture changes the material for good, so only
    /// positions of the run can repeat the current one.
    run_start: Position,
    /// The keys of the run's positions, its first included.
    keys: Vec<u64>,
    /// The moves of the run. Whether a move gave check is worked out only
    /// for the cycle of the first threefold, by replaying them from
    /// `run_start`: a check test on every ply would cost a quarter of a
    /// xiangqi report's time.
    moves: Vec<Move>,
    /// `Some` once some position occurred for the third time: the verdict
    /// on that first threefold (later ones are ignored).
    perpetual: Option<Option<PerpetualCheck>>,
    /// The keys of that threefold's cycle (the positions from its first
    /// occurrence to its third), kept when a side checked throughout: a
    /// result is held against the perpetual check only when the game
    /// ended in it.
    cycle: Vec<u64>,
    natural_limit_ply: Option<u32>,
}

impl XiangqiRules {
    /// The rules at the start position (ply 0); its `[FEN]` clock counts as
    /// plies already passed without a capture.
    pub fn new(pos: &Position) -> Self {
        let mut rules = XiangqiRules {
            run_start: pos.clone(),
            keys: Vec::new(),
            moves: Vec::new(),
            perpetual: None,
            cycle: Vec::new(),
            natural_limit_ply: None,
        };
        rules.keys.push(pos.key());
        rules.clock(pos, 0);
        rules
    }

    fn clock(&mut self, pos: &Position, ply: u32) {
        if self.natural_limit_ply.is_none() && pos.halfmove_clock() >= NATURAL_LIMIT {
            self.natural_limit_ply = Some(ply);
        }
    }

    /// The position `pos` at `ply`, reached by `m`, a capture (`capture`)
    /// or a quiet move whose key has now occurred `seen` times in the run.
    pub fn after_ply(&mut self, pos: &Position, m: Move, ply: u32, capture: bool, seen: u32) {
        self.clock(pos, ply);
        if self.perpetual.is_some() {
            return;
        }
        if capture {
            self.run_start.clone_from(pos);
            self.keys.clear();
            self.moves.clear();
        } else {
            self.moves.push(m);
        }
        self.keys.push(pos.key());
        if seen >= 3 {
            let verdict = self.perpetual_check();
            if verdict.is_some() {
                self.cycle = self.cycle_keys().to_vec();
            }
            self.perpetual = Some(verdict);
        }
    }

    /// The keys of the cycle that ends at the run's last position, its
    /// third occurrence: from its first occurrence on.
    fn cycle_keys(&self) -> &[u64] {
        let first = self
            .keys
            .last()
            .and_then(|last| self.keys.iter().position(|k| k == last))
            .unwrap_or(self.keys.len());
        &self.keys[first..]
    }

    /// The verdict on the cycle that ends at the run's last position, its
    /// third occurrence: the moves from the ply after its first
    /// occurrence up to now, replayed from the run's start.
    #[cold]
    #[inline(never)]
    fn perpetual_check(&self) -> Option<PerpetualCheck> {
        let last = *self.keys.last()?;
        let first = self.keys.iter().position(|&k| k == last)?;
        let mut pos = self.run_start.clone();
        let mut span = Vec::with_capacity(self.moves.len().saturating_sub(first));
        for (i, &m) in self.moves.iter().enumerate() {
            let red_moved = pos.turn() == Color::Red;
            pos.play(m);
            if i >= first {
                span.push((red_moved, pos.is_check()));
            }
        }
        verdict(&span)
    }

    /// The xiangqi outcome columns for the final position `pos`, which has
    /// occurred `final_count` times in its run; `results` are the Result
    /// tag and the movetext result token, given only for a game replayed to
    /// its end (`result_conflict` stays empty otherwise).
    ///
    /// A perpetual check is held against a result only when the game ended
    /// in the repetition: its final position is one of the cycle's and has
    /// occurred at least three times. A game that went on after the
    /// threefold and was won later (32 of the real corpus's games) keeps
    /// its `perpetual_check`, but no conflict.
    pub fn finish(
        self,
        pos: &Position,
        final_count: u32,
        results: Option<(&str, Option<&str>)>,
    ) -> Outcome {
        let termination = if !pos.legal_moves().is_empty() {
            Termination::None
        } else if pos.is_check() {
            Termination::Checkmate
        } else {
            Termination::Stalemate
        };
        let (to_move, winner) = match pos.turn() {
            Color::Red => ("Red", "0-1"),
            Color::Black => ("Black", "1-0"),
        };
        let board_result = match termination {
            Termination::None => "",
            _ => winner,
        };
        let perpetual_check = self.perpetual.flatten();
        let ended_in_it = final_count >= 3 && self.cycle.contains(&pos.key());
        let result_conflict = results.map_or_else(String::new, |(tag, movetext)| {
            xiangqi_result_conflict(
                tag,
                movetext,
                termination,
                board_result,
                to_move,
                perpetual_check.filter(|_| ended_in_it),
            )
        });
        Outcome {
            termination: Some(termination),
            board_result,
            result_conflict,
            perpetual_check,
            natural_limit_ply: self.natural_limit_ply,
            ..Outcome::default()
        }
    }
}

/// Which side gave check on every one of its moves of `span`, given as
/// (red made the move, the move gave check) per ply.
fn verdict(span: &[(bool, bool)]) -> Option<PerpetualCheck> {
    let every = |red: bool| {
        span.iter()
            .filter(|&&(r, _)| r == red)
            .all(|&(_, check)| check)
    };
    PerpetualCheck::of(every(true), every(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight plies of a cycle, red's moves first, with the checks given.
    fn cycle(checks: [bool; 8]) -> Option<PerpetualCheck> {
        let span: Vec<(bool, bool)> = checks
            .into_iter()
            .enumerate()
            .map(|(i, c)| (i % 2 == 0, c))
            .collect();
        verdict(&span)
    }

    /// No position of the test corpora has both sides checking on every
    /// move of a cycle (docs/xiangqi-rules.md section 5), so the `both`
    /// word is held here.
    #[test]
    fn the_span_decides_which_side_checked_throughout() {
        assert_eq!(cycle([true; 8]), Some(PerpetualCheck::Both));
        let red = [true, false, true, false, true, false, true, false];
        assert_eq!(cycle(red), Some(PerpetualCheck::Red));
        let black = [false, true, false, true, false, true, false, true];
        assert_eq!(cycle(black), Some(PerpetualCheck::Black));
        let some = [true, false, false, false, true, false, true, false];
        assert_eq!(cycle(some), None);
    }
}
