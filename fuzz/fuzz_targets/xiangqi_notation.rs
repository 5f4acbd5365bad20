//! Xiangqi move notations. Fuzz bytes (up to a 0xFF byte) pick moves to play
//! from the start position; at every position reached, every legal move
//! written in ICCS, WXF, Chinese and traditional Chinese must read back as
//! the same move, both in the notation it was written in and with the
//! notation detected from the text. The bytes after 0xFF are a token for
//! `parse_move`, which must never panic and may only return a legal move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::xiangqi::Position;
use pgnmill::xiangqi::notation::{Notation, parse_move, parse_move_as, write_move_to};

const NOTATIONS: [Notation; 4] = [
    Notation::Iccs,
    Notation::Wxf,
    Notation::Chinese,
    Notation::ChineseTraditional,
];

fn check_all_moves(pos: &Position) {
    let mut text = String::new();
    for &m in pos.legal_moves().iter() {
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
    }
});
