//! `duplicates.csv` (`--duplicates`): one row per game that copies
//! another, with both games' source, game number, plies, White, Black and
//! Date, so that a curator sees each pair at a glance and decides which to
//! keep. Written when the run ends, once every verdict is known.

use super::columns::DuplicateFields;
use super::csv_rows::clean_text;
use super::duplicate_stage::{DuplicateRows, GameSide};
use super::folder::ReportFolder;
use super::sink::{Encoded, Sink, SinkChunk};
use super::summary::Summary;
use crate::output::{AtomicFile, OutputError};

/// The columns of `duplicates.csv`, in order.
pub const DUPLICATES_CSV_COLUMNS: [&str; 14] = [
    "source",
    "game",
    "plies",
    "white",
    "black",
    "date",
    "dup_kind",
    "dup_headers",
    "of_source",
    "of_game",
    "of_plies",
    "of_white",
    "of_black",
    "of_date",
];

pub struct DuplicatesSink {
    file: AtomicFile,
}

impl DuplicatesSink {
    pub fn create(out: &ReportFolder) -> Result<Self, OutputError> {
        Ok(DuplicatesSink {
            file: out.create("duplicates.csv")?,
        })
    }
}

/// A game's six fields: source, game, plies, White, Black, Date.
fn write_side<W: std::io::Write>(
    csv: &mut csv::Writer<W>,
    side: &GameSide<'_>,
) -> Result<(), OutputError> {
    let r = &side.record;
    csv.write_field(clean_text(side.source).as_bytes())
        .and_then(|_| csv.write_field(itoa::Buffer::new().format(side.game)))
        .and_then(|_| csv.write_field(itoa::Buffer::new().format(r.plies)))
        .and_then(|_| csv.write_field(clean_text(r.white).as_bytes()))
        .and_then(|_| csv.write_field(clean_text(r.black).as_bytes()))
        .and_then(|_| csv.write_field(clean_text(r.date).as_bytes()))
        .map_err(format_error)
}

fn format_error(e: impl std::fmt::Display) -> OutputError {
    OutputError::Format {
        file: "duplicates.csv".into(),
        message: e.to_string(),
    }
}

impl Sink for DuplicatesSink {
    fn write(&mut self, _chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        Ok(None)
    }

    fn duplicates(&mut self, rows: &DuplicateRows) -> Result<(), OutputError> {
        let mut csv = csv::Writer::from_writer(&mut self.file);
        csv.write_record(DUPLICATES_CSV_COLUMNS)
            .map_err(format_error)?;
        let (mut this_buf, mut of_buf) = (Vec::new(), Vec::new());
        let mut fields = DuplicateFields::default();
        for row in 0..rows.rows() {
            let Some(verdict) = rows.verdict(row) else {
                continue;
            };
            rows.fields_into(row, &mut fields);
            let this = rows.side(rows.index_of_row(row), &mut this_buf)?;
            let of = rows.side(verdict.dup_of, &mut of_buf)?;
            write_side(&mut csv, &this)?;
            csv.write_field(fields.kind).map_err(format_error)?;
            csv.write_field(&fields.headers).map_err(format_error)?;
            write_side(&mut csv, &of)?;
            csv.write_record(None::<&[u8]>).map_err(format_error)?;
        }
        csv.flush().map_err(format_error)
    }

    fn finish(self: Box<Self>, _summary: &Summary) -> Result<(), OutputError> {
        self.file.commit()
    }
}
