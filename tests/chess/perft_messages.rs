//! What `pgnmill perft` says when it cannot count, through the binary: it
//! never suggests `-o`, which it lacks; a xiangqi FEN given without
//! `--variant xiangqi` (or a chess FEN with it) is named as such; text
//! that is no FEN board says so.

use assert_cmd::Command;

fn perft(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("pgnmill")
        .unwrap()
        .arg("perft")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn a_ten_rank_fen_without_the_variant_says_to_add_it() {
    for fen in [XIANGQI_START, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"] {
        for variant in [&[][..], &["--variant", "chess960"][..]] {
            let mut args = variant.to_vec();
            args.extend([fen, "2"]);
            let (code, out, err) = perft(&args);
            assert_eq!(code, 2, "{err}");
            assert!(out.is_empty());
            assert!(err.contains("add --variant xiangqi"), "{err}");
            assert!(!err.contains("-o"), "{err}");
        }
        // With it, the count (the CPW table's 44 at depth 1 for the start).
        let (code, out, _) = perft(&["--variant", "xiangqi", fen, "1"]);
        assert_eq!(code, 0);
        assert!(out.starts_with("Nodes searched: "), "{out}");
    }
    let (_, out, _) = perft(&["--variant", "xiangqi", XIANGQI_START, "1"]);
    assert_eq!(out, "Nodes searched: 44\n");
    // The other way round: a chess FEN with --variant xiangqi.
    let (code, _, err) = perft(&[
        "--variant",
        "xiangqi",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("a chess FEN? leave out --variant xiangqi"),
        "{err}"
    );
}

#[test]
fn text_that_is_no_fen_board_says_so() {
    for (text, word) in [("not a fen", "not"), ("Something invalid", "Something")] {
        for variant in ["chess", "chess960", "xiangqi"] {
            let (code, _, err) = perft(&["--variant", variant, text, "2"]);
            assert_eq!(code, 2);
            assert!(
                err.contains(&format!("\"{word}\" is not a FEN board")),
                "{variant}: {err}"
            );
            assert!(!err.contains("missing"), "{err}");
        }
    }
}

/// A closed standard output: perft says where its count goes, with no
/// `-o` (the other commands' message offers one).
#[test]
fn a_closed_stdout_is_named_without_suggesting_o() {
    let bin = assert_cmd::cargo::cargo_bin("pgnmill");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' perft startpos 1 >&-", bin.display()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("standard output is closed"), "{err}");
    assert!(!err.contains("-o"), "{err}");
    // --help never names an -o option either.
    let (code, help, _) = perft(&["--help"]);
    assert_eq!(code, 0);
    assert!(!help.contains("-o"), "{help}");
}

/// An en-passant square no double step can have made (here d6 with a
/// pawn still on d7, python-chess's INVALID_EP_SQUARE) is dropped, and
/// perft says so: the count is that of the position without it, which
/// python-chess 1.11.2 gives as 36 at depth 2 and 273 at depth 3 (with the
/// square kept, python-chess plays exd6 e.p. and counts 39 and 288).
#[test]
fn an_en_passant_square_no_double_step_made_is_dropped_and_said() {
    let with = "4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 2";
    let without = "4k3/3p4/8/3pP3/8/8/8/4K3 w - - 0 2";
    for (depth, nodes) in [("2", "36"), ("3", "273")] {
        let (code, out, err) = perft(&[with, depth]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.ends_with(&format!("Nodes searched: {nodes}\n")),
            "{out}"
        );
        assert!(
            err.contains("the en-passant square d6 is dropped: no double step can have made it"),
            "{err}"
        );
        let (_, out, err) = perft(&[without, depth]);
        assert!(
            out.ends_with(&format!("Nodes searched: {nodes}\n")),
            "{out}"
        );
        assert!(!err.contains("dropped"), "{err}");
    }
}
