//! Xiangqi FEN reading and writing: accepted forms (docs/xiangqi-notation.md §1-2), error
//! messages that name the problem, and no panic on any input (proptest).

use pgnmill::xiangqi::types::{Color, Move, Piece, Role, Square};
use pgnmill::xiangqi::{FenError, Position};
use proptest::prelude::*;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn err(fen: &str) -> String {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("{fen:?} was accepted as {}", pos.fen()),
        Err(e) => e.to_string(),
    }
}

fn sq(s: &str) -> Square {
    Square::from_iccs(s.as_bytes()).unwrap()
}

#[test]
fn startpos_matches_the_spec_fen() {
    let pos = Position::startpos();
    assert_eq!(pos.fen(), START);
    assert_eq!(Position::from_fen(START).unwrap(), pos);
    assert_eq!(pos.turn(), Color::Red);
    assert_eq!(
        pos.piece_at(sq("e0")),
        Some(Piece::new(Color::Red, Role::King))
    );
    assert_eq!(
        pos.piece_at(sq("b7")),
        Some(Piece::new(Color::Black, Role::Cannon))
    );
    assert_eq!(pos.piece_at(sq("e4")), None);
    assert_eq!(pos.to_string(), START);
    assert_eq!(START.parse::<Position>().unwrap(), pos);
}

/// Spec §1: many files carry only the first two fields; pyffish then writes
/// `- - 0 1`.
#[test]
fn short_fens_get_pyffish_defaults() {
    let two = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert_eq!(Position::from_fen(two).unwrap().fen(), START);
    let four = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -";
    assert_eq!(Position::from_fen(four).unwrap().fen(), START);
    let black = "3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 b";
    assert_eq!(
        Position::from_fen(black).unwrap().fen(),
        "3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 b - - 0 1"
    );
    let padded = format!("  {START}\n");
    assert_eq!(Position::from_fen(&padded).unwrap().fen(), START);
}

/// Spec §2: the chessprogramming-wiki perft page writes H (horse) and E
/// (elephant); pyffish reads them and writes N and B. This is CPW position 2
/// as printed on that page.
#[test]
fn h_and_e_letters_are_read_and_written_as_n_and_b() {
    let cpw = Position::from_fen(
        "r1ea1a3/4kh3/2h1e4/pHp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2EAKAE2 w - - 0 1",
    )
    .unwrap();
    assert_eq!(
        cpw.fen(),
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
    );
    assert_eq!(cpw.legal_moves().len(), 38); // CPW: perft(1) = 38
}

#[test]
fn counters_are_kept_and_advanced_like_pyffish() {
    let mut pos = Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12",
    )
    .unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (7, 12));
    pos.play(Move::from_iccs("h7e7").unwrap());
    assert_eq!(
        pos.fen(),
        "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 8 13"
    );
    // Red's b2 cannon takes the b9 horse over the b7 cannon (one screen).
    let m = Move::from_iccs("b2b9").unwrap();
    assert!(pos.is_capture(m));
    pos.play(m);
    assert_eq!(pos.halfmove_clock(), 0);
}

#[test]
fn error_messages_name_the_problem() {
    assert_eq!(err(""), "empty FEN");
    assert_eq!(err("   "), "empty FEN");
    assert!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w").contains("9 ranks"));
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
        "rank 0 covers 8 points, expected 9"
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w"),
        "rank 2 covers 10 points, expected 9"
    );
    let bad = err("rnxakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert!(
        bad.contains("'x'") && bad.contains("rank 9") && bad.contains("column 3"),
        "{bad}"
    );
    let zero = err("rnbakabnr/0/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    assert!(zero.contains("'0'") && zero.contains("rank 8"), "{zero}");
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"),
        "missing side to move (field 2, 'w' or 'b')"
    );
    assert!(err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x").contains("\"x\""));
    assert!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQkq - 0 1")
            .contains("field 3")
    );
    assert!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - e3 0 1")
            .contains("field 4")
    );
    assert!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1")
            .contains("half-move clock")
    );
    assert!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -1")
            .contains("move number")
    );
    assert!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 junk")
            .contains("junk")
    );
    assert_eq!(
        err("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        "no black king on the board"
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w"),
        "no red king on the board"
    );
    assert_eq!(
        err("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        "2 black kings on the board, expected 1"
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/K8 w"),
        "red king on a0 is outside its palace"
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        "the kings face each other on the open e file"
    );
    assert_eq!(
        err("4k4/4R4/9/9/9/9/9/9/9/3K5 w"),
        "black is not to move but is in check"
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/P8/RNBAKABNR w"),
        "17 red pieces on the board, at most 16 allowed"
    );
    // Errors are values, matchable by the caller.
    assert!(matches!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        Err(FenError::KingsFacing { file: 'e' })
    ));
}

/// Four kings-facing and check cases that the rules spell out.
#[test]
fn rules_edge_cases() {
    // A king may not step onto the other king's open file.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(!moves.contains(&"e0d0".to_string()), "{moves:?}");
    assert!(moves.contains(&"e0e1".to_string()));
    // Red to move, checked by a cannon whose screen is red's own advisor.
    let pos = Position::from_fen("2bak4/4a4/9/9/4c4/9/9/9/4A4/3AK4 w").unwrap();
    assert!(pos.is_check());
    // Checkmated side has no move and is in check.
    let mated =
        Position::from_fen("1nbakabn1/r7r/1c7/p1p1C1p1p/4C2c1/9/P1P1P1P1P/9/9/RNBAKABNR b - - 4 4")
            .unwrap();
    assert!(mated.is_check() && mated.legal_moves().is_empty() && mated.is_checkmate());
    assert!(!Position::startpos().is_check());
}

#[test]
fn keys_follow_placement_and_side_only() {
    let start = Position::startpos();
    // Two move orders reaching the same position give the same key.
    let play = |moves: &[&str]| {
        let mut p = start.clone();
        for m in moves {
            let m = Move::from_iccs(m).unwrap();
            assert!(p.is_legal(m));
            p.play(m);
        }
        p
    };
    let a = play(&["h2e2", "h9g7", "b0c2", "b9c7"]);
    let b = play(&["b0c2", "b9c7", "h2e2", "h9g7"]);
    assert_eq!(a.key(), b.key());
    assert_eq!(a.fen(), b.fen());
    // Shuffling back repeats the start key (counters differ, key does not).
    let back = play(&["h0g2", "h9g7", "g2h0", "g7h9"]);
    assert_eq!(back.key(), start.key());
    assert_ne!(back.fen(), start.fen());
    // Same placement, other side to move: different key.
    let black = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        .unwrap();
    assert_ne!(black.key(), start.key());
}

#[test]
fn illegal_moves_are_refused_and_play_never_panics() {
    let pos = Position::startpos();
    for text in ["e0e2", "a0a5", "b2b7", "c3c5", "c3b3", "g0e2x"] {
        if let Some(m) = Move::from_iccs(text) {
            assert!(!pos.is_legal(m), "{text}");
        }
    }
    assert!(
        !pos.is_legal(Move::from_iccs("h9g7").unwrap()),
        "black piece, red to move"
    );
    assert!(
        !pos.is_legal(Move::from_iccs("e4e5").unwrap()),
        "empty point"
    );
    let mut p = pos.clone();
    p.play(Move::from_iccs("e4e5").unwrap());
    assert_eq!(p, pos, "a move from an empty point does nothing");
    p.play(Move::from_iccs("e0e0").unwrap());
    assert_eq!(p, pos, "a null move does nothing");
}

fn check_parsed(text: &str) {
    if let Ok(pos) = Position::from_fen(text) {
        let written = pos.fen();
        let again = Position::from_fen(&written).expect("written FEN reads back");
        assert_eq!(again.fen(), written);
        assert_eq!(again.key(), pos.key());
        let _ = pos.legal_moves();
        let _ = pos.is_check();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_string_never_panics(text in any::<String>()) {
        check_parsed(&text);
    }

    #[test]
    fn fen_alphabet_never_panics(text in "[rnbakcpheRNBAKCPHEx0-9/ wb-]{0,120}") {
        check_parsed(&text);
    }

    /// Valid FENs with one character replaced, inserted or deleted.
    #[test]
    fn mutated_fens_never_panic(pos in 0usize..80, ch in "[rnbakcpRNBAKCP1-9/ wb-]", op in 0u8..3) {
        let mut chars: Vec<char> = START.chars().collect();
        let at = pos.min(chars.len() - 1);
        let c = ch.chars().next().unwrap();
        match op {
            0 => chars[at] = c,
            1 => chars.insert(at, c),
            _ => { chars.remove(at); }
        }
        check_parsed(&chars.into_iter().collect::<String>());
    }
}
