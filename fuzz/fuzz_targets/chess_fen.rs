//! Chess FEN parser: arbitrary text never panics, nor does the audit of
//! its problems, and any FEN the kernel accepts survives a write-then-parse
//! round trip unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::chess::{CastlingMode, EpMode, Position, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(setup) = Setup::parse_bytes(data) else {
        return;
    };
    let mode = if setup.is_shredder() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let Ok((pos, _audit)) = Position::from_setup(&setup, mode) else {
        return;
    };
    let _ = pgnmill::chess::problems(&setup, &pos);
    for ep in [EpMode::Always, EpMode::Legal] {
        let fen = pos.fen(ep);
        let again = Setup::parse(&fen)
            .unwrap_or_else(|e| panic!("own FEN {fen:?} (from {data:?}) refused: {e}"));
        let (back, audit) = Position::from_setup(&again, mode)
            .unwrap_or_else(|e| panic!("own FEN {fen:?} refused as a position: {e}"));
        assert!(
            audit.is_clean(),
            "own FEN {fen:?} has a castling conflict: {audit:?}"
        );
        assert_eq!(back.fen(ep), fen, "FEN round trip of {data:?}");
        if ep == EpMode::Always {
            assert_eq!(back, pos, "position round trip through {fen:?}");
        }
    }
});
