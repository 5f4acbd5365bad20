//! Real xiangqi collections (samples in `testdata/xiangqi/corpus`, see its
//! README): the 15 wukong games that exist in Chinese, full-width WXF and
//! ICCS agree move for move; the games that do not replay are exactly the
//! ones checked by hand, and pyffish agrees that their refused move is not
//! legal (`failures_pyffish.csv`); `pgnmill convert` reports them, keeps
//! their text, decodes GBK and Big5, and passes other games through.

use crate::support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pgnmill::pgn::{GameText, TokenKind, split_all};
use pgnmill::xiangqi::Position;
use pgnmill::xiangqi::types::Move;

fn corpus() -> PathBuf {
    support::root().join("testdata/xiangqi/corpus")
}

fn run(args: &[&str], input: &[&Path]) -> assert_cmd::assert::Assert {
    assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(args)
        .args(input)
        .assert()
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).expect("UTF-8 output")
}

fn stderr(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stderr).into_owned()
}

/// Main-line move lists of every game of a PGN text.
fn move_lists(pgn: &str) -> Vec<Vec<String>> {
    let bytes = pgn.as_bytes();
    split_all(bytes, false)
        .iter()
        .map(|span| {
            GameText::new(span.slice(bytes, 0).expect("span"), span.line)
                .movetext()
                .filter(|t| t.kind == TokenKind::Move)
                .map(|t| String::from_utf8_lossy(t.text).into_owned())
                .collect()
        })
        .collect()
}

const XQDB15: [&str; 3] = [
    "wukong-xqdb15-iccs.pgn",
    "wukong-xqdb15-chinese.pgn",
    "wukong-xqdb15-wxf-fullwidth.pgn",
];

/// The one place where the sources disagree: game 2 (Liu DianZhong - Liu
/// DaHua), ply 71 (36. 后兵进一 / －Ｐ＋１). Red has pawns on e5 and e3; the
/// Chinese and WXF files name the rear pawn (e3e4), the ICCS file moves the
/// front one (e5e6). Both are legal (pyffish agrees), so each file replays
/// to its end; the final FENs differ in that pawn only. See the README.
const XQDB15_DISAGREEMENT: (usize, usize, &str, &str) = (1, 70, "e5e6", "e3e4");

#[test]
fn the_15_wukong_games_agree_in_all_three_notations() {
    // The ICCS file as written (wxf.ca's coordinates) is the reference.
    let iccs_text = std::fs::read_to_string(corpus().join(XQDB15[0])).expect("read");
    let written = move_lists(&iccs_text);
    assert_eq!(written.len(), 15);
    let (game, ply, in_iccs, in_others) = XQDB15_DISAGREEMENT;
    assert_eq!(written[game][ply], in_iccs);
    let mut fens: Vec<Vec<String>> = Vec::new();
    for file in XQDB15 {
        let input = corpus().join(file);
        let mut expected = written.clone();
        if file != XQDB15[0] {
            expected[game][ply] = in_others.to_string();
        }
        // convert --to iccs
        let converted = move_lists(&stdout(
            &run(&["convert", "-q", "--to", "iccs"], &[&input]).success(),
        ));
        assert_eq!(converted, expected, "{file}: convert --to iccs");
        // report --moves
        let (_tmp, out) = support::run_report(&["--moves", input.to_str().expect("path")]);
        let rows = support::read_csv(&out.join("games.csv"));
        assert_eq!(rows.len(), 15, "{file}");
        for (row, moves) in rows.iter().zip(&expected) {
            assert_eq!(
                row["status"], "ok",
                "{file} game {}: {}",
                row["game"], row["error"]
            );
            assert_eq!(row["moves"], moves.join(" "), "{file} game {}", row["game"]);
        }
        fens.push(rows.iter().map(|r| r["final_fen"].clone()).collect());
    }
    // Chinese and WXF agree everywhere; ICCS with them except game 2.
    assert_eq!(fens[1], fens[2]);
    for (g, (iccs, chinese)) in fens[0].iter().zip(&fens[1]).enumerate() {
        assert_eq!(iccs == chinese, g != game, "game {}", g + 1);
    }
}

/// Expected status of every game of the sample corpus that is not `ok`,
/// by (file, game number); the reasons are in the README's table.
fn expected_failures() -> HashMap<(&'static str, u64), (&'static str, &'static str)> {
    HashMap::from([
        (
            ("ccpd-computer-competition-big5.pgn", 11),
            ("illegal_move", "ply 115 "),
        ),
        (
            ("ccpd-computer-competition-big5.pgn", 19),
            ("illegal_move", "ply 72 "),
        ),
        (
            ("ccpd-computer-competition-big5.pgn", 48),
            ("illegal_move", "ply 72 "),
        ),
        (
            ("ccpd-middlegames-3-failures-big5.pgn", 1),
            ("bad_fen", "no black king"),
        ),
        (
            ("ccpd-middlegames-3-failures-big5.pgn", 2),
            ("illegal_move", "ply 18 "),
        ),
        (
            ("ccpd-middlegames-3-failures-big5.pgn", 3),
            ("illegal_move", "ply 19 "),
        ),
    ])
}

#[test]
fn only_the_games_checked_by_hand_fail_and_pyffish_agrees() {
    let (_tmp, out) = support::run_report(&["--moves", corpus().to_str().expect("path")]);
    let rows = support::read_csv(&out.join("games.csv"));
    let expected = expected_failures();
    let pyffish: HashMap<(String, u64), HashMap<String, String>> =
        support::read_csv(&corpus().join("failures_pyffish.csv"))
            .into_iter()
            .map(|r| ((r["file"].clone(), r["game"].parse().expect("game")), r))
            .collect();
    let mut seen = 0;
    let mut xiangqi = 0;
    for row in &rows {
        let file = Path::new(&row["source"])
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name")
            .to_string();
        let game: u64 = row["game"].parse().expect("game");
        if row["variant"] != "xiangqi" {
            // Only the trailers after the ccgc2006 and cchess games (a line of
            // '=' and site advertisement: no tags, no moves) are read as games
            // of another variant, by the report's splitter.
            assert!(
                ["eleeye-ccgc2006-01-gbk.pgn", "cchess-black-first.pgn"].contains(&file.as_str())
                    && row["plies"] == "0",
                "{file} game {game} is {}",
                row["variant"]
            );
            continue;
        }
        xiangqi += 1;
        let Some(&(status, text)) = expected.get(&(file.as_str(), game)) else {
            assert_eq!(row["status"], "ok", "{file} game {game}: {}", row["error"]);
            continue;
        };
        seen += 1;
        assert_eq!(
            row["status"], status,
            "{file} game {game}: {}",
            row["error"]
        );
        assert!(
            row["error"].contains(text),
            "{file} game {game}: {}",
            row["error"]
        );
        if status != "illegal_move" {
            continue;
        }
        // pyffish, replaying the same accepted moves, refuses the move too
        // and has exactly the legal moves our kernel has.
        let p = &pyffish[&(file.clone(), game)];
        assert_eq!(p["pyffish_legal"], "False");
        // A move after the mate (pyffish: no legal move at all) says the
        // game was over; any other names the move refused.
        let ply: u32 = p["ply"].parse().expect("ply");
        let over = format!("the game was already over at ply {}", ply - 1);
        if p["pyffish_legal_moves"].is_empty() {
            assert!(row["error"].contains(&over), "{}", row["error"]);
        } else {
            let refused = format!(": {} is not a legal move", p["refused_iccs"]);
            assert!(row["error"].contains(&refused), "{}", row["error"]);
        }
        let start = if row["start_fen"].is_empty() {
            Position::startpos()
        } else {
            Position::from_fen(&row["start_fen"]).expect("start FEN")
        };
        let mut pos = start;
        for m in row["moves"].split_whitespace() {
            pos.play(Move::from_iccs(m).expect("ICCS"));
        }
        let mut ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        ours.sort();
        assert_eq!(
            ours.join(" "),
            p["pyffish_legal_moves"],
            "{file} game {game}"
        );
        assert_eq!(pos.is_check().to_string(), p["in_check"].to_lowercase());
    }
    assert_eq!(seen, expected.len());
    // 167 + 3 + 2 + 15 * 3 + 1 + 1 + 1 games in the sample files (one per
    // `[Game` tag: the computer-competition file has four tag-only games,
    // round markers such as `[Event "第一輪 第一天"]`).
    assert_eq!(xiangqi, 220);
}

#[test]
fn convert_reports_stopped_games_and_keeps_their_text() {
    let input = corpus().join("ccpd-computer-competition-big5.pgn");
    let a = run(&["convert", "--to", "iccs"], &[&input]).success();
    let err = stderr(&a);
    // Each game was over before the move that stops it: pyffish finds the
    // side to move in check with no legal move (failures_pyffish.csv,
    // `in_check` and an empty `pyffish_legal_moves`). The move is named
    // once, quoted.
    for (game, line, ply) in [(11, 759, 115), (19, 1316, 72), (48, 3688, 72)] {
        let want = format!("game {game} (line ");
        let at = err.find(&want).unwrap_or_else(|| panic!("{want} in {err}"));
        let msg = err[at..].lines().next().unwrap_or_default();
        let over = format!(
            "ply {ply} (line {line}) \"{{}}\": the game was already over at ply {} (checkmate)",
            ply - 1
        );
        let (head, tail) = over.split_once("{}").unwrap();
        assert!(msg.contains(head) && msg.ends_with(tail), "{msg}");
    }
    assert!(err.contains("ccpd-computer-competition-big5.pgn"));
    let out = stdout(&a);
    let games = move_lists(&out);
    assert_eq!(games.len(), 167);
    // Game 11 stops after 114 plies; its last two moves stay, as written
    // (decoded from Big5), after a comment that says why, and
    // [PgnmillError] gives the same reason.
    assert_eq!(games[10].len(), 116);
    assert_eq!(games[10][114..], ["帥五進一", "卒４平５"]);
    let why = "ply 115 \"帥五進一\": the game was already over at ply 114 (checkmate)";
    let head = format!("58. {{pgnmill: not converted from here, {why}}} 帥五進一  卒４平５  *");
    assert!(out.contains(&head), "{out}");
    let tag = format!("[PgnmillError \"{}\"]", why.replace('"', "\\\""));
    assert!(out.contains(&tag), "{tag}");
}

#[test]
fn gbk_and_big5_come_out_as_utf8_with_every_tag_kept() {
    for (file, codec) in [
        ("eleeye-sample-gbk.pgn", encoding_rs::GBK),
        ("ccpd-middlegames-3-failures-big5.pgn", encoding_rs::BIG5),
    ] {
        let input = corpus().join(file);
        let raw = std::fs::read(&input).expect("read");
        let (decoded, _, errors) = codec.decode(&raw);
        assert!(!errors, "{file}");
        let out = stdout(&run(&["convert", "-q", "--to", "wxf"], &[&input]).success());
        for line in decoded.lines().filter(|l| l.starts_with('[')) {
            if line.starts_with("[Format") {
                continue;
            }
            assert!(out.contains(line.trim_end()), "{file}: {line} missing");
        }
        assert!(out.contains("[Format \"WXF\"]"), "{file}");
    }
}

#[test]
fn games_that_are_not_xiangqi_pass_through_unchanged() {
    let input = support::root().join("testdata/corpus/synthetic-crlf.pgn");
    let a = run(&["convert", "--to", "iccs"], &[&input]).success();
    assert_eq!(
        a.get_output().stdout,
        std::fs::read(&input).expect("read"),
        "chess file changed"
    );
    assert!(stderr(&a).contains("not xiangqi; copied unchanged"));
}

#[test]
fn unusable_inputs_and_outputs_exit_1_and_leave_no_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("out.pgn");
    let missing = tmp.path().join("missing.pgn");
    run(
        &["convert", "--to", "iccs", "-o", out.to_str().expect("path")],
        &[&missing],
    )
    .code(1);
    assert!(!out.exists());
    let bad_out = tmp.path().join("no-such-dir/out.pgn");
    run(
        &[
            "convert",
            "--to",
            "iccs",
            "-o",
            bad_out.to_str().expect("path"),
        ],
        &[&corpus().join(XQDB15[0])],
    )
    .code(1);
    // A complete run renames the file into place and leaves nothing else.
    run(
        &[
            "convert",
            "-q",
            "--to",
            "chinese",
            "-o",
            out.to_str().expect("path"),
        ],
        &[&corpus().join(XQDB15[0])],
    )
    .success();
    assert!(out.exists());
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, [std::ffi::OsString::from("out.pgn")]);
}

/// The whole corpora (not in the repository; run with `--ignored` where
/// `/work/shared/corpora/xiangqi` exists): the README's success table.
#[test]
#[ignore]
fn whole_corpora_match_the_readme_table() {
    let dir = Path::new("/work/shared/corpora/xiangqi");
    if !dir.exists() {
        eprintln!("skipped: {} not found", dir.display());
        return;
    }
    let (_tmp, out) = support::run_report(&[dir.to_str().expect("path")]);
    let rows = support::read_csv(&out.join("games.csv"));
    let mut failures: Vec<(String, String, String)> = Vec::new();
    let (mut games, mut ok) = (0, 0);
    for row in rows.iter().filter(|r| r["variant"] == "xiangqi") {
        games += 1;
        if row["status"] == "ok" {
            ok += 1;
        } else {
            let file = row["source"].trim_start_matches("/work/shared/corpora/xiangqi/");
            failures.push((file.to_string(), row["game"].clone(), row["status"].clone()));
        }
    }
    failures.sort();
    let expected: Vec<(String, String, String)> = [
        (
            "yvonne761-ccpd/computer-competition-big5.pgn",
            "11",
            "illegal_move",
        ),
        (
            "yvonne761-ccpd/computer-competition-big5.pgn",
            "19",
            "illegal_move",
        ),
        (
            "yvonne761-ccpd/computer-competition-big5.pgn",
            "48",
            "illegal_move",
        ),
        ("yvonne761-ccpd/middlegames-big5.pgn", "2096", "bad_fen"),
        (
            "yvonne761-ccpd/middlegames-big5.pgn",
            "2173",
            "illegal_move",
        ),
        (
            "yvonne761-ccpd/middlegames-big5.pgn",
            "2680",
            "illegal_move",
        ),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(failures, expected);
    assert_eq!((games, ok), (8937, 8931));
}

#[test]
fn stdin_and_several_inputs_give_the_same_games() {
    let a = corpus().join(XQDB15[1]);
    let b = corpus().join("eleeye-sample-gbk.pgn");
    let one = |p: &Path| stdout(&run(&["convert", "-q", "--to", "wxf"], &[p]).success());
    let (text_a, text_b) = (one(&a), one(&b));
    let piped = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(["convert", "-q", "--to", "wxf", "-"])
        .pipe_stdin(&a)
        .expect("stdin")
        .assert()
        .success();
    assert_eq!(stdout(&piped), text_a);
    let both = stdout(&run(&["convert", "-q", "--to", "wxf"], &[&a, &b]).success());
    let mut expected = move_lists(&text_a);
    expected.extend(move_lists(&text_b));
    assert_eq!(move_lists(&both), expected);
    assert_eq!(expected.len(), 16);
}

#[test]
fn real_games_convert_there_and_back_to_the_same_text() {
    // Whole texts, stopped games included: converting to any notation and
    // then to ICCS gives exactly what converting to ICCS at once gives.
    let tmp = tempfile::tempdir().expect("tmp");
    for file in [
        "ccpd-computer-competition-big5.pgn",
        "ccpd-middlegames-3-failures-big5.pgn",
        "eleeye-sample-gbk.pgn",
        "cchess-black-first.pgn",
        XQDB15[2],
    ] {
        let input = corpus().join(file);
        let direct = stdout(&run(&["convert", "-q", "--to", "iccs"], &[&input]).success());
        for to in ["wxf", "chinese", "chinese-traditional"] {
            let there = tmp.path().join(format!("{to}-{file}"));
            let text = stdout(&run(&["convert", "-q", "--to", to], &[&input]).success());
            std::fs::write(&there, text).expect("write");
            let back = stdout(&run(&["convert", "-q", "--to", "iccs"], &[&there]).success());
            assert!(back == direct, "{file} -> {to} -> iccs differs");
        }
    }
}
