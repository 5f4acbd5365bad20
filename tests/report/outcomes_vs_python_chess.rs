//! The outcome columns of docs/outcomes.md through the binary: every column
//! of every game of the sample corpus and of the constructed cases against
//! python-chess's answers (testdata/expected/outcomes.csv, written by
//! testdata/gen/outcomes_expected.py), the invariants of outcomes.md on every
//! file of testdata/, the summary figures against the same expected file,
//! and `--extract conflicts=FILE`.

use crate::support;

use std::collections::{BTreeMap, HashMap};
use support::{read_csv, root, run_report};

type Row = HashMap<String, String>;

/// The outcome columns, in games.csv order: those of the expected file
/// after its four identifying columns (source, game, status, plies).
fn outcome_columns() -> Vec<String> {
    let path = root().join("testdata/expected/outcomes.csv");
    let mut reader = csv::Reader::from_path(&path).expect("outcomes.csv");
    let header = reader.headers().expect("header").clone();
    let columns: Vec<String> = header.iter().skip(4).map(str::to_string).collect();
    assert_eq!(columns.len(), 12, "{columns:?}");
    columns
}

const CASES: &str = "testdata/chess/outcomes-cases.pgn";

fn by_key(rows: &[Row]) -> BTreeMap<(String, u64), &Row> {
    rows.iter()
        .map(|r| {
            let game = r["game"].parse().expect("game number");
            ((r["source"].clone(), game), r)
        })
        .collect()
}

fn expected() -> Vec<Row> {
    read_csv(&root().join("testdata/expected/outcomes.csv"))
}

#[test]
fn every_outcome_column_matches_python_chess() {
    let (_tmp, out) = run_report(&["testdata/corpus", CASES]);
    let ours = read_csv(&out.join("games.csv"));
    let expected = expected();
    assert!(expected.len() > 5000, "{} expected rows", expected.len());
    let ours = by_key(&ours);
    let columns = outcome_columns();
    let mut mismatches = Vec::new();
    for (k, exp) in by_key(&expected) {
        let Some(got) = ours.get(&k) else {
            mismatches.push(format!("{}#{}: no row", k.0, k.1));
            continue;
        };
        for col in ["status", "plies"]
            .into_iter()
            .chain(columns.iter().map(String::as_str))
        {
            if got[col] != exp[col] {
                mismatches.push(format!(
                    "{}#{} {col}: ours {:?}, python-chess {:?}",
                    k.0, k.1, got[col], exp[col]
                ));
            }
        }
    }
    assert_eq!(ours.len(), expected.len(), "row counts");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// The replay columns of every constructed case (final FENs, repetition
/// counts, the `--moves` list in UCI) against python-chess
/// (testdata/expected/outcomes-cases-replay.csv): the null-move cases pass
/// the turn as python-chess's `push(Move.null())` does (`0000`, the clock
/// counted on, the en-passant square cleared).
#[test]
fn the_cases_replay_like_python_chess() {
    let (_tmp, out) = run_report(&["--moves", CASES]);
    let ours = read_csv(&out.join("games.csv"));
    let expected = read_csv(&root().join("testdata/expected/outcomes-cases-replay.csv"));
    assert_eq!(ours.len(), expected.len(), "row counts");
    let nulls = expected
        .iter()
        .filter(|r| r["moves"].split(' ').any(|m| m == "0000"))
        .count();
    assert!(nulls >= 12, "{nulls} cases with a null move");
    let ours = by_key(&ours);
    let mut mismatches = Vec::new();
    for (k, exp) in by_key(&expected) {
        let got = ours[&k];
        for (col, want) in exp {
            if col != "source" && col != "game" && &got[col] != want {
                mismatches.push(format!(
                    "{}#{} {col}: ours {:?}, python-chess {want:?}",
                    k.0, k.1, got[col]
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// The constructed cases reach every value of the word columns, so that the
/// comparison above covers each of them.
#[test]
fn the_cases_cover_every_value() {
    let rows: Vec<Row> = expected()
        .into_iter()
        .filter(|r| r["source"] == CASES)
        .collect();
    for (col, values) in [
        (
            "termination",
            &["checkmate", "stalemate", "insufficient_material", "none"][..],
        ),
        (
            "game_over",
            &[
                "checkmate",
                "stalemate",
                "insufficient_material",
                "seventyfive_moves",
                "fivefold_repetition",
            ][..],
        ),
        ("mating_material", &["both", "white", "black", "none"][..]),
    ] {
        for v in values {
            assert!(rows.iter().any(|r| r[col] == *v), "no case with {col} {v}");
        }
    }
    let missed_fivefold = rows
        .iter()
        .filter(|r| !r["fivefold_ply"].is_empty() && r["fivefold_ply_ep_always"].is_empty())
        .count();
    assert!(missed_fivefold >= 2, "{missed_fivefold} missed fivefolds");
    for clause in [
        "Result tag ",
        "is checkmated",
        "is stalemate",
        "insufficient material",
        "movetext result * but",
    ] {
        assert!(
            rows.iter().any(|r| r["result_conflict"].contains(clause)),
            "no case with {clause:?}"
        );
    }
}

fn num(row: &Row, col: &str) -> Option<u32> {
    row[col].parse().ok()
}

/// docs/outcomes.md, section 5, on every row of a games.csv written with
/// `--moves` (a null move, `0000` in UCI, exempts a game from the two
/// invariants that need legal moves only).
fn check_outcome_invariants(rows: &[Row]) {
    let columns = outcome_columns();
    for row in rows {
        let at = format!("{}#{}", row["source"], row["game"]);
        if row["variant"] == "xiangqi" {
            // The xiangqi rules' columns: tests/xiangqi/xiangqi_outcomes.rs.
            continue;
        }
        let termination = row["termination"].as_str();
        if termination.is_empty() {
            for col in &columns {
                assert!(row[col].is_empty(), "{at}: {col} without a termination");
            }
            continue;
        }
        assert!(
            ["chess", "chess960"].contains(&row["variant"].as_str()),
            "{at}"
        );
        assert_eq!(
            termination == "insufficient_material",
            row["mating_material"] == "none",
            "{at}"
        );
        assert_eq!(
            row["board_result"].is_empty(),
            termination == "none",
            "{at}"
        );
        let rep = |c: &str| num(row, c).unwrap_or(0);
        assert_eq!(
            num(row, "fivefold_ply").is_some(),
            rep("rep_max_ep_legal") >= 5,
            "{at}"
        );
        assert_eq!(
            num(row, "fivefold_ply_ep_always").is_some(),
            rep("rep_max_ep_always") >= 5,
            "{at}"
        );
        if let (Some(l), Some(a)) = (num(row, "fivefold_ply"), num(row, "fivefold_ply_ep_always")) {
            assert!(l <= a, "{at}");
        }
        let null_moves = row["moves"].split(' ').any(|m| m == "0000");
        if !null_moves {
            if let (Some(five), Some(three)) =
                (num(row, "fivefold_ply"), num(row, "threefold_ply_ep_legal"))
            {
                assert!(
                    five >= three + 8,
                    "{at}: fivefold {five}, threefold {three}"
                );
            }
            if let Some(three) = num(row, "threefold_ply_ep_legal") {
                let claim = num(row, "threefold_claim_ply");
                assert!(
                    claim.is_some_and(|c| c < three),
                    "{at}: claim {claim:?}, threefold {three}"
                );
            }
        }
        if let Some(fifty) = num(row, "fifty_move_ply") {
            assert!(
                num(row, "fifty_move_claim_ply").is_some_and(|c| c <= fifty),
                "{at}"
            );
        }
        if let Some(s) = num(row, "seventyfive_move_ply") {
            assert!(num(row, "fifty_move_ply").is_some_and(|f| f <= s), "{at}");
        }
        let over = num(row, "game_over_ply");
        for col in ["fivefold_ply", "seventyfive_move_ply"] {
            if let Some(p) = num(row, col) {
                assert!(
                    over.is_some_and(|o| o <= p),
                    "{at}: game_over_ply {over:?}, {col} {p}"
                );
            }
        }
        assert_eq!(over.is_some(), !row["game_over"].is_empty(), "{at}");
        if termination != "none" {
            assert!(over.is_some(), "{at}");
        }
        let conflict = row["result_conflict"].as_str();
        // A broken game is held against its results only when it stopped
        // at a move after its mate or stalemate.
        let over = row["error"].contains("the game was already over at ply");
        if row["status"] != "ok" && !(over && termination != "none") {
            assert!(conflict.is_empty(), "{at}: conflict in a broken game");
        }
        if termination == "none" {
            // Only the tag-against-token clause can be left.
            assert!(
                conflict.is_empty()
                    || (conflict.starts_with("Result tag ") && !conflict.contains(';')),
                "{at}: {conflict}"
            );
        }
    }
}

#[test]
fn outcome_invariants_hold_on_every_file_of_testdata() {
    let (_tmp, out) = run_report(&["--moves", "testdata"]);
    let rows = read_csv(&out.join("games.csv"));
    assert!(rows.len() > 5000, "{} rows", rows.len());
    check_outcome_invariants(&rows);
    assert!(rows.iter().any(|r| r["variant"] == "xiangqi"));
}

/// summary.json's outcome figures, per input and in total, against the
/// counts of python-chess's expected file.
#[test]
fn summary_counts_outcomes_like_python_chess() {
    let (_tmp, out) = run_report(&["testdata/corpus", CASES]);
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    let summary: serde_json::Value = serde_json::from_str(&text).expect("json");
    let expected = expected();
    let count =
        |rows: &[&Row], f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
    let check = |at: &str, s: &serde_json::Value, rows: &[&Row]| {
        for t in ["checkmate", "insufficient_material", "stalemate", "none"] {
            assert_eq!(
                s["terminations"][t],
                count(rows, &|r| r["termination"] == t),
                "{at} {t}"
            );
        }
        for g in [
            "checkmate",
            "insufficient_material",
            "stalemate",
            "seventyfive_moves",
            "fivefold_repetition",
        ] {
            assert_eq!(
                s["game_over"][g],
                count(rows, &|r| r["game_over"] == g),
                "{at} {g}"
            );
        }
        let set = |c: &'static str| move |r: &Row| !r[c].is_empty();
        assert_eq!(
            s["result_conflicts"],
            count(rows, &set("result_conflict")),
            "{at}"
        );
        assert_eq!(
            s["fivefolds_ep_legal"],
            count(rows, &set("fivefold_ply")),
            "{at}"
        );
        assert_eq!(
            s["fivefolds_ep_always"],
            count(rows, &set("fivefold_ply_ep_always")),
            "{at}"
        );
        assert_eq!(
            s["missed_fivefolds"],
            count(rows, &|r| !r["fivefold_ply"].is_empty()
                && r["fivefold_ply_ep_always"].is_empty()),
            "{at}"
        );
        assert_eq!(
            s["past_fifty_moves"],
            count(rows, &set("fifty_move_ply")),
            "{at}"
        );
        assert_eq!(
            s["past_seventyfive_moves"],
            count(rows, &set("seventyfive_move_ply")),
            "{at}"
        );
        assert_eq!(
            s["played_on_after_game_over"],
            count(rows, &|r| num(r, "game_over_ply")
                .is_some_and(|o| o < num(r, "plies").unwrap_or(0))),
            "{at}"
        );
    };
    let all: Vec<&Row> = expected.iter().collect();
    check("total", &summary, &all);
    assert!(summary["result_conflicts"].as_u64() > Some(20));
    let inputs = summary["inputs"].as_array().expect("inputs");
    // Every corpus file (the oracle's count, empty files included) and the
    // cases file.
    let totals: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/expected/totals.json").expect("totals.json"),
    )
    .expect("totals.json is JSON");
    let corpus_files = totals["inputs"].as_u64().expect("inputs") as usize;
    assert_eq!(inputs.len(), corpus_files + 1);
    for input in inputs {
        let path = input["path"].as_str().expect("path");
        let rows: Vec<&Row> = expected.iter().filter(|r| r["source"] == path).collect();
        check(path, input, &rows);
    }
}

/// `--extract conflicts=FILE` holds exactly the games with a conflict, in
/// input order: reporting on the extract gives them back, conflicts and all.
#[test]
fn extract_conflicts_collects_the_conflicting_games() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let extract = tmp.path().join("conflicts.pgn");
    let arg = format!("conflicts={}", extract.display());
    let (_t, out) = run_report(&["--extract", &arg, "testdata/corpus", CASES]);
    let rows = read_csv(&out.join("games.csv"));
    let want: Vec<&str> = rows
        .iter()
        .map(|r| r["result_conflict"].as_str())
        .filter(|c| !c.is_empty())
        .collect();
    assert!(want.len() > 20, "{} conflicts", want.len());
    let extract = extract.to_str().expect("utf-8 path");
    let (_t2, again) = run_report(&[extract]);
    let back = read_csv(&again.join("games.csv"));
    let got: Vec<&str> = back.iter().map(|r| r["result_conflict"].as_str()).collect();
    assert_eq!(got, want);
}
