//! The files and columns of `--clocks` and `--plies` (docs/reports.md):
//! which files appear with which `--format`, that the other files keep
//! their bytes, that `plies.parquet` is cut into row groups as they fill,
//! that the rows are the same on one thread and on several, and that the
//! library's `Job::plies` streams the rows of `plies.parquet`. The values
//! themselves are checked against python-chess in
//! `clocks_vs_python_chess.rs`.

use crate::support::{csv_cells, parquet_cells, report_run, root};
use std::path::{Path, PathBuf};

const LICHESS: &str = "testdata/corpus/lichess-2025-05-blitz-sample.pgn";

fn lichess() -> PathBuf {
    root().join(LICHESS)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("report folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `--plies` writes plies.parquet whatever `--format` says and plies.csv
/// with CSV; a report replaced with `--force` by one without them loses
/// them; games.csv keeps its bytes with `--plies`, and with `--clocks`
/// keeps its columns and gains the clock columns after them (before the
/// tag columns).
#[test]
fn plies_files_follow_the_formats_and_leave_the_other_files_alone() {
    let input = lichess();
    let plain = report_run(&[&input], &["--tags", "TimeControl"]);
    let plain_games = std::fs::read(plain.out.join("games.csv")).expect("games.csv");
    let csv = report_run(&[&input], &["--plies", "--tags", "TimeControl"]);
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    assert!(names(&csv.out).contains(&"plies.csv".to_string()));
    assert!(names(&csv.out).contains(&"plies.parquet".to_string()));
    assert!(!names(&csv.out).contains(&"games.parquet".to_string()));
    assert_eq!(
        std::fs::read(csv.out.join("games.csv")).expect("games.csv"),
        plain_games,
        "--plies changes no byte of games.csv"
    );
    let summary = csv.summary();
    assert_eq!(summary["options"]["plies"], true);
    assert_eq!(summary["options"]["clocks"], false);
    // Every replayed ply has its row.
    let plies: u64 = csv
        .rows()
        .iter()
        .map(|r| r["plies"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(
        csv_cells(&csv.out.join("plies.csv")).len() as u64,
        plies + 1
    );

    let parquet = report_run(&[&input], &["--plies", "--format", "parquet"]);
    assert_eq!(parquet.code, Some(0), "{}", parquet.stderr);
    let files = names(&parquet.out);
    assert!(files.contains(&"plies.parquet".to_string()), "{files:?}");
    assert!(!files.contains(&"plies.csv".to_string()), "{files:?}");

    // --clocks: the default columns and their values as before, then the
    // clock columns, then the tag columns.
    let clocks = report_run(&[&input], &["--clocks", "--tags", "TimeControl"]);
    let plain_rows = csv_cells(&plain.out.join("games.csv"));
    let clock_rows = csv_cells(&clocks.out.join("games.csv"));
    let default = plain_rows[0].len() - 1;
    let header = &clock_rows[0];
    assert_eq!(header[default], "time_base");
    assert_eq!(header[header.len() - 2], "eval_last_mate");
    assert_eq!(header[header.len() - 1], "TimeControl");
    for (a, b) in plain_rows.iter().zip(&clock_rows) {
        assert_eq!(a[..default], b[..default]);
        assert_eq!(a.last(), b.last());
    }
    assert_eq!(clocks.summary()["options"]["clocks"], true);
}

/// A report replaced with `--force` by one without `--plies` leaves no
/// plies file of the earlier run behind, and one with `--plies` but
/// without CSV removes the earlier plies.csv.
#[test]
fn force_removes_the_plies_files_a_run_does_not_write() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("r");
    let run = |args: &[&str]| {
        let status = assert_cmd::Command::cargo_bin("pgnmill")
            .expect("binary")
            .args(["report", "-q", "--force", "-o"])
            .arg(&out)
            .args(args)
            .arg(root().join("testdata/corpus/pgn2tex-tatamast22.pgn"))
            .output()
            .expect("run")
            .status;
        assert!(status.success());
        names(&out)
    };
    let all = run(&["--plies"]);
    assert!(all.contains(&"plies.csv".to_string()), "{all:?}");
    let parquet_only = run(&["--plies", "--format", "parquet"]);
    assert!(
        !parquet_only.contains(&"plies.csv".to_string()),
        "{parquet_only:?}"
    );
    assert!(parquet_only.contains(&"plies.parquet".to_string()));
    let none = run(&[]);
    assert!(!none.iter().any(|n| n.starts_with("plies")), "{none:?}");
}

/// The sample three times over (some 90,000 plies): plies.parquet has
/// several row groups, each closed by the first game that reaches 65,536
/// rows or by the end of a chunk of games, never larger than that plus
/// one game; the rows are those of plies.csv, and the same on one thread
/// as on two.
#[test]
fn plies_parquet_row_groups_fill_and_close() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let tmp = tempfile::tempdir().expect("temp dir");
    let input = tmp.path().join("three.pgn");
    let sample = std::fs::read(lichess()).expect("sample");
    let mut three = Vec::new();
    for _ in 0..3 {
        three.extend_from_slice(&sample);
        three.extend_from_slice(b"\n\n");
    }
    std::fs::write(&input, three).expect("write");
    let one = report_run(&[&input], &["--plies", "-j", "1"]);
    let two = report_run(&[&input], &["--plies", "-j", "2"]);
    for run in [&one, &two] {
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let rows = csv_cells(&one.out.join("plies.csv"));
    assert!(rows.len() > 80_000, "{} rows", rows.len());
    assert_eq!(
        std::fs::read(one.out.join("plies.csv")).unwrap(),
        std::fs::read(two.out.join("plies.csv")).unwrap(),
        "-j 1 and -j 2"
    );
    let longest = one
        .rows()
        .iter()
        .map(|r| r["plies"].parse::<usize>().unwrap())
        .max()
        .unwrap();
    for run in [&one, &two] {
        let path = run.out.join("plies.parquet");
        assert_eq!(parquet_cells(&path).0, rows);
        let file = std::fs::File::open(&path).expect("plies.parquet");
        let reader = SerializedFileReader::new(file).expect("parquet");
        let groups: Vec<usize> = reader
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows() as usize)
            .collect();
        assert!(groups.len() >= 2, "{groups:?}");
        assert!(groups.iter().all(|&n| n < 65_536 + longest), "{groups:?}");
        assert_eq!(groups.iter().sum::<usize>(), rows.len() - 1);
    }
}

/// `Job::plies` hands out the rows of plies.parquet, in order, with its
/// schema, in batches of at most one row group.
#[test]
fn job_plies_streams_the_rows_of_plies_parquet() {
    use pgnmill::job::{Job, ReportOptions};
    let input = lichess();
    let run = report_run(&[&input], &["--plies", "--format", "parquet"]);
    let (want, schema) = parquet_cells(&run.out.join("plies.parquet"));
    let job = Job::new(
        std::slice::from_ref(&input),
        pgnmill::source::Listing::Games,
    )
    .expect("job")
    .threads(2);
    let stream = job.plies(&ReportOptions::default()).expect("stream");
    assert_eq!(stream.schema(), schema);
    let mut got = vec![want[0].clone()];
    for batch in stream {
        let batch = batch.expect("batch");
        assert!(batch.num_rows() <= pgnmill::report::PLY_ROWS_PER_GROUP + 400);
        for i in 0..batch.num_rows() {
            got.push(
                batch
                    .columns()
                    .iter()
                    .map(|c| crate::support::cell(c.as_ref(), i))
                    .collect(),
            );
        }
    }
    // The source is the path as given: the binary ran on the same path.
    assert_eq!(got.len(), want.len());
    assert_eq!(got, want);
}
