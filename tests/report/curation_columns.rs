//! The curator's columns of games.csv and games.parquet (`line_key`, `eco`,
//! `opening`, `opening_ply`, `opening_conflict`), through the binary,
//! against the oracles' expected files: python-chess 1.11.2 implementing
//! lichess's rule over the compiled-in table
//! (testdata/gen/openings_expected.py → testdata/expected/openings.csv),
//! python-chess and the `xxhash` package for the keys
//! (testdata/gen/duplicates_expected.py → testdata/duplicates/
//! cases-expected.csv), pyffish for xiangqi keys
//! (testdata/duplicates/xiangqi-line-keys.csv), and the `[ECO]` and
//! `[Opening]` tags lichess wrote with its table of the month.

use crate::support::{read_csv, root, run_report};
use std::collections::HashMap;

/// Rows of a games.csv by (source, game).
fn by_game(
    rows: Vec<HashMap<String, String>>,
) -> HashMap<(String, String), HashMap<String, String>> {
    rows.into_iter()
        .map(|r| ((r["source"].clone(), r["game"].clone()), r))
        .collect()
}

/// Every game of testdata/corpus gets the opening python-chess gives it
/// by lichess's rule with the compiled-in table.
#[test]
fn openings_of_the_corpus_are_python_chess_s() {
    let (_tmp, out) = run_report(&["testdata/corpus"]);
    let got = by_game(read_csv(&out.join("games.csv")));
    let want = read_csv(&root().join("testdata/expected/openings.csv"));
    assert!(want.len() > 4000);
    let mut wrong = Vec::new();
    for w in &want {
        let key = (w["source"].clone(), w["game"].clone());
        let Some(g) = got.get(&key) else {
            wrong.push(format!("{key:?}: no row"));
            continue;
        };
        for column in ["eco", "opening", "opening_ply", "opening_conflict"] {
            if g[column] != w[column] {
                wrong.push(format!(
                    "{key:?} {column}: got {:?}, python-chess {:?}",
                    g[column], w[column]
                ));
            }
        }
    }
    assert_eq!(got.len(), want.len(), "games");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// With lichess's table of April 2025 (`--openings`, five files), the May
/// 2025 games are named as lichess named them in their tags, and
/// summary.json says which table named them.
#[test]
fn openings_given_name_lichess_games_as_lichess_did() {
    let dir = "testdata/openings/lichess-2025-04-13";
    let tables: Vec<String> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|f| format!("{dir}/{f}.tsv"))
        .collect();
    let mut args = vec![
        "testdata/corpus/lichess-2025-05-blitz-sample.pgn",
        "--tags",
        "ECO,Opening",
    ];
    for t in &tables {
        args.extend(["--openings", t.as_str()]);
    }
    let (_tmp, out) = run_report(&args);
    let rows = read_csv(&out.join("games.csv"));
    assert_eq!(rows.len(), 438);
    for r in &rows {
        // The tags keep their columns `ECO` and `Opening` beside the
        // computed `eco` and `opening`; lichess writes `?` for a game its
        // table does not name, pgnmill nothing.
        let recorded = |tag: &str| match r[tag].as_str() {
            "?" => String::new(),
            value => value.to_string(),
        };
        assert_eq!(
            (&r["eco"], &r["opening"]),
            (&recorded("ECO"), &recorded("Opening")),
            "game {}",
            r["game"]
        );
        assert_eq!(r["opening_conflict"], "", "game {}", r["game"]);
    }
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("summary");
    assert_eq!(summary["options"]["openings_table"], "--openings");
    assert_eq!(
        summary["options"]["openings"].as_array().map(Vec::len),
        Some(5)
    );
    // The compiled-in table, newer, names 11 of them otherwise.
    let (_tmp, out) = run_report(&["testdata/corpus/lichess-2025-05-blitz-sample.pgn"]);
    let rows = read_csv(&out.join("games.csv"));
    let conflicts = rows
        .iter()
        .filter(|r| !r["opening_conflict"].is_empty())
        .count();
    assert_eq!(conflicts, 11);
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("summary.json")).expect("summary.json"),
    )
    .expect("summary");
    assert_eq!(
        summary["options"]["openings_table"],
        format!(
            "lichess-org/chess-openings {}",
            pgnmill::openings::COMPILED_IN_COMMIT
        )
    );
}

/// A table that cannot be read stops the run before anything is written,
/// naming the file and line.
#[test]
fn a_bad_openings_table_is_refused_with_its_line() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let table = tmp.path().join("bad.tsv");
    std::fs::write(&table, "A00\tx\t1. e4 e5\nA01\ty\t1. e4 e5 2. Qh6\n").expect("write");
    let out = tmp.path().join("report");
    let assert = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .current_dir(root())
        .args(["report", "-q", "-o"])
        .arg(&out)
        .arg("--openings")
        .arg(&table)
        .arg("testdata/corpus/lichess-2025-05-blitz-sample.pgn")
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("bad.tsv, line 2"), "{stderr}");
    assert!(!out.join("summary.json").exists());
}

/// `line_key` of every constructed case (respelled names, truncated
/// copies, `[FEN]` starts, Chess960, an illegal move) is python-chess's
/// and xxhash's, in CSV and in Parquet alike.
#[test]
fn line_keys_are_python_chess_s_in_csv_and_parquet() {
    let (_tmp, out) = run_report(&["testdata/duplicates/cases.pgn", "--format", "csv,parquet"]);
    let rows = read_csv(&out.join("games.csv"));
    // The generator's file names the cases file by its name alone.
    let want = read_csv(&root().join("testdata/duplicates/cases-expected.csv"));
    assert_eq!(rows.len(), want.len());
    let mut keyed = 0;
    for (g, w) in rows.iter().zip(&want) {
        assert_eq!(g["game"], w["game"]);
        assert_eq!(g["line_key"], w["line_key"], "game {}", g["game"]);
        keyed += usize::from(!g["line_key"].is_empty());
    }
    assert!(keyed > 10 && keyed < rows.len(), "{keyed} keys");
    let file = std::fs::File::open(out.join("games.parquet")).expect("parquet");
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("reader")
        .build()
        .expect("batches");
    let mut at = 0;
    for batch in reader {
        let batch = batch.expect("batch");
        let keys = batch
            .column_by_name("line_key")
            .expect("line_key")
            .as_any()
            .downcast_ref::<arrow_array::FixedSizeBinaryArray>()
            .expect("FixedSizeBinary(16)");
        for i in 0..arrow_array::Array::len(keys) {
            let hex: String = if arrow_array::Array::is_null(keys, i) {
                String::new()
            } else {
                keys.value(i).iter().map(|b| format!("{b:02x}")).collect()
            };
            assert_eq!(hex, rows[at]["line_key"], "row {}", at + 1);
            at += 1;
        }
    }
    assert_eq!(at, rows.len());
}

/// Xiangqi keys through the binary are pyffish's (the generator's keys of
/// testdata/xiangqi games).
#[test]
fn xiangqi_line_keys_are_pyffish_s() {
    let want = read_csv(&root().join("testdata/duplicates/xiangqi-line-keys.csv"));
    let mut files: Vec<String> = want
        .iter()
        .map(|w| format!("testdata/xiangqi/outcomes/{}", w["source"]))
        .collect();
    files.dedup();
    let args: Vec<&str> = files.iter().map(String::as_str).collect();
    let (_tmp, out) = run_report(&args);
    let got = by_game(read_csv(&out.join("games.csv")));
    let mut checked = 0;
    for w in &want {
        let source = format!("testdata/xiangqi/outcomes/{}", w["source"]);
        let key = (source, w["game"].clone());
        let g = got.get(&key).unwrap_or_else(|| panic!("{key:?}: no row"));
        assert_eq!(g["line_key"], w["line_key"], "{key:?}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}
