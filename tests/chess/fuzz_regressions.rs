//! Inputs found by the fuzz targets in `fuzz/`, kept as tests.

use pgnmill::chess::{EpMode, Position};

/// chess_san, crash-c18c03ce: `--` read as a move is the null move, which
/// the target wrongly required to be legal. docs/chess.md (section Movetext) accepts it: it passes
/// the turn and clears the en-passant square, whatever the position.
#[test]
fn null_move_token_is_the_null_move_and_passes_the_turn() {
    let mut pos = Position::startpos();
    let e4 = pos.parse_san(b"e4").expect("e4");
    pos.play(e4);
    for token in [&b"--"[..], b"Z0"] {
        let m = pos.parse_san(token).expect("null move accepted");
        assert!(m.is_null());
        assert!(!pos.is_legal(m), "a null move is not a legal chess move");
        let mut after = pos;
        after.play(m);
        assert_eq!(
            after.fen(EpMode::Always),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
        );
    }
}
