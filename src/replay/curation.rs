//! What a curator asks of every game besides its replay: the line's
//! identity (`line_key`, for duplicates) and the opening's name. Kept in
//! structs of their own in [`super::ReplayedGame`] and
//! [`super::ReplayOptions`].

use super::Status;
use super::line::{INLINE_PLIES, LineFacts, LineRecorder};
use crate::openings::{
    self, OpeningBook, OpeningFacts, OpeningHit, OpeningTrail, Table, TableKind,
};
use std::cell::RefCell;
use std::sync::Arc;

/// What the user asked of the curator's columns.
#[derive(Clone, Debug, Default)]
pub struct CurationOptions {
    /// `--duplicates`: keep each ok game's canonical line string (to find
    /// lines that are a prefix of another) and its end key (start, final
    /// position and plies: transpositions). Without it only `line_key` is
    /// computed.
    pub duplicates: bool,
    /// The opening table (`--openings`); `None` for the compiled-in one.
    pub openings: Option<Arc<OpeningBook>>,
}

impl CurationOptions {
    /// The table games are named from.
    pub fn book(&self) -> &OpeningBook {
        match &self.openings {
            Some(book) => book,
            None => openings::compiled_in(),
        }
    }
}

/// The curator's facts of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurationFacts {
    pub line: LineFacts,
    pub opening: OpeningFacts,
}

/// The line and opening of one game while it replays: the replay loops
/// hand each move and position to it. A thread keeps one for all its
/// games ([`Trails::with`]): a game neither allocates, clears nor moves
/// its buffers (a kilobyte, copied three times a game when each game had
/// its own, cost 4 instructions a ply).
#[derive(Debug, Default)]
pub(crate) struct Trails {
    pub line: LineRecorder,
    pub opening: OpeningTrail,
    kind: Option<TableKind>,
}

thread_local! {
    static TRAILS: RefCell<Trails> = RefCell::new(Trails::default());
}

impl Trails {
    /// Runs `replay` with this thread's trails, emptied.
    pub fn with<R>(replay: impl FnOnce(&mut Trails) -> R) -> R {
        TRAILS.with_borrow_mut(|trails| {
            trails.kind = None;
            replay(trails)
        })
    }

    /// Starts the trails of a game of `kind` (its line's header already
    /// started); named by the opening table only when `named` (chess, not
    /// Chess960, and no `[FEN]`: lichess's rule; xiangqi likewise without
    /// `[FEN]`).
    pub fn start(&mut self, kind: TableKind, named: bool, options: &CurationOptions) {
        self.opening.start(options.book(), kind, named);
        self.kind = Some(kind);
    }

    /// Records ply `ply`'s move `word` (`LineRecorder::chess_word`,
    /// `xiangqi_word`) and `key`, the opening key of the position after
    /// it: one test of the ply against the room kept in place serves both
    /// (in the replay loop, every instruction a ply counts).
    #[inline(always)]
    pub fn push(&mut self, ply: u32, word: u16, key: u64) {
        let at = ply as usize;
        if at < INLINE_PLIES {
            self.line.store_inline(at, word);
            self.opening.store_inline(at, key);
        } else {
            self.line.store_more(word);
            self.opening.push_more(ply, key);
        }
    }

    /// Writes the facts into `out`, once the game is over (nothing if the
    /// trails were not started: a game not replayed): the line's keys
    /// only when the whole main line replayed (`status` ok), the opening
    /// over the plies replayed whatever the status; `final_fen` as
    /// ep-if-legal; `recorded` gives the `[ECO]` and `[Opening]` tags,
    /// read only for a game the table names. Written in place: the facts
    /// are a hundred bytes, and a copy a game showed in the cost.
    pub fn finish<'t>(
        &self,
        status: Status,
        final_fen: &str,
        plies: u32,
        recorded: impl FnOnce() -> (
            Option<std::borrow::Cow<'t, str>>,
            Option<std::borrow::Cow<'t, str>>,
        ),
        options: &CurationOptions,
        out: &mut CurationFacts,
    ) {
        let Some(kind) = self.kind else {
            return;
        };
        if status == Status::Ok {
            out.line = self.line.finish(final_fen, plies, options.duplicates);
        }
        // The compiled-in table is reached without a shared counter; a
        // user's is shared by the games it names.
        out.opening.hit = match &options.openings {
            None => self.opening.classify(&Table::CompiledIn, kind, plies),
            Some(book) => self
                .opening
                .deepest(book, kind, plies)
                .map(|(entry, ply)| OpeningHit::new(Table::User(Arc::clone(book)), entry, ply)),
        };
        if let Some(hit) = &out.opening.hit {
            let (eco, opening) = recorded();
            out.opening.conflict = openings::conflict(hit, eco.as_deref(), opening.as_deref());
        }
    }
}
