//! The opening columns through the library (replay with the compiled-in
//! lichess table) against python-chess 1.11.2 implementing the lichess rule
//! over the same table: testdata/gen/openings_expected.py,
//! testdata/expected/openings.csv, every game of testdata/corpus.

use pgnmill::openings::{OpeningBook, TableKind};
use pgnmill::pgn::split_all;
use pgnmill::replay::{ReplayOptions, replay_game};
use std::sync::Arc;

use crate::support::root;

/// (eco, opening, opening_ply, opening_conflict) of every game of
/// `file` (a path under the root) replayed with `options`.
fn columns(file: &str, options: &ReplayOptions) -> Vec<[String; 4]> {
    let bytes = std::fs::read(root().join(file)).expect("corpus file");
    split_all(&bytes, false)
        .iter()
        .map(|span| {
            let start = span.offset as usize;
            let record = replay_game(&bytes[start..start + span.len], span.line, options);
            let opening = &record.curation.opening;
            match &opening.hit {
                Some(hit) => [
                    hit.eco().to_string(),
                    hit.name().to_string(),
                    hit.ply.to_string(),
                    opening.conflict.clone().unwrap_or_default(),
                ],
                None => Default::default(),
            }
        })
        .collect()
}

#[test]
fn every_corpus_game_is_named_as_python_chess_names_it() {
    let mut reader = csv::Reader::from_path(root().join("testdata/expected/openings.csv"))
        .expect("expected openings");
    let mut expected: Vec<(String, Vec<[String; 4]>)> = Vec::new();
    for row in reader.records() {
        let row = row.expect("row");
        if expected.last().is_none_or(|(f, _)| f != &row[0]) {
            expected.push((row[0].to_string(), Vec::new()));
        }
        let games = &mut expected.last_mut().expect("a file").1;
        games.push([2, 3, 4, 5].map(|i| row[i].to_string()));
    }
    let options = ReplayOptions::default();
    let mut named = 0;
    let mut wrong = Vec::new();
    for (file, want) in &expected {
        let got = columns(file, &options);
        assert_eq!(got.len(), want.len(), "{file}: games");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            named += usize::from(!w[0].is_empty());
            if g != w {
                wrong.push(format!("{file}:{}: got {g:?}, python-chess {w:?}", i + 1));
            }
        }
    }
    assert!(named > 4000, "only {named} games named");
    assert!(
        wrong.is_empty(),
        "{} games differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `--openings`: a user's table replaces the compiled-in one; a position
/// it does not list names nothing, and a later line wins.
#[test]
fn a_user_table_replaces_the_compiled_in_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = dir.path().join("a.tsv");
    let b = dir.path().join("b.tsv");
    std::fs::write(
        &a,
        "eco\tname\tpgn\nX01\tKing's Pawn\t1. e4\nX02\tOpen\t1. e4 e5\n",
    )
    .expect("write");
    std::fs::write(&b, "X03\tOpen, again\t1. e4 e5\n").expect("write");
    let book = OpeningBook::from_files(&[a, b]).expect("tables");
    assert_eq!(book.depth(TableKind::Chess), 2);
    let mut options = ReplayOptions::default();
    options.curation.openings = Some(Arc::new(book));
    let game = b"[ECO \"C20\"]\n\n1. e4 e5 2. Nf3 *\n";
    let record = replay_game(game, 1, &options);
    let hit = record.curation.opening.hit.as_ref().expect("named");
    assert_eq!((hit.eco(), hit.name(), hit.ply), ("X03", "Open, again", 2));
    assert_eq!(
        record.curation.opening.conflict.as_deref(),
        Some("ECO C20 but the moves give X03")
    );
    let record = replay_game(b"[Event \"x\"]\n\n1. d4 *\n", 1, &options);
    assert_eq!(record.curation.opening.hit, None);
}

/// A xiangqi table (Chinese, WXF, ICCS lines) names xiangqi games from the
/// standard start, whatever notation the game is written in; a `[FEN]`
/// game gets none. The positions are those pyffish reaches: 炮二平五 is
/// h2e2, 马８进７ h9g7 (testdata/xiangqi/notation vectors).
#[test]
fn a_xiangqi_table_names_xiangqi_games() {
    let book = OpeningBook::from_tables(&[(
        "x.tsv",
        "A00\t中炮\t炮二平五\nB00\t中炮对屏风马\tC2.5 H8+7\nC00\t仙人指路\tc3c4\n",
    )])
    .expect("table");
    let mut options = ReplayOptions::default();
    options.curation.openings = Some(Arc::new(book));
    let game = "[Variant \"xiangqi\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";
    let record = replay_game(game.as_bytes(), 1, &options);
    let hit = record.curation.opening.hit.as_ref().expect("named");
    assert_eq!((hit.eco(), hit.name(), hit.ply), ("B00", "中炮对屏风马", 2));
    let fen = "[Variant \"xiangqi\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n1. h2e2 h9g7 *\n";
    let record = replay_game(fen.as_bytes(), 1, &options);
    assert_eq!(record.curation.opening.hit, None);
}

/// The 438 games of a lichess dump of May 2025 (testdata/corpus) carry the
/// `[ECO]` and `[Opening]` lichess gave them with its table of that month:
/// `--openings` with that table (testdata/openings/lichess-2025-04-13,
/// lichess-org/chess-openings at 1e927b9) names every one of them alike.
/// The compiled-in table, newer, names some differently, and says so in
/// `opening_conflict`.
#[test]
fn lichess_games_are_named_as_lichess_named_them() {
    let file = "testdata/corpus/lichess-2025-05-blitz-sample.pgn";
    let dir = root().join("testdata/openings/lichess-2025-04-13");
    let tables: Vec<_> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|f| dir.join(format!("{f}.tsv")))
        .collect();
    let mut options = ReplayOptions::default();
    options.curation.openings = Some(Arc::new(OpeningBook::from_files(&tables).expect("tables")));
    let bytes = std::fs::read(root().join(file)).expect("corpus file");
    let mut agree = 0;
    let mut wrong = Vec::new();
    for (i, span) in split_all(&bytes, false).iter().enumerate() {
        let start = span.offset as usize;
        let record = replay_game(&bytes[start..start + span.len], span.line, &options);
        let game = pgnmill::pgn::GameText::new(&bytes[start..start + span.len], span.line);
        let tag = |name: &str| {
            String::from_utf8(game.tag(name).unwrap_or_default().into_owned()).expect("UTF-8")
        };
        let recorded = (tag("ECO"), tag("Opening"));
        let opening = &record.curation.opening;
        let got = opening.hit.as_ref().map_or(("?".into(), "?".into()), |h| {
            (h.eco().to_string(), h.name().to_string())
        });
        if got == recorded && opening.conflict.is_none() {
            agree += 1;
        } else {
            wrong.push(format!("game {}: {got:?}, recorded {recorded:?}", i + 1));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(agree, 438);
    let conflicts = columns(file, &ReplayOptions::default())
        .iter()
        .filter(|c| !c[3].is_empty())
        .count();
    assert_eq!(conflicts, 11, "games the compiled-in table names otherwise");
}
