//! The `problems` column of `pgnmill fen` and the problems `pgnmill perft`
//! names on stderr, through the binary, against python-chess 1.11.2's
//! `Board.status()` and, for xiangqi, the point sets pyffish's legal moves
//! reach (testdata/gen/fen_expected.py writes both expected files): the
//! public suites of testdata/fen/ and the FENs crafted for every word
//! (testdata/fen/problems.epd).

use std::collections::BTreeMap;
use std::path::PathBuf;

type Row = BTreeMap<String, String>;

/// A file of testdata/fen/.
fn fen_file(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "testdata", "fen", name]
        .iter()
        .collect()
}

/// The rows of a CSV text.
fn csv_rows(text: &[u8]) -> Vec<Row> {
    csv::Reader::from_reader(text)
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("CSV rows")
}

/// `pgnmill` with `args`, which must succeed: its stdout and stderr.
fn run(args: &[&str], stdin: &str) -> (Vec<u8>, String) {
    let out = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .args(args)
        .write_stdin(stdin)
        .assert()
        .success();
    let o = out.get_output();
    (
        o.stdout.clone(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Compares status and problems of every record of every run of
/// `expected` (a file of fen_expected.py) with `pgnmill fen`'s rows.
fn compare(expected: &str) -> Vec<Row> {
    let expected = csv_rows(&std::fs::read(fen_file(expected)).expect("expected file"));
    let mut runs: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for e in &expected {
        runs.entry((e["file"].clone(), e["mode"].clone()))
            .or_default()
            .push(e);
    }
    for ((file, mode), want) in runs {
        let path = fen_file(&file);
        let (stdout, _) = run(
            &[
                "fen",
                "-q",
                "--variant",
                &mode,
                path.to_str().expect("path"),
            ],
            "",
        );
        let got = csv_rows(&stdout);
        assert_eq!(got.len(), want.len(), "{file} ({mode})");
        for (g, w) in got.iter().zip(want) {
            let at = format!("{file}:{} ({mode})", w["line"]);
            assert_eq!(g["line"], w["line"], "{at}");
            assert_eq!(g["status"], w["status"], "{at}: {}", g["error"]);
            assert_eq!(g["problems"], w["problems"], "{at}: {}", g["input"]);
        }
    }
    expected
}

#[test]
fn problems_of_the_public_suites_match_python_chess_and_pyffish() {
    let expected = compare("expected.csv");
    // Thirteen of the suites' positions have a check python-chess calls
    // impossible: the comparison is not one of empty columns only.
    let impossible = expected
        .iter()
        .filter(|r| r["problems"] == "impossible_check")
        .count();
    assert_eq!(impossible, 13);
}

#[test]
fn every_word_of_the_crafted_fens_matches_python_chess_and_pyffish() {
    let expected = compare("problems-expected.csv");
    let words: std::collections::BTreeSet<&str> = expected
        .iter()
        .flat_map(|r| r["problems"].split(';'))
        .filter(|w| !w.is_empty())
        .collect();
    let all = [
        "opposite_check",
        "pawns_on_backrank",
        "invalid_ep_square",
        "too_many_checkers",
        "impossible_check",
        "too_many_pieces",
        "too_many_pawns",
        "flying_general",
        "advisor_off_palace",
        "elephant_off_point",
        "pawn_behind_start",
        "king_off_palace",
    ];
    for w in all {
        assert!(words.contains(w), "{w} never expected");
    }
    // Xiangqi words on bad_fen rows too; chess ones only on ok rows.
    assert!(expected.iter().any(|r| r["variant"] == "xiangqi"
        && r["status"] == "bad_fen"
        && !r["problems"].is_empty()));
}

/// A negative clock was read as an EPD operation and replaced by 0: it is
/// a bad FEN, as python-chess says ("halfmove clock cannot be negative").
#[test]
fn a_negative_clock_is_a_bad_fen() {
    let (stdout, _) = run(
        &["fen", "-q"],
        "4k3/8/8/8/8/8/8/4K3 w - - -5 1\n4k3/8/8/8/8/8/8/4K3 w - - 5 1\n",
    );
    let got = csv_rows(&stdout);
    assert_eq!(got[0]["status"], "bad_fen");
    assert!(got[0]["error"].contains("\"-5\""), "{}", got[0]["error"]);
    assert_eq!(got[1]["status"], "ok");
    assert_eq!(got[1]["fen"], "4k3/8/8/8/8/8/8/4K3 w - - 5 1");
}

/// perft counts a position with problems and names them on stderr; a
/// position without any says nothing there. The counts are python-chess's
/// (a perft over `Board.legal_moves`, depth 3): 170 for both.
#[test]
fn perft_names_the_problems_on_stderr_and_still_counts() {
    for (fen, word) in [
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "(pawns_on_backrank)"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "(invalid_ep_square)"),
    ] {
        let (stdout, err) = run(&["perft", fen, "3"], "");
        assert_eq!(String::from_utf8_lossy(&stdout), "Nodes searched: 170\n");
        assert!(err.contains(word), "{err}");
        assert!(err.contains("counting it anyway"), "{err}");
    }
    // Xiangqi: a red pawn behind its start rank.
    let xiangqi = "3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1";
    let (_, err) = run(&["perft", "--variant", "xiangqi", xiangqi, "1"], "");
    assert!(err.contains("(pawn_behind_start)"), "{err}");
    let (_, err) = run(&["perft", "startpos", "1"], "");
    assert!(err.is_empty(), "{err}");
}

/// The two moves docs/chess.md says pgnmill does not make in positions
/// that cannot arise: the capture of a king (`opposite_check`) and a double
/// step from a pawn's own first rank (`pawns_on_backrank`). The counts are
/// python-chess 1.11.2's perft over `Board.legal_moves` with those moves
/// left out (python-chess's own: 27, 56, 1372 and 7, 35, 285):
///
/// ```python
/// def perft(b, d):
///     if d == 0: return 1
///     n = 0
///     for m in list(b.legal_moves):
///         if b.piece_type_at(m.to_square) == chess.KING: continue
///         if (b.piece_type_at(m.from_square) == chess.PAWN
///                 and abs(m.to_square - m.from_square) == 16
///                 and chess.square_rank(m.from_square) in (0, 7)): continue
///         b.push(m); n += perft(b, d - 1); b.pop()
///     return n
/// ```
#[test]
fn perft_makes_no_king_capture_nor_a_double_step_from_the_first_rank() {
    for (fen, counts) in [
        ("4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", [26, 56, 1372]),
        ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", [6, 30, 230]),
    ] {
        for (depth, count) in (1..).zip(counts) {
            let (stdout, _) = run(&["perft", fen, &depth.to_string()], "");
            assert_eq!(
                String::from_utf8_lossy(&stdout),
                format!("Nodes searched: {count}\n"),
                "{fen} depth {depth}"
            );
        }
    }
}
