//! Opening tables (`--openings`): arbitrary text never panics; a table
//! that reads names no line deeper than its depth, and the duplicate
//! detector takes any line string without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::duplicates::{Detector, DuplicateOptions, Entry};
use pgnmill::openings::{OpeningBook, TableKind};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(book) = OpeningBook::from_tables(&[("fuzz.tsv", &text)]) {
        assert!(book.depth(TableKind::Chess) as usize <= text.len());
    }
    let mut detector = Detector::new(DuplicateOptions::default());
    let key = pgnmill::replay::line::xxh3_128(data);
    detector.push(&Entry {
        line_key: Some(key),
        end_key: Some(key),
        line: Some(data),
        ..Entry::default()
    });
    detector.probe(0, data);
    let _ = detector.finish();
});
