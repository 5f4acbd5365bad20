//! `pgnmill perft --variant xiangqi` through the binary, against the
//! published start-position counts (chessprogramming wiki "Chinese Chess
//! Perft Results", also in testdata/xiangqi/kernel/perft.csv).

use assert_cmd::Command;

fn perft(args: &[&str]) -> String {
    let out = Command::cargo_bin("pgnmill")
        .unwrap()
        .arg("perft")
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn start_position_counts_match_the_published_table() {
    assert_eq!(
        perft(&["--variant", "xiangqi", "startpos", "3"]),
        "Nodes searched: 79666\n"
    );
    // The same position given as a two-field FEN, as many files write it.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(
        perft(&["--variant", "xiangqi", fen, "2"]),
        "Nodes searched: 1920\n"
    );
}

#[test]
fn divide_lists_44_root_moves_in_iccs() {
    let text = perft(&["--variant", "xiangqi", "--divide", "startpos", "1"]);
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(moves.len(), 44);
    assert!(moves.contains(&"h2e2: 1"), "the central cannon opening");
    assert!(text.ends_with("\nNodes searched: 44\n"));
}

#[test]
fn a_bad_xiangqi_fen_is_a_usage_error() {
    Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["perft", "--variant", "xiangqi", "rnbakabnr/9 w", "1"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad xiangqi FEN"));
}
