//! Spellings that the vectors do not contain but real files do (docs/xiangqi-notation.md §3.2,
//! §3.3, §4), made from the vectors' own strings by the substitutions the
//! document describes; and the errors for texts that name no legal move, or
//! more than one.

use crate::notation_support::{Row, VectorBoard, load_vectors};
use pgnmill::xiangqi::notation::{
    Notation, NotationError, detect_notation, parse_move, parse_move_as,
};
use pgnmill::xiangqi::types::Move;

/// Applies `variant` to every row; rows where it returns `None` do not have
/// the form. Each variant must parse to the row's move. Returns how many rows
/// were tried.
fn every_variant(label: &str, variant: impl Fn(&Row) -> Option<String>) -> usize {
    let (rows, boards) = load_vectors();
    let mut tried = 0;
    let mut failures = Vec::new();
    for row in &rows {
        let Some(text) = variant(row) else { continue };
        tried += 1;
        match parse_move(&boards[&row.fen], &text) {
            Ok(m) if m.to_string() == row.iccs => {}
            Ok(m) => failures.push(format!("{text}: got {m}, expected {}", row.iccs)),
            Err(e) => failures.push(format!("{e} (expected {})", row.iccs)),
        }
    }
    eprintln!("{label}: {} / {tried} pass", tried - failures.len());
    assert!(tried > 0, "{label}: no row has this form");
    assert!(
        failures.is_empty(),
        "{label}:\n{}",
        failures[..failures.len().min(15)].join("\n")
    );
    tried
}

fn replace_chars(s: &str, pairs: &[(char, char)]) -> String {
    s.chars()
        .map(|c| {
            pairs
                .iter()
                .find(|(from, _)| *from == c)
                .map_or(c, |(_, to)| *to)
        })
        .collect()
}

#[test]
fn chinese_character_variants() {
    // 俥 傌 (mostly red), 砲 包 (mostly black), 上/下 for 进/退, 後 for 后.
    every_variant("俥傌砲 上下 後", |r| {
        Some(replace_chars(
            &r.chinese,
            &[
                ('车', '俥'),
                ('马', '傌'),
                ('炮', '砲'),
                ('进', '上'),
                ('退', '下'),
                ('后', '後'),
            ],
        ))
    });
    every_variant("車馬包 帥將", |r| {
        Some(replace_chars(
            &r.chinese,
            &[
                ('车', '車'),
                ('马', '馬'),
                ('炮', '包'),
                ('帅', '帥'),
                ('将', '將'),
            ],
        ))
    });
    // "Files exist that use one character for both" sides.
    every_variant("one character for both sides", |r| {
        Some(replace_chars(
            &r.chinese,
            &[('象', '相'), ('士', '仕'), ('卒', '兵'), ('将', '帅')],
        ))
    });
}

#[test]
fn chinese_place_word_forms() {
    // 前九平八: the abbreviated two-file form without the piece (docs/xiangqi-notation.md §3.3).
    every_variant("前九平八 (piece dropped)", |r| {
        let chars: Vec<char> = r.chinese_alt.chars().collect();
        (chars.len() == 5).then(|| [chars[0], chars[2], chars[3], chars[4]].iter().collect())
    });
    // 车前平三: the place word after the piece (docs/xiangqi-notation.md §4.2's gloss).
    every_variant("车前平三 (place after piece)", |r| {
        let chars: Vec<char> = r.chinese.chars().collect();
        let is_place = matches!(chars[0], '前' | '中' | '后');
        (is_place && r.case == "tandem2")
            .then(|| [chars[1], chars[0], chars[2], chars[3]].iter().collect())
    });
}

#[test]
fn wxf_dialects() {
    every_variant("WXF N/B letters", |r| {
        Some(replace_chars(&r.wxf_official, &[('H', 'N'), ('E', 'B')]))
    });
    every_variant("WXF sign before the letter (+R.3)", |r| {
        let b = r.wxf_official.as_bytes();
        (b[0].is_ascii_alphabetic() && matches!(b[1], b'+' | b'-'))
            .then(|| format!("{}{}{}", b[1] as char, b[0] as char, &r.wxf_official[2..]))
    });
    every_variant("WXF without sideways operator (C25)", |r| {
        r.wxf_official
            .contains('.')
            .then(|| r.wxf_official.replace('.', ""))
    });
    every_variant("WXF '=' for the official forms", |r| {
        Some(r.wxf_official.replace('.', "="))
    });
}

#[test]
fn spec_example_two_stacked_pawn_files() {
    // xqbase's example (docs/xiangqi-notation.md §3.3): red pawns on files 四 (f) and 六 (d),
    // two each: 一兵 = front f-pawn, 二兵 = rear f-pawn, 三兵 = front d-pawn,
    // 四兵 = rear d-pawn. Pawns on ranks 5 and 6 (across the river), only
    // their forward steps offered as legal moves.
    let mut board = VectorBoard::from_fen("4k4/9/9/3P1P3/3P1P3/9/9/9/9/4K4 w - - 0 1");
    board.legal = ["f6f7", "f5f6", "d6d7", "d5d6"]
        .iter()
        .map(|s| Move::from_iccs(s).unwrap())
        .collect();
    // f5f6 is blocked in a real game; the test board offers it to prove
    // that the ordinal alone picks the pawn.
    for (text, want) in [
        ("一兵进一", "f6f7"),
        ("二兵进一", "f5f6"),
        ("三兵进一", "d6d7"),
        ("四兵进一", "d5d6"),
        ("前兵四进一", "f6f7"),
        ("后兵六进一", "d5d6"),
        ("前四进一", "f6f7"),
        ("4+.+1", ""),
    ] {
        if want.is_empty() {
            assert!(parse_move(&board, text).is_err(), "{text}");
            continue;
        }
        assert_eq!(
            parse_move(&board, text).map(|m| m.to_string()),
            Ok(want.to_owned()),
            "{text}"
        );
    }
    // 前兵进一 fits the front pawn of both files: ambiguous.
    let err = parse_move(&board, "前兵进一").unwrap_err();
    assert!(matches!(err, NotationError::Ambiguous { .. }), "{err}");
    assert!(err.to_string().contains("f6f7") && err.to_string().contains("d6d7"));
}

fn start_board(legal: &[&str]) -> VectorBoard {
    let mut board = VectorBoard::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    );
    board.legal = legal.iter().map(|s| Move::from_iccs(s).unwrap()).collect();
    board
}

#[test]
fn errors_say_what_is_wrong() {
    // No cannon on file 二 once the h2 cannon has moved to e2.
    let mut board = start_board(&[]);
    board.play(Move::from_iccs("h2e2").unwrap());
    board.play(Move::from_iccs("h9g7").unwrap());
    let err = parse_move(&board, "炮二平五").unwrap_err();
    assert_eq!(err.to_string(), "炮二平五: no red cannon on file 二");
    let err = parse_move(&board, "C2.5").unwrap_err();
    assert_eq!(err.to_string(), "C2.5: no red cannon on file 2");

    // A legal-looking move the legal list does not contain.
    let board = start_board(&["b0c2"]);
    let err = parse_move(&board, "马二进三").unwrap_err();
    assert!(matches!(err, NotationError::Illegal { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "马二进三: the red horse on h0 cannot go to g2: h0g2 is not a legal move here"
    );
    let err = parse_move(&board, "h2e2").unwrap_err();
    assert!(err.to_string().contains("red cannon on h2"), "{err}");
    let err = parse_move(&board, "h7e7").unwrap_err();
    assert!(err.to_string().contains("black's"), "{err}");

    // 前马 with the horses on different files.
    let err = parse_move(&board, "前马进七").unwrap_err();
    assert!(
        err.to_string()
            .contains("no file holds two or more red horses"),
        "{err}"
    );
    // A horse never moves sideways.
    assert!(parse_move(&board, "马二平三").is_err());

    // Two pawns on one file that can both step: the plain form is ambiguous.
    let mut board = VectorBoard::from_fen("4k4/9/9/9/9/2P6/9/2P6/9/4K4 w - - 0 1");
    board.legal = ["c4c5", "c2c3"]
        .iter()
        .map(|s| Move::from_iccs(s).unwrap())
        .collect();
    let err = parse_move(&board, "兵七进一").unwrap_err();
    assert!(matches!(err, NotationError::Ambiguous { .. }), "{err}");
    assert!(err.to_string().contains("2 red pawns could be meant"));
    assert_eq!(parse_move(&board, "前兵进一").unwrap().to_string(), "c4c5");
    assert_eq!(parse_move(&board, "P-+1").unwrap().to_string(), "c2c3");

    assert_eq!(parse_move(&board, "  "), Err(NotationError::Empty));
    assert!(matches!(
        parse_move(&board, "hello"),
        Err(NotationError::Unrecognized { .. })
    ));
    assert!(matches!(
        parse_move_as(&board, "炮二平五", Notation::Wxf),
        Err(NotationError::Syntax { .. })
    ));
}

#[test]
fn detection_of_single_tokens() {
    assert_eq!(detect_notation("h2e2"), Some(Notation::Iccs));
    assert_eq!(detect_notation("H2-E2"), Some(Notation::Iccs));
    assert_eq!(detect_notation("C2.5"), Some(Notation::Wxf));
    assert_eq!(detect_notation("Ｃ２＝５"), Some(Notation::Wxf));
    assert_eq!(detect_notation("27=8"), Some(Notation::Wxf));
    assert_eq!(detect_notation("炮二平五"), Some(Notation::Chinese));
    assert_eq!(detect_notation("马８进７"), Some(Notation::Chinese));
    assert_eq!(
        detect_notation("馬8進7"),
        Some(Notation::ChineseTraditional)
    );
    assert_eq!(detect_notation("1-0"), None);
    assert_eq!(detect_notation("1."), None);
    assert_eq!(detect_notation("{comment}"), None);
    assert_eq!(detect_notation("红进左马"), None);
}
