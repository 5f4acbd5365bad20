//! `pgnmill fen` through the binary: the rows of the public suites in
//! `testdata/fen/` against python-chess and pyffish
//! (`testdata/gen/fen_expected.py`), and the CLI rules (output file, pipes,
//! threads, help examples).

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn pgnmill() -> Command {
    Command::cargo_bin("pgnmill").unwrap()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/fen")
        .join(name)
}

type Row = BTreeMap<String, String>;

fn rows(csv_text: &[u8]) -> Vec<Row> {
    let mut r = csv::Reader::from_reader(csv_text);
    r.deserialize().map(|x| x.unwrap()).collect()
}

fn run_fen(args: &[&str]) -> Vec<Row> {
    let out = pgnmill().arg("fen").args(args).assert().success();
    rows(&out.get_output().stdout)
}

/// The columns python-chess/pyffish give an answer for; a bad_fen row is
/// compared on status and variant only (the error text is pgnmill's).
const COMPARED: [&str; 8] = [
    "fen",
    "fen_ep_legal",
    "castling_invalid",
    "castling_effective",
    "legal_moves",
    "check",
    "variant",
    "id",
];

#[test]
fn suite_rows_match_python_chess_and_pyffish() {
    let expected = rows(&std::fs::read(data("expected.csv")).unwrap());
    let mut runs: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for e in &expected {
        runs.entry((e["file"].clone(), e["mode"].clone()))
            .or_default()
            .push(e);
    }
    assert_eq!(runs.len(), 10);
    for ((file, mode), want) in runs {
        let path = data(&file);
        let got = run_fen(&["-q", "--variant", &mode, path.to_str().unwrap()]);
        assert_eq!(got.len(), want.len(), "{file} ({mode}): row count");
        for (g, w) in got.iter().zip(want) {
            let at = format!("{file}:{} ({mode})", w["line"]);
            assert_eq!(g["line"], w["line"], "{at}");
            assert_eq!(g["status"], w["status"], "{at}: {}", g["error"]);
            let cols: &[&str] = if w["status"] == "ok" {
                &COMPARED
            } else {
                &["variant"]
            };
            for &c in cols {
                assert_eq!(g[c], w[c], "{at}: column {c}");
            }
        }
    }
}

#[test]
fn rows_read_back_the_same_in_every_notation() {
    for (file, mode) in [
        ("mixed.epd", "auto"),
        ("pychess-frc_perftsuite.epd", "auto"),
        ("stockfish-books-FRC_openings.epd", "chess960"),
        ("cpw-xiangqi-perft.epd", "auto"),
    ] {
        let first = run_fen(&["-q", "--variant", mode, data(file).to_str().unwrap()]);
        let ok: Vec<&Row> = first.iter().filter(|r| r["status"] == "ok").collect();
        let text: String = ok.iter().map(|r| format!("{}\n", r["fen"])).collect();
        let out = pgnmill()
            .args(["fen", "-q", "--variant", mode, "-"])
            .write_stdin(text)
            .assert()
            .success();
        let again = rows(&out.get_output().stdout);
        assert_eq!(again.len(), ok.len(), "{file}");
        for (a, r) in again.iter().zip(&ok) {
            assert_eq!(a["fen"], r["fen"], "{file}");
            assert_eq!(a["input"], r["fen"], "{file}");
            assert_eq!(a["variant"], r["variant"], "{file}");
            assert_eq!(a["castling_invalid"], "", "{file}");
        }
    }
}

#[test]
fn kqkq_with_a_king_off_the_e_file_hints_at_chess960() {
    let got = run_fen(&["-q", data("mixed.epd").to_str().unwrap()]);
    let by_line = |n: &str| got.iter().find(|r| r["line"] == n).unwrap();
    let r = by_line("6"); // 1r4kr/.../1R4KR w KQkq, standard rules
    assert!(r["reason"].contains("--chess960"), "{}", r["reason"]);
    let r = by_line("2");
    assert_eq!(r["reason"], "");
    // The same record read as Chess960 keeps every right.
    let r960 = run_fen(&["-q", "--chess960", data("mixed.epd").to_str().unwrap()]);
    let r = r960.iter().find(|r| r["line"] == "6").unwrap();
    assert_eq!(
        (r["castling_effective"].as_str(), r["variant"].as_str()),
        ("KQkq", "chess960")
    );
}

/// A FEN counter is read up to 4294967295 (python-chess reads any
/// integer, and the suite's lines of ten digits agree with it); past that
/// the row says the number is too large, not that it is no number.
#[test]
fn a_counter_past_32_bits_is_too_large_not_malformed() {
    let tmp = tempfile::tempdir().unwrap();
    let list = tmp.path().join("big.epd");
    std::fs::write(
        &list,
        "4k3/8/8/8/8/8/4P3/4K3 b - - 4294967296 1\n4k3/8/8/8/8/8/4P3/4K3 b - - 0 99999999999\n",
    )
    .unwrap();
    let got = run_fen(&["-q", list.to_str().unwrap()]);
    let said: Vec<(&str, &str)> = got
        .iter()
        .map(|r| (r["status"].as_str(), r["error"].as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "bad_fen",
                "halfmove clock 4294967296 is too large (at most 4294967295)"
            ),
            (
                "bad_fen",
                "fullmove number 99999999999 is too large (at most 4294967295)"
            ),
        ]
    );
}

#[test]
fn perft_count_lines_are_never_rows() {
    let out = pgnmill()
        .args(["fen", data("shakmaty-tricky.perft").to_str().unwrap()])
        .assert()
        .success();
    let got = rows(&out.get_output().stdout);
    assert_eq!(got.len(), 26);
    assert!(
        got.iter()
            .all(|r| r["status"] == "ok" && !r["id"].is_empty())
    );
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let perft_lines = std::fs::read_to_string(data("shakmaty-tricky.perft"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("perft "))
        .count();
    assert!(
        stderr.contains(&format!("{perft_lines} perft count lines skipped")),
        "{stderr}"
    );
    let quiet = pgnmill()
        .args(["fen", "-q", data("shakmaty-tricky.perft").to_str().unwrap()])
        .assert()
        .success();
    assert!(quiet.get_output().stderr.is_empty());
}

#[test]
fn empty_input_still_writes_the_header() {
    let out = pgnmill()
        .args(["fen", "-"])
        .write_stdin("")
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        "source,line,input,status,error,fen,fen_ep_legal,castling_invalid,\
         castling_effective,reason,legal_moves,check,variant,id,game,problems\n"
    );
}

#[test]
fn output_file_is_refused_when_it_exists_or_is_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("v.epd");
    std::fs::copy(data("mixed.epd"), &list).unwrap();
    let before = std::fs::read(&list).unwrap();
    let out = dir.path().join("out.csv");
    let (l, o) = (list.to_str().unwrap(), out.to_str().unwrap());

    pgnmill().args(["fen", "-q", l, "-o", o]).assert().success();
    let first = std::fs::read(&out).unwrap();
    assert_eq!(rows(&first).len(), 20);
    // Exists: refused without --force, replaced with it (the old name too).
    std::fs::write(&out, "old").unwrap();
    pgnmill()
        .args(["fen", "-q", l, "-o", o])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--force"));
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
    pgnmill()
        .args(["fen", "-q", l, "--output", o, "--force"])
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), first);
    // The output is an input: refused even with --force (a usage error,
    // before any work), input untouched.
    for extra in [&[][..], &["--force"][..]] {
        pgnmill()
            .args(["fen", "-q", l, "-o", l])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("-o names the input"));
        assert_eq!(std::fs::read(&list).unwrap(), before);
    }
    // A failed run leaves no file behind.
    let missing = dir.path().join("nope.csv");
    pgnmill()
        .args(["fen", "/nonexistent/list.fen", "-o"])
        .arg(&missing)
        .assert()
        .code(1);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `n` copies of a list under different names: a file named twice is read
/// once, so a bigger input needs copies.
fn copies(dir: &Path, name: &str, n: usize) -> Vec<PathBuf> {
    (0..n)
        .map(|i| {
            let to = dir.join(format!("{i}-{name}"));
            std::fs::copy(data(name), &to).unwrap();
            to
        })
        .collect()
}

#[test]
fn threads_do_not_change_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let big = copies(dir.path(), "stockfish-books-FRC_openings.epd", 2);
    let args = |j: &str| {
        pgnmill()
            .args(["fen", "-q", "-j", j])
            .args([&big[0], &data("mixed.epd"), &big[1]])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = args("1");
    assert_eq!(rows(&one).len(), 960 * 2 + 20);
    assert_eq!(one, args("3"));
    pgnmill().args(["fen", "-j", "0", "-"]).assert().code(2);
}

#[test]
fn a_closed_stdout_is_a_quiet_success() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let big = copies(dir.path(), "stockfish-books-FRC_openings.epd", 4);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnmill"))
        .args(["fen", "-q"])
        .args(&big)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then closed
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child.stderr.unwrap().read_to_string(&mut stderr).unwrap();
    assert!(status.success(), "{status:?} {stderr}");
    assert_eq!(stderr, "");
}

/// Every example of `pgnmill fen --help` runs as written (in a folder
/// holding the files it names).
#[test]
fn help_examples_run_as_written() {
    let help = pgnmill().args(["fen", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&help.get_output().stdout).into_owned();
    let examples: Vec<&str> = help
        .split("Examples:")
        .nth(1)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(examples.len() >= 4, "{help}");
    let dir = tempfile::tempdir().unwrap();
    for (name, from) in [
        ("perftsuite.epd", "ethereal-standard.epd"),
        ("tricky.perft", "shakmaty-tricky.perft"),
        ("FRC_openings.epd", "stockfish-books-FRC_openings.epd"),
        ("xiangqi.epd", "cpw-xiangqi-perft.epd"),
    ] {
        std::fs::copy(data(from), dir.path().join(name)).unwrap();
    }
    let records = dir.path().join("old-xqf-folder");
    std::fs::create_dir(&records).unwrap();
    std::fs::copy(
        data("../xiangqi/records/SAMPLE.XQF"),
        records.join("SAMPLE.XQF"),
    )
    .unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pgnmill");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in examples {
        let out = std::process::Command::new("sh")
            .args(["-c", example])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{example}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `fen` opens its inputs as `report` does: a gzip or zstd list, a folder
/// searched for lists, and stdin give the rows of the plain file.
#[test]
fn compressed_lists_and_folders_read_like_the_plain_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let plain = std::fs::read(data("mixed.epd")).unwrap();
    let gz = dir.path().join("lists/a.epd.gz");
    std::fs::create_dir_all(gz.parent().unwrap()).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&plain).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let zst = dir.path().join("b.epd.zst");
    std::fs::write(&zst, zstd::encode_all(&plain[..], 3).unwrap()).unwrap();
    let without_source = |rows: Vec<Row>| -> Vec<Row> {
        rows.into_iter()
            .map(|mut r| {
                r.remove("source");
                r
            })
            .collect()
    };
    let want = without_source(run_fen(&["-q", data("mixed.epd").to_str().unwrap()]));
    assert!(want.len() > 10);
    for input in [gz.parent().unwrap(), &gz, &zst] {
        let got = run_fen(&["-q", input.to_str().unwrap()]);
        assert_eq!(without_source(got), want, "{}", input.display());
    }
    let piped = pgnmill()
        .args(["fen", "-q"])
        .write_stdin(std::fs::read(&zst).unwrap())
        .assert()
        .success();
    assert_eq!(without_source(rows(&piped.get_output().stdout)), want);
    // A folder without lists is an error that names what was looked for.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    pgnmill()
        .args(["fen", empty.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(".epd"));
}

/// Runs `pgnmill fen ARGS` in `dir`; returns exit code, rows and stderr.
fn fen_in(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<Row>, String) {
    let out = pgnmill()
        .current_dir(dir)
        .arg("fen")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        rows(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Binary data is "not a FEN/EPD list" (not "not PGN"); a PGN file is
/// named as PGN, with the command that reads it, instead of one bad_fen
/// row per line. Either gives no rows, the other inputs are read, exit 0;
/// `--strict` exits 1 with the CSV written.
#[test]
fn inputs_that_are_no_list_are_named_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A deterministic byte soup with NULs (a 64-bit LCG).
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let soup: Vec<u8> = (0..4096)
        .map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (x >> 56) as u8
        })
        .collect();
    std::fs::write(d.join("soup.fen"), &soup).unwrap();
    std::fs::write(d.join("photo.epd"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    std::fs::write(
        d.join("games.fen"),
        "\n[Event \"Casual\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n",
    )
    .unwrap();
    std::fs::write(d.join("tagless.epd"), "# moves\n1.d4 d5 2.c4 *\n").unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/corpus/pgn2tex-london1851.pgn"),
        d.join("london.epd"),
    )
    .unwrap();
    std::fs::copy(data("mixed.epd"), d.join("m.epd")).unwrap();
    let want = run_fen(&["-q", data("mixed.epd").to_str().unwrap()]).len();
    let cases = [
        (
            "soup.fen",
            "soup.fen: binary data, not a FEN/EPD list; no rows from it",
        ),
        (
            "photo.epd",
            "photo.epd: PNG image, not a FEN/EPD list; no rows from it",
        ),
        (
            "games.fen",
            "games.fen: looks like PGN (line 2: [Event \"Casual\"]), not a FEN/EPD list; read its games with `pgnmill report`",
        ),
        (
            "tagless.epd",
            "tagless.epd: looks like PGN (line 2: 1.d4 d5 2.c4 *)",
        ),
        ("london.epd", "london.epd: looks like PGN (line 1: [Event "),
    ];
    for (name, message) in cases {
        let (code, got, err) = fen_in(d, &["-q", name, "m.epd"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(!err.contains("not PGN"), "{name}: {err}");
        assert_eq!(got.len(), want, "{name}: only m.epd's rows");
        assert!(got.iter().all(|r| r["source"] == "m.epd"), "{name}");
        let (code, got, err) = fen_in(d, &["-q", "--strict", name, "m.epd"]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(
            err.contains("--strict: 1 input(s) were not read at all"),
            "{err}"
        );
        assert_eq!(got.len(), want, "{name}: the CSV is written");
    }
}

/// A damaged input is read as far as it goes: its records before the break
/// are rows, a warning says where it stopped in lines and records (never
/// games), and the next input is read whole; exit 0, `--strict` 1 with the
/// CSV written. A zip with no list in it is a warning, not a failed run.
#[test]
fn a_damaged_list_is_read_as_far_as_it_goes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let records: Vec<String> = (0..3000)
        .map(|i| format!("4k3/8/8/8/8/8/8/4K2R w K - {} {}", i % 50, i + 1))
        .collect();
    let text = records.join("\n") + "\n";
    let z = zstd::encode_all(text.as_bytes(), 19).unwrap();
    std::fs::write(d.join("cut.epd.zst"), &z[..z.len() * 3 / 5]).unwrap();
    // What the reference decoder gives of the cut file: the whole lines
    // before the break.
    let mut decoded = Vec::new();
    let mut dec = zstd::stream::read::Decoder::new(&z[..z.len() * 3 / 5]).unwrap();
    let _ = std::io::Read::read_to_end(&mut dec, &mut decoded);
    let whole_lines = decoded.iter().filter(|&&b| b == b'\n').count();
    assert!(
        whole_lines > 0 && whole_lines < records.len(),
        "{whole_lines}"
    );
    std::fs::copy(data("mixed.epd"), d.join("m.epd")).unwrap();
    let want_m = run_fen(&["-q", data("mixed.epd").to_str().unwrap()]).len();
    let (code, got, err) = fen_in(d, &["-q", "cut.epd.zst", "m.epd"]);
    assert_eq!(code, Some(0), "{err}");
    let cut: Vec<&Row> = got
        .iter()
        .filter(|r| r["source"] == "cut.epd.zst")
        .collect();
    assert!(
        !cut.is_empty() && cut.len() <= whole_lines,
        "{} of {whole_lines}",
        cut.len()
    );
    for (i, r) in cut.iter().enumerate() {
        assert_eq!(r["line"], (i + 1).to_string());
        assert_eq!(r["input"], records[i]);
    }
    assert_eq!(got.len() - cut.len(), want_m, "m.epd is read whole");
    let message = format!("; the records from line {} on are missing", cut.len() + 1);
    assert!(err.contains("pgnmill: warning: cut.epd.zst: "), "{err}");
    assert!(err.contains("text stops after byte"), "{err}");
    assert!(err.contains(&message), "{err}");
    assert!(!err.to_lowercase().contains("game"), "{err}");
    let (code, got, err) = fen_in(
        d,
        &["-q", "--strict", "-o", "out.csv", "cut.epd.zst", "m.epd"],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(got.is_empty());
    assert!(
        err.contains("1 input(s) were cut short or damaged"),
        "{err}"
    );
    let written = rows(&std::fs::read(d.join("out.csv")).unwrap());
    assert_eq!(written.len(), cut.len() + want_m);
    // A zip without a list: a warning naming it, and the run goes on;
    // it was not read at all, so --strict fails.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("games.pgn", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut zip, b"[Event \"x\"]\n\n1. e4 *\n").unwrap();
    std::fs::write(d.join("games.zip"), zip.finish().unwrap().into_inner()).unwrap();
    let (code, got, err) = fen_in(d, &["-q", "games.zip", "m.epd"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("games.zip: zip archive holding no .fen or .epd or .perft member"),
        "{err}"
    );
    assert_eq!(got.len(), want_m);
    let (code, got, err) = fen_in(d, &["-q", "games.zip"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(got.is_empty());
    let (code, _, err) = fen_in(d, &["-q", "--strict", "games.zip"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("1 input(s) were not read at all"), "{err}");
}

/// `-o -` is standard output, as `-` is standard input: no file named `-`.
#[test]
fn output_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data("mixed.epd"), dir.path().join("m.epd")).unwrap();
    let (code, got, err) = fen_in(dir.path(), &["-q", "-o", "-", "m.epd"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        got.len(),
        run_fen(&["-q", data("mixed.epd").to_str().unwrap()]).len()
    );
    assert!(!dir.path().join("-").exists());
}
