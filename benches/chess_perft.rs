//! Perft throughput of the chess kernel (legal move generation + copy-make),
//! from the start position and from Kiwipete. Nodes/s = leaf count / time.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnmill::chess::{CastlingMode, Position, Setup, perft};
use std::hint::black_box;

fn kiwipete() -> Position {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let setup = Setup::parse(fen).expect("kiwipete parses");
    Position::from_setup(&setup, CastlingMode::Standard)
        .expect("kiwipete is valid")
        .0
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, pos, depth, nodes) in [
        ("startpos_d5", Position::startpos(), 5, 4_865_609u64),
        ("kiwipete_d4", kiwipete(), 4, 4_085_603),
    ] {
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(black_box(&pos), depth), nodes))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
