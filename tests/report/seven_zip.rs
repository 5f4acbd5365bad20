//! 7z archives (docs/reports.md, "Inputs"): the `.7z` files of
//! `testdata/compressed/`, made by 7-Zip (`7zz`) and checked by its
//! extraction (`testdata/gen/make_compressed.py`), give for each `.pgn`
//! member the rows python-chess gives for the text 7-Zip extracts of it;
//! a member whose CRC-32 fails is `damaged_input`, one whose data cannot
//! be decoded is damaged as far as it goes, and the others are read; an
//! archive without its index, or encrypted members, are named and not
//! read.

use crate::compressed::{
    Row, check_rows, dir, manifest, range, ranges, report, report_piped, seen,
};

use serde_json::Value;
use std::path::Path;

/// The rows of input `path` (an archive's member).
fn rows_of(rows: &[Row], path: &str) -> Vec<Row> {
    rows.iter()
        .filter(|r| r["source"] == path)
        .cloned()
        .collect()
}

#[test]
fn each_pgn_member_of_a_7z_archive_gives_the_rows_of_its_text() {
    let manifest = manifest();
    let archives: Vec<(&String, &Value)> = manifest["files"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(name, expect)| name.ends_with(".7z") && expect.get("members").is_some())
        .collect();
    // 7-Zip's default (LZMA2, solid), LZMA, PPMd, BZip2, Deflate; one with
    // an empty member (no rows, no warning, as an empty .pgn); one with a
    // failing CRC-32, and a block that cannot be decoded (one of one
    // member, one solid).
    assert_eq!(archives.len(), 9);
    for (name, expect) in archives {
        let archive = dir().join(name);
        let run = report(&[&archive], &["--strict"]);
        let members = expect["members"].as_object().unwrap();
        let damaged_any = members
            .values()
            .any(|m| m["undecodable"] == true || !ranges(&m["damaged"]).is_empty());
        assert_eq!(
            run.code,
            Some(if damaged_any { 1 } else { 0 }),
            "{name}: {}",
            run.stderr
        );
        let inputs = run.summary["inputs"].as_array().unwrap();
        let paths: Vec<&str> = inputs.iter().map(|i| i["path"].as_str().unwrap()).collect();
        let want: Vec<String> = members
            .keys()
            .map(|m| format!("{}:{m}", archive.display()))
            .collect();
        assert_eq!(paths, want, "{name}: the members, in the archive's order");
        for (input, (member, m)) in inputs.iter().zip(members) {
            let path = input["path"].as_str().unwrap();
            assert_eq!(input["compression"], "7z", "{path}");
            let rows = rows_of(&run.rows, path);
            let warnings = input["warnings"].as_array().unwrap();
            if m["undecodable"] == true {
                // Damaged from its start; what was decoded before the
                // failure (if anything) is not replayed.
                assert_eq!(seen(&rows, "damaged_input"), rows.len(), "{path}");
                assert_eq!(warnings.len(), 1, "{path}: {warnings:?}");
                assert_eq!(warnings[0]["kind"], "damaged");
                let w = warnings[0]["message"].as_str().unwrap();
                assert!(w.contains(member) && w.contains("cannot be decoded"), "{w}");
                assert!(run.stderr.contains(w), "{path}: {w:?} not on stderr");
                assert_eq!(input["complete"], false, "{path}");
                continue;
            }
            let damaged = ranges(&m["damaged"]);
            check_rows(path, &rows, range(&m["text"]), &damaged);
            assert_eq!(input["complete"], damaged.is_empty(), "{path}");
            if damaged.is_empty() {
                assert!(warnings.is_empty(), "{path}: {warnings:?}");
            } else {
                assert_eq!(warnings[0]["kind"], "damaged");
                let w = warnings[0]["message"].as_str().unwrap();
                assert!(w.contains("CRC-32") && w.contains(member), "{w}");
                assert_eq!(
                    input["status"]["damaged_input"].as_u64(),
                    Some(rows.len() as u64)
                );
            }
        }
        let skipped: Vec<String> = expect["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| format!("{}:{}", archive.display(), m.as_str().unwrap()))
            .collect();
        assert_eq!(
            run.summary["skipped"]["archive_members"],
            serde_json::json!(skipped),
            "{name}"
        );
        for s in &skipped {
            assert!(
                run.stderr
                    .contains(&format!("{s}: not a .pgn member, skipped")),
                "{}",
                run.stderr
            );
        }
    }
}

/// An input refused whole, with its one warning on stderr: `unsupported`,
/// its message containing `words`.
fn refused_with(input: &Value, stderr: &str, words: &str) {
    assert!(input["unsupported"].is_string(), "{input}");
    let warnings = input["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{input}");
    assert_eq!(warnings[0]["kind"], "unsupported");
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(message.contains(words), "{message}");
    assert!(stderr.contains(message), "{message:?} not on stderr");
}

#[test]
fn a_7z_archive_cut_short_or_encrypted_is_named_and_not_read() {
    // Cut short: its index, at its end, is gone (7-Zip refuses it too).
    let cut = dir().join("cut-short.7z");
    let run = report(&[&cut], &["--strict"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.rows.is_empty());
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0]["path"], cut.display().to_string().as_str());
    refused_with(&inputs[0], &run.stderr, "index cannot be read");
    // Encrypted members: each named, none read, and the run goes on.
    let encrypted = dir().join("encrypted.7z");
    let sound = dir().join("members.7z");
    let run = report(&[&encrypted, &sound], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let manifest = manifest();
    let names = manifest["files"]["encrypted.7z"]["encrypted"]
        .as_array()
        .unwrap();
    let inputs = run.summary["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), names.len() + 3);
    for (input, name) in inputs.iter().zip(names) {
        let path = format!("{}:{}", encrypted.display(), name.as_str().unwrap());
        assert_eq!(input["path"], path.as_str());
        refused_with(input, &run.stderr, "encrypted");
        assert!(rows_of(&run.rows, &path).is_empty());
    }
    assert_eq!(run.rows.len(), 120, "the sound archive's games are read");
    let strict = report(&[&encrypted], &["--strict"]);
    assert_eq!(strict.code, Some(1));
}

#[test]
fn a_7z_archive_piped_in_is_refused_and_one_in_a_folder_is_read() {
    let archive = dir().join("members.7z");
    let run = report_piped(&archive, &["--strict"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.rows.is_empty());
    refused_with(
        &run.summary["inputs"][0],
        &run.stderr,
        "a 7z archive, which cannot be read from a stream",
    );
    // A folder search picks up `.7z` files, as it does `.zip` files.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("Games.7Z");
    std::fs::copy(&archive, &copy).unwrap();
    let run = report(&[tmp.path()], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let sources: Vec<&str> = run.rows.iter().map(|r| r["source"].as_str()).collect();
    let member = |m: &str| format!("{}:{m}", copy.display());
    assert_eq!(sources.len(), 120);
    assert_eq!(sources[0], member("part1.pgn"));
    assert_eq!(sources[119], member("part3.pgn"));
    assert!(!Path::new(&member("notes.txt")).exists());
}
