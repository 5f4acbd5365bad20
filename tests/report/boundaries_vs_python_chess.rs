//! Game boundaries and broken movetext of issues 28 and 29 through the
//! binary: every file of `testdata/pgn/boundaries/` gives the rows of its
//! `expected.csv`, written by `testdata/gen/boundaries_expected.py` from
//! python-chess 1.11.2 reading each game of the file alone (see the script
//! for the two kinds of row the dialect decides instead: stray text, and a
//! tag value broken across lines). Tag-only games after one blank line,
//! games on one line with and without tags, CRLF, a tag-only game last in
//! the file, tokens that are no move, and broken tag values: one row per
//! game, with its tags, status, plies, final position and error.

use crate::support;

use std::collections::BTreeMap;
use support::{read_csv, root, run_report};

#[test]
fn every_boundary_case_gives_python_chess_rows() {
    let dir = root().join("testdata/pgn/boundaries");
    let expected = read_csv(&dir.join("expected.csv"));
    let mut by_file: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for row in expected {
        by_file.entry(row["file"].clone()).or_default().push(row);
    }
    assert!(by_file.len() >= 11, "{:?}", by_file.keys());
    let mut mismatches = Vec::new();
    for (file, want) in &by_file {
        let input = dir.join(file);
        let (_tmp, out) = run_report(&[input.to_str().expect("utf-8 path")]);
        let got = read_csv(&out.join("games.csv"));
        if got.len() != want.len() {
            mismatches.push(format!(
                "{file}: {} rows, python-chess {}: {:?}",
                got.len(),
                want.len(),
                got.iter().map(|r| &r["error"]).collect::<Vec<_>>()
            ));
            continue;
        }
        for (g, w) in got.iter().zip(want) {
            let at = format!("{file} game {}", w["game"]);
            assert_eq!(g["game"], w["game"], "{at}");
            for col in [
                "white",
                "black",
                "event",
                "round",
                "status",
                "plies",
                "final_fen",
            ] {
                if g[col] != w[col] {
                    mismatches.push(format!(
                        "{at} {col}: ours {:?}, expected {:?} ({})",
                        g[col], w[col], g["error"]
                    ));
                }
            }
            let error_ok = if w["error_contains"].is_empty() {
                g["status"] != "ok" || g["error"].is_empty()
            } else {
                g["error"].contains(&w["error_contains"])
            };
            if !error_ok {
                mismatches.push(format!(
                    "{at} error: {:?} lacks {:?}",
                    g["error"], w["error_contains"]
                ));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
