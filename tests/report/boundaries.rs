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

/// Issue 28: tagless games on one line end at each result token (and at a
/// result glued to a move), as they do on lines of their own; a footer
/// after the result, or a result inside a variation, does not start one.
#[test]
fn tagless_games_on_one_line_end_at_every_result_token() {
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let pgn = format!("1. e4 e5 {result} 1. d4 d5 {result} {{after}} 2. c4 {result}\n");
        let r = rows(pgn.as_bytes());
        assert_eq!(
            summary(&r),
            [
                row("1", "1", "", "ok", "2"),
                row("2", "1", "", "ok", "2"),
                row("3", "1", "", "ok", "1"),
            ],
            "{pgn}"
        );
        let second = pgn.find("1. d4").expect("second game");
        assert_eq!(r[1]["offset"], second.to_string(), "{pgn}");
    }
    let r = rows(b"1. e4 e5* 1. d4 Nf6* 1. c4\n");
    assert_eq!(r.len(), 3, "{r:?}");
    assert_eq!(r[1]["plies"], "2");
    // Text that is not movetext after the result: the rest stays with the
    // game (a site's footer), on its line and the lines after it.
    let r = rows(b"1. e4 e5 1-0 ===== 1. d4\n1. e4 e5 *\n");
    assert_eq!(summary(&r), [row("1", "1", "", "ok", "2")]);
    let r = rows(b"1. e4 (1... c5 1-0 2. Nf3) e5 0-1 1. d4 *\n");
    assert_eq!(
        summary(&r),
        [row("1", "1", "", "ok", "2"), row("2", "1", "", "ok", "1")]
    );
}

/// Issue 28: tag-only games with classic Mac line ends (a lone `\r`), one
/// blank line between them: a row each, on the lines they start on.
#[test]
fn tag_only_games_with_cr_line_ends_are_rows() {
    let r = rows(b"[Event \"a\"]\r[White \"x\"]\r\r[White \"y\"]\r[Black \"z\"]\r\r[Black \"q\"]");
    assert_eq!(
        summary(&r),
        [
            row("1", "1", "a", "ok", "0"),
            row("2", "4", "", "ok", "0"),
            row("3", "7", "", "ok", "0"),
        ]
    );
    assert_eq!(r[1]["black"], "z");
}

/// A tag name that repeats without a blank line stays in its game, and
/// the last value counts for the columns, `--tags` and `--where` alike.
#[test]
fn a_tag_repeated_without_a_blank_line_takes_its_last_value() {
    let pgn = "[Event \"a\"]\n[WhiteElo \"1500\"]\n[Event \"b\"]\n[WhiteElo \"2500\"]\n\n1. e4 *\n";
    let tmp = tempfile::tempdir().expect("temp dir");
    let input = tmp.path().join("in.pgn");
    std::fs::write(&input, pgn).expect("write input");
    let path = input.to_str().expect("utf-8 path");
    let (_out_dir, out) =
        support::run_report(&["--tags", "WhiteElo", "--where", "WhiteElo>=2000", path]);
    let r = support::read_csv(&out.join("games.csv"));
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0]["event"], "b");
    assert_eq!(r[0]["WhiteElo"], "2500");
    let (_out_dir, out) = support::run_report(&["--where", "WhiteElo<2000", path]);
    assert!(support::read_csv(&out.join("games.csv")).is_empty());
}
