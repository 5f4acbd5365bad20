//! `--duplicates` through the binary: the duplicate columns of games.csv
//! and games.parquet, duplicates.csv, the counts of summary.json, the
//! `unique` and `duplicates` extracts and `--against`, against the rows
//! python-chess 1.11.2 and pyffish give
//! (testdata/gen/duplicates_expected.py: whole move lists compared, the
//! grouping rules written out independently of pgnmill). The cases:
//! respelled names, truncated copies, colour-swapped engine pairs, 0-2-ply
//! aborted games, the same moves from two `[FEN]` starts, Chess960,
//! transpositions, an illegal move (cases.pgn); one xiangqi game stored in
//! GBK and in Big5 with its copies (xiangqi-gbk.pgn, xiangqi-big5.pgn);
//! master collections (against-master.pgn, against-input.pgn).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::support::{parquet_cells, read_csv, report_run, root};

fn dir() -> PathBuf {
    root().join("testdata/duplicates")
}

/// The expected rows of `name` by (file name, game).
fn expected(name: &str) -> Vec<HashMap<String, String>> {
    read_csv(&dir().join(name))
}

/// The file name of a source as pgnmill names it (the path given).
fn file_name(source: &str) -> &str {
    source.rsplit('/').next().unwrap_or(source)
}

/// `dup_of` with its source cut to the file name (`-:7` stays as is).
fn short_dup_of(dup_of: &str) -> String {
    match dup_of.rsplit_once(':') {
        Some((source, game)) => format!("{}:{game}", file_name(source)),
        None => dup_of.to_string(),
    }
}

/// Every row of `rows` (games.csv) agrees with `want` on line_key and the
/// three duplicate columns, in order.
fn assert_rows(rows: &[HashMap<String, String>], want: &[HashMap<String, String>]) {
    assert_eq!(rows.len(), want.len(), "rows");
    let mut wrong = Vec::new();
    for (got, want) in rows.iter().zip(want) {
        let at = format!("{}:{}", want["source"], want["game"]);
        assert_eq!(file_name(&got["source"]), want["source"], "{at}: order");
        assert_eq!(got["game"], want["game"], "{at}: order");
        let got = (
            got["line_key"].clone(),
            short_dup_of(&got["dup_of"]),
            got["dup_kind"].clone(),
            got["dup_headers"].clone(),
        );
        let want = (
            want["line_key"].clone(),
            want["dup_of"].clone(),
            want["dup_kind"].clone(),
            want["dup_headers"].clone(),
        );
        if got != want {
            wrong.push(format!("{at}: pgnmill {got:?}, python {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The counts of summary.json's `duplicates` agree with `want`'s rows.
fn assert_counts(summary: &serde_json::Value, want: &[HashMap<String, String>]) {
    let d = &summary["duplicates"];
    let count = |kind: &str| want.iter().filter(|r| r["dup_kind"] == kind).count() as u64;
    for kind in ["exact", "prefix", "transposition"] {
        assert_eq!(d[kind].as_u64(), Some(count(kind)), "{kind}: {d}");
    }
    let unique = want.len() as u64 - count("exact") - count("prefix");
    assert_eq!(d["unique"].as_u64(), Some(unique), "{d}");
    assert_eq!(d["min_plies"].as_u64(), Some(10));
}

#[test]
fn the_constructed_cases_are_grouped_as_python_chess_groups_them() {
    let input = dir().join("cases.pgn");
    let run = report_run(&[&input], &["--duplicates", "--format", "csv,parquet"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = run.rows();
    let want = expected("cases-expected.csv");
    assert_rows(&rows, &want);
    assert_counts(&run.summary(), &want);
    // The duplicate columns are the last three, in Parquet as in CSV.
    let (cells, schema) = parquet_cells(&run.out.join("games.parquet"));
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names[names.len() - 3..],
        ["dup_of", "dup_kind", "dup_headers"]
    );
    let csv_cells = crate::support::csv_cells(&run.out.join("games.csv"));
    assert_eq!(cells, csv_cells, "games.parquet and games.csv");
    // duplicates.csv: one row per game with a kind, beside the game it
    // copies, the names and plies as games.csv has them.
    let pairs = read_csv(&run.out.join("duplicates.csv"));
    let copies: Vec<_> = want.iter().filter(|r| !r["dup_kind"].is_empty()).collect();
    assert_eq!(pairs.len(), copies.len());
    let by_game: HashMap<&str, &HashMap<String, String>> =
        rows.iter().map(|r| (r["game"].as_str(), r)).collect();
    for (pair, want) in pairs.iter().zip(copies) {
        assert_eq!(pair["game"], want["game"]);
        assert_eq!(pair["dup_kind"], want["dup_kind"]);
        assert_eq!(pair["dup_headers"], want["dup_headers"]);
        let of = format!("{}:{}", file_name(&pair["of_source"]), pair["of_game"]);
        assert_eq!(of, want["dup_of"]);
        for (prefix, game) in [("", &pair["game"]), ("of_", &pair["of_game"])] {
            let row = by_game[game.as_str()];
            for column in ["plies", "white", "black", "date"] {
                assert_eq!(pair[&format!("{prefix}{column}")], row[column], "{column}");
            }
        }
    }
    let html = std::fs::read_to_string(run.out.join("report.html")).expect("report.html");
    assert!(html.contains("<h2>Duplicates</h2>"));
    let copies = want.iter().filter(|r| !r["dup_kind"].is_empty()).count();
    assert!(html.contains(&format!("<span id=\"duplicates\">{copies}</span>")));
}

/// The text of each game of a file the generator wrote: tag sections
/// that follow a blank line.
fn game_texts(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut starts = vec![0];
    for i in 2..bytes.len() {
        if bytes[i] == b'[' && bytes[i - 1] == b'\n' && bytes[i - 2] == b'\n' {
            starts.push(i);
        }
    }
    starts.push(bytes.len());
    starts
        .windows(2)
        .map(|w| bytes[w[0]..w[1]].to_vec())
        .collect()
}

/// The games of an extract, its marker line left out.
fn extract_games(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).expect("extract");
    let first = bytes.iter().position(|&b| b == b'\n').expect("marker line");
    assert!(bytes.starts_with(b"% pgnmill extract"));
    game_texts(&bytes[first + 1..])
}

#[test]
fn the_unique_and_duplicates_extracts_partition_the_games_in_input_order() {
    let input = dir().join("cases.pgn");
    let tmp = tempfile::tempdir().expect("temp dir");
    let unique = tmp.path().join("unique.pgn");
    let copies = tmp.path().join("copies.pgn");
    let args = [
        format!("unique={}", unique.display()),
        format!("duplicates={}", copies.display()),
    ];
    // The extracts alone imply --duplicates.
    let run = report_run(&[&input], &["--extract", &args[0], "--extract", &args[1]]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.out.join("duplicates.csv").exists());
    let texts = game_texts(&std::fs::read(&input).expect("cases.pgn"));
    let want = expected("cases-expected.csv");
    assert_eq!(texts.len(), want.len());
    let copied = |r: &HashMap<String, String>| matches!(r["dup_kind"].as_str(), "exact" | "prefix");
    let pick = |keep: bool| -> Vec<Vec<u8>> {
        texts
            .iter()
            .zip(&want)
            .filter(|(_, r)| copied(r) != keep)
            .map(|(t, _)| t.clone())
            .collect()
    };
    assert_eq!(extract_games(&unique), pick(true));
    assert_eq!(extract_games(&copies), pick(false));
}

#[test]
fn one_xiangqi_game_in_gbk_and_in_big5_is_one_game() {
    let gbk = dir().join("xiangqi-gbk.pgn");
    let big5 = dir().join("xiangqi-big5.pgn");
    let run = report_run(&[&gbk, &big5], &["--duplicates"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary = run.summary();
    let encodings: Vec<&str> = summary["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|i| i["encoding"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(encodings, ["GB18030", "Big5"]);
    let want = expected("xiangqi-expected.csv");
    assert_rows(&run.rows(), &want);
    assert_counts(&summary, &want);
}

#[test]
fn against_games_are_matched_and_have_no_row() {
    let master = dir().join("against-master.pgn");
    let input = dir().join("against-input.pgn");
    let master_arg = master.display().to_string();
    let run = report_run(&[&input], &["--against", &master_arg]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let want = expected("against-expected.csv");
    assert_rows(&run.rows(), &want);
    let summary = run.summary();
    assert_counts(&summary, &want);
    assert_eq!(summary["games"].as_u64(), Some(want.len() as u64));
    let d = &summary["duplicates"];
    let of_master = want
        .iter()
        .filter(|r| r["dup_of"].starts_with("against-master.pgn:"))
        .count() as u64;
    assert_eq!(d["of_against"].as_u64(), Some(of_master));
    assert_eq!(
        d["against"][0]["source"].as_str(),
        Some(master_arg.as_str())
    );
    let master_games = std::fs::read_to_string(&master)
        .expect("master")
        .matches("[Event ")
        .count() as u64;
    assert_eq!(d["against"][0]["games"].as_u64(), Some(master_games));
}

/// A file given both as an input and with `--against`, by its path, a
/// link to it, or a folder that holds it, is refused (exit 2, one line
/// naming it): every game would be found a copy of itself.
#[cfg(unix)]
#[test]
fn a_file_given_as_input_and_against_is_refused() {
    let input = dir().join("against-input.pgn");
    let tmp = tempfile::tempdir().expect("temp dir");
    let link = tmp.path().join("link.pgn");
    std::os::unix::fs::symlink(&input, &link).expect("link");
    for against in [&input, &link, &dir()] {
        let against = against.display().to_string();
        let run = report_run(&[&input], &["--against", &against]);
        assert_eq!(run.code, Some(2), "{against}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(
            run.stderr
                .contains("given both as an input and with --against, so each of its games would be a copy of itself"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("against-input.pgn") || run.stderr.contains("link.pgn"));
    }
}

/// The verdicts do not depend on the threads, nor on reading standard
/// input (prefixes included: the second pass reads the scratch file).
#[test]
fn the_rows_are_the_same_at_one_and_two_threads_and_from_standard_input() {
    let input = dir().join("cases.pgn");
    let one = report_run(&[&input], &["--duplicates", "-j", "1"]);
    let two = report_run(&[&input], &["--duplicates", "-j", "2"]);
    for file in ["games.csv", "duplicates.csv"] {
        let a = std::fs::read(one.out.join(file)).expect("-j 1");
        let b = std::fs::read(two.out.join(file)).expect("-j 2");
        assert!(a == b, "{file} differs between -j 1 and -j 2");
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("report");
    let done = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(["report", "--quiet", "--duplicates", "-o"])
        .arg(&out)
        .arg("-")
        .pipe_stdin(&input)
        .expect("stdin")
        .output()
        .expect("run");
    assert!(done.status.success());
    let rows = read_csv(&out.join("games.csv"));
    let mut want = expected("cases-expected.csv");
    for row in &mut want {
        if let Some((_, game)) = row["dup_of"].clone().rsplit_once(':') {
            row.insert("dup_of".into(), format!("-:{game}"));
        }
        row.insert("source".into(), "-".into());
    }
    assert_rows(&rows, &want);
    assert!(rows.iter().any(|r| r["dup_kind"] == "prefix"));
}

/// Without `--duplicates` the columns and file are absent, and a report
/// replaced with `--force` loses an earlier duplicates.csv.
#[test]
fn without_the_option_there_are_no_duplicate_columns() {
    let input = dir().join("cases.pgn");
    let run = report_run(&[&input], &["--duplicates"]);
    assert!(run.out.join("duplicates.csv").exists());
    let again = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(["report", "--quiet", "--force", "-o"])
        .arg(&run.out)
        .arg(&input)
        .output()
        .expect("run");
    assert!(again.status.success());
    assert!(!run.out.join("duplicates.csv").exists());
    let rows = run.rows();
    assert!(!rows[0].contains_key("dup_of"));
    assert!(run.summary()["duplicates"].is_null());
}

/// A writer built without the duplicate stage (`Job::run` with one's own
/// `ReportWriter::create`) cannot fill the columns its files wait for: the
/// run fails and writes no games.csv, rather than one without its rows.
#[test]
fn a_writer_without_the_stage_fails_rather_than_lose_rows() {
    use pgnmill::duplicates::DuplicateOptions;
    use pgnmill::job::{Job, ReportOptions};
    use pgnmill::report::{ReportFolder, ReportWriter};
    use pgnmill::source::Listing;
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = ReportFolder::prepare(&tmp.path().join("report"), false).expect("folder");
    let options = ReportOptions {
        duplicates: Some(DuplicateOptions::default()),
        ..ReportOptions::default()
    };
    let job = Job::new(&[dir().join("cases.pgn")], Listing::Games).expect("job");
    let writer = ReportWriter::create(&out, &options.layout(), &[], 1).expect("writer");
    let err = job.run(&options, writer, &mut ()).expect_err("no verdicts");
    assert!(err.to_string().contains("duplicate verdicts"), "{err}");
    assert!(!out.path().join("games.csv").exists());
    assert!(!out.path().join("summary.json").exists());
    // Through Job::report the same options write the folder.
    job.report(&options, &out, &mut ()).expect("report");
    assert!(out.path().join("duplicates.csv").exists());
}
