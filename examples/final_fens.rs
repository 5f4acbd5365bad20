//! Replays every game of a PGN file (chess, Chess960 or xiangqi; plain,
//! `.gz` or `.zst`) and prints, per game, its first line, the half-moves
//! replayed, the first threefold repetition (if any) and the final FEN.
//!
//! Usage: `cargo run --release --example final_fens -- GAMES.pgn`

use pgnmill::pgn::Batches;
use pgnmill::replay::{ReplayOptions, replay_text};
use pgnmill::source::{Input, ReadOptions, decode_game};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: final_fens GAMES.pgn")?;
    let options = ReplayOptions::default();
    let batches = Batches::open(&Input::file(path), &ReadOptions::default())?;
    let encoding = batches.encoding();
    for batch in batches {
        let batch = batch?;
        for span in &batch.games {
            // Latin-1, GBK or Big5 text becomes UTF-8 first.
            let text = decode_game(batch.game_bytes(span), encoding);
            let game = replay_text(&text, span.line, &options);
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
