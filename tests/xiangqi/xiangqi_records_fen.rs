//! Xiangqi record files (XQF, CCBridge CBR/CBL/CBF, DhtmlXQ) through
//! `pgnmill fen`: one row per record, its start position, against
//! testdata/xiangqi/records-expected.json (start board decoded by cchess,
//! DhtmlXQ by the generator's own reading; legal moves and check of the
//! start by pyffish: testdata/gen/xiangqi_records_expected.py).

use crate::support::root;
use crate::xiangqi_records::{chapter_heading, record};
use std::collections::HashMap;

const DIR: &str = "testdata/xiangqi/records";
/// The standard start, as pyffish writes it (the oracle's `""`).
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

type Row = HashMap<String, String>;

/// The rows and the stderr of `pgnmill fen ARGS`, which must succeed.
fn fen(args: &[&str], stdin: Option<&std::path::Path>) -> (Vec<Row>, String) {
    let mut cmd = assert_cmd::Command::cargo_bin("pgnmill").unwrap();
    cmd.current_dir(root()).arg("fen").args(args);
    if let Some(path) = stdin {
        cmd.pipe_stdin(path).unwrap();
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let mut csv = csv::Reader::from_reader(&out.stdout[..]);
    (csv.deserialize().map(|r| r.unwrap()).collect(), stderr)
}

fn file_name(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

#[test]
fn every_record_of_the_folder_is_one_row_with_the_oracles_start_position() {
    let text = std::fs::read_to_string(root().join("testdata/xiangqi/records-expected.json"))
        .expect("expected values");
    let expected: Vec<serde_json::Value> = serde_json::from_str(&text).expect("json");
    assert!(expected.len() >= 340, "{} expected games", expected.len());
    let (rows, stderr) = fen(&[DIR], None);
    assert_eq!(rows.len(), expected.len(), "one row per record, no more");
    // The oracle lists the files in name order and the records in file
    // order, as the folder search and the readers do.
    let mut formats = std::collections::BTreeSet::new();
    for (row, e) in rows.iter().zip(&expected) {
        let file = e["file"].as_str().unwrap();
        let at = format!("{file}#{}", e["game"]);
        assert_eq!(file_name(&row["source"]), file, "{at}: order");
        assert_eq!(row["game"], e["game"].to_string(), "{at}: game");
        let start = match e["start_fen"].as_str().unwrap() {
            "" => START,
            fen => fen,
        };
        assert_eq!(row["status"], "ok", "{at}: {}", row["error"]);
        assert_eq!(row["variant"], "xiangqi", "{at}");
        assert_eq!(row["input"], start, "{at}: input");
        assert_eq!(row["fen"], start, "{at}: fen");
        assert_eq!(row["fen_ep_legal"], start, "{at}");
        assert_eq!(
            row["legal_moves"],
            e["start_legal_moves"].to_string(),
            "{at}: legal moves"
        );
        assert_eq!(row["check"], e["start_check"].to_string(), "{at}: check");
        let ext = file.rsplit('.').next().unwrap().to_ascii_lowercase();
        if ["xqf", "cbr", "cbl", "cbf"].contains(&ext.as_str()) {
            assert_eq!(row["line"], "1", "{at}: a binary file has one line");
        }
        formats.insert(ext);
    }
    for f in ["xqf", "cbr", "cbl", "cbf", "ubb", "txt", "html"] {
        assert!(formats.contains(f), "no {f} file checked");
    }
    assert!(
        stderr.contains("packed-zlib-v3-unsupported.CBL: CCBridge packed library"),
        "{stderr}"
    );
    assert!(
        stderr.contains("349 records (349 ok, 0 bad_fen)"),
        "{stderr}"
    );
}

#[test]
fn headings_and_damaged_records_are_rows_that_say_why() {
    // A library whose last record is cut inside its header (14 records).
    let mut library = record("walker8088-cbl-lin-xingrong-14-records.CBL");
    let magic = b"CCBridge Record\0";
    let last = library
        .windows(magic.len())
        .rposition(|w| w == magic)
        .unwrap();
    library.truncate(last + 1000);
    let heading = chapter_heading();
    // Moves cut short: the start position is whole.
    let mut cut = record("walker8088-v12-juzhongmi-endgame-black-moves-first.xqf");
    cut.truncate(cut.len() - 40);
    // A header that cannot be used: no row, a warning.
    let mut header = record("test2.xqf");
    header.truncate(500);
    let tmp = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("a-library.cbl", library),
        ("b-heading.cbr", heading),
        ("c-cut.xqf", cut),
        ("d-header.xqf", header),
    ] {
        std::fs::write(tmp.path().join(name), bytes).unwrap();
    }
    let (rows, stderr) = fen(&[tmp.path().to_str().unwrap()], None);
    let names: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (file_name(&r["source"]), r["game"].as_str()))
        .collect();
    let mut want: Vec<(&str, String)> =
        (1..=14).map(|i| ("a-library.cbl", i.to_string())).collect();
    want.push(("b-heading.cbr", "1".into()));
    want.push(("c-cut.xqf", "1".into()));
    let want: Vec<(&str, &str)> = want.iter().map(|(f, g)| (*f, g.as_str())).collect();
    assert_eq!(names, want);
    assert!(rows[..13].iter().all(|r| r["status"] == "ok"));
    let (broken, heading, cut) = (&rows[13], &rows[14], &rows[15]);
    assert_eq!(broken["status"], "unsupported");
    assert!(broken["error"].contains("cut short"), "{}", broken["error"]);
    assert_eq!((broken["fen"].as_str(), broken["input"].as_str()), ("", ""));
    assert_eq!(heading["status"], "unsupported");
    assert!(
        heading["error"].contains("chapter-heading"),
        "{}",
        heading["error"]
    );
    assert_eq!(cut["status"], "ok", "{}", cut["error"]);
    assert_eq!(
        cut["fen"], "3a2b2/2R1a4/5k2b/9/9/9/9/9/9/4K4 b - - 0 1",
        "the oracle's start of the uncut file"
    );
    // Cut inside its header: a damaged input, with no row; the library,
    // cut inside its 14th record, is one too (docs/xiangqi-formats.md).
    assert!(
        stderr.contains("d-header.xqf: XQF header cut short: 500 bytes, 1024 needed: no game of it could be read"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a-library.cbl: the library breaks off in its record 14 (byte 155200)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("(14 ok, 0 bad_fen, 2 unsupported)"),
        "{stderr}"
    );
}

#[test]
fn a_dhtmlxq_page_on_standard_input_is_read_like_the_file() {
    let file = "chasoft-dhtmlxq-endgame-binit-black-moves-first.txt";
    let (rows, _) = fen(&["-"], Some(&root().join(DIR).join(file)));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["source"], "-");
    assert_eq!(
        rows[0]["fen"],
        "4ka3/4a4/4b4/r8/1Pb1P4/8R/8P/4B4/4A4/3A1KB2 b - - 0 1"
    );
    assert_eq!(rows[0]["game"], "1");
}
