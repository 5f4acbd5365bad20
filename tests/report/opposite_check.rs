//! Games set up with the side not to move in check (python-chess's
//! STATUS_OPPOSITE_CHECK): after the first move, the side to move is in
//! check from a piece that move did not touch, and only the moves that get
//! it out are legal. Every game's status, plies and final position against
//! python-chess (testdata/expected/opposite-check.csv, written with the
//! games by testdata/gen/opposite_check_expected.py).

use crate::support;

use support::{read_csv, root, run_report};

const GAMES: &str = "testdata/chess/opposite-check.pgn";

#[test]
fn a_check_present_before_the_move_is_seen() {
    let (_tmp, out) = run_report(&[GAMES]);
    let ours = read_csv(&out.join("games.csv"));
    let expected = read_csv(&root().join("testdata/expected/opposite-check.csv"));
    assert_eq!(ours.len(), expected.len(), "one row per game");
    assert!(
        expected.iter().any(|e| e["status"] == "ok")
            && expected.iter().any(|e| e["status"] == "illegal_move"),
        "the cases hold both outcomes"
    );
    for (got, exp) in ours.iter().zip(&expected) {
        assert_eq!(got["game"], exp["game"]);
        for column in ["status", "plies", "final_fen"] {
            assert_eq!(got[column], exp[column], "game {}: {column}", exp["game"]);
        }
        if exp["status"] == "illegal_move" {
            assert!(
                got["error"].ends_with("leaves the king in check"),
                "game {}: {}",
                exp["game"],
                got["error"]
            );
        }
    }
}
