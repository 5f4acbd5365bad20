//! Replays the 300 pyffish games of `games.csv` and checks the legal move
//! sets of the 104 positions of `notation_moves.csv` against pyffish's
//! (copies and provenance in `testdata/xiangqi/kernel/README.md`).

use std::collections::{BTreeMap, BTreeSet};

use pgnmill::xiangqi::Position;
use pgnmill::xiangqi::types::Move;

fn records(file: &str) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let path = format!(
        "{}/testdata/xiangqi/kernel/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let headers = reader.headers().unwrap().clone();
    let rows = reader.records().map(|r| r.unwrap()).collect();
    (headers, rows)
}

fn col(headers: &csv::StringRecord, name: &str) -> usize {
    headers.iter().position(|h| h == name).unwrap()
}

/// Every game replays move by move (each move among `legal_moves`, and
/// `is_legal`), reaches pyffish's `final_fen` exactly, counters included;
/// games that pyffish ended with `no_legal_moves` end with none here.
#[test]
fn games_replay_to_final_fen() {
    let (h, rows) = records("games.csv");
    assert_eq!(rows.len(), 300);
    let (id, start, plies, moves, fin, end) = (
        col(&h, "game_id"),
        col(&h, "start_fen"),
        col(&h, "plies"),
        col(&h, "moves_iccs"),
        col(&h, "final_fen"),
        col(&h, "end"),
    );
    let mut total_plies = 0;
    let mut no_moves_games = 0;
    for row in &rows {
        let game = &row[id];
        let mut pos = Position::from_fen(&row[start]).unwrap_or_else(|e| panic!("{game}: {e}"));
        assert_eq!(pos.fen(), &row[start], "{game}: start FEN round trip");
        let mut n = 0;
        for (ply, text) in row[moves].split_whitespace().enumerate() {
            let m = Move::from_iccs(text).unwrap_or_else(|| panic!("{game}: bad ICCS {text}"));
            let legal = pos.legal_moves();
            assert!(
                legal.contains(m) && pos.is_legal(m),
                "{game} ply {}: {text} not legal in {}",
                ply + 1,
                pos.fen()
            );
            pos.play(m);
            n += 1;
        }
        assert_eq!(n.to_string(), &row[plies], "{game}: ply count");
        total_plies += n;
        assert_eq!(pos.fen(), &row[fin], "{game}: final FEN");
        let none_left = pos.legal_moves().is_empty();
        assert_eq!(
            none_left,
            &row[end] == "no_legal_moves",
            "{game}: end {}",
            &row[end]
        );
        no_moves_games += usize::from(none_left);
        // The FEN written reads back to the same position and key.
        let back = Position::from_fen(&pos.fen()).unwrap();
        assert_eq!(back, pos, "{game}: final FEN round trip");
        assert_eq!(back.key(), pos.key(), "{game}: incremental key = fresh key");
    }
    assert_eq!(total_plies, 30_947);
    assert_eq!(no_moves_games, 17);
}

/// For each of the 104 positions, our legal move set equals the set of ICCS
/// moves pyffish listed for it (so every listed move is legal, and nothing
/// else is).
#[test]
fn legal_move_sets_equal_pyffish() {
    let (h, rows) = records("notation_moves.csv");
    assert_eq!(rows.len(), 3492);
    let (f, i) = (col(&h, "fen"), col(&h, "iccs"));
    let mut expected: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in &rows {
        expected
            .entry(row[f].to_string())
            .or_default()
            .insert(row[i].to_string());
    }
    assert_eq!(expected.len(), 104);
    for (fen, want) in &expected {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&pos.fen(), fen, "FEN round trip");
        for text in want {
            let m = Move::from_iccs(text).unwrap();
            assert!(pos.is_legal(m), "{fen}: {text} should be legal");
        }
        let got: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(&got, want, "{fen}: legal move set");
    }
}

/// The perft positions' FENs round-trip too.
#[test]
fn perft_fens_round_trip() {
    let (h, rows) = records("perft.csv");
    let f = col(&h, "fen");
    for row in &rows {
        let pos = Position::from_fen(&row[f]).unwrap();
        assert_eq!(pos.fen(), &row[f]);
    }
}

/// `is_check` agrees with pyffish `gives_check` on all 31,247 positions of
/// the 300 games (667 of them in check), see `checks.csv`.
#[test]
fn is_check_matches_pyffish_on_every_game_position() {
    let (h, games) = records("games.csv");
    let (start, moves) = (col(&h, "start_fen"), col(&h, "moves_iccs"));
    let (hc, checks) = records("checks.csv");
    let flags = col(&hc, "flags");
    assert_eq!(games.len(), checks.len());
    let (mut positions, mut in_check) = (0, 0);
    for (game, check) in games.iter().zip(&checks) {
        let mut pos = Position::from_fen(&game[start]).unwrap();
        let mut expected = check[flags].chars();
        let texts = game[moves].split_whitespace().chain(std::iter::once(""));
        for (ply, text) in texts.enumerate() {
            let want = expected.next() == Some('1');
            assert_eq!(
                pos.is_check(),
                want,
                "{} ply {ply}: {}",
                &check[0],
                pos.fen()
            );
            positions += 1;
            in_check += usize::from(want);
            if let Some(m) = Move::from_iccs(text) {
                pos.play(m);
            }
        }
        assert_eq!(expected.next(), None, "{}: flag count", &check[0]);
    }
    assert_eq!((positions, in_check), (31_247, 667));
}
