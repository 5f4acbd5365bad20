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
#[ignore = "deep: about 2 s of CPU in release"]
fn startpos_depth_5() {
    assert_eq!(perft(&Position::startpos(), 5), 133_312_995);
}

/// All of perft_published_deep.csv (CPW depth 5 and 6, ~2 billion leaves).
#[test]
#[ignore = "deep: about 30 s of CPU in release"]
fn perft_published_deep_all_rows() {
    check(&rows("perft_published_deep.csv"));
}

/// `(nodes, checks, captures)` at the last ply: captures are capturing
/// moves of the last ply, checks the leaves whose side to move is in check.
fn perft_stats(pos: &Position, depth: u32) -> (u64, u64, u64) {
    let mut total = (0, 0, 0);
    for &m in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play(m);
        if depth == 1 {
            total.0 += 1;
            total.1 += u64::from(child.is_check());
            total.2 += u64::from(pos.is_capture(m));
        } else {
            let (n, c, x) = perft_stats(&child, depth - 1);
            total = (total.0 + n, total.1 + c, total.2 + x);
        }
    }
    total
}

/// One row of wukong-xiangqi's perft table: FEN, depth, nodes and, where
/// given, (checks, captures).
type WukongRow = (String, u32, u64, Option<(u64, u64)>);

fn wukong_rows() -> Vec<WukongRow> {
    let path = format!(
        "{}/testdata/xiangqi/kernel/wukong-xiangqi_perft.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut fen = String::new();
    let mut rows = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            [] | ["depth", ..] => {}
            [d, n, rest @ ..] if d.parse::<u32>().is_ok() => {
                let stats = match rest {
                    [c, x] => Some((c.parse().unwrap(), x.parse().unwrap())),
                    _ => None,
                };
                rows.push((fen.clone(), d.parse().unwrap(), n.parse().unwrap(), stats));
            }
            _ => fen = line.trim().to_string(),
        }
    }
    rows
}

/// Nodes, checks and captures per depth against wukong-xiangqi (an engine
/// independent of pyffish), depths 1-4 of both positions.
#[test]
fn wukong_checks_and_captures_to_depth_4() {
    let rows: Vec<_> = wukong_rows().into_iter().filter(|r| r.1 <= 4).collect();
    assert_eq!(rows.len(), 8);
    for (fen, depth, nodes, stats) in rows {
        let pos = Position::from_fen(&fen).unwrap();
        let (c, x) = stats.unwrap();
        assert_eq!(
            perft_stats(&pos, depth),
            (nodes, c, x),
            "{fen} depth {depth}"
        );
    }
}

/// The same at depth 5 (133 M and 53 M leaves).
#[test]
#[ignore = "deep: about 8 s of CPU in release"]
fn wukong_checks_and_captures_depth_5() {
    for (fen, depth, nodes, stats) in wukong_rows().into_iter().filter(|r| r.1 == 5) {
        let pos = Position::from_fen(&fen).unwrap();
        let (c, x) = stats.unwrap();
        assert_eq!(
            perft_stats(&pos, depth),
            (nodes, c, x),
            "{fen} depth {depth}"
        );
    }
}
