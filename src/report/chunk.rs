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

/// A worker's output for one run of games, in input order.
pub struct ChunkResult {
    pub games_csv: Vec<u8>,
    pub castling_csv: Vec<u8>,
    pub games: Vec<GameFacts>,
}

/// Replays and formats the games `spans` of `bytes` (whose first byte is at
/// `base_offset` in its source); `first_game` is the 1-based number of the
/// first of them within the source.
#[allow(clippy::too_many_arguments)]
pub fn process_chunk(
    source: &str,
    bytes: &[u8],
    base_offset: u64,
    spans: &[GameSpan],
    first_game: u64,
    encoding: Encoding,
    options: &ReplayOptions,
) -> csv::Result<ChunkResult> {
    let mut formatter = RowFormatter::for_games(options.moves, spans.len());
    let mut games = Vec::with_capacity(spans.len());
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
