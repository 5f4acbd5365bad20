//! A record written as PGN: its tags, `[FEN]` when the start is not the
//! standard one, and the whole move tree as a main line with variations
//! `( … )` and comments `{ … }`.
//!
//! Two ways to write a move. [`Unchecked`] writes every move in ICCS as
//! the record has it, legal or not: that is the text `pgnmill report`
//! replays, so the replay (not this writer) finds and reports an illegal
//! move, as it does for any PGN. [`Checked`] replays every line with the
//! rules kernel and writes each move in a target notation, reading the
//! written text back (it must name the same move), for `pgnmill convert`;
//! a line stops at a move that is not legal, with a `{pgnmill: …}` comment
//! that says why, followed by the rest of the line as recorded, in ICCS
//! (a main line that stops also sets `[PgnmillError]`).
//!
//! The tree is walked with an explicit stack (no recursion), in the order
//! PGN needs: a move, the alternatives to it, then the line that follows.

use super::game::RecordGame;
use super::tree::{MoveTree, RawMove};
use crate::pgn::ReaderNote;
use crate::xiangqi::notation::{InMovetext, Notation, move_failure, parse_move_as};
use crate::xiangqi::position::Position;
use crate::xiangqi::types::{Color, Move};

/// Writes one move of a line, given the state before it.
pub trait MoveWriter {
    /// What the writer knows of the position.
    type State: Clone;
    /// The state at the game's start, or why the game cannot be started.
    fn start(&self, game: &RecordGame) -> Result<Self::State, String>;
    /// Appends `mv`, played after `ply` plies of its line, to `out` and
    /// returns the state after it, or says why the move cannot be played
    /// (without the move, which the stop's message names).
    fn play(
        &self,
        state: &Self::State,
        mv: RawMove,
        ply: u32,
        out: &mut String,
    ) -> Result<Self::State, String>;
}

/// Every move in ICCS as recorded, unchecked.
pub struct Unchecked;

impl MoveWriter for Unchecked {
    type State = ();
    fn start(&self, _: &RecordGame) -> Result<(), String> {
        Ok(())
    }
    fn play(&self, _: &(), mv: RawMove, _: u32, out: &mut String) -> Result<(), String> {
        mv.iccs(out);
        Ok(())
    }
}

/// Every move replayed and written in `notation`.
pub struct Checked(pub Notation);

impl MoveWriter for Checked {
    type State = Position;
    fn start(&self, game: &RecordGame) -> Result<Position, String> {
        match game.start_fen() {
            None => Ok(Position::startpos()),
            Some(fen) => Position::from_fen(&fen).map_err(|e| format!("start position {fen}: {e}")),
        }
    }
    fn play(
        &self,
        pos: &Position,
        mv: RawMove,
        ply: u32,
        out: &mut String,
    ) -> Result<Position, String> {
        let mut iccs = String::new();
        mv.iccs(&mut iccs);
        let m = Move::from_iccs(&iccs).ok_or_else(|| "a point off the board".to_string())?;
        if !pos.is_legal(m) {
            // Why, in the words reading the move in ICCS gives: the same
            // when the converted game (its rest in ICCS) is converted again.
            return Err(match parse_move_as(pos, &iccs, Notation::Iccs) {
                Err(e) => move_failure(pos, &e, &iccs, ply).why,
                Ok(_) => "not a legal move".to_string(),
            });
        }
        let mut written = String::new();
        InMovetext(self.0)
            .write(pos, m, &mut written)
            .map_err(|e| format!("{m}: {e}"))?;
        match parse_move_as(pos, &written, self.0) {
            Ok(back) if back == m => {}
            _ => {
                return Err(format!(
                    "{m} written in {} as {written} does not read back as {m} (a notation bug; please report it)",
                    self.0
                ));
            }
        }
        out.push_str(&written);
        let mut next = pos.clone();
        next.play(m);
        Ok(next)
    }
}

/// What writing a game found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    /// Main-line moves written.
    pub plies: u32,
    /// Why the main line stopped early, as the `[PgnmillError]` tag says
    /// it: `ply 10 "e1f0": …`, or the reason alone for a game with no move
    /// whose start position cannot be set up. `None` when it ran to its end.
    pub error: Option<String>,
    /// Variations that stopped early.
    pub variation_stops: usize,
    /// Lines (main line + variations) in the tree.
    pub lines: usize,
}

/// Appends `game` as a PGN game to `out`, moves written by `w`; `format`
/// is the `[Format]` tag (the notation's name).
pub fn write_pgn<W: MoveWriter>(
    game: &RecordGame,
    w: &W,
    format: &str,
    out: &mut String,
) -> Written {
    let mut written = Written {
        lines: game.tree.lines(),
        ..Written::default()
    };
    push_tag(out, "Game", "Chinese Chess");
    // The seven-tag roster first (`Red` for `White`, as xqbase writes it),
    // then the format's other fields.
    const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "Red", "Black"];
    let value = |name: &str| {
        game.tags
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str())
    };
    for name in ROSTER {
        if !value(name).is_empty() {
            push_tag(out, name, value(name));
        }
    }
    push_tag(out, "Result", game.result);
    for (name, value) in &game.tags {
        if !value.is_empty() && !ROSTER.contains(name) {
            push_tag(out, name, value);
        }
    }
    if let Some(fen) = game.start_fen() {
        push_tag(out, "FEN", &fen);
    }
    push_tag(out, "Format", format);
    // The moves first: a line that stops sets the error tag.
    let mut moves = String::new();
    let mut text = Wrapped::new(&mut moves);
    let root = game.tree.node(MoveTree::ROOT);
    if !root.comment.is_empty() {
        text.comment(&root.comment);
    }
    if let Some(ReaderNote::DamagedOffMainLine(why)) = &game.problem {
        // The main line is whole, so no line stops: the damage is said
        // once, before the moves, where converting again keeps it.
        text.comment(&format!("pgnmill: the record is damaged: {why}"));
    }
    let start = match w.start(game) {
        Ok(state) => Check::Play(state),
        Err(why) => Check::Fail(why),
    };
    if let Check::Fail(why) = &start
        && game.tree.children(MoveTree::ROOT).next().is_none()
    {
        // No move to stop at: the game stops before its first.
        written.error = Some(why.clone());
    }
    walk(game, w, start, &mut text, &mut written);
    if let Some(ReaderNote::Damaged(why)) = &game.problem
        && game.start_read
        && written.error.is_none()
    {
        // The record breaks off after the moves read: the main line stops
        // there, said as a stopped line is, so that the converted game
        // carries why its moves end early.
        let ply = written.plies + 1;
        let what = format!("ply {ply}: {why}");
        text.token(&super::stop_comment(&what));
        written.error = Some(what);
    }
    text.token(game.result);
    if let Some(error) = &written.error {
        push_tag(out, "PgnmillError", error);
    }
    out.push('\n');
    out.push_str(&moves);
    out.push_str("\n\n");
    written
}

/// How the moves of a line are written.
#[derive(Clone)]
enum Check<S> {
    /// Replayed from this state and written by the writer.
    Play(S),
    /// The line cannot be replayed from its first move: the game's start
    /// position cannot be set up, and why.
    Fail(String),
    /// As recorded, in ICCS, unchecked: the rest of a line that stopped,
    /// its comments and variations included.
    Copy,
}

enum Item<S> {
    /// The line that continues after `parent`'s move.
    Line {
        parent: usize,
        check: Check<S>,
        ply: u32,
        number: bool,
        /// On the main line (not inside a variation).
        main: bool,
    },
    /// A variation: `node`'s move instead of its elder sibling's.
    Alt {
        node: usize,
        check: Check<S>,
        ply: u32,
    },
    Close,
}

/// Writes the tree in PGN's order: a move, the alternatives to it, then
/// the line that follows. A line stops at a move that cannot be played
/// ([`stopped`]); the rest of it, its comments and variations included, is
/// written as recorded, so that nothing of the record is lost and every
/// variation stands after the move it replaces.
fn walk<W: MoveWriter>(
    game: &RecordGame,
    w: &W,
    start: Check<W::State>,
    text: &mut Wrapped<'_>,
    written: &mut Written,
) {
    let tree = &game.tree;
    let mut stack = vec![Item::Line {
        parent: MoveTree::ROOT,
        check: start,
        ply: 0,
        number: true,
        main: true,
    }];
    let mut buf = String::new();
    while let Some(item) = stack.pop() {
        let (node, check, ply, number, main, alts) = match item {
            Item::Line {
                parent,
                check,
                ply,
                number,
                main,
            } => {
                let mut kids = tree.children(parent);
                let Some(first) = kids.next() else { continue };
                let alts: Vec<usize> = kids.collect();
                (first, check, ply, number, main, alts)
            }
            Item::Alt { node, check, ply } => {
                text.token("(");
                text.glue();
                (node, check, ply, true, false, Vec::new())
            }
            Item::Close => {
                text.unglue();
                text.token(")");
                continue;
            }
        };
        let n = tree.node(node);
        let Some(mv) = n.mv else { continue };
        buf.clear();
        let played = match &check {
            Check::Play(state) => w.play(state, mv, ply, &mut buf).map(Check::Play),
            Check::Fail(why) => Err(why.clone()),
            Check::Copy => {
                mv.iccs(&mut buf);
                Ok(Check::Copy)
            }
        };
        let (next, stop) = match played {
            Ok(next) => {
                if main && matches!(next, Check::Play(_)) {
                    written.plies += 1;
                }
                (next, None)
            }
            Err(why) => {
                buf.clear();
                mv.iccs(&mut buf);
                (Check::Copy, Some(stopped(&buf, ply, &why, main, written)))
            }
        };
        // A stop comment stands after the move's number, before the move.
        text.move_number(game, ply, number || stop.is_some());
        if let Some(what) = &stop {
            text.token(&super::stop_comment(what));
        }
        text.token(&buf);
        if !n.comment.is_empty() {
            text.comment(&n.comment);
        }
        stack.push(Item::Line {
            parent: node,
            check: next,
            ply: ply + 1,
            number: !alts.is_empty() || !n.comment.is_empty(),
            main,
        });
        // The alternatives start from the position before this move.
        let before = match check {
            Check::Fail(_) => Check::Copy,
            other => other,
        };
        for &alt in alts.iter().rev() {
            stack.push(Item::Close);
            stack.push(Item::Alt {
                node: alt,
                check: before.clone(),
                ply,
            });
        }
    }
}

/// A line stops at the move `iccs`, 0-based ply `ply`, on the main line
/// when `main`: counted in `written`; returns the text of the comment that
/// says why ([`super::stop_comment`]), written after the move's number and
/// before the move, as `convert` places it in PGN: converting the output
/// again finds it there. The move and the rest of the line follow as
/// recorded, in ICCS, so that the converted game, read back, fails at the
/// same move as the record.
fn stopped(iccs: &str, ply: u32, why: &str, main: bool, written: &mut Written) -> String {
    let what = format!("ply {} \"{iccs}\": {why}", ply + 1);
    if main {
        written.error = Some(what.clone());
    } else {
        written.variation_stops += 1;
    }
    what
}

/// A PGN tag pair; `\` and `"` escaped, control characters made spaces.
fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Movetext with lines of about 80 characters.
struct Wrapped<'a> {
    out: &'a mut String,
    column: usize,
    /// No space before the next token (just after `(`).
    glued: bool,
}

impl<'a> Wrapped<'a> {
    fn new(out: &'a mut String) -> Self {
        Wrapped {
            out,
            column: 0,
            glued: true,
        }
    }

    fn token(&mut self, t: &str) {
        let width = t.chars().count();
        if !self.glued {
            if self.column + 1 + width > 79 && self.column > 0 {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.glued = false;
        self.out.push_str(t);
        self.column += width;
        if let Some(nl) = t.rfind('\n') {
            self.column = t[nl + 1..].chars().count();
        }
    }

    fn glue(&mut self) {
        self.glued = true;
    }

    fn unglue(&mut self) {
        // `)` follows its last token directly.
        self.glued = true;
    }

    /// `{…}` with braces inside turned into full-width ｛ ｝ so that the
    /// comment stays one comment.
    fn comment(&mut self, c: &str) {
        let mut t = String::with_capacity(c.len() + 4);
        t.push_str("{ ");
        super::push_comment_text(&mut t, c);
        t.push_str(" }");
        self.token(&t);
    }

    /// `12.` before a red move; `12...` before a black move that starts a
    /// line or follows an interruption.
    fn move_number(&mut self, game: &RecordGame, ply: u32, wanted: bool) {
        let black_first = u32::from(game.turn == Color::Black);
        let red = (ply + black_first).is_multiple_of(2);
        let number = game.move_number.max(1) + (ply + black_first) / 2;
        if red {
            self.token(&format!("{number}."));
        } else if wanted {
            self.token(&format!("{number}..."));
        }
    }
}
