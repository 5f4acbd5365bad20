//! `line_key` and the end key of xiangqi games through the library against
//! pyffish 0.0.90 and the `xxhash` package (testdata/gen/duplicates_expected.py,
//! testdata/duplicates/xiangqi-line-keys.csv): the first 150 games of each
//! ICCS master collection of testdata/xiangqi/outcomes.

use pgnmill::pgn::split_all;
use pgnmill::replay::line::key_hex;
use pgnmill::replay::{ReplayOptions, replay_game};

use crate::support::root;

#[test]
fn xiangqi_line_keys_match_pyffish() {
    let csv = root().join("testdata/duplicates/xiangqi-line-keys.csv");
    let mut reader = csv::Reader::from_path(&csv).expect("expected keys");
    let mut checked = 0;
    let mut files: std::collections::HashMap<String, Vec<u8>> = Default::default();
    // The end key is computed for `--duplicates` only.
    let mut options = ReplayOptions::default();
    options.curation.duplicates = true;
    for row in reader.records() {
        let row = row.expect("row");
        let bytes = files.entry(row[0].to_string()).or_insert_with(|| {
            std::fs::read(root().join("testdata/xiangqi/outcomes").join(&row[0])).expect("file")
        });
        let number: usize = row[1].parse().expect("game number");
        let span = split_all(bytes, false)[number - 1];
        let start = span.offset as usize;
        let record = replay_game(&bytes[start..start + span.len], span.line, &options);
        let line = &record.curation.line;
        assert_eq!(
            (
                line.key.as_ref().map(key_hex),
                line.end_key.as_ref().map(key_hex)
            ),
            (Some(row[2].to_string()), Some(row[3].to_string())),
            "{}:{number}",
            &row[0]
        );
        checked += 1;
    }
    assert_eq!(checked, 300);
}
