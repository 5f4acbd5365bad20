//! The bytes of one `games.csv` record, written field by field.
//!
//! Every game gets a row of 24 fields, and the csv crate's writer spends
//! about 200 instructions a field on its buffer and quoting state machine:
//! on a one-thread report that was 6% of all the work. Most fields are
//! numbers, FENs and fixed words that never need quoting; the rest are
//! short tag values. A control byte (below 0x20 but tab, or 0x7f: a NUL
//! of a binary file read as text, a stray line end) never reaches a field:
//! it is written as U+FFFD (`docs/reports.md`, "Control bytes"). Otherwise
//! this writer follows the csv crate's default dialect exactly (`,` between fields, `\n` after a record, a field quoted only
//! when it holds `,`, `"`, `\r` or `\n`, with `"` doubled inside quotes); a
//! test holds it equal to the csv crate's output for arbitrary fields, and
//! the crate still writes the header and `castling.csv`.

use crate::simd::quote::{has_control, needs_quotes};

/// A byte that never reaches a CSV field: C0 controls but tab, and DEL.
#[inline]
pub(crate) const fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

/// [`BYTE_KIND`] of a control byte ([`is_control`]).
const CONTROL: u8 = 1;
/// [`BYTE_KIND`] of `,`.
const COMMA: u8 = 2;
/// [`BYTE_KIND`] of `"`.
const QUOTE: u8 = 4;

/// What each byte is to [`CsvRows::careful`]: [`CONTROL`], [`COMMA`],
/// [`QUOTE`] or nothing (0).
static BYTE_KIND: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        if is_control(b as u8) {
            t[b] = CONTROL;
        }
        b += 1;
    }
    t[b',' as usize] = COMMA;
    t[b'"' as usize] = QUOTE;
    t
};

/// `field` with every control byte ([`is_control`]) written as U+FFFD.
pub(crate) fn replace_controls(field: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(field.len() + 8);
    for &b in field {
        if is_control(b) {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

/// `text` with every control byte written as U+FFFD, for the fields the
/// csv crate writes (`castling.csv`).
pub(crate) fn clean_text(text: &str) -> std::borrow::Cow<'_, str> {
    // The vector test stops at every control byte (and at tab, which needs
    // the slower look): most fields pass it at once.
    if !has_control(text.as_bytes()) || !text.bytes().any(is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    // Replacing ASCII bytes by a whole character keeps the text UTF-8.
    String::from_utf8_lossy(&replace_controls(text.as_bytes()))
        .into_owned()
        .into()
}

/// Appends CSV records to a byte buffer.
#[derive(Debug, Default)]
pub struct CsvRows {
    buf: Vec<u8>,
    /// Where the current record starts in `buf`. Every field is written
    /// with a `,` after it, and the record's end turns the last one into
    /// the line end: a store per field, not a test of whether it is the
    /// first.
    record_start: usize,
}

impl CsvRows {
    #[cfg(test)]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// A writer whose buffer holds `bytes` before it has to grow.
    #[cfg(test)]
    pub fn with_capacity(bytes: usize) -> Self {
        Self::reusing(Vec::new(), bytes)
    }

    /// Records written into `buf`, emptied first, with room for `bytes`:
    /// a buffer handed back after an earlier chunk keeps its memory.
    pub fn reusing(mut buf: Vec<u8>, bytes: usize) -> Self {
        buf.clear();
        buf.reserve(bytes);
        CsvRows {
            buf,
            record_start: 0,
        }
    }

    /// Appends one field to the current record. The usual field, which
    /// needs no quotes, takes the inlined test and copy; the quoting is
    /// out of line.
    #[inline(always)]
    pub fn field(&mut self, field: &[u8]) {
        if needs_quotes(field) {
            self.careful(field);
        } else {
            self.buf.extend_from_slice(field);
        }
        self.buf.push(b',');
    }

    /// Appends a field that holds a quoting or a control byte: control
    /// bytes replaced, then quoted if it still needs it. Names such as
    /// `Carlsen, Magnus` come here, one field in three of some files: one
    /// pass over the bytes, a table load each and no branch, says which of
    /// the three kinds of byte the field holds.
    #[inline(never)]
    fn careful(&mut self, field: &[u8]) {
        let kinds = field
            .iter()
            .fold(0u8, |kinds, &b| kinds | BYTE_KIND[usize::from(b)]);
        if kinds & CONTROL != 0 {
            // The replacement holds no control byte: this recurses once.
            let clean = replace_controls(field);
            return self.careful(&clean);
        }
        if kinds & (COMMA | QUOTE) == 0 {
            // Tab was the only byte the fast test stopped at.
            self.buf.extend_from_slice(field);
        } else if kinds & QUOTE == 0 {
            self.buf.reserve(field.len() + 2);
            self.buf.push(b'"');
            self.buf.extend_from_slice(field);
            self.buf.push(b'"');
        } else {
            self.quoted(field);
        }
    }

    /// Appends `field` in quotes, with its quotes doubled.
    fn quoted(&mut self, field: &[u8]) {
        self.buf.reserve(field.len() + 2);
        self.buf.push(b'"');
        let mut rest = field;
        while let Some(i) = memchr::memchr(b'"', rest) {
            let (part, after) = rest.split_at(i + 1);
            self.buf.extend_from_slice(part);
            self.buf.push(b'"');
            rest = after;
        }
        self.buf.extend_from_slice(rest);
        self.buf.push(b'"');
    }

    /// Several fields at once, already joined by commas, none of which
    /// needs quotes: a common run of columns written in one copy.
    #[inline]
    pub fn plain_fields(&mut self, joined: &[u8]) {
        self.buf.extend_from_slice(joined);
        self.buf.push(b',');
    }

    /// Appends a field known to need no quoting (a number or a fixed
    /// word): the caller vouches for it, the writer does not look.
    #[inline]
    pub fn plain_field(&mut self, field: &[u8]) {
        debug_assert!(!needs_quotes(field));
        self.buf.extend_from_slice(field);
        self.buf.push(b',');
    }

    /// Ends the current record: its last field's `,` becomes the line end
    /// (a record without fields is an empty line).
    #[inline]
    pub fn end_record(&mut self) {
        let has_fields = self.buf.len() > self.record_start;
        match self.buf.last_mut() {
            Some(last) if has_fields => *last = b'\n',
            _ => self.buf.push(b'\n'),
        }
        self.record_start = self.buf.len();
    }

    /// The bytes of every record so far.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Bytes held.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Forgets every record, keeping the buffer.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.record_start = 0;
    }

    /// Moves the bytes of every record so far to the end of `out`; the
    /// writer starts afresh, its buffer kept.
    pub fn move_into(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.record_start = 0;
    }

    /// The bytes of every record so far.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::quote::{has_control_bytewise, needs_quotes_bytewise};
    use proptest::prelude::*;

    fn by_csv_crate(fields: &[Vec<u8>]) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        for f in fields {
            w.write_field(replace_controls(f)).unwrap();
        }
        w.write_record(None::<&[u8]>).unwrap();
        w.into_inner().unwrap()
    }

    proptest! {
        /// Any record of two or more fields (a games.csv row has 24) is
        /// written byte for byte as the csv crate writes it, control bytes
        /// replaced.
        #[test]
        fn records_equal_the_csv_crate(
            fields in prop::collection::vec(
                prop::collection::vec(
                    prop_oneof![
                        Just(b','), Just(b'"'), Just(b'\n'), Just(b'\r'), Just(b' '),
                        Just(b'\\'), Just(b'#'), Just(b'\''), any::<u8>(), b'a'..=b'z'
                    ],
                    0..12,
                ),
                2..8,
            )
        ) {
            let mut w = CsvRows::new();
            for f in &fields {
                w.field(f);
            }
            w.end_record();
            prop_assert_eq!(w.into_bytes(), by_csv_crate(&fields));
        }
    }

    proptest! {
        /// The word-at-a-time test answers as the byte table does, for
        /// every length up to 40 and any place of the one byte that may
        /// need quoting.
        #[test]
        fn word_test_equals_byte_test(
            fill in prop::collection::vec(b' '..=b'~', 0..40),
            at in 0usize..40,
            b in prop_oneof![Just(b','), Just(b'"'), Just(b'\n'), Just(b'\r'), any::<u8>()],
        ) {
            let mut field = fill.clone();
            if let Some(slot) = field.get_mut(at) {
                *slot = b;
            }
            prop_assert_eq!(needs_quotes(&field), needs_quotes_bytewise(&field));
            prop_assert_eq!(needs_quotes(&fill), needs_quotes_bytewise(&fill));
            prop_assert_eq!(has_control(&field), has_control_bytewise(&field));
            prop_assert_eq!(has_control(&fill), has_control_bytewise(&fill));
        }
    }

    /// Every length from 0 to 33 with each quoting byte at each place, and
    /// with none.
    #[test]
    fn word_test_finds_every_quoting_byte() {
        for len in 0..34 {
            let plain = vec![b'a'; len];
            assert!(!needs_quotes(&plain), "{len}");
            for at in 0..len {
                for b in [b',', b'"', b'\n', b'\r', 0, 0x0c, 0x1f, 0x7f, b'\t'] {
                    let mut field = plain.clone();
                    field[at] = b;
                    assert!(needs_quotes(&field), "{len} {at} {b}");
                }
                for b in [b'+', b'!', 0x80, 0xac, 0xff, b'~', b' '] {
                    let mut field = plain.clone();
                    field[at] = b;
                    assert!(!needs_quotes(&field), "{len} {at} {b}");
                }
                // The control test: the same bytes but `,` and `"`.
                for b in [b'\n', b'\r', 0, 0x0c, 0x1f, 0x7f, b'\t'] {
                    let mut field = plain.clone();
                    field[at] = b;
                    assert!(has_control(&field), "{len} {at} {b}");
                }
                for b in [b',', b'"', b'+', 0x80, 0xff, b' '] {
                    let mut field = plain.clone();
                    field[at] = b;
                    assert!(!has_control(&field), "{len} {at} {b}");
                }
            }
        }
    }

    #[test]
    fn quotes_are_doubled_inside_quotes() {
        let mut w = CsvRows::new();
        w.field(b"Ev, \"quoted\"");
        w.plain_field(b"12");
        w.end_record();
        w.field(b"");
        w.field(b"\"");
        w.end_record();
        let fields = |a: &[u8], b: &[u8]| vec![a.to_vec(), b.to_vec()];
        let mut expected = by_csv_crate(&fields(b"Ev, \"quoted\"", b"12"));
        expected.extend(by_csv_crate(&fields(b"", b"\"")));
        assert_eq!(w.into_bytes(), expected);
    }
}
