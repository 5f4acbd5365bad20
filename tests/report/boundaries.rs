//! Game boundaries through the binary (issue 13, docs/pgn-dialect.md §2):
//! inputs that once lost games give one row per game, each with the
//! status, error, game number, offset and line it must have.

use crate::support;

use assert_cmd::Command;
use std::collections::HashMap;

type Row = HashMap<String, String>;

/// `pgnmill report -q` on `pgn`: exit 0, and the rows of `games.csv`.
fn rows(pgn: &[u8]) -> Vec<Row> {
    let tmp = tempfile::tempdir().expect("temp dir");
    let input = tmp.path().join("in.pgn");
    std::fs::write(&input, pgn).expect("write input");
    let out = tmp.path().join("report");
    let output = Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(["report", "--quiet", "-o"])
        .arg(&out)
        .arg(&input)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("run pgnmill");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    support::read_csv(&out.join("games.csv"))
}

/// (game, line, event, status, plies) of every row.
fn summary(rows: &[Row]) -> Vec<(String, String, String, String, String)> {
    rows.iter()
        .map(|r| {
            (
                r["game"].clone(),
                r["line"].clone(),
                r["event"].clone(),
                r["status"].clone(),
                r["plies"].clone(),
            )
        })
        .collect()
}

fn row(
    game: &str,
    line: &str,
    event: &str,
    status: &str,
    plies: &str,
) -> (String, String, String, String, String) {
    (
        game.into(),
        line.into(),
        event.into(),
        status.into(),
        plies.into(),
    )
}

#[test]
fn an_unclosed_comment_ends_its_game_at_a_blank_line_and_a_tag() {
    let pgn = "1. e4 {unclosed e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n\n[Event \"c\"]\n\n1. c4 e5 }*\n";
    let r = rows(pgn.as_bytes());
    assert_eq!(
        summary(&r),
        [
            row("1", "1", "", "parse_error", "1"),
            row("2", "3", "b", "ok", "2"),
            row("3", "7", "c", "ok", "2"),
        ]
    );
    assert!(
        r[0]["error"].contains("comment opened at line 1 never closes"),
        "{:?}",
        r[0]["error"]
    );
    assert_eq!(r[1]["offset"], "29");
}

#[test]
fn an_unclosed_variation_is_a_parse_error_and_the_next_game_a_row() {
    let pgn = "[Event \"a\"]\n\n1. e4 (1. d4 d5\n2. c4 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    let r = rows(pgn.as_bytes());
    assert_eq!(
        summary(&r),
        [
            row("1", "1", "a", "parse_error", "1"),
            row("2", "6", "b", "ok", "2")
        ]
    );
    assert!(
        r[0]["error"].contains("variation opened at line 3 never closes"),
        "{:?}",
        r[0]["error"]
    );
}

#[test]
fn games_after_a_result_on_the_same_line_are_rows() {
    let r = rows(b"[Event \"a\"] 1. e4 e5 1-0 [Event \"b\"] 1. d4 d5 0-1\n");
    assert_eq!(
        summary(&r),
        [row("1", "1", "a", "ok", "2"), row("2", "1", "b", "ok", "2")]
    );
    assert_eq!(r[0]["result"], "");
    assert_eq!(r[1]["offset"], "25");
}

#[test]
fn many_games_on_one_line_are_as_many_rows() {
    // The 50 MB line of 56,000 games, at a tenth of its size here
    // (a run of a few seconds); the shape is the same.
    let one = "[Event \"x\"] [White \"w\"] [Black \"b\"] [Result \"1-0\"] 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0 ";
    let line = one.repeat(5_600) + "\n";
    let r = rows(line.as_bytes());
    assert_eq!(r.len(), 5_600);
    assert!(
        r.iter()
            .all(|r| r["status"] == "ok" && r["plies"] == "6" && r["line"] == "1")
    );
    assert_eq!(r[5_599]["game"], "5600");
    assert_eq!(r[1]["offset"], one.len().to_string());
}

#[test]
fn a_tag_without_its_closing_quote_is_a_parse_error_and_the_tags_after_it_are_read() {
    let pgn = "[Event \"a\n[Site \"b\"]\n[White \"w\"]\n\n1. e4 e5 *\n\n[Event \"d\"]\n\n1. d4 *\n";
    let r = rows(pgn.as_bytes());
    assert_eq!(
        summary(&r),
        [
            row("1", "1", "a", "parse_error", "2"),
            row("2", "7", "d", "ok", "1")
        ]
    );
    assert_eq!(r[0]["site"], "b");
    assert_eq!(r[0]["white"], "w");
    assert!(
        r[0]["error"].contains("tag at line 1 has no closing quote"),
        "{:?}",
        r[0]["error"]
    );
}
