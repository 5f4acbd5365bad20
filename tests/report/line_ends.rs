//! Text whose lines end in `\r\r\n` (a Windows file whose line ends were
//! converted twice: docs/reports.md, "Inputs"): read with each of those
//! as one line end, by name, piped in or compressed, it gives the rows
//! python-chess gives for the games as written (testdata/expected/), at
//! the offsets of the text read, where the lines end in `\r\n`.

use crate::report_vs_python_chess::SAME;
use crate::support;

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

type Row = HashMap<String, String>;

/// Files of the sample corpus: LF and CRLF line ends, comments and
/// variations, odd layouts (no blank line between games, tags and moves
/// on one line, `%` lines), games that stop at an error.
const FILES: [&str; 5] = [
    "testdata/corpus/twic1599-sample.pgn",
    "testdata/corpus/pychess-world-matches.pgn",
    "testdata/corpus/lichess-2025-05-blitz-sample.pgn",
    "testdata/corpus/synthetic-odd-style.pgn",
    "testdata/corpus/synthetic-errors.pgn",
];

/// `text` with every line end written `\r\r\n`.
fn doubled(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() * 11 / 10);
    for line in text.split_inclusive(|&b| b == b'\n') {
        match line.strip_suffix(b"\n") {
            Some(body) => {
                out.extend_from_slice(body.strip_suffix(b"\r").unwrap_or(body));
                out.extend_from_slice(b"\r\r\n");
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

/// python-chess's rows for `source`, in game order.
fn expected(source: &str) -> Vec<Row> {
    support::read_csv(&support::root().join("testdata/expected/games.csv"))
        .into_iter()
        .filter(|r| r["source"] == source)
        .collect()
}

/// The offset of the game that starts on `line` (from 1) at `offset` of
/// `original`, in the same text with its line ends written `\r\n`: one
/// byte more for each `\n` without a `\r` before it.
fn crlf_offset(original: &[u8], offset: usize) -> usize {
    let before = original.get(..offset).expect("offset within the file");
    let bare = before
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' && (i == 0 || before[i - 1] != b'\r'))
        .count();
    offset + bare
}

fn check(what: &str, run: &support::ReportRun, source: &str, original: &[u8]) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
    let rows = run.rows();
    let expected = expected(source);
    assert_eq!(rows.len(), expected.len(), "{what}: games");
    for (got, exp) in rows.iter().zip(&expected) {
        let game = &exp["game"];
        assert_eq!(got["game"], *game, "{what}");
        for col in SAME.iter().chain(&["line", "variant"]) {
            assert_eq!(got[*col], exp[*col], "{what} game {game}: {col}");
        }
        let offset = exp["offset"].parse().expect("offset");
        assert_eq!(
            got["offset"],
            crlf_offset(original, offset).to_string(),
            "{what} game {game}: offset"
        );
    }
    let input = &run.summary()["inputs"][0];
    assert_eq!(input["doubled_line_ends"], true, "{what}");
    assert_eq!(input["complete"], true, "{what}");
}

#[test]
fn doubled_line_ends_give_the_rows_of_the_games_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    for source in FILES {
        let original = std::fs::read(support::root().join(source)).unwrap();
        let name = Path::new(source).file_name().unwrap();
        let file = tmp.path().join(name);
        std::fs::write(&file, doubled(&original)).unwrap();
        let gz = tmp.path().join(format!("{}.gz", name.to_string_lossy()));
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&doubled(&original)).unwrap();
        std::fs::write(&gz, encoder.finish().unwrap()).unwrap();

        let by_name = support::report_run(&[&file], &[]);
        check(&format!("{source} by name"), &by_name, source, &original);
        let one_thread = support::report_run(&[&file], &["-j", "1"]);
        check(&format!("{source} at -j 1"), &one_thread, source, &original);
        let piped = support::report_piped(&file, &[]);
        check(&format!("{source} piped"), &piped, source, &original);
        let compressed = support::report_run(&[&gz], &[]);
        check(&format!("{source}.gz"), &compressed, source, &original);
    }
}

/// Line ends of one kind, `\r\n` included, are read as they are: the
/// summary says nothing was rewritten.
#[test]
fn other_line_ends_are_not_rewritten() {
    for source in [
        "testdata/corpus/pychess-world-matches.pgn",
        "testdata/corpus/twic1599-sample.pgn",
        "testdata/corpus/kokopu-linebreak-mac.pgn",
    ] {
        let run = support::report_run(&[&support::root().join(source)], &[]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(
            run.summary()["inputs"][0]["doubled_line_ends"],
            false,
            "{source}"
        );
        let rows = run.rows();
        let expected = expected(source);
        assert_eq!(rows.len(), expected.len(), "{source}");
        for (got, exp) in rows.iter().zip(&expected) {
            assert_eq!(got["offset"], exp["offset"], "{source}");
        }
    }
}
