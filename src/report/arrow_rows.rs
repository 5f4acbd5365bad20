//! The rows of one chunk as typed columns for a Parquet row group
//! ([`ArrowRows`]), in plain buffers of our own: a text column is its bytes
//! and their offsets, an integer column a `Vec`, and each becomes its Arrow
//! array at the end without a copy. The Arrow builders cost about twice as
//! much a value (capacity checks in their buffers, a null mask kept for
//! columns that are never null), and this runs for every field of every
//! game.

use super::columns::{Column, ColumnType};
use super::csv_record::clean_text;
use super::rows::{FieldSink, PLAIN_OUTCOME};
use crate::simd::quote::has_control;
use arrow_array::builder::{BooleanBufferBuilder, NullBufferBuilder};
use arrow_array::{ArrayRef, BooleanArray, Int32Array, Int64Array, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One column's values as they are pushed.
enum ColumnBuf {
    /// UTF-8 bytes, and where each value ends (`offsets[0]` is 0).
    Text {
        bytes: Vec<u8>,
        offsets: Vec<i32>,
    },
    Int64(Vec<i64>),
    /// Values (0 where null) and which are present: the mask is only
    /// made at the first null.
    Int32 {
        values: Vec<i32>,
        valid: NullBufferBuilder,
    },
    Bool(BooleanBufferBuilder),
}

/// How many bytes a row each text column of a table needs, learnt from
/// the chunks encoded so far, so that the next chunk's buffers are sized
/// once instead of doubling and being copied as they fill. Before the
/// first chunk, a guess from the column's name.
pub struct TextRoom {
    per_row: Vec<AtomicUsize>,
}

/// About the bytes of a text value: most are short words or empty, the
/// names longer, and `source` (the input's path) and `event` longer than
/// 16 on the bench corpus, which cost their buffers two copies in the
/// first chunk. Room reserved and not written costs no memory.
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
                ColumnType::Int32 => ColumnBuf::Int32 {
                    values: Vec::with_capacity(rows),
                    valid: NullBufferBuilder::new(rows),
                },
                ColumnType::Bool => ColumnBuf::Bool(BooleanBufferBuilder::new(rows)),
                ColumnType::Text => {
                    let mut offsets = Vec::with_capacity(rows + 1);
                    offsets.push(0);
                    ColumnBuf::Text {
                        bytes: Vec::with_capacity(room.bytes(at, rows)),
                        offsets,
                    }
                }
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

    /// The columns as Arrow arrays, in order; what `room` learns for the
    /// next chunk. Fails on a row out of step with the table, or a text
    /// column too long for the 32-bit offsets of the schema's `Utf8`
    /// (2 GiB in one row group: `--moves` of huge games).
    pub fn finish(self, room: &TextRoom) -> Result<Vec<ArrayRef>, String> {
        if let Some(why) = self.mismatch {
            return Err(why);
        }
        let rows = self.rows;
        self.columns
            .into_iter()
            .enumerate()
            .map(|(at, column)| -> Result<ArrayRef, String> {
                Ok(match column {
                    ColumnBuf::Text { bytes, offsets } => {
                        room.learn(at, bytes.len(), rows);
                        Arc::new(text_array(bytes, offsets)?)
                    }
                    ColumnBuf::Int64(values) => Arc::new(Int64Array::from(values)),
                    ColumnBuf::Int32 { values, mut valid } => {
                        Arc::new(Int32Array::new(ScalarBuffer::from(values), valid.finish()))
                    }
                    ColumnBuf::Bool(mut values) => {
                        Arc::new(BooleanArray::new(values.finish(), None))
                    }
                })
            })
            .collect()
    }
}

/// A `StringArray` over `bytes`, cut at `offsets`. The offsets were taken
/// modulo 2³², so they are right only if the bytes fit an `i32`.
fn text_array(bytes: Vec<u8>, offsets: Vec<i32>) -> Result<StringArray, String> {
    if i32::try_from(bytes.len()).is_err() {
        return Err(format!(
            "a text column holds {} bytes in one row group, more than 2 GiB",
            bytes.len()
        ));
    }
    let (offsets, bytes) = (ScalarBuffer::from(offsets), Buffer::from_vec(bytes));
    // SAFETY: `bytes` is the concatenation of `&str` values, each pushed
    // whole (`ColumnBuf::push_text`), and `offsets` starts at 0 and holds
    // the length of `bytes` after each push, so they rise to `bytes.len()`,
    // the bytes are UTF-8 and every value starts and ends on a character
    // boundary: what `OffsetBuffer::new` and `StringArray::try_new` would
    // check, looking at every offset and every byte again (5 M
    // instructions of a 460 M run on 10 MB of games).
    Ok(unsafe { StringArray::new_unchecked(OffsetBuffer::new_unchecked(offsets), bytes, None) })
}

impl ColumnBuf {
    /// Appends a text value; `false` if this is not a text column.
    #[inline(always)]
    fn push_text(&mut self, value: &str) -> bool {
        match self {
            ColumnBuf::Text { bytes, offsets } => {
                bytes.extend_from_slice(value.as_bytes());
                // Wraps past 2 GiB, which `text_array` refuses.
                offsets.push(bytes.len() as i32);
                true
            }
            _ => false,
        }
    }

    /// Appends a nullable integer; `false` if this is not an `Int32` column.
    #[inline(always)]
    fn push_int32(&mut self, value: Option<u32>) -> bool {
        match self {
            ColumnBuf::Int32 { values, valid } => {
                match value {
                    Some(v) => {
                        values.push(i32::try_from(v).unwrap_or(i32::MAX));
                        valid.append_non_null();
                    }
                    None => {
                        values.push(0);
                        valid.append_null();
                    }
                }
                true
            }
            _ => false,
        }
    }
}

/// Inlined into the row writer ([`super::rows::GameRow::write_fields`]),
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

    /// The fourteen columns taken at once, without a look-up per field.
    fn plain_outcome(&mut self) {
        let at = self.next;
        self.next += PLAIN_OUTCOME.len();
        let Some(columns) = self.columns.get_mut(at..at + PLAIN_OUTCOME.len()) else {
            self.too_long(at);
            return;
        };
        let mut fits = true;
        for (column, field) in columns.iter_mut().zip(PLAIN_OUTCOME) {
            fits &= match field {
                Some(text) => column.push_text(text),
                None => column.push_int32(None),
            };
        }
        if !fits {
            self.wrong_type("the outcome columns' types");
        }
    }

    #[inline(always)]
    fn int32(&mut self, value: Option<u32>) {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use std::borrow::Cow;

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
        let arrays = rows.finish(&room).unwrap();
        let text = arrays[0].as_any().downcast_ref::<StringArray>().unwrap();
        let texts: Vec<&str> = text.iter().map(Option::unwrap).collect();
        assert_eq!(texts, ["Réti", "", "a\u{fffd}b"]);
        assert_eq!(text.null_count(), 0);
        let n = arrays[1].as_any().downcast_ref::<Int64Array>().unwrap();
        assert_eq!(n.values().to_vec(), [7, 0, i64::MAX]);
        assert!(n.nulls().is_none());
        let p = arrays[2].as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [Some(3), None, Some(i32::MAX)]
        );
        let b = arrays[3].as_any().downcast_ref::<BooleanArray>().unwrap();
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            [Some(true), Some(false), Some(true)]
        );
        // What the next chunk's text buffer is sized from: 10 bytes in 3
        // rows (3 a row, rounded down), a quarter more (none of 3) and one.
        assert_eq!(room.bytes(0, 1), 4);
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
        let arrays = rows.finish(&room).unwrap();
        assert!(arrays[2].nulls().is_none());
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
        let outcome = finish(&|r| r.plain_outcome());
        assert!(outcome.is_some());
    }
}
