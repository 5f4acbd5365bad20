//! Rough per-phase timing of the splitter and tokenizer, in MB/s: split,
//! `GameText::new` (finding the movetext), the tags, the movetext tokens.
//! Under `valgrind --tool=callgrind` it gives instruction counts per phase.
//!
//! Usage: `[FILE=NAME] [PHASE=split|new|tags|movetext] [REPS=N] cargo bench --bench pgn_phases`
//! (FILE is a name in testdata/pgn/corpus, by default the lichess sample;
//! PHASE, by default all four; REPS, by default 20).

use std::time::Instant;

use pgnmill::pgn::{GameText, split_all};

fn main() {
    let name = std::env::var("FILE").unwrap_or_else(|_| "lichess-2025-05-blitz-sample.pgn".into());
    let p = format!("{}/testdata/pgn/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(p).unwrap();
    let mb = bytes.len() as f64 / 1e6;
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let spans = split_all(&bytes, false);
    let only = std::env::var("PHASE").ok();
    let time = |name: &str, f: &dyn Fn() -> usize| {
        if only.as_deref().is_some_and(|o| o != name) {
            return;
        }
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..reps {
            n += f();
        }
        let s = t.elapsed().as_secs_f64() / reps as f64;
        println!("{name:12} {:8.1} MB/s ({n})", mb / s);
    };
    time("split", &|| split_all(&bytes, false).len());
    time("new", &|| {
        spans
            .iter()
            .map(|s| GameText::new(s.slice(&bytes, 0).unwrap(), 1).movetext_start())
            .sum()
    });
    time("tags", &|| {
        spans
            .iter()
            .map(|s| GameText::new(s.slice(&bytes, 0).unwrap(), 1).tags().count())
            .sum()
    });
    time("movetext", &|| {
        spans
            .iter()
            .map(|s| {
                GameText::new(s.slice(&bytes, 0).unwrap(), 1)
                    .movetext()
                    .count()
            })
            .sum()
    });
}
