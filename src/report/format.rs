//! Turning records into CSV bytes. Runs on the worker threads, a chunk of
//! games at a time, so the ordered writer only has to copy bytes.

use super::columns::{CASTLING_COLUMNS, Column, GameView, write_game_fields};
use super::csv_record::{CsvRecords, clean_text};
use super::parquet::{ArrowRows, ParquetTable};
use super::rows::{CastlingRow, FieldSink};
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
        let row = GameView { at, record };
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
fn write_game<S: FieldSink>(w: &mut S, row: &GameView, moves: Option<&str>, tags: &[&str]) {
    write_game_fields(row, w);
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
        }
    }

    /// The CSV text of a row, read back by the csv crate, gives each
    /// column's value: quoting and escaping are right for every kind of
    /// field, and the header names the fields in order.
    #[test]
    fn rows_read_back_as_the_values_written() {
        let mut r = record();
        r.tags.event = "Ev, \"quoted\"".into();
        r.tags.site = "line\nbreak".into();
        r.error = "ply 3 (line 9) \"Nf9\": invalid".into();
        let at = GameLocation {
            source: "dir/a b.pgn",
            game: 12,
            offset: 34_567,
            line: 890,
        };
        let mut f = RowFormatter::new(true);
        f.push(at, &r, &["a,b"]).unwrap();
        let rows = f.finish().unwrap();
        let header = games_header(&super::super::columns::game_columns(true, &["T".into()]));
        let mut text = header.clone();
        text.extend(&rows.games_csv);
        let mut reader = csv::Reader::from_reader(&text[..]);
        let names: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let row = reader.records().next().unwrap().unwrap();
        let value = |name: &str| {
            row.get(names.iter().position(|n| n == name).unwrap())
                .unwrap()
        };
        assert_eq!(names.len(), super::super::columns::GAME_COLUMNS.len() + 2);
        assert_eq!(value("source"), "dir/a b.pgn");
        assert_eq!(value("game"), "12");
        assert_eq!(value("event"), "Ev, \"quoted\"");
        // A control byte is written as U+FFFD (docs/reports.md).
        assert_eq!(value("site"), "line\u{FFFD}break");
        assert_eq!(value("white"), "Réti, \"R\"");
        assert_eq!(value("rep_max_ep_always"), "2");
        assert_eq!(value("threefold_ply_ep_always"), "");
        assert_eq!(value("threefold_ply_ep_legal"), "9");
        assert_eq!(value("missed_threefold"), "true");
        assert_eq!(value("castling_conflict"), "KQkq");
        assert_eq!(value("error"), "ply 3 (line 9) \"Nf9\": invalid");
        assert_eq!(value("termination"), "checkmate");
        assert_eq!(value("mating_material"), "white");
        assert_eq!(value("fifty_move_claim_ply"), "99");
        assert_eq!(value("game_over"), "checkmate");
        assert_eq!(value("moves"), "e2e4");
        assert_eq!(value("T"), "a,b");
    }

    /// A game whose outcome columns hold their usual values gives the same
    /// row whether they are written at once or one by one.
    #[test]
    fn the_usual_run_gives_the_fields_one_by_one() {
        let mut r = record();
        r.outcome = Outcome {
            termination: Some(Termination::None),
            mating_material: Some(MatingMaterial::Both),
            ..Outcome::default()
        };
        r.outcome.result_conflict.clear();
        let at = GameLocation {
            source: "a.pgn",
            game: 1,
            offset: 0,
            line: 1,
        };
        let mut f = RowFormatter::new(false);
        f.push(at, &r, &[]).unwrap();
        let fast = f.finish().unwrap().games_csv;
        let text = String::from_utf8(fast).unwrap();
        assert!(
            text.trim_end().ends_with(",none,,both,,,,,,,,,,,"),
            "{text}"
        );
        assert_eq!(
            text.trim_end().split(',').count(),
            super::super::columns::GAME_COLUMNS.len() + 1,
            "one comma-free field each, and the castling conflict quoted: {text}"
        );
    }

    /// The row is `source,game,...` in header order, castling row too.
    #[test]
    fn header_and_rows_agree() {
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
        assert_eq!(
            String::from_utf8(games_header(&super::super::columns::game_columns(
                true,
                &[]
            )))
            .unwrap()
            .trim_end(),
            "source,game,offset,line,variant,event,site,date,round,white,black,result,plies,start_fen,final_fen,final_fen_ep_legal,rep_max_ep_always,threefold_ply_ep_always,rep_max_ep_legal,threefold_ply_ep_legal,missed_threefold,castling_conflict,status,error,termination,board_result,mating_material,fivefold_ply,fivefold_ply_ep_always,threefold_claim_ply,fifty_move_ply,fifty_move_claim_ply,seventyfive_move_ply,game_over_ply,game_over,result_conflict,perpetual_check,natural_limit_ply,moves"
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
