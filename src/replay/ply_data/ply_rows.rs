//! One row per main-line ply of a game (`plies.parquet`): the move in
//! SAN and UCI, the position after it, the commands of its comments and
//! how often the position has occurred. The rows' text lives in one
//! string per game, so a game costs a few allocations, not three a ply.

use crate::pgn::commands::MoveCommands;

/// A game's rows; see the module docs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyRows {
    /// Every row's SAN, UCI and FEN, one after the other.
    text: String,
    /// Where each row's SAN, UCI and FEN end in `text`.
    ends: Vec<[usize; 3]>,
    repetitions: Vec<u32>,
    commands: Vec<MoveCommands>,
}

/// One ply of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRow<'a> {
    /// 1 for the first move of the game, whoever makes it.
    pub ply: u32,
    /// Chess: SAN as python-chess writes it (`Nbd7`, `exd8=Q#`, `O-O`,
    /// `--`). Xiangqi: WXF (`C2.5`).
    pub san: &'a str,
    /// Chess: UCI (`e1g1`; Chess960 castling king-takes-rook, `e1h1`).
    /// Xiangqi: ICCS (`h2e2`).
    pub uci: &'a str,
    /// The position after the move; for chess with an en-passant square
    /// only where a capture is legal (python-chess `Board.fen()`).
    pub fen: &'a str,
    pub commands: MoveCommands,
    /// How many times the position after the move has occurred so far,
    /// this time included (ep-if-legal; 1 for a new position).
    pub repetition: u32,
}

impl PlyRow<'_> {
    /// `[%clk]` in milliseconds.
    pub fn clock_ms(&self) -> Option<i32> {
        self.commands.clock_ms
    }

    /// `[%emt]` in milliseconds.
    pub fn emt_ms(&self) -> Option<i32> {
        self.commands.emt_ms
    }

    /// `[%eval]` in centipawns, when it is no mate.
    pub fn eval_cp(&self) -> Option<i32> {
        self.commands.eval.and_then(|e| e.score.centipawns())
    }

    /// `[%eval #n]`: the moves to mate, negative when Black mates.
    pub fn eval_mate(&self) -> Option<i32> {
        self.commands.eval.and_then(|e| e.score.mate())
    }

    /// The depth of `[%eval ...,depth]`.
    pub fn eval_depth(&self) -> Option<i32> {
        self.commands.eval.and_then(|e| e.depth)
    }
}

impl PlyRows {
    /// Appends a ply's text and repetition count.
    pub(super) fn push(&mut self, san: &str, uci: &str, fen: &str, repetition: u32) {
        let mut ends = [0; 3];
        for (end, field) in ends.iter_mut().zip([san, uci, fen]) {
            self.text.push_str(field);
            *end = self.text.len();
        }
        self.ends.push(ends);
        self.repetitions.push(repetition);
    }

    /// The commands of every ply, ply 1 first (as many as rows).
    pub(super) fn set_commands(&mut self, commands: Vec<MoveCommands>) {
        self.commands = commands;
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the game has no ply.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The rows in ply order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = PlyRow<'_>> + '_ {
        let text = self.text.as_str();
        self.ends.iter().enumerate().map(move |(i, ends)| {
            let start = i
                .checked_sub(1)
                .and_then(|p| self.ends.get(p))
                .map_or(0, |e| e[2]);
            let field = |from: usize, to: usize| text.get(from..to).unwrap_or_default();
            PlyRow {
                ply: i as u32 + 1,
                san: field(start, ends[0]),
                uci: field(ends[0], ends[1]),
                fen: field(ends[1], ends[2]),
                commands: self.commands.get(i).copied().unwrap_or_default(),
                repetition: self.repetitions.get(i).copied().unwrap_or(0),
            }
        })
    }
}
