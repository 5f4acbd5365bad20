//! `report --clocks --plies` (issue 33) through the binary, against
//! python-chess 1.11.2: every game of the sample corpus (the lichess sample
//! with `[%clk]` and `[%eval]`, chess.com's tenths, both byte for byte the
//! files of /work/shared/corpora/chess-real, and every other file, which
//! must show none) and of the constructed cases
//! (testdata/chess/clocks-cases.pgn), as written by
//! testdata/gen/clocks_expected.py into testdata/expected/clocks-games.csv
//! (the `--clocks` columns and a CRC-32 of each game's per-ply rows) and
//! clocks-cases-plies.csv (the cases' rows in full). `games.csv` gives the
//! clock columns, `plies.csv` the rows, and `plies.parquet` must hold the
//! rows of `plies.csv`, typed. The library's own checks (options kept
//! apart, no panic) follow.

use crate::support;

use arrow_schema::DataType;
use pgnmill::replay::ply_data::PlyDataOptions;
use pgnmill::replay::{ReplayOptions, replay_text};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use support::{csv_cells, parquet_cells, read_csv, report_run, root};

type Row = HashMap<String, String>;

const CASES: &str = "testdata/chess/clocks-cases.pgn";

/// The per-ply columns after `source` and `game`, in the generator's order.
const PLY_FIELDS: [&str; 10] = [
    "ply",
    "san",
    "uci",
    "fen",
    "clock_ms",
    "emt_ms",
    "eval_cp",
    "eval_mate",
    "eval_depth",
    "repetition",
];

fn all_options() -> ReplayOptions {
    ReplayOptions {
        ply_data: PlyDataOptions {
            clocks: true,
            plies: true,
        },
        ..ReplayOptions::default()
    }
}

/// The files the generator read: testdata/corpus by name, then the cases;
/// each with the name the generator gives it.
fn sources() -> Vec<(String, PathBuf)> {
    let corpus = root().join("testdata/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files.push(root().join(CASES));
    files
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect()
}

/// A report with `--clocks --plies` in CSV and Parquet: its games.csv and
/// plies.csv rows keyed by (the generator's name of the source, game),
/// after checking that plies.parquet holds plies.csv's rows.
struct Run {
    games: BTreeMap<(String, u64), Row>,
    /// Each game's per-ply lines as the generator writes them.
    plies: BTreeMap<(String, u64), Vec<String>>,
    _run: support::ReportRun,
}

fn run(sources: &[(String, PathBuf)]) -> Run {
    let paths: Vec<&Path> = sources.iter().map(|(_, p)| p.as_path()).collect();
    let run = report_run(
        &paths,
        &["--clocks", "--plies", "--format", "csv,parquet", "-j", "2"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let name: HashMap<String, String> = sources
        .iter()
        .map(|(n, p)| (p.to_string_lossy().into_owned(), n.clone()))
        .collect();
    let key = |r: &Row| {
        (
            name[&r["source"]].clone(),
            r["game"].parse::<u64>().unwrap(),
        )
    };
    let games = run.rows().into_iter().map(|r| (key(&r), r)).collect();
    let ply_rows = read_csv(&run.out.join("plies.csv"));
    assert_eq!(
        parquet_rows(&run.out.join("plies.parquet")),
        csv_cells(&run.out.join("plies.csv"))
    );
    let mut plies: BTreeMap<(String, u64), Vec<String>> = BTreeMap::new();
    for r in &ply_rows {
        let line = PLY_FIELDS.map(|f| r[f].as_str()).join("\t") + "\n";
        plies.entry(key(r)).or_default().push(line);
    }
    Run {
        games,
        plies,
        _run: run,
    }
}

/// plies.parquet as rows of fields (a null as the empty field), its column
/// names first; the types are those of docs/reports.md.
fn parquet_rows(path: &Path) -> Vec<Vec<String>> {
    let (rows, schema) = parquet_cells(path);
    for f in schema.fields() {
        let want = match f.name().as_str() {
            "game" => (DataType::Int64, false),
            "source" | "san" | "uci" | "fen" => (DataType::Utf8, false),
            _ => (DataType::Int32, true),
        };
        assert_eq!(
            (f.data_type().clone(), f.is_nullable()),
            want,
            "{}",
            f.name()
        );
    }
    rows
}

/// Compares the run's rows with the generator's games file at `expected`;
/// returns the games compared and the mismatches. A file cut into another
/// number of games than the generator's is a mismatch, or with
/// `skip_split_differences` is left out (and named on stdout): games are
/// matched by their number in the file.
fn compare(run: &Run, expected: &Path, skip_split_differences: bool) -> (usize, Vec<String>) {
    let expected = read_csv(expected);
    let mut by_source: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for r in &expected {
        by_source.entry(r["source"].as_str()).or_default().push(r);
    }
    let mut seen = 0;
    let mut mismatches = Vec::new();
    for (source, want) in by_source {
        let games = run.games.keys().filter(|(s, _)| s == source).count();
        if games != want.len() {
            let why = format!(
                "{source}: {games} games, the generator's splitting {}",
                want.len()
            );
            if skip_split_differences {
                println!("left out, {why}");
                continue;
            }
            mismatches.push(why);
        }
        for exp in want {
            let key = (source.to_string(), exp["game"].parse::<u64>().unwrap());
            let Some(got) = run.games.get(&key) else {
                mismatches.push(format!("{source}#{}: no row", key.1));
                continue;
            };
            seen += 1;
            for (column, want) in exp.iter() {
                let got = match column.as_str() {
                    "source" => continue,
                    "plies_crc32" => {
                        let mut crc = flate2::Crc::new();
                        let lines = run.plies.get(&key).map(|l| l.concat());
                        crc.update(lines.unwrap_or_default().as_bytes());
                        format!("{:08x}", crc.sum())
                    }
                    _ => got[column].clone(),
                };
                if got != *want {
                    mismatches.push(format!(
                        "{source}#{} {column}: expected {want:?}, got {got:?}",
                        key.1
                    ));
                }
            }
        }
    }
    (seen, mismatches)
}

fn assert_none(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(40)].join("\n")
    );
}

#[test]
fn clocks_evals_and_plies_match_python_chess() {
    let run = run(&sources());
    let expected = root().join("testdata/expected/clocks-games.csv");
    let (seen, mut mismatches) = compare(&run, &expected, false);
    assert!(seen > 5000, "{seen} games compared");
    let expected_plies = read_csv(&root().join("testdata/expected/clocks-cases-plies.csv"));
    let want: Vec<String> = expected_plies
        .iter()
        .map(|r| {
            let mut fields = vec![r["game"].as_str()];
            fields.extend(PLY_FIELDS.map(|f| r[f].as_str()));
            fields.join("\t") + "\n"
        })
        .collect();
    let got: Vec<String> = run
        .plies
        .iter()
        .filter(|((source, _), _)| source == "clocks-cases.pgn")
        .flat_map(|((_, game), lines)| lines.iter().map(move |l| format!("{game}\t{l}")))
        .collect();
    for (i, (got, want)) in got.iter().zip(&want).enumerate() {
        if got != want {
            mismatches.push(format!("cases row {i}: expected {want:?}, got {got:?}"));
        }
    }
    assert_eq!(got.len(), want.len(), "rows of the cases");
    assert_none(&mismatches);
}

/// The same comparison for a collection outside the repository (ignored: a
/// tool, run by hand):
/// `clocks_expected.py --dir DIR --out FILE`, then
/// `CLOCKS_DIR=DIR CLOCKS_EXPECTED=FILE cargo test --test report -- clocks_under_dir --ignored`.
#[test]
#[ignore]
fn clocks_under_dir() {
    let (Ok(dir), Ok(expected)) = (
        std::env::var("CLOCKS_DIR"),
        std::env::var("CLOCKS_EXPECTED"),
    ) else {
        return;
    };
    let dir = Path::new(&dir);
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).expect("folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "pgn") {
                let name = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((name, path));
            }
        }
    }
    files.sort();
    let (seen, mismatches) = compare(&run(&files), Path::new(&expected), true);
    println!("{seen} games of {} compared", dir.display());
    assert_none(&mismatches);
}

/// Without the options a record carries nothing more, and each option
/// keeps only its own part.
#[test]
fn ply_data_is_kept_only_when_asked() {
    let game = "[Event \"x\"]\n[TimeControl \"60+1\"]\n\n1. e4 { [%clk 0:01:00] } e5 *\n";
    let plain = replay_text(game, 1, &ReplayOptions::default());
    assert!(plain.ply_data.is_none());
    let clocks = ReplayOptions {
        ply_data: PlyDataOptions {
            clocks: true,
            plies: false,
        },
        ..ReplayOptions::default()
    };
    let record = replay_text(game, 1, &clocks);
    let data = record.ply_data.expect("clocks");
    assert!(data.plies.is_none());
    let c = data.clocks.expect("clocks");
    assert_eq!(
        (c.white.first, c.clock_plies, c.time_base()),
        (Some(60_000), 1, Some(60_000))
    );
    // The rest of the record is the same with or without them.
    let mut without = replay_text(game, 1, &all_options());
    without.ply_data = None;
    assert_eq!(without, plain);
}

/// Games that are not replayed at all (a variant pgnmill does not play, a
/// bad `[FEN]`) still get their `--clocks` facts: the time control and no
/// plies.
#[test]
fn games_not_replayed_have_their_time_control() {
    for game in [
        "[Variant \"Atomic\"]\n[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } *\n",
        "[FEN \"8/8/8 w - - 0 1\"]\n[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } *\n",
    ] {
        let record = replay_text(game, 1, &all_options());
        let data = record.ply_data.expect("ply data");
        let c = data.clocks.expect("clocks");
        assert_eq!(
            (c.time_base(), c.time_increment()),
            (Some(180_000), Some(2_000))
        );
        assert_eq!((c.clock_plies, c.white.first), (0, None));
        assert!(data.plies.expect("plies").is_empty());
    }
}

/// Any mix of comments, variations, escapes and half-written commands
/// around legal moves: the replay never panics, keeps one row per replayed
/// ply, and the same game without the options replays to the same record.
#[test]
fn ply_data_never_panics_and_keeps_one_row_a_ply() {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        " e4", " e5", " Nf3", " Nc6", " Bb5", " a6", " 1.", " 1...", " {", " }", " (", ")",
        " ;x\n", "\n%x\n", " [%clk ", " [%emt ", " [%eval ", "0:01:00", "0:0", "#-3", "0.17",
        ",20", "]", " \u{a0}", "\u{ff11}", " $1", " !?", "\r\n", " 1-0", " *", " --",
    ]);
    proptest!(|(parts in prop::collection::vec(pieces, 0..60))| {
        let game = format!("[Event \"x\"]\n[TimeControl \"60+1\"]\n\n{}\n", parts.concat());
        let record = replay_text(&game, 1, &all_options());
        let data = record.ply_data.as_deref().expect("ply data");
        let rows = data.plies.as_ref().expect("rows");
        prop_assert_eq!(rows.len(), record.plies as usize);
        let clocks = data.clocks.as_ref().expect("clocks");
        prop_assert!(clocks.clock_plies <= record.plies && clocks.eval_plies <= record.plies);
        let mut plain = record.clone();
        plain.ply_data = None;
        prop_assert_eq!(plain, replay_text(&game, 1, &ReplayOptions::default()));
    });
}
