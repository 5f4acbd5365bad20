//! The 15 xqdb games that maksimKorzh/wukong-xiangqi ships in three
//! notations (ICCS, Chinese with full-width black digits, full-width WXF),
//! an independent real-world check of reading and writing.
//!
//! The ICCS file gives the moves; the test follows the pieces from the start
//! position and checks that the Chinese and WXF tokens of the same ply read
//! as that move (with only that move offered as legal: the games cannot be
//! replayed without the rules kernel) and that the writers produce the same
//! text up to the spellings docs/xiangqi-notation.md lets differ (full-width digits, `=` for
//! `.`, `+P` for `P+`).

use crate::notation_support::{VectorBoard, testdata};
use pgnmill::xiangqi::notation::{Notation, detect_notation, parse_move, write_move};
use pgnmill::xiangqi::types::Move;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The move tokens of each game (tags, move numbers and results dropped).
fn games(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(testdata(name)).unwrap();
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event") {
            games.push(Vec::new());
        }
        if line.starts_with('[') {
            continue;
        }
        if let Some(game) = games.last_mut() {
            game.extend(
                line.split_whitespace()
                    .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
                    .map(str::to_owned),
            );
        }
    }
    games
}

/// Full-width forms folded to ASCII.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c as u32 {
            0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect()
}

#[test]
fn three_notations_of_the_same_games_agree() {
    let iccs = games("wukong-xqdb15-iccs.pgn");
    let chinese = games("wukong-xqdb15-chinese.pgn");
    let wxf = games("wukong-xqdb15-wxf-fullwidth.pgn");
    assert_eq!((iccs.len(), chinese.len(), wxf.len()), (15, 15, 15));
    let mut plies = 0;
    let mut written_differently = Vec::new();
    let mut unread = Vec::new();
    for (g, ((iccs, chinese), wxf)) in iccs.iter().zip(&chinese).zip(&wxf).enumerate() {
        assert_eq!(iccs.len(), chinese.len(), "game {g}");
        assert_eq!(iccs.len(), wxf.len(), "game {g}");
        let mut board = VectorBoard::from_fen(START);
        for (ply, ((i, c), w)) in iccs.iter().zip(chinese).zip(wxf).enumerate() {
            let at = format!("game {} ply {}", g + 1, ply + 1);
            let m = Move::from_iccs(i).unwrap_or_else(|| panic!("{at}: {i}"));
            board.legal = vec![m];
            assert_eq!(detect_notation(c), Some(Notation::Chinese), "{at} {c}");
            assert_eq!(detect_notation(w), Some(Notation::Wxf), "{at} {w}");
            let read_c = parse_move(&board, c);
            let read_w = parse_move(&board, w);
            if read_c != Ok(m) || read_w != Ok(m) {
                eprintln!("{at} {i}: {c} -> {read_c:?}; {w} -> {read_w:?}");
                unread.push(at.clone());
            }
            assert_eq!(parse_move(&board, i), Ok(m), "{at} {i}");

            let want_chinese = fold(c);
            let got_chinese = write_move(&board, m, Notation::Chinese);
            let mut want_wxf = fold(w).replace('=', ".");
            if let [s @ (b'+' | b'-'), l, ..] = *want_wxf.as_bytes()
                && l.is_ascii_alphabetic()
            {
                want_wxf = format!("{}{}{}", l as char, s as char, &want_wxf[2..]);
            }
            let got_wxf = write_move(&board, m, Notation::Wxf);
            if got_chinese != want_chinese || got_wxf != want_wxf {
                eprintln!("{at} {i}: wrote {got_chinese} {got_wxf}, file has {c} {w}");
                written_differently.push(at.clone());
            }
            board.play(m);
            plies += 1;
        }
    }
    eprintln!("wukong xqdb15: {plies} plies read in three notations");
    // Checked by hand: in game 2 (LIU DianZhong - LIU DaHua, 1997) red has
    // pawns on e3 and e5 before ply 71, and the ICCS file plays e5e6, the
    // FRONT pawn (前兵进一, `P++1` / `+P+1`); the Chinese and WXF files write
    // 后兵进一 / －Ｐ＋１, the rear pawn, whose step e3e4 is a different
    // move. The three files disagree there; every other ply agrees.
    let known = vec!["game 2 ply 71".to_owned()];
    assert_eq!(
        unread, known,
        "plies whose Chinese or WXF text did not read as the ICCS move"
    );
    assert_eq!(written_differently, known, "plies written unlike the files");
}
