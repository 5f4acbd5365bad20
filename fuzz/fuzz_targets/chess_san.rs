//! SAN reading and writing. The first input byte picks a seed position, the
//! next bytes (up to a 0xFF byte) pick moves to play from it, and the rest is
//! a token handed to `parse_san`, which must never panic. At every position
//! reached, every legal move written with `san()` (and `uci()`) must parse
//! back to the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::chess::{CastlingMode, Position, Setup};

/// Seed positions: the start, the perft "kiwipete" and ep/promotion
/// positions, a Chess960 start (from published perft suites), and two
/// set-ups with the side not to move in check (python-chess's
/// STATUS_OPPOSITE_CHECK, testdata/chess/opposite-check.pgn): after White's
/// move Black is in check from a piece the move did not touch, which only
/// a legality test that looks at the whole board sees.
const SEEDS: [(&str, CastlingMode); 8] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        CastlingMode::Standard,
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        CastlingMode::Chess960,
    ),
    ("4k3/p6r/8/1B6/8/8/8/4K3 w - - 0 1", CastlingMode::Standard),
    ("4k3/p7/3N4/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard),
];

fn check_all_moves(pos: &Position) {
    for &m in pos.legal_moves().iter() {
        let san = pos.san(m);
        match pos.parse_san(san.as_bytes()) {
            Ok(back) => assert_eq!(back, m, "SAN {san:?} read back as another move"),
            Err(e) => panic!(
                "own SAN {san:?} refused: {e} (FEN {})",
                pos.fen(pgnmill::chess::EpMode::Always)
            ),
        }
        let uci = pos.uci(m);
        match pos.parse_uci(uci.as_bytes()) {
            Ok(back) => assert_eq!(back, m, "UCI {uci:?} read back as another move"),
            Err(e) => panic!("own UCI {uci:?} refused: {e}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let (fen, mode) = SEEDS[pick as usize % SEEDS.len()];
    let Ok(setup) = Setup::parse(fen) else {
        panic!("seed FEN refused: {fen}");
    };
    let Ok((mut pos, _)) = Position::from_setup(&setup, mode) else {
        panic!("seed position refused: {fen}");
    };
    let split = rest.iter().position(|&b| b == 0xFF).unwrap_or(rest.len());
    let (choices, token) = rest.split_at(split);
    check_all_moves(&pos);
    for &c in choices.iter().take(64) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[c as usize % moves.len()];
        pos.play(m);
        check_all_moves(&pos);
    }
    let token = token.get(1..).unwrap_or_default();
    if let Ok(m) = pos.parse_san(token) {
        // The null move (`--`, `Z0`) is accepted by design (docs/chess.md, section Movetext: it passes
        // the turn) and is never among the legal moves.
        assert!(
            m.is_null() || pos.is_legal(m),
            "parse_san({token:?}) gave an illegal move"
        );
    }
    let _ = pos.parse_uci(token);
});
