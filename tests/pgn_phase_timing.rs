//! Rough per-phase timing of the tokenizer (ignored: run by hand with
//! `cargo test --release --test pgn_phase_timing -- --ignored --nocapture`).

use std::time::Instant;

use pgnmill::pgn::{GameText, split_all};

#[test]
#[ignore]
fn phases() {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/pgn/corpus/lichess-2025-05-blitz-sample.pgn"
    );
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
