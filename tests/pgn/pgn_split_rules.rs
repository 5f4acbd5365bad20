//! The game-boundary rules of docs/pgn-dialect.md §2 ("a game is a tag section
//! and its movetext, or movetext alone"; docs/chess.md: "the result token ends a
//! game; a game that lacks one ends where the next tag section begins"),
//! each on a small hand-made input whose games are counted by hand.

use pgnmill::pgn::split_all;

fn games(pgn: &str) -> Vec<String> {
    split_all(pgn.as_bytes(), false)
        .iter()
        .map(|s| String::from_utf8_lossy(s.slice(pgn.as_bytes(), 0).unwrap()).into_owned())
        .collect()
}

#[test]
fn blank_lines_inside_movetext_do_not_end_the_game() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5\n\n{a long note}\n\n2. Nf3 Nc6\n\n(2... d6\n\n3. d4)\n\n3. Bb5 1-0\n";
    let g = games(pgn);
    assert_eq!(g.len(), 1, "{g:?}");
    assert!(g[0].ends_with("3. Bb5 1-0\n"));
}

#[test]
fn a_result_ends_the_game_and_movetext_after_it_is_a_tagless_game() {
    let g = games("1. e4 e5 1-0\n1. d4 d5 0-1\n\n1. c4 *\n");
    assert_eq!(g, ["1. e4 e5 1-0\n", "1. d4 d5 0-1\n", "1. c4 *\n"]);
}

#[test]
fn a_result_glued_to_a_move_ends_the_game() {
    let g = games("1. e4 h6*\n\n1. d4 *\n");
    assert_eq!(g, ["1. e4 h6*\n", "1. d4 *\n"]);
}

#[test]
fn a_main_line_starting_again_at_move_one_is_a_new_game() {
    // chessops' leading-whitespace.pgn: games without results, the last one
    // without tags.
    let g =
        games("[Variant \"Standard\"]\n1. e4 e5 2. Nf3 {no result}\n\n\n    1. d4 d5 {no tags}\n");
    assert_eq!(g.len(), 2, "{g:?}");
}

#[test]
fn blacks_first_move_after_a_blank_line_continues_the_game() {
    // Found by tests/pgn/roundtrip_pgn.rs: `1...` is not a new main line.
    let g = games("1. Na3 ; a comment\n\n1... Na6! *\n");
    assert_eq!(g.len(), 1, "{g:?}");
}

#[test]
fn move_one_inside_a_variation_does_not_start_a_game() {
    let g = games("[Event \"a\"]\n1.e4 e5 (\n\n{note}\n\n1...e6\n\n) 2.Nf3 *\n");
    assert_eq!(g.len(), 1, "{g:?}");
}

#[test]
fn a_game_whose_movetext_opens_with_a_comment_keeps_its_first_move() {
    // kokopu's semantic-error.pgn: a multi-line comment, a blank line, then 1.
    let g = games("[Event \"a\"]\n\n{a comment\nover two lines}\n\n1. O-O *\n");
    assert_eq!(g.len(), 1, "{g:?}");
    assert!(g[0].ends_with("1. O-O *\n"));
}

#[test]
fn a_footer_after_the_result_stays_with_its_game() {
    // The xqbase xiangqi files end with a signature after the result.
    let pgn = "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 *\n  =========\n欢迎访问\nhttps://www.xqbase.com/\n\n[Game \"Chinese Chess\"]\n\n1. 炮二平五 *\n";
    let g = games(pgn);
    assert_eq!(g.len(), 2, "{g:?}");
    assert!(g[0].contains("xqbase"));
}

#[test]
fn a_damaged_tag_after_a_result_is_a_game_of_its_own() {
    // kokopu's syntactic-error-1.pgn: `Event "..."]` lost its `[`; it must
    // be a row (a broken game), not vanish into the game before.
    let g = games("[Event \"a\"]\n\n1. e4 *\n\n\nEvent \"Missing begin\"]\n\n*\n");
    assert_eq!(g.len(), 2, "{g:?}");
}

#[test]
fn comments_between_games_are_not_a_game() {
    let g = games("1. e4 *\n\n{between the games}\n\n[Event \"b\"]\n1. d4 *\n");
    assert_eq!(g.len(), 2, "{g:?}");
}

#[test]
fn an_unclosed_comment_is_reported_not_passed_over() {
    // docs/pgn-dialect.md §2 rule 5: a `{` runs to the end of the input,
    // unless a blank line and a tag pair come first: the game ends there.
    // Either way the tokenizer says where the comment opened.
    let pgn = "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 *\n";
    let g = games(pgn);
    assert_eq!(
        g,
        [
            "[Event \"a\"]\n\n1. e4 {never closed\n",
            "[Event \"b\"]\n\n1. d4 *\n"
        ]
    );
    let game = pgnmill::pgn::GameText::new(g[0].as_bytes(), 1);
    let mut tokens = game.movetext();
    assert_eq!(tokens.by_ref().count(), 1);
    assert_eq!(tokens.unclosed_comment(), Some(3));
    let pgn = "1. e4 {never closed\n[Event \"b\"]\n\n1. d4 *\n";
    assert_eq!(
        games(pgn).len(),
        1,
        "a tag with no blank line before it is comment"
    );
}

#[test]
fn a_tag_after_a_result_on_the_same_line_starts_a_game() {
    let g = games("[Event \"a\"] 1. e4 e5 1-0 [Event \"b\"] 1. d4 d5 0-1\n");
    assert_eq!(
        g,
        ["[Event \"a\"] 1. e4 e5 1-0", "[Event \"b\"] 1. d4 d5 0-1\n"]
    );
    // Not inside a comment or variation, nor after a move.
    assert_eq!(games("1. e4 1-0 {[Event \"b\"]}\n").len(), 1);
    assert_eq!(games("1. e4 (1... e5 1-0 [Event \"b\"])\n").len(), 1);
    assert_eq!(games("1. e4 e5 [Event \"b\"]\n").len(), 1);
}

#[test]
fn fifty_six_thousand_games_on_one_line_are_as_many_games() {
    let one = "[Event \"x\"] [Result \"1-0\"] 1. e4 e5 2. Nf3 Nc6 1-0 ";
    let line = one.repeat(56_000);
    assert_eq!(split_all(line.as_bytes(), false).len(), 56_000);
    assert_eq!(split_all(line.as_bytes(), true).len(), 56_000);
}
