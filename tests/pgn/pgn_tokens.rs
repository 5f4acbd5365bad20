//! The tokenizer against python-chess on real files, and on small hand-made
//! games whose tokens are evident from the PGN standard.

use std::path::Path;

use pgnmill::pgn::{GameText, Token, TokenKind, split_all};

fn corpus(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn/corpus")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn tokens(pgn: &str) -> Vec<(TokenKind, String)> {
    let spans = split_all(pgn.as_bytes(), false);
    assert_eq!(spans.len(), 1, "{pgn:?} should be one game: {spans:?}");
    let game = GameText::new(spans[0].slice(pgn.as_bytes(), 0).unwrap(), spans[0].line);
    game.movetext()
        .map(|t| (t.kind, String::from_utf8_lossy(t.text).into_owned()))
        .collect()
}

fn moves(pgn: &str) -> Vec<String> {
    tokens(pgn)
        .into_iter()
        .filter(|(k, _)| *k == TokenKind::Move)
        .map(|(_, t)| t)
        .collect()
}

/// `testdata/pgn/mainline.csv` comes from `testdata/pgn/mainline.py`
/// (python-chess 1.11.2): per game, the main-line plies it replayed, the
/// White tag it read and the result token it saw in the movetext.
#[test]
fn mainline_matches_python_chess() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/pgn/mainline.csv");
    let mut rdr = csv::Reader::from_path(path).unwrap();
    let mut files: std::collections::BTreeMap<String, Vec<csv::StringRecord>> = Default::default();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        files.entry(rec[0].to_string()).or_default().push(rec);
    }
    let mut compared = 0;
    for (name, rows) in &files {
        let bytes = corpus(name);
        let spans = split_all(&bytes, false);
        assert_eq!(spans.len(), rows.len(), "{name}: game count");
        for (i, (span, row)) in spans.iter().zip(rows).enumerate() {
            // When the next game's tags follow this game's movetext with no
            // blank line, python-chess reads them as movetext of this game
            // (and the next game as tagless): its result token is then the
            // one in the next game's [Result] tag, and a tag value that looks
            // like a square may have been read as a move.
            let next_merged = rows.get(i + 1).is_some_and(|r| &r[4] == "<none>");
            let game = GameText::new(span.slice(&bytes, 0).unwrap(), span.line);
            let where_ = format!("{name} game {} (line {})", &row[1], span.line);
            if &row[4] != "<none>" {
                let white = game.tag("White").unwrap_or_default();
                let want: Vec<u8> = if name == "dortmund.pgn" {
                    row[4].chars().map(|c| c as u32 as u8).collect()
                } else {
                    row[4].as_bytes().to_vec()
                };
                assert_eq!(*white, want[..], "{where_}: White tag");
            }
            if &row[3] == "1" || next_merged {
                // python-chess met an error, or read the next game's tags as
                // moves: its ply count is not the text's.
                continue;
            }
            let toks: Vec<Token> = game.movetext().collect();
            let plies = toks.iter().filter(|t| t.kind == TokenKind::Move).count();
            assert_eq!(plies.to_string(), &row[2], "{where_}: plies");
            let result = toks
                .iter()
                .find(|t| t.kind == TokenKind::Result)
                .map(|t| String::from_utf8_lossy(t.text).into_owned())
                .unwrap_or_default();
            assert_eq!(result, &row[5], "{where_}: result token");
            compared += 1;
        }
    }
    assert!(compared > 3000, "only {compared} games compared");
}

#[test]
fn move_numbers_in_every_style() {
    assert_eq!(
        moves("1. e4 e5 2.Nf3 2...Nc6 3 Bb5 3.. a6 4... Ba4 1-0"),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    );
    assert_eq!(moves("1. ... e5 2. Nf3 *"), ["e5", "Nf3"]);
    assert_eq!(
        moves("12.O-O 0-0-0 13. e8=Q e8Q 14. -- Z0 0000 *"),
        ["O-O", "0-0-0", "e8=Q", "e8Q", "--", "Z0", "0000"]
    );
}

#[test]
fn comments_variations_nags_and_annotations_are_skipped() {
    let t = tokens(
        "1. e4! {best (by test} e5?! (1... c5 (1... e6 2. d4) 2. Nf3 {x)}) 2. Nf3 $1 ; rest ( {\n\
         2... Nc6 !? +/= 3. Bb5 inf 1/2-1/2 =====",
    );
    use TokenKind::*;
    let want: Vec<(TokenKind, String)> = [
        (Move, "e4"),
        (Move, "e5"),
        (Move, "Nf3"),
        (Nag, "$1"),
        (Move, "Nc6"),
        (Annotation, "!?"),
        (Annotation, "+/="),
        (Move, "Bb5"),
        (Annotation, "inf"),
        (Result, "1/2-1/2"),
    ]
    .iter()
    .map(|(k, s)| (*k, s.to_string()))
    .collect();
    assert_eq!(t, want);
}

#[test]
fn result_inside_a_variation_does_not_end_the_game() {
    assert_eq!(moves("1. e4 (1. d4 1-0) e5 0-1"), ["e4", "e5"]);
}

#[test]
fn percent_lines_and_semicolon_comments() {
    assert_eq!(
        moves("1. e4\n% 2. d4 {\n1... e5 ; { 2. Nc3\n2. Nf3 *"),
        ["e4", "e5", "Nf3"]
    );
}

#[test]
fn check_marks_are_kept_for_the_rules_kernel() {
    assert_eq!(moves("1. f3 e5 2. g4 Qh4# 0-1"), ["f3", "e5", "g4", "Qh4#"]);
}

#[test]
fn token_lines_count_crlf_cr_and_multiline_comments() {
    let pgn = "[Event \"x\"]\r\n\r\n1. e4 {a\r\nb\rc}\r\ne5\r(2. d4\n) 2. Nf3 *";
    let spans = split_all(pgn.as_bytes(), false);
    assert_eq!(spans.len(), 1);
    let game = GameText::new(spans[0].slice(pgn.as_bytes(), 0).unwrap(), spans[0].line);
    let tokens = game.movetext();
    let lines: Vec<(String, u64)> = tokens
        .clone()
        .map(|t| {
            let text = String::from_utf8_lossy(t.text).into_owned();
            (text, tokens.line_at(t.offset))
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("e4".to_string(), 3),
            ("e5".to_string(), 6),
            ("Nf3".to_string(), 8),
            ("*".to_string(), 8)
        ]
    );
}

#[test]
fn chinese_moves_and_ideographic_space() {
    assert_eq!(
        moves("1.炮二平五\u{3000}马８进７ 2. 马二进三　车９平８ *"),
        ["炮二平五", "马８进７", "马二进三", "车９平８"]
    );
    assert_eq!(moves("１．Ｃ２＝５ Ｈ８＋７ 1-0"), ["Ｃ２＝５", "Ｈ８＋７"]);
}

#[test]
fn tags_with_escapes_and_movetext_on_the_same_line() {
    let pgn = br#"[A "b\""] [C "A]]"] [F "\"A]][\"\\"] [fen "8/8"] 1. e4 *"#;
    let game = GameText::new(pgn, 1);
    let tags: Vec<(Vec<u8>, Vec<u8>)> = game
        .tags()
        .map(|t| (t.name.to_vec(), t.value().into_owned()))
        .collect();
    assert_eq!(
        tags,
        [
            (b"A".to_vec(), b"b\"".to_vec()),
            (b"C".to_vec(), b"A]]".to_vec()),
            (b"F".to_vec(), b"\"A]][\"\\".to_vec()),
            (b"fen".to_vec(), b"8/8".to_vec()),
        ]
    );
    assert_eq!(game.tag("FEN").as_deref(), Some(&b"8/8"[..]));
    let toks: Vec<&[u8]> = game.movetext().map(|t| t.text).collect();
    assert_eq!(toks, [&b"e4"[..], b"*"]);
}

#[test]
fn unterminated_tag_and_comment_do_not_run_away() {
    let game = GameText::new(
        b"[Event \"open\n[Site \"s\"]\n1. e4 {never closed\n2. d4",
        1,
    );
    let names: Vec<&[u8]> = game.tags().map(|t| t.name).collect();
    assert_eq!(names, [&b"Event"[..], b"Site"]);
    let moves: Vec<&[u8]> = game.movetext().map(|t| t.text).collect();
    assert_eq!(moves, [&b"e4"[..]]);
}

#[test]
fn game_without_movetext() {
    let game = GameText::new(b"[Event \"x\"]\n[Result \"*\"]\n", 7);
    assert_eq!(game.tags().count(), 2);
    assert_eq!(game.tags().nth(1).unwrap().line, 8);
    assert_eq!(game.movetext().count(), 0);
}

/// Inside a variation, a parenthesis in a `;` comment or on a `%` line is
/// text, not structure (PGN standard 5 and 6): the variation still ends at
/// its own `)`.
#[test]
fn parentheses_in_line_comments_inside_variations_are_text() {
    assert_eq!(
        moves("1. e4 (1. d4 ; a ) and a ( here\nd5 {x)} 2. c4) e5\n2. Nf3 *"),
        ["e4", "e5", "Nf3"]
    );
    assert_eq!(
        moves("1. e4 (1. d4\n% escaped ) line (\nd5) e5 *"),
        ["e4", "e5"]
    );
}
