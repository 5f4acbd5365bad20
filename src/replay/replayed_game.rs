//! What replaying one game found: everything a report row needs, owned, so
//! that records can travel from a worker thread to the ordered writer.

use super::CurationFacts;
use super::RepetitionStats;
use super::Status;
use super::outcome::Outcome;
use super::ply_data::PlyData;
use std::borrow::Cow;

/// The tags the report shows. Values are UTF-8 whatever the file's
/// encoding, borrowed from the game's text when it is UTF-8 already.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTags<'a> {
    /// `[Event]`, empty when the game has none (so are the others).
    pub event: Cow<'a, str>,
    /// `[Site]`.
    pub site: Cow<'a, str>,
    /// `[Date]`, as written (`2025.05.01`, `1851.??.??`).
    pub date: Cow<'a, str>,
    /// `[Round]`.
    pub round: Cow<'a, str>,
    /// `White`, or `Red` for xiangqi.
    pub white: Cow<'a, str>,
    /// `[Black]`.
    pub black: Cow<'a, str>,
    /// `[Result]`, as written: held against the board in
    /// [`Outcome::result_conflict`].
    pub result: Cow<'a, str>,
}

/// A `[FEN]` castling field that names rights the board cannot support.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingConflict {
    /// The castling field as written.
    pub castling: String,
    /// The rights that contradict the board, as written, e.g. `Kq`.
    pub invalid: String,
    /// The field used for replay, `-` if no right is left.
    pub effective: String,
    /// One clause per invalid right: `K: no white rook on h1; ...`.
    pub reason: String,
}

/// One game's outcome. It borrows from the game's text (tags, `[FEN]`),
/// so that a worker formats its row without copying them; the text lives
/// as long as the worker's batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedGame<'a> {
    /// `chess`, `chess960`, `xiangqi` (static, so passing it on costs
    /// nothing), or empty for a game of a variant pgnmill does not play.
    pub variant: Cow<'static, str>,
    /// The roster tags.
    pub tags: GameTags<'a>,
    /// Half-moves of the main line that were replayed.
    pub plies: u32,
    /// The `[FEN]` header as written, empty for the standard start.
    pub start_fen: Cow<'a, str>,
    /// The position after the last replayed move, ep-always.
    pub final_fen: String,
    /// The same position, ep-if-legal, when it is written differently: only
    /// after a double step that no pawn can legally capture. `None` (the
    /// usual case) saves a copy of the FEN per game; read it with
    /// [`ReplayedGame::final_fen_ep_legal`].
    pub final_fen_ep_legal_if_different: Option<String>,
    /// Repetitions counted with the en-passant square after every double
    /// step (docs/chess.md, "Two en-passant conventions").
    pub rep_ep_always: RepetitionStats,
    /// Repetitions counted with the square only when a capture is legal
    /// (FIDE's, python-chess's).
    pub rep_ep_legal: RepetitionStats,
    /// The `[FEN]` castling rights the board contradicts, if any (a row of
    /// castling.csv).
    pub castling_conflict: Option<CastlingConflict>,
    /// Whether the game replayed whole (`Ok`) or why not.
    pub status: Status,
    /// Empty when `ok`; otherwise what failed, where and why.
    pub error: String,
    /// The replayed main line in UCI (chess) or ICCS (xiangqi), when asked.
    pub moves: Option<String>,
    /// How the game ended on the board, chess or xiangqi
    /// (docs/outcomes.md); empty for games not replayed.
    pub outcome: Outcome,
    /// `line_key` and the opening's name (docs/reports.md).
    pub curation: CurationFacts,
    /// Clocks, evaluations and per-ply rows, when asked
    /// ([`super::ReplayOptions::ply_data`]); boxed, so that a record
    /// without them stays as small as before.
    pub ply_data: Option<Box<PlyData>>,
}

impl<'a> ReplayedGame<'a> {
    /// The final position's FEN under ep-if-legal.
    pub fn final_fen_ep_legal(&self) -> &str {
        self.final_fen_ep_legal_if_different
            .as_deref()
            .unwrap_or(&self.final_fen)
    }

    /// A record holding nothing yet, to be replayed into
    /// (`replay_text_into`).
    pub(crate) fn empty() -> Self {
        Self::not_replayed(
            Cow::Borrowed(""),
            GameTags::default(),
            Status::Ok,
            String::new(),
        )
    }

    /// A record for a game that was not replayed at all.
    pub fn not_replayed(
        variant: Cow<'static, str>,
        tags: GameTags<'a>,
        status: Status,
        error: String,
    ) -> Self {
        ReplayedGame {
            variant,
            tags,
            plies: 0,
            start_fen: Cow::Borrowed(""),
            final_fen: String::new(),
            final_fen_ep_legal_if_different: None,
            rep_ep_always: RepetitionStats::default(),
            rep_ep_legal: RepetitionStats::default(),
            castling_conflict: None,
            status,
            error,
            moves: None,
            outcome: Outcome::default(),
            curation: CurationFacts::default(),
            ply_data: None,
        }
    }

    /// A threefold under ep-if-legal that ep-always does not see.
    pub fn missed_threefold(&self) -> bool {
        self.rep_ep_legal.threefold_ply.is_some() && self.rep_ep_always.threefold_ply.is_none()
    }
}
