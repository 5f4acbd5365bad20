//! What the report keeps of each game besides its rows: the few facts
//! the totals, report.html and the extract files need (status, counts,
//! where its text is, the classes of report.html's breakdowns), made on
//! the worker thread with the game's rows.

use std::borrow::Cow;

use super::classes;
use crate::pgn::GameSpan;
use crate::replay::{GameOver, PerpetualCheck, ReplayedGame, Status, Termination};

/// What the summary and the extracts need to know of one game.
#[derive(Clone, Debug)]
pub struct GameFacts {
    pub status: Status,
    /// Borrowed for the supported variants: no allocation per game.
    pub variant: Cow<'static, str>,
    pub plies: u32,
    pub threefold_ep_always: bool,
    pub threefold_ep_legal: bool,
    pub missed_threefold: bool,
    pub castling_conflict: bool,
    pub outcome: OutcomeFacts,
    /// The game's place in its source, to copy its text into extract files.
    pub span: GameSpan,
    /// The `game` column: its index in its source.
    pub game: u64,
    /// The repetition counts (0 when nothing was replayed), for the
    /// distributions of report.html.
    pub rep_max_ep_always: u32,
    pub rep_max_ep_legal: u32,
    /// The classes of report.html's breakdowns (`super::classes`): the
    /// year of `Date`; the time-control class and the rating band when the
    /// TimeControl, WhiteElo and BlackElo tags are columns (`--tags`).
    pub year: Option<u16>,
    pub time_control: Option<u8>,
    pub rating_band: Option<u32>,
    /// The error of a game that is not `ok`, for report.html's examples.
    pub error: Option<Box<str>>,
    /// The castling conflict's invalid rights and reason, if any.
    pub castling: Option<Box<(String, String)>>,
}

/// What the summary counts of a game's outcome columns (docs/outcomes.md,
/// section 6).
#[derive(Copy, Clone, Debug, Default)]
pub struct OutcomeFacts {
    pub termination: Option<Termination>,
    pub game_over: Option<GameOver>,
    pub result_conflict: bool,
    /// `game_over_ply < plies`: moves were played after the Laws ended the
    /// game.
    pub played_on: bool,
    pub fivefold_ep_legal: bool,
    pub fivefold_ep_always: bool,
    pub past_fifty_moves: bool,
    pub past_seventyfive_moves: bool,
    /// The xiangqi figures of a xiangqi game that was replayed (its
    /// `termination` is then counted here, not in `termination` above).
    pub xiangqi: Option<XiangqiFacts>,
}

/// What the summary counts of a xiangqi game's outcome columns
/// (docs/xiangqi-rules.md, section 7).
#[derive(Copy, Clone, Debug)]
pub struct XiangqiFacts {
    pub termination: Termination,
    pub perpetual_check: Option<PerpetualCheck>,
    /// `natural_limit_ply` is set.
    pub past_natural_limit: bool,
}

impl OutcomeFacts {
    fn of(record: &ReplayedGame) -> Self {
        let o = &record.outcome;
        // A replayed chess game always has `mating_material`, a xiangqi
        // game never: no comparison of the variant's name per game.
        let xiangqi = match (o.termination, o.mating_material) {
            (Some(termination), None) => Some(XiangqiFacts {
                termination,
                perpetual_check: o.perpetual_check,
                past_natural_limit: o.natural_limit_ply.is_some(),
            }),
            _ => None,
        };
        OutcomeFacts {
            termination: o.termination.filter(|_| xiangqi.is_none()),
            game_over: o.game_over.map(|(_, g)| g),
            result_conflict: !o.result_conflict.is_empty(),
            played_on: o.game_over.is_some_and(|(ply, _)| ply < record.plies),
            fivefold_ep_legal: o.fivefold_ply.is_some(),
            fivefold_ep_always: o.fivefold_ply_ep_always.is_some(),
            past_fifty_moves: o.fifty_move_ply.is_some(),
            past_seventyfive_moves: o.seventyfive_move_ply.is_some(),
            xiangqi,
        }
    }

    /// A fivefold under ep-if-legal that ep-always does not see.
    pub fn missed_fivefold(&self) -> bool {
        self.fivefold_ep_legal && !self.fivefold_ep_always
    }
}

impl GameFacts {
    /// The facts of game `game`, whose text (UTF-8) is `text`.
    pub(super) fn of(
        record: &ReplayedGame,
        span: GameSpan,
        game: u64,
        (tags, text): (&[&str], &str),
        f: &FactsPlan,
    ) -> Self {
        let tag = |at: Option<usize>| at.and_then(|i| tags.get(i)).copied();
        GameFacts {
            game,
            rep_max_ep_always: record.rep_ep_always.max,
            rep_max_ep_legal: record.rep_ep_legal.max,
            year: classes::year(&record.tags.date).or_else(|| classes::utc_year(text, span.line)),
            time_control: tag(f.time_control_tag).and_then(classes::time_control_class),
            rating_band: match (tag(f.white_elo_tag), tag(f.black_elo_tag)) {
                (Some(w), Some(b)) => classes::rating_band(w, b),
                _ => None,
            },
            error: (record.status != Status::Ok).then(|| record.error.as_str().into()),
            castling: record
                .castling_conflict
                .as_ref()
                .map(|c| Box::new((c.invalid.clone(), c.reason.clone()))),
            status: record.status,
            variant: record.variant.clone(),
            plies: record.plies,
            threefold_ep_always: record.rep_ep_always.threefold_ply.is_some(),
            threefold_ep_legal: record.rep_ep_legal.threefold_ply.is_some(),
            missed_threefold: record.missed_threefold(),
            castling_conflict: record.castling_conflict.is_some(),
            outcome: OutcomeFacts::of(record),
            span,
        }
    }
}

/// Where the tags report.html breaks games down by are among the
/// `--tags` values (TimeControl, WhiteElo, BlackElo), if they are.
#[derive(Clone, Copy, Debug, Default)]
pub struct FactsPlan {
    pub time_control_tag: Option<usize>,
    pub white_elo_tag: Option<usize>,
    pub black_elo_tag: Option<usize>,
}
