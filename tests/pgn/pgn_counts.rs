//! Game counts on real files against python-chess's `read_game`.
//!
//! `testdata/pgn/game_counts.csv` is written by `testdata/pgn/count_games.py`
//! (python-chess 1.11.2): the `expected` column is python-chess's count after
//! a normalisation that spells out pgnmill's documented differences (see the
//! script and `src/pgn/split/rules.rs`); `python_chess` is the raw count.

use std::path::Path;

use pgnmill::pgn::split_all;

fn corpus(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn/corpus")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn is_dbcs(name: &str) -> bool {
    name.ends_with("-gbk.pgn") || name.contains("big5")
}

#[test]
fn counts_match_python_chess() {
    let csv = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/pgn/game_counts.csv"),
    )
    .unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in csv.lines().skip(1) {
        let cols: Vec<&str> = row.split(',').collect();
        let (name, expected): (&str, usize) = (cols[0], cols[2].parse().unwrap());
        let got = split_all(&corpus(name), is_dbcs(name)).len();
        if got != expected {
            failures.push(format!(
                "{name}: got {got}, python-chess (normalised) {expected}"
            ));
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} files checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
