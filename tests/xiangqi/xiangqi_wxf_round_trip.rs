//! `convert --to wxf` writes moves that PGN reads back: the tandem and
//! pawn-stack forms (`R+.3`, `7+.6`, `--.4`), and for the middle pawn of
//! two stacked files pyffish's `27=6` where wxf.org's `77.6` would be read
//! as the move number `77.` (docs/xiangqi-notation.md §4.2, §6.2). Oracles:
//! the ICCS and pyffish WXF of testdata/xiangqi/notation/notation.csv (every
//! legal move of positions with stacked pieces, per pyffish), the main line
//! cchess decodes from pawn_move.xqf (records-expected.json), and the moves
//! of the wukong ICCS collections as written in them.

use crate::support::{read_csv, root};

/// `pgnmill convert --to TO INPUT`, its stdout.
fn convert(to: &str, input: &std::path::Path) -> String {
    crate::xiangqi_records::convert(to, input.to_str().unwrap())
}

/// The main-line moves of each game of a PGN text, by `pgnmill report
/// --moves` (every move read and replayed by the rules kernel).
fn report_moves(pgn: &str) -> Vec<(String, Vec<String>)> {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("games.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (_out_tmp, out) = crate::support::run_report(&["--moves", path.to_str().unwrap()]);
    read_csv(&out.join("games.csv"))
        .into_iter()
        .map(|r| {
            let moves = r["moves"].split_whitespace().map(String::from).collect();
            (r["status"].clone(), moves)
        })
        .collect()
}

/// The moves of a converted text: the movetext words that are not move
/// numbers, results or tags.
fn written_moves(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && *w != "*")
        .map(String::from)
        .collect()
}

/// The rows of testdata/xiangqi/notation/notation.csv whose moving piece
/// shares its file with another of its kind: the tandem and pawn-stack
/// forms.
fn stacked_piece_rows() -> Vec<std::collections::HashMap<String, String>> {
    read_csv(&root().join("testdata/xiangqi/notation/notation.csv"))
        .into_iter()
        .filter(|r| r["case"].starts_with("tandem") || r["case"].starts_with("pawns_two_files"))
        .collect()
}

#[test]
fn every_stacked_piece_move_of_the_vectors_reads_back_after_wxf() {
    let rows = stacked_piece_rows();
    assert!(rows.len() >= 350, "{} rows", rows.len());
    let mut pgn = String::new();
    for r in &rows {
        let number = if r["side"] == "black" { "1..." } else { "1." };
        pgn.push_str(&format!(
            "[Game \"Chinese Chess\"]\n[FEN \"{}\"]\n\n{number} {} *\n\n",
            r["fen"], r["iccs"]
        ));
    }
    let tmp = tempfile::tempdir().unwrap();
    let iccs = tmp.path().join("iccs.pgn");
    std::fs::write(&iccs, &pgn).unwrap();
    let wxf_text = convert("wxf", &iccs);
    let written = written_moves(&wxf_text);
    assert_eq!(written.len(), rows.len());
    let mut pyffish_forms = 0;
    for (r, w) in rows.iter().zip(&written) {
        let official = &r["wxf_official"];
        let b = official.as_bytes();
        if b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b'.' {
            // `77.6` is a move number in PGN: pyffish's form instead.
            assert_eq!(w, &r["wxf_pyffish"], "{} {}", r["fen"], r["iccs"]);
            pyffish_forms += 1;
        } else {
            assert_eq!(w, official, "{} {}", r["fen"], r["iccs"]);
        }
    }
    assert_eq!(pyffish_forms, 4, "the four `77.x` rows of notation.csv");
    let wxf = tmp.path().join("wxf.pgn");
    std::fs::write(&wxf, &wxf_text).unwrap();
    let back = written_moves(&convert("iccs", &wxf));
    let want: Vec<&str> = rows.iter().map(|r| r["iccs"].as_str()).collect();
    assert_eq!(back, want, "WXF -> ICCS gives the moves back");
}

#[test]
fn a_record_with_stacked_pawns_reads_back_after_wxf() {
    let text = std::fs::read_to_string(root().join("testdata/xiangqi/records-expected.json"))
        .expect("expected values");
    let expected: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let e = expected
        .iter()
        .find(|e| e["file"] == "pawn_move.xqf")
        .unwrap();
    let main: Vec<&str> = e["main_line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let wxf = convert(
        "wxf",
        &root().join("testdata/xiangqi/records/pawn_move.xqf"),
    );
    assert!(wxf.contains(" 27=6 "), "the middle pawn of file 7:\n{wxf}");
    let games = report_moves(&wxf);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].0, "ok");
    assert_eq!(games[0].1, main);
}

#[test]
fn the_wukong_collections_read_back_move_for_move_after_wxf() {
    let dir = root().join("testdata/xiangqi/outcomes");
    for name in [
        "wukong-hu-ronghua-1391-iccs.pgn",
        "wukong-liu-dahua-1125-iccs.pgn",
    ] {
        let original = std::fs::read_to_string(dir.join(name)).unwrap();
        let wxf = convert("wxf", &dir.join(name));
        let stacked = written_moves(&wxf)
            .iter()
            .filter(|w| {
                w.starts_with(['+', '-']) || w.as_bytes()[1] == b'+' || w.as_bytes()[1] == b'-'
            })
            .count();
        assert!(stacked > 100, "{name}: {stacked} tandem moves");
        let before = report_moves(&original);
        let after = report_moves(&wxf);
        assert_eq!(before.len(), after.len(), "{name}: games");
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            assert_eq!(b, a, "{name}: game {}", i + 1);
        }
    }
}

/// Files written by other tools use wxf.org's forms as they are, `77.6`
/// included: after a move number and a space, glued to it (`1.77.6`), or
/// in full-width forms (`７７．６`), each must read as the vector's move. A `77.6` is not a move number
/// followed by a `6`, which no notation reads as a move
/// (docs/xiangqi-notation.md §4.2).
#[test]
fn every_wxf_org_form_of_the_vectors_reads_from_movetext() {
    let rows = stacked_piece_rows();
    let mut pgn = String::new();
    let mut want = Vec::new();
    let mut two_digit_forms = 0;
    for r in &rows {
        let official = &r["wxf_official"];
        let b = official.as_bytes();
        let two_digits = b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b'.';
        two_digit_forms += usize::from(two_digits);
        let number = if r["side"] == "black" { "1..." } else { "1." };
        let full_width: String = official
            .chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
            .collect();
        let spellings = if two_digits {
            vec![
                format!(" {official}"),
                official.clone(),
                format!(" {full_width}"),
            ]
        } else {
            vec![format!(" {official}")]
        };
        for move_text in spellings {
            pgn.push_str(&format!(
                "[Game \"Chinese Chess\"]\n[FEN \"{}\"]\n\n{number}{move_text} *\n\n",
                r["fen"]
            ));
            want.push(("ok".to_string(), vec![r["iccs"].clone()]));
        }
    }
    assert_eq!(two_digit_forms, 4, "the four `77.x` rows of notation.csv");
    let got = report_moves(&pgn);
    assert_eq!(got.len(), want.len(), "games");
    let wrong: Vec<_> = pgn
        .split("\n\n[Game")
        .zip(got.iter().zip(&want))
        .filter(|(_, (g, w))| g != w)
        .map(|(game, (g, w))| format!("{game}\n  read {g:?}, want {w:?}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
