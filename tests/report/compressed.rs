//! Compressed inputs as users download them (docs/reports.md, "Inputs"):
//! the files of `testdata/compressed/` (made and checked by the reference
//! tools, `testdata/gen/make_compressed.py`) give, game for game, the rows
//! python-chess gives for the text they hold (`testdata/expected/`); the
//! games whose compressed data fails its check are `damaged_input`; an
//! input refused or decoding to no text is a warning, and `--strict` then
//! exits 1.

use crate::report_vs_python_chess::SAME;
use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub(crate) type Row = HashMap<String, String>;

const LICHESS: &str = "testdata/corpus/lichess-2025-05-blitz-sample.pgn";

pub(crate) fn dir() -> PathBuf {
    support::root().join("testdata/compressed")
}

pub(crate) fn manifest() -> Value {
    let text = std::fs::read_to_string(dir().join("expected.json")).expect("expected.json");
    serde_json::from_str(&text).expect("json")
}

/// python-chess's rows for the lichess sample, in game order.
fn expected_rows() -> Vec<Row> {
    support::read_csv(&support::root().join("testdata/expected/games.csv"))
        .into_iter()
        .filter(|r| r["source"] == LICHESS)
        .collect()
}

pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stderr: String,
    pub(crate) rows: Vec<Row>,
    pub(crate) summary: Value,
}

pub(crate) fn report(inputs: &[&Path], extra: &[&str]) -> Run {
    Run::of(support::report_run(inputs, extra))
}

/// [`report`] of `file` piped in on standard input.
pub(crate) fn report_piped(file: &Path, extra: &[&str]) -> Run {
    Run::of(support::report_piped(file, extra))
}

impl Run {
    fn of(run: support::ReportRun) -> Run {
        Run {
            code: run.code,
            rows: run.rows(),
            summary: run.summary(),
            stderr: run.stderr,
        }
    }
}

/// `[start, end]`.
pub(crate) fn range(r: &Value) -> (u64, u64) {
    (r[0].as_u64().unwrap(), r[1].as_u64().unwrap())
}

/// `[[start, end], ...]`.
pub(crate) fn ranges(v: &Value) -> Vec<(u64, u64)> {
    v.as_array().expect("ranges").iter().map(range).collect()
}

/// Checks `rows` (one input's, whose text is `text` of the lichess
/// sample) against python-chess's: the same games at the same offsets
/// and lines (counted from the text's start), and the same replay, except
/// for a game that overlaps a `damaged` stretch (offsets in the input's
/// text), which must be `damaged_input`.
pub(crate) fn check_rows(what: &str, rows: &[Row], text: (u64, u64), damaged: &[(u64, u64)]) {
    let all = expected_rows();
    let expected: Vec<&Row> = all
        .iter()
        .filter(|r| {
            let at: u64 = r["offset"].parse().unwrap();
            at >= text.0 && at < text.1
        })
        .collect();
    assert_eq!(rows.len(), expected.len(), "{what}: games");
    let first_line: u64 = expected.first().map_or(1, |r| r["line"].parse().unwrap());
    let ends: Vec<u64> = expected
        .iter()
        .skip(1)
        .map(|r| r["offset"].parse::<u64>().unwrap() - text.0)
        .chain([text.1 - text.0])
        .collect();
    let mut seen_damaged = 0;
    for ((ours, theirs), end) in rows.iter().zip(&expected).zip(ends) {
        let at = format!("{what} game {}", ours["game"]);
        let offset = theirs["offset"].parse::<u64>().unwrap() - text.0;
        let line = theirs["line"].parse::<u64>().unwrap() - first_line + 1;
        assert_eq!(ours["offset"], offset.to_string(), "{at}: offset");
        assert_eq!(ours["line"], line.to_string(), "{at}: line");
        assert_eq!(ours["white"], theirs["white"], "{at}: white");
        assert_eq!(ours["black"], theirs["black"], "{at}: black");
        if damaged.iter().any(|&(a, b)| offset < b && a < end) {
            seen_damaged += 1;
            assert_eq!(ours["status"], "damaged_input", "{at}");
            // "fails its CRC-32 check" (gzip, zip), "fails its checksum"
            // (zstd), "is unreliable" (the text before an xz block's damage).
            assert!(
                ours["error"].contains("fails its") || ours["error"].contains("is unreliable"),
                "{at}: {}",
                ours["error"]
            );
            assert_eq!(ours["plies"], "0", "{at}: a damaged game is not replayed");
        } else {
            for c in SAME {
                assert_eq!(ours[c], theirs[c], "{at}: {c}");
            }
        }
    }
    assert_eq!(
        seen_damaged > 0,
        !damaged.is_empty(),
        "{what}: damaged games"
    );
}

#[test]
fn compressed_files_give_the_rows_of_their_text_and_warn_when_they_must() {
    let manifest = manifest();
    for (name, expect) in manifest["files"].as_object().unwrap() {
        if [
            "members",
            "cut_short",
            "stops_after_text",
            "encrypted",
            "index_unreadable",
            "blocks",
            "stream_damage",
        ]
        .iter()
        .any(|k| expect.get(k).is_some())
        {
            continue;
        }
        let path = dir().join(name);
        for threads in THREADS {
            file_gives_the_rows_of_its_text(name, expect, &path, threads);
        }
    }
}

/// One run of [`compressed_files_give_the_rows_of_their_text_and_warn_when_they_must`].
fn file_gives_the_rows_of_its_text(name: &str, expect: &Value, path: &Path, threads: &str) {
    let name = &format!("{name} (-j {threads})");
    let run = report(&[path], &["--strict", "-j", threads]);
    let input = &run.summary["inputs"][0];
    let warnings = input["warnings"].as_array().unwrap();
    let damaged = ranges(&expect["damaged"]);
    let refused = expect["refused"].as_bool().unwrap();
    let no_text = expect["no_text"].as_bool().unwrap();
    let fine = damaged.is_empty() && !refused && !no_text;
    assert_eq!(
        run.code,
        Some(if fine { 0 } else { 1 }),
        "{name}: {}",
        run.stderr
    );
    assert_eq!(warnings.is_empty(), fine, "{name}: {warnings:?}");
    for w in warnings {
        let message = w["message"].as_str().unwrap();
        assert!(
            run.stderr.contains(message),
            "{name}: {message:?} not on stderr"
        );
    }
    let text = range(&expect["text"]);
    if refused {
        assert!(input["unsupported"].is_string(), "{name}: not refused");
        assert_eq!(warnings[0]["kind"], "not_pgn");
        assert!(run.rows.is_empty(), "{name}: rows of a refused input");
    } else if no_text {
        assert_eq!(warnings[0]["kind"], "no_text");
        assert!(
            warnings[0]["message"]
                .as_str()
                .unwrap()
                .contains("decodes to no text")
        );
        assert!(run.rows.is_empty());
    } else {
        check_rows(name, &run.rows, text, &damaged);
        if !damaged.is_empty() {
            assert!(
                warnings.iter().all(|w| w["kind"] == "damaged"),
                "{warnings:?}"
            );
        }
        // A damaged input is incomplete, and its games are not broken.
        assert_eq!(input["complete"], damaged.is_empty(), "{name}");
        let broken = run
            .rows
            .iter()
            .filter(|r| !["ok", "damaged_input"].contains(&r["status"].as_str()))
            .count();
        let ok = input["status"]["ok"].as_u64().unwrap() as usize;
        assert_eq!(
            ok + broken + seen(&run.rows, "damaged_input"),
            run.rows.len()
        );
    }
    // Without --strict, the same run succeeds.
    let lenient = report(&[path], &["-j", threads]);
    assert_eq!(lenient.code, Some(0), "{name}: {}", lenient.stderr);
    assert_eq!(lenient.rows, run.rows, "{name}");
}

/// The thread counts the compressed files are read with: one, and
/// several, where a `.bz2` file's blocks and a many-frame `.zst`'s frames
/// are decoded on threads of their own (`bzip2_blocks.rs`,
/// `zstd_frames.rs`).
const THREADS: [&str; 2] = ["1", "3"];

/// A download that broke off, in each compressed format, and an xz stream
/// damaged in its middle: every game wholly in the text the reference tool
/// decodes before it fails is a row, as python-chess reads it; the run
/// warns that the input was cut short, names the line of the first game
/// missing, and fails under `--strict`. A decoder may hand out a little
/// more of the last block than the reference tool, so the rows may go on
/// past the games the reference text holds whole, but only with whole
/// games; for xz, decoded by the reference tool's own library, the rows
/// are exactly those games ("exact").
#[test]
fn a_compressed_file_cut_short_gives_the_games_before_the_cut() {
    let manifest = manifest();
    let all = expected_rows();
    let mut seen_formats = 0;
    for (name, expect) in manifest["files"].as_object().unwrap() {
        if expect.get("cut_short").is_none() {
            continue;
        }
        seen_formats += 1;
        let path = dir().join(name);
        for threads in THREADS {
            cut_short_gives_the_games_before_the_cut(name, expect, &path, threads, &all);
        }
    }
    assert_eq!(
        seen_formats, 6,
        "gz, bz2, xz (cut, damaged in one block and in many) and zst"
    );
}

/// One run of [`a_compressed_file_cut_short_gives_the_games_before_the_cut`].
fn cut_short_gives_the_games_before_the_cut(
    name: &str,
    expect: &Value,
    path: &Path,
    threads: &str,
    all: &[Row],
) {
    let name = &format!("{name} (-j {threads})");
    let run = report(&[path], &["--strict", "-j", threads]);
    assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
    let input = &run.summary["inputs"][0];
    assert_eq!(input["complete"], false, "{name}");
    let warnings = input["warnings"].as_array().unwrap();
    let damaged = xz_damage(expect);
    assert_eq!(warnings.len(), 1 + damaged.len(), "{name}: {warnings:?}");
    let cut = warnings.last().unwrap();
    assert_eq!(cut["kind"], "cut_short", "{name}");
    let message = cut["message"].as_str().unwrap();
    assert!(run.stderr.contains(message), "{name}");
    if let Some((said, _)) = damaged.first() {
        assert_eq!(warnings[0]["kind"], "damaged", "{name}");
        let first = warnings[0]["message"].as_str().unwrap();
        assert!(first.contains(said.as_str()), "{name}: {first}");
        assert!(run.stderr.contains(first), "{name}");
    }
    let (_, whole_games_end) = range(&expect["text"]);
    let at_least = all
        .iter()
        .filter(|r| r["offset"].parse::<u64>().unwrap() < whole_games_end)
        .count();
    let given = run.rows.len();
    assert!(
        given >= at_least && given < all.len(),
        "{name}: {given} games, {at_least} wholly in the reference tool's text"
    );
    if expect.get("exact").is_some() {
        assert_eq!(given, at_least, "{name}: games beyond the reference text");
    }
    let given_end: u64 = all[given]["offset"].parse().unwrap();
    let unreliable: Vec<(u64, u64)> = damaged.iter().map(|&(_, range)| range).collect();
    check_rows(name, &run.rows, (0, given_end), &unreliable);
    let missing = format!(
        "the game at line {} and any after it are missing",
        all[given]["line"]
    );
    assert!(message.contains(&missing), "{name}: {message}");
    assert!(!message.contains("fill whole buffer"), "{name}: {message}");
}

/// The text an xz file damaged in a block (`xz_damaged_block` of
/// `expected.json`, whose blocks come from `xz --list`) holds unreliable:
/// decoded just before the damage, back to the block's start but no more
/// than 64 KiB (`xz.rs`), up to where the reference tool fails; with what
/// its warning says. None for another file.
fn xz_damage(expect: &Value) -> Vec<(String, (u64, u64))> {
    let Some(n) = expect.get("xz_damaged_block").and_then(Value::as_u64) else {
        return Vec::new();
    };
    let block = &expect["xz_blocks"][n as usize - 1];
    let (compressed, text) = (block[0].as_u64().unwrap(), block[2].as_u64().unwrap());
    let decoded = expect["decoded_by_reference"].as_u64().unwrap();
    let from = text.max(decoded.saturating_sub(64 << 10));
    let said = format!(
        "xz block {n} (from compressed byte {compressed}) is damaged, and xz checks a block's text only at its end: the text decoded just before the damage, decompressed bytes {from} to {decoded}, is unreliable"
    );
    vec![(said, (from, decoded))]
}

/// A bzip2 file whose second block decodes to text that fails its CRC-32
/// (`bzip2 -dc` writes that text out, then stops): the blocks are
/// independent, so the text is the first and third blocks' as
/// `bzip2recover` cuts them out (`expected.json`'s `blocks`), one after
/// the other. Every game wholly in the first block is a row as
/// python-chess reads it; the game that runs into the lost block is
/// `damaged_input`; the games wholly in the third block are rows as
/// python-chess reads them, at offsets and lines as far back as the lost
/// block's text is long. One `damaged` warning names the block; the same
/// piped in, and `--strict` fails the run.
#[test]
fn a_bzip2_block_that_fails_is_passed_over_and_the_blocks_after_it_read() {
    let name = "crc-block.pgn.bz2";
    let expect = &manifest()["files"][name];
    let blocks = ranges(&expect["blocks"]);
    assert_eq!(expect["lost_blocks"], serde_json::json!([2]));
    let (first, lost, third) = (blocks[0], blocks[1], blocks[2]);
    let t = std::fs::read(support::root().join(LICHESS)).unwrap();
    let lost_len = lost.1 - lost.0;
    let lost_lines = t[lost.0 as usize..lost.1 as usize]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64;
    let all = expected_rows();
    let offset = |r: &Row| r["offset"].parse::<u64>().unwrap();
    // The game the lost text starts in, and the games after it.
    let spanning = all
        .iter()
        .map(offset)
        .filter(|&o| o < first.1)
        .max()
        .unwrap();
    let after: Vec<&Row> = all
        .iter()
        .filter(|r| (third.0..third.1).contains(&offset(r)))
        .collect();
    for (how, run, message) in damaged_by_name_and_piped(&dir().join(name)) {
        for said in [
            "bzip2 block 2 (compressed bytes ".to_string(),
            "fails its CRC-32 check or cannot be decoded".to_string(),
            format!(
                "the game around decompressed byte {} is unreliable",
                first.1
            ),
        ] {
            assert!(message.contains(&said), "{how}: {message}");
        }
        let before: Vec<Row> = run
            .rows
            .iter()
            .take_while(|r| offset(r) < spanning)
            .cloned()
            .collect();
        check_rows(name, &before, (0, spanning), &[]);
        let damaged = &run.rows[before.len()];
        assert_eq!(offset(damaged), spanning, "{how}");
        assert_eq!(damaged["status"], "damaged_input", "{how}");
        assert!(
            damaged["error"].contains("bzip2 block 2"),
            "{how}: {}",
            damaged["error"]
        );
        let rest = &run.rows[before.len() + 1..];
        assert_eq!(rest.len(), after.len(), "{how}: games after the lost block");
        for (ours, theirs) in rest.iter().zip(&after) {
            let at = format!("{how}: game {}", ours["game"]);
            assert_eq!(offset(ours), offset(theirs) - lost_len, "{at}: offset");
            let line = theirs["line"].parse::<u64>().unwrap() - lost_lines;
            assert_eq!(ours["line"], line.to_string(), "{at}: line");
            for c in SAME {
                assert_eq!(ours[c], theirs[c], "{at}: {c}");
            }
        }
    }
}

/// Streams one after another (pbzip2's shape), damaged where no text is:
/// the first stream's combined CRC-32, every block of it passing its own
/// check (`bzip2 -dc` fails there), or the second stream's header
/// (`bzip2 -dc` stops there and ignores the rest). Every game is a row as
/// python-chess reads the whole text, none `damaged_input`, by name and
/// piped in; one `damaged` warning names the stream and its bytes
/// (`expected.json`, from the reference tool's stream sizes), and
/// `--strict` fails.
#[test]
fn a_bzip2_stream_damaged_where_no_text_is_loses_no_game() {
    let manifest = manifest();
    for (name, said) in [
        (
            "crc-stream.pgn.bz2",
            "fails its combined CRC-32 check, though each of its blocks passed its own: its text is kept",
        ),
        (
            "header-stream.pgn.bz2",
            "are not a stream header (damaged, or not bzip2 data): they are passed over",
        ),
    ] {
        let expect = &manifest["files"][name];
        let damage = &expect["stream_damage"];
        let (start, end) = range(&damage["bytes"]);
        let stream = damage["stream"].as_u64().unwrap();
        for (how, run, message) in damaged_by_name_and_piped(&dir().join(name)) {
            let what = format!("{name} {how}");
            check_rows(&what, &run.rows, range(&expect["text"]), &[]);
            let place = match stream {
                1 => format!("bzip2 stream 1 (compressed bytes {start} to {end})"),
                _ => format!(
                    "compressed bytes {start} to {end}, where bzip2 stream {stream} should begin"
                ),
            };
            for s in [place.as_str(), said] {
                assert!(message.contains(s), "{what}: {message}");
            }
        }
    }
}

/// The report of the damaged file `path` by name under `--strict` and
/// piped in without it: by name the run exits 1, piped in 0; either way
/// the input is incomplete, with one `damaged` warning, also on stderr.
/// Each run, with how it was read and the warning's message.
fn damaged_by_name_and_piped(path: &Path) -> Vec<(&'static str, Run, String)> {
    [
        (
            "by name, -j 1",
            report(&[path], &["--strict", "-j", "1"]),
            1,
        ),
        (
            "by name, -j 3",
            report(&[path], &["--strict", "-j", "3"]),
            1,
        ),
        ("piped in", report_piped(path, &[]), 0),
    ]
    .into_iter()
    .map(|(how, run, code)| {
        assert_eq!(run.code, Some(code), "{how}: {}", run.stderr);
        let input = &run.summary["inputs"][0];
        assert_eq!(input["complete"], false, "{how}");
        let warnings = input["warnings"].as_array().unwrap();
        assert_eq!(warnings.len(), 1, "{how}: {warnings:?}");
        assert_eq!(warnings[0]["kind"], "damaged", "{how}");
        let message = warnings[0]["message"].as_str().unwrap().to_string();
        assert!(run.stderr.contains(&message), "{how}");
        (how, run, message)
    })
    .collect()
}

/// A download that broke off within its first bytes, inside the magic
/// number of the reference tool's file (testdata/compressed/, made by
/// `zstd`, `xz` and `bzip2`): that compression cut short before any text,
/// a `cut_short` warning and no row, by name and piped in, as `zstd -d`,
/// `xz -d` and `bzip2 -d` fail on it, not a game of stray bytes.
#[test]
fn a_file_cut_inside_its_magic_number_is_cut_short() {
    let tmp = tempfile::tempdir().unwrap();
    let files = [
        ("garbage-after.pgn.zst", "zstd", 2..4),
        ("streams.pgn.xz", "xz", 2..6),
        ("streams.pgn.bz2", "bzip2", 3..4),
    ];
    for (name, compression, lengths) in files {
        let bytes = std::fs::read(dir().join(name)).unwrap();
        for n in lengths {
            let cut = tmp.path().join(format!("{n}-{name}"));
            std::fs::write(&cut, &bytes[..n]).unwrap();
            for run in [
                report(&[&cut], &["--strict"]),
                report_piped(&cut, &["--strict"]),
            ] {
                assert_eq!(run.code, Some(1), "{n} bytes of {name}: {}", run.stderr);
                assert!(run.rows.is_empty(), "{n} bytes of {name}: {:?}", run.rows);
                let input = &run.summary["inputs"][0];
                assert_eq!(input["compression"], compression, "{n} bytes of {name}");
                assert_eq!(input["warnings"][0]["kind"], "cut_short", "{input}");
                let message = input["warnings"][0]["message"].as_str().unwrap();
                assert!(message.contains("stops after byte 0"), "{message}");
            }
        }
    }
}

/// Damage after the text (bytes appended to a file, a byte of an xz
/// index flipped), in each format:
/// the reference tool decodes all of the text, so every game is a row,
/// the last one too, as python-chess reads it; the run warns that the
/// text stops where a game ends and that what follows cannot be read,
/// and fails under `--strict` only.
#[test]
fn damage_after_the_text_leaves_every_game_a_row() {
    let manifest = manifest();
    let mut seen_files = 0;
    for (name, expect) in manifest["files"].as_object().unwrap() {
        if expect.get("stops_after_text").is_none() {
            continue;
        }
        seen_files += 1;
        let path = dir().join(name);
        for threads in THREADS {
            damage_after_the_text_leaves_every_game(name, expect, &path, threads);
        }
    }
    assert_eq!(seen_files, 5, "xz (two), zst, bz2 and gz");
}

/// One run of [`damage_after_the_text_leaves_every_game_a_row`].
fn damage_after_the_text_leaves_every_game(name: &str, expect: &Value, path: &Path, threads: &str) {
    let gzip = name.ends_with(".gz");
    let name = &format!("{name} (-j {threads})");
    let run = report(&[path], &["--strict", "-j", threads]);
    assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
    check_rows(name, &run.rows, range(&expect["text"]), &[]);
    let input = &run.summary["inputs"][0];
    assert_eq!(input["complete"], false, "{name}");
    let warnings = input["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{name}: {warnings:?}");
    let message = warnings[0]["message"].as_str().unwrap();
    let text_bytes = expect["decoded_by_reference"].as_u64().unwrap();
    // A gzip file is checked member by member before it is read
    // (damage.rs): what follows its last member is found there.
    let stops = if gzip {
        format!(
            "the bytes after gzip member 1 are not gzip data (invalid gzip header): the text ends with that member, at decompressed byte {text_bytes}, and the rest of the file is passed over"
        )
    } else {
        format!(
            "decompressed text stops after byte {text_bytes}, where a game ends; what follows cannot be read"
        )
    };
    assert!(message.contains(&stops), "{name}: {message}");
    assert!(run.stderr.contains(message), "{name}");
    let lenient = report(&[path], &["-j", threads]);
    assert_eq!(lenient.code, Some(0), "{name}: {}", lenient.stderr);
    assert_eq!(lenient.rows, run.rows, "{name}");
}

/// The same files through the library: the batches of
/// [`pgnmill::GameStream`] hold the games up to the cut (at least those
/// wholly in the reference tool's text), no error ends the loop, and
/// `finish` says the input was cut short, with the warning's text.
#[test]
fn the_library_stream_says_when_a_compressed_file_was_cut_short() {
    use pgnmill::{Job, Listing, ReportOptions};
    let manifest = manifest();
    let all = expected_rows();
    for (name, expect) in manifest["files"].as_object().unwrap() {
        if expect.get("cut_short").is_none() {
            continue;
        }
        let job = Job::new(&[dir().join(name)], Listing::Games).unwrap();
        let mut stream = job.games(&ReportOptions::default()).unwrap();
        let mut given = 0;
        for batch in stream.by_ref() {
            given += batch.unwrap().num_rows();
        }
        let (_, whole_games_end) = range(&expect["text"]);
        let at_least = all
            .iter()
            .filter(|r| r["offset"].parse::<u64>().unwrap() < whole_games_end)
            .count();
        assert!(given >= at_least && given < all.len(), "{name}: {given}");
        let outcome = stream.finish().unwrap();
        assert!(!outcome.summary.complete, "{name}");
        let damaged = xz_damage(expect);
        assert_eq!(
            outcome.warnings.len(),
            1 + damaged.len(),
            "{name}: {:?}",
            outcome.warnings
        );
        let missing = format!(
            "the game at line {} and any after it are missing",
            all[given]["line"]
        );
        assert!(
            outcome.warnings.last().unwrap().contains(&missing),
            "{name}: {:?}",
            outcome.warnings
        );
    }
}

/// Runs `pgnmill ARGS`: exit code and stderr.
fn pgnmill(args: &[&str], paths: &[&Path]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("pgnmill")
        .unwrap()
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `fen` on a compressed list cut short counts the bytes of the
/// decompressed text, and says so as `report` does ("decompressed text
/// stops after byte N"), not "input text", which reads as a byte of the
/// (much shorter) file.
#[test]
fn fen_on_a_cut_compressed_list_says_its_offset_is_of_the_decompressed_text() {
    let tmp = tempfile::tempdir().unwrap();
    let epd = std::fs::read(support::root().join("testdata/fen/mixed.epd")).unwrap();
    let big: Vec<u8> = epd.repeat(200);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &big).unwrap();
    let mut gz = gz.finish().unwrap();
    gz.truncate(gz.len() / 2);
    let cut = tmp.path().join("cut.epd.gz");
    std::fs::write(&cut, &gz).unwrap();
    let (code, stderr) = pgnmill(&["fen", "-q", "-o", "-"], &[&cut]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("cut.epd.gz: decompressed text stops after byte "),
        "{stderr}"
    );
    assert!(stderr.contains("the records from line "), "{stderr}");
}

/// `convert` and `fen` read compressed inputs through the same source as
/// `report`, and must say what `report` says of them: every warning of
/// `report`'s summary.json for a damaged, cut or textless input is on
/// their stderr too, and `--strict` exits 1.
#[test]
fn convert_and_fen_warn_of_what_report_warns_of() {
    let tmp = tempfile::tempdir().unwrap();
    // fen reads position lists: the same shapes, made of an EPD list.
    let epd = std::fs::read(support::root().join("testdata/fen/mixed.epd")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &epd).unwrap();
    let mut gz = gz.finish().unwrap();
    // The gzip trailer is CRC-32 then size: the CRC's first byte, flipped.
    let crc_at = gz.len() - 8;
    gz[crc_at] ^= 0xFF;
    let crc_epd = tmp.path().join("crc.epd.gz");
    std::fs::write(&crc_epd, &gz).unwrap();
    let empty_epd = tmp.path().join("empty.epd.zst");
    std::fs::write(&empty_epd, zstd::encode_all(&b""[..], 3).unwrap()).unwrap();
    // Three zstd frames, the second failing its checksum: found only as
    // the text is read, after the input was opened.
    let frame_epd = tmp.path().join("frame.epd.zst");
    std::fs::write(&frame_epd, frames_second_failing(&epd)).unwrap();
    let frame_pgn = tmp.path().join("frame.pgn.zst");
    let pgn = std::fs::read(support::root().join(LICHESS)).unwrap();
    std::fs::write(&frame_pgn, frames_second_failing(&pgn)).unwrap();
    let cases: [(&[&str], PathBuf); 8] = [
        (
            &["convert", "-q", "--strict", "--to", "iccs"],
            dir().join("crc-member.pgn.gz"),
        ),
        (
            &["convert", "-q", "--strict", "--to", "iccs"],
            dir().join("crc-member.zip"),
        ),
        (
            &["convert", "-q", "--strict", "--to", "iccs"],
            dir().join("empty-frame.pgn.zst"),
        ),
        (
            &["convert", "-q", "--strict", "--to", "iccs"],
            dir().join("cut-short.pgn.xz"),
        ),
        (&["convert", "-q", "--strict", "--to", "iccs"], frame_pgn),
        (&["fen", "-q", "--strict"], crc_epd),
        (&["fen", "-q", "--strict"], empty_epd),
        (&["fen", "-q", "--strict"], frame_epd),
    ];
    for (args, path) in &cases {
        let said_by_report: Vec<String> = {
            let run = report(&[path], &[]);
            run.summary["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|i| i["warnings"].as_array().unwrap().clone())
                .map(|w| w["message"].as_str().unwrap().to_string())
                .collect()
        };
        assert!(!said_by_report.is_empty(), "{path:?}: report says nothing");
        let (code, stderr) = pgnmill(args, &[path]);
        assert_eq!(code, Some(1), "{args:?} {path:?}: {stderr}");
        for message in &said_by_report {
            assert!(
                stderr.contains(message),
                "{args:?}: {message:?} not in {stderr}"
            );
        }
    }
}

/// `text` in three zstd frames with checksums, cut at line ends, the
/// second one's checksum damaged.
fn frames_second_failing(text: &[u8]) -> Vec<u8> {
    let cut = |at: usize| at + text[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    let (a, b) = (cut(text.len() / 3), cut(2 * text.len() / 3));
    let mut out = Vec::new();
    for (i, part) in [&text[..a], &text[a..b], &text[b..]]
        .into_iter()
        .enumerate()
    {
        let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        encoder.include_checksum(true).unwrap();
        std::io::Write::write_all(&mut encoder, part).unwrap();
        let mut frame = encoder.finish().unwrap();
        if i == 1 {
            *frame.last_mut().unwrap() ^= 0x55;
        }
        out.extend(frame);
    }
    out
}

pub(crate) fn seen(rows: &[Row], status: &str) -> usize {
    rows.iter().filter(|r| r["status"] == status).count()
}

#[test]
fn a_zip_member_that_fails_its_checksum_is_damaged_and_the_others_are_read() {
    let manifest = manifest();
    let members = &manifest["files"]["crc-member.zip"]["members"];
    let zip = dir().join("crc-member.zip");
    let run = report(&[&zip], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 3);
    for input in inputs {
        let path = input["path"].as_str().unwrap();
        let member = path.rsplit(':').next().unwrap();
        let expect = &members[member];
        let damaged = ranges(&expect["damaged"]);
        let rows: Vec<Row> = run
            .rows
            .iter()
            .filter(|r| r["source"] == path)
            .cloned()
            .collect();
        check_rows(path, &rows, range(&expect["text"]), &damaged);
        assert_eq!(input["complete"], damaged.is_empty(), "{path}");
        if !damaged.is_empty() {
            assert_eq!(input["warnings"][0]["kind"], "damaged");
            let w = input["warnings"][0]["message"].as_str().unwrap();
            assert!(w.contains("CRC-32") && w.contains(member), "{w}");
            assert!(run.stderr.contains(w));
            assert_eq!(
                input["status"]["damaged_input"].as_u64(),
                Some(rows.len() as u64)
            );
        }
    }
    // Damaged games are not broken games: the run's count of games with
    // errors leaves them out.
    let errors = run.summary["status"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| !["ok", "damaged_input"].contains(&k.as_str()))
        .map(|(_, v)| v.as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(errors, 0);
}

/// Where the data frames of a pzstd file are: each behind a skippable
/// frame that gives its size (pzstd's layout), as the zstd format defines
/// them.
fn pzstd_frames(data: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut at = 0;
    let mut frames = Vec::new();
    while at + 12 <= data.len() {
        let word = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap()) as usize;
        assert_eq!(word(at) & !0xf, 0x184D_2A50, "a skippable frame at {at}");
        assert_eq!(word(at + 4), 4);
        frames.push(at + 12..at + 12 + word(at + 8));
        at += 12 + word(at + 8);
    }
    assert_eq!(at, data.len());
    frames
}

/// A month's dump in `dir` as lichess writes one: the lichess sample five
/// times over (5 MB, which pzstd -1 cuts into several frames), as
/// `month.pgn` and pzstd's `month.pgn.zst`.
fn pzstd_dump(dir: &Path) -> (PathBuf, PathBuf) {
    let plain = dir.join("month.pgn");
    let sample = std::fs::read(support::root().join(LICHESS)).unwrap();
    std::fs::write(&plain, sample.repeat(5)).unwrap();
    let packed = dir.join("month.pgn.zst");
    let status = std::process::Command::new("pzstd")
        .args(["-q", "-1", "-p", "2", "-o"])
        .arg(&packed)
        .arg(&plain)
        .status()
        .unwrap();
    assert!(status.success());
    (plain, packed)
}

fn has_pzstd() -> bool {
    if Command::new("pzstd").arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "pzstd is needed under CI (Debian's zstd package)"
    );
    eprintln!("skipped: pzstd not found");
    false
}

/// A dump written by pzstd itself, as lichess writes its monthly files:
/// several frames, each behind a skippable frame; the report equals the
/// plain text's, under `--strict`.
#[test]
fn a_dump_written_by_pzstd_reads_like_its_text() {
    if !has_pzstd() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (plain, packed) = pzstd_dump(tmp.path());
    let frames = pzstd_frames(&std::fs::read(&packed).unwrap()).len();
    assert!(frames >= 2, "pzstd made {frames} frame(s)");
    let txt = report(&[&plain], &[]);
    assert_eq!(txt.rows.len(), 5 * 438);
    // One decoder thread, and the frames decoded on two at once.
    // And piped in, as `curl … | pgnmill report -`.
    for threads in ["1", "2"] {
        for zst in [
            report(&[&packed], &["--strict", "-j", threads]),
            report_piped(&packed, &["--strict", "-j", threads]),
        ] {
            assert_eq!(zst.code, Some(0), "{}", zst.stderr);
            assert_eq!(zst.summary["inputs"][0]["compression"], "zstd");
            assert_eq!(zst.rows.len(), txt.rows.len());
            same_games(&zst.rows, &txt.rows, txt.rows.len());
        }
    }
    // Cut in the middle of its last frame: the games of the text the
    // reference decoder gives before it fails, and a cut_short warning.
    let bytes = std::fs::read(&packed).unwrap();
    let cut = tmp.path().join("cut.pgn.zst");
    std::fs::write(&cut, &bytes[..bytes.len() - 1000]).unwrap();
    let partial = zstd_text_failing(&cut, "zstd -d reads a cut file whole?");
    let partial_pgn = tmp.path().join("partial.pgn");
    std::fs::write(&partial_pgn, &partial).unwrap();
    let before_cut = report(&[&partial_pgn], &[]);
    for (threads, zst) in ["1", "2"].into_iter().flat_map(|threads| {
        [
            (threads, report(&[&cut], &["-j", threads])),
            (threads, report_piped(&cut, &["-j", threads])),
        ]
    }) {
        assert_eq!(zst.code, Some(0), "{}", zst.stderr);
        let warnings = &zst.summary["inputs"][0]["warnings"];
        assert_eq!(warnings[0]["kind"], "cut_short", "-j {threads}: {warnings}");
        // The last game of the decoded text may itself be cut, and is
        // then left out or reported as it stops.
        let (got, want) = (zst.rows.len(), before_cut.rows.len());
        assert!(
            got <= want && got + 1 >= want,
            "-j {threads}: {got} of {want}"
        );
        same_games(&zst.rows, &before_cut.rows, got - 1);
    }
}

/// `text` compressed by the reference `zstd` from a pipe with
/// `--long=31`, as large archives are: with its size unknown the frame
/// keeps the 2 GiB window it was asked for.
fn zstd_long_window(text: &[u8]) -> Vec<u8> {
    let out = Command::new("zstd")
        .args(["-q", "-c", "--long=31"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
}

/// A `.zst` made with `zstd --long=31` (a 2 GiB window, which zstd's
/// decoder refuses unless told `--long=31`): its text, as the reference
/// tool gives it with `--long=31`, is read whole, by name and piped in,
/// on one decoder thread and on two, and so is the frame twice over
/// (`cat a.zst a.zst`), which a file's frame reader decodes frame by frame.
#[test]
fn a_zst_made_with_a_long_window_reads_like_its_text() {
    let tmp = tempfile::tempdir().unwrap();
    let sample = std::fs::read(support::root().join(LICHESS)).unwrap();
    let frame = zstd_long_window(&sample);
    for copies in [1, 2] {
        let packed = tmp.path().join(format!("long{copies}.pgn.zst"));
        std::fs::write(&packed, frame.repeat(copies)).unwrap();
        zstd_text_failing(&packed, "zstd -d reads a 2 GiB window unasked?");
        let text = Command::new("zstd")
            .args(["-dcq", "--long=31"])
            .arg(&packed)
            .output()
            .unwrap();
        assert!(text.status.success());
        let plain = tmp.path().join(format!("long{copies}.pgn"));
        std::fs::write(&plain, &text.stdout).unwrap();
        let txt = report(&[&plain], &[]);
        assert_eq!(txt.rows.len(), copies * 438);
        for threads in ["1", "2"] {
            for zst in [
                report(&[&packed], &["--strict", "-j", threads]),
                report_piped(&packed, &["--strict", "-j", threads]),
            ] {
                assert_eq!(zst.code, Some(0), "{}", zst.stderr);
                assert_eq!(zst.summary["inputs"][0]["warnings"], serde_json::json!([]));
                assert_eq!(zst.rows.len(), txt.rows.len());
                same_games(&zst.rows, &txt.rows, txt.rows.len());
            }
        }
    }
}

/// [`pzstd_dump`], and the packed file's bytes and data frames, three at
/// least.
fn pzstd_dump_of_frames(dir: &Path) -> (PathBuf, PathBuf, Vec<u8>, Vec<std::ops::Range<usize>>) {
    let (plain, packed) = pzstd_dump(dir);
    let bytes = std::fs::read(&packed).unwrap();
    let frames = pzstd_frames(&bytes);
    assert!(frames.len() >= 3, "pzstd made {} frame(s)", frames.len());
    (plain, packed, bytes, frames)
}

/// The text `zstd -d` makes of `frame` alone, checksum not checked
/// (`--no-check`): how long each frame's text is, by the reference tool.
fn zstd_text_unchecked(dir: &Path, frame: &[u8]) -> Vec<u8> {
    let path = dir.join("frame.zst");
    std::fs::write(&path, frame).unwrap();
    let out = Command::new("zstd")
        .args(["-dcq", "--no-check"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "zstd -d --no-check: {out:?}");
    out.stdout
}

/// The text `zstd -d` gives of the damaged `frame` alone before it fails
/// (it must fail).
fn zstd_text_before_failing(dir: &Path, frame: &[u8]) -> Vec<u8> {
    let path = dir.join("frame.zst");
    std::fs::write(&path, frame).unwrap();
    zstd_text_failing(&path, "zstd -d reads the damaged frame")
}

/// The text `zstd -d` gives of the file `path` before it fails, which it
/// must (`unexpected` says what it means if it does not).
fn zstd_text_failing(path: &Path, unexpected: &str) -> Vec<u8> {
    let out = Command::new("zstd").arg("-dcq").arg(path).output().unwrap();
    assert!(!out.status.success(), "{unexpected}");
    out.stdout
}

/// The offset of a row's game in its text.
fn offset(row: &Row) -> u64 {
    row["offset"].parse().unwrap()
}

/// The rows of a report of `damaged` on 1, 2 and 3 threads, and piped in
/// on 1 and 2: the same on each, with one `damaged` warning that names
/// zstd frame 2 (and, piped in, says bytes of the stream), returned with
/// the text stretch it gives.
fn read_past_a_damaged_frame(damaged: &Path) -> (Vec<Row>, (u64, u64)) {
    let one = report(&[damaged], &["-j", "1"]);
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    let warnings = &one.summary["inputs"][0]["warnings"];
    assert_eq!(warnings.as_array().unwrap().len(), 1, "{warnings}");
    assert_eq!(warnings[0]["kind"], "damaged", "{warnings}");
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(message.contains("zstd frame 2 (bytes "), "{message}");
    assert!(
        message.contains("the frames after it are read"),
        "{message}"
    );
    assert_eq!(one.summary["inputs"][0]["complete"], false);
    // "decompressed bytes A to B," or, when none could be read, "the
    // game around decompressed byte A".
    let stretch = message
        .split("decompressed bytes ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .or_else(|| {
            let at = message.split("decompressed byte ").nth(1)?;
            at.split(' ').next()
        })
        .unwrap_or_else(|| panic!("no stretch in {message}"));
    let (from, to) = stretch.split_once(" to ").unwrap_or((stretch, stretch));
    for threads in ["2", "3"] {
        let many = report(&[damaged], &["-j", threads]);
        assert_eq!(many.code, Some(0), "{}", many.stderr);
        assert_eq!(many.rows.len(), one.rows.len(), "-j {threads}: rows");
        same_games(&many.rows, &one.rows, one.rows.len());
        assert_eq!(
            many.summary["inputs"][0]["warnings"], *warnings,
            "-j {threads}"
        );
    }
    // Piped in, the message names standard input and the stream.
    let as_piped = |said: &str| {
        said.replace(&format!("{}: ", damaged.display()), "-: ")
            .replace("of the file)", "of the stream)")
    };
    for threads in ["1", "2"] {
        let piped = report_piped(damaged, &["-j", threads]);
        assert_eq!(piped.code, Some(0), "{}", piped.stderr);
        let got = &piped.summary["inputs"][0]["warnings"];
        assert_eq!(got.as_array().map(Vec::len), Some(1), "{got}");
        assert_eq!(got[0]["kind"], "damaged");
        assert_eq!(got[0]["message"], as_piped(message), "-j {threads}");
        assert_eq!(piped.rows.len(), one.rows.len(), "piped, -j {threads}");
        for (a, b) in piped.rows.iter().zip(&one.rows) {
            for (column, value) in b {
                if column != "source" {
                    assert_eq!(a[column], as_piped(value), "game {}: {column}", b["game"]);
                }
            }
        }
    }
    (one.rows, (from.parse().unwrap(), to.parse().unwrap()))
}

/// A dump whose second frame fails its checksum (the frame's text is
/// whole, its last four bytes are not), as gzip members are read: the
/// frame's games are rows of status `damaged_input`, and the frames after
/// it are read, where `zstd -d` stops. The frames' lengths are the
/// reference tool's, each frame decoded alone.
#[test]
fn a_frame_failing_its_checksum_is_marked_and_the_frames_after_it_read() {
    if !has_pzstd() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (plain, _, mut bytes, frames) = pzstd_dump_of_frames(tmp.path());
    // The last byte of the second frame's checksum.
    bytes[frames[1].end - 1] ^= 0x55;
    let damaged = tmp.path().join("damaged.pgn.zst");
    std::fs::write(&damaged, &bytes).unwrap();
    zstd_text_failing(&damaged, "zstd -d reads a damaged file whole?");
    let start = zstd_text_unchecked(tmp.path(), &bytes[frames[0].clone()]).len() as u64;
    let end = start + zstd_text_unchecked(tmp.path(), &bytes[frames[1].clone()]).len() as u64;
    let (rows, stretch) = read_past_a_damaged_frame(&damaged);
    assert_eq!(stretch, (start, end));
    // The same text: the plain text's games, each one whose text meets
    // the frame's damaged, the others as they are.
    let whole = report(&[&plain], &[]);
    assert_eq!(rows.len(), whole.rows.len());
    let mut damaged_rows = 0;
    for (i, (got, want)) in rows.iter().zip(&whole.rows).enumerate() {
        let next = whole.rows.get(i + 1).map_or(u64::MAX, offset);
        let meets = offset(want) < end && next > start;
        let inside = (start..end).contains(&offset(want));
        if inside || (meets && got["status"] == "damaged_input") {
            assert_eq!(got["status"], "damaged_input", "game {}", want["game"]);
            damaged_rows += 1;
        } else {
            same_games(std::slice::from_ref(got), std::slice::from_ref(want), 1);
        }
    }
    assert!(damaged_rows > 10, "{damaged_rows} damaged rows");
}

/// A dump whose second frame's data is damaged in its middle: its text up
/// to the error is marked, and the games of the frames after it are the
/// plain text's, moved by the text the frame lost.
#[test]
fn a_frame_that_cannot_be_decoded_is_marked_and_the_frames_after_it_read() {
    if !has_pzstd() {
        return;
    }
    read_past_a_frame_damaged_by(|frame| {
        let middle = frame.len() / 2;
        frame[middle..middle + 64].fill(0xa5);
    });
}

/// A dump whose second frame's headers are damaged, so that they no
/// longer give where the frame ends: read as the frame that fails it is,
/// its end given by the size pzstd wrote before it, and the frames after
/// it read, where `zstd -d` and `pzstd -d` stop at the damage.
#[test]
fn a_frame_whose_headers_are_damaged_is_passed_over_by_its_size_hint() {
    if !has_pzstd() {
        return;
    }
    // Its magic number gone: no text at all.
    read_past_a_frame_damaged_by(|frame| frame[..4].fill(0));
    // A run of zeros over its middle, as a page lost on a disk leaves:
    // 64 KiB holds a block header or more (a block holds at most 128 KiB
    // of text, about 30 KiB compressed here), which read as empty blocks
    // until the run ends and then as nonsense.
    read_past_a_frame_damaged_by(|frame| {
        let middle = frame.len() / 2;
        frame[middle..middle + (64 << 10)].fill(0);
    });
}

/// A dump whose second frame is damaged by `damage` (given the frame's
/// bytes), read past the frame ([`read_past_a_damaged_frame`]): its text
/// up to the error is what the reference tool gives of the frame alone
/// before it fails, and is marked; before it the rows are the plain
/// text's, and after it the plain text's games from the next frame on,
/// each moved by the text the frame lost.
fn read_past_a_frame_damaged_by(damage: impl Fn(&mut [u8])) {
    let tmp = tempfile::tempdir().unwrap();
    let (plain, packed, mut bytes, frames) = pzstd_dump_of_frames(tmp.path());
    damage(&mut bytes[frames[1].clone()]);
    let damaged = tmp.path().join("damaged.pgn.zst");
    std::fs::write(&damaged, &bytes).unwrap();
    let start = zstd_text_unchecked(tmp.path(), &bytes[frames[0].clone()]).len() as u64;
    let read_alone = zstd_text_before_failing(tmp.path(), &bytes[frames[1].clone()]);
    let lost_frame = zstd_text_unchecked(
        tmp.path(),
        &std::fs::read(&packed).unwrap()[frames[1].clone()],
    );
    let plain_end = start + lost_frame.len() as u64;
    let (rows, (from, to)) = read_past_a_damaged_frame(&damaged);
    assert_eq!(from, start);
    // The reference tool writes its text a block (128 KiB at most) at a
    // time, and the block it holds when it fails is not written.
    let reference_to = start + read_alone.len() as u64;
    assert!(
        (reference_to..=reference_to + (128 << 10)).contains(&to),
        "text to {to}, zstd -d's to {reference_to}"
    );
    assert!(
        to < plain_end,
        "the frame gave {} of {} bytes",
        to - start,
        lost_frame.len()
    );
    let whole = report(&[&plain], &[]);
    // Before the frame: the plain text's games (the last may run into it).
    let before: Vec<&Row> = whole.rows.iter().filter(|r| offset(r) < start).collect();
    same_games(&rows, &whole.rows, before.len() - 1);
    // After it: the plain text's games from its next frame on, each moved
    // by the text the damaged frame lost.
    let after: Vec<&Row> = whole
        .rows
        .iter()
        .filter(|r| offset(r) > plain_end)
        .collect();
    let got_after: Vec<&Row> = rows.iter().filter(|r| offset(r) > to).collect();
    assert!(
        after.len() > 100 && got_after.len() == after.len(),
        "{} of {}",
        got_after.len(),
        after.len()
    );
    for (got, want) in got_after.iter().zip(&after) {
        assert_eq!(
            offset(got) - to,
            offset(want) - plain_end,
            "game {}",
            want["game"]
        );
        for (column, value) in want.iter() {
            if !["source", "game", "offset", "line"].contains(&column.as_str()) {
                assert_eq!(&got[column], value, "game {}: {column}", want["game"]);
            }
        }
    }
    let in_between = rows.len() - before.len() - got_after.len();
    let marked = rows
        .iter()
        .filter(|r| r["status"] == "damaged_input")
        .count();
    assert!(
        marked >= in_between.max(1),
        "{marked} marked, {in_between} between"
    );
}

/// The first `n` rows of `got` are those of `want`, but for their source.
fn same_games(got: &[Row], want: &[Row], n: usize) {
    assert!(got.len() >= n && want.len() >= n);
    for (a, b) in got.iter().zip(want).take(n) {
        for (column, value) in b {
            if column != "source" {
                assert_eq!(&a[column], value, "game {}: {column}", b["game"]);
            }
        }
    }
}

/// A many-frame `.zst` whose first frame cannot be decoded and whose
/// second holds binary data (a shape the `zstd_frames` fuzz target
/// found): the frames are read on past the damage, so the input is
/// refused as binary data, and the damaged frame is said beside the
/// refusal, not lost with it.
#[test]
fn a_refused_many_frame_zst_still_says_which_frame_was_damaged() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read(support::root().join(LICHESS)).unwrap();
    let mut first = zstd::encode_all(&text[..20_000], 3).unwrap();
    let middle = first.len() / 2;
    first[middle..middle + 64].fill(0xff);
    let binary: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let second = zstd::encode_all(&binary[..], 3).unwrap();
    let path = tmp.path().join("refused.pgn.zst");
    std::fs::write(&path, [first, second].concat()).unwrap();
    for threads in ["1", "2"] {
        let run = report(&[&path], &["-j", threads]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let input = &run.summary["inputs"][0];
        assert_eq!(input["unsupported"], "binary data, not PGN", "{input}");
        assert!(run.rows.is_empty());
        let warnings = input["warnings"].as_array().unwrap();
        let damaged: Vec<&str> = warnings
            .iter()
            .filter(|w| w["kind"] == "damaged")
            .map(|w| w["message"].as_str().unwrap())
            .collect();
        assert!(
            damaged
                .first()
                .is_some_and(|m| m.contains("zstd frame 1 (bytes ")),
            "-j {threads}: {warnings:?}"
        );
    }
}

/// A `.zst` of one frame whose third block has a damaged header (a size
/// larger than a block may be; a shape the `zstd_frames` fuzz target
/// found): by name (the frame decoded alone) and piped in (one stream,
/// read a megabyte at a time), the text before the damage is the two
/// blocks before it, 128 KiB each by the format, and the games are those
/// of that much of the plain text. A decoder call that decoded the second
/// block and read the bad header after it used to lose the block's text
/// with large reads only, so the two ways gave different games.
#[test]
fn a_damaged_block_header_ends_the_text_after_the_blocks_before_it() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read(support::root().join(LICHESS)).unwrap();
    let mut frame = zstd::encode_all(&text[..], 3).unwrap();
    // The frame header (RFC 8878, 3.1.1.1: magic, descriptor, window
    // descriptor unless single-segment, dictionary id, content size),
    // then block after block.
    let descriptor = frame[4];
    let single_segment = descriptor & 0x20 != 0;
    let content_size = [usize::from(single_segment), 2, 4, 8][usize::from(descriptor >> 6)];
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let mut at = 5 + usize::from(!single_segment) + dictionary + content_size;
    for _ in 0..2 {
        let header = u32::from_le_bytes([frame[at], frame[at + 1], frame[at + 2], 0]);
        assert_eq!(header & 1, 0, "a last block before the third");
        at += 3 + (header >> 3) as usize;
    }
    frame[at] |= 0xF8;
    frame[at + 1] = 0xFF;
    frame[at + 2] = 0xFF;
    let damaged = tmp.path().join("damaged.pgn.zst");
    std::fs::write(&damaged, &frame).unwrap();
    let prefix = tmp.path().join("prefix.pgn");
    std::fs::write(&prefix, &text[..2 << 17]).unwrap();
    let want = report(&[&prefix], &[]);
    for run in [report(&[&damaged], &[]), report_piped(&damaged, &[])] {
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        // The game the damage cut has no row, or one as far as it goes.
        let (got, full) = (run.rows.len(), want.rows.len());
        assert!(got + 1 >= full && got <= full, "{got} rows of {full}");
        same_games(&run.rows, &want.rows, full - 1);
    }
}

/// The report of the fixture `name` piped in, which succeeds with one
/// warning of its input: the run, and the warning's message.
fn piped_with_one_warning(name: &str) -> (Run, String) {
    let piped = report_piped(&dir().join(name), &[]);
    assert_eq!(piped.code, Some(0), "{name}: {}", piped.stderr);
    let warnings = &piped.summary["inputs"][0]["warnings"];
    assert_eq!(
        warnings.as_array().map(Vec::len),
        Some(1),
        "{name}: {warnings}"
    );
    let message = warnings[0]["message"].as_str().unwrap().to_string();
    (piped, message)
}

/// A gzip member whose CRC-32 fails, piped in (nothing can be read twice,
/// so the member cannot be checked before it is read): the text stops
/// after that member, and the warning says the member's text, read as
/// sound, is unreliable, with its byte range (`expected.json`'s damaged
/// stretch), not only that the text stops where a game ends.
#[test]
fn a_gzip_member_failing_its_checksum_piped_in_says_its_text_is_unreliable() {
    let (piped, message) = piped_with_one_warning("crc-member.pgn.gz");
    let damaged = ranges(&manifest()["files"]["crc-member.pgn.gz"]["damaged"]);
    let (start, end) = damaged[0];
    let said = format!(
        "gzip member 2 fails its CRC-32 check, so its text, decompressed bytes {start} to {end}, read as sound up to here, is unreliable"
    );
    assert!(message.contains(&said), "{message}");
    assert!(piped.stderr.contains(&message));
    // The games wholly in the first two members' text (the cut at their
    // end falls inside a game), as python-chess reads them.
    let cut_game = expected_rows()
        .iter()
        .map(|r| r["offset"].parse::<u64>().unwrap())
        .filter(|&offset| offset < end)
        .max()
        .unwrap();
    check_rows(
        "crc-member.pgn.gz piped in",
        &piped.rows,
        (0, cut_game),
        &[],
    );
}

/// A one-frame `.zst` whose checksum fails (`zstd -dc` refuses it), piped
/// in: read as one stream, its text is handed on before the check at the
/// frame's end, so its games are rows as usual (read by name, where the
/// frame is held until it is checked, they are `damaged_input`); the
/// warning says the frame fails its checksum, not only that the text
/// stops.
#[test]
fn a_lone_frame_failing_its_checksum_piped_in_says_so() {
    let path = dir().join("crc-single.pgn.zst");
    let (piped, message) = piped_with_one_warning("crc-single.pgn.zst");
    assert!(message.contains("fails its checksum"), "{message}");
    // The games of the text the fixture holds (`expected.json`), as
    // python-chess reads them.
    let text = range(&manifest()["files"]["crc-single.pgn.zst"]["text"]);
    check_rows("crc-single.pgn.zst piped in", &piped.rows, text, &[]);
    let by_name = report(&[&path], &[]);
    assert!(by_name.rows.iter().all(|r| r["status"] == "damaged_input"));
}
