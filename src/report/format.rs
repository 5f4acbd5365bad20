//! Turning records into CSV bytes. Runs on the worker threads, a chunk of
//! games at a time, so the ordered writer only has to copy bytes.

use super::columns::{CASTLING_COLUMNS, Column};
use super::csv_record::{CsvRecords, clean_text};
use super::parquet::{ArrowRows, ParquetTable};
use super::rows::{CastlingRow, FieldSink, GameRow};
use crate::replay::GameRecord;
use std::sync::Arc;

/// Where a game is: the first four columns of both CSV files.
#[derive(Copy, Clone, Debug)]
pub struct GameLocation<'a> {
    pub source: &'a str,
    pub game: u64,
    pub offset: u64,
    pub line: u64,
}

/// The header line of `games.csv` for `columns` ([`super::columns::game_columns`]).
pub fn games_header(columns: &[Column]) -> Vec<u8> {
    header_bytes(columns)
}

/// The header line of `castling.csv`.
pub fn castling_header() -> Vec<u8> {
    header_bytes(&CASTLING_COLUMNS)
}

fn header_bytes(columns: &[Column]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record(columns.iter().map(|c| clean_text(&c.name).into_owned()));
    w.into_inner().unwrap_or_default()
}

/// A repetition count, empty when no position was replayed at all (a game
/// refused before its start position, e.g. `bad_fen` or `unsupported`).
fn nonzero(max: u32) -> Option<u32> {
    (max > 0).then_some(max)
}

/// About the length of a `games.csv` row without moves (270 bytes on the
/// lichess and TWIC corpus), rounded up.
pub(crate) const ROW_BYTES_HINT: usize = 320;

/// The shape of a run's report: its columns and its file formats.
#[derive(Clone, Debug)]
pub struct ReportLayout {
    /// The `moves` column (`--moves`).
    pub moves: bool,
    /// One column per tag (`--tags`), named as given.
    pub tags: Vec<String>,
    /// Write `games.csv` and `castling.csv`.
    pub csv: bool,
    /// Write `games.parquet` and `castling.parquet`.
    pub parquet: bool,
}

impl Default for ReportLayout {
    /// The default report: CSV, no optional column.
    fn default() -> Self {
        ReportLayout {
            moves: false,
            tags: Vec::new(),
            csv: true,
            parquet: false,
        }
    }
}

/// Which files a chunk's rows are formatted for: the CSV bytes, the
/// Parquet columns, or both (`--format`), and whether with `moves`.
#[derive(Clone, Default)]
pub struct ChunkFormat {
    pub moves: bool,
    /// Whether to format the CSV rows (`--format` names `csv`).
    pub csv: bool,
    /// The Parquet tables (`--format` names `parquet`).
    pub games_parquet: Option<Arc<ParquetTable>>,
    pub castling_parquet: Option<Arc<ParquetTable>>,
    /// Where the TimeControl, WhiteElo and BlackElo tags are among the
    /// `--tags` values, for report.html's breakdowns.
    pub time_control_tag: Option<usize>,
    pub white_elo_tag: Option<usize>,
    pub black_elo_tag: Option<usize>,
}

impl ChunkFormat {
    /// CSV only, as a report is by default.
    pub fn csv(moves: bool) -> Self {
        ChunkFormat {
            moves,
            csv: true,
            ..ChunkFormat::default()
        }
    }
}

/// The rows of a chunk, formatted: the CSV bytes of both files, and the
/// Parquet columns when asked for.
pub struct FormattedRows {
    pub games_csv: Vec<u8>,
    pub castling_csv: Vec<u8>,
    pub games_arrow: Option<ArrowRows>,
    pub castling_arrow: Option<ArrowRows>,
}

/// Appends rows to byte buffers: `games.csv` rows by hand (one a game, see
/// [`CsvRecords`]), `castling.csv` rows by the csv crate, and the same rows
/// as typed columns for the Parquet files.
pub struct RowFormatter {
    games: CsvRecords,
    castling: csv::Writer<Vec<u8>>,
    with_moves: bool,
    csv: bool,
    games_arrow: Option<ArrowRows>,
    castling_arrow: Option<ArrowRows>,
}

impl RowFormatter {
    pub fn new(with_moves: bool) -> Self {
        Self::for_games(with_moves, 0)
    }

    /// A formatter whose `games.csv` buffer is sized for `games` rows
    /// without moves, so that a chunk's rows are not copied as it grows.
    pub fn for_games(with_moves: bool, games: usize) -> Self {
        Self::reusing(&ChunkFormat::csv(with_moves), games, Vec::new(), Vec::new())
    }

    /// [`RowFormatter::for_games`] writing into the buffers of an earlier
    /// chunk (emptied first), so that their memory is not given back and
    /// mapped again for every chunk.
    pub fn reusing(
        format: &ChunkFormat,
        games: usize,
        games_buf: Vec<u8>,
        mut castling_buf: Vec<u8>,
    ) -> Self {
        castling_buf.clear();
        let room = if format.csv {
            games * ROW_BYTES_HINT
        } else {
            0
        };
        RowFormatter {
            games: CsvRecords::reusing(games_buf, room),
            castling: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(castling_buf),
            with_moves: format.moves,
            csv: format.csv,
            games_arrow: format.games_parquet.as_ref().map(|t| t.rows(games)),
            // Few games have a castling conflict.
            castling_arrow: format.castling_parquet.as_ref().map(|t| t.rows(0)),
        }
    }

    /// Formats one game's rows (its `castling.csv` row only if it has a
    /// conflict); `tags` are the values of the `--tags` columns, in order.
    pub fn push(
        &mut self,
        at: GameLocation<'_>,
        record: &GameRecord,
        tags: &[&str],
    ) -> csv::Result<()> {
        let conflict = record.castling_conflict.as_ref();
        let outcome = &record.outcome;
        let row = GameRow {
            source: at.source,
            game: at.game,
            offset: at.offset,
            line: at.line,
            variant: &record.variant,
            event: &record.tags.event,
            site: &record.tags.site,
            date: &record.tags.date,
            round: &record.tags.round,
            white: &record.tags.white,
            black: &record.tags.black,
            result: &record.tags.result,
            plies: record.plies,
            start_fen: &record.start_fen,
            final_fen: &record.final_fen,
            final_fen_ep_legal: record.final_fen_ep_legal(),
            rep_max_ep_always: nonzero(record.rep_ep_always.max),
            threefold_ply_ep_always: record.rep_ep_always.threefold_ply,
            rep_max_ep_legal: nonzero(record.rep_ep_legal.max),
            threefold_ply_ep_legal: record.rep_ep_legal.threefold_ply,
            missed_threefold: record.missed_threefold(),
            castling_conflict: conflict.map_or("", |c| &c.invalid),
            status: record.status,
            error: &record.error,
            termination: outcome.termination.map_or("", |t| t.as_str()),
            board_result: outcome.board_result,
            mating_material: outcome.mating_material.map_or("", |m| m.as_str()),
            fivefold_ply: outcome.fivefold_ply,
            fivefold_ply_ep_always: outcome.fivefold_ply_ep_always,
            threefold_claim_ply: outcome.threefold_claim_ply,
            fifty_move_ply: outcome.fifty_move_ply,
            fifty_move_claim_ply: outcome.fifty_move_claim_ply,
            seventyfive_move_ply: outcome.seventyfive_move_ply,
            game_over_ply: outcome.game_over.map(|(ply, _)| ply),
            game_over: outcome.game_over.map_or("", |(_, g)| g.as_str()),
            result_conflict: &outcome.result_conflict,
            perpetual_check: outcome.perpetual_check.map_or("", |p| p.as_str()),
            natural_limit_ply: outcome.natural_limit_ply,
        };
        let moves = record.moves.as_deref().unwrap_or("");
        if self.csv {
            write_game(
                &mut self.games,
                &row,
                self.with_moves.then_some(moves),
                tags,
            );
            self.games.end_record();
        }
        if let Some(arrow) = &mut self.games_arrow {
            write_game(arrow, &row, self.with_moves.then_some(moves), tags);
            arrow.end_record();
        }
        if let Some(c) = conflict {
            let row = CastlingRow {
                source: &clean_text(at.source),
                game: at.game,
                offset: at.offset,
                line: at.line,
                fen: &clean_text(&record.start_fen),
                castling: &clean_text(&c.castling),
                invalid: &clean_text(&c.invalid),
                effective: &clean_text(&c.effective),
                reason: &clean_text(&c.reason),
            };
            if self.csv {
                self.castling.serialize(&row)?;
            }
            if let Some(arrow) = &mut self.castling_arrow {
                row.write_fields(arrow);
                arrow.end_record();
            }
        }
        Ok(())
    }

    /// The rows so far.
    pub fn finish(self) -> csv::Result<FormattedRows> {
        let games_csv = self.games.into_bytes();
        let castling_csv = self.castling.into_inner().map_err(|e| e.into_error())?;
        Ok(FormattedRows {
            games_csv,
            castling_csv,
            games_arrow: self.games_arrow,
            castling_arrow: self.castling_arrow,
        })
    }
}

/// A game's fields in column order: the defaults, `moves` when asked for,
/// then the `--tags` values.
#[inline(always)]
fn write_game<S: FieldSink>(w: &mut S, row: &GameRow<'_>, moves: Option<&str>, tags: &[&str]) {
    row.write_fields(w);
    if let Some(moves) = moves {
        w.text(moves);
    }
    for value in tags {
        w.text(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Status;
    use crate::replay::{
        CastlingConflict, GameOver, GameTags, MatingMaterial, Outcome, RepetitionStats, Termination,
    };
    use crate::report::rows::MovesColumn;

    fn record() -> GameRecord<'static> {
        GameRecord {
            variant: "chess".into(),
            tags: GameTags {
                white: "Réti, \"R\"".into(),
                ..GameTags::default()
            },
            plies: 3,
            start_fen: "4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1".into(),
            final_fen: "f".into(),
            final_fen_ep_legal_if_different: Some("g".into()),
            rep_ep_always: RepetitionStats {
                max: 2,
                threefold_ply: None,
                fivefold_ply: None,
            },
            rep_ep_legal: RepetitionStats {
                max: 3,
                threefold_ply: Some(9),
                fivefold_ply: None,
            },
            castling_conflict: Some(CastlingConflict {
                castling: "KQkq".into(),
                invalid: "KQkq".into(),
                effective: "-".into(),
                reason: "K: no white rook on h1".into(),
            }),
            status: Status::Ok,
            error: String::new(),
            moves: Some("e2e4".into()),
            outcome: Outcome {
                termination: Some(Termination::Checkmate),
                board_result: "1-0",
                mating_material: Some(MatingMaterial::White),
                fivefold_ply: Some(40),
                fivefold_ply_ep_always: None,
                threefold_claim_ply: Some(8),
                fifty_move_ply: None,
                fifty_move_claim_ply: Some(99),
                seventyfive_move_ply: None,
                game_over: Some((3, GameOver::Checkmate)),
                result_conflict: "Result * but Black is checkmated".into(),
                perpetual_check: None,
                natural_limit_ply: None,
            },
            ply_data: None,
        }
    }

    /// Rows are written field by field for speed; serde's serialization
    /// of the same struct is the reference for every kind of field.
    #[test]
    fn hand_written_fields_equal_serde_serialization() {
        let row = GameRow {
            source: "dir/a b.pgn",
            game: 12,
            offset: 34_567,
            line: 890,
            variant: "chess960",
            event: "Ev, \"quoted\"",
            site: "line\nbreak",
            date: "2024.01.02",
            round: "3.1",
            white: "Réti",
            black: "",
            result: "1/2-1/2",
            plies: 77,
            start_fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            final_fen: "f",
            final_fen_ep_legal: "g",
            rep_max_ep_always: Some(2),
            threefold_ply_ep_always: None,
            rep_max_ep_legal: Some(3),
            threefold_ply_ep_legal: Some(41),
            missed_threefold: true,
            castling_conflict: "Kq",
            status: Status::IllegalMove,
            error: "ply 3 (line 9) \"Nf9\": invalid",
            termination: "stalemate",
            board_result: "1/2-1/2",
            mating_material: "both",
            fivefold_ply: Some(60),
            fivefold_ply_ep_always: None,
            threefold_claim_ply: Some(51),
            fifty_move_ply: Some(100),
            fifty_move_claim_ply: Some(99),
            seventyfive_move_ply: None,
            game_over_ply: Some(60),
            game_over: "fivefold_repetition",
            result_conflict: "Result tag 1-0 but movetext result *; movetext result * but Black is checkmated",
            perpetual_check: "black",
            natural_limit_ply: Some(120),
        };
        let mut by_serde = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        by_serde.serialize(&row).unwrap();
        let mut by_hand = CsvRecords::new();
        row.write_fields(&mut by_hand);
        by_hand.end_record();
        // The one difference: a control byte is written as U+FFFD, so the
        // line break needs no quotes (docs/reports.md, "Control bytes").
        let reference = String::from_utf8(by_serde.into_inner().unwrap())
            .unwrap()
            .replace("\"line\nbreak\"", "line\u{FFFD}break");
        assert_eq!(String::from_utf8(by_hand.into_bytes()).unwrap(), reference);
    }

    /// The header constants must name GameRow's fields in order, since the
    /// header is written from the constants and rows from the struct.
    #[test]
    fn header_matches_the_serialized_struct() {
        let mut w = csv::Writer::from_writer(Vec::new());
        let r = record();
        let at = GameLocation {
            source: "a.pgn",
            game: 1,
            offset: 0,
            line: 1,
        };
        let mut f = RowFormatter::new(true);
        f.push(at, &r, &[]).unwrap();
        let rows = f.finish().unwrap();
        let (rows, castling) = (rows.games_csv, rows.castling_csv);
        let rows = String::from_utf8(rows).unwrap();
        // The header written by serde for the same row:
        let row = GameRow {
            source: "a.pgn",
            game: 1,
            offset: 0,
            line: 1,
            variant: "",
            event: "",
            site: "",
            date: "",
            round: "",
            white: "",
            black: "",
            result: "",
            plies: 0,
            start_fen: "",
            final_fen: "",
            final_fen_ep_legal: "",
            rep_max_ep_always: None,
            threefold_ply_ep_always: None,
            rep_max_ep_legal: None,
            threefold_ply_ep_legal: None,
            missed_threefold: false,
            castling_conflict: "",
            status: Status::Ok,
            error: "",
            termination: "",
            board_result: "",
            mating_material: "",
            fivefold_ply: None,
            fivefold_ply_ep_always: None,
            threefold_claim_ply: None,
            fifty_move_ply: None,
            fifty_move_claim_ply: None,
            seventyfive_move_ply: None,
            game_over_ply: None,
            game_over: "",
            result_conflict: "",
            perpetual_check: "",
            natural_limit_ply: None,
        };
        w.serialize((row, MovesColumn { moves: "" })).unwrap();
        let serde_out = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let serde_header = serde_out.lines().next().unwrap();
        assert_eq!(
            serde_header.as_bytes(),
            games_header(&super::super::columns::game_columns(true, &[])).trim_ascii_end()
        );
        assert_eq!(
            rows.trim_end(),
            "a.pgn,1,0,1,chess,,,,,\"Réti, \"\"R\"\"\",,,3,4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1,f,g,2,,3,9,true,KQkq,ok,,checkmate,1-0,white,40,,8,,99,,3,checkmate,Result * but Black is checkmated,,,e2e4"
        );
        assert_eq!(
            String::from_utf8(castling).unwrap().trim_end(),
            "a.pgn,1,0,1,4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1,KQkq,KQkq,-,K: no white rook on h1"
        );
    }
}
