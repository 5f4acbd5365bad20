//! The rows of one chunk as typed columns for a Parquet row group
//! ([`ArrowRows`]), in plain buffers of our own: an integer column is a
//! `Vec` that becomes its Arrow array at the end without a copy, and a
//! text column is the body of a PLAIN Parquet page (each value's length
//! as 4 bytes little-endian, then its bytes), which
//! [`super::text_pages`] compresses as it is. The Arrow builders cost
//! about twice as much a value (capacity checks in their buffers, a null
//! mask kept for columns that are never null), an Arrow text array would
//! be copied once more into the page, and this runs for every field of
//! every game.

use super::column::{Column, ColumnType};
use super::csv_rows::clean_text;
use super::rows::{FieldSink, UsualFields};
use crate::replay::line::Key128;
use crate::simd::quote::has_control;
use arrow_array::builder::BooleanBufferBuilder;
use arrow_array::{ArrayRef, BooleanArray, FixedSizeBinaryArray, Int32Array, Int64Array};
use arrow_buffer::{BooleanBuffer, NullBuffer, ScalarBuffer};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One column's values as they are pushed.
enum ColumnBuf {
    /// A PLAIN page body: per value, its length (u32 little-endian)
    /// and its UTF-8 bytes.
    Text(Vec<u8>),
    Int64(Vec<i64>),
    /// Values, [`NULL_INT32`] where null: one push a value, the null
    /// mask made at the end in one pass (a mask kept as the values come
    /// cost more than the values, a bit and a length check each).
    Int32(Vec<i32>),
    Bool(BooleanBufferBuilder),
    /// 16 bytes a value (zeros where null) and whether each is there.
    Key128(Vec<u8>, BooleanBufferBuilder),
}

/// An `Int32` field that is absent: counts are clamped to `i32::MAX`,
/// and the values that may be negative (times, evaluations) stay within
/// ±(2^31 - 1) ([`FieldSink::int32_signed`]).
const NULL_INT32: i32 = i32::MIN;

/// The `Int32` array of `values`, null where [`NULL_INT32`] (there 0), and
/// without a null mask if none is.
fn int32_array(mut values: Vec<i32>) -> Int32Array {
    let nulls = values.contains(&NULL_INT32).then(|| {
        let valid = BooleanBuffer::collect_bool(values.len(), |i| values[i] != NULL_INT32);
        for v in values.iter_mut().filter(|v| **v == NULL_INT32) {
            *v = 0;
        }
        NullBuffer::new(valid)
    });
    Int32Array::new(ScalarBuffer::from(values), nulls)
}

/// How many bytes a row each text column of a table needs, learnt from
/// the chunks encoded so far, so that the next chunk's buffers are sized
/// once instead of doubling and being copied as they fill. Before the
/// first chunk, a guess from the column's name.
pub struct TextRoom {
    per_row: Vec<AtomicUsize>,
}

/// About the bytes of a text value with its 4-byte length: most are short
/// words or empty, the names longer, and `source` (the input's path) and
/// `event` longer than 16 on the bench corpus, which cost their buffers
/// two copies in the first chunk. Room reserved and not written costs no
/// memory.
const TEXT_BYTES_HINT: usize = 32;

/// A FEN of the middle or end of a game: 45 to 60 bytes.
const FEN_BYTES_HINT: usize = 64;

/// The UCI or ICCS main line (`--moves`): five bytes a ply, about 80 plies.
const MOVES_BYTES_HINT: usize = 512;

impl TextRoom {
    pub fn new(columns: &[Column]) -> Self {
        let per_row = columns
            .iter()
            .map(|c| {
                let guess = match (c.kind, c.name.as_ref()) {
                    (ColumnType::Text, "final_fen" | "final_fen_ep_legal") => FEN_BYTES_HINT,
                    (ColumnType::Text, "moves") => MOVES_BYTES_HINT,
                    (ColumnType::Text, _) => TEXT_BYTES_HINT,
                    _ => 0,
                };
                AtomicUsize::new(guess)
            })
            .collect();
        TextRoom { per_row }
    }

    fn bytes(&self, column: usize, rows: usize) -> usize {
        self.per_row
            .get(column)
            .map_or(0, |b| b.load(Ordering::Relaxed))
            .saturating_mul(rows)
    }

    /// Notes that a column held `bytes` bytes in `rows` rows; the next
    /// chunk gets a quarter more a row, for chunks whose games differ.
    fn learn(&self, column: usize, bytes: usize, rows: usize) {
        if let (Some(at), Some(per_row)) = (self.per_row.get(column), bytes.checked_div(rows)) {
            at.store(per_row + per_row / 4 + 1, Ordering::Relaxed);
        }
    }
}

/// The rows of one chunk as typed columns: a [`FieldSink`] that puts each
/// field into the next column. A field of the wrong type (a row writer out
/// of step with the column table) is noted, never a panic, and fails the
/// encoding.
pub struct ArrowRows {
    columns: Vec<ColumnBuf>,
    next: usize,
    rows: usize,
    mismatch: Option<String>,
}

impl ArrowRows {
    /// Columns with room for `rows` rows of `columns` (text: as much as
    /// `room` says), so that they are not copied as they grow.
    pub fn new(columns: &[Column], rows: usize, room: &TextRoom) -> Self {
        let columns = columns
            .iter()
            .enumerate()
            .map(|(at, c)| match c.kind {
                ColumnType::Int64 => ColumnBuf::Int64(Vec::with_capacity(rows)),
                ColumnType::Int32 => ColumnBuf::Int32(Vec::with_capacity(rows)),
                ColumnType::Bool => ColumnBuf::Bool(BooleanBufferBuilder::new(rows)),
                ColumnType::Key128 => ColumnBuf::Key128(
                    Vec::with_capacity(16 * rows),
                    BooleanBufferBuilder::new(rows),
                ),
                ColumnType::Text => ColumnBuf::Text(Vec::with_capacity(room.bytes(at, rows))),
            })
            .collect();
        ArrowRows {
            columns,
            next: 0,
            rows: 0,
            mismatch: None,
        }
    }

    /// Whether no row was pushed (a chunk whose games were all filtered
    /// out).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The rows pushed so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// The next column; notes a row longer than the table.
    #[inline(always)]
    fn column(&mut self) -> Option<&mut ColumnBuf> {
        let at = self.next;
        self.next += 1;
        if at >= self.columns.len() {
            self.too_long(at);
        }
        self.columns.get_mut(at)
    }

    /// Notes a row with more fields than the table, the `at`th among them.
    #[cold]
    fn too_long(&mut self, at: usize) {
        if self.mismatch.is_none() {
            self.mismatch = Some(format!("a row has more than {at} fields"));
        }
    }

    #[cold]
    fn wrong_type(&mut self, kind: &str) {
        if self.mismatch.is_none() {
            self.mismatch = Some(format!("field {} is not {kind}", self.next));
        }
    }

    /// Ends the current row; notes a row shorter than the table.
    pub fn end_record(&mut self) {
        if self.next != self.columns.len() && self.mismatch.is_none() {
            self.mismatch = Some(format!(
                "a row has {} fields, not {}",
                self.next,
                self.columns.len()
            ));
        }
        self.next = 0;
        self.rows += 1;
    }

    /// The columns in order, what `room` learns for the next chunk, and
    /// how many rows they hold. Fails on a row out of step with the table.
    pub fn finish(self, room: &TextRoom) -> Result<(Vec<Finished>, usize), String> {
        if let Some(why) = self.mismatch {
            return Err(why);
        }
        let rows = self.rows;
        let columns = self
            .columns
            .into_iter()
            .enumerate()
            .map(|(at, column)| match column {
                ColumnBuf::Text(body) => {
                    room.learn(at, body.len(), rows);
                    Finished::Text(body)
                }
                ColumnBuf::Int64(values) => Finished::Array(Arc::new(Int64Array::from(values))),
                ColumnBuf::Int32(values) => Finished::Array(Arc::new(int32_array(values))),
                ColumnBuf::Bool(mut values) => {
                    Finished::Array(Arc::new(BooleanArray::new(values.finish(), None)))
                }
                ColumnBuf::Key128(values, mut present) => {
                    let present = present.finish();
                    let nulls = (present.count_set_bits() < present.len())
                        .then(|| NullBuffer::new(present));
                    Finished::Array(Arc::new(FixedSizeBinaryArray::new(
                        16,
                        values.into(),
                        nulls,
                    )))
                }
            })
            .collect();
        Ok((columns, rows))
    }
}

/// A finished column: an Arrow array for the parquet crate to encode, or
/// a text column's PLAIN page body (a value per row).
pub enum Finished {
    Array(ArrayRef),
    Text(Vec<u8>),
}

impl ColumnBuf {
    /// Appends a text value; `false` if this is not a text column.
    #[inline(always)]
    fn push_text(&mut self, value: &str) -> bool {
        match self {
            ColumnBuf::Text(body) => {
                // A length past 4 GiB wraps, in a column past the 2 GiB
                // that `text_pages` refuses.
                body.extend_from_slice(&(value.len() as u32).to_le_bytes());
                body.extend_from_slice(value.as_bytes());
                true
            }
            _ => false,
        }
    }

    /// Appends a nullable integer (never [`NULL_INT32`], see
    /// [`FieldSink::int32_signed`]); `false` if this is not an `Int32`
    /// column.
    #[inline(always)]
    fn push_int32(&mut self, value: Option<i32>) -> bool {
        match self {
            ColumnBuf::Int32(values) => {
                values.push(value.unwrap_or(NULL_INT32));
                true
            }
            _ => false,
        }
    }
}

/// Inlined into the row writer ([`super::columns::write_game_fields`]),
/// as the CSV writer's methods are: a call per field costs more than the
/// push itself.
impl FieldSink for ArrowRows {
    #[inline(always)]
    fn text(&mut self, value: &str) {
        // Control bytes are written as U+FFFD, as in the CSV file. Most
        // fields have none, which the vector test says without a call.
        let fits = match self.column() {
            Some(c) if has_control(value.as_bytes()) => c.push_text(&clean_text(value)),
            Some(c) => c.push_text(value),
            None => true,
        };
        if !fits {
            self.wrong_type("text");
        }
    }

    /// Known to hold no control byte (FENs, fixed words): no scan.
    #[inline(always)]
    fn plain_text(&mut self, value: &str) {
        let fits = match self.column() {
            Some(c) => c.push_text(value),
            None => true,
        };
        if !fits {
            self.wrong_type("text");
        }
    }

    #[inline(always)]
    fn int64(&mut self, value: u64) {
        match self.column() {
            Some(ColumnBuf::Int64(v)) => v.push(i64::try_from(value).unwrap_or(i64::MAX)),
            Some(_) => self.wrong_type("int64"),
            None => {}
        }
    }

    /// The usual run of columns taken at once, without a look-up per
    /// field.
    fn usual(&mut self, usual: &UsualFields) {
        let at = self.next;
        let n = usual.fields.len();
        self.next += n;
        let Some(columns) = self.columns.get_mut(at..at + n) else {
            self.too_long(at);
            return;
        };
        let mut fits = true;
        for (column, &(kind, field)) in columns.iter_mut().zip(usual.fields) {
            fits &= match kind {
                ColumnType::Int32 => column.push_int32(None),
                _ => column.push_text(field),
            };
        }
        if !fits {
            self.wrong_type("the usual columns' types");
        }
    }

    /// A count past `i32::MAX` is clamped to it.
    #[inline(always)]
    fn int32(&mut self, value: Option<u32>) {
        self.int32_signed(value.map(|v| i32::try_from(v).unwrap_or(i32::MAX)));
    }

    #[inline(always)]
    fn int32_signed(&mut self, value: Option<i32>) {
        let fits = match self.column() {
            Some(c) => c.push_int32(value),
            None => true,
        };
        if !fits {
            self.wrong_type("int32");
        }
    }

    #[inline(always)]
    fn boolean(&mut self, value: bool) {
        match self.column() {
            Some(ColumnBuf::Bool(b)) => b.append(value),
            Some(_) => self.wrong_type("boolean"),
            None => {}
        }
    }

    #[inline(always)]
    fn table_text(&mut self, (value, _): (&str, &str)) {
        self.plain_text(value);
    }

    #[inline(always)]
    fn key128(&mut self, value: Option<&Key128>) {
        match self.column() {
            Some(ColumnBuf::Key128(values, present)) => {
                values.extend_from_slice(value.unwrap_or(&[0; 16]));
                present.append(value.is_some());
            }
            Some(_) => self.wrong_type("key128"),
            None => {}
        }
    }

    fn end_record(&mut self) {
        ArrowRows::end_record(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use std::borrow::Cow;

    /// The values of a PLAIN page body, read as the Parquet format
    /// describes it: a 4-byte little-endian length, then the bytes.
    fn plain_values(body: &[u8]) -> Vec<String> {
        let mut values = Vec::new();
        let mut rest = body;
        while let Some((len, tail)) = rest.split_first_chunk::<4>() {
            let (value, tail) = tail.split_at(u32::from_le_bytes(*len) as usize);
            values.push(String::from_utf8(value.to_vec()).unwrap());
            rest = tail;
        }
        assert!(rest.is_empty());
        values
    }

    fn array(column: &Finished) -> &ArrayRef {
        match column {
            Finished::Array(a) => a,
            Finished::Text(_) => panic!("a text column"),
        }
    }

    fn table() -> Vec<Column> {
        [
            ("t", ColumnType::Text),
            ("n", ColumnType::Int64),
            ("p", ColumnType::Int32),
            ("b", ColumnType::Bool),
        ]
        .into_iter()
        .map(|(name, kind)| Column {
            name: Cow::Borrowed(name),
            kind,
            doc: "",
        })
        .collect()
    }

    /// Each value lands in its column as pushed: text cut where each
    /// value ends (empty ones included, control bytes as U+FFFD), nulls
    /// where the field was absent, and no null mask on a column without
    /// a null.
    #[test]
    fn values_come_back_from_the_arrays() {
        let columns = table();
        let room = TextRoom::new(&columns);
        let mut rows = ArrowRows::new(&columns, 1, &room);
        for (text, n, p, b) in [
            ("Réti", 7, Some(3), true),
            ("", 0, None, false),
            ("a\u{7}b", u64::MAX, Some(u32::MAX), true),
        ] {
            rows.text(text);
            rows.int64(n);
            rows.int32(p);
            rows.boolean(b);
            rows.end_record();
        }
        let (columns, count) = rows.finish(&room).unwrap();
        assert_eq!(count, 3);
        let Finished::Text(body) = &columns[0] else {
            panic!("not a text column")
        };
        assert_eq!(plain_values(body), ["Réti", "", "a\u{fffd}b"]);
        let n = array(&columns[1])
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        assert_eq!(n.values().to_vec(), [7, 0, i64::MAX]);
        assert!(n.nulls().is_none());
        let p = array(&columns[2])
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [Some(3), None, Some(i32::MAX)]
        );
        assert_eq!(p.values()[1], 0, "a null's slot holds 0");
        let b = array(&columns[3])
            .as_any()
            .downcast_ref::<BooleanArray>()
            .unwrap();
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            [Some(true), Some(false), Some(true)]
        );
        // What the next chunk's text buffer is sized from: 10 bytes and
        // three lengths in 3 rows (7 a row, rounded down), a quarter more
        // (one) and one.
        assert_eq!(room.bytes(0, 1), 9);
    }

    /// An Int32 column without a null has no null mask either.
    #[test]
    fn a_column_without_nulls_has_no_mask() {
        let columns = table();
        let room = TextRoom::new(&columns);
        let mut rows = ArrowRows::new(&columns, 2, &room);
        rows.text("x");
        rows.int64(1);
        rows.int32(Some(1));
        rows.boolean(false);
        rows.end_record();
        let (columns, _) = rows.finish(&room).unwrap();
        assert!(array(&columns[2]).nulls().is_none());
    }

    /// A row out of step with the table is an error, not a panic.
    #[test]
    fn rows_out_of_step_are_noted() {
        let columns = table();
        let room = TextRoom::new(&columns);
        let finish = |push: &dyn Fn(&mut ArrowRows)| {
            let mut rows = ArrowRows::new(&columns, 1, &room);
            push(&mut rows);
            rows.end_record();
            rows.finish(&room).err()
        };
        let wrong = finish(&|r| {
            r.text("x");
            r.text("y");
            r.int32(None);
            r.boolean(true);
        });
        assert_eq!(wrong.as_deref(), Some("field 2 is not text"));
        let short = finish(&|r| r.text("x"));
        assert_eq!(short.as_deref(), Some("a row has 1 fields, not 4"));
        let long = finish(&|r| {
            r.text("x");
            r.int64(1);
            r.int32(None);
            r.boolean(true);
            r.text("extra");
        });
        assert_eq!(long.as_deref(), Some("a row has more than 4 fields"));
        let usual = finish(&|r| r.usual(&crate::report::columns::USUAL_FIELDS));
        assert!(usual.is_some());
    }
}
