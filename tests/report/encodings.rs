//! Inputs in the encodings that fool a guesser (testdata/encodings/, made
//! with Python's codecs by testdata/gen/make_encodings.py): windows-1252
//! whose accented letters look like GBK, a UTF-8 collection with one game
//! pasted in from windows-1252, GBK chess games, UTF-16LE without a byte
//! order mark in Chinese and in Russian. Each game's tags must come out as
//! Python decodes them with the codec the game was written in, and its
//! plies as python-chess counts them.

use crate::support::{read_csv, root, run_report};

#[test]
fn every_game_reads_as_its_own_codec_decodes_it() {
    let dir = root().join("testdata/encodings");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let files = expected.as_object().expect("files");
    assert_eq!(files.len(), 5);
    for (name, want) in files {
        let path = dir.join(name);
        let (_tmp, out) = run_report(&[path.to_str().unwrap()]);
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(summary["inputs"][0]["encoding"], want["encoding"], "{name}");
        let rows = read_csv(&out.join("games.csv"));
        let games = want["games"].as_array().unwrap();
        assert_eq!(rows.len(), games.len(), "{name}");
        for (i, (row, game)) in rows.iter().zip(games).enumerate() {
            assert_eq!(
                row["status"],
                "ok",
                "{name} game {}: {}",
                i + 1,
                row["error"]
            );
            assert_eq!(
                row["plies"],
                game["plies"].to_string(),
                "{name} game {}",
                i + 1
            );
            for (tag, value) in game["tags"].as_object().unwrap() {
                assert_eq!(
                    row[tag.as_str()],
                    value.as_str().unwrap(),
                    "{name} game {} {tag}",
                    i + 1
                );
            }
        }
    }
}
