//! Bad input never panics: any bytes given to the FEN or SAN parser give Ok
//! or Err, and any position the FEN parser accepts can be played on.

use pgnmill::chess::{CastlingMode, EpMode, Position, Setup, perft};
use proptest::prelude::*;

fn positions() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppp1pp1/8/3Pp2p/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3",
        "8/4P3/8/8/8/8/3p4/k3K3 b - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]
    .iter()
    .map(|f| {
        let s = Setup::parse(f).unwrap();
        let mode = if s.is_shredder() {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Position::from_setup(&s, mode).unwrap().0
    })
    .collect()
}

fn exercise(s: &Setup) {
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok((p, _)) = Position::from_setup(s, mode) {
            let _ = p.fen(EpMode::Always);
            let _ = p.fen(EpMode::Legal);
            let _ = p.fen(EpMode::PseudoLegal);
            for &m in p.legal_moves().iter() {
                let _ = p.san(m);
                let _ = p.uci(m);
            }
            let _ = perft(&p, 2);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fen_parser_survives_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        if let Ok(s) = Setup::parse_bytes(&bytes) {
            exercise(&s);
        }
    }

    #[test]
    fn fen_parser_survives_random_strings(text in any::<String>()) {
        if let Ok(s) = Setup::parse(&text) {
            exercise(&s);
        }
    }

    #[test]
    fn fen_parser_survives_fen_like_text(
        text in "[1-8pnbrqkPNBRQKx/]{8,70} [wbx] (-|[KQkqA-Ha-h]{1,5}) (-|[a-h][1-8]|[a-z0-9]{1,3})( [0-9]{1,3}( [0-9]{1,3})?)?"
    ) {
        if let Ok(s) = Setup::parse(&text) {
            exercise(&s);
        }
    }

    #[test]
    fn san_parser_survives_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..12)) {
        for p in positions() {
            if let Ok(m) = p.parse_san(&bytes) {
                // Whatever it accepted is legal (or the null move).
                prop_assert!(m.is_null() || p.legal_moves().contains(m));
                let mut q = p;
                q.play(m);
            }
            let _ = p.parse_uci(&bytes);
        }
    }

    #[test]
    fn san_parser_survives_san_like_text(text in "[NBRQKPa-h1-8xX=O0+#!?.-]{1,9}") {
        for p in positions() {
            if let Ok(m) = p.parse_san(text.as_bytes()) {
                prop_assert!(m.is_null() || p.legal_moves().contains(m), "{}", text);
            }
        }
    }
}

/// Boards with pawns on the back ranks or crowded with queens parse (the
/// docs/chess.md, section FEN, leaves them to the audit) and never panic when played on.
#[test]
fn odd_but_parseable_boards_do_not_panic() {
    for fen in [
        "P3k3/8/8/8/8/8/8/p3K3 w - - 0 1",
        "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 w - e3 0 1",
    ] {
        let s = Setup::parse(fen).unwrap();
        exercise(&s);
    }
}
