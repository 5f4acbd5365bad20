//! Replays every game of a PGN file (chess, Chess960 or xiangqi; plain,
//! `.gz` or `.zst`) and prints, per game, its first line, the half-moves
//! replayed, the first threefold repetition (if any) and the final FEN.
//!
//! Usage: `cargo run --release --example final_fens -- GAMES.pgn`

use pgnmill::replay::{ReplayOptions, replay_game};
use pgnmill::source::{Input, ReadOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: final_fens GAMES.pgn")?;
    let options = ReplayOptions::default();
    for batch in Input::file(path).open(&ReadOptions::default())? {
        let batch = batch?;
        for span in &batch.games {
            let bytes = span
                .slice(batch.bytes(), batch.base_offset)
                .expect("in its batch");
            let game = replay_game(bytes, span.line, &options);
            let threefold = game
                .rep_ep_legal
                .threefold_ply
                .map_or("-".into(), |p| p.to_string());
            println!(
                "line {}: {} plies, threefold {threefold}, {}",
                span.line, game.plies, game.final_fen
            );
            if !game.error.is_empty() {
                eprintln!("line {}: {}", span.line, game.error);
            }
        }
    }
    Ok(())
}
