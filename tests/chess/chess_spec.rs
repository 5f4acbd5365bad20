//! The examples and tables of `docs/chess.md`, one named test each.

use pgnmill::chess::{
    CastlingMode, Color, EpMode, FenError, Move, Position, SanError, Setup, perft,
};

fn pos(fen: &str) -> Position {
    let setup = Setup::parse(fen).unwrap();
    Position::from_setup(&setup, CastlingMode::Standard)
        .unwrap()
        .0
}

fn play_all(mut p: Position, sans: &[&str]) -> Position {
    for san in sans {
        let m = p
            .parse_san(san.as_bytes())
            .unwrap_or_else(|e| panic!("{san}: {e}"));
        p.play(m);
    }
    p
}

fn fen_err(fen: &str) -> String {
    match Setup::parse(fen) {
        Ok(_) => panic!("{fen:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

// --- "The castling field must agree with the board" ---

#[test]
fn spec_castling_example_refuses_o_o_and_reports_every_right() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1";
    let setup = Setup::parse(fen).unwrap();
    assert_eq!(setup.castling_text(), "KQkq");
    assert!(!setup.is_shredder());
    let (p, audit) = Position::from_setup(&setup, CastlingMode::Standard).unwrap();
    assert_eq!(audit.invalid, "KQkq");
    assert_eq!(audit.effective, "-");
    assert!(
        audit.reason.contains("K: no white rook on h1"),
        "{}",
        audit.reason
    );
    assert!(
        audit.reason.contains("Q: no white rook on a1"),
        "{}",
        audit.reason
    );
    assert!(
        audit.reason.contains("k: no black rook on h8"),
        "{}",
        audit.reason
    );
    assert!(
        audit.reason.contains("q: no black rook on a8"),
        "{}",
        audit.reason
    );
    let err = p.parse_san(b"O-O").unwrap_err();
    assert!(matches!(err, SanError::IllegalCastling { .. }), "{err}");
    assert!(err.to_string().starts_with("illegal castling"), "{err}");
    assert!(p.parse_san(b"O-O-O").is_err());
    assert!(p.parse_san(b"e1g1").is_err());
    assert!(p.legal_moves().iter().all(|m| !m.is_castle()));
    // The conjured-rook FEN of docs/chess.md can never come out.
    assert_eq!(p.fen(EpMode::Always), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
}

#[test]
fn spec_castling_king_off_its_square_is_named() {
    let setup = Setup::parse("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1").unwrap();
    let (_, audit) = Position::from_setup(&setup, CastlingMode::Standard).unwrap();
    assert_eq!(audit.invalid, "KQ");
    assert_eq!(audit.effective, "kq");
    assert!(
        audit.reason.contains("K: white king not on e1"),
        "{}",
        audit.reason
    );
}

#[test]
fn spec_castling_chess960_shredder_and_xfen() {
    // King b1 between rooks a1 and h1: both fields mean the same rights.
    for field in ["HAha", "KQkq"] {
        let fen = format!("rk5r/8/8/8/8/8/8/RK5R w {field} - 0 1");
        let setup = Setup::parse(&fen).unwrap();
        let (p, audit) = Position::from_setup(&setup, CastlingMode::Chess960).unwrap();
        assert!(audit.is_clean(), "{fen}: {}", audit.reason);
        assert_eq!(p.fen(EpMode::Legal), "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
        let oo = p.parse_san(b"O-O").unwrap();
        assert_eq!(p.uci(oo), "b1h1");
    }
    // A right to a rook that is not there.
    let setup = Setup::parse("rk5r/8/8/8/8/8/8/RK6 w HAha - 0 1").unwrap();
    let (_, audit) = Position::from_setup(&setup, CastlingMode::Chess960).unwrap();
    assert_eq!(audit.invalid, "H");
    assert_eq!(audit.effective, "Aha");
    assert!(
        audit.reason.contains("H: no white rook on h1"),
        "{}",
        audit.reason
    );
}

#[test]
fn spec_game_moves_only_remove_rights() {
    let p = play_all(
        Position::startpos(),
        &["e4", "e5", "Ke2", "Nf6", "Ke1", "Ng8"],
    );
    assert_eq!(
        p.fen(EpMode::Always),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w kq - 4 4"
    );
    let start = Position::startpos();
    assert!(start.is_zeroing_or_irreversible(start.parse_san(b"e4").unwrap()));
    assert!(!start.is_zeroing_or_irreversible(start.parse_san(b"Nf3").unwrap()));
    let p = play_all(Position::startpos(), &["e4", "e5"]);
    assert!(p.is_zeroing_or_irreversible(p.parse_san(b"Ke2").unwrap()));
}

// --- "Two en-passant conventions" / "Repetition" ---

#[test]
fn spec_two_routes_one_board() {
    let a = play_all(Position::startpos(), &["a4", "h6", "a5", "h5", "Nf3", "e5"]);
    let b = play_all(
        Position::startpos(),
        &["a3", "e6", "a4", "e5", "a5", "h6", "Nf3", "h5"],
    );
    assert_eq!(
        a.fen(EpMode::Always),
        "rnbqkbnr/pppp1pp1/8/P3p2p/8/5N2/1PPPPPPP/RNBQKB1R w KQkq e6 0 4"
    );
    assert_eq!(
        b.fen(EpMode::Always),
        "rnbqkbnr/pppp1pp1/8/P3p2p/8/5N2/1PPPPPPP/RNBQKB1R w KQkq - 0 5"
    );
    assert_eq!(
        a.fen(EpMode::Legal),
        "rnbqkbnr/pppp1pp1/8/P3p2p/8/5N2/1PPPPPPP/RNBQKB1R w KQkq - 0 4"
    );
    assert_eq!(a.legal_moves().len(), 24);
    assert_eq!(b.legal_moves().len(), 24);
    assert_eq!(a.key_ep_legal(), b.key_ep_legal());
    assert_ne!(a.key_ep_always(), b.key_ep_always());
}

#[test]
fn ep_square_written_only_when_legal_under_ep_legal() {
    // 1.e4 d5 2.e5 f5: exf6 is legal, so both conventions write f6.
    let p = play_all(Position::startpos(), &["e4", "d5", "e5", "f5"]);
    assert_eq!(p.ep_for(EpMode::Always).unwrap().to_string(), "f6");
    assert_eq!(p.ep_for(EpMode::Legal).unwrap().to_string(), "f6");
    assert_eq!(p.key_ep_always(), p.key_ep_legal());
    // A capturer pinned along the rank: X-FEN writes the square, ep-legal not.
    let pinned = pos("8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1");
    assert_eq!(
        pinned.ep_for(EpMode::PseudoLegal).unwrap().to_string(),
        "e3"
    );
    assert_eq!(pinned.ep_for(EpMode::Legal), None);
}

// --- FEN table: one test per row ---

#[test]
fn fen_fewer_than_four_fields_names_the_missing_fields() {
    let e = fen_err("4k3/8/8/8/8/8/8/4K3 w");
    assert!(e.contains("missing castling, en passant"), "{e}");
    let e = fen_err("");
    assert!(e.contains("missing placement"), "{e}");
}

/// Text whose first field holds no `/` is no FEN at all: said so, not
/// reported as a FEN missing its last fields (kokopu's `[FEN "Something
/// invalid"]`).
#[test]
fn fen_text_without_a_board_is_not_a_fen_board() {
    for (text, word) in [
        ("Something invalid", "Something"),
        ("not a fen", "not"),
        ("8 w - - 0 1", "8"),
        ("rnbqkbnrpppppppp w KQkq - 0 1", "rnbqkbnrpppppppp"),
    ] {
        assert_eq!(
            Setup::parse(text),
            Err(FenError::NotABoard(word.to_string())),
            "{text}"
        );
        let e = fen_err(text);
        assert!(e.contains("is not a FEN board"), "{e}");
        assert!(!e.contains("missing"), "{e}");
    }
}

#[test]
fn fen_rank_with_wrong_square_count_is_named() {
    let e = fen_err("4k3/8/8/8/8/7/4P3/4K3 w - - 0 1");
    assert!(e.contains("rank 3 covers 7 squares"), "{e}");
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K4 w - - 0 1");
    assert!(e.contains("rank 1 covers 9 squares"), "{e}");
    let e = fen_err("4k3/8/8/8/8/8/4K3 w - - 0 1");
    assert!(e.contains("7 ranks"), "{e}");
}

#[test]
fn fen_bad_piece_letter_names_character_and_column() {
    let e = fen_err("4k3/8/8/8/8/8/4X3/4K3 w - - 0 1");
    assert!(e.contains("'X'") && e.contains("column 16"), "{e}");
    assert!(matches!(
        Setup::parse("4k3/8/8/8/8/8/4X3/4K3 w - - 0 1"),
        Err(FenError::BadPiece {
            ch: 'X',
            column: 16
        })
    ));
}

#[test]
fn fen_bad_side_to_move_is_refused() {
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K3 x - - 0 1");
    assert!(e.contains("side to move") && e.contains("\"x\""), "{e}");
}

#[test]
fn fen_king_count_is_checked_per_colour() {
    // The text reads; the position it describes is refused.
    let king_err = |fen: &str| {
        let setup = Setup::parse(fen).unwrap();
        match Position::from_setup(&setup, CastlingMode::Standard) {
            Ok(_) => panic!("{fen:?} was accepted"),
            Err(e) => e.to_string(),
        }
    };
    assert_eq!(
        king_err("8/8/8/8/8/8/4P3/4K3 w - - 0 1"),
        "black has no king"
    );
    assert_eq!(
        king_err("4k3/8/8/8/8/8/4P3/3KK3 w - - 0 1"),
        "white has 2 kings"
    );
}

#[test]
fn fen_counters_are_optional() {
    let s = Setup::parse("4k3/8/8/8/8/8/4P3/4K3 b - -").unwrap();
    assert_eq!((s.halfmove, s.fullmove, s.turn), (0, 1, Color::Black));
    let p = Position::from_setup(&s, CastlingMode::Standard).unwrap().0;
    assert_eq!(p.fen(EpMode::Always), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
}

#[test]
fn fen_malformed_castling_or_ep_field_is_refused() {
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K3 w KQkx - 0 1");
    assert!(e.contains("castling") && e.contains("KQkx"), "{e}");
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K3 w kK - 0 1");
    assert!(e.contains("castling"), "{e}");
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K3 w - e9 0 1");
    assert!(e.contains("en passant") && e.contains("e9"), "{e}");
    let e = fen_err("4k3/8/8/8/8/8/4P3/4K3 w - - x 1");
    assert!(e.contains("halfmove"), "{e}");
}

/// An en-passant square off the 3rd and 6th ranks is a square all the
/// same: python-chess 1.11.2 reads `... b - e4 0 1` (its status then has
/// `STATUS_INVALID_EP_SQUARE`) and replays from it, and so does pgnmill,
/// dropping the square as it drops any no double step can have made.
#[test]
fn fen_ep_square_off_its_ranks_is_read_and_dropped() {
    for fen in [
        "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - a1 0 1",
    ] {
        let s = Setup::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let p = Position::from_setup(&s, CastlingMode::Standard).unwrap().0;
        assert_eq!(p.ep_square(), None, "{fen}");
        let mut want = fen.split(' ').collect::<Vec<_>>();
        want[3] = "-";
        assert_eq!(p.fen(EpMode::Always), want.join(" "));
    }
}

// --- Movetext tolerance and SAN errors ---

#[test]
fn san_tolerance_list() {
    let p = Position::startpos();
    let nf3 = p.parse_san(b"Nf3").unwrap();
    for t in [
        &b"Ng1f3"[..],
        b"N1f3",
        b"Ngf3",
        b"Ng1-f3",
        b"g1f3",
        b"Nf3!?",
        b"Nf3+",
    ] {
        assert_eq!(p.parse_san(t), Ok(nf3), "{}", String::from_utf8_lossy(t));
    }
    let e4 = p.parse_san(b"e4").unwrap();
    for t in [&b"e2e4"[..], b"e2-e4", b"e4!", b"e4??"] {
        assert_eq!(p.parse_san(t), Ok(e4));
    }
    // Castling with zeros.
    let c = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(c.parse_san(b"0-0"), c.parse_san(b"O-O"));
    assert_eq!(c.parse_san(b"0-0-0+"), c.parse_san(b"O-O-O"));
    assert_eq!(c.uci(c.parse_san(b"O-O").unwrap()), "e1g1");
    // python-chess also reads the king's step and king-takes-rook as
    // castling, but not `Kg1`.
    assert!(c.parse_san(b"Kg1").is_err());
    for t in [&b"e1g1"[..], b"e1h1"] {
        assert_eq!(
            c.parse_san(t),
            c.parse_san(b"O-O"),
            "{}",
            String::from_utf8_lossy(t)
        );
    }
    // Promotion with or without '='.
    let pr = pos("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    let q = pr.parse_san(b"e8=Q").unwrap();
    assert_eq!(pr.parse_san(b"e8Q"), Ok(q));
    assert_eq!(pr.uci(q), "e7e8q");
    assert!(matches!(
        pr.parse_san(b"e8"),
        Err(SanError::MissingPromotion(_))
    ));
    // e.p. suffix.
    let ep = play_all(Position::startpos(), &["e4", "a6", "e5", "d5"]);
    let m = ep.parse_san(b"exd6e.p.").unwrap();
    assert_eq!(ep.parse_san(b"exd6"), Ok(m));
    assert_eq!(ep.uci(m), "e5d6");
    // Glued without its dots, as pgn-extract reads it, and with a check
    // mark before it; a move that is no en-passant capture stays wrong.
    for t in [&b"exd6ep"[..], b"exd6e.p", b"exd6+e.p.", b"exd6ep+"] {
        assert_eq!(ep.parse_san(t), Ok(m), "{}", String::from_utf8_lossy(t));
    }
    assert!(ep.parse_san(b"exf6ep").is_err());
    assert!(ep.parse_san(b"ep").is_err());
}

#[test]
fn null_move_passes_turn_and_clears_ep() {
    let mut p = play_all(Position::startpos(), &["e4"]);
    assert!(p.ep_square().is_some());
    for t in [&b"--"[..], b"Z0"] {
        let mut q = p;
        let m = q.parse_san(t).unwrap();
        assert_eq!(m, Move::null());
        q.play(m);
        assert_eq!(q.turn(), Color::White);
        assert_eq!(q.ep_square(), None);
    }
    p.play(Move::null());
    assert_eq!(
        p.fen(EpMode::Always),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    );
}

#[test]
fn san_errors_say_why() {
    let p = Position::startpos();
    assert_eq!(
        p.parse_san(b"Nf4").unwrap_err().to_string(),
        "no knight can reach f4"
    );
    let r = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    assert_eq!(
        r.parse_san(b"Rd1").unwrap_err().to_string(),
        "ambiguous: two rooks can reach d1 (Rad1, Rfd1)"
    );
    let pinned = pos("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    let e = pinned.parse_san(b"Nf4").unwrap_err().to_string();
    assert!(e.ends_with("leaves the king in check"), "{e}");
    let e = p.parse_san(b"Xyz").unwrap_err().to_string();
    assert!(e.starts_with("invalid SAN token"), "{e}");
    let blocked = p.parse_san(b"O-O").unwrap_err().to_string();
    assert!(blocked.starts_with("illegal castling: O-O"), "{blocked}");
}

#[test]
fn checkmate_and_stalemate() {
    let mate = play_all(Position::startpos(), &["f3", "e5", "g4", "Qh4#"]);
    assert!(mate.is_checkmate() && !mate.is_stalemate());
    let stale = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stale.is_stalemate() && !stale.is_checkmate());
}

#[test]
fn perft_startpos_published_counts() {
    let p = Position::startpos();
    let expected = [1u64, 20, 400, 8902, 197_281];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32), n);
    }
}
