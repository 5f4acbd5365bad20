//! `pgnmill perft` and `pgnmill fen` through the binary.

use assert_cmd::Command;
use predicates::prelude::*;
use std::collections::HashMap;

fn pgnmill() -> Command {
    Command::cargo_bin("pgnmill").unwrap()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_startpos_prints_published_count() {
    pgnmill()
        .args(["perft", "startpos", "4"])
        .assert()
        .success()
        .stdout("Nodes searched: 197281\n");
}

#[test]
fn perft_divide_lists_root_moves_in_uci_and_sums() {
    let out = pgnmill()
        .args(["perft", "--divide", KIWIPETE, "2"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 2039"));
    let divide: HashMap<&str, u64> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| *m != "Nodes searched")
        .map(|(m, n)| (m, n.parse().unwrap()))
        .collect();
    assert_eq!(divide.len(), 48, "kiwipete has 48 moves (published D1)");
    assert_eq!(divide.values().sum::<u64>(), 2039);
    assert!(divide.contains_key("e1g1") && divide.contains_key("e1c1"));
}

#[test]
fn perft_chess960_writes_castling_as_king_takes_rook() {
    // pychess-frc_perftsuite.epd line 1: D1 25, D2 586.
    let fen = "R3rkrR/8/8/8/8/8/8/r3RKRr w EGeg - 0 1";
    pgnmill()
        .args(["perft", "--variant", "chess960", fen, "2"])
        .assert()
        .success()
        .stdout("Nodes searched: 586\n");
    // Expected values from python-chess (Board(chess960=True)): 24 moves,
    // castling b1a1 and b1h1, perft(2) = 479.
    let fen = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1";
    pgnmill()
        .args(["perft", "--variant", "chess960", "--divide", fen, "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("b1a1: 1\n"))
        .stdout(predicate::str::contains("b1h1: 1\n"))
        .stdout(predicate::str::ends_with("Nodes searched: 24\n"));
    pgnmill()
        .args(["perft", fen, "2"])
        .assert()
        .success()
        .stdout("Nodes searched: 479\n");
}

#[test]
fn perft_bad_fen_is_a_usage_error() {
    pgnmill()
        .args(["perft", "4k3/8/8/8/8/7/4P3/4K3 w - -", "1"])
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("rank 3 covers 7 squares"));
}

/// A depth past 64 is a usage error, not a recursion 99,999 plies deep
/// that overflowed the stack (exit 134); 64 itself is taken (a position
/// with no legal move counts 0 at any depth, at once).
#[test]
fn perft_depth_past_64_is_a_usage_error() {
    pgnmill()
        .args(["perft", "startpos", "99999"])
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("99999 is not in 0..=64"));
    pgnmill()
        .args(["perft", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "64"])
        .assert()
        .success()
        .stdout("Nodes searched: 0\n");
}

#[derive(serde::Deserialize, Debug)]
struct Row {
    source: String,
    line: u64,
    input: String,
    status: String,
    error: String,
    fen: String,
    fen_ep_legal: String,
    castling_invalid: String,
    castling_effective: String,
    reason: String,
    legal_moves: Option<usize>,
    check: Option<bool>,
}

fn parse_rows(csv_text: &[u8]) -> Vec<Row> {
    let mut r = csv::Reader::from_reader(csv_text);
    let headers = r.headers().unwrap().clone();
    // The first 12 columns keep their names and order; new ones are appended.
    assert_eq!(
        headers.iter().collect::<Vec<_>>().join(","),
        "source,line,input,status,error,fen,fen_ep_legal,castling_invalid,\
         castling_effective,reason,legal_moves,check,variant,id,game,problems"
    );
    r.deserialize().map(|x| x.unwrap()).collect()
}

#[test]
fn fen_audit_csv_from_file_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("list.epd");
    std::fs::write(
        &input,
        "# a comment\n\
         4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1\n\
         \n\
         rnbqkbnr/pppp1pp1/8/P3p2p/8/5N2/1PPPPPPP/RNBQKB1R w KQkq e6 0 4\n\
         4k3/8/8/8/8/7/4P3/4K3 w - -\n\
         r3k2r/8/8/8/8/8/8/R3K2R b KQkq - bm O-O; id \"epd\";\n\
         4k3/4Q3/8/8/8/8/8/4K3 b - -\n",
    )
    .unwrap();
    let out = dir.path().join("out.csv");
    pgnmill()
        .args(["fen", input.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .success();
    let rows = parse_rows(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), 5);
    assert_eq!(
        rows.iter().map(|r| r.line).collect::<Vec<_>>(),
        [2, 4, 5, 6, 7]
    );

    let r = &rows[0];
    assert_eq!(r.source, input.to_str().unwrap());
    assert_eq!((r.status.as_str(), r.error.as_str()), ("ok", ""));
    assert_eq!(r.castling_invalid, "KQkq");
    assert_eq!(r.castling_effective, "-");
    assert!(
        r.reason
            .starts_with("K: no white rook on h1; Q: no white rook on a1")
    );
    assert_eq!(r.fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!((r.legal_moves, r.check), (Some(6), Some(false)));

    // Spec two-routes FEN: ep-always keeps e6, ep-if-legal drops it.
    let r = &rows[1];
    assert_eq!(r.fen, r.input);
    assert_eq!(
        r.fen_ep_legal,
        "rnbqkbnr/pppp1pp1/8/P3p2p/8/5N2/1PPPPPPP/RNBQKB1R w KQkq - 0 4"
    );
    assert_eq!(
        (r.castling_invalid.as_str(), r.castling_effective.as_str()),
        ("", "KQkq")
    );
    assert_eq!(r.legal_moves, Some(24));

    let r = &rows[2];
    assert_eq!(r.status, "bad_fen");
    assert!(r.error.contains("rank 3 covers 7 squares"), "{}", r.error);
    assert_eq!(r.legal_moves, None);

    let r = &rows[3];
    assert_eq!(r.status, "ok");
    assert_eq!(r.fen, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(r.legal_moves, Some(26));

    // Legal move counts and check flags checked against python-chess.
    let r = &rows[4];
    assert_eq!((r.check, r.legal_moves), (Some(true), Some(1)));
    assert_eq!(r.reason, "");

    // Same list through stdin.
    let stdin_out = pgnmill()
        .args(["fen", "-"])
        .pipe_stdin(&input)
        .unwrap()
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let again = parse_rows(&stdin_out);
    assert_eq!(again.len(), 5);
    assert_eq!(again[0].source, "-");
    assert_eq!(again[2].error, rows[2].error);
}

#[test]
fn fen_missing_input_file_fails_with_its_name() {
    pgnmill()
        .args(["fen", "/nonexistent/list.fen"])
        .assert()
        .failure()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent/list.fen"));
}
