//! `report --clocks --plies` on xiangqi games (issue 33) through the
//! binary: WXF in `san`, ICCS in `uci`, pyffish's FEN after each move,
//! repetition counts, and the commands of the comments as python-chess
//! reads them, in plies.csv and plies.parquet, and the clock columns of
//! games.csv (testdata/gen/xiangqi_plies_expected.py writes the games,
//! testdata/xiangqi/clocks-plies.pgn, and their expected values).

use crate::support::{csv_cells, parquet_cells, read_csv, report_run, root};

use serde_json::Value;
use std::collections::HashMap;

/// A CSV field as the expected JSON holds it: a number, or null when
/// empty.
fn number(field: &str) -> Value {
    if field.is_empty() {
        Value::Null
    } else {
        Value::from(field.parse::<i64>().expect("a number"))
    }
}

#[test]
fn xiangqi_rows_match_pyffish_and_python_chess() {
    let expected: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(root().join("testdata/xiangqi/clocks-plies-expected.json"))
            .expect("expected file"),
    )
    .expect("json");
    let input = root().join("testdata/xiangqi/clocks-plies.pgn");
    let run = report_run(
        &[&input],
        &["--clocks", "--plies", "--format", "csv,parquet"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let games = run.rows();
    assert_eq!(games.len(), expected.len());
    let plies = read_csv(&run.out.join("plies.csv"));
    let mut rows_of: HashMap<&str, Vec<&HashMap<String, String>>> = HashMap::new();
    for r in &plies {
        rows_of.entry(r["game"].as_str()).or_default().push(r);
    }
    for (game, want) in games.iter().zip(&expected) {
        let id = &want["id"];
        assert_eq!(game["variant"], "xiangqi", "{id}: {}", game["error"]);
        assert_eq!(
            number(&game["plies"]),
            want["plies"],
            "{id}: {}",
            game["error"]
        );
        let rows = rows_of.remove(game["game"].as_str()).unwrap_or_default();
        let want_rows = want["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), want_rows.len(), "{id}: rows");
        for (got, want) in rows.iter().zip(want_rows) {
            let at = format!("{id} ply {}", got["ply"]);
            // Every column the generator wrote: the moves and the FEN as
            // text (a WXF move pyffish cannot write is null), the rest
            // numbers.
            for (column, want) in want.as_object().expect("a row") {
                match column.as_str() {
                    "san" if want.is_null() => {}
                    "san" | "uci" | "fen" => assert_eq!(got[column], *want, "{at} {column}"),
                    _ => assert_eq!(number(&got[column]), *want, "{at} {column}"),
                }
            }
        }
        let c = &want["clocks"];
        for side in ["white", "black"] {
            for (column, field) in [
                ("clock_first", "first"),
                ("clock_last", "last"),
                ("clock_min", "min"),
                ("time_used", "time_used"),
            ] {
                let column = format!("{side}_{column}");
                assert_eq!(number(&game[&column]), c[side][field], "{id} {column}");
            }
        }
        for column in [
            "clock_plies",
            "eval_plies",
            "eval_last_cp",
            "eval_last_mate",
        ] {
            assert_eq!(number(&game[column]), c[column], "{id} {column}");
        }
        // Xiangqi has no threefold claim (docs/reports.md).
        assert_eq!(game["clock_at_threefold_claim"], "", "{id}");
        assert_eq!(
            (game["time_base"].as_str(), game["time_increment"].as_str()),
            ("600000", "5000"),
            "{id}"
        );
    }
    assert!(rows_of.is_empty(), "rows of no game: {:?}", rows_of.keys());
    // plies.parquet holds the same rows.
    let (parquet, _) = parquet_cells(&run.out.join("plies.parquet"));
    assert_eq!(parquet, csv_cells(&run.out.join("plies.csv")));
}
