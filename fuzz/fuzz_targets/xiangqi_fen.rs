//! Xiangqi FEN parser: arbitrary text never panics, nor does the audit of
//! the problems of any board it reads, and any FEN the kernel accepts is
//! written back in a form that parses to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = pgnmill::xiangqi::fen::parse(text) {
        let _ = pgnmill::xiangqi::problems::problems(&setup.board, setup.turn);
    }
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.fen();
    let back = Position::from_fen(&fen)
        .unwrap_or_else(|e| panic!("own FEN {fen:?} (from {text:?}) refused: {e}"));
    assert_eq!(back.fen(), fen, "FEN round trip of {text:?}");
    assert_eq!(back, pos, "position round trip through {fen:?}");
});
