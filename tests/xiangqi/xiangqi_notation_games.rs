//! The writers over the 300 pyffish games of games.csv (30 947 plies).
//!
//! Without the rules kernel the games cannot be replayed with legal-move
//! generation, but writing needs only the pieces: the test follows them
//! move by move (checked against each game's `final_fen`) and compares every
//! written move with the `moves_wxf_official` and `moves_chinese` columns.
//! Full replay by parsing (which needs each position's legal moves) is left
//! for when the kernel is connected.

use crate::notation_support::{VectorBoard, testdata};
use pgnmill::xiangqi::notation::{Notation, parse_move_as, write_move};
use pgnmill::xiangqi::types::Move;

#[derive(serde::Deserialize)]
struct Game {
    game_id: String,
    start_fen: String,
    moves_iccs: String,
    moves_wxf_pyffish: String,
    moves_wxf_official: String,
    moves_chinese: String,
    final_fen: String,
}

#[test]
fn writers_match_every_ply_of_the_games() {
    let mut reader = csv::Reader::from_path(testdata("games.csv")).unwrap();
    let mut plies = 0;
    let mut games = 0;
    for game in reader.deserialize::<Game>() {
        let game = game.unwrap();
        let mut board = VectorBoard::from_fen(&game.start_fen);
        let columns = game
            .moves_iccs
            .split(' ')
            .zip(game.moves_wxf_official.split(' '))
            .zip(game.moves_chinese.split(' '))
            .zip(game.moves_wxf_pyffish.split(' '));
        for (ply, (((iccs, wxf), chinese), wxf_pyffish)) in columns.enumerate() {
            let m = Move::from_iccs(iccs).unwrap();
            let at = format!("{} ply {}", game.game_id, ply + 1);
            assert_eq!(write_move(&board, m, Notation::Wxf), wxf, "{at}");
            assert_eq!(write_move(&board, m, Notation::Chinese), chinese, "{at}");
            // With only the played move offered as legal, every spelling must
            // at least point at that move (ambiguity is tested on
            // notation.csv, where the full legal move lists are known).
            board.legal = vec![m];
            for (text, notation) in [
                (wxf, Notation::Wxf),
                (wxf_pyffish, Notation::Wxf),
                (chinese, Notation::Chinese),
            ] {
                assert_eq!(parse_move_as(&board, text, notation), Ok(m), "{at} {text}");
            }
            board.play(m);
            plies += 1;
        }
        let expected = VectorBoard::from_fen(&game.final_fen);
        assert_eq!(
            board.squares, expected.squares,
            "{} final placement",
            game.game_id
        );
        assert_eq!(board.turn, expected.turn, "{} side to move", game.game_id);
        games += 1;
    }
    eprintln!("games.csv: {games} games, {plies} plies written as WXF and Chinese");
    assert_eq!(games, 300);
    assert_eq!(plies, 30_947);
}
