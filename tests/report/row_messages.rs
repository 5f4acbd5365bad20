//! What a row of `pgnmill report` says of a game it cannot play, through
//! the binary: the `variant` column and summary.json's `variants` hold only
//! `chess`, `chess960` or `xiangqi` (an unsupported game's `[Variant]` tag
//! is quoted in `error`), and a `[FEN]` tag whose text is no board says so.

use crate::support;

use std::collections::HashMap;

type Row = HashMap<String, String>;

/// The rows and summary of `pgnmill report` over `pgn`.
fn report(pgn: &str) -> (Vec<Row>, serde_json::Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.pgn");
    std::fs::write(&input, pgn).expect("write input");
    let (_tmp, out) = support::run_report(&[input.to_str().expect("utf-8 path")]);
    let rows = support::read_csv(&out.join("games.csv"));
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    (rows, serde_json::from_str(&text).expect("json"))
}

#[test]
fn the_variant_column_holds_only_the_three_rules() {
    let pgn = "[Event \"a\"]\n[Variant \"Antichess\"]\n\n1. e3 *\n\n\
               [Event \"b\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n\
               [Event \"c\"]\n[Variant \"King of the Hill\"]\n\n*\n\n\
               [Event \"d\"]\n\n1. e4 *\n\n\
               [Event \"e\"]\n[Variant \"Chess960\"]\n[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n\n1. Ra2 *\n\n\
               [Event \"f\"]\n[Variant \"xiangqi\"]\n\n1. h2e2 *\n";
    let (rows, summary) = report(pgn);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["variant"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("", "unsupported"),
            ("", "unsupported"),
            ("", "unsupported"),
            ("chess", "ok"),
            ("chess960", "ok"),
            ("xiangqi", "ok"),
        ]
    );
    for (row, tag) in rows
        .iter()
        .zip(["Antichess", "Crazyhouse", "King of the Hill"])
    {
        assert_eq!(
            row["error"],
            format!("variant \"{tag}\" is not supported (chess, chess960 and xiangqi are)")
        );
    }
    assert_eq!(
        summary["variants"],
        serde_json::json!({"chess": 1, "chess960": 1, "xiangqi": 1})
    );
    assert_eq!(summary["status"]["unsupported"], 3);
    assert_eq!(summary["games"], 6);
}

#[test]
fn a_fen_tag_that_is_no_board_says_so() {
    let pgn = "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"Something invalid\"]\n\n1. e4 *\n\n\
               [Event \"b\"]\n[FEN \"8/8/8/8 w\"]\n\n*\n";
    let (rows, _) = report(pgn);
    assert_eq!(rows[0]["status"], "bad_fen");
    assert_eq!(
        rows[0]["error"],
        "line 3 [FEN \"Something invalid\"]: \"Something\" is not a FEN board \
         (a FEN starts with the board's 8 ranks, separated by '/')"
    );
    // A board with fields missing is still named by what is missing.
    assert_eq!(rows[1]["status"], "bad_fen");
    assert!(
        rows[1]["error"].contains("FEN has 2 field(s), missing castling, en passant"),
        "{}",
        rows[1]["error"]
    );
}

/// A long broken token (a megabyte of garbage in a movetext, a stretch of
/// quotes) is quoted by its start and its length in `error`, not whole:
/// one such token must not put megabytes into games.csv and report.html.
/// Short tokens are quoted whole, as before; the status, ply and line do
/// not change.
#[test]
fn a_long_broken_token_is_quoted_by_its_start_and_length() {
    let garbage = "z".repeat(1 << 20);
    let quotes = "\"".repeat(5000);
    let xiangqi = "炮".repeat(100);
    // The quotes first: stray text that starts the file (after a game's
    // result it would stay with that game, docs/pgn-dialect.md rule 7).
    let pgn = format!(
        "{quotes}\n\n\
         [Event \"a\"]\n\n1. e4 {garbage} *\n\n\
         [Event \"c\"]\n[Variant \"xiangqi\"]\n\n1. {xiangqi} *\n\n\
         [Event \"d\"]\n\n1. e4 Nf9 *\n"
    );
    let (rows, _) = report(&pgn);
    let errors: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["status"].as_str(), r["error"].as_str()))
        .collect();
    let z40 = "z".repeat(40);
    let q40 = "\"".repeat(40);
    // 39 bytes: the 40th would cut 炮 (3 bytes) in two.
    let x13 = "炮".repeat(13);
    assert_eq!(
        errors,
        [
            (
                "parse_error",
                format!("line 1: stray text (no tag pair, and \"{q40}… (5000 bytes)\" is not a move)")
                    .as_str()
            ),
            (
                "parse_error",
                format!("move 1... {z40}… (1048576 bytes), ply 2 (line 5): not a move").as_str()
            ),
            (
                "parse_error",
                format!(
                    "move 1. {x13}… (300 bytes), ply 1 (line 10): not a move in Chinese, WXF, ICCS or SAN notation"
                )
                .as_str()
            ),
            ("parse_error", "move 1... Nf9, ply 2 (line 14): not a move"),
        ]
    );
}
