//! Pathological inputs (docs/pgn-dialect.md §6): every file of `testdata/malformed/` gives
//! the rows `expected.csv` says, and the big shapes generated here at run
//! time (huge comment, huge line, deep variations, very long game, truncated
//! zstd) give correct rows, in time linear in their size.
//!
//! The default sizes keep each test to a few seconds in release; the sizes
//! the issue names (50 MB comment, 200 MB line) run with `--ignored`.

use crate::support;

use assert_cmd::Command;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

type Row = HashMap<String, String>;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_rows(path: &Path) -> Vec<Row> {
    support::read_csv(path)
}

/// Runs `pgnmill report --quiet` on `input` into a fresh folder; asserts exit
/// 0 and a finished report; returns the rows and stderr.
fn report(input: &Path, extra: &[&str]) -> (Vec<Row>, String) {
    let run = support::report_run(&[input], extra);
    assert_eq!(run.code, Some(0), "{input:?}: {}", run.stderr);
    assert!(run.out.join("summary.json").is_file(), "no summary.json");
    (run.rows(), run.stderr)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write test input");
    p
}

/// `Nf3 Nf6 Ng1 Ng8` `cycles` times: every 4 plies the start position again.
fn knight_shuffle(cycles: usize, numbered: bool) -> String {
    let mut s = String::with_capacity(cycles * 40);
    for i in 0..cycles {
        if numbered {
            let n = 2 * i + 1;
            s.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
        } else {
            s.push_str("Nf3 Nf6 Ng1 Ng8 ");
        }
    }
    s
}

/// What a knight shuffle of `cycles` cycles must give: the start position
/// occurs `cycles + 1` times, first three times at ply 8; halfmove clock and
/// move number follow from the ply count (FEN rules).
fn assert_shuffle_row(row: &Row, cycles: usize) {
    let plies = 4 * cycles;
    assert_eq!(row["status"], "ok", "{}", row["error"]);
    assert_eq!(row["plies"], plies.to_string());
    let fen = format!(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {plies} {}",
        plies / 2 + 1
    );
    assert_eq!(row["final_fen"], fen);
    assert_eq!(row["rep_max_ep_always"], (cycles + 1).to_string());
    assert_eq!(row["rep_max_ep_legal"], (cycles + 1).to_string());
    let threefold = if cycles >= 2 { "8" } else { "" };
    assert_eq!(row["threefold_ply_ep_always"], threefold);
}

#[test]
fn small_malformed_files_give_expected_rows() {
    let dir = root().join("testdata/malformed");
    let expected = read_rows(&dir.join("expected.csv"));
    let mut by_file: Vec<(String, Vec<Row>)> = Vec::new();
    for row in expected {
        match by_file.iter_mut().find(|(f, _)| *f == row["file"]) {
            Some((_, rows)) => rows.push(row),
            None => by_file.push((row["file"].clone(), vec![row])),
        }
    }
    assert!(by_file.len() >= 7);
    for (file, want) in by_file {
        let (got, _) = report(&dir.join(&file), &[]);
        assert_eq!(got.len(), want.len(), "{file}: row count");
        for (g, w) in got.iter().zip(&want) {
            let at = format!("{file} game {}", w["game"]);
            assert_eq!(g["game"], w["game"], "{at}");
            assert_eq!(g["line"], w["line"], "{at}: line");
            assert_eq!(g["status"], w["status"], "{at}: status ({})", g["error"]);
            assert_eq!(g["plies"], w["plies"], "{at}: plies");
            if w["error_contains"].is_empty() {
                assert_eq!(g["error"], "", "{at}");
            } else {
                assert!(
                    g["error"].contains(&w["error_contains"]),
                    "{at}: error {:?} lacks {:?}",
                    g["error"],
                    w["error_contains"]
                );
            }
        }
    }
}

/// Random bytes are binary data, not PGN: no rows of binary text, and
/// not silently either (docs/reports.md, "Inputs").
#[test]
fn binary_file_renamed_pgn_is_named_not_read() {
    let input = root().join("testdata/malformed/binary.pgn");
    let (rows, stderr) = report(&input, &[]);
    assert!(rows.is_empty(), "{rows:?}");
    let line = format!("{}: binary data, not PGN", input.display());
    assert_eq!(stderr.matches(&line).count(), 1, "{stderr}");
}

#[test]
fn generated_binary_garbage_never_panics() {
    // xorshift bytes: every byte value, no structure; 4 MB.
    let tmp = tempfile::tempdir().unwrap();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes: Vec<u8> = (0..4 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let p = write(tmp.path(), "noise.pgn", &bytes);
    let (rows, _) = report(&p, &[]);
    for r in &rows {
        assert_ne!(r["status"], "ok", "noise replayed as a game: {r:?}");
    }
}

fn huge_comment(mb: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = String::from("[Event \"big comment\"]\n[Result \"*\"]\n\n1. e4 {");
    let mut newlines = 0;
    let line = "x".repeat(99);
    while s.len() < mb << 20 {
        s.push_str(&line);
        s.push('\n');
        newlines += 1;
    }
    s.push_str("} e5 2. Nf3 *\n\n[Event \"after\"]\n\n1. d4 *\n");
    let p = write(tmp.path(), "comment.pgn", s.as_bytes());
    let (rows, _) = report(&p, &[]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[0]["plies"], "3");
    // Game 1 spans lines 1..=4+newlines, a blank line, then game 2.
    assert_eq!(rows[1]["line"], (4 + newlines + 2).to_string());
    assert_eq!(rows[1]["plies"], "1");
}

#[test]
fn comment_of_20_mb() {
    huge_comment(20);
}

#[test]
#[ignore = "a 50 MB comment, slow; run with --ignored"]
fn comment_of_50_mb() {
    huge_comment(50);
}

fn huge_line(mb: usize, stdin: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let cycles = (mb << 20) / 16;
    let mut s = String::from("[Event \"one line\"] ");
    s.push_str(&knight_shuffle(cycles, false));
    s.push('*'); // no newline anywhere after the tag
    let p = write(tmp.path(), "line.pgn", s.as_bytes());
    let rows = if stdin {
        let out = tmp.path().join("r");
        Command::cargo_bin("pgnmill")
            .unwrap()
            .args(["report", "--quiet", "-o"])
            .arg(&out)
            .arg("-")
            .pipe_stdin(&p)
            .unwrap()
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success();
        read_rows(&out.join("games.csv"))
    } else {
        report(&p, &[]).0
    };
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["event"], "one line");
    assert_shuffle_row(&rows[0], cycles);
}

#[test]
fn line_of_20_mb_without_newline() {
    huge_line(20, false);
}

#[test]
fn line_of_20_mb_without_newline_from_stdin() {
    huge_line(20, true);
}

#[test]
#[ignore = "a 200 MB line, slow; run with --ignored"]
fn line_of_200_mb_without_newline() {
    huge_line(200, false);
}

#[test]
fn variations_nested_100000_deep() {
    let tmp = tempfile::tempdir().unwrap();
    let depth = 100_000;
    let mut closed = String::from("[Event \"deep\"]\n\n1. e4 ");
    closed.push_str(&"( 1. d4 ".repeat(depth));
    closed.push_str(&")".repeat(depth));
    closed.push_str(" e5 2. Nf3 *\n\n");
    // Never closed: the variation holds the rest of the game.
    closed.push_str("[Event \"deep, unclosed\"]\n\n1. e4 ");
    closed.push_str(&"(".repeat(depth));
    closed.push_str(" e5 2. Nf3 *\n\n[Event \"after\"]\n\n1. c4 *\n");
    let p = write(tmp.path(), "deep.pgn", closed.as_bytes());
    let (rows, _) = report(&p, &[]);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["plies"].as_str()),
        ("ok", "3")
    );
    // Cut at the next tag section, the game ends inside its variation.
    assert_eq!(
        (rows[1]["status"].as_str(), rows[1]["plies"].as_str()),
        ("parse_error", "1")
    );
    assert!(rows[1]["error"].contains("variation opened at line 7 never closes"));
    assert_eq!(
        (rows[2]["status"].as_str(), rows[2]["plies"].as_str()),
        ("ok", "1")
    );
}

#[test]
fn game_of_20000_plies() {
    let tmp = tempfile::tempdir().unwrap();
    let cycles = 5000;
    let mut s = String::from("[Event \"long\"]\n[Result \"*\"]\n\n");
    // Line breaks every few moves, as exports wrap movetext.
    for (i, chunk) in knight_shuffle(cycles, true).split(' ').enumerate() {
        s.push_str(chunk);
        s.push(if i % 12 == 11 { '\n' } else { ' ' });
    }
    s.push_str("*\n");
    let p = write(tmp.path(), "long.pgn", s.as_bytes());
    let (rows, _) = report(&p, &["--moves"]);
    assert_eq!(rows.len(), 1);
    assert_shuffle_row(&rows[0], cycles);
    let moves: Vec<&str> = rows[0]["moves"].split(' ').collect();
    assert_eq!(moves.len(), 20_000);
    assert_eq!(&moves[..4], ["g1f3", "g8f6", "f3g1", "f6g8"]);
}

/// `count` short games with their known ply counts.
fn normal_games(count: usize) -> (String, Vec<usize>) {
    let lines = [
        (
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2",
            10,
        ),
        (
            "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 1-0",
            12,
        ),
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", 7),
    ];
    let mut s = String::new();
    let mut plies = Vec::new();
    for i in 0..count {
        let (text, n) = lines[i % lines.len()];
        s.push_str(&format!(
            "[Event \"g{i}\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{text}\n\n"
        ));
        plies.push(n);
    }
    (s, plies)
}

#[test]
fn truncated_zstd_reports_games_before_the_cut_and_warns() {
    let tmp = tempfile::tempdir().unwrap();
    let (text, plies) = normal_games(3000);
    let packed = zstd::encode_all(text.as_bytes(), 3).expect("zstd");
    let cut = &packed[..packed.len() / 2];
    let p = write(tmp.path(), "cut.pgn.zst", cut);
    let (rows, stderr) = report(&p, &[]);
    assert!(!rows.is_empty(), "games before the cut must be reported");
    assert!(
        rows.len() < plies.len(),
        "a cut stream cannot hold every game"
    );
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["event"], format!("g{i}"));
        assert_eq!(r["plies"], plies[i].to_string());
        assert_eq!(r["status"], "ok");
    }
    assert!(stderr.contains("warning"), "{stderr}");
    assert!(
        stderr.contains("cut.pgn.zst"),
        "warning names the file: {stderr}"
    );
}

fn seconds_for(path: &Path) -> f64 {
    let t = Instant::now();
    let _ = report(path, &["-j", "1"]);
    t.elapsed().as_secs_f64()
}

/// Time per MB on pathological files stays within a small factor of a
/// normal file's: no stage is quadratic in a game's or a line's length.
#[test]
fn time_is_linear_on_pathological_input() {
    let tmp = tempfile::tempdir().unwrap();
    let mb = 8usize;
    let (mut normal, _) = normal_games(1);
    while normal.len() < mb << 20 {
        normal.push_str(&normal_games(1000).0);
    }
    let shapes: Vec<(&str, Vec<u8>)> = vec![
        // One unterminated comment, no newline: the splitter's window must
        // grow, not rescan from the start at every step.
        ("open-comment", {
            let mut v = b"1. e4 {".to_vec();
            v.resize(mb << 20, b'x');
            v
        }),
        // Variations opened and never closed, on one line.
        ("open-parens", {
            let mut v = b"[Event \"p\"]\n1. e4 ".to_vec();
            v.resize(mb << 20, b'(');
            v
        }),
        // Tag lines that never close, one after another.
        (
            "open-tags",
            "[Event \"x\n".repeat((mb << 20) / 10).into_bytes(),
        ),
        // A single token as long as the file.
        ("one-token", {
            let mut v = b"1. ".to_vec();
            v.resize(mb << 20, b'e');
            v
        }),
        // Blank lines only between a result and the next game.
        ("blank-lines", {
            let mut v = b"1. e4 e5 ".to_vec();
            v.resize(mb << 20, b'\n');
            v
        }),
    ];
    let normal_path = write(tmp.path(), "normal.pgn", normal.as_bytes());
    let normal_per_mb = seconds_for(&normal_path) / (normal.len() as f64 / 1e6);
    for (name, bytes) in shapes {
        let p = write(tmp.path(), &format!("{name}.pgn"), &bytes);
        let per_mb = seconds_for(&p) / (bytes.len() as f64 / 1e6);
        let ratio = per_mb / normal_per_mb;
        eprintln!("{name}: {per_mb:.4} s/MB, normal {normal_per_mb:.4} s/MB, ratio {ratio:.2}");
        assert!(
            ratio < 10.0,
            "{name}: {ratio:.1} times slower per MB than normal games"
        );
    }
}
