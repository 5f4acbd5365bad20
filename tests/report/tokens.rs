//! No movetext token is dropped without a trace (docs/pgn-dialect.md §4):
//! the annotation glyphs are skipped, any other token stops the replay
//! there, naming the move as a person counts it, the ply, the line and why:
//! `parse_error` for a token that is no move at all (python-chess's
//! `InvalidMoveError`), `illegal_move` for a move the position does not
//! allow (`IllegalMoveError`, `AmbiguousMoveError`). Checked on the rows of
//! `pgnmill report`.

use crate::support;

use std::collections::HashMap;
use std::path::Path;

type Row = HashMap<String, String>;

/// The rows `pgnmill report` writes for `pgn` (extra arguments first).
fn rows(pgn: &str, extra: &[&str]) -> Vec<Row> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.pgn");
    std::fs::write(&input, pgn).expect("write input");
    let path = input.to_str().expect("utf-8 path");
    let mut args: Vec<&str> = extra.to_vec();
    args.push(path);
    let (_tmp, out) = support::run_report(&args);
    support::read_csv(&Path::new(&out).join("games.csv"))
}

/// One game's row: status, plies, error.
fn one(pgn: &str, extra: &[&str]) -> (String, u32, String) {
    let rows = rows(pgn, extra);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = &rows[0];
    (
        r["status"].clone(),
        r["plies"].parse().expect("plies"),
        r["error"].clone(),
    )
}

/// The row of a game that must stop at a move it cannot play: its plies
/// and error.
fn stops(pgn: &str, extra: &[&str]) -> (u32, String) {
    let (status, plies, error) = one(pgn, extra);
    assert_eq!(status, "illegal_move", "{error}");
    (plies, error)
}

/// The row of a game that must stop at a token that is no move at all: its
/// plies and error.
fn not_a_move(pgn: &str, extra: &[&str]) -> (u32, String) {
    let (status, plies, error) = one(pgn, extra);
    assert_eq!(status, "parse_error", "{error}");
    (plies, error)
}

fn game(movetext: &str) -> String {
    format!("[Event \"t\"]\n[White \"w\"]\n\n{movetext}\n")
}

#[test]
fn a_word_between_moves_stops_the_game_there() {
    let (status, plies, error) = one(&game("1. e4 foo e5 *"), &[]);
    assert_eq!(status, "parse_error");
    assert_eq!(plies, 1);
    assert_eq!(error, "move 1... foo, ply 2 (line 4): not a move");
}

#[test]
fn a_typo_is_blamed_not_the_move_after_it() {
    let (plies, error) = not_a_move(&game("1. e4 e5 2. Nf9 Nc6 *"), &[]);
    assert_eq!(plies, 2);
    assert_eq!(error, "move 2. Nf9, ply 3 (line 4): not a move");
    let (plies, error) = not_a_move(&game("1. e4 E5 2. Nf3 *"), &[]);
    assert_eq!(plies, 1);
    assert_eq!(error, "move 1... E5, ply 2 (line 4): not a move");
}

#[test]
fn descriptive_notation_is_not_an_empty_ok_game() {
    let (plies, error) = not_a_move(&game("1. P-K4 P-K4 2. N-KB3 *"), &[]);
    assert_eq!(plies, 0);
    assert_eq!(error, "move 1. P-K4, ply 1 (line 4): not a move");
}

#[test]
fn xiangqi_replayed_as_chess_is_not_an_empty_ok_game() {
    let pgn = game("1. 炮二平五 馬８進７ 2. 馬二進三 *");
    let (status, plies, _) = one(&pgn, &[]);
    assert_eq!((status.as_str(), plies), ("ok", 3), "as xiangqi it replays");
    let (plies, error) = not_a_move(&pgn, &["--variant", "chess"]);
    assert_eq!(plies, 0);
    assert_eq!(error, "move 1. 炮二平五, ply 1 (line 4): not a move");
    // WXF too.
    let (plies, error) = not_a_move(&game("1. C2.5 H8+7 *"), &["--variant", "chess"]);
    assert_eq!(plies, 0);
    assert_eq!(error, "move 1. C2.5, ply 1 (line 4): not a move");
}

#[test]
fn the_known_glyphs_are_skipped() {
    let glyphs = [
        "!", "?", "!!", "??", "!?", "?!", "+/=", "=/+", "+/-", "-/+", "+-", "-+", "=", "∞", "=/∞",
        "N", "TN", "RR", "□", "Δ", "⇆", "±", "∓", "⩲", "⩱", "inf", "e.p.",
    ];
    let text = format!("1. e4 {} e5 2. Nf3 *", glyphs.join(" "));
    let (status, plies, error) = one(&game(&text), &[]);
    assert_eq!((status.as_str(), plies), ("ok", 3), "{error}");
    // Each glyph alone, after a move of either side.
    for g in glyphs {
        let (status, plies, error) = one(&game(&format!("1. e4 e5 {g} 2. Nf3 {g} Nc6 *")), &[]);
        assert_eq!((status.as_str(), plies), ("ok", 4), "{g}: {error}");
    }
}

/// An en-passant mark glued to its capture, with or without its dots
/// (`exd6ep`, pgn-extract's spelling), is part of the move: the game
/// replays to its end, to the position python-chess 1.11.2's PGN reader
/// gives for each of these texts.
#[test]
fn an_en_passant_mark_glued_to_the_capture_is_read() {
    for capture in ["exd6ep", "exd6e.p", "exd6e.p.", "exd6ep+"] {
        let text = game(&format!("1. e4 Nf6 2. e5 d5 3. {capture} Qxd6 *"));
        let rows = rows(&text, &[]);
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(
            (r["status"].as_str(), r["plies"].as_str()),
            ("ok", "6"),
            "{capture}: {}",
            r["error"]
        );
        assert_eq!(
            r["final_fen"], "rnb1kb1r/ppp1pppp/3q1n2/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4",
            "{capture}"
        );
    }
}

#[test]
fn a_move_number_is_counted_from_the_fen() {
    let pgn = "[Event \"t\"]\n[SetUp \"1\"]\n\
               [FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12\"]\n\n\
               12... e5 13. Nf3 Nf6 14. Bc4 Kf9 *\n";
    let (plies, error) = not_a_move(pgn, &[]);
    assert_eq!(plies, 4);
    assert_eq!(error, "move 14... Kf9, ply 5 (line 5): not a move");
}

/// A `[FEN]` that leaves the side not to move in check (python-chess's
/// `opposite_check`) lets a move land on the enemy king: python-chess plays
/// that capture (`chess.Board("k7/8/1K6/8/8/8/8/7Q w - - 0 1")` lists
/// `h1a8` among its legal moves), pgnmill stops there, saying why rather
/// than that no queen can reach a square one can.
#[test]
fn a_capture_of_the_king_says_why_it_stops() {
    let pgn = "[Event \"t\"]\n[FEN \"k7/8/1K6/8/8/8/8/7Q w - - 0 1\"]\n\n1. Qxa8 *\n";
    let (status, plies, error) = one(pgn, &[]);
    assert_eq!((status.as_str(), plies), ("illegal_move", 0));
    assert_eq!(
        error,
        "move 1. Qxa8, ply 1 (line 4): the black king on a8 cannot be captured: \
         the position before the move cannot arise in a game"
    );
}

/// A move onto a square the mover's own piece holds says so: the knight
/// can reach e2, the square is taken (python-chess refuses `Ne2` from the
/// start as an illegal move too).
#[test]
fn a_move_onto_an_own_piece_names_the_piece() {
    let (plies, error) = stops(&game("1. Ne2 *"), &[]);
    assert_eq!(plies, 0);
    assert_eq!(error, "move 1. Ne2, ply 1 (line 4): e2 holds a white pawn");
}

#[test]
fn an_illegal_move_names_its_token_once() {
    let (plies, error) = stops(&game("1. e4 e5\n2. Ke3 *"), &[]);
    assert_eq!(plies, 2);
    assert_eq!(error, "move 2. Ke3, ply 3 (line 5): no king can reach e3");
    // Kernel messages that began with the token no longer repeat it.
    let pgn = "[Event \"t\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8 *\n";
    let (status, _, error) = one(pgn, &[]);
    assert_eq!(status, "illegal_move");
    assert_eq!(
        error,
        "move 1. a8, ply 1 (line 4): a pawn reaching the last rank must name its promotion piece"
    );
}

#[test]
fn a_bad_fen_names_the_line_of_its_tag() {
    let pgn = "[Event \"t\"]\n[White \"w\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
    let (status, plies, error) = one(pgn, &[]);
    assert_eq!((status.as_str(), plies), ("bad_fen", 0));
    assert!(
        error.starts_with("line 3 [FEN \"8/8/8 w - - 0 1\"]: "),
        "{error}"
    );
}

#[test]
fn a_game_without_readable_moves_is_never_ok() {
    // Only words: no move could be read, and the game says where.
    let (plies, error) = not_a_move(&game("White resigned after a long think *"), &[]);
    assert_eq!(plies, 0);
    assert_eq!(error, "move 1. White, ply 1 (line 4): not a move");
    // Stray text with no tags is still no game, and has no move number.
    let rows = rows("hello world\n", &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["status"], "parse_error");
    assert_eq!(
        rows[0]["error"],
        "line 1: stray text (no tag pair, and \"hello\" is not a move)"
    );
}

#[test]
fn a_fen_list_given_to_report_names_the_command_that_reads_it() {
    // Real lists of both games' boards (testdata/fen/README.md), and a
    // board cut short, which is no FEN and stays plain stray text.
    for (list, board) in [
        (
            "ethereal-standard.epd",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        ),
        (
            "cpw-xiangqi-perft.epd",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        ),
    ] {
        let text =
            std::fs::read_to_string(support::root().join("testdata/fen").join(list)).expect("list");
        let rows = rows(&text, &[]);
        assert_eq!(rows[0]["status"], "parse_error", "{list}");
        assert_eq!(
            rows[0]["error"],
            format!(
                "line 1: stray text (no tag pair, and \"{board}\" is a FEN board, not a move: `pgnmill fen` reads FEN and EPD lists)"
            ),
            "{list}"
        );
    }
    let rows = rows("rnbqkbnr/pppppppp/8/8 w - -\n", &[]);
    assert_eq!(
        rows[0]["error"],
        "line 1: stray text (no tag pair, and \"rnbqkbnr/pppppppp/8/8\" is not a move)"
    );
}

/// Two moves SAN's grammar allows and no position does: a promotion to a
/// king (`b8=K`, `bxa8=K`, `b8K`, `b8=k`) and a pawn capture without the
/// file the pawn comes from (`Pxd5`, `xd5`, an en-passant `Pxd6`).
/// python-chess 1.11.2 reads each as no legal move (`read_game` drops a
/// leading `P`, then `Board.parse_san` raises `IllegalMoveError`), so each
/// is `illegal_move`, and the reason says what is wrong with the move
/// rather than that no pawn can reach a square one can.
#[test]
fn a_king_promotion_and_a_pawn_capture_without_its_file_are_illegal_and_say_why() {
    let promotion = "r1b1k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    for token in ["b8=K", "bxa8=K", "b8K", "b8=k"] {
        let pgn = format!("[FEN \"{promotion}\"]\n\n1. {token} *\n");
        let (plies, error) = stops(&pgn, &[]);
        assert_eq!(plies, 0);
        assert_eq!(
            error,
            format!("move 1. {token}, ply 1 (line 3): a pawn cannot promote to a king")
        );
    }
    let capture = "4k3/8/8/3pP3/4P3/8/8/4K3 w - d6 0 2";
    for token in ["Pxd5", "xd5", "Pxd6"] {
        let pgn = format!("[FEN \"{capture}\"]\n\n2. {token} *\n");
        let (plies, error) = stops(&pgn, &[]);
        assert_eq!(plies, 0);
        assert_eq!(
            error,
            format!(
                "move 2. {token}, ply 1 (line 3): a pawn capture must name the file the pawn comes from"
            )
        );
    }
    // With the file named, each is a move.
    let pgn = format!("[FEN \"{capture}\"]\n\n2. exd5 *\n");
    assert_eq!(one(&pgn, &[]).0, "ok");
    let pgn = format!("[FEN \"{capture}\"]\n\n2. exd6 *\n");
    assert_eq!(one(&pgn, &[]).0, "ok");
}
