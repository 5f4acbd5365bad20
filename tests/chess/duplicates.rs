//! `line_key` and duplicate verdicts through the library (replay, then
//! `pgnmill::duplicates`) against python-chess 1.11.2 and the `xxhash`
//! package: testdata/gen/duplicates_expected.py, which writes the cases
//! of testdata/duplicates/cases.pgn (respelled names, truncated copies,
//! colour-swapped engine pairs, aborted games, the same moves from other
//! `[FEN]` starts, Chess960, transpositions, an illegal move) and the
//! expected rows for them and for the real games of
//! `/work/shared/corpora/chess-real`.

use pgnmill::duplicates::{Detector, DuplicateOptions, Entry, HeaderPrints, Tags};
use pgnmill::pgn::split_all;
use pgnmill::replay::line::key_hex;
use pgnmill::replay::{ReplayOptions, ReplayedGame, replay_game};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::support::root;

/// One game's expected row.
struct Expected {
    line_key: String,
    end_key: String,
    dup_of: String,
    dup_kind: String,
    dup_headers: String,
}

fn expected(csv: &Path) -> HashMap<(String, usize), Expected> {
    let mut reader = csv::Reader::from_path(csv).expect("expected CSV");
    reader
        .records()
        .map(|r| {
            let r = r.expect("row");
            let key = (r[0].to_string(), r[1].parse().expect("game number"));
            let row = Expected {
                line_key: r[2].to_string(),
                end_key: r[3].to_string(),
                dup_of: r[4].to_string(),
                dup_kind: r[5].to_string(),
                dup_headers: r[6].to_string(),
            };
            (key, row)
        })
        .collect()
}

/// Replays every game of `files` (named relative to `base`), runs the
/// detector's two passes, and compares every row with `csv`.
fn check(files: &[PathBuf], base: &Path, csv: &Path) {
    let expected = expected(csv);
    let texts: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            let name = f
                .strip_prefix(base)
                .expect("under base")
                .display()
                .to_string();
            (name, std::fs::read(f).expect("input"))
        })
        .collect();
    let mut options = ReplayOptions::default();
    options.curation.duplicates = true;
    let mut games: Vec<(String, usize, ReplayedGame<'_>)> = Vec::new();
    for (name, bytes) in &texts {
        for (i, span) in split_all(bytes, false).iter().enumerate() {
            let start = span.offset as usize;
            let record = replay_game(&bytes[start..start + span.len], span.line, &options);
            games.push((name.clone(), i + 1, record));
        }
    }
    assert_eq!(
        games.len(),
        expected.len(),
        "games read by pgnmill and python-chess"
    );
    let mut detector = Detector::new(DuplicateOptions::default());
    for (_, _, r) in &games {
        let t = &r.tags;
        detector.push(&Entry {
            line_key: r.curation.line.key,
            end_key: r.curation.line.end_key,
            line: r.curation.line.bytes.as_deref(),
            prints: HeaderPrints::of(&Tags {
                white: &t.white,
                black: &t.black,
                event: &t.event,
                site: &t.site,
                date: &t.date,
            }),
        });
    }
    for (i, (_, _, r)) in games.iter().enumerate() {
        if let Some(line) = &r.curation.line.bytes {
            detector.probe(i, line);
        }
    }
    let verdicts = detector.finish();
    let mut wrong = Vec::new();
    for ((name, number, record), verdict) in games.iter().zip(&verdicts) {
        let want = &expected[&(name.clone(), *number)];
        let line = &record.curation.line;
        let got_key = line.key.as_ref().map(key_hex).unwrap_or_default();
        let got_end = line.end_key.as_ref().map(key_hex).unwrap_or_default();
        let (dup_of, kind, headers) = match verdict {
            Some(v) => (
                format!("{}:{}", games[v.dup_of].0, games[v.dup_of].1),
                v.kind.as_str().to_string(),
                v.headers.to_string(),
            ),
            None => Default::default(),
        };
        let got = [&got_key, &got_end, &dup_of, &kind, &headers];
        let want = [
            &want.line_key,
            &want.end_key,
            &want.dup_of,
            &want.dup_kind,
            &want.dup_headers,
        ];
        if got != want {
            wrong.push(format!(
                "{name}:{number} ({:?} {}): got {got:?}, python-chess {want:?}",
                record.status, record.error
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn keys_and_verdicts_of_the_constructed_cases_match_python_chess() {
    let dir = root().join("testdata/duplicates");
    check(
        &[dir.join("cases.pgn")],
        &dir,
        &dir.join("cases-expected.csv"),
    );
}

/// The real games of the shared corpora (not in the repository: run with
/// `--ignored` where `/work/shared/corpora/chess-real` exists), but for
/// chesscom-cancer0707.pgn, which python-chess's `read_game` splits
/// otherwise (the generator's doc says why).
#[test]
#[ignore]
fn keys_and_verdicts_of_the_real_corpus_match_python_chess() {
    let base = Path::new("/work/shared/corpora/chess-real");
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("corpus folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "pgn")
                && !path.ends_with("chesscom-cancer0707.pgn")
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(base, &mut files);
    files.sort();
    check(
        &files,
        base,
        &root().join("testdata/duplicates/chess-real-expected.csv"),
    );
}
