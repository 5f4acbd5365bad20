//! Reads a PGN file with the PGN layer alone (no rules): splits it into
//! games and prints each game's players and main-line moves as written,
//! without comments, variations or annotations.
//!
//! Usage: `cargo run --release --example main_line -- GAMES.pgn`

use pgnmill::pgn::{GameText, split_all};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: main_line GAMES.pgn")?;
    let bytes = std::fs::read(path)?;
    for span in split_all(&bytes, false) {
        let game = GameText::new(span.slice(&bytes, 0).expect("in the file"), span.line);
        let tag = |name: &str| {
            game.tags()
                .find(|t| t.name_is(name))
                .map(|t| String::from_utf8_lossy(&t.value()).into_owned())
                .unwrap_or_default()
        };
        let moves: Vec<String> = game
            .main_line()
            .map(|t| String::from_utf8_lossy(t.text).into_owned())
            .collect();
        println!("{} - {}: {}", tag("White"), tag("Black"), moves.join(" "));
    }
    Ok(())
}
