//! Prints one tab-separated row per main-line ply of every game of a PGN
//! file: game, ply, SAN, UCI, FEN after the move, the `[%clk]` and
//! `[%emt]` of its comments in milliseconds, its `[%eval]` (centipawns,
//! mate, depth) and how often the position has occurred so far; the
//! library's per-ply data, as `plies.parquet` will hold it.
//!
//! Usage: `cargo run --release --example plies -- GAMES.pgn [GAME]`

use pgnmill::pgn::Batches;
use pgnmill::replay::ply_data::PlyDataOptions;
use pgnmill::replay::{ReplayOptions, replay_text};
use pgnmill::source::{Input, ReadOptions, decode_game};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: plies GAMES.pgn [GAME]")?;
    let only: Option<u64> = args.next().map(|g| g.parse()).transpose()?;
    let options = ReplayOptions {
        ply_data: PlyDataOptions {
            clocks: false,
            plies: true,
        },
        ..ReplayOptions::default()
    };
    let batches = Batches::open(&Input::file(path), &ReadOptions::default())?;
    let encoding = batches.encoding();
    let mut game = 0u64;
    let field = |v: Option<i32>| v.map_or_else(String::new, |v| v.to_string());
    for batch in batches {
        let batch = batch?;
        for span in &batch.games {
            game += 1;
            if only.is_some_and(|g| g != game) {
                continue;
            }
            let text = decode_game(batch.game_bytes(span), encoding);
            let record = replay_text(&text, span.line, &options);
            let Some(plies) = record.ply_data.as_ref().and_then(|d| d.plies.as_ref()) else {
                continue;
            };
            for p in plies.iter() {
                println!(
                    "{game}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    p.ply,
                    p.san,
                    p.uci,
                    p.fen,
                    field(p.clock_ms()),
                    field(p.emt_ms()),
                    field(p.eval_cp()),
                    field(p.eval_mate()),
                    field(p.eval_depth()),
                    p.repetition
                );
            }
        }
    }
    Ok(())
}
