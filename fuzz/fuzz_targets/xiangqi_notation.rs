//! Xiangqi move notations. Fuzz bytes (up to a 0xFF byte) pick moves to play
//! from the start position; at every position reached, every legal move
//! written in ICCS, WXF, Chinese and traditional Chinese must read back as
//! the same move, both in the notation it was written in and with the
//! notation detected from the text; written as SAN with its full origin
//! (`Rh0h5`, `Rh1h6`), every legal move must read back in both rank bases.
//! The bytes after 0xFF are a token for `parse_move` and, split at white
//! space, the moves of a game for a `GameReader` (SAN included), which must
//! never panic and may only return legal moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::xiangqi::Position;
use pgnmill::xiangqi::notation::{
    GameReader, InMovetext, Notation, RankBase, parse_move, parse_move_as, write_move_to,
};
use pgnmill::xiangqi::types::Role;

const NOTATIONS: [Notation; 4] = [
    Notation::Iccs,
    Notation::Wxf,
    Notation::Chinese,
    Notation::ChineseTraditional,
];

/// `m` as SAN with its whole origin square, ranks counted from `base`.
fn full_san(pos: &Position, m: pgnmill::xiangqi::types::Move, base: u8) -> String {
    let letter = match pos.piece_at(m.from).map(|p| p.role) {
        Some(Role::King) => 'K',
        Some(Role::Advisor) => 'A',
        Some(Role::Elephant) => 'E',
        Some(Role::Horse) => 'H',
        Some(Role::Rook) => 'R',
        Some(Role::Cannon) => 'C',
        Some(Role::Pawn) | None => 'P',
    };
    let sq = |s: pgnmill::xiangqi::types::Square| {
        format!("{}{}", (b'a' + s.file()) as char, s.rank() + base)
    };
    format!("{letter}{}{}", sq(m.from), sq(m.to))
}

fn check_all_moves(pos: &Position) {
    let mut text = String::new();
    for &m in pos.legal_moves().iter() {
        for (base, rank_base) in [(0, RankBase::Zero), (1, RankBase::One)] {
            let san = full_san(pos, m, base);
            match GameReader::with_san_base(rank_base).read(pos, &san) {
                Ok(back) => assert_eq!(
                    back,
                    m,
                    "SAN {san:?} read back as {back} (FEN {})",
                    pos.fen()
                ),
                Err(e) => panic!("SAN {san:?} for {m} refused: {e} (FEN {})", pos.fen()),
            }
        }
        for notation in NOTATIONS {
            text.clear();
            if let Err(e) = write_move_to(pos, m, notation, &mut text) {
                panic!(
                    "legal move {m} cannot be written in {notation}: {e} (FEN {})",
                    pos.fen()
                );
            }
            match parse_move_as(pos, &text, notation) {
                Ok(back) => assert_eq!(
                    back,
                    m,
                    "{notation} {text:?} read back as {back} (FEN {})",
                    pos.fen()
                ),
                Err(e) => panic!(
                    "own {notation} {text:?} for {m} refused: {e} (FEN {})",
                    pos.fen()
                ),
            }
            match parse_move(pos, &text) {
                Ok(back) => assert_eq!(
                    back,
                    m,
                    "{text:?} (detected) read back as {back} (FEN {})",
                    pos.fen()
                ),
                Err(e) => panic!(
                    "own {notation} {text:?} for {m} refused when detected: {e} (FEN {})",
                    pos.fen()
                ),
            }
        }
        // As written into PGN movetext: never `<digits>.` (a move number),
        // and read back as the same move.
        text.clear();
        if let Err(e) = InMovetext(Notation::Wxf).write(pos, m, &mut text) {
            panic!(
                "legal move {m} cannot be written in movetext WXF: {e} (FEN {})",
                pos.fen()
            );
        }
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        assert!(
            digits == 0 || text.as_bytes().get(digits) != Some(&b'.'),
            "movetext WXF {text:?} starts like a move number (FEN {})",
            pos.fen()
        );
        match parse_move_as(pos, &text, Notation::Wxf) {
            Ok(back) => assert_eq!(
                back,
                m,
                "movetext WXF {text:?} read back as {back} (FEN {})",
                pos.fen()
            ),
            Err(e) => panic!(
                "movetext WXF {text:?} for {m} refused: {e} (FEN {})",
                pos.fen()
            ),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::startpos();
    let split = data.iter().position(|&b| b == 0xFF).unwrap_or(data.len());
    let (choices, token) = data.split_at(split);
    check_all_moves(&pos);
    for &c in choices.iter().take(80) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[c as usize % moves.len()];
        pos.play(m);
        check_all_moves(&pos);
    }
    if let Ok(token) = std::str::from_utf8(token.get(1..).unwrap_or_default()) {
        if let Ok(m) = parse_move(&pos, token) {
            assert!(
                pos.is_legal(m),
                "parse_move({token:?}) gave an illegal move {m}"
            );
        }
        let mut reader = GameReader::new();
        let mut game = Position::startpos();
        let mut words = token.split_whitespace();
        if let Some(first) = token.split_whitespace().next() {
            reader.look_ahead(first, || token.split_whitespace().map(str::as_bytes));
        }
        for word in words.by_ref().take(200) {
            match reader.read(&game, word) {
                Ok(m) => {
                    assert!(
                        game.is_legal(m),
                        "GameReader({word:?}) gave an illegal move {m}"
                    );
                    game.play(m);
                }
                Err(_) => break,
            }
        }
    }
});
