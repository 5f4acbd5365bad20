//! The unit of work handed to a worker thread: a run of consecutive games
//! of one source. A worker replays them and returns their formatted rows and
//! the few facts the summary and the extract files need, so the ordered
//! writer does no per-game work beyond copying bytes.

use super::extract::ExtractKind;
use super::format::{GameLocation, RowFormatter};
use super::rows::Status;
use crate::pgn::GameSpan;
use crate::replay::{GameRecord, ReplayOptions, replay_text};
use crate::source::{Encoding, decode_game};
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
    /// The game's place in its source, to copy its text into extract files.
    pub span: GameSpan,
}

impl GameFacts {
    fn of(record: &GameRecord, span: GameSpan) -> Self {
        GameFacts {
            status: record.status,
            variant: record.variant.clone(),
            plies: record.plies,
            threefold_ep_always: record.rep_ep_always.threefold_ply.is_some(),
            threefold_ep_legal: record.rep_ep_legal.threefold_ply.is_some(),
            missed_threefold: record.missed_threefold(),
            castling_conflict: record.castling_conflict.is_some(),
            span,
        }
    }

    /// Whether this game belongs in an extract file of `kind`.
    pub fn is(&self, kind: ExtractKind) -> bool {
        match kind {
            ExtractKind::Missed => self.missed_threefold,
            ExtractKind::Castling => self.castling_conflict,
            ExtractKind::Errors => self.status != Status::Ok,
        }
    }
}

/// A worker's output for one run of games, in input order. Once written,
/// it can be handed back to [`process_chunk`] for its buffers.
#[derive(Default)]
pub struct ChunkResult {
    pub games_csv: Vec<u8>,
    pub castling_csv: Vec<u8>,
    pub games: Vec<GameFacts>,
}

impl ChunkResult {
    /// Empty buffers with room for the rows and facts of `games` games,
    /// the rows' pages written through once so that they are resident from
    /// the start: a report sets aside its working buffers up front, and its
    /// memory does not then creep up as later chunks fill more of them.
    pub fn with_room_for(games: usize) -> Self {
        // Filled with a non-zero byte: zeroes would let the allocator hand
        // out fresh zero pages from the system, untouched (the compiler
        // turns an allocation and a zero fill into `calloc`).
        let bytes = games * super::format::ROW_BYTES_HINT;
        let mut games_csv = Vec::with_capacity(bytes);
        games_csv.resize(bytes, b' ');
        games_csv.clear();
        ChunkResult {
            games_csv,
            castling_csv: Vec::new(),
            games: Vec::with_capacity(games),
        }
    }
}

/// Replays and formats the games `spans` of `bytes` (whose first byte is at
/// `base_offset` in its source); `first_game` is the 1-based number of the
/// first of them within the source. The result is built in the buffers of
/// `recycled`, an earlier chunk's result already written (its contents are
/// dropped, its memory kept; `ChunkResult::default()` for none): the
/// report's memory then stays that of the chunks in flight, reached once,
/// instead of being given back and faulted in again for every chunk.
#[allow(clippy::too_many_arguments)]
pub fn process_chunk(
    recycled: ChunkResult,
    source: &str,
    bytes: &[u8],
    base_offset: u64,
    spans: &[GameSpan],
    first_game: u64,
    encoding: Encoding,
    options: &ReplayOptions,
) -> csv::Result<ChunkResult> {
    let ChunkResult {
        games_csv,
        castling_csv,
        mut games,
    } = recycled;
    let mut formatter = RowFormatter::reusing(options.moves, spans.len(), games_csv, castling_csv);
    games.clear();
    games.reserve(spans.len());
    for (i, span) in spans.iter().enumerate() {
        let raw = span.slice(bytes, base_offset).unwrap_or_default();
        let text = decode_game(raw, encoding);
        let record = replay_text(&text, span.line, options);
        let at = GameLocation {
            source,
            game: first_game + i as u64,
            offset: span.offset,
            line: span.line,
        };
        formatter.push(at, &record)?;
        games.push(GameFacts::of(&record, *span));
    }
    let (games_csv, castling_csv) = formatter.finish()?;
    Ok(ChunkResult {
        games_csv,
        castling_csv,
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::split_all;

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
        let options = ReplayOptions::default();
        let chunk = |spans: &[GameSpan], first: u64, recycled: ChunkResult| {
            process_chunk(
                recycled,
                "x",
                &bytes,
                0,
                spans,
                first,
                Encoding::Utf8,
                &options,
            )
            .unwrap_or_default()
        };
        let earlier = chunk(&spans[..20], 1, ChunkResult::default());
        assert!(
            !earlier.castling_csv.is_empty(),
            "no castling row to leave behind"
        );
        let fresh = chunk(&spans[20..], 21, ChunkResult::default());
        let reused = chunk(&spans[20..], 21, earlier);
        assert!(!fresh.games_csv.is_empty());
        assert_eq!(reused.games_csv, fresh.games_csv);
        assert_eq!(reused.castling_csv, fresh.castling_csv);
        assert_eq!(reused.games.len(), fresh.games.len());
        for (a, b) in reused.games.iter().zip(&fresh.games) {
            assert_eq!((a.status, a.plies, a.span), (b.status, b.plies, b.span));
        }
    }
}
