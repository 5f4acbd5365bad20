//! One game as a record format holds it, in the form every format is read
//! into: tags, the start board, the move tree with comments, and where the
//! record is in its file.

use super::tree::{MoveTree, Point};
use crate::pgn::ReaderNote;
use crate::xiangqi::board::Board;
use crate::xiangqi::fen;
use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Color, Piece, Role, Square};

/// One game read from a record.
#[derive(Clone, Debug)]
pub struct RecordGame {
    /// The format as a person names it: `XQF 12`, `CBR`, `DhtmlXQ`.
    pub format: String,
    /// PGN tags (name, value) in the order they are written; empty values
    /// are left out when written.
    pub tags: Vec<(&'static str, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    pub board: Board,
    /// The side to move at the start.
    pub turn: Color,
    /// The first move's number (1 unless the format says otherwise).
    pub move_number: u32,
    /// The half-move clock at the start (0 unless the format says
    /// otherwise: only CBF's FEN does).
    pub halfmove_clock: u32,
    pub tree: MoveTree,
    /// Byte offset of the record in its file, and the 1-based line it
    /// starts on (1 for a binary file).
    pub offset: u64,
    pub line: u64,
    /// What is wrong with the record, if anything: it travels beside the
    /// game's text to its row.
    pub problem: Option<ReaderNote>,
    /// False when the record's header could not be read, so that `board`
    /// and `turn` are not the record's but the defaults (a library record
    /// cut short before its board).
    pub start_read: bool,
}

impl RecordGame {
    /// An empty game of `format` at `offset`.
    pub fn new(format: impl Into<String>, offset: u64, line: u64) -> RecordGame {
        RecordGame {
            format: format.into(),
            tags: Vec::new(),
            result: "*",
            board: *Position::startpos().board(),
            turn: Color::Red,
            move_number: 1,
            halfmove_clock: 0,
            tree: MoveTree::new(),
            offset,
            line,
            problem: None,
            start_read: true,
        }
    }

    /// The position the record sets up, as a `[FEN]` tag gives it (the
    /// standard start too), for `pgnmill fen`; or why the record holds none:
    /// a chapter heading, or a record whose header could not be read.
    pub fn start_position(&self) -> Result<String, &str> {
        match &self.problem {
            Some(ReaderNote::NotAGame(why)) => Err(why),
            Some(ReaderNote::Damaged(why)) if !self.start_read => Err(why),
            _ if !self.start_read => Err("the record's header could not be read"),
            _ => Ok(fen::write(
                &self.board,
                self.turn,
                self.halfmove_clock,
                self.move_number.max(1),
            )),
        }
    }

    /// The `[FEN]` to write: `None` for the standard start with red to move.
    pub fn start_fen(&self) -> Option<String> {
        let start = Position::startpos();
        if self.board == *start.board()
            && self.turn == Color::Red
            && self.move_number <= 1
            && self.halfmove_clock == 0
        {
            None
        } else {
            Some(fen::write(
                &self.board,
                self.turn,
                self.halfmove_clock,
                self.move_number.max(1),
            ))
        }
    }

    /// Sets the side to move as every reader must: the colour of the piece
    /// on the first main-line move's origin (no format's side field is
    /// reliable), else `stored` (a record without moves, or whose first
    /// move starts on an empty point).
    pub fn settle_turn(&mut self, stored: Color) {
        let first = self
            .tree
            .children(MoveTree::ROOT)
            .next()
            .and_then(|id| self.tree.node(id).mv);
        let piece = first
            .and_then(|m| square(m.from))
            .and_then(|sq| self.board.get(sq));
        self.turn = piece.map_or(stored, |p| p.color);
    }

    /// True when the board has no king of either side (a chapter heading).
    pub fn kingless(&self) -> bool {
        !self.board.pieces().any(|(_, p)| p.role == Role::King)
    }
}

/// The square of an on-board point.
pub fn square(p: Point) -> Option<Square> {
    if p.on_board() {
        Square::new(p.file, p.rank)
    } else {
        None
    }
}

/// The XQF/DhtmlXQ piece order of the 32-entry tables: 车马相士帅士相马车炮炮兵×5.
pub const TABLE_ROLES: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// Places the piece of table entry `i` (0–15 red, 16–31 black) on `at`;
/// returns false when the point is already taken (two pieces on one point:
/// the first stays).
pub fn place(board: &mut Board, i: usize, at: Point) -> bool {
    let Some(sq) = square(at) else {
        return true;
    };
    let color = if i < 16 { Color::Red } else { Color::Black };
    let role = TABLE_ROLES[i % 16];
    if board.get(sq).is_some() {
        return false;
    }
    board.set(sq, Some(Piece::new(color, role)));
    true
}
