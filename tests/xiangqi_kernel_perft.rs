//! Perft counts of the xiangqi kernel against independent numbers:
//! `perft.csv` (pyffish / Fairy-Stockfish, and where published the
//! chessprogramming-wiki and Fairy-Stockfish tables, which all agree) and
//! `perft_published_deep.csv` (CPW, depth 5-6). Copies and provenance in
//! `testdata/xiangqi/kernel/README.md`.

use pgnmill::xiangqi::{Position, divide, perft};

struct Row {
    name: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn rows(file: &str) -> Vec<Row> {
    let path = format!(
        "{}/testdata/xiangqi/kernel/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (n, f, d, c) = (col("name"), col("fen"), col("depth"), col("nodes"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            Row {
                name: r[n].to_string(),
                fen: r[f].to_string(),
                depth: r[d].parse().unwrap(),
                nodes: r[c].parse().unwrap(),
            }
        })
        .collect()
}

fn check(rows: &[Row]) {
    let mut failures = Vec::new();
    for row in rows {
        let pos = Position::from_fen(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        let got = perft(&pos, row.depth);
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: got {got}, expected {}",
                row.name, row.depth, row.nodes
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every row of perft.csv (all depths 1-4, about 12 million leaves).
#[test]
fn perft_csv_all_rows() {
    let rows = rows("perft.csv");
    assert_eq!(rows.len(), 84);
    check(&rows);
}

#[test]
fn startpos_depth_4_is_3290240() {
    assert_eq!(perft(&Position::startpos(), 4), 3_290_240);
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::startpos();
    let split = divide(&pos, 3);
    assert_eq!(split.len(), 44);
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 79_666);
    assert!(divide(&pos, 0).is_empty());
}

/// Start position depth 5 = 133,312,995 (CPW).
#[test]
#[ignore = "deep: about 10 s in release"]
fn startpos_depth_5() {
    assert_eq!(perft(&Position::startpos(), 5), 133_312_995);
}

/// All of perft_published_deep.csv (CPW depth 5 and 6, ~2 billion leaves).
#[test]
#[ignore = "deep: minutes in release"]
fn perft_published_deep_all_rows() {
    check(&rows("perft_published_deep.csv"));
}
