//! Outputs never collide and never become inputs (docs/reports.md, "Where
//! outputs may go"), through the binary: two outputs naming one file, a
//! report folder in, at or around an input folder, and an output path that
//! is a folder are refused before any work, exit 2, with nothing written;
//! extracts pgnmill wrote into an input folder are passed over by the next
//! search of that folder, and said so; `--force` removes the earlier
//! run's extracts inside the report folder that it does not write again.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn pgnmill() -> Command {
    Command::cargo_bin("pgnmill").unwrap()
}

/// Three games written here, one of them broken (`2. Ke3` is no legal
/// move: the king on e1 cannot reach e3).
const GAMES: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"c\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";

/// A folder `c` under `dir` holding `a.pgn` ([`GAMES`]).
fn input_folder(dir: &Path) -> PathBuf {
    let c = dir.join("c");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::write(c.join("a.pgn"), GAMES).unwrap();
    c
}

/// Every path under `dir`, relative, sorted: what a refused run must not
/// change.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(base).unwrap().display().to_string());
            if p.is_dir() && !p.is_symlink() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Runs pgnmill in `dir` with `args`; it must succeed. Returns stderr.
fn succeeds(dir: &Path, args: &[&str]) -> String {
    let out = pgnmill().current_dir(dir).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {err}");
    err
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    crate::support::read_csv(&dir.join("games.csv"))
}

/// Runs pgnmill in `dir` with `args`; it must exit 2 with a last line
/// (after any warnings about the inputs) that holds every one of `words`,
/// and leave `dir` as it was.
fn refused(dir: &Path, args: &[&str], words: &[&str]) {
    let before = tree(dir);
    let out = pgnmill().current_dir(dir).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    // One line: a refused run says why, and nothing of the inputs it
    // would have read (a folder search's notes come after the check).
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    let last = err.trim_end().lines().last().unwrap_or_default();
    assert!(!last.contains("warning"), "{args:?}: {err}");
    for w in words {
        assert!(last.contains(w), "{args:?}: {w:?} not in {err}");
    }
    assert_eq!(tree(dir), before, "{args:?} wrote something");
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_any_work() {
    let tmp = tempfile::tempdir().unwrap();
    input_folder(tmp.path());
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("sub", tmp.path().join("link")).unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--extract", "missed=x.pgn", "--extract", "errors=x.pgn"],
            &["--extract missed", "--extract errors", "x.pgn"],
        ),
        // Other spellings of one path.
        (
            &[
                "--extract",
                "missed=./x.pgn",
                "--extract",
                "errors=sub/../x.pgn",
            ],
            &["--extract missed", "--extract errors"],
        ),
        #[cfg(unix)]
        (
            &[
                "--extract",
                "castling=link/y.pgn",
                "--extract",
                "conflicts=sub/y.pgn",
            ],
            &["--extract castling", "--extract conflicts"],
        ),
        // An extract named like a file of the report folder, whatever
        // --format writes.
        (
            &["--extract", "errors=r/games.csv"],
            &["the report's games.csv", "--extract errors"],
        ),
        (
            &["--extract", "errors=./r/summary.json"],
            &["the report's summary.json"],
        ),
        (&["--extract", "missed=r/report.html"], &["report.html"]),
        (&["--extract", "missed=r/games.parquet"], &["games.parquet"]),
        // Files only --plies writes, refused with or without it.
        (&["--extract", "missed=r/plies.parquet"], &["plies.parquet"]),
        (&["--extract", "missed=r/plies.csv"], &["plies.csv"]),
        (&["--extract", "missed=r/castling.csv"], &["castling.csv"]),
        // The report folder itself.
        (&["--extract", "errors=r"], &["-o", "--extract errors"]),
        // Two extracts on standard output.
        (
            &["--extract", "errors=-", "--extract", "missed=-"],
            &["standard output"],
        ),
    ];
    for (extra, words) in cases {
        let mut args = vec!["report", "-q", "-o", "r"];
        args.extend_from_slice(extra);
        args.push("c");
        refused(tmp.path(), &args, words);
        args.insert(2, "--force");
        refused(tmp.path(), &args, words);
    }
}

#[test]
fn a_report_folder_in_at_or_around_an_input_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let c = input_folder(tmp.path());
    std::fs::create_dir(c.join("deeper")).unwrap();
    std::fs::write(tmp.path().join("b.pgn"), GAMES).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("c", tmp.path().join("c-link")).unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["-o", "c", "c/"], &["is the input folder c/"]),
        (&["-o", "c/", "./c"], &["is the input folder"]),
        (&["-o", "c/r", "c"], &["is inside the input folder c"]),
        (
            &["-o", "c/deeper/r", "b.pgn", "c"],
            &["is inside the input folder c"],
        ),
        (&["-o", ".", "c"], &["holds the input c"]),
        // `-` is standard output, which cannot hold a folder.
        (&["-o", "-", "b.pgn"], &["standard output cannot hold"]),
        (&["-o", "..", "c"], &["holds the input c"]),
        // A report folder that would hold an input file.
        (&["-o", ".", "b.pgn"], &["holds the input b.pgn"]),
        #[cfg(unix)]
        (&["-o", "c-link/r", "c"], &["is inside the input folder c"]),
        #[cfg(unix)]
        (
            &["-o", "c/r", "c-link"],
            &["is inside the input folder c-link"],
        ),
    ];
    for (extra, words) in cases {
        for force in [false, true] {
            let mut args = vec!["report", "-q"];
            if force {
                args.push("--force");
            }
            args.extend_from_slice(extra);
            refused(tmp.path(), &args, words);
        }
    }
    // Neighbours that only look alike are fine: a name that starts like
    // the input folder's, an input named inside the report folder's
    // sibling.
    pgnmill()
        .current_dir(tmp.path())
        .args(["report", "-q", "-o", "c-report", "c"])
        .assert()
        .success();
    assert_eq!(rows(&tmp.path().join("c-report")).len(), 3);
    pgnmill()
        .current_dir(tmp.path())
        .args(["report", "-q", "-o", "cr", "c/a.pgn"])
        .assert()
        .success();
}

#[test]
fn an_output_path_that_is_a_folder_is_refused_by_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    input_folder(tmp.path());
    std::fs::create_dir(tmp.path().join("d")).unwrap();
    let xiangqi = crate::support::root().join("testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn");
    let list = crate::support::root().join("testdata/fen/mixed.epd");
    let (xiangqi, list) = (xiangqi.to_str().unwrap(), list.to_str().unwrap());
    for force in [&[][..], &["--force"][..]] {
        let cases: [Vec<&str>; 4] = [
            vec!["report", "-q", "-o", "r", "--extract", "errors=d", "c"],
            vec!["report", "-q", "-o", "r", "--extract", "errors=d/", "c"],
            vec!["convert", "-q", "--to", "wxf", "-o", "d", xiangqi],
            vec!["fen", "-q", "-o", "d", list],
        ];
        for mut args in cases {
            args.extend_from_slice(force);
            refused(tmp.path(), &args, &["d", "names a folder"]);
        }
    }
}

#[test]
fn convert_and_fen_output_inside_an_input_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let c = input_folder(tmp.path());
    std::fs::copy(
        crate::support::root().join("testdata/fen/mixed.epd"),
        c.join("m.epd"),
    )
    .unwrap();
    refused(
        tmp.path(),
        &["convert", "-q", "--to", "iccs", "-o", "c/all.pgn", "c"],
        &["c/all.pgn", "is inside the input folder c"],
    );
    refused(
        tmp.path(),
        &["fen", "-q", "-o", "c/sub/audit.csv", "c/"],
        &["is inside the input folder c/"],
    );
    // The output that is an input file: exit 2 too, even with --force.
    refused(
        tmp.path(),
        &["fen", "-q", "--force", "-o", "c/m.epd", "c/m.epd"],
        &["names the input"],
    );
    refused(
        tmp.path(),
        &[
            "report",
            "-q",
            "--force",
            "-o",
            "r",
            "--extract",
            "errors=c/a.pgn",
            "c",
        ],
        &["--extract errors names the input"],
    );
}

#[test]
fn extracts_written_into_an_input_folder_are_not_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let c = input_folder(tmp.path());
    std::fs::create_dir(c.join("sub")).unwrap();
    // A file of the user's that starts with a PGN escape line is read.
    std::fs::write(
        c.join("mine.pgn"),
        format!(
            "% my notes\n{}",
            GAMES.split("\n\n[Event \"b\"]").next().unwrap()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| succeeds(tmp.path(), args);
    run(&[
        "report",
        "-q",
        "-o",
        "r1",
        "--extract",
        "errors=c/errors.pgn",
        "--extract",
        "missed=c/sub/missed.pgn",
        "c",
    ]);
    let first = rows(&tmp.path().join("r1"));
    // a.pgn's three games and mine.pgn's one.
    assert_eq!(first.len(), 4);
    let extract = std::fs::read_to_string(c.join("errors.pgn")).unwrap();
    assert!(extract.starts_with("% pgnmill extract errors"), "{extract}");
    assert!(extract.contains("2. Ke3"), "{extract}");
    // The next run over the folder reads the same games, not the extracts
    // again, and says what it passed over.
    let err = run(&["report", "-o", "r2", "c"]);
    assert!(
        err.contains("passed over 2 extract file(s) that pgnmill wrote"),
        "{err}"
    );
    assert!(
        err.contains("c/errors.pgn") && err.contains("c/sub/missed.pgn"),
        "{err}"
    );
    let second = rows(&tmp.path().join("r2"));
    assert_eq!(second.len(), 4);
    assert_eq!(
        second
            .iter()
            .filter(|r| r["status"] == "illegal_move")
            .count(),
        1
    );
    let s = summary(&tmp.path().join("r2"));
    assert_eq!(
        s["skipped"]["extracts"],
        serde_json::json!(["c/errors.pgn", "c/sub/missed.pgn"])
    );
    // Named on the command line, an extract is read like any file.
    run(&["report", "-q", "-o", "r3", "c/errors.pgn"]);
    let named = rows(&tmp.path().join("r3"));
    assert_eq!(named.len(), 1);
    assert_eq!(named[0]["event"], "b");
    assert_eq!(named[0]["status"], "illegal_move");
}

#[test]
fn own_output_passed_over_is_named_in_the_message_and_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let c = input_folder(tmp.path());
    std::fs::write(tmp.path().join("other.pgn"), GAMES).unwrap();
    // A report written into the folder from another input.
    std::fs::create_dir(tmp.path().join("only")).unwrap();
    pgnmill()
        .current_dir(tmp.path())
        .args([
            "report",
            "-q",
            "-o",
            "c/rep",
            "--extract",
            "errors=only/e.pgn",
            "other.pgn",
        ])
        .assert()
        .success();
    let out = pgnmill()
        .current_dir(tmp.path())
        .args(["report", "-o", "r", "c"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("c/rep: a pgnmill report folder") && err.contains("pgnmill's own output"),
        "{err}"
    );
    let s = summary(&tmp.path().join("r"));
    assert_eq!(s["skipped"]["report_folders"], serde_json::json!(["c/rep"]));
    assert_eq!(s["inputs"].as_array().unwrap().len(), 1);
    // A folder that holds nothing but pgnmill's own output: the run fails
    // (nothing to read), and the message says what was there.
    for (arg, own) in [("c/rep", "c/rep"), ("only", "only/e.pgn")] {
        let out = pgnmill()
            .current_dir(tmp.path())
            .args(["report", "-q", "-o", "r9", arg])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("other than pgnmill's own output"), "{err}");
        assert!(err.contains(own), "{err}");
    }
    assert!(c.join("a.pgn").exists());
}

#[test]
fn force_removes_the_earlier_extracts_inside_the_report_folder() {
    let tmp = tempfile::tempdir().unwrap();
    input_folder(tmp.path());
    let r = tmp.path().join("r");
    std::fs::create_dir_all(r.join("sub")).unwrap();
    let run = |args: &[&str]| succeeds(tmp.path(), args);
    run(&[
        "report",
        "-q",
        "-o",
        "r",
        "--extract",
        "errors=r/errors.pgn",
        "--extract",
        "missed=r/sub/missed.pgn",
        "--extract",
        "conflicts=outside.pgn",
        "c",
    ]);
    std::fs::write(r.join("notes.pgn"), GAMES).unwrap();
    std::fs::write(r.join("sub/mine.txt"), "% pgnmill extract? no: a note\n").unwrap();
    let err = run(&[
        "report",
        "--force",
        "-o",
        "r",
        "--extract",
        "errors=./r/errors.pgn",
        "c",
    ]);
    assert!(
        err.contains("removed 1 extract file(s) of the earlier report")
            && err.contains("missed.pgn"),
        "{err}"
    );
    assert!(!r.join("sub/missed.pgn").exists());
    assert!(r.join("errors.pgn").exists(), "written again");
    assert!(r.join("notes.pgn").exists(), "the user's file is kept");
    assert!(r.join("sub/mine.txt").exists(), "the user's file is kept");
    assert!(
        tmp.path().join("outside.pgn").exists(),
        "outside the report folder"
    );
    // Without a new extract, the last one goes too.
    run(&["report", "-q", "--force", "-o", "r", "c"]);
    assert!(!r.join("errors.pgn").exists());
    assert!(r.join("notes.pgn").exists());
}

/// Two refusals that say which argument is wrong and what to give: an
/// `-o` that names a file (even with `--force`, which replaces an earlier
/// report, not a file) and an `--against` path that is not there (the
/// message names the option, the path alone would read as a missing
/// input). Exit 1, the file left as it was, no report.
#[test]
fn a_file_as_the_report_folder_and_a_missing_against_say_which_argument() {
    let tmp = tempfile::tempdir().unwrap();
    let input = input_folder(tmp.path()).join("a.pgn");
    let file = tmp.path().join("afile");
    std::fs::write(&file, "mine\n").unwrap();
    let run = pgnmill()
        .args(["report", "-q", "--force", "-o"])
        .arg(&file)
        .arg(&input)
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        err.ends_with("afile: is a file, and a report is a folder (--force replaces an earlier report, not a file): give -o a folder's name\n"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    let missing = tmp.path().join("nope.pgn");
    let run = pgnmill()
        .args(["report", "-q", "-o"])
        .arg(tmp.path().join("r"))
        .arg("--against")
        .arg(&missing)
        .arg(&input)
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert_eq!(
        err,
        format!(
            "pgnmill: --against {}: no such file or directory\n",
            missing.display()
        )
    );
    assert!(!tmp.path().join("r").exists());
}
