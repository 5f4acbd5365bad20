//! Every `pgnmill report` option through the binary:
//! --moves, -j, --variant, --extract, --quiet, --help, stdin, compressed
//! input, and the usage errors (exit code 2).

use assert_cmd::Command;
use pgnmill::pgn::split_all;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

type Row = HashMap<String, String>;

/// Which rows an extract file must hold.
type Pick<'a> = &'a dyn Fn(&Row) -> bool;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> Command {
    let mut c = Command::cargo_bin("pgnmill").expect("binary");
    c.current_dir(root());
    c
}

fn rows(path: &Path) -> (Vec<String>, Vec<Row>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            h.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect();
    (h, rows)
}

const CORPUS: &str = "testdata/corpus";
const EP_FILE: &str = "testdata/corpus/synthetic-en-passant.pgn";
const CASTLING_FILE: &str = "testdata/corpus/synthetic-castling-fen.pgn";

fn report(out: &Path, args: &[&str]) -> std::process::Output {
    bin()
        .arg("report")
        .arg("-o")
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn moves_column_only_with_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    assert!(report(&a, &["-q", EP_FILE]).status.success());
    assert!(report(&b, &["-q", "--moves", EP_FILE]).status.success());
    let (ha, _) = rows(&a.join("games.csv"));
    let (hb, rb) = rows(&b.join("games.csv"));
    assert!(!ha.contains(&"moves".to_string()));
    assert!(hb.contains(&"moves".to_string()));
    for r in &rb {
        let n = if r["moves"].is_empty() {
            0
        } else {
            r["moves"].split(' ').count()
        };
        assert_eq!(n.to_string(), r["plies"], "one UCI move per replayed ply");
    }
}

/// The files do not depend on the number of threads: `-j 1` and `-j 2`
/// through the binary, and 7 replay threads through the library (the
/// command line caps `-j` at the CPUs, and a test machine may have two),
/// which also splits each window of the 3 MB chesscom file on 3 threads.
#[test]
fn one_thread_and_more_threads_give_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("j1");
    assert!(
        report(&one, &["-q", "-j", "1", "--moves", CORPUS])
            .status
            .success()
    );
    let two = tmp.path().join("j2");
    assert!(
        report(&two, &["-q", "-j", "2", "--moves", CORPUS])
            .status
            .success()
    );
    let seven = tmp.path().join("j7");
    report_in_process(&seven, 7);
    for other in [&two, &seven] {
        for f in ["games.csv", "castling.csv", "report.html"] {
            assert!(
                std::fs::read(one.join(f)).unwrap() == std::fs::read(other.join(f)).unwrap(),
                "{f} differs between -j 1 and {other:?}"
            );
        }
    }
    // summary.json of the two command-line runs too (the library's run
    // has no command line to record), but for the two fields
    // docs/reports.md names as the run's own.
    let summary = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("summary.json")).unwrap();
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let fields = json.as_object_mut().unwrap();
        assert!(fields.remove("elapsed_seconds").is_some());
        assert!(fields.remove("threads").is_some());
        json
    };
    assert!(
        summary(&one) == summary(&two),
        "summary.json differs between -j 1 and -j 2"
    );
}

/// `pgnmill report --moves CORPUS` through the library, on a pool of
/// `threads` threads, whatever the machine's CPUs.
fn report_in_process(out: &Path, threads: usize) {
    use pgnmill::job::{Job, ReportOptions};
    let job = Job::new(&[PathBuf::from(CORPUS)], pgnmill::source::Listing::Games)
        .unwrap()
        .threads(threads);
    let options = ReportOptions {
        replay: pgnmill::replay::ReplayOptions {
            moves: true,
            ..Default::default()
        },
        ..ReportOptions::default()
    };
    let dir = pgnmill::report::ReportFolder::prepare(out, false).unwrap();
    job.report(&options, &dir, &mut ()).unwrap();
}

/// `-j` above the CPUs this process may use is capped, with a warning:
/// more threads only take turns, at a cost in time and memory.
#[test]
fn threads_above_the_cpus_are_capped_with_a_warning() {
    let cpus = std::thread::available_parallelism().unwrap().get();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let o = report(&out, &["-q", "-j", "1000", EP_FILE]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "pgnmill: warning: -j 1000 is more than the {cpus} CPU(s) this process may use; using {cpus}"
        )
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["threads"], cpus);
    // At the CPUs, no warning.
    let o = report(
        &tmp.path().join("r2"),
        &["-q", "-j", &cpus.to_string(), EP_FILE],
    );
    assert!(o.status.success() && o.stderr.is_empty());
    // fen and convert take the same cap.
    for args in [
        &["fen", "-q", "-j", "1000", "testdata/fen/mixed.epd"][..],
        &[
            "convert",
            "-q",
            "-j",
            "1000",
            "--to",
            "iccs",
            "testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn",
        ][..],
    ] {
        let o = bin().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{args:?}: {err}");
        assert!(err.contains("-j 1000 is more than the"), "{args:?}: {err}");
    }
}

#[test]
fn variant_is_forced_on_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    for (variant, expect) in [
        ("chess", "chess"),
        ("chess960", "chess960"),
        ("xiangqi", "xiangqi"),
    ] {
        let out = tmp.path().join(variant);
        assert!(
            report(&out, &["-q", "--variant", variant, EP_FILE])
                .status
                .success()
        );
        let (_, rs) = rows(&out.join("games.csv"));
        assert!(!rs.is_empty());
        for r in &rs {
            assert_eq!(r["variant"], expect);
            if variant == "xiangqi" {
                // Chess moves are no xiangqi moves.
                assert_ne!(r["status"], "ok", "{r:?}");
            }
        }
    }
    let o = report(
        &tmp.path().join("bad"),
        &["-q", "--variant", "shogi", EP_FILE],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// Each game of an extract file, as its own bytes.
fn games_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    split_all(bytes, false)
        .iter()
        .map(|s| s.slice(bytes, 0).unwrap().to_vec())
        .collect()
}

#[test]
fn extract_writes_the_games_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let (m, c, e) = (
        tmp.path().join("missed.pgn"),
        tmp.path().join("castling.pgn"),
        tmp.path().join("errors.pgn"),
    );
    let o = bin()
        .args(["report", "-q", "-o"])
        .arg(&out)
        .arg(format!("--extract=missed={}", m.display()))
        .arg(format!("--extract=castling={}", c.display()))
        .arg(format!("--extract=errors={}", e.display()))
        .args([EP_FILE, CASTLING_FILE, "testdata/malformed/nul-bytes.pgn"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, rs) = rows(&out.join("games.csv"));
    let checks: [(&Path, Pick); 3] = [
        (&m, &|r| r["missed_threefold"] == "true"),
        (&c, &|r| !r["castling_conflict"].is_empty()),
        (&e, &|r| r["status"] != "ok"),
    ];
    for (file, pick) in checks {
        let picked: Vec<&Row> = rs.iter().filter(|r| pick(r)).collect();
        assert!(
            !picked.is_empty(),
            "{file:?}: the test inputs hold such games"
        );
        let bytes = std::fs::read(file).unwrap();
        // The first line marks the file as pgnmill's own (a PGN escape
        // line), then the games follow byte for byte.
        assert!(bytes.starts_with(b"% pgnmill extract "), "{file:?}");
        let body = &bytes[bytes.iter().position(|&b| b == b'\n').unwrap() + 1..];
        let extracted = games_of(body);
        assert_eq!(extracted.len(), picked.len(), "{file:?}: one game per row");
        for (game, row) in extracted.iter().zip(&picked) {
            let source = std::fs::read(root().join(&row["source"])).unwrap();
            let offset: usize = row["offset"].parse().unwrap();
            assert!(
                source[offset..].starts_with(game),
                "{file:?}: game {} of {} not copied byte for byte",
                row["game"],
                row["source"]
            );
        }
    }
}

#[test]
fn quiet_prints_nothing_and_default_prints_a_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let o = report(&tmp.path().join("q"), &["--quiet", EP_FILE]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
    let o = report(&tmp.path().join("v"), &[EP_FILE]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games") && err.contains("missed by ep-always"),
        "{err}"
    );
    assert!(err.contains("report written to"), "{err}");
}

/// `pgnmill COMMAND --help`, which must succeed.
fn help(command: &str) -> String {
    let o = bin().args([command, "--help"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{command} --help");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn help_shows_examples_and_exit_codes() {
    let text = help("report");
    assert!(
        text.contains("Examples:") && text.contains("pgnmill report games.pgn"),
        "{text}"
    );
}

/// Each command's `--help` names every file ending its folder search
/// picks up (`Listing::extensions`, what the search itself uses), so the
/// help cannot fall behind the search. A compressed ending of `fen`'s
/// lists (`.epd.xz`) may be named as the list's ending and the
/// compression's (".epd, each also as ... .xz").
#[test]
fn help_names_every_ending_a_folder_search_picks_up() {
    use pgnmill::source::Listing;
    for (command, listing) in [
        ("report", Listing::Games),
        ("convert", Listing::Games),
        ("fen", Listing::Positions),
    ] {
        let text = help(command);
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .map(|w| w.trim_end_matches('.'))
            .collect();
        let named = |ending: &str| words.contains(&ending);
        for &ending in listing.extensions() {
            let parts = ending
                .rfind('.')
                .filter(|&i| i > 0)
                .map(|i| ending.split_at(i));
            assert!(
                named(ending) || parts.is_some_and(|(list, packed)| named(list) && named(packed)),
                "{command} --help does not name {ending}:\n{text}"
            );
        }
    }
}

/// Every command's `--help` lists each exit code it can give, one line
/// each under "Exit status:": 0, 1 (and what `--strict` adds, for the
/// commands that have it), 2, 130 and 143.
#[test]
fn help_of_every_command_lists_its_exit_codes() {
    for (command, strict) in [
        ("report", true),
        ("convert", true),
        ("fen", true),
        ("perft", false),
    ] {
        let text = help(command);
        let status = text
            .split("Exit status:")
            .nth(1)
            .unwrap_or_else(|| panic!("{command}: no exit status\n{text}"));
        let codes: Vec<&str> = status
            .lines()
            .map(str::trim_start)
            .take_while(|l| !l.starts_with("Examples:"))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        assert_eq!(codes, ["0", "1", "2", "130", "143"], "{command}:\n{status}");
        assert_eq!(status.contains("--strict"), strict, "{command}:\n{status}");
    }
}

/// `--extract KIND=-` writes the extract to standard output, as `-` is
/// standard input everywhere; the report is written as usual, and a reader
/// that goes away (`| head`) ends the extract, not the report.
#[cfg(unix)]
#[test]
fn extract_to_standard_output() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    let o = bin()
        .current_dir(tmp.path())
        .args(["report", "-q", "-o", "r", "--extract", "errors=-"])
        .arg(root().join("testdata/malformed"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!tmp.path().join("-").exists());
    let (_, rs) = rows(&out.join("games.csv"));
    let broken = rs.iter().filter(|r| r["status"] != "ok").count();
    assert!(broken > 3);
    let text = &o.stdout;
    assert!(text.starts_with(b"% pgnmill extract errors: "));
    let body = &text[text.iter().position(|&b| b == b'\n').unwrap() + 1..];
    assert_eq!(games_of(body).len(), broken);
    // `| head -c 100`: exit 0, the report complete.
    let exe = assert_cmd::cargo::cargo_bin("pgnmill");
    let status = std::process::Command::new("bash")
        .current_dir(tmp.path())
        .arg("-c")
        .arg(format!(
            "set -o pipefail; \"$0\" report -q -o r2 --extract errors=- {} | head -c 100 > /dev/null",
            root().join("testdata/malformed").display()
        ))
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(tmp.path().join("r2/summary.json").exists());
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("r");
    for args in [
        &["--extract", "typo=x.pgn", EP_FILE][..],
        &["--extract", "missed", EP_FILE][..],
        &["-j", "0", EP_FILE][..],
        &["-j", "many", EP_FILE][..],
        &["--no-such-flag", EP_FILE][..],
        &[][..],
    ] {
        let o = report(&out, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            !err.is_empty(),
            "{args:?}: a usage error says what is wrong"
        );
        assert!(!out.join("summary.json").exists());
    }
}

#[test]
fn stdin_and_compressed_inputs_give_the_same_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read(root().join(EP_FILE)).unwrap();
    let zst = tmp.path().join("x.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&text[..], 3).unwrap()).unwrap();
    let gz = tmp.path().join("x.pgn.gz");
    {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&text).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    }
    let plain = tmp.path().join("plain");
    assert!(report(&plain, &["-q", EP_FILE]).status.success());
    let (_, want) = rows(&plain.join("games.csv"));
    let stdin_out = tmp.path().join("stdin");
    bin()
        .args(["report", "-q", "-o"])
        .arg(&stdin_out)
        .arg("-")
        .write_stdin(text.clone())
        .assert()
        .success();
    for (name, out) in [
        ("stdin", stdin_out),
        ("zst", {
            let o = tmp.path().join("zst");
            assert!(report(&o, &["-q", zst.to_str().unwrap()]).status.success());
            o
        }),
        ("gz", {
            let o = tmp.path().join("gz");
            assert!(report(&o, &["-q", gz.to_str().unwrap()]).status.success());
            o
        }),
    ] {
        let (_, got) = rows(&out.join("games.csv"));
        assert_eq!(got.len(), want.len(), "{name}");
        for (g, w) in got.iter().zip(&want) {
            for col in [
                "offset",
                "line",
                "plies",
                "final_fen",
                "status",
                "missed_threefold",
            ] {
                assert_eq!(g[col], w[col], "{name}: {col} of game {}", w["game"]);
            }
        }
    }
}
