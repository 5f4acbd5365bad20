//! The xiangqi outcome columns (docs/xiangqi-rules.md, section 7) through
//! `pgnmill report`, against pyffish 0.0.90: every move, check, position
//! and no-capture count of testdata/xiangqi/outcomes-expected.json comes
//! from pyffish (testdata/gen/xiangqi_outcomes_expected.py), on the 2,516
//! wukong master games and on the constructed cases of
//! testdata/xiangqi/outcomes/cases.pgn. Then the spec's invariants on every
//! xiangqi file of testdata/ (PGN and record files), summary.json's
//! xiangqi figures and `--extract conflicts`.

use crate::support::{read_csv, root, run_report};
use std::collections::HashMap;

type Row = HashMap<String, String>;

const DIR: &str = "testdata/xiangqi/outcomes";

/// The columns the oracle gives, as the CSV writes them (`null` empty).
const COLUMNS: [(&str, &str); 9] = [
    ("status", "status"),
    ("plies", "plies"),
    ("final_fen", "final_fen"),
    ("termination", "termination"),
    ("board_result", "board_result"),
    ("threefold_ply", "threefold_ply_ep_legal"),
    ("perpetual_check", "perpetual_check"),
    ("natural_limit_ply", "natural_limit_ply"),
    ("result_conflict", "result_conflict"),
];

/// Columns of docs/outcomes.md that xiangqi rows leave empty.
const CHESS_ONLY: [&str; 9] = [
    "mating_material",
    "fivefold_ply",
    "fivefold_ply_ep_always",
    "threefold_claim_ply",
    "fifty_move_ply",
    "fifty_move_claim_ply",
    "seventyfive_move_ply",
    "game_over_ply",
    "game_over",
];

fn expected() -> Vec<serde_json::Value> {
    let path = root().join("testdata/xiangqi/outcomes-expected.json");
    let text = std::fs::read_to_string(&path).expect("expected values");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v.as_array().expect("array").clone()
}

fn as_csv(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn file_name(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// The report over the three files, its rows by (file name, game).
fn report(
    extra: &[&str],
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    HashMap<(String, u64), Row>,
) {
    let mut args = extra.to_vec();
    args.push(DIR);
    let (tmp, out) = run_report(&args);
    let rows = read_csv(&out.join("games.csv"))
        .into_iter()
        .map(|r| {
            let key = (
                file_name(&r["source"]).to_string(),
                r["game"].parse().expect("game"),
            );
            (key, r)
        })
        .collect();
    (tmp, out, rows)
}

#[test]
fn every_game_has_pyffish_outcome_columns() {
    let expected = expected();
    let (_tmp, _out, rows) = report(&[]);
    assert_eq!(rows.len(), expected.len(), "one row per game");
    let mut mismatches = Vec::new();
    for e in &expected {
        let key = (
            e["file"].as_str().expect("file").to_string(),
            e["game"].as_u64().expect("game"),
        );
        let row = rows
            .get(&key)
            .unwrap_or_else(|| panic!("no row for {key:?}"));
        assert_eq!(row["variant"], "xiangqi", "{key:?}");
        for (field, column) in COLUMNS {
            let want = as_csv(&e[field]);
            if row[column] != want {
                mismatches.push(format!(
                    "{key:?} {column}: pgnmill {:?}, pyffish {want:?}",
                    row[column]
                ));
            }
        }
        for column in CHESS_ONLY {
            assert_eq!(row[column], "", "{key:?}: {column} is chess-only");
        }
    }
    let n = mismatches.len();
    assert_eq!(n, 0, "pgnmill against pyffish:\n{}", mismatches.join("\n"));
}

/// The wukong games with their tags taken out: ICCS movetext alone, whose
/// first move (`h2e2` in most) is also chess long algebraic. Every game is
/// still read as xiangqi (a later move leaves the chess board) and ends
/// where pyffish ends it.
#[test]
fn tagless_iccs_games_are_read_as_xiangqi() {
    let tmp = tempfile::tempdir().expect("tmp");
    let expected = expected();
    for name in [
        "wukong-hu-ronghua-1391-iccs.pgn",
        "wukong-liu-dahua-1125-iccs.pgn",
    ] {
        let text = std::fs::read_to_string(root().join(DIR).join(name)).expect("read");
        let tagless: String = text
            .lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(|l| [l, "\n"])
            .collect();
        let input = tmp.path().join(name);
        std::fs::write(&input, tagless).expect("write");
        let (_report_tmp, out) = run_report(&["--moves", input.to_str().expect("utf-8")]);
        let rows = read_csv(&out.join("games.csv"));
        let mut want: Vec<_> = expected.iter().filter(|e| e["file"] == name).collect();
        want.sort_by_key(|e| e["game"].as_u64());
        assert_eq!(rows.len(), want.len(), "{name}: one row per game");
        let first_on_chess_squares = rows
            .iter()
            .filter(|r| r["moves"].starts_with("h2e2 ") || r["moves"].starts_with("b2e2 "))
            .count();
        assert!(
            first_on_chess_squares > 500,
            "{name}: {first_on_chess_squares}"
        );
        for (row, e) in rows.iter().zip(want) {
            let game = &row["game"];
            assert_eq!(*game, as_csv(&e["game"]));
            assert_eq!(row["variant"], "xiangqi", "{name} game {game}");
            assert_eq!(
                row["final_fen"],
                as_csv(&e["final_fen"]),
                "{name} game {game}"
            );
            assert_eq!(row["plies"], as_csv(&e["plies"]), "{name} game {game}");
        }
    }
}

/// The oracle's data covers what the spec asks to be tested: without
/// these, the comparison above could pass on a trivial corpus.
#[test]
fn the_cases_cover_every_outcome() {
    let expected = expected();
    let count = |f: &dyn Fn(&serde_json::Value) -> bool| expected.iter().filter(|e| f(e)).count();
    let wukong =
        |e: &serde_json::Value| e["file"].as_str().is_some_and(|f| f.starts_with("wukong"));
    assert_eq!(count(&wukong), 2516);
    // docs/xiangqi-rules.md section 5: 225 threefolds, 21 perpetual checks
    // by red and 26 by black in the wukong games.
    assert_eq!(count(&|e| wukong(e) && !e["threefold_ply"].is_null()), 225);
    assert_eq!(count(&|e| wukong(e) && e["perpetual_check"] == "red"), 21);
    assert_eq!(count(&|e| wukong(e) && e["perpetual_check"] == "black"), 26);
    for value in ["red", "black"] {
        assert!(
            count(&|e| !wukong(e) && e["perpetual_check"] == value) >= 2,
            "{value}"
        );
    }
    for (termination, result) in [
        ("checkmate", "1-0"),
        ("checkmate", "0-1"),
        ("stalemate", "1-0"),
        ("stalemate", "0-1"),
    ] {
        assert!(
            count(&|e| e["termination"] == termination && e["board_result"] == result) >= 1,
            "{termination} {result}"
        );
    }
    for word in [
        "checkmated",
        "stalemated (a loss in xiangqi)",
        "gave perpetual check",
        "but movetext result",
    ] {
        assert!(
            count(&|e| e["result_conflict"]
                .as_str()
                .is_some_and(|c| c.contains(word)))
                >= 1,
            "{word}"
        );
    }
    assert!(count(&|e| e["status"] == "illegal_move") >= 4);
    // A move after a mate or stalemate: the results are still held against it.
    assert!(count(&|e| e["status"] == "illegal_move" && e["result_conflict"] != "") >= 2);
    // A perpetual checker recorded as the winner of a game that went on
    // after the threefold (no conflict) and of one that ended in it.
    let perpetual_win = |e: &serde_json::Value| {
        e["file"] == "cases.pgn" && e["perpetual_check"] != "" && e["board_result"] == ""
    };
    let held = |e: &serde_json::Value| {
        e["result_conflict"]
            .as_str()
            .is_some_and(|c| c.contains("gave perpetual check"))
    };
    assert!(count(&|e| perpetual_win(e) && held(e)) >= 3);
    assert!(count(&|e| perpetual_win(e) && !held(e) && e["plies"].as_u64() == Some(9)) >= 2);
    for ply in [0, 1, 20, 120, 141] {
        assert!(
            count(&|e| e["natural_limit_ply"] == ply) >= 1,
            "natural limit {ply}"
        );
    }
    assert!(
        count(&|e| !wukong(e)
            && e["natural_limit_ply"].is_null()
            && e["plies"].as_u64() == Some(119))
            >= 1
    );
}

/// summary.json counts the xiangqi figures per input and in total, and
/// `--extract conflicts` holds exactly the conflicting games.
#[test]
fn summary_and_conflicts_extract_count_xiangqi_outcomes() {
    let expected = expected();
    let tmp = tempfile::tempdir().expect("temp dir");
    let extract = tmp.path().join("conflicts.pgn");
    let arg = format!("conflicts={}", extract.display());
    let (_t, out, rows) = report(&["--extract", &arg]);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary"))
            .expect("json");
    let check = |at: &str, s: &serde_json::Value, file: Option<&str>| {
        let mine: Vec<&serde_json::Value> = expected
            .iter()
            .filter(|e| file.is_none_or(|f| e["file"] == f))
            .collect();
        let n =
            |f: &dyn Fn(&serde_json::Value) -> bool| mine.iter().filter(|e| f(e)).count() as u64;
        for t in ["checkmate", "stalemate", "none"] {
            assert_eq!(
                s["xiangqi_terminations"][t],
                n(&|e| e["termination"] == t),
                "{at} {t}"
            );
        }
        for p in ["red", "black", "both"] {
            assert_eq!(
                s["perpetual_checks"][p],
                n(&|e| e["perpetual_check"] == p),
                "{at} {p}"
            );
        }
        let conflicts = n(&|e| e["result_conflict"] != "");
        assert_eq!(s["xiangqi_result_conflicts"], conflicts, "{at}");
        assert_eq!(s["result_conflicts"], conflicts, "{at}");
        assert_eq!(
            s["past_natural_limit"],
            n(&|e| !e["natural_limit_ply"].is_null()),
            "{at}"
        );
        // Chess's termination counts hold no xiangqi game.
        for t in ["checkmate", "insufficient_material", "stalemate", "none"] {
            assert_eq!(s["terminations"][t], 0, "{at} chess {t}");
        }
    };
    check("total", &summary, None);
    for input in summary["inputs"].as_array().expect("inputs") {
        let path = input["path"].as_str().expect("path");
        check(path, input, Some(file_name(path)));
    }
    let want: Vec<&str> = expected
        .iter()
        .filter_map(|e| e["result_conflict"].as_str())
        .filter(|c| !c.is_empty())
        .collect();
    assert!(want.len() >= 10, "{} conflicts", want.len());
    assert_eq!(rows.len(), expected.len());
    let (_t2, again) = run_report(&[extract.to_str().expect("utf-8 path")]);
    let back = read_csv(&again.join("games.csv"));
    let got: Vec<&str> = back.iter().map(|r| r["result_conflict"].as_str()).collect();
    assert_eq!(got, want);
}

/// The invariants of docs/xiangqi-rules.md section 7 on a report's rows;
/// chess rows keep the xiangqi columns empty.
fn check_xiangqi_invariants(rows: &[Row]) -> usize {
    let mut xiangqi = 0;
    for r in rows {
        let at = format!("{}#{}", r["source"], r["game"]);
        if r["variant"] != "xiangqi" {
            assert_eq!(r["perpetual_check"], "", "{at}");
            assert_eq!(r["natural_limit_ply"], "", "{at}");
            continue;
        }
        xiangqi += 1;
        for column in CHESS_ONLY {
            assert_eq!(r[column], "", "{at}: {column}");
        }
        if r["termination"].is_empty() {
            // Not replayed (bad_fen, unsupported): every outcome column empty.
            for c in [
                "board_result",
                "perpetual_check",
                "natural_limit_ply",
                "result_conflict",
            ] {
                assert_eq!(r[c], "", "{at}: {c}");
            }
            continue;
        }
        assert!(
            ["checkmate", "stalemate", "none"].contains(&r["termination"].as_str()),
            "{at}: {}",
            r["termination"]
        );
        assert_eq!(
            r["board_result"].is_empty(),
            r["termination"] == "none",
            "{at}"
        );
        if !r["perpetual_check"].is_empty() {
            assert!(!r["threefold_ply_ep_legal"].is_empty(), "{at}");
        }
        for side in ["Red", "Black"] {
            if r["result_conflict"].contains(&format!("{side} gave perpetual check")) {
                assert_eq!(r["perpetual_check"], side.to_lowercase(), "{at}");
            }
        }
        let clock = r["start_fen"].split_whitespace().nth(4).unwrap_or("0") != "0";
        if !clock && let Ok(ply) = r["natural_limit_ply"].parse::<u32>() {
            assert!(ply >= 120, "{at}: natural_limit_ply {ply}");
        }
        // A broken game is held against its results only when it stopped
        // at a move after its mate or stalemate.
        let over = r["error"].contains("the game was already over at ply");
        if r["status"] != "ok" && !(over && r["termination"] != "none") {
            assert_eq!(r["result_conflict"], "", "{at}");
        }
    }
    xiangqi
}

#[test]
fn invariants_hold_on_every_xiangqi_file_of_testdata() {
    let (_tmp, out) = run_report(&["testdata/xiangqi"]);
    let rows = read_csv(&out.join("games.csv"));
    let records = rows
        .iter()
        .filter(|r| r["source"].starts_with("testdata/xiangqi/records/"))
        .count();
    assert!(records >= 340, "{records} record games");
    assert!(check_xiangqi_invariants(&rows) >= 3200);
    let (_tmp2, chess) = run_report(&["testdata/corpus"]);
    let chess = read_csv(&chess.join("games.csv"));
    assert!(chess.iter().any(|r| r["variant"] == "chess"));
    check_xiangqi_invariants(&chess);
}
