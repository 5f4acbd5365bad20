//! Watching a chess game's plies for the draw rules of docs/outcomes.md:
//! insufficient material, the fifty- and seventy-five-move rules and the
//! threefold claim by an announced move, each found at its first ply.
//!
//! The replay loop pays for them only when they can be true. Material
//! changes only on an irreversible move, so it is looked at there (and
//! only once no pawn is left). The clock rules wake up at a halfmove clock
//! of 99. The threefold claim ("some legal move reaches a position seen
//! twice") can only hold once a position of the current reversible run has
//! occurred twice: from then on each ply compares the board with the
//! twice-seen positions, and only a board one quiet piece move away from
//! one of them pays for move generation. Everything here is out of line:
//! the loop makes one compare per ply ([`DrawRules::from`]) and calls in
//! on the rare plies.

use super::outcome::{GameOver, MatingMaterial, Outcome, Termination, result_conflict};
use super::{RepetitionStats, RepetitionTable};
use crate::chess::{Bitboard, Color, Move, MoveKind, Position, Role, Square};

/// Past this many twice-seen positions in one run, the claim is tested by
/// trying every legal move (a bounded cost per ply) instead of comparing
/// boards with each of them.
const SNAPSHOT_LIMIT: usize = 8;

/// A position of the current run that has occurred twice: its pieces by
/// role and by colour, its side to move and its key.
#[derive(Clone, Copy, Debug)]
struct Snapshot {
    roles: [u64; 6],
    colors: [u64; 2],
    turn: Color,
}

impl Snapshot {
    fn of(pos: &Position) -> Self {
        let b = pos.board();
        Snapshot {
            roles: Role::ALL.map(|r| b.by_role(r).0),
            colors: Color::ALL.map(|c| b.by_color(c).0),
            turn: pos.turn(),
        }
    }

    /// The one move of a piece of the side to move in `pos`, onto an
    /// empty square, that would turn `pos`'s board into this one, if the
    /// boards differ that way. Every move that can reach a position of
    /// the run (not a capture, pawn move or castling: those are
    /// irreversible) is such a move, so `None` rules the snapshot out.
    fn quiet_move_from(&self, pos: &Position) -> Option<(Square, Square)> {
        let us = pos.turn();
        if self.turn == us {
            return None;
        }
        let b = pos.board();
        if b.by_color(!us).0 != self.colors[(!us).index()] {
            return None;
        }
        let now = b.by_color(us).0;
        let moved = now ^ self.colors[us.index()];
        if moved.count_ones() != 2 {
            return None;
        }
        // One role's board changes by exactly the two squares, no other.
        let one_role = Role::ALL.iter().zip(self.roles).all(|(&r, then)| {
            let diff = b.by_role(r).0 ^ then;
            diff == 0 || diff == moved
        });
        let from = Bitboard(moved & now).first()?;
        let to = Bitboard(moved & !now).first()?;
        one_role.then_some((from, to))
    }
}

/// The rules' state along one game; see the module docs.
#[derive(Debug)]
pub(super) struct DrawRules {
    /// The replay calls [`DrawRules::after_ply`] when the halfmove clock
    /// is at least this: 0 while a threefold claim is being watched.
    pub from: u32,
    /// The clock at which the next clock rule can first hold.
    clock_from: u32,
    /// The run the snapshots belong to ([`RepetitionTable::run_id`]).
    run: u64,
    /// The twice-seen positions of the run (at most [`SNAPSHOT_LIMIT`]);
    /// allocated only in a game that repeats a position.
    snapshots: Vec<Snapshot>,
    /// More than [`SNAPSHOT_LIMIT`] positions of this run occurred twice.
    crowded: bool,
    insufficient_ply: Option<u32>,
    threefold_claim_ply: Option<u32>,
    fifty_move_ply: Option<u32>,
    fifty_move_claim_ply: Option<u32>,
    seventyfive_move_ply: Option<u32>,
    /// The first checkmate or stalemate that a null move passed over: the
    /// game went on, but python-chess's `outcome()` ended it there. Only
    /// a null move can leave such a position (a real move needs a legal
    /// one), so the final position is the only other place to look.
    passed_end: Option<(u32, GameOver)>,
}

impl DrawRules {
    /// The rules at the start position (ply 0).
    pub fn new(pos: &Position) -> Self {
        let mut rules = DrawRules {
            from: 99,
            clock_from: 99,
            run: 0,
            snapshots: Vec::new(),
            crowded: false,
            insufficient_ply: None,
            threefold_claim_ply: None,
            fifty_move_ply: None,
            fifty_move_claim_ply: None,
            seventyfive_move_ply: None,
            passed_end: None,
        };
        rules.material(pos, 0);
        if pos.halfmove_clock() >= rules.from {
            rules.clock_rules(pos, 0);
            rules.from = rules.clock_from;
        }
        rules
    }

    /// Material may have become insufficient (no pawn is left).
    fn material(&mut self, pos: &Position, ply: u32) {
        if self.insufficient_ply.is_none() && pos.is_insufficient_material() {
            self.insufficient_ply = Some(ply);
        }
    }

    /// After an irreversible move that left no pawn on the board, or with
    /// a clock of at least [`DrawRules::from`] (a lost castling right).
    #[cold]
    #[inline(never)]
    pub fn after_irreversible(&mut self, pos: &Position, table: &RepetitionTable, ply: u32) {
        self.material(pos, ply);
        if pos.halfmove_clock() >= self.from {
            self.after_ply(pos, table, ply, 1);
        }
    }

    /// The position at `ply` reached a clock of [`DrawRules::from`], or
    /// its key has occurred `seen` >= 2 times in the run (ep-if-legal).
    #[cold]
    #[inline(never)]
    pub fn after_ply(&mut self, pos: &Position, table: &RepetitionTable, ply: u32, seen: u32) {
        if pos.halfmove_clock() >= self.clock_from {
            self.clock_rules(pos, ply);
        }
        self.threefold_claim(pos, table, ply, seen);
        self.from = if self.snapshots.is_empty() && !self.crowded {
            self.clock_from
        } else {
            0
        };
    }

    /// A null move is about to pass the turn in `pos`, the position at
    /// `ply`: a checkmate or stalemate there ended the game
    /// (`game_over_ply`), though the movetext goes on.
    #[cold]
    #[inline(never)]
    pub fn before_null_move(&mut self, pos: &Position, ply: u32) {
        if self.passed_end.is_none() && !pos.has_legal_move() {
            let why = if pos.is_check() {
                GameOver::Checkmate
            } else {
                GameOver::Stalemate
            };
            self.passed_end = Some((ply, why));
        }
    }

    /// python-chess's `is_fifty_moves`, `can_claim_fifty_moves` and
    /// `is_seventyfive_moves` at a position whose clock is at least 99.
    fn clock_rules(&mut self, pos: &Position, ply: u32) {
        let clock = pos.halfmove_clock();
        let moves = pos.legal_moves();
        let has_move = !moves.is_empty();
        if clock >= 100 && has_move {
            self.fifty_move_ply.get_or_insert(ply);
            self.fifty_move_claim_ply.get_or_insert(ply);
        }
        if clock >= 150 && has_move {
            self.seventyfive_move_ply.get_or_insert(ply);
        }
        // FIDE 9.3.1 as python-chess models it: a move that is neither a
        // capture nor a pawn move and leads to a position (clock >= 100)
        // that is not checkmate or stalemate.
        if self.fifty_move_claim_ply.is_none()
            && clock >= 99
            && moves.iter().any(|&m| {
                !is_zeroing(pos, m) && {
                    let mut after = *pos;
                    after.play(m);
                    after.has_legal_move()
                }
            })
        {
            self.fifty_move_claim_ply = Some(ply);
        }
        self.clock_from = if self.fifty_move_claim_ply.is_none() {
            99
        } else if self.fifty_move_ply.is_none() {
            100
        } else if self.seventyfive_move_ply.is_none() {
            150
        } else {
            u32::MAX
        };
    }

    /// python-chess's `can_claim_threefold_repetition` by an announced
    /// move (FIDE 9.2.1.1); the third occurrence itself (9.2.1.2) is the
    /// threefold ply, merged in at the end.
    fn threefold_claim(&mut self, pos: &Position, table: &RepetitionTable, ply: u32, seen: u32) {
        if self.threefold_claim_ply.is_some() {
            self.snapshots.clear();
            self.crowded = false;
            return;
        }
        if table.run_id() != self.run {
            self.snapshots.clear();
            self.crowded = false;
            self.run = table.run_id();
        }
        if seen == 2 && !self.crowded {
            if self.snapshots.len() < SNAPSHOT_LIMIT {
                self.snapshots.push(Snapshot::of(pos));
            } else {
                self.snapshots.clear();
                self.crowded = true;
            }
        }
        let claim = if self.crowded {
            a_move_repeats(pos, table)
        } else {
            self.snapshots.iter().any(|s| {
                s.quiet_move_from(pos).is_some_and(|(from, to)| {
                    pos.is_legal_quiet_move(from, to) && {
                        let mut after = *pos;
                        after.play(Move::normal(from, to));
                        table.count_ep_legal(after.key_ep_legal()) >= 2
                    }
                })
            })
        };
        if claim {
            self.threefold_claim_ply = Some(ply);
            self.snapshots.clear();
            self.crowded = false;
        }
    }

    /// The outcome columns, from the final position `pos` after `plies`
    /// replayed plies and the repetition statistics under ep-if-legal
    /// (`legal`) and ep-always (`always`);
    /// `results` are the Result tag and the movetext result token, given
    /// only for a game replayed to its end (`result_conflict` is left
    /// empty otherwise).
    pub fn finish(
        self,
        pos: &Position,
        plies: u32,
        legal: RepetitionStats,
        always: RepetitionStats,
        results: Option<(&str, Option<&str>)>,
    ) -> Outcome {
        let has_move = pos.has_legal_move();
        let termination = if !has_move && pos.is_check() {
            Termination::Checkmate
        } else if pos.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else if !has_move {
            Termination::Stalemate
        } else {
            Termination::None
        };
        let board_result = match termination {
            Termination::Checkmate if pos.turn() == Color::White => "0-1",
            Termination::Checkmate => "1-0",
            Termination::InsufficientMaterial | Termination::Stalemate => "1/2-1/2",
            Termination::None => "",
        };
        let end = match termination {
            Termination::Checkmate => Some((plies, GameOver::Checkmate)),
            Termination::Stalemate => Some((plies, GameOver::Stalemate)),
            _ => None,
        };
        let game_over = [
            self.passed_end,
            end,
            self.insufficient_ply
                .map(|p| (p, GameOver::InsufficientMaterial)),
            self.seventyfive_move_ply
                .map(|p| (p, GameOver::SeventyfiveMoves)),
            legal
                .fivefold_ply
                .map(|p| (p, GameOver::FivefoldRepetition)),
        ]
        .into_iter()
        .flatten()
        .min();
        let threefold_claim_ply = match (self.threefold_claim_ply, legal.threefold_ply) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let result_conflict = results.map_or_else(String::new, |(tag, movetext)| {
            result_conflict(
                tag,
                movetext,
                termination,
                board_result,
                match pos.turn() {
                    Color::White => "White",
                    Color::Black => "Black",
                },
            )
        });
        Outcome {
            termination: Some(termination),
            board_result,
            mating_material: Some(MatingMaterial::of(
                !pos.has_insufficient_material(Color::White),
                !pos.has_insufficient_material(Color::Black),
            )),
            fivefold_ply: legal.fivefold_ply,
            fivefold_ply_ep_always: always.fivefold_ply,
            threefold_claim_ply,
            fifty_move_ply: self.fifty_move_ply,
            fifty_move_claim_ply: self.fifty_move_claim_ply,
            seventyfive_move_ply: self.seventyfive_move_ply,
            game_over,
            result_conflict,
            perpetual_check: None,
            natural_limit_ply: None,
        }
    }
}

/// A capture or a pawn move (python-chess `is_zeroing`): castling is not.
fn is_zeroing(pos: &Position, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant | MoveKind::Promotion(_) => true,
        MoveKind::Castle | MoveKind::Null => false,
        MoveKind::Normal => {
            let b = pos.board();
            b.occupied().contains(m.to()) || b.by_role(Role::Pawn).contains(m.from())
        }
    }
}

/// Whether some legal move leads to a key that occurred at least twice in
/// the run: python-chess's test, move by move. Only reversible moves can
/// reach a position of the run.
fn a_move_repeats(pos: &Position, table: &RepetitionTable) -> bool {
    pos.legal_moves().iter().any(|&m| {
        !pos.is_zeroing_or_irreversible(m) && {
            let mut after = *pos;
            after.play(m);
            table.count_ep_legal(after.key_ep_legal()) >= 2
        }
    })
}
