//! Xiangqi games in SAN through `pgnmill report` and `pgnmill convert`:
//! the two real WinBoard games (ranks 0-9, `Che2`, `ed6+`) and the 15 master
//! games written by pyffish in its 1-10 rank SAN and in the same text with
//! ranks 0-9, against testdata/xiangqi/san-expected.json, whose moves were
//! decoded by the rules of docs/xiangqi-formats.md §4 and checked move by
//! move against pyffish's legal moves (testdata/gen/xiangqi_san_expected.py).

use crate::support::{check_invariants, read_csv, root, run_report};
use std::collections::HashMap;
use std::path::PathBuf;

struct Expected {
    file: String,
    game: u64,
    plies: u32,
    moves: Vec<String>,
    final_fen: String,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(root().join("testdata/xiangqi/san-expected.json"))
        .expect("expected values");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v.as_array()
        .expect("array")
        .iter()
        .map(|e| Expected {
            file: e["file"].as_str().expect("file").to_string(),
            game: e["game"].as_u64().expect("game"),
            plies: e["plies"].as_u64().expect("plies") as u32,
            moves: e["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("move").to_string())
                .collect(),
            final_fen: e["final_fen"].as_str().expect("fen").to_string(),
        })
        .collect()
}

fn path_of(file: &str) -> PathBuf {
    let dir = if file.starts_with("wukong") {
        "testdata/xiangqi/corpus"
    } else {
        "testdata/xiangqi/san"
    };
    root().join(dir).join(file)
}

fn files() -> Vec<String> {
    let mut files: Vec<String> = expected().into_iter().map(|e| e.file).collect();
    files.dedup();
    files
}

fn file_name(source: &str) -> String {
    source.rsplit('/').next().unwrap_or(source).to_string()
}

/// games.csv of a report over `paths` (with --moves), by (file, game).
fn report(paths: &[PathBuf]) -> HashMap<(String, u64), HashMap<String, String>> {
    let mut args = vec!["--moves".to_string()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (_tmp, out) = run_report(&args);
    let rows = read_csv(&out.join("games.csv"));
    check_invariants(&rows);
    rows.into_iter()
        .map(|r| ((file_name(&r["source"]), r["game"].parse().unwrap()), r))
        .collect()
}

fn check_rows(
    rows: &HashMap<(String, u64), HashMap<String, String>>,
    file_of: impl Fn(&str) -> String,
    what: &str,
) {
    let expected = expected();
    assert_eq!(rows.len(), expected.len(), "{what}: one row per game");
    for e in &expected {
        let at = format!("{what} {}#{}", e.file, e.game);
        let row = rows
            .get(&(file_of(&e.file), e.game))
            .unwrap_or_else(|| panic!("{at}: no row"));
        assert_eq!(row["variant"], "xiangqi", "{at}");
        assert_eq!(row["status"], "ok", "{at}: {}", row["error"]);
        assert_eq!(row["plies"], e.plies.to_string(), "{at}: plies");
        let moves: Vec<&str> = row["moves"].split_whitespace().collect();
        assert_eq!(moves, e.moves, "{at}: moves");
        assert_eq!(row["final_fen"], e.final_fen, "{at}: final FEN");
    }
}

#[test]
fn every_san_game_replays_to_the_oracles_moves_and_final_fen() {
    let expected = expected();
    assert_eq!(expected.len(), 32, "2 WinBoard games + 2 x 15 constructed");
    let paths: Vec<PathBuf> = files().iter().map(|f| path_of(f)).collect();
    check_rows(&report(&paths), |f| f.to_string(), "report");
}

#[test]
fn san_converts_to_every_notation_and_the_result_reads_back_to_the_same_moves() {
    let tmp = tempfile::tempdir().expect("tmp");
    for to in ["iccs", "wxf", "chinese", "chinese-traditional"] {
        let mut paths = Vec::new();
        for file in files() {
            let out = assert_cmd::Command::cargo_bin("pgnmill")
                .expect("binary")
                .args(["convert", "--quiet", "--to", to])
                .arg(path_of(&file))
                .assert()
                .success();
            let text = String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8");
            assert!(!text.contains("pgnmill: not converted"), "{to} {file}");
            assert!(
                !text.contains("Che2") && !text.contains("Hg7"),
                "{to} {file}: SAN left"
            );
            let path = tmp.path().join(format!("{to}-{file}"));
            std::fs::write(&path, text).expect("write");
            paths.push(path);
        }
        let prefix = format!("{to}-");
        check_rows(
            &report(&paths),
            |f| format!("{prefix}{f}"),
            &format!("converted to {to}"),
        );
    }
}

#[test]
fn a_san_move_that_is_not_legal_is_an_illegal_move_naming_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let path = tmp.path().join("bad.pgn");
    // Ranks 0-9 (Che2 is legal only so); 3. Rh5: no red chariot reaches h5.
    std::fs::write(
        &path,
        "[Variant \"xiangqi\"]\n\n1. Che2 Hg7 2. Hg2 Rh9 3. Rh5 *\n\n\
         [Variant \"xiangqi\"]\n\n1. Ch4 *\n",
    )
    .expect("write");
    let rows = report(&[path]);
    let bad = &rows[&("bad.pgn".to_string(), 1)];
    assert_eq!(bad["status"], "illegal_move");
    assert_eq!(bad["plies"], "4");
    assert!(bad["error"].contains("Rh5"), "{}", bad["error"]);
    assert!(bad["error"].contains("ply 5"), "{}", bad["error"]);
    // h2h4 with ranks 0-9, h2h3 with 1-10: nothing in the game says which.
    let ambiguous = &rows[&("bad.pgn".to_string(), 2)];
    assert_eq!(ambiguous["status"], "illegal_move");
    assert!(
        ambiguous["error"].contains("ranks 1-10"),
        "{}",
        ambiguous["error"]
    );
}

#[test]
fn san_with_xiangqi_piece_letters_is_xiangqi_without_a_variant_tag() {
    let tmp = tempfile::tempdir().expect("tmp");
    let path = tmp.path().join("untagged.pgn");
    // The first two moves of wukong-winboard-san-1.pgn, no tags at all;
    // pyffish reads the same moves as Che3 Chg8 Cxe7 (its 1-10 ranks).
    std::fs::write(&path, "1. Che2 Chg7 2. Cxe6 *\n").expect("write");
    let rows = report(&[path]);
    let row = &rows[&("untagged.pgn".to_string(), 1)];
    assert_eq!(row["variant"], "xiangqi");
    assert_eq!(row["status"], "ok", "{}", row["error"]);
    assert_eq!(row["moves"], "h2e2 h7g7 e2e6");
}

#[test]
fn an_illegal_iccs_move_is_named_in_chinese_too() {
    let tmp = tempfile::tempdir().expect("tmp");
    let path = tmp.path().join("hobbled.pgn");
    // b0d1: the horse's leg c0 holds the elephant (docs/xiangqi-notation.md:
    // red files count from the right, so b is 八 and d is 六).
    std::fs::write(&path, "[Format \"ICCS\"]\n\n1. b0d1 *\n").expect("write");
    let rows = report(&[path]);
    let row = &rows[&("hobbled.pgn".to_string(), 1)];
    assert_eq!(row["status"], "illegal_move");
    assert!(
        row["error"].starts_with("move 1. b0d1 (马八进六), ply 1 "),
        "{}",
        row["error"]
    );
}
