//! What every command does with the user's files and streams: extract files
//! never overwrite anything without `--force` and never an input; a closed
//! standard output is an error; a reader that goes away is a quiet exit 0;
//! `summary.json` says whether every input was read, with what options,
//! and what each input held; `--strict` fails a run with an incomplete
//! input.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn pgnmill() -> Command {
    Command::cargo_bin("pgnmill").unwrap()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/corpus")
        .join(name)
}

fn summary(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `--extract errors=victim.pgn victim.pgn` must not write the input's own
/// broken games over it, with or without `--force`, nor through a hard
/// link to it; an existing extract
/// file is replaced only with `--force`.
#[test]
fn extract_files_never_overwrite_an_input_or_an_existing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.pgn");
    std::fs::write(&victim, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let before = std::fs::read(&victim).unwrap();
    for force in [false, true] {
        let mut cmd = pgnmill();
        cmd.args(["report", "-q", "-o"]).arg(tmp.path().join("r"));
        cmd.arg("--extract")
            .arg(format!("errors={}", victim.display()));
        if force {
            cmd.arg("--force");
        }
        cmd.arg(&victim)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "--extract errors names the input",
            ));
        assert_eq!(std::fs::read(&victim).unwrap(), before, "input changed");
    }
    // A hard link to the input is the input by another name: refused too,
    // even with --force (the link would be replaced, the input not).
    #[cfg(unix)]
    {
        let hard = tmp.path().join("hard.pgn");
        std::fs::hard_link(&victim, &hard).unwrap();
        pgnmill()
            .args(["report", "-q", "--force", "-o"])
            .arg(tmp.path().join("r"))
            .arg("--extract")
            .arg(format!("errors={}", hard.display()))
            .arg(&victim)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "--extract errors names the input",
            ));
        std::fs::remove_file(&hard).unwrap();
    }
    let existing = tmp.path().join("errors.pgn");
    std::fs::write(&existing, "mine").unwrap();
    let run = |out: &str, force: bool| {
        let mut cmd = pgnmill();
        cmd.args(["report", "-q", "-o"]).arg(tmp.path().join(out));
        cmd.arg("--extract")
            .arg(format!("errors={}", existing.display()));
        if force {
            cmd.arg("--force");
        }
        cmd.arg(&victim).assert()
    };
    run("r2", false)
        .code(1)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(std::fs::read(&existing).unwrap(), b"mine");
    assert!(!tmp.path().join("r2/summary.json").exists());
    run("r3", true).success();
    assert_ne!(std::fs::read(&existing).unwrap(), b"mine");
}

/// A closed standard output (`>&-`) is an error naming it, not a success
/// that wrote nothing; a file output, or `> /dev/null`, is unaffected.
#[cfg(unix)]
#[test]
fn a_closed_stdout_is_an_error() {
    let exe = assert_cmd::cargo::cargo_bin("pgnmill");
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fen/mixed.epd");
    for args in [
        "perft startpos 2".to_string(),
        format!("fen -q {}", list.display()),
        format!(
            "convert --to iccs {}",
            corpus("pgn2tex-london1851.pgn").display()
        ),
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&-"))
            .arg(&exe)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args}: {err}");
        assert!(err.contains("standard output is closed"), "{args}: {err}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec \"$0\" fen -q -o {} {} >&-",
            tmp.path().join("a.csv").display(),
            list.display()
        ))
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(tmp.path().join("a.csv").exists());
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" perft startpos 2 > /dev/null")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success(), "> /dev/null is not a closed stdout");
}

/// A run that fails while finishing its outputs leaves none of them: an
/// `--extract errors=-` whose standard output is full (`/dev/full`) fails
/// after games.csv and castling.csv are complete, and they must not be left
/// in place looking like a finished report.
#[cfg(target_os = "linux")]
#[test]
fn a_run_that_fails_at_its_last_output_leaves_no_finished_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    let malformed = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/malformed");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let run = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnmill"))
        .args(["report", "-q", "--extract", "errors=-", "-o"])
        .arg(&out)
        .arg(&malformed)
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("standard output"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&out)
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `| head` ends every command quietly: exit 0, nothing on stderr.
#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_is_a_quiet_exit_0() {
    let exe = assert_cmd::cargo::cargo_bin("pgnmill");
    let xiangqi = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/xiangqi/corpus/wukong-xqdb15-chinese.pgn");
    for args in [
        "perft --divide startpos 3".to_string(),
        format!("convert -q --to wxf {}", xiangqi.display()),
    ] {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "set -o pipefail; \"$0\" {args} | head -c 10 > /dev/null"
            ))
            .arg(&exe)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args}: {:?} {err}", out.status);
        assert_eq!(err, "", "{args}");
    }
}

/// summary.json: whether the run read everything, the options it was
/// given, and per input the counts by status, threefolds, missed
/// threefolds and castling conflicts, which add up to the run's totals.
#[test]
fn summary_says_what_each_input_held_and_how_the_run_was_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    pgnmill()
        .args(["report", "-q", "--moves", "--variant", "auto", "-o"])
        .arg(&out)
        .arg(corpus("pychess-world-matches.pgn"))
        .arg(corpus("synthetic-castling-fen.pgn"))
        .assert()
        .success();
    let s = summary(&out);
    assert_eq!(s["complete"], true);
    assert_eq!(s["options"]["moves"], true);
    assert_eq!(s["options"]["variant"], "auto");
    assert_eq!(s["options"]["strict"], false);
    assert_eq!(s["options"]["inputs"].as_array().unwrap().len(), 2);
    let inputs = s["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    for key in [
        "games",
        "threefolds_ep_always",
        "threefolds_ep_legal",
        "missed_threefolds",
        "castling_conflicts",
    ] {
        let sum: u64 = inputs.iter().map(|i| i[key].as_u64().unwrap()).sum();
        assert_eq!(sum, s[key].as_u64().unwrap(), "{key}");
    }
    for input in inputs {
        assert_eq!(input["complete"], true);
        let by_status: u64 = input["status"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(by_status, input["games"].as_u64().unwrap());
    }
    // The world-championship file has missed threefolds, the synthetic
    // castling file has conflicts: the counts land on their own inputs.
    assert!(inputs[0]["missed_threefolds"].as_u64().unwrap() > 0);
    assert_eq!(inputs[0]["castling_conflicts"], 0);
    assert!(inputs[1]["castling_conflicts"].as_u64().unwrap() > 0);
    let games_csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(
        games_csv.lines().count() as u64 - 1,
        s["games"].as_u64().unwrap()
    );
}

/// A truncated `.zst`: the report is written and says the input is not
/// complete; `--strict` makes that exit 1 (report still written).
#[test]
fn an_incomplete_input_is_recorded_and_fails_strict_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read(corpus("pgn2tex-london1851.pgn")).unwrap();
    let z = zstd::encode_all(&text[..], 3).unwrap();
    let cut = tmp.path().join("cut.pgn.zst");
    std::fs::write(&cut, &z[..z.len() / 2]).unwrap();
    let out = tmp.path().join("r");
    pgnmill()
        .args(["report", "-q", "-o"])
        .arg(&out)
        .arg(&cut)
        .assert()
        .success()
        .stderr(predicates::str::contains("warning"));
    let s = summary(&out);
    assert_eq!(s["complete"], false);
    assert_eq!(s["inputs"][0]["complete"], false);
    assert!(
        s["inputs"][0]["error"]
            .as_str()
            .unwrap()
            .contains("cut.pgn.zst")
    );
    let strict = tmp.path().join("s");
    pgnmill()
        .args(["report", "-q", "--strict", "-o"])
        .arg(&strict)
        .arg(&cut)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--strict"));
    assert_eq!(summary(&strict)["options"]["strict"], true);
    // A complete input passes a strict run.
    pgnmill()
        .args(["report", "-q", "--strict", "--force", "-o"])
        .arg(&strict)
        .arg(corpus("pgn2tex-london1851.pgn"))
        .assert()
        .success();
}

/// The closing figures on stderr fit an 80-column terminal and say what the
/// report holds: the game count is the number of rows of `games.csv`, the
/// threefold counts those of its columns.
#[test]
fn closing_lines_fit_80_columns_and_match_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/corpus");
    let (stderr, rows) = report_closing(&out, &["-j".as_ref(), "1".as_ref(), corpus.as_os_str()]);
    // Warnings and the last line name paths, which may be of any length.
    let closing = stderr
        .lines()
        .filter(|l| !l.starts_with("pgnmill: ") && !l.starts_with("report written to "));
    for line in closing {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
    }
    let count = |column: &str| rows.iter().filter(|r| !r[column].is_empty()).count();
    let games = format!("{} games (", rows.len());
    let threefolds = format!(
        "threefolds: {} ep-always, {} ep-if-legal, {} missed by ep-always",
        count("threefold_ply_ep_always"),
        count("threefold_ply_ep_legal"),
        rows.iter()
            .filter(|r| r["missed_threefold"] == "true")
            .count()
    );
    assert!(stderr.lines().any(|l| l.starts_with(&games)), "{stderr}");
    assert!(stderr.lines().any(|l| l == threefolds), "{stderr}");
}

/// A count of one is said in the singular, in the closing line of a
/// report (and of its castling conflicts on report.html): "1 game", not
/// "1 games".
#[test]
fn one_game_is_said_in_the_singular() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("one.pgn");
    std::fs::write(
        &game,
        "[FEN \"4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1\"]\n\n1. Kd2 *\n",
    )
    .unwrap();
    let out = tmp.path().join("r");
    let (stderr, rows) = report_closing(&out, &[game.as_os_str()]);
    assert_eq!(rows.len(), 1);
    // No rook on h1: the K right contradicts the board.
    assert_eq!(rows[0]["castling_conflict"], "K");
    assert!(
        stderr
            .lines()
            .any(|l| l == "1 game (0 with errors) from 1 input(s)"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("<p>1 game has a [FEN] castling field"),
        "{html}"
    );
}

/// The closing lines count what the warnings above them said: damaged
/// games beside the games with errors, the inputs not read whole by kind
/// (as summary.json's warnings give them), and, with `--where`, the games
/// read beside those selected, so that a condition matching nothing shows.
#[test]
fn closing_lines_count_damaged_games_unread_inputs_and_unselected_games() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let compressed = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/compressed");
    let (stderr, rows) = report_closing(&out, &[compressed.as_os_str()]);
    let damaged = rows
        .iter()
        .filter(|r| r["status"] == "damaged_input")
        .count();
    assert!(damaged > 0);
    let first = format!(
        "{} games (0 with errors, {damaged} damaged_input) from ",
        rows.len()
    );
    assert!(stderr.lines().any(|l| l.starts_with(&first)), "{stderr}");
    let inputs = summary(&out)["inputs"].as_array().unwrap().clone();
    let kinds = |input: &serde_json::Value| -> Vec<String> {
        input["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["kind"].as_str().unwrap().to_string())
            .collect()
    };
    let count = |wanted: &[&str]| {
        inputs
            .iter()
            .filter(|i| kinds(i).iter().any(|k| wanted.contains(&k.as_str())))
            .count()
    };
    let line = format!(
        "inputs not read whole: {} cut short or damaged, {} refused, {} no text",
        count(&["cut_short", "damaged"]),
        count(&["not_pgn", "unsupported"]),
        count(&["no_text"])
    );
    assert!(
        stderr.lines().any(|l| l == line),
        "{line:?} not in {stderr}"
    );
    for l in stderr.lines().filter(|l| !l.starts_with("pgnmill: ")) {
        assert!(
            l.chars().count() <= 80 || l.starts_with("report written"),
            "{l}"
        );
    }

    // --where: the games of the file are its `[Event ` lines.
    let twic = corpus("twic1599-sample.pgn");
    let read = std::fs::read_to_string(&twic)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("[Event "))
        .count();
    for (condition, selected) in [("WhiteElo>2000", None), ("WhiteElo>9000", Some(0))] {
        let out = tmp.path().join(condition.replace(['>', '='], "_"));
        let where_args = ["--where".as_ref(), condition.as_ref(), twic.as_os_str()];
        let (stderr, rows) = report_closing(&out, &where_args);
        let rows = rows.len();
        assert!(rows < read, "{condition}");
        if let Some(n) = selected {
            assert_eq!(rows, n, "{condition}");
        }
        let first = format!("{rows} games of {read} read, selected by --where (");
        assert!(stderr.lines().any(|l| l.starts_with(&first)), "{stderr}");
    }
}

/// A run of xiangqi games alone closes with one count of threefolds (en
/// passant conventions and castling are chess's), the games whose
/// `threefold_ply_ep_always` is set.
#[test]
fn a_xiangqi_run_closes_without_the_chess_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let xiangqi = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xiangqi/corpus");
    let (stderr, rows) = report_closing(&out, &[xiangqi.as_os_str()]);
    assert!(rows.iter().all(|r| r["variant"] == "xiangqi"));
    let threefolds = rows
        .iter()
        .filter(|r| !r["threefold_ply_ep_always"].is_empty())
        .count();
    assert!(threefolds > 0);
    assert!(
        stderr
            .lines()
            .any(|l| l == format!("threefolds: {threefolds}")),
        "{stderr}"
    );
    assert!(
        !stderr.contains("ep-always") && !stderr.contains("castling"),
        "{stderr}"
    );
}

/// Runs `pgnmill report -o OUT ARGS` (it must succeed): its stderr, where
/// the closing lines are, and the rows of its games.csv.
fn report_closing(
    out: &Path,
    args: &[&std::ffi::OsStr],
) -> (String, Vec<std::collections::HashMap<String, String>>) {
    let run = pgnmill()
        .args(["report", "-o"])
        .arg(out)
        .args(args)
        .assert()
        .success();
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    (stderr, crate::support::read_csv(&out.join("games.csv")))
}

/// A symbolic link that leads nowhere, where an output would go, is
/// something there: `convert -o`, `fen -o`, `--extract` and a report
/// file in the folder all leave it alone without `--force` (exit 1) and
/// replace it with `--force`.
#[cfg(unix)]
#[test]
fn a_dangling_link_where_an_output_goes_is_replaced_only_with_force() {
    let game = corpus("pgn2tex-london1851.pgn");
    let epd = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fen/mixed.epd");
    let cases: [(&str, Vec<String>, &Path); 4] = [
        (
            "converted.pgn",
            vec!["convert".into(), "--to".into(), "iccs".into()],
            &game,
        ),
        ("rows.csv", vec!["fen".into()], &epd),
        (
            "errors.pgn",
            vec!["report".into(), "--extract".into()],
            &game,
        ),
        ("games.csv", vec!["report".into()], &game),
    ];
    for (name, command, input) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let report = tmp.path().join("report");
        let link = if name == "games.csv" {
            std::fs::create_dir(&report).unwrap();
            report.join(name)
        } else {
            tmp.path().join(name)
        };
        std::os::unix::fs::symlink(tmp.path().join("nowhere"), &link).unwrap();
        let run = |force: bool| {
            let mut cmd = pgnmill();
            cmd.args(&command);
            match name {
                "errors.pgn" => cmd
                    .arg(format!("errors={}", link.display()))
                    .arg("-o")
                    .arg(&report),
                "games.csv" => cmd.arg("-o").arg(&report),
                _ => cmd.arg("-o").arg(&link),
            };
            if force {
                cmd.arg("--force");
            }
            cmd.arg("-q").arg(input).output().unwrap()
        };
        let refused = run(false);
        assert_eq!(refused.status.code(), Some(1), "{name}: {refused:?}");
        assert!(
            link.symlink_metadata().unwrap().file_type().is_symlink(),
            "{name}"
        );
        let replaced = run(true);
        assert!(replaced.status.success(), "{name}: {replaced:?}");
        assert!(link.symlink_metadata().unwrap().is_file(), "{name}");
    }
}

/// An output path that names a stream, not a file: a named pipe, the null
/// device, `/dev/stdout`. It is written where it is, as standard output
/// is: no `--force` needed, nothing renamed over it (run as root, a rename
/// would put a regular file in place of `/dev/null`). The pipe's reader
/// gets what standard output gets, and the pipe and the device are what
/// they were.
#[cfg(unix)]
#[test]
fn an_output_that_names_a_pipe_or_a_device_is_written_to_not_replaced() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let xiangqi = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn");
    let epd = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fen/mixed.epd");
    let london = corpus("pgn2tex-london1851.pgn");
    let cases: [(&str, &[&str], &Path); 3] = [
        ("convert", &["convert", "--to", "wxf", "-o"], &xiangqi),
        ("fen", &["fen", "-o"], &epd),
        ("extract", &["report", "-q", "--extract"], &london),
    ];
    for (name, args, input) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let report = tmp.path().join("report");
        // What the command writes to standard output, the reference.
        let target = |out: &str| {
            let mut cmd = pgnmill();
            cmd.args(args);
            if name == "extract" {
                cmd.arg(format!("errors={out}")).arg("-o").arg(&report);
                cmd.arg("--force");
            } else {
                cmd.arg(out);
            }
            cmd.arg(input);
            cmd
        };
        let to_stdout = target("-").output().unwrap();
        assert!(to_stdout.status.success(), "{name}: {to_stdout:?}");
        assert!(!to_stdout.stdout.is_empty(), "{name}");

        let fifo = tmp.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        let run = target(&fifo.to_string_lossy()).output().unwrap();
        // A run that never opened the pipe leaves the reader waiting:
        // opening the other end (without blocking) lets it see the end.
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
        let read = reader.join().unwrap();
        assert!(run.status.success(), "{name}: {run:?}");
        assert_eq!(read, to_stdout.stdout, "{name}: what the pipe's reader got");
        assert!(fifo.metadata().unwrap().file_type().is_fifo(), "{name}");

        let through_dev_stdout = target("/dev/stdout").output().unwrap();
        assert!(
            through_dev_stdout.status.success(),
            "{name}: {through_dev_stdout:?}"
        );
        assert_eq!(through_dev_stdout.stdout, to_stdout.stdout, "{name}");

        let to_null = target("/dev/null").output().unwrap();
        assert!(to_null.status.success(), "{name}: {to_null:?}");
        assert!(to_null.stdout.is_empty(), "{name}");
        let null = Path::new("/dev/null").metadata().unwrap();
        assert!(null.file_type().is_char_device(), "{name}");
    }
    // A report is a folder: `-o /dev/null` is refused, and says what the
    // path names.
    let refused = pgnmill()
        .args(["report", "-q", "-o", "/dev/null"])
        .arg(&london)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.starts_with("pgnmill: /dev/null: is a device or a pipe, and a report is a folder"),
        "{err}"
    );
    let null = Path::new("/dev/null").metadata().unwrap();
    assert!(null.file_type().is_char_device());
}
