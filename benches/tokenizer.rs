//! Splitting and tokenizing throughput (MB/s) on the real corpora in
//! `testdata/pgn/corpus`: the serial stage (split) alone, and split plus
//! reading every game's tags and main-line tokens (the per-game work the
//! replay stage does before touching the rules kernel).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnmill::pgn::{GameText, TokenKind, split_all};

const FILES: &[&str] = &[
    "lichess-2025-05-blitz-sample.pgn",
    "chesscom-cancer0707.pgn",
    "world_matches.pgn",
    "tcec_9_15_testgames.pgn",
];

fn load(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/pgn/corpus")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn tokenize_all(bytes: &[u8]) -> usize {
    let mut n = 0;
    for span in split_all(bytes, false) {
        let Some(g) = span.slice(bytes, 0) else {
            continue;
        };
        let game = GameText::new(g, span.line);
        n += game.tags().count();
        n += game
            .movetext()
            .filter(|t| t.kind == TokenKind::Move)
            .count();
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut all = Vec::new();
    for f in FILES {
        all.extend_from_slice(&load(f));
        all.extend_from_slice(b"\n\n");
    }
    let mut g = c.benchmark_group("pgn");
    g.throughput(Throughput::Bytes(all.len() as u64));
    g.sample_size(20);
    g.bench_function("split", |b| {
        b.iter(|| black_box(split_all(black_box(&all), false).len()))
    });
    g.bench_function("split+tags+tokens", |b| {
        b.iter(|| black_box(tokenize_all(black_box(&all))))
    });
    for f in FILES {
        let bytes = load(f);
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(format!("split+tags+tokens/{f}"), |b| {
            b.iter(|| black_box(tokenize_all(black_box(&bytes))))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
