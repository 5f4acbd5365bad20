//! Perft from the xiangqi start position: the speed of legal move
//! generation plus `play`, reported as leaf nodes per second (throughput).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnmill::xiangqi::{Position, perft};
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let mut group = c.benchmark_group("xiangqi_perft_startpos");
    group.sample_size(10);
    for (depth, nodes) in [(3u32, 79_666u64), (4, 3_290_240)] {
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("depth{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();

    c.bench_function("xiangqi_legal_moves_startpos", |b| {
        b.iter(|| black_box(&start).legal_moves().len())
    });
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
