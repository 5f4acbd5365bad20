//! Inputs as users have them (docs/reports.md, "Inputs"), through the
//! binary: FIFOs and `<(cmd)`, bzip2, xz and zip, UTF-16 text, binary
//! files that are not PGN, the same file named twice, and what a folder
//! search passes over. Every fixture is written here, at test time, by the
//! crates pgnmill reads them with (the XQF record is a copy of a real one:
//! testdata/binary/README.md).

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A small real collection (several games, more than 4 KiB).
fn sample_text() -> Vec<u8> {
    std::fs::read(root().join("testdata/corpus/pgn-extract-test-repetition.pgn")).expect("sample")
}

/// What a run gave: stderr, the rows of games.csv, summary.json.
struct Run {
    stderr: String,
    rows: Vec<csv::StringRecord>,
    header: csv::StringRecord,
    summary: serde_json::Value,
    games_csv: Vec<u8>,
}

/// `run`'s stderr holds `text`.
fn assert_said(run: &Run, text: &str) {
    assert!(run.stderr.contains(text), "{text:?} not in {}", run.stderr);
}

impl Run {
    fn column(&self, name: &str) -> Vec<String> {
        let i = self
            .header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"));
        self.rows.iter().map(|r| r[i].to_string()).collect()
    }

    /// Each game as white, black, plies, status and final FEN: what every
    /// way of storing the same games must give alike.
    fn games(&self) -> Vec<String> {
        let cols: Vec<Vec<String>> = ["white", "black", "plies", "status", "final_fen"]
            .iter()
            .map(|c| self.column(c))
            .collect();
        (0..self.rows.len())
            .map(|i| {
                cols.iter()
                    .map(|c| c[i].as_str())
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect()
    }
}

/// Runs `pgnmill report -j 2 --force -o OUT ARGS` in `dir`; it must succeed.
fn report(dir: &Path, args: &[&Path]) -> Run {
    let out = dir.join("report-out");
    let got = Command::cargo_bin("pgnmill")
        .expect("binary")
        .current_dir(dir)
        .args(["report", "-q", "-j", "2", "--force", "-o"])
        .arg(&out)
        .args(args)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&got.get_output().stderr).into_owned();
    let games_csv = std::fs::read(out.join("games.csv")).expect("games.csv");
    let mut rd = csv::Reader::from_reader(games_csv.as_slice());
    let header = rd.headers().expect("header").clone();
    let rows = rd.records().map(|r| r.expect("row")).collect();
    let summary = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap())
        .expect("summary.json");
    // The report folder is not an input of the next run over `dir`.
    std::fs::remove_dir_all(&out).expect("remove report");
    Run {
        stderr,
        rows,
        header,
        summary,
        games_csv,
    }
}

/// The rows of the sample read as a plain file: what every other way of
/// storing it must give.
fn plain_rows(dir: &Path) -> Vec<String> {
    let p = dir.join("plain.pgn");
    std::fs::write(&p, sample_text()).unwrap();
    let run = report(dir, &[&p]);
    std::fs::remove_file(&p).unwrap();
    assert!(run.rows.len() > 3, "the sample has games");
    run.games()
}

/// A FIFO at `path` and the thread that writes `bytes` into it once a
/// reader opens it.
#[cfg(unix)]
fn fed_fifo(path: &Path, bytes: Vec<u8>) -> std::thread::JoinHandle<()> {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.write_all(&bytes).unwrap();
    })
}

/// A FIFO, plain or compressed (found out from its first bytes, as for a
/// file), is read once as a stream: every game, once.
#[cfg(unix)]
#[test]
fn a_fifo_is_read_once_as_a_stream() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let cases = [
        ("games.fifo", sample_text(), "none"),
        ("bz.fifo", bzip2_bytes(&sample_text()), "bzip2"),
    ];
    for (name, bytes, compression) in cases {
        let fifo = tmp.path().join(name);
        let writer = fed_fifo(&fifo, bytes);
        let run = report(tmp.path(), &[&fifo]);
        writer.join().unwrap();
        assert_eq!(run.games(), want, "{name}");
        let input = &run.summary["inputs"][0];
        assert_eq!(input["games"], want.len() as u64);
        assert_eq!(input["compression"], compression);
    }
}

fn bzip2_bytes(text: &[u8]) -> Vec<u8> {
    let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    w.write_all(text).unwrap();
    w.finish().unwrap()
}

fn xz_bytes(text: &[u8]) -> Vec<u8> {
    let mut w = liblzma::write::XzEncoder::new(Vec::new(), 1);
    w.write_all(text).unwrap();
    w.finish().unwrap()
}

/// A zip archive of `members` (name, bytes), deflated.
fn zip_bytes(members: &[(&str, &[u8])]) -> Vec<u8> {
    zip_archive(zip::CompressionMethod::Deflated, members)
}

/// A zip archive of `members` (name, bytes), stored by `method`.
fn zip_archive(method: zip::CompressionMethod, members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, bytes) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn bzip2_and_xz_are_recognised_by_their_first_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    // Names that say nothing: the magic bytes decide.
    let bz = tmp.path().join("games.bz2-but-named-oddly");
    std::fs::write(&bz, bzip2_bytes(&sample_text())).unwrap();
    let xz = tmp.path().join("games.pgn.xz");
    std::fs::write(&xz, xz_bytes(&sample_text())).unwrap();
    let run = report(tmp.path(), &[&bz, &xz]);
    let mut twice = want.clone();
    twice.extend(want.iter().cloned());
    assert_eq!(run.games(), twice);
    assert_eq!(run.summary["inputs"][0]["compression"], "bzip2");
    assert_eq!(run.summary["inputs"][1]["compression"], "xz");
    assert_eq!(run.summary["inputs"][1]["games"], want.len() as u64);
}

/// An empty member of a zip archive is an empty file, as the archive's
/// directory says (size 0): no rows and no warning, as for an empty
/// `.pgn`, where compressed data that decodes to nothing is a warning.
#[test]
fn an_empty_zip_member_reads_as_an_empty_file() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let zip = tmp.path().join("games.zip");
    std::fs::write(
        &zip,
        zip_bytes(&[("empty.pgn", b""), ("games.pgn", &sample_text())]),
    )
    .unwrap();
    let empty = tmp.path().join("empty.pgn");
    std::fs::write(&empty, b"").unwrap();
    let run = report(tmp.path(), &[&zip, &empty]);
    assert_eq!(run.games(), want);
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 3);
    for input in inputs {
        assert_eq!(input["warnings"], serde_json::json!([]), "{input}");
    }
    assert_eq!(inputs[0]["games"], 0);
    assert!(!run.stderr.contains("no text"), "{}", run.stderr);
}

/// A zip archive after other bytes (a self-extractor's program, a
/// script with the archive appended, as `unzip` reads it with a warning of
/// "extra bytes at beginning") is found by its directory at the end: its
/// members' games are the plain text's, and the bytes before it are named.
#[test]
fn a_zip_archive_after_other_bytes_is_read_as_a_zip() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let stub = b"#!/bin/sh\nexec unzip \"$0\"\n";
    let mut bytes = stub.to_vec();
    bytes.extend_from_slice(&zip_bytes(&[("games.pgn", &sample_text())]));
    let zip = tmp.path().join("games.zip");
    std::fs::write(&zip, bytes).unwrap();
    let run = report(tmp.path(), &[&zip]);
    assert_eq!(run.games(), want);
    let member = format!("{}:games.pgn", zip.display());
    assert!(run.column("source").iter().all(|s| *s == member));
    let note = format!(
        "{}: a zip archive after {} bytes of something else, which are passed over",
        zip.display(),
        stub.len()
    );
    assert!(run.stderr.contains(&note), "{}", run.stderr);
}

#[test]
fn a_zip_archive_gives_each_pgn_member_in_archive_order() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let text = sample_text();
    let zip = tmp.path().join("twic.zip");
    std::fs::write(
        &zip,
        zip_bytes(&[
            ("b-first.pgn", &text),
            ("readme.txt", b"not games"),
            ("sub/A-second.PGN", &text),
        ]),
    )
    .unwrap();
    let run = report(tmp.path(), &[&zip]);
    let sources = run.column("source");
    let n = want.len();
    assert_eq!(sources.len(), 2 * n);
    let first = format!("{}:b-first.pgn", zip.display());
    let second = format!("{}:sub/A-second.PGN", zip.display());
    assert!(sources[..n].iter().all(|s| *s == first), "{:?}", sources[0]);
    assert!(
        sources[n..].iter().all(|s| *s == second),
        "{:?}",
        sources[n]
    );
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["path"], first.as_str());
    assert_eq!(inputs[1]["games"], n as u64);
    let skipped = format!("{}:readme.txt", zip.display());
    assert_eq!(
        run.summary["skipped"]["archive_members"],
        serde_json::json!([skipped])
    );
    assert!(
        run.stderr
            .contains(&format!("{skipped}: not a .pgn member, skipped")),
        "{}",
        run.stderr
    );
    // An archive with no .pgn member at all is an input not read, named
    // in summary.json like a binary file, and fails --strict.
    let notes = tmp.path().join("notes.zip");
    std::fs::write(&notes, zip_bytes(&[("readme.txt", b"not games")])).unwrap();
    let strict = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnmill"))
        .current_dir(tmp.path())
        .args(["report", "-q", "--strict", "-o", "strict"])
        .arg(&notes)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("strict/summary.json")).unwrap())
            .unwrap();
    let input = &summary["inputs"][0];
    assert_eq!(input["path"], notes.display().to_string().as_str());
    assert_eq!(input["warnings"][0]["kind"], "unsupported");
    assert!(
        input["unsupported"]
            .as_str()
            .unwrap()
            .contains("zip archive holding no .pgn member"),
        "{input}"
    );
}

#[test]
fn an_encrypted_zip_member_is_named_and_passed_over_not_the_end_of_the_run() {
    use zip::unstable::write::FileOptionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let text = sample_text();
    // `zip -P secret`: ZipCrypto, which the reader cannot open without the
    // password; beside it a member stored in the clear.
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let clear = zip::write::SimpleFileOptions::default();
    let locked = clear.with_deprecated_encryption(b"secret").unwrap();
    w.start_file("locked.pgn", locked).unwrap();
    w.write_all(&text).unwrap();
    w.start_file("clear.pgn", clear).unwrap();
    w.write_all(&text).unwrap();
    let archive = tmp.path().join("mixed.zip");
    std::fs::write(&archive, w.finish().unwrap().into_inner()).unwrap();
    let run = report(tmp.path(), &[&archive]);
    assert_eq!(run.games(), want, "the clear member's games, once");
    let inputs = run.summary["inputs"].as_array().unwrap();
    let locked = format!("{}:locked.pgn", archive.display());
    assert_eq!(inputs[0]["path"], locked.as_str());
    assert_eq!(inputs[0]["games"], 0);
    assert_eq!(inputs[0]["warnings"][0]["kind"], "unsupported");
    assert!(
        inputs[0]["unsupported"]
            .as_str()
            .unwrap()
            .contains("password required"),
        "{}",
        inputs[0]
    );
    assert!(run.stderr.contains(&locked), "{}", run.stderr);
    assert_eq!(inputs[1]["games"], want.len() as u64);
    // An input not read: --strict fails, and the report is written.
    let strict = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnmill"))
        .current_dir(tmp.path())
        .args(["report", "-q", "--strict", "-o", "strict"])
        .arg(&archive)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    assert!(tmp.path().join("strict/games.csv").is_file());
}

#[test]
fn a_folder_search_picks_compressed_and_zip_files_and_passes_over_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let text = sample_text();
    let d = tmp.path().join("games");
    std::fs::create_dir_all(d.join(".git")).unwrap();
    std::fs::create_dir_all(d.join("old-report")).unwrap();
    std::fs::write(d.join("a.pgn.bz2"), bzip2_bytes(&text)).unwrap();
    std::fs::write(d.join("b.pgn.xz"), xz_bytes(&text)).unwrap();
    std::fs::write(d.join("c.zip"), zip_bytes(&[("c.pgn", &text)])).unwrap();
    std::fs::write(d.join("d.pgn"), &text).unwrap();
    // Passed over: hidden files and folders, partial files, a report
    // folder's report files.
    std::fs::write(d.join(".git/x.pgn"), &text).unwrap();
    std::fs::write(d.join("._d.pgn"), b"\x00\x05\x16\x07AppleDouble").unwrap();
    std::fs::write(d.join(".games.csv.partial"), b"x").unwrap();
    std::fs::write(d.join("extract.pgn.partial"), &text).unwrap();
    std::fs::write(d.join("old-report/games.csv"), b"source,game\n").unwrap();
    std::fs::write(
        d.join("old-report/summary.json"),
        br#"{"pgnmill_version": "0.1.0", "inputs": []}"#,
    )
    .unwrap();
    // Other extensions: counted and named in one note.
    std::fs::write(d.join("notes.txt"), b"hello").unwrap();
    std::fs::write(d.join("photo.jpg"), b"\xff\xd8\xff").unwrap();
    let run = report(tmp.path(), &[&d]);
    let inputs: Vec<String> = run.summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap().to_string())
        .collect();
    let name = |s: &str| d.join(s).display().to_string();
    assert_eq!(
        inputs,
        [
            name("a.pgn.bz2"),
            name("b.pgn.xz"),
            format!("{}:c.pgn", name("c.zip")),
            name("d.pgn")
        ]
    );
    assert_eq!(run.rows.len(), 4 * want.len());
    let skipped = &run.summary["skipped"];
    assert_eq!(skipped["other_extensions"], 2);
    assert_eq!(skipped["hidden"], 4, "{skipped}");
    assert_eq!(
        skipped["report_folders"],
        serde_json::json!([name("old-report")])
    );
    assert_said(
        &run,
        &format!("{}: passed over 2 file(s) that are not", d.display()),
    );
}

/// A report folder found by a search (written there from other inputs):
/// its report files and extracts are passed over, with a note that names
/// it as pgnmill's own output, and a game file of the user's beside them
/// is read (a report written into a folder of games does not hide them);
/// a report written inside the folder it reads is refused (tests/cli/
/// collisions.rs).
#[test]
fn a_report_folder_inside_an_input_folder_is_not_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("games");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("a.pgn"), sample_text()).unwrap();
    let elsewhere = tmp.path().join("b.pgn");
    std::fs::write(&elsewhere, sample_text()).unwrap();
    let rep = d.join("rep");
    Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["report", "-q", "-o"])
        .arg(&rep)
        .arg("--extract")
        .arg(format!("errors={}", rep.join("errors.pgn").display()))
        .arg(&elsewhere)
        .assert()
        .success();
    assert!(rep.join("games.csv").is_file() && rep.join("errors.pgn").is_file());
    std::fs::write(rep.join("mine.pgn"), sample_text()).unwrap();
    let run = report(tmp.path(), &[&d]);
    let inputs: Vec<&str> = run.summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    let mine = rep.join("mine.pgn").display().to_string();
    assert_eq!(inputs, [d.join("a.pgn").display().to_string(), mine]);
    assert_eq!(run.summary["skipped"]["other_extensions"], 0);
    assert_eq!(
        run.summary["skipped"]["report_folders"],
        serde_json::json!([rep.display().to_string()])
    );
    assert_said(
        &run,
        &format!(
            "{}: a pgnmill report folder (it holds pgnmill's summary.json): its report files are pgnmill's own output, passed over",
            rep.display()
        ),
    );
    Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["report", "-q", "--force", "-o"])
        .arg(&rep)
        .arg(&d)
        .assert()
        .code(2);
}

/// Files of other extensions are named: the first three on the terminal
/// with a count of the rest, every one in summary.json.
#[test]
fn files_passed_over_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("games");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("a.pgn"), sample_text()).unwrap();
    let others = ["e.doc", "b.txt", "sub/c.md", "d.PGN.old", "a.json"];
    for name in others {
        std::fs::write(d.join(name), b"not games").unwrap();
    }
    let run = report(tmp.path(), &[&d]);
    let mut want: Vec<String> = others
        .iter()
        .map(|n| d.join(n).display().to_string())
        .collect();
    want.sort();
    let skipped = &run.summary["skipped"];
    assert_eq!(skipped["other_extensions"], 5);
    assert_eq!(skipped["other_extension_files"], serde_json::json!(want));
    let note = format!(
        "{}: passed over 5 file(s) that are not .pgn, .pgn.zst, .pgn.zstd, .pgn.gz, .pgn.bz2, .pgn.xz, .zip, .7z, .xqf, .cbr, .cbl, .cbf, .ubb: {}, {}, {} and 2 more",
        d.display(),
        want[0],
        want[1],
        want[2]
    );
    assert!(run.stderr.contains(&note), "{}", run.stderr);
    // One or two are all named.
    std::fs::remove_dir_all(d.join("sub")).unwrap();
    for name in ["e.doc", "d.PGN.old", "a.json"] {
        std::fs::remove_file(d.join(name)).unwrap();
    }
    let run = report(tmp.path(), &[&d]);
    assert!(
        run.stderr
            .contains(&format!(".ubb: {}\n", d.join("b.txt").display())),
        "{}",
        run.stderr
    );
}

/// A symbolic link to a folder, found by a search, is not followed (as
/// find, fd and ripgrep do not follow one by default: a link back up would
/// never end), and not passed over silently either: a warning names it and
/// summary.json lists it in `skipped.folder_links`. Named on the command
/// line, the folder is read. It does not fail a --strict run: nothing in
/// it is damaged.
#[cfg(unix)]
#[test]
fn a_link_to_a_folder_is_named_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("games");
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(d.join("a.pgn"), sample_text()).unwrap();
    std::fs::write(elsewhere.join("b.pgn"), sample_text()).unwrap();
    std::os::unix::fs::symlink(&elsewhere, d.join("more")).unwrap();
    std::os::unix::fs::symlink("..", d.join("up")).unwrap();
    let want = plain_rows(tmp.path());
    let run = report(tmp.path(), &[&d]);
    assert_eq!(run.games(), want, "a.pgn's games only");
    assert_eq!(
        run.summary["skipped"]["folder_links"],
        serde_json::json!([
            format!("{} -> {}", d.join("more").display(), elsewhere.display()),
            format!("{} -> ..", d.join("up").display()),
        ])
    );
    assert_said(
        &run,
        &format!(
            "pgnmill: warning: {}: a symbolic link to the folder {}, not followed (name it to read it); passed over",
            d.join("more").display(),
            elsewhere.display()
        ),
    );
    let named = report(tmp.path(), &[&d, &d.join("more")]);
    assert_eq!(named.games().len(), 2 * want.len());
    let strict = Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["report", "-q", "--strict", "-o"])
        .arg(tmp.path().join("strict"))
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(0));
}

/// A symbolic link that leads nowhere (to a file that is gone, or around a
/// loop) is a warning naming the link and its target, counted in
/// summary.json `skipped.dangling_links`; `--strict` exits 1 for it, for
/// report, convert and fen alike, and the output is still written.
#[cfg(unix)]
#[test]
fn dangling_links_are_warnings_and_fail_strict_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("games");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("a.pgn"), sample_text()).unwrap();
    std::os::unix::fs::symlink("moved-away.pgn", d.join("gone.pgn")).unwrap();
    std::os::unix::fs::symlink("loop.txt", d.join("loop.txt")).unwrap();
    // A link that leads somewhere is read as before.
    std::os::unix::fs::symlink("a.pgn", d.join("same.pgn")).unwrap();
    let run = report(tmp.path(), &[&d]);
    assert_eq!(
        run.summary["skipped"]["dangling_links"],
        serde_json::json!([
            format!("{} -> moved-away.pgn", d.join("gone.pgn").display()),
            format!("{} -> loop.txt", d.join("loop.txt").display()),
        ])
    );
    assert_said(
        &run,
        &format!(
            "pgnmill: warning: {}: a symbolic link to moved-away.pgn, which does not exist; passed over",
            d.join("gone.pgn").display()
        ),
    );
    assert_said(
        &run,
        &format!(
            "{}: a symbolic link to loop.txt, which cannot be followed",
            d.join("loop.txt").display()
        ),
    );
    assert_eq!(run.summary["inputs"].as_array().unwrap().len(), 1);
    // --strict: exit 1, with the report (and the other outputs) written.
    let out = tmp.path().join("strict");
    let got = Command::cargo_bin("pgnmill")
        .unwrap()
        .args(["report", "-q", "--strict", "-o"])
        .arg(&out)
        .arg(&d)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&got.stderr);
    assert_eq!(got.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--strict: 2 symbolic link(s) lead nowhere"),
        "{err}"
    );
    assert!(out.join("summary.json").exists());
    let pgn_dir = tmp.path().join("pgn-only");
    std::fs::create_dir_all(&pgn_dir).unwrap();
    std::fs::copy(
        root().join("testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn"),
        pgn_dir.join("x.pgn"),
    )
    .unwrap();
    std::os::unix::fs::symlink("nowhere.pgn", pgn_dir.join("y.pgn")).unwrap();
    let fen_dir = tmp.path().join("fen-only");
    std::fs::create_dir_all(&fen_dir).unwrap();
    std::fs::copy(root().join("testdata/fen/mixed.epd"), fen_dir.join("m.epd")).unwrap();
    std::os::unix::fs::symlink("nowhere.epd", fen_dir.join("n.epd")).unwrap();
    for (cmd, dir) in [
        (&["convert", "-q", "--to", "wxf"][..], &pgn_dir),
        (&["fen", "-q"][..], &fen_dir),
    ] {
        for strict in [false, true] {
            let got = Command::cargo_bin("pgnmill")
                .unwrap()
                .args(cmd)
                .args(strict.then_some("--strict"))
                .arg(dir)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&got.stderr);
            assert_eq!(got.status.code(), Some(i32::from(strict)), "{cmd:?}: {err}");
            assert!(
                err.contains("a symbolic link to nowhere."),
                "{cmd:?}: {err}"
            );
            assert!(got.stdout.len() > 1000, "{cmd:?}: the output is written");
        }
    }
}

#[test]
fn the_same_file_named_twice_is_read_once_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let d = tmp.path().join("games");
    std::fs::create_dir_all(&d).unwrap();
    let a = d.join("a.pgn");
    std::fs::write(&a, sample_text()).unwrap();
    let other_path = tmp.path().join("games/../games/a.pgn");
    #[cfg(unix)]
    let link = {
        let l = tmp.path().join("link.pgn");
        std::os::unix::fs::symlink(&a, &l).unwrap();
        l
    };
    #[cfg(not(unix))]
    let link = a.clone();
    let run = report(tmp.path(), &[&a, &d, &other_path, &link]);
    assert_eq!(run.games(), want, "read once");
    let dups = run.summary["skipped"]["duplicates"].as_array().unwrap();
    assert_eq!(dups.len(), 3, "{dups:?}");
    assert_said(
        &run,
        &format!(
            "warning: {}: the same file as {}, read once",
            link.display(),
            a.display()
        ),
    );
}

/// Standard input named twice is one input: a second read would find it
/// at its end and add an input of no games that names nothing wrong.
#[test]
fn standard_input_named_twice_is_read_once_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let out = tmp.path().join("report-out");
    let got = Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(["report", "-q", "-j", "2", "-o"])
        .arg(&out)
        .args(["-", "-"])
        .write_stdin(sample_text())
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&got.get_output().stderr).into_owned();
    assert!(
        stderr.contains("warning: -: standard input named again, read once"),
        "{stderr}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let inputs: Vec<&str> = summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(inputs, ["-"]);
    assert_eq!(summary["skipped"]["duplicates"], serde_json::json!(["-"]));
    let mut rd = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let header = rd.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let games: Vec<String> = rd
        .records()
        .map(|r| {
            let r = r.unwrap();
            ["white", "black", "plies", "status", "final_fen"]
                .iter()
                .map(|c| r[at(c)].to_string())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    assert_eq!(games, want);
}

/// `text` as UTF-16, little- or big-endian, with or without a BOM.
fn utf16(text: &[u8], big: bool, bom: bool) -> Vec<u8> {
    let s = String::from_utf8_lossy(text);
    let mut out = Vec::new();
    let units = bom.then_some(0xfeffu16).into_iter().chain(s.encode_utf16());
    for u in units {
        out.extend(if big {
            u.to_be_bytes()
        } else {
            u.to_le_bytes()
        });
    }
    out
}

#[test]
fn utf16_text_is_decoded_with_or_without_a_bom() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let cases = [
        ("le-bom.pgn", false, true, "UTF-16LE"),
        ("be-bom.pgn", true, true, "UTF-16BE"),
        ("le.pgn", false, false, "UTF-16LE"),
        ("be.pgn", true, false, "UTF-16BE"),
    ];
    for (name, big, bom, encoding) in cases {
        let p = tmp.path().join(name);
        std::fs::write(&p, utf16(&sample_text(), big, bom)).unwrap();
        let run = report(tmp.path(), &[&p]);
        assert_eq!(run.games(), want, "{name}");
        assert_eq!(run.summary["inputs"][0]["encoding"], encoding, "{name}");
        std::fs::remove_file(&p).unwrap();
    }
}

#[test]
fn binary_files_are_named_and_give_no_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    // XQF files are read as games now; one cut short in its header has
    // none, and is a damaged input that says why (below).
    let xqf = tmp.path().join("SAMPLE.XQF");
    let mut cut = std::fs::read(root().join("testdata/binary/SAMPLE.XQF")).unwrap();
    cut.truncate(600);
    std::fs::write(&xqf, &cut).unwrap();
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend(std::iter::repeat_n(0u8, 200));
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    png.extend(std::iter::repeat_n(7u8, 100));
    let mut bridge = b"CCBridge".to_vec();
    bridge.extend([0u8, 1, 2, 3]);
    let files = [
        ("prog.pgn", elf, "ELF executable, not PGN"),
        ("image.pgn", png, "PNG image, not PGN"),
        (
            "game.ccb",
            bridge,
            "CCBridge file of an unknown kind, not read",
        ),
        (
            "doc.pgn",
            b"%PDF-1.4\n...".to_vec(),
            "PDF document, not PGN",
        ),
        (
            "nul.pgn",
            b"[Event \"x\"]\x00\x00\x01\x02".to_vec(),
            "binary data, not PGN",
        ),
    ];
    let mut args = Vec::new();
    for (name, bytes, _) in &files {
        let p = tmp.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        args.push(p);
    }
    args.push(xqf.clone());
    // A gzip'd record file is found out after decompression.
    let gz = tmp.path().join("zipped.XQF.gz");
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    w.write_all(&std::fs::read(&xqf).unwrap()).unwrap();
    std::fs::write(&gz, w.finish().unwrap()).unwrap();
    args.push(gz.clone());
    let good = tmp.path().join("good.pgn");
    std::fs::write(&good, sample_text()).unwrap();
    args.push(good);
    let refs: Vec<&Path> = args.iter().map(PathBuf::as_path).collect();
    let run = report(tmp.path(), &refs);
    assert_eq!(run.games(), want, "only the PGN file gives rows");
    let inputs = run.summary["inputs"].as_array().unwrap();
    for (i, (name, _, why)) in files.iter().enumerate() {
        assert_eq!(inputs[i]["unsupported"], *why, "{name}");
        // docs/reports.md: a binary file is `not_pgn`, a format recognised
        // and not read `unsupported`.
        let kind = if why.contains("not PGN") {
            "not_pgn"
        } else {
            "unsupported"
        };
        assert_eq!(inputs[i]["warnings"][0]["kind"], kind, "{name}");
        assert_eq!(inputs[i]["games"], 0, "{name}");
        let line = format!("{}: {why}", tmp.path().join(name).display());
        assert_eq!(
            run.stderr.matches(&line).count(),
            1,
            "one line for {name}: {}",
            run.stderr
        );
    }
    for (at, path) in [(files.len(), &xqf), (files.len() + 1, &gz)] {
        let input = &inputs[at];
        assert!(input["unsupported"].is_null(), "{input}");
        assert_eq!(input["complete"], false, "{input}");
        assert_eq!(input["games"], 0, "{input}");
        assert_eq!(input["warnings"][0]["kind"], "damaged", "{input}");
        let message = format!(
            "{}: XQF header cut short: 600 bytes, 1024 needed: no game of it could be read",
            path.display()
        );
        assert_eq!(input["warnings"][0]["message"], message.as_str());
    }
    assert_eq!(inputs[files.len() + 1]["compression"], "gzip");
    assert!(inputs[files.len() + 2]["unsupported"].is_null());
}

#[test]
fn no_control_byte_reaches_a_csv_field() {
    let tmp = tempfile::tempdir().unwrap();
    // Control bytes in tags and movetext, after the first 4 KiB (where the
    // file is not yet taken for binary).
    let mut text = sample_text();
    text.extend_from_slice(
        b"\n[Event \"nul\x00in\x01tag\"]\n[White \"esc\x1bhere\x7f\"]\n[Black \"tab\there\"]\n\n1. e4 e5 \x00 2. Nf3 *\n",
    );
    let p = tmp.path().join("ctl.pgn");
    std::fs::write(&p, &text).unwrap();
    let run = report(tmp.path(), &[&p]);
    let bad: Vec<u8> = run
        .games_csv
        .iter()
        .copied()
        .filter(|&b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f)
        .collect();
    assert!(bad.is_empty(), "control bytes in games.csv: {bad:?}");
    // No line end inside a field: one line a row.
    let lines = run.games_csv.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, run.rows.len() + 1);
    let last = run.rows.last().unwrap();
    let event = run.header.iter().position(|h| h == "event").unwrap();
    let white = run.header.iter().position(|h| h == "white").unwrap();
    let black = run.header.iter().position(|h| h == "black").unwrap();
    assert_eq!(&last[event], "nul\u{FFFD}in\u{FFFD}tag");
    assert_eq!(&last[white], "esc\u{FFFD}here\u{FFFD}");
    assert_eq!(&last[black], "tab\there");
}

/// A zip archive of `members` (name, bytes), stored without compression,
/// so that a byte of a member's text can be found in the archive.
fn stored_zip_bytes(members: &[(&str, &[u8])]) -> Vec<u8> {
    zip_archive(zip::CompressionMethod::Stored, members)
}

/// Runs `pgnmill report --strict` on `input`: it must write the report and
/// exit 1, naming `--strict`.
fn strict_fails(dir: &Path, input: &Path) {
    let out = dir.join("strict-out");
    Command::cargo_bin("pgnmill")
        .expect("binary")
        .current_dir(dir)
        .args(["report", "-q", "--strict", "--force", "-o"])
        .arg(&out)
        .arg(input)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(1)
        .stderr(predicates::str::contains("--strict"));
    assert!(out.join("games.csv").is_file(), "the report is written");
    std::fs::remove_dir_all(&out).unwrap();
}

/// A zip archive cut short (a download that broke off) has no central
/// directory: it is not a reason to stop the run; its members are read in
/// order as one input, as far as the bytes go, and the input is incomplete.
#[test]
fn a_truncated_zip_is_read_as_far_as_it_goes_and_marked_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let n = want.len();
    let text = sample_text();
    let whole = zip_bytes(&[("one.pgn", &text), ("two.pgn", &text)]);
    // Three quarters: all of the first member, part of the second, no
    // central directory.
    let zip = tmp.path().join("cut.zip");
    std::fs::write(&zip, &whole[..whole.len() * 3 / 4]).unwrap();
    let run = report(tmp.path(), &[&zip]);
    let got = run.games();
    assert!(got.len() > n && got.len() < 2 * n, "{} rows", got.len());
    assert_eq!(got[..n], want[..], "the first member, complete");
    assert_eq!(
        got[n..],
        want[..got.len() - n],
        "the second, its first games"
    );
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0]["path"], zip.display().to_string().as_str());
    assert_eq!(inputs[0]["complete"], false);
    assert_eq!(run.summary["complete"], false);
    let error = inputs[0]["error"].as_str().unwrap();
    assert!(error.contains("are missing"), "{error}");
    assert!(
        run.stderr
            .contains("the archive's index at its end cannot be read (invalid Zip archive: Could not find EOCD): a zip archive cut short or damaged"),
        "{}",
        run.stderr
    );
    assert!(
        run.column("source")
            .iter()
            .all(|s| *s == zip.display().to_string())
    );
    strict_fails(tmp.path(), &zip);

    // Cut inside the first member's header: no game, still one input.
    let stub = tmp.path().join("stub.zip");
    std::fs::write(&stub, &whole[..20]).unwrap();
    let run = report(tmp.path(), &[&stub]);
    assert!(run.rows.is_empty());
    assert_eq!(run.summary["inputs"][0]["complete"], false);
    assert_eq!(run.summary["inputs"][0]["games"], 0);
}

/// A member whose data is damaged (a changed byte: bad CRC; deflate data
/// that cannot be decoded, from its first byte) gives rows of status
/// `damaged_input` for the text it decodes to, and is marked incomplete;
/// the other members are read as usual.
#[test]
fn a_damaged_zip_member_is_incomplete_and_the_others_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    let want = plain_rows(tmp.path());
    let n = want.len();
    let text = sample_text();

    // Stored: change a byte of the second member's last game; its CRC
    // fails at the member's end, so none of its text is vouched for.
    let mut bytes = stored_zip_bytes(&[("one.pgn", &text), ("two.pgn", &text)]);
    let last_event = bytes
        .windows(7)
        .rposition(|w| w == b"[Event ")
        .expect("the last game");
    bytes[last_event + 1] = b'e';
    let crc = tmp.path().join("crc.zip");
    std::fs::write(&crc, &bytes).unwrap();
    let run = report(tmp.path(), &[&crc]);
    let got = run.games();
    assert_eq!(got[..n], want[..]);
    let status = run.column("status");
    assert_eq!(
        status.len(),
        2 * n,
        "every game of the damaged member is a row"
    );
    assert!(
        status[n..].iter().all(|s| s == "damaged_input"),
        "{status:?}"
    );
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs[0]["complete"], true);
    assert_eq!(inputs[1]["complete"], false);
    let error = inputs[1]["error"].as_str().unwrap();
    assert!(error.contains("CRC-32"), "{error}");
    strict_fails(tmp.path(), &crc);

    // Deflated: the second member's compressed data overwritten from its
    // start, so its first read fails (this stopped the run before).
    let mut bytes = zip_bytes(&[("one.pgn", &text), ("two.pgn", &text)]);
    let header = bytes
        .windows(4)
        .enumerate()
        .skip(1)
        .find(|(_, w)| *w == b"PK\x03\x04")
        .map(|(i, _)| i)
        .expect("the second local header");
    // Local header: 30 bytes, the name, then an extra field of the length
    // at offset 28.
    let extra = u16::from_le_bytes([bytes[header + 28], bytes[header + 29]]) as usize;
    let data = header + 30 + "two.pgn".len() + extra;
    bytes[data..data + 16].fill(0xff);
    let bad = tmp.path().join("bad.zip");
    std::fs::write(&bad, &bytes).unwrap();
    let run = report(tmp.path(), &[&bad]);
    assert_eq!(run.games(), want, "the first member only");
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[1]["games"], 0);
    assert_eq!(inputs[1]["complete"], false);
    assert!(inputs[1]["error"].as_str().unwrap().contains("deflate"));
    assert_eq!(inputs[1]["warnings"].as_array().unwrap().len(), 1);
}

/// Runs `pgnmill ARGS` in a pseudo-terminal `cols` columns wide (made by
/// util-linux `script`, as a user's terminal), in `dir`; returns what the
/// terminal received, or `None` when `script` is missing.
#[cfg(unix)]
fn in_a_terminal(dir: &Path, cols: u16, args: &str) -> Option<String> {
    let exe = assert_cmd::cargo::cargo_bin("pgnmill");
    let out = std::process::Command::new("script")
        .args([
            "-qefc",
            &format!("stty cols {cols} rows 24; exec \"$PGNMILL\" {args}"),
            "/dev/null",
        ])
        .current_dir(dir)
        .env("PGNMILL", &exe)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success());
    if out.is_none() {
        eprintln!("skipped: util-linux `script` is not available");
    }
    out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The redraws of the progress bar in what a terminal received: escape
/// sequences dropped, one entry per line or carriage return, the closing
/// lines (`N games (M with errors)`, `... games/s ...`) left out.
fn progress_lines(screen: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut chars = screen.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ parameters, then one final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
        .split(['\r', '\n'])
        .map(str::trim_end)
        .filter(|l| l.contains(" games") && !l.contains("games (") && !l.contains("games/s,"))
        .map(String::from)
        .collect()
}

/// A decimal size as the progress line writes it (`812 B`, `8.39 MB`), in
/// bytes.
fn size_of(number: &str, unit: &str) -> f64 {
    let n: f64 = number.parse().unwrap_or_else(|_| panic!("{number}"));
    let scale = match unit {
        "B" => 1.0,
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        other => panic!("unit {other}"),
    };
    n * scale
}

/// On a 40-column terminal every redraw of the progress bar fits and
/// reads `P% RATE/s N games [ETA T]`; its rate is one kind from start to
/// end, of decompressed text, for `.gz` and `.bz2` as for plain text. On
/// standard input (no total) it shows the text bytes read, which pass the
/// compressed size: they are decompressed bytes.
#[cfg(unix)]
#[test]
fn the_progress_bar_fits_40_columns_and_counts_text() {
    let tmp = tempfile::tempdir().unwrap();
    let one = std::fs::read(root().join("testdata/corpus/pgn2tex-london1851.pgn")).unwrap();
    let text: Vec<u8> = one.repeat(12_000_000 / one.len());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let inputs = [
        ("games.pgn.gz", gz.finish().unwrap()),
        ("games.pgn.bz2", bzip2_bytes(&text)),
        ("games.pgn", text.clone()),
    ];
    for (name, bytes) in &inputs {
        std::fs::write(tmp.path().join(name), bytes).unwrap();
        let Some(screen) = in_a_terminal(tmp.path(), 40, &format!("report --force -o r {name}"))
        else {
            return;
        };
        let lines = progress_lines(&screen);
        assert!(!lines.is_empty(), "{name}: no progress drawn: {screen:?}");
        for l in &lines {
            assert!(
                l.chars().count() <= 40,
                "{name}: {} columns: {l:?}",
                l.chars().count()
            );
            let w: Vec<&str> = l.split(' ').collect();
            assert!(w[0].ends_with('%'), "{name}: {l:?}");
            assert!(w[2].ends_with("B/s") && w[4] == "games", "{name}: {l:?}");
            size_of(w[1], w[2].trim_end_matches("/s"));
        }
        let Some(screen) =
            in_a_terminal(tmp.path(), 40, &format!("report --force -o r - < {name}"))
        else {
            return;
        };
        let lines = progress_lines(&screen);
        assert!(!lines.is_empty(), "{name} on stdin: no progress drawn");
        let mut most: f64 = 0.0;
        for l in &lines {
            assert!(l.chars().count() <= 40, "{name}: {l:?}");
            let w: Vec<&str> = l.split(' ').collect();
            assert!(
                w[3].ends_with("B/s") && w[5] == "games",
                "{name} on stdin: {l:?}"
            );
            most = most.max(size_of(w[0], w[1]));
        }
        assert!(
            most > bytes.len() as f64 || name.ends_with(".pgn"),
            "{name}: the line counts {most} bytes, the compressed input has {}",
            bytes.len()
        );
        // Two decimals: 11.88 MB for 11,880,108 bytes.
        assert!(most <= text.len() as f64 * 1.001, "{name}: {most}");
    }
}
