//! A run of consecutive games of one source, made ready on a worker
//! thread: each row sink's encoding of it (CSV bytes, a Parquet row group,
//! an Arrow batch: `sink.rs`), and the few facts of each game the totals,
//! report.html and the extract files need, so that the ordered writer
//! does no per-game work beyond counting and copying bytes. How the games
//! were replayed is not known here: the caller hands in each game's
//! record.

use std::sync::Arc;

use super::columns::{GameLocation, GameView};
use super::duplicate_entries::DuplicateEntries;
use super::facts::{FactsPlan, GameFacts};
use super::sink::{Encoded, RowEncoder, RowFormat};
use crate::pgn::GameSpan;
use crate::replay::ReplayedGame;

/// What a worker makes of each chunk: the encoders of the row sinks, and
/// the facts to keep.
#[derive(Clone, Default)]
pub struct ChunkPlan {
    /// The worker halves of the sinks that write rows, in the order of
    /// [`FormattedChunk::encoded`].
    pub rows: Vec<Arc<dyn RowFormat>>,
    pub facts: FactsPlan,
    /// Keep each game's [`DuplicateEntries`] (`--duplicates`).
    pub duplicates: bool,
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
    /// What `--duplicates` keeps of each game in `games` (empty without
    /// it).
    pub duplicates: DuplicateEntries,
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
    duplicates: Option<DuplicateEntries>,
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
            mut duplicates,
            ..
        } = recycled;
        duplicates.clear();
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
            duplicates: plan.duplicates.then_some(duplicates),
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
        record: &ReplayedGame<'_>,
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
        if let Some(entries) = &mut self.duplicates {
            entries.push(record);
        }
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
            duplicates: self.duplicates.unwrap_or_default(),
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
            rows: vec![Arc::new(CsvFormat::new(Default::default()))],
            facts: FactsPlan::default(),
            duplicates: false,
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
