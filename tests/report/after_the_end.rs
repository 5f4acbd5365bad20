//! Moves after the end of a game, through `pgnmill report`: a move played
//! after a checkmate or stalemate says that the game was already over (the
//! ply of the mate or stalemate, python-chess's `game_over_ply`) and the
//! recorded results are still held against that end; a null move passes
//! over the end as python-chess plays it (chess), and stops a xiangqi
//! replay, which has no null move (pyffish refuses `0000`). The ply
//! numbers and final positions below were read off python-chess 1.11.2
//! and pyffish 0.0.90 (testdata/gen/outcomes_expected.py and
//! xiangqi_outcomes_expected.py hold the same games among their cases).

use crate::support;

use std::collections::HashMap;

type Row = HashMap<String, String>;

/// The rows of `pgnmill report` over `pgn`.
fn rows(pgn: &str) -> Vec<Row> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.pgn");
    std::fs::write(&input, pgn).expect("write input");
    let (_tmp, out) = support::run_report(&["--moves", input.to_str().expect("utf-8 path")]);
    support::read_csv(&out.join("games.csv"))
}

fn game(tags: &str, movetext: &str) -> String {
    let tags = if tags.is_empty() {
        String::new()
    } else {
        format!("{tags}\n")
    };
    format!("[Event \"t\"]\n{tags}\n{movetext}\n\n")
}

const FOOL: &str = "1. f3 e5 2. g4 Qh4#";
const STALEMATE: &str = "[FEN \"7k/5K2/8/8/8/8/6Q1/8 w - - 0 80\"]";

#[test]
fn a_move_after_a_checkmate_says_the_game_was_over() {
    let pgn = [
        game("[Result \"1-0\"]", &format!("{FOOL} 3. Nf3 1-0")),
        game("[Result \"0-1\"]", &format!("{FOOL} 3. Nf3 Nc6 0-1")),
        // Black mates from a position, two moves in.
        game(
            "[Result \"*\"]\n[FEN \"r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 30\"]",
            "30... Rb8 31. Kh1 Rb1# 32. Kg1 *",
        ),
    ]
    .concat();
    let rows = rows(&pgn);
    assert_eq!(rows.len(), 3);
    let expect = [
        (
            4,
            "move 3. Nf3, ply 5 (line 4): the game was already over at ply 4 (checkmate)",
            "Result 1-0 but White is checkmated",
        ),
        (
            4,
            "move 3. Nf3, ply 5 (line 9): the game was already over at ply 4 (checkmate)",
            "",
        ),
        (
            3,
            "move 32. Kg1, ply 4 (line 15): the game was already over at ply 3 (checkmate)",
            "Result * but White is checkmated",
        ),
    ];
    for (r, (plies, error, conflict)) in rows.iter().zip(expect) {
        assert_eq!(r["status"], "illegal_move");
        assert_eq!(r["plies"], plies.to_string());
        assert_eq!(r["error"], error);
        assert_eq!(r["termination"], "checkmate");
        assert_eq!(r["game_over_ply"], plies.to_string());
        assert_eq!(r["result_conflict"], conflict);
    }
}

#[test]
fn a_move_after_a_stalemate_says_the_game_was_over() {
    let pgn = [
        game(&format!("[Result \"1-0\"]\n{STALEMATE}"), "80. Qg6 Kh7 1-0"),
        game(
            &format!("[Result \"1/2-1/2\"]\n{STALEMATE}"),
            "80. Qg6 Kg8 81. Qe8# 1/2-1/2",
        ),
    ]
    .concat();
    let rows = rows(&pgn);
    for (r, conflict) in rows
        .iter()
        .zip(["Result 1-0 but the final position is stalemate", ""])
    {
        assert_eq!(r["status"], "illegal_move");
        assert!(
            r["error"].ends_with("the game was already over at ply 1 (stalemate)"),
            "{}",
            r["error"]
        );
        assert_eq!(r["termination"], "stalemate");
        assert_eq!(r["result_conflict"], conflict);
    }
}

/// An illegal move on an open board says why the move is wrong, and its
/// game is not held against its results.
#[test]
fn an_illegal_move_before_the_end_is_no_conflict() {
    let rows = rows(&game("[Result \"1-0\"]", "1. e4 e5 2. Ke3 0-1"));
    let r = &rows[0];
    assert_eq!(r["status"], "illegal_move");
    assert_eq!(
        r["error"],
        "move 2. Ke3, ply 3 (line 4): no king can reach e3"
    );
    assert_eq!(r["result_conflict"], "");
}

/// Where the replay stops, the movetext ends for it: at the result, glued
/// to the last move or not (the standard's end of a game), and at a move
/// it cannot play (the error the row reports). A comment that never
/// closes after that token is not read, so not reported, while one before
/// it is; a result after a move past the mate is not read either, so not
/// held against the mate.
#[test]
fn nothing_after_the_token_the_replay_stops_at_is_read() {
    let unclosed =
        "the comment opened at line 3 never closes: the rest of the game was read as comment";
    let cases = [
        ("", "1. e4 e5 * { never closed", "ok", "2", "", ""),
        ("", "1. e4 e5* { never closed", "ok", "2", "", ""),
        (
            "",
            "1. e4 e5 2. Ke3 { never closed",
            "illegal_move",
            "2",
            "move 2. Ke3, ply 3 (line 3): no king can reach e3",
            "",
        ),
        (
            "",
            "1. e4 e5 2. Nf3 { never closed",
            "parse_error",
            "3",
            unclosed,
            "",
        ),
        (
            "[Result \"0-1\"]",
            &format!("{FOOL} 3. Nf3 1-0"),
            "illegal_move",
            "4",
            "move 3. Nf3, ply 5 (line 4): the game was already over at ply 4 (checkmate)",
            "",
        ),
    ];
    for (tags, movetext, status, plies, error, conflict) in cases {
        let rows = rows(&game(tags, movetext));
        assert_eq!(rows.len(), 1, "{movetext}");
        let r = &rows[0];
        let got = [
            &r["status"],
            &r["plies"],
            &r["error"],
            &r["result_conflict"],
        ];
        assert_eq!(got, [status, plies, error, conflict], "{movetext}");
    }
}

#[test]
fn a_null_move_passes_over_a_stalemate_and_play_goes_on() {
    let pgn = [
        game(STALEMATE, "80. Qg6 -- 81. Qg5 *"),
        game("", &format!("{FOOL} 3. Z0 Qxh2 *")),
        game("", "1. e4 -- 2. 0000 @@@@ 3. Nf3 *"),
    ]
    .concat();
    let rows = rows(&pgn);
    let expect = [
        (
            "ok",
            "3",
            "1",
            "stalemate",
            "7k/5K2/8/6Q1/8/8/8/8 b - - 3 81",
            "g2g6 0000 g6g5",
        ),
        (
            "ok",
            "6",
            "4",
            "checkmate",
            "rnb1kbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2q/RNBQKBNR w KQkq - 0 4",
            "f2f3 e7e5 g2g4 d8h4 0000 h4h2",
        ),
        (
            "ok",
            "5",
            "",
            "",
            "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 4 3",
            "e2e4 0000 0000 0000 g1f3",
        ),
    ];
    for (r, (status, plies, over_ply, over, fen, moves)) in rows.iter().zip(expect) {
        assert_eq!(r["status"], status, "{}", r["error"]);
        assert_eq!(r["plies"], plies);
        assert_eq!(r["game_over_ply"], over_ply);
        assert_eq!(r["game_over"], over);
        assert_eq!(r["final_fen"], fen);
        assert_eq!(r["moves"], moves);
        assert_eq!(r["termination"], "none");
    }
}

/// A null move after a pass in check: python-chess would let White take
/// the king; pgnmill stops there (docs/chess.md, Movetext).
#[test]
fn a_king_capture_after_a_pass_in_check_stops_the_replay() {
    let rows = rows(&game("", "1. e4 f5 2. Qh5+ -- 3. Qxe8 *"));
    let r = &rows[0];
    assert_eq!(r["status"], "illegal_move");
    assert_eq!(r["plies"], "4");
    assert!(
        r["error"].starts_with("move 3. Qxe8, ply 5"),
        "{}",
        r["error"]
    );
}

#[test]
fn xiangqi_moves_after_the_end_and_null_moves() {
    let pgn = [
        // Red mates with a0a9 (pyffish: no legal move, black in check).
        game(
            "[Variant \"xiangqi\"]\n[Result \"0-1\"]\n[FEN \"3k5/1R7/9/9/9/9/9/9/9/R4K3 w - - 0 1\"]",
            "1. a0a9 d9e9 0-1",
        ),
        game("[Variant \"xiangqi\"]\n[Result \"1-0\"]", "1. h2e2 -- 2. h0g2 1-0"),
        game("[Variant \"xiangqi\"]", "1. h2e2 h9g7 2. Z0 *"),
    ]
    .concat();
    let rows = rows(&pgn);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[0]["error"],
        "move 1... d9e9 (将4平5), ply 2 (line 6): the game was already over at ply 1 (checkmate)"
    );
    assert_eq!(
        rows[0]["result_conflict"],
        "Result 0-1 but Black is checkmated"
    );
    for (r, plies, error) in [
        (&rows[1], "1", "move 1... --, ply 2 (line 12)"),
        (&rows[2], "2", "move 2. Z0, ply 3 (line 17)"),
    ] {
        assert_eq!(r["status"], "illegal_move");
        assert_eq!(r["plies"], plies);
        assert_eq!(
            r["error"],
            format!("{error}: a null move, which xiangqi does not have (pyffish refuses one too)")
        );
        assert_eq!(r["result_conflict"], "");
    }
}
