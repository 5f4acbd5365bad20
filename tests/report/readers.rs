//! The README's loads of games.csv (pandas, polars, DuckDB), the Parquet
//! files read by pyarrow, polars and DuckDB, and the README's DuckDB query,
//! run by `tests/python/readers.py` on a chess report, a xiangqi report and
//! the report of a lichess-style `.pgn.zst` (testdata/research/, compressed
//! here), and a report whose `event` column spans several Parquet pages
//! (`research::long_events_pgn`). The Python comes from `PGNMILL_PYTHON` (`.ci/run` sets it to its
//! virtual environment) or `python3`; without its modules the test fails in
//! CI (`CI=true`) and is skipped with a note elsewhere.

use crate::support::{root, run_report};

fn python() -> Option<String> {
    let python = std::env::var("PGNMILL_PYTHON").unwrap_or_else(|_| "python3".into());
    let ok = std::process::Command::new(&python)
        .args(["-c", "import pandas, polars, duckdb, pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but {python} lacks pandas, polars, duckdb or pyarrow (.ci/run installs them)"
    );
    eprintln!("note: {python} lacks pandas, polars, duckdb or pyarrow: reader test skipped");
    None
}

#[test]
fn readme_loads_and_query_in_python_readers() {
    let Some(python) = python() else { return };
    let both = ["--format", "csv,parquet"];
    let mut chess_args = vec!["testdata/corpus"];
    chess_args.extend(both);
    let (_a, chess) = run_report(&chess_args);
    let mut xq_args = vec!["testdata/xiangqi/corpus"];
    xq_args.extend(both);
    let (_b, xiangqi) = run_report(&xq_args);
    // A lichess-style dump: the sample, zstd-compressed as lichess ships it.
    let tmp = tempfile::tempdir().expect("temp dir");
    let zst = tmp.path().join("lichess-style.pgn.zst");
    let plain = std::fs::read(root().join("testdata/research/lichess-style.pgn")).expect("pgn");
    std::fs::write(&zst, zstd::encode_all(&plain[..], 3).expect("zstd")).expect("write");
    let zst_arg = zst.to_string_lossy().into_owned();
    let (_c, style) = run_report(&[&zst_arg, "--tags", "lichess", "--format", "csv,parquet"]);
    let (long, _) = crate::research::long_events_pgn(tmp.path(), 48);
    let long_arg = long.to_string_lossy().into_owned();
    let (_d, long) = run_report(&[&long_arg, "-j", "1", "--format", "csv,parquet"]);
    let out = std::process::Command::new(&python)
        .arg(root().join("tests/python/readers.py"))
        .arg(root().join("README.md"))
        .arg(root().join("testdata/expected/research.json"))
        .args([&chess, &xiangqi, &style, &long])
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("README DuckDB query"), "{stdout}");
    assert!(stdout.contains("long events equal games.csv"), "{stdout}");
}
