//! Where a row's fields go ([`FieldSink`]: CSV bytes or Parquet columns),
//! and the row of `castling.csv` (a serde struct whose field names are the
//! column names). The fields of `games.csv` are written by the column
//! table (`columns.rs`).

use serde::Serialize;
use std::borrow::Cow;

use super::column::ColumnType;
use super::csv_rows::CsvRows;
use crate::replay::line::Key128;

/// A row of `castling.csv`: a game whose `[FEN]` castling field names rights
/// the board cannot support.
#[derive(Debug, Serialize)]
pub struct CastlingRow<'a> {
    pub source: Cow<'a, str>,
    pub game: u64,
    pub offset: u64,
    pub line: u64,
    pub fen: Cow<'a, str>,
    pub castling: Cow<'a, str>,
    pub invalid: Cow<'a, str>,
    pub effective: Cow<'a, str>,
    pub reason: Cow<'a, str>,
}

/// Where a row's fields go, in column order: the CSV bytes
/// (`CsvRows`) or the typed columns of a Parquet row group
/// (`super::parquet::ArrowRows`). The row writes its fields once, here, so
/// both files hold the same values in the same order.
pub trait FieldSink {
    /// Text that may need quoting or hold control bytes.
    fn text(&mut self, value: &str);
    /// Text known to need no quoting (a FEN, a fixed word).
    fn plain_text(&mut self, value: &str);
    /// A count or position (`Int64`).
    fn int64(&mut self, value: u64);
    /// A ply or count, absent as an empty field (`Int32`, nullable).
    fn int32(&mut self, value: Option<u32>);
    /// A value that may be negative (a time, an evaluation), absent as an
    /// empty field (`Int32`, nullable). Never `i32::MIN`: the readers of
    /// clocks and evaluations keep values within ±(2^31 - 1), and the
    /// Parquet rows mark a null with it.
    fn int32_signed(&mut self, value: Option<i32>);
    /// `true` or `false`.
    fn boolean(&mut self, value: bool);
    /// A 128-bit key, absent as an empty field (`Key128`, nullable).
    fn key128(&mut self, value: Option<&Key128>);
    /// Text from a table that holds it with its CSV field ready (quoted
    /// when it needs it, no control byte): an opening's name.
    fn table_text(&mut self, value_and_csv: (&str, &str));
    /// Ends the row (a file whose game has several rows, `plies.csv`,
    /// writes them through this trait).
    fn end_record(&mut self);
    /// The usual values of a run of columns (most games': see
    /// `column_table.rs`), written at once where the sink can.
    fn usual(&mut self, fields: &UsualFields) {
        fields.write_each(self);
    }
}

/// The usual values of a run of columns: the fields one by one (with
/// their types) and as one piece of CSV text.
pub struct UsualFields {
    pub fields: &'static [(ColumnType, &'static str)],
    /// The fields joined by commas, as a CSV row holds them.
    pub csv: &'static str,
}

impl UsualFields {
    /// Writes the fields one by one (a sink that has nothing faster).
    pub fn write_each<S: FieldSink + ?Sized>(&self, w: &mut S) {
        for &(kind, field) in self.fields {
            match kind {
                ColumnType::Int32 => w.int32(None),
                _ => w.plain_text(field),
            }
        }
    }
}

impl FieldSink for CsvRows {
    #[inline(always)]
    fn text(&mut self, value: &str) {
        self.field(value.as_bytes());
    }
    #[inline(always)]
    fn plain_text(&mut self, value: &str) {
        self.plain_field(value.as_bytes());
    }
    #[inline(always)]
    fn int64(&mut self, value: u64) {
        self.plain_field(itoa::Buffer::new().format(value).as_bytes());
    }
    #[inline(always)]
    fn int32(&mut self, value: Option<u32>) {
        match value {
            Some(v) => self.plain_field(itoa::Buffer::new().format(v).as_bytes()),
            None => self.plain_field(b""),
        }
    }
    #[inline(always)]
    fn int32_signed(&mut self, value: Option<i32>) {
        match value {
            Some(v) => self.plain_field(itoa::Buffer::new().format(v).as_bytes()),
            None => self.plain_field(b""),
        }
    }
    #[inline(always)]
    fn boolean(&mut self, value: bool) {
        self.plain_field(if value { b"true" } else { b"false" });
    }
    #[inline(always)]
    fn table_text(&mut self, (_, csv): (&str, &str)) {
        self.plain_fields(csv.as_bytes());
    }
    #[inline(always)]
    fn key128(&mut self, value: Option<&Key128>) {
        match value {
            Some(key) => self.plain_field(&crate::replay::line::key_hex_bytes(key)),
            None => self.plain_field(b""),
        }
    }
    #[inline(always)]
    fn end_record(&mut self) {
        CsvRows::end_record(self);
    }
    /// One copy of the fields' bytes.
    #[inline(always)]
    fn usual(&mut self, fields: &UsualFields) {
        self.plain_fields(fields.csv.as_bytes());
    }
}

impl CastlingRow<'_> {
    /// Writes the row's fields in column order (the Parquet file; the CSV
    /// is written by serde from the same struct).
    pub fn write_fields<S: FieldSink>(&self, w: &mut S) {
        w.text(&self.source);
        w.int64(self.game);
        w.int64(self.offset);
        w.int64(self.line);
        for text in [
            &self.fen,
            &self.castling,
            &self.invalid,
            &self.effective,
            &self.reason,
        ] {
            w.text(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::columns::USUAL_FIELDS;

    /// The CSV writer's one copy of the usual fields is the fields
    /// written one by one.
    #[test]
    fn the_joined_usual_fields_are_the_fields_one_by_one() {
        let fields: &UsualFields = &USUAL_FIELDS;
        let mut joined = CsvRows::reusing(Vec::new(), 0);
        joined.usual(fields);
        joined.end_record();
        let mut each = CsvRows::reusing(Vec::new(), 0);
        fields.write_each(&mut each);
        each.end_record();
        assert_eq!(joined.into_bytes(), each.into_bytes());
    }
}
