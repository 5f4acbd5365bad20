//! `pgnmill convert` on what the vector files lack, against
//! testdata/xiangqi/convert-expected.json (pyffish's legal moves, cchess's
//! Chinese; testdata/gen/xiangqi_convert_expected.py):
//!
//! - every move of every variation, nested ones too, is converted from the
//!   position it branches from; a variation that meets an illegal move
//!   stops there, says so, and keeps the rest as written;
//! - a game whose main line stops at an illegal move stays recognisable:
//!   `[PgnmillError]` says where and why, and the report of the converted
//!   file gives `illegal_move` at the same ply with the same reason.

use crate::support;

use pgnmill::pgn::{GameText, split_all};
use std::path::Path;

fn dir() -> std::path::PathBuf {
    support::root().join("testdata/xiangqi/convert")
}

fn expected() -> serde_json::Value {
    let text =
        std::fs::read_to_string(support::root().join("testdata/xiangqi/convert-expected.json"))
            .expect("convert-expected.json");
    serde_json::from_str(&text).expect("json")
}

/// `pgnmill convert --quiet --to <to> <input>`: stdout and stderr.
pub fn convert(to: &str, input: &Path) -> (String, String) {
    run_convert(&["--quiet", "--to", to], input)
}

/// `pgnmill convert --to <to> <input>`, its closing lines on stderr:
/// stdout and stderr.
pub fn convert_told(to: &str, input: &Path) -> (String, String) {
    run_convert(&["--to", to], input)
}

fn run_convert(args: &[&str], input: &Path) -> (String, String) {
    let out = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .arg("convert")
        .args(args)
        .arg(input)
        .assert()
        .success();
    let o = out.get_output();
    (
        String::from_utf8(o.stdout.clone()).expect("UTF-8"),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Per game: a tag's value, and every move token of its movetext in the
/// order of the text, variations included (comments, move numbers, NAGs,
/// parentheses and the result left out).
fn games(pgn: &str, tag: &str) -> Vec<(Option<String>, Vec<String>)> {
    let bytes = pgn.as_bytes();
    let comment = regex::Regex::new(r"(?s)\{[^}]*\}").expect("regex");
    let number = regex::Regex::new(r"^\d+\.+$").expect("regex");
    split_all(bytes, false)
        .iter()
        .map(|span| {
            let game = GameText::new(span.slice(bytes, 0).expect("span"), span.line);
            let value = game
                .tag(tag)
                .map(|v| String::from_utf8_lossy(&v).into_owned());
            let text = String::from_utf8_lossy(&game.bytes()[game.movetext_start()..]).into_owned();
            let text = comment.replace_all(&text, " ").replace(['(', ')'], " ");
            let moves = text
                .split_whitespace()
                .filter(|t| !number.is_match(t) && !t.starts_with('$') && *t != "*")
                .map(str::to_string)
                .collect();
            (value, moves)
        })
        .collect()
}

/// The tokens `column` of the expected games (`as_written` after a stop).
fn want(column: &str) -> Vec<Vec<String>> {
    expected()["variations"]
        .as_array()
        .expect("variations")
        .iter()
        .map(|g| {
            g["tokens"]
                .as_array()
                .expect("tokens")
                .iter()
                .map(|t| {
                    t.get(column)
                        .or_else(|| t.get("as_written"))
                        .and_then(|v| v.as_str())
                        .expect("token")
                        .to_string()
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_variation_is_converted_from_the_position_it_branches_from() {
    let tmp = tempfile::tempdir().expect("tmp");
    let stops: usize = expected()["variations"]
        .as_array()
        .expect("variations")
        .iter()
        .map(|g| g["stops"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(stops >= 4, "cases too thin");
    for input in ["variations-iccs.pgn", "variations-chinese.pgn"] {
        let input = dir().join(input);
        for (to, format, column) in [
            ("iccs", "ICCS", Some("iccs")),
            ("chinese", "Chinese", Some("chinese")),
            ("wxf", "WXF", None),
            ("chinese-traditional", "Chinese", None),
        ] {
            let what = format!("{} --to {to}", input.display());
            let (out, err) = convert(to, &input);
            let got = games(&out, "Format");
            assert_eq!(got.len(), 8, "{what}");
            assert!(got.iter().all(|g| g.0.as_deref() == Some(format)), "{what}");
            // Each stopped variation is named on stderr with its ply.
            let named = err.matches("a variation stops at ply 24").count();
            assert_eq!(named, stops, "{what}: {err}");
            let moves: Vec<Vec<String>> = match column {
                Some(column) => {
                    let got: Vec<Vec<String>> = got.into_iter().map(|g| g.1).collect();
                    assert_eq!(got, want(column), "{what}");
                    continue;
                }
                // WXF and traditional Chinese: back to ICCS, every move.
                None => {
                    let there = tmp.path().join(format!("{to}.pgn"));
                    std::fs::write(&there, &out).expect("write");
                    games(&convert("iccs", &there).0, "Format")
                        .into_iter()
                        .map(|g| g.1)
                        .collect()
                }
            };
            assert_eq!(moves, want("iccs"), "{what} -> iccs");
        }
    }
}

/// The report rows of `pgn` (a file in `dir`) by game: status, plies,
/// error without its `(line N)`.
fn report_rows(file: &Path) -> Vec<(String, String, String)> {
    let (_tmp, out) = support::run_report(&[file.to_str().expect("path")]);
    let no_line = regex::Regex::new(r" \(line \d+\)").expect("regex");
    support::read_csv(&out.join("games.csv"))
        .into_iter()
        .map(|r| {
            (
                r["status"].clone(),
                r["plies"].clone(),
                no_line.replace_all(&r["error"], "").into_owned(),
            )
        })
        .collect()
}

#[test]
fn a_game_stopped_at_an_illegal_move_reports_illegal_move_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let input = dir().join("stops-iccs.pgn");
    let want = expected()["stops"].as_array().expect("stops").clone();
    let original = report_rows(&input);
    assert_eq!(original.len(), want.len());
    for (row, w) in original.iter().zip(&want) {
        let ply = w["ply"].as_u64().expect("ply");
        assert_eq!(row.0, "illegal_move", "{w}: {row:?}");
        assert_eq!(row.1, (ply - 1).to_string(), "{w}");
        assert!(row.2.contains(&format!("ply {ply}")), "{w}: {row:?}");
    }
    for to in ["chinese", "wxf", "iccs"] {
        let (out, err) = convert(to, &input);
        let converted = tmp.path().join(format!("stops-{to}.pgn"));
        std::fs::write(&converted, &out).expect("write");
        let tags = games(&out, "PgnmillError");
        for ((tag, _), w) in tags.iter().zip(&want) {
            let ply = w["ply"].as_u64().expect("ply");
            let token = w["token"].as_str().expect("token");
            let tag = tag
                .as_deref()
                .unwrap_or_else(|| panic!("--to {to}: no tag for {w}"));
            assert!(
                tag.starts_with(&format!("ply {ply} \"{token}\": ")),
                "--to {to}: {tag}"
            );
            assert!(
                err.contains(&format!("ply {ply} (line ")),
                "--to {to}: {err}"
            );
        }
        // Read back, each game fails where and why the original did.
        assert_eq!(report_rows(&converted), original, "--to {to}");
        // Converting the converted file again changes nothing.
        assert_eq!(convert(to, &converted).0, out, "--to {to} twice");
    }
}

/// A record file's game that stops (BadMoveTest3.xqf: a move from an empty
/// point at ply 10) converts to a game that fails at the same ply when
/// read back, its move kept in ICCS after the comment, `[PgnmillError]`
/// set; the comment is the one a PGN game gets, after the move's number,
/// so that converting the output again changes nothing.
/// Writes `out` (converted `--to to`) into `dir`, checks that converting
/// it again changes nothing, and returns its report rows.
fn converted_again_unchanged(dir: &Path, to: &str, out: &str) -> Vec<(String, String, String)> {
    let converted = dir.join(format!("{to}.pgn"));
    std::fs::write(&converted, out).expect("write");
    assert_eq!(convert(to, &converted).0, out, "--to {to} twice");
    report_rows(&converted)
}

#[test]
fn a_record_stopped_at_an_illegal_move_reports_illegal_move_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let record = support::root().join("testdata/xiangqi/records/BadMoveTest3.xqf");
    let original = report_rows(&record);
    assert_eq!(original.len(), 1);
    assert_eq!(original[0].0, "illegal_move");
    for to in ["chinese", "wxf"] {
        let (out, err) = convert_told(to, &record);
        let tags = games(&out, "PgnmillError");
        let tag = tags[0].0.as_deref().expect("PgnmillError");
        assert!(tag.starts_with("ply 10 \"e1f0\": "), "{tag}");
        // The note names the move once, in the tag's words.
        let note = format!("BadMoveTest3.xqf: game 1 (byte 0): {tag}\n");
        assert!(err.contains(&note), "{err}");
        assert_eq!(tag.matches("e1f0").count(), 1, "{tag}");
        let one_line = out.replace('\n', " ");
        assert!(
            one_line.contains("5... {pgnmill: not converted from here, ply 10 \"e1f0\": ")
                && one_line.contains("} e1f0 1-0"),
            "{out}"
        );
        let back = converted_again_unchanged(tmp.path(), to, &out);
        assert_eq!(
            (&back[0].0, &back[0].1),
            (&original[0].0, &original[0].1),
            "--to {to}"
        );
        assert!(back[0].2.contains("e1f0, ply 10"), "{:?}", back[0]);
    }
}

/// A record file cut short in its moves (a download that broke off): the
/// converted game holds the moves read before the cut, says why it ends
/// there (`[PgnmillError]`, as for a line stopped at an illegal move, and
/// a stop comment where the moves end), is counted as stopped early, and
/// converts again unchanged.
#[test]
fn a_record_cut_short_converts_as_a_game_stopped_where_it_breaks_off() {
    let tmp = tempfile::tempdir().expect("tmp");
    let whole =
        support::root().join("testdata/xiangqi/records/030-huang-songxuan-vs-feng-jingru.XQF");
    let bytes = std::fs::read(&whole).expect("record");
    let cut = tmp.path().join("cut.xqf");
    // Halfway through the move records, which follow a 1,024-byte header.
    std::fs::write(&cut, &bytes[..1024 + (bytes.len() - 1024) / 2]).expect("write");
    let original = report_rows(&cut);
    assert_eq!(original[0].0, "parse_error", "{original:?}");
    assert!(original[0].2.contains("cut short"), "{original:?}");
    let plies: u32 = original[0].1.parse().expect("plies");
    let whole_plies: u32 = report_rows(&whole)[0].1.parse().expect("plies");
    assert!(0 < plies && plies < whole_plies, "{plies} of {whole_plies}");
    for to in ["chinese", "wxf", "iccs"] {
        let (out, err) = convert_told(to, &cut);
        assert!(
            err.contains("0 games converted") && err.contains("1 stopped early"),
            "{err}"
        );
        let tag = games(&out, "PgnmillError")[0]
            .0
            .clone()
            .expect("PgnmillError");
        assert_eq!(
            tag,
            format!("ply {}: {}", plies + 1, original[0].2),
            "--to {to}"
        );
        assert!(
            out.contains(&format!("{{pgnmill: not converted from here, {tag}}}")),
            "{out}"
        );
        let back = converted_again_unchanged(tmp.path(), to, &out);
        assert_eq!(
            (back[0].0.as_str(), back[0].1.as_str()),
            ("ok", original[0].1.as_str())
        );
    }
}

/// A record whose main line stops at an illegal move keeps everything
/// after it as recorded: the comments on the later moves, and a variation
/// of a later move, written right after the move it replaces (PGN's
/// order), not after the end of the line. A DhtmlXQ block written here:
/// main line h2e2, a0a1 (red's rook, with black to move), h0g2, h7e7;
/// comments on plies 2 to 4; a branch b0c2 (with its comment) instead of
/// ply 3, h0g2.
#[test]
fn a_record_stopped_in_its_main_line_keeps_the_comments_and_variations_after_the_stop() {
    let tmp = tempfile::tempdir().expect("tmp");
    let page = tmp.path().join("stop.ubb");
    std::fs::write(
        &page,
        "[DhtmlXQ]\n[DhtmlXQ_movelist]7747090879677242[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_comment2]c2[/DhtmlXQ_comment2]\n[DhtmlXQ_comment3]c3[/DhtmlXQ_comment3]\n\
         [DhtmlXQ_comment4]c4[/DhtmlXQ_comment4]\n[DhtmlXQ_move_0_3_1]1927[/DhtmlXQ_move_0_3_1]\n\
         [DhtmlXQ_comment1_3]v1[/DhtmlXQ_comment1_3]\n[/DhtmlXQ]\n",
    )
    .expect("write");
    let (out, _) = convert("iccs", &page);
    let why = "ply 2 \"a0a1\": the piece on a0 is red's, but black is to move";
    let moves = out
        .split("\n\n")
        .nth(1)
        .expect("movetext")
        .replace('\n', " ");
    assert_eq!(
        moves.trim(),
        format!(
            "1. h2e2 1... {{pgnmill: not converted from here, {why}}} a0a1 {{ c2 }} 2. h0g2 {{ c3 }} (2. b0c2 {{ v1 }}) 2... h7e7 {{ c4 }} *"
        )
    );
    assert_eq!(games(&out, "PgnmillError")[0].0.as_deref(), Some(why));
    let back = converted_again_unchanged(tmp.path(), "iccs", &out);
    assert_eq!(
        (back[0].0.as_str(), back[0].1.as_str()),
        ("illegal_move", "1")
    );
}

/// A record with no move whose start position cannot be played (a
/// DhtmlXQ block whose `binit` puts every piece off the board: no king)
/// is no converted game: it is counted as stopped and carries why, as
/// `report` calls it `bad_fen`.
#[test]
fn a_record_without_moves_or_a_playable_start_is_not_counted_converted() {
    let tmp = tempfile::tempdir().expect("tmp");
    let page = tmp.path().join("no-king.ubb");
    let binit = "99".repeat(32);
    std::fs::write(
        &page,
        format!("[DhtmlXQ][DhtmlXQ_binit]{binit}[/DhtmlXQ_binit][/DhtmlXQ]\n"),
    )
    .expect("write");
    assert_eq!(report_rows(&page)[0].0, "bad_fen");
    let (out, err) = convert_told("iccs", &page);
    assert!(
        err.contains("0 games converted to ICCS, 1 stopped early"),
        "{err}"
    );
    let tag = games(&out, "PgnmillError")[0]
        .0
        .clone()
        .expect("PgnmillError");
    assert!(tag.ends_with("no red king on the board"), "{tag}");
}
