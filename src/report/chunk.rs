//! A run of consecutive games of one source, made ready on a worker
//! thread: each row sink's encoding of it (CSV bytes, a Parquet row group,
//! an Arrow batch: `sink.rs`), and the few facts of each game the totals,
//! report.html and the extract files need, so that the ordered writer
//! does no per-game work beyond counting and copying bytes. How the games
//! were replayed is not known here: the caller hands in each game's
//! record.

use std::sync::Arc;

use super::classes;
use super::columns::GameView;
use super::extract::ExtractKind;
use super::format::GameLocation;
use super::sink::{Encoded, RowEncoder, RowFormat};
use crate::pgn::GameSpan;
use crate::replay::GameRecord;
use crate::replay::Status;
use crate::replay::{GameOver, PerpetualCheck, Termination};
use std::borrow::Cow;

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
    fn of(record: &GameRecord) -> Self {
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
    fn of(
        record: &GameRecord,
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

    /// Whether this game belongs in an extract file of `kind`.
    pub fn is(&self, kind: ExtractKind) -> bool {
        match kind {
            ExtractKind::Missed => self.missed_threefold,
            ExtractKind::Castling => self.castling_conflict,
            ExtractKind::Errors => self.status.is_broken(),
            ExtractKind::Conflicts => self.outcome.result_conflict,
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

/// What a worker makes of each chunk: the encoders of the row sinks, and
/// the facts to keep.
#[derive(Clone, Default)]
pub struct ChunkPlan {
    /// The worker halves of the sinks that write rows, in the order of
    /// [`FormattedChunk::encoded`].
    pub rows: Vec<Arc<dyn RowFormat>>,
    pub facts: FactsPlan,
}

impl ChunkPlan {
    /// Whether a row sink wants large chunks ([`RowFormat::large_chunks`]).
    pub fn large_chunks(&self) -> bool {
        self.rows.iter().any(|r| r.large_chunks())
    }
}

/// A worker's output for one run of games, in input order. Once written,
/// it can be handed back to [`ChunkBuilder::new`] for its buffers.
#[derive(Default)]
pub struct FormattedChunk {
    /// Each row sink's encoding of the chunk, in the order of
    /// [`ChunkPlan::rows`]; taken by the sinks as they write, and put back
    /// (emptied) for the buffers to serve again.
    pub encoded: Vec<Option<Encoded>>,
    pub games: Vec<GameFacts>,
    /// Games of the chunk read, selected by `--where` or not (`games`
    /// holds the selected ones).
    pub games_read: u64,
}

impl FormattedChunk {
    /// An empty chunk with room for the facts of `games` games.
    pub fn with_room_for(games: usize) -> Self {
        FormattedChunk {
            games: Vec::with_capacity(games),
            ..FormattedChunk::default()
        }
    }
}

/// Builds one [`FormattedChunk`]: the caller pushes each game's record in
/// input order, the builder has each row sink encode its row and keeps
/// its facts.
pub struct ChunkBuilder {
    encoders: Vec<Box<dyn RowEncoder>>,
    facts: FactsPlan,
    games: Vec<GameFacts>,
    games_read: u64,
}

impl ChunkBuilder {
    /// A builder for a chunk of `games` games, writing into the buffers of
    /// `recycled`, an earlier chunk already written (its contents are
    /// dropped, its memory kept; `FormattedChunk::default()` for none): the
    /// report's memory then stays that of the chunks in flight, reached
    /// once, instead of being given back and faulted in again for every
    /// chunk.
    pub fn new(recycled: FormattedChunk, plan: &ChunkPlan, games: usize) -> Self {
        let FormattedChunk {
            mut encoded,
            games: mut facts,
            ..
        } = recycled;
        facts.clear();
        facts.reserve(games);
        encoded.resize_with(plan.rows.len(), || None);
        let encoders = plan
            .rows
            .iter()
            .zip(encoded)
            .map(|(format, old)| format.encoder(games, old))
            .collect();
        ChunkBuilder {
            encoders,
            facts: plan.facts,
            games: facts,
            games_read: 0,
        }
    }

    /// Counts a game that was read and not selected (`--where`): it has
    /// no row.
    pub fn pass_over(&mut self) {
        self.games_read += 1;
    }

    /// Encodes the rows of the game at `at`, replayed into `record`;
    /// `span` is where its text is, for the extract files, and `text` the
    /// text itself (UTF-8), for what report.html reads that replay does
    /// not (the UTCDate of a game without a Date).
    pub fn push(
        &mut self,
        at: GameLocation<'_>,
        record: &GameRecord<'_>,
        span: GameSpan,
        tags: &[&str],
        text: &str,
    ) -> Result<(), String> {
        let game = GameView { at, record };
        for encoder in &mut self.encoders {
            encoder.push(&game, tags)?;
        }
        let facts = GameFacts::of(record, span, at.game, (tags, text), &self.facts);
        self.games.push(facts);
        self.games_read += 1;
        Ok(())
    }

    /// The finished chunk, each encoding done here, on the worker thread,
    /// so that encoding (Parquet's compression, say) is parallel work.
    pub fn finish(self) -> Result<FormattedChunk, String> {
        let encoded = self
            .encoders
            .into_iter()
            .map(|e| e.finish().map(Some))
            .collect::<Result<Vec<_>, String>>()?;
        Ok(FormattedChunk {
            encoded,
            games: self.games,
            games_read: self.games_read,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::split_all;
    use crate::replay::{ReplayOptions, replay_game};
    use crate::report::csv_sink::{CsvChunk, CsvFormat};

    /// The CSV rows of a chunk made with the plan of [`chunk`].
    fn csv(chunk: &FormattedChunk) -> &CsvChunk {
        let encoded = chunk.encoded.first().and_then(|e| e.as_ref());
        encoded
            .and_then(|e| e.downcast_ref::<CsvChunk>())
            .expect("the chunk's CSV rows")
    }

    fn chunk(
        bytes: &[u8],
        spans: &[GameSpan],
        first: u64,
        recycled: FormattedChunk,
    ) -> FormattedChunk {
        let plan = ChunkPlan {
            rows: vec![Arc::new(CsvFormat::new(false))],
            facts: FactsPlan::default(),
        };
        let mut builder = ChunkBuilder::new(recycled, &plan, spans.len());
        for (i, span) in spans.iter().enumerate() {
            let raw = span.slice(bytes, 0).unwrap_or_default();
            let record = replay_game(raw, span.line, &ReplayOptions::default());
            let at = GameLocation {
                source: "x",
                game: first + i as u64,
                offset: span.offset,
                line: span.line,
            };
            let text = std::str::from_utf8(raw).unwrap_or_default();
            builder
                .push(at, &record, *span, &[], text)
                .unwrap_or_default();
        }
        builder.finish().unwrap_or_default()
    }

    /// A chunk formatted into the buffers of an earlier one gives the
    /// same rows and facts as one formatted into fresh buffers: nothing of
    /// the earlier chunk survives.
    #[test]
    fn recycled_buffers_leave_no_trace() {
        // Castling conflicts first, so that castling.csv has rows to leave.
        let mut bytes = Vec::new();
        for name in ["synthetic-castling-fen.pgn", "pgn2tex-london1851.pgn"] {
            let path = format!("{}/testdata/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
            bytes.extend(std::fs::read(&path).unwrap_or_default());
            bytes.extend(b"\n\n");
        }
        let spans = split_all(&bytes, false);
        assert!(spans.len() > 40, "{} games", spans.len());
        let earlier = chunk(&bytes, &spans[..20], 1, FormattedChunk::default());
        assert!(
            !csv(&earlier).castling.is_empty(),
            "no castling row to leave behind"
        );
        let fresh = chunk(&bytes, &spans[20..], 21, FormattedChunk::default());
        let reused = chunk(&bytes, &spans[20..], 21, earlier);
        assert!(!csv(&fresh).games.is_empty());
        assert_eq!(csv(&reused).games, csv(&fresh).games);
        assert_eq!(csv(&reused).castling, csv(&fresh).castling);
        assert_eq!(reused.games.len(), fresh.games.len());
        for (a, b) in reused.games.iter().zip(&fresh.games) {
            assert_eq!((a.status, a.plies, a.span), (b.status, b.plies, b.span));
        }
    }
}
