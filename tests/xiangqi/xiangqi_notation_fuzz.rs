//! The notation readers and writers never panic, whatever the input, and
//! whatever they accept is a legal move.

use std::sync::OnceLock;

use crate::notation_support::{VectorBoard, load_vectors};
use pgnmill::xiangqi::notation::{
    Notation, detect_notation, parse_move, parse_move_as, write_move,
};
use pgnmill::xiangqi::types::{Move, Square};
use proptest::prelude::*;

/// A few real positions, with their legal moves.
fn boards() -> &'static [VectorBoard] {
    static BOARDS: OnceLock<Vec<VectorBoard>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        let (_, boards) = load_vectors();
        let mut all: Vec<VectorBoard> = boards.into_values().collect();
        all.sort_by_key(|b| b.legal.len());
        all
    })
}

/// Characters that notation uses, so random strings often come close to a
/// real move.
const ALPHABET: &[char] = &[
    '车', '車', '俥', '马', '馬', '傌', '炮', '砲', '包', '相', '象', '仕', '士', '帅', '帥', '将',
    '將', '兵', '卒', '前', '中', '后', '後', '进', '進', '上', '退', '下', '平', '一', '二', '三',
    '四', '五', '六', '七', '八', '九', '1', '5', '9', '０', '１', '９', 'K', 'A', 'E', 'B', 'H',
    'N', 'R', 'C', 'P', 'p', 'r', 'a', 'i', 'e', 'h', '+', '-', '.', '=', '#', '＋', '－', '．',
    '＝', 'Ｃ', ' ', '0', '\u{300}', '🀄',
];

fn check(board_index: usize, text: &str) {
    let list = boards();
    let board = &list[board_index % list.len()];
    if let Ok(m) = parse_move(board, text) {
        assert!(board.legal.contains(&m), "{text} gave illegal {m}");
    }
    for n in [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::ChineseTraditional,
    ] {
        if let Ok(m) = parse_move_as(board, text, n) {
            assert!(board.legal.contains(&m), "{text} gave illegal {m}");
        }
    }
    let _ = detect_notation(text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_unicode_never_panics(i in 0usize..200, text in "\\PC{0,16}") {
        check(i, &text);
    }

    #[test]
    fn random_notation_characters_never_panic(
        i in 0usize..200,
        chars in prop::collection::vec(prop::sample::select(ALPHABET), 0..9),
    ) {
        let text: String = chars.into_iter().collect();
        check(i, &text);
    }

    #[test]
    fn writing_any_square_pair_never_panics(i in 0usize..200, from in 0usize..90, to in 0usize..90) {
        let list = boards();
        let board = &list[i % list.len()];
        let m = Move::new(Square::from_index(from).unwrap(), Square::from_index(to).unwrap());
        for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese, Notation::ChineseTraditional] {
            let text = write_move(board, m, n);
            prop_assert!(!text.is_empty());
        }
    }
}
