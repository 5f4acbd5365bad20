//! `games.csv` and `castling.csv`: one row per game, and one per game
//! whose `[FEN]` castling field contradicts the board. The rows are
//! formatted on the worker threads ([`CsvEncoder`]), the sink appends
//! their bytes.

use std::sync::Arc;

use super::columns::{
    Column, DuplicateFields, GameView, OptionalColumns, clocks_of, write_clock_fields,
    write_duplicate_fields, write_game_fields,
};
use super::csv_rows::{CsvRows, clean_text};
use super::duplicate_stage::DuplicateRows;
use super::folder::ReportFolder;
use super::format::{ROW_BYTES_HINT, castling_header, games_header};
use super::rows::{CastlingRow, FieldSink};
use super::sink::{Encoded, RowEncoder, RowFormat, Sink, SinkChunk, encoded_as};
use super::summary::Summary;
use crate::output::{AtomicFile, FinishedFile, OutputError, Spill};
use std::io::BufRead;

/// The two CSV files, being written.
pub struct CsvSink {
    games: AtomicFile,
    castling: AtomicFile,
    format: Arc<CsvFormat>,
    /// With `--duplicates`, the rows wait here for their duplicate
    /// columns (added at the end of each line: no field holds a line end).
    waiting: Option<Spill>,
}

/// How a chunk's CSV rows are made: with which optional columns.
pub struct CsvFormat {
    optional: OptionalColumns,
}

/// The CSV bytes of one chunk.
pub struct CsvChunk {
    pub games: Vec<u8>,
    pub castling: Vec<u8>,
}

impl CsvSink {
    /// Starts `games.csv` (with `columns`) and `castling.csv` in `out`.
    pub fn create(
        out: &ReportFolder,
        columns: &[Column],
        optional: OptionalColumns,
    ) -> Result<Self, OutputError> {
        let mut games = out.create("games.csv")?;
        games.write_all(&games_header(columns))?;
        let mut castling = out.create("castling.csv")?;
        castling.write_all(&castling_header())?;
        let waiting = match optional.duplicates {
            true => Some(Spill::create_for(&out.path().join("games.csv"))?),
            false => None,
        };
        Ok(CsvSink {
            games,
            castling,
            format: Arc::new(CsvFormat::new(optional)),
            waiting,
        })
    }
}

impl Sink for CsvSink {
    fn rows(&self) -> Option<Arc<dyn RowFormat>> {
        Some(Arc::clone(&self.format) as Arc<dyn RowFormat>)
    }

    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        let Some(rows) = encoded_as::<CsvChunk>(chunk.encoded, "games.csv")? else {
            return Ok(None);
        };
        match &mut self.waiting {
            Some(spill) => spill.write_all(&rows.games)?,
            None => self.games.write_all(&rows.games)?,
        }
        self.castling.write_all(&rows.castling)?;
        Ok(Some(rows))
    }

    /// Each waiting row, its line end replaced by the duplicate columns.
    fn duplicates(&mut self, rows: &DuplicateRows) -> Result<(), OutputError> {
        let Some(spill) = self.waiting.take() else {
            return Ok(());
        };
        let spill = spill.into_reader()?;
        let mut reader = spill.sequential()?;
        let mut line = Vec::new();
        let mut fields = CsvRows::reusing(Vec::new(), 0);
        let mut values = DuplicateFields::default();
        for row in 0.. {
            line.clear();
            let n = reader
                .read_until(b'\n', &mut line)
                .map_err(|e| OutputError::io(spill.named(), e))?;
            if n == 0 {
                break;
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            line.push(b',');
            rows.fields_into(row, &mut values);
            write_duplicate_fields(&values, &mut fields);
            fields.end_record();
            fields.move_into(&mut line);
            self.games.write_all(&line)?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        if self.waiting.is_some() {
            return Err(OutputError::NoVerdicts {
                file: "games.csv".into(),
            });
        }
        Ok(vec![self.games.finish()?, self.castling.finish()?])
    }
}

impl CsvFormat {
    /// Rows with the `optional` columns.
    pub fn new(optional: OptionalColumns) -> Self {
        CsvFormat { optional }
    }
}

impl RowFormat for CsvFormat {
    fn encoder(&self, games: usize, recycled: Option<Encoded>) -> Box<dyn RowEncoder> {
        let (games_buf, castling_buf) = match recycled.and_then(|r| r.downcast::<CsvChunk>().ok()) {
            Some(chunk) => (chunk.games, chunk.castling),
            None => (first_buffer(games), Vec::new()),
        };
        Box::new(CsvEncoder::reusing(
            self.optional,
            games,
            games_buf,
            castling_buf,
        ))
    }
}

/// A first chunk's buffer, its pages written through once so that they
/// are resident from the start: a report sets aside its working buffers
/// up front, and its memory does not then creep up as later chunks fill
/// more of them. Filled with a non-zero byte: zeroes would let the
/// allocator hand out fresh zero pages from the system, untouched (the
/// compiler turns an allocation and a zero fill into `calloc`).
fn first_buffer(games: usize) -> Vec<u8> {
    let bytes = games * ROW_BYTES_HINT;
    let mut buf = Vec::with_capacity(bytes);
    buf.resize(bytes, b' ');
    buf.clear();
    buf
}

/// Appends a chunk's rows to byte buffers: `games.csv` rows by hand (one a
/// game, see [`CsvRows`]), `castling.csv` rows by the csv crate.
pub struct CsvEncoder {
    games: CsvRows,
    castling: csv::Writer<Vec<u8>>,
    optional: OptionalColumns,
}

impl CsvEncoder {
    /// An encoder for about `games` games (their rows without moves fit
    /// without the buffer growing) writing into `games_buf` and
    /// `castling_buf`, emptied first.
    pub fn reusing(
        optional: OptionalColumns,
        games: usize,
        games_buf: Vec<u8>,
        mut castling_buf: Vec<u8>,
    ) -> Self {
        castling_buf.clear();
        CsvEncoder {
            games: CsvRows::reusing(games_buf, games * ROW_BYTES_HINT),
            castling: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(castling_buf),
            optional,
        }
    }

    /// The rows so far.
    pub fn into_chunk(self) -> csv::Result<CsvChunk> {
        Ok(CsvChunk {
            games: self.games.into_bytes(),
            castling: self.castling.into_inner().map_err(|e| e.into_error())?,
        })
    }
}

impl RowEncoder for CsvEncoder {
    fn push(&mut self, game: &GameView<'_, '_>, tags: &[&str]) -> Result<(), String> {
        write_game(&mut self.games, game, self.optional, tags);
        self.games.end_record();
        if let Some(row) = CastlingRow::of(game) {
            self.castling.serialize(&row).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Encoded, String> {
        let chunk = self.into_chunk().map_err(|e| e.to_string())?;
        Ok(Box::new(chunk))
    }
}

/// A game's fields in column order: the defaults, the `optional` columns
/// asked for, then the `--tags` values; the record is not ended.
#[inline(always)]
pub(super) fn write_game<S: FieldSink>(
    w: &mut S,
    game: &GameView,
    optional: OptionalColumns,
    tags: &[&str],
) {
    write_game_fields(game, w);
    if optional.moves {
        w.text(game.record.moves.as_deref().unwrap_or(""));
    }
    if optional.clocks {
        write_clock_fields(&clocks_of(game.record), w);
    }
    for value in tags {
        w.text(value);
    }
}

impl<'a> CastlingRow<'a> {
    /// The `castling.csv` row of a game whose `[FEN]` castling field
    /// contradicts the board, if it has one. Control bytes are written as
    /// U+FFFD, as in every field (docs/reports.md).
    pub fn of(game: &'a GameView<'_, '_>) -> Option<CastlingRow<'a>> {
        let c = game.record.castling_conflict.as_ref()?;
        Some(CastlingRow {
            source: clean_text(game.at.source),
            game: game.at.game,
            offset: game.at.offset,
            line: game.at.line,
            fen: clean_text(&game.record.start_fen),
            castling: clean_text(&c.castling),
            invalid: clean_text(&c.invalid),
            effective: clean_text(&c.effective),
            reason: clean_text(&c.reason),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{
        CastlingConflict, GameOver, GameTags, MatingMaterial, Outcome, RepetitionStats, Termination,
    };
    use crate::replay::{ReplayedGame, Status};
    use crate::report::columns::GameLocation;
    use crate::report::format::games_header;

    /// The first game of `source`, at its first byte.
    fn first_game_of(source: &str) -> GameLocation<'_> {
        GameLocation {
            source,
            game: 1,
            offset: 0,
            line: 1,
        }
    }

    /// The `moves` column and no other optional one.
    const MOVES: OptionalColumns = OptionalColumns {
        moves: true,
        clocks: false,
        duplicates: false,
    };

    fn record() -> ReplayedGame<'static> {
        ReplayedGame {
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
            curation: Default::default(),
            ply_data: None,
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
        let mut f = CsvEncoder::reusing(MOVES, 1, Vec::new(), Vec::new());
        f.push(&GameView { at, record: &r }, &["a,b"]).unwrap();
        let rows = f.into_chunk().unwrap();
        let header = games_header(&crate::report::columns::game_columns(MOVES, &["T".into()]));
        let mut text = header.clone();
        text.extend(&rows.games);
        let mut reader = csv::Reader::from_reader(&text[..]);
        let names: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let row = reader.records().next().unwrap().unwrap();
        let value = |name: &str| {
            row.get(names.iter().position(|n| n == name).unwrap())
                .unwrap()
        };
        assert_eq!(names.len(), crate::report::columns::GAME_COLUMNS.len() + 2);
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
        let at = first_game_of("a.pgn");
        let mut f = CsvEncoder::reusing(OptionalColumns::default(), 1, Vec::new(), Vec::new());
        f.push(&GameView { at, record: &r }, &[]).unwrap();
        let fast = f.into_chunk().unwrap().games;
        let text = String::from_utf8(fast).unwrap();
        assert!(
            text.trim_end().ends_with(",none,,both,,,,,,,,,,,,,,,,"),
            "{text}"
        );
        assert_eq!(
            text.trim_end().split(',').count(),
            crate::report::columns::GAME_COLUMNS.len() + 1,
            "one comma-free field each, and the castling conflict quoted: {text}"
        );
    }

    /// The row is `source,game,...` in header order, castling row too.
    #[test]
    fn header_and_rows_agree() {
        let r = record();
        let at = first_game_of("a.pgn");
        let mut f = CsvEncoder::reusing(MOVES, 1, Vec::new(), Vec::new());
        f.push(&GameView { at, record: &r }, &[]).unwrap();
        let rows = f.into_chunk().unwrap();
        let (rows, castling) = (rows.games, rows.castling);
        let rows = String::from_utf8(rows).unwrap();
        assert_eq!(
            String::from_utf8(games_header(&crate::report::columns::game_columns(
                MOVES,
                &[]
            )))
            .unwrap()
            .trim_end(),
            "source,game,offset,line,variant,event,site,date,round,white,black,result,plies,start_fen,final_fen,final_fen_ep_legal,rep_max_ep_always,threefold_ply_ep_always,rep_max_ep_legal,threefold_ply_ep_legal,missed_threefold,castling_conflict,status,error,termination,board_result,mating_material,fivefold_ply,fivefold_ply_ep_always,threefold_claim_ply,fifty_move_ply,fifty_move_claim_ply,seventyfive_move_ply,game_over_ply,game_over,result_conflict,perpetual_check,natural_limit_ply,line_key,eco,opening,opening_ply,opening_conflict,moves"
        );
        assert_eq!(
            rows.trim_end(),
            "a.pgn,1,0,1,chess,,,,,\"Réti, \"\"R\"\"\",,,3,4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1,f,g,2,,3,9,true,KQkq,ok,,checkmate,1-0,white,40,,8,,99,,3,checkmate,Result * but Black is checkmated,,,,,,,,e2e4"
        );
        assert_eq!(
            String::from_utf8(castling).unwrap().trim_end(),
            "a.pgn,1,0,1,4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1,KQkq,KQkq,-,K: no white rook on h1"
        );
    }
}
