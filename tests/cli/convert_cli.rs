//! `pgnmill convert`'s driver through the binary: what it does with inputs
//! it cannot read whole, as `report` does (read as far as they go, warn, go
//! on; `--strict` exits 1), files it cannot read at all (never copied
//! through), and `-o -`. The conversions themselves are tested in
//! tests/xiangqi/xiangqi_convert.rs.

use assert_cmd::Command;
use std::io::Write;
use std::path::{Path, PathBuf};

fn xiangqi() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn")
}

/// Games of the xiangqi sample: its `[Event ` lines.
fn events(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("[Event ")).count()
}

/// Runs `pgnmill convert ARGS` in `dir`: exit code, stdout, stderr.
fn convert(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("pgnmill")
        .unwrap()
        .current_dir(dir)
        .arg("convert")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A QQ xiangqi `.che` record as eleeye's che2pgn reads it: integers
/// separated by single non-digits (a header, the move count, ten numbers
/// per move).
const CHE: &str = "1 2 0 0 0 9 1 7 2 0 0 0 1 0 0 0 7 7 7 4 0 0 0 ";

/// A file that holds no game pgnmill can read (a `.che` record, notes,
/// numbers) is refused whole and never copied through; a file with text
/// before its first game is not. Exit 0, `--strict` 1.
#[test]
fn a_file_without_a_game_is_refused_not_copied_through() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(d.join("game.che"), CHE).unwrap();
    std::fs::write(
        d.join("notes.pgn"),
        "Games to look at later:\nthe one from Tuesday\n",
    )
    .unwrap();
    std::fs::copy(xiangqi(), d.join("x.pgn")).unwrap();
    let whole = std::fs::read_to_string(xiangqi()).unwrap();
    let games = events(&whole);
    assert_eq!(games, 15);
    std::fs::write(
        d.join("preamble.pgn"),
        format!("Collected by hand.\n\n{whole}"),
    )
    .unwrap();
    for (name, first_words) in [
        ("game.che", "1 2 0 0 0 9"),
        ("notes.pgn", "Games to look at"),
    ] {
        let (code, out, err) = convert(d, &["--to", "wxf", name]);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert_eq!(out, "", "{name}: nothing of it is written");
        assert!(
            err.contains(&format!(
                "pgnmill: warning: {name}: holds no game pgnmill can read"
            )),
            "{name}: {err}"
        );
        assert!(!err.contains("copied unchanged"), "{name}: {err}");
        let (code, out, err) = convert(d, &["-q", "--to", "wxf", name, "x.pgn"]);
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(!out.contains(first_words), "{name}");
        assert_eq!(events(&out), games);
        assert!(out.starts_with("[Event "), "{name}: {}", &out[..40]);
        let (code, out, err) = convert(d, &["-q", "--strict", "--to", "wxf", name, "x.pgn"]);
        assert_eq!(code, Some(1), "{name}: {err}");
        assert!(
            err.contains("--strict: 1 input(s) were not read at all"),
            "{err}"
        );
        assert_eq!(events(&out), games, "the output is written");
    }
    let (code, out, err) = convert(d, &["-q", "--strict", "--to", "iccs", "preamble.pgn"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("Collected by hand."), "{}", &out[..40]);
    assert_eq!(events(&out), games);
}

/// A damaged input (a `.gz` cut short) is converted as far as it goes, with
/// a warning; the next input is converted whole; exit 0, `--strict` 1 with
/// the output written. A binary input is named and gives nothing.
#[test]
fn a_damaged_input_is_converted_as_far_as_it_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let whole = std::fs::read(xiangqi()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&whole).unwrap();
    let gz = gz.finish().unwrap();
    let cut = &gz[..gz.len() / 2];
    std::fs::write(d.join("cut.pgn.gz"), cut).unwrap();
    // The games the reference decoder gives whole before the break.
    let mut decoded = Vec::new();
    let _ = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(cut), &mut decoded);
    let before_break = events(&String::from_utf8_lossy(&decoded));
    assert!((2..15).contains(&before_break), "{before_break}");
    std::fs::copy(xiangqi(), d.join("x.pgn")).unwrap();
    std::fs::write(d.join("photo.pgn"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let (code, out, err) = convert(
        d,
        &["-q", "--to", "iccs", "cut.pgn.gz", "photo.pgn", "x.pgn"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("pgnmill: warning: cut.pgn.gz: decompressed text stops after byte"),
        "{err}"
    );
    assert!(
        err.contains("pgnmill: warning: photo.pgn: PNG image, not PGN; nothing of it was written"),
        "{err}"
    );
    let got = events(&out);
    assert!(
        got > 15 && got <= 15 + before_break,
        "{got} games: the cut file's complete ones and all of x.pgn"
    );
    let (code, _, err) = convert(
        d,
        &[
            "-q",
            "--strict",
            "--to",
            "iccs",
            "-o",
            "out.pgn",
            "cut.pgn.gz",
            "photo.pgn",
            "x.pgn",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "--strict: 1 input(s) were cut short or damaged, 1 input(s) were not read at all"
        ),
        "{err}"
    );
    let written = std::fs::read_to_string(d.join("out.pgn")).unwrap();
    assert_eq!(events(&written), got);
}

/// `-o -` is standard output, as `-` is standard input: no file named `-`.
#[test]
fn output_dash_is_standard_output() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(xiangqi(), tmp.path().join("x.pgn")).unwrap();
    let (code, out, err) = convert(tmp.path(), &["-q", "--to", "chinese", "-o", "-", "x.pgn"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(events(&out), 15);
    assert_eq!(out.matches("[Format \"Chinese\"]").count(), 15);
    assert!(!tmp.path().join("-").exists());
}
