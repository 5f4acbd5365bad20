//! `pgnmill convert` against the pyffish vectors: the four PGN files of
//! `testdata/xiangqi/vectors` (the same 25 games in ICCS, WXF, simplified
//! Chinese and traditional Chinese with full-width digits) must convert to
//! exactly the move lists of `games.csv` (pyffish's ICCS, the vectors'
//! official WXF and Chinese), `pgnmill report` must reach each game's
//! `final_fen`, and every notation must convert back to the same ICCS.

use crate::support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pgnmill::pgn::{GameText, TokenKind, split_all};

const FILES: [&str; 4] = [
    "games_iccs.pgn",
    "games_wxf.pgn",
    "games_chinese.pgn",
    "games_chinese_trad_fullwidth.pgn",
];
const TARGETS: [&str; 4] = ["iccs", "wxf", "chinese", "chinese-traditional"];

fn vectors() -> PathBuf {
    support::root().join("testdata/xiangqi/vectors")
}

/// games.csv rows by game_id (the vectors' copy kept next to the notation
/// tests; byte-identical to the original, see the README).
fn expected() -> HashMap<String, HashMap<String, String>> {
    support::read_csv(&support::root().join("testdata/xiangqi/notation/games.csv"))
        .into_iter()
        .map(|r| (r["game_id"].clone(), r))
        .collect()
}

/// Runs `pgnmill convert --to <to> <input>` and returns stdout (UTF-8).
fn convert(to: &str, input: &Path) -> String {
    crate::xiangqi_convert_lines::convert(to, input).0
}

/// Per game: its [VectorId] (or its index), [Format] and main-line moves.
fn games(pgn: &str) -> Vec<(String, String, Vec<String>)> {
    let bytes = pgn.as_bytes();
    split_all(bytes, false)
        .iter()
        .enumerate()
        .map(|(i, span)| {
            let game = GameText::new(span.slice(bytes, 0).expect("span"), span.line);
            let tag = |n: &str| {
                game.tag(n)
                    .map(|v| String::from_utf8_lossy(&v).into_owned())
            };
            let moves = game
                .movetext()
                .filter(|t| t.kind == TokenKind::Move)
                .map(|t| String::from_utf8_lossy(t.text).into_owned())
                .collect();
            (
                tag("VectorId").unwrap_or_else(|| i.to_string()),
                tag("Format").unwrap_or_default(),
                moves,
            )
        })
        .collect()
}

fn check_moves(out: &str, column: &str, format: &str, what: &str) {
    let expected = expected();
    let got = games(out);
    assert_eq!(got.len(), 25, "{what}: games");
    for (id, fmt, moves) in got {
        let row = expected
            .get(&id)
            .unwrap_or_else(|| panic!("{what}: {id} not in games.csv"));
        assert_eq!(fmt, format, "{what} {id}: [Format]");
        assert_eq!(moves.join(" "), row[column], "{what} {id}: {column}");
    }
}

#[test]
fn every_vector_file_converts_to_pyffish_iccs() {
    for file in FILES {
        let out = convert("iccs", &vectors().join(file));
        check_moves(&out, "moves_iccs", "ICCS", file);
    }
}

#[test]
fn every_vector_file_converts_to_official_wxf_and_chinese() {
    for file in FILES {
        let input = vectors().join(file);
        check_moves(&convert("wxf", &input), "moves_wxf_official", "WXF", file);
        check_moves(
            &convert("chinese", &input),
            "moves_chinese",
            "Chinese",
            file,
        );
    }
}

#[test]
fn report_reaches_every_final_fen_of_the_vector_files() {
    let expected = expected();
    for file in FILES {
        let input = vectors().join(file);
        let ids: Vec<String> = games(&std::fs::read_to_string(&input).expect("read"))
            .into_iter()
            .map(|g| g.0)
            .collect();
        let (_tmp, out) = support::run_report(&[input.to_str().expect("path")]);
        let rows = support::read_csv(&out.join("games.csv"));
        assert_eq!(rows.len(), ids.len(), "{file}");
        for (row, id) in rows.iter().zip(&ids) {
            assert_eq!(row["status"], "ok", "{file} {id}: {}", row["error"]);
            assert_eq!(row["variant"], "xiangqi", "{file} {id}");
            assert_eq!(row["final_fen"], expected[id]["final_fen"], "{file} {id}");
        }
    }
}

#[test]
fn every_notation_converts_back_to_the_same_iccs() {
    let tmp = tempfile::tempdir().expect("tmp");
    for file in FILES {
        for to in TARGETS {
            let there = tmp.path().join(format!("{to}-{file}"));
            std::fs::write(&there, convert(to, &vectors().join(file))).expect("write");
            let back = convert("iccs", &there);
            check_moves(
                &back,
                "moves_iccs",
                "ICCS",
                &format!("{file} -> {to} -> iccs"),
            );
        }
    }
}

#[test]
fn converting_keeps_everything_but_the_moves_and_the_format_tag() {
    // Converting the ICCS file to ICCS rewrites H2-E2 as h2e2 and sets
    // [Format "ICCS"] (already there): after lower-casing and dropping the
    // hyphens of the moves, the text must be the input.
    let input = vectors().join("games_iccs.pgn");
    let original = std::fs::read_to_string(&input).expect("read");
    let out = convert("iccs", &input);
    let normalise = |s: &str| {
        s.split_inclusive(char::is_whitespace)
            .map(|w| {
                let t = w.trim_end();
                let b = t.as_bytes();
                if b.len() == 5 && b[2] == b'-' {
                    format!(
                        "{}{}",
                        t.replace('-', "").to_ascii_lowercase(),
                        &w[t.len()..]
                    )
                } else {
                    w.to_string()
                }
            })
            .collect::<String>()
    };
    assert_eq!(normalise(&original), out);
}
