//! `duplicates.csv` (`--duplicates`): one row per game that copies
//! another, with both games' source, game number, plies, White, Black and
//! Date, so that a curator sees each pair at a glance and decides which to
//! keep. Written when the run ends, once every verdict is known.

use super::columns::{Column, ColumnType, DuplicateFields};
use super::csv_rows::CsvRows;
use super::duplicate_stage::{DuplicateRows, GameSide};
use super::folder::ReportFolder;
use super::format::header_bytes;
use super::sink::{Encoded, Sink, SinkChunk};
use super::summary::Summary;
use crate::output::{AtomicFile, FinishedFile, OutputError};
use ColumnType::{Int32, Int64, Text};

/// The columns of `duplicates.csv`, in order.
pub static DUPLICATES_CSV_COLUMNS: [Column; 14] = [
    Column::new("source", Text),
    Column::new("game", Int64),
    Column::new("plies", Int32),
    Column::new("white", Text),
    Column::new("black", Text),
    Column::new("date", Text),
    Column::new("dup_kind", Text),
    Column::new("dup_headers", Text),
    Column::new("of_source", Text),
    Column::new("of_game", Int64),
    Column::new("of_plies", Int32),
    Column::new("of_white", Text),
    Column::new("of_black", Text),
    Column::new("of_date", Text),
];

pub struct DuplicatesSink {
    file: AtomicFile,
    /// Whether the verdicts came ([`Sink::duplicates`]).
    written: bool,
}

impl DuplicatesSink {
    pub fn create(out: &ReportFolder) -> Result<Self, OutputError> {
        Ok(DuplicatesSink {
            file: out.create("duplicates.csv")?,
            written: false,
        })
    }
}

/// A game's six fields: source, game, plies, White, Black, Date.
fn write_side(csv: &mut CsvRows, side: &GameSide<'_>) {
    let r = &side.record;
    csv.field(side.source.as_bytes());
    csv.plain_field(itoa::Buffer::new().format(side.game).as_bytes());
    csv.plain_field(itoa::Buffer::new().format(r.plies).as_bytes());
    for text in [r.white, r.black, r.date] {
        csv.field(text.as_bytes());
    }
}

impl Sink for DuplicatesSink {
    fn write(&mut self, _chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        Ok(None)
    }

    fn duplicates(&mut self, rows: &DuplicateRows) -> Result<(), OutputError> {
        self.file
            .write_all(&header_bytes(&DUPLICATES_CSV_COLUMNS))?;
        let mut pairs = rows.pairs()?;
        let mut fields = DuplicateFields::default();
        let mut csv = CsvRows::reusing(Vec::new(), 1 << 16);
        for row in 0..rows.rows() {
            let Some((this, of)) = pairs.pair(row)? else {
                continue;
            };
            rows.fields_into(row, &mut fields);
            write_side(&mut csv, &this);
            csv.plain_field(fields.kind.as_bytes());
            csv.plain_field(fields.headers.as_bytes());
            write_side(&mut csv, &of);
            csv.end_record();
            if csv.len() >= 1 << 16 {
                self.file.write_all(csv.bytes())?;
                csv.clear();
            }
        }
        self.written = true;
        self.file.write_all(csv.bytes())
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        if !self.written {
            return Err(OutputError::NoVerdicts {
                file: "duplicates.csv".into(),
            });
        }
        Ok(vec![self.file.finish()?])
    }
}
