//! SAN resolve-and-play over real games (testdata/chess/vectors/games.jsonl.gz,
//! 420 games from lichess, TWIC and Chess960 events): the replay hot path.
//! Also measures the same games with both position keys read every ply, as
//! the repetition report does. Throughput is in plies.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use flate2::read::GzDecoder;
use pgnmill::chess::{CastlingMode, Position, Setup};
use std::hint::black_box;
use std::io::{BufRead, BufReader};

struct Game {
    start: Position,
    sans: Vec<Vec<u8>>,
}

fn games() -> Vec<Game> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/chess/vectors/games.jsonl.gz"
    );
    let file = std::fs::File::open(path).expect("games vectors present");
    BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| {
            let v: serde_json::Value =
                serde_json::from_str(&line.expect("readable")).expect("json");
            let start = match v["fen"].as_str() {
                Some(fen) => {
                    let mode = if v["chess960"].as_bool() == Some(true) {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::Standard
                    };
                    let setup = Setup::parse(fen).expect("fen parses");
                    Position::from_setup(&setup, mode).expect("valid").0
                }
                None => Position::startpos(),
            };
            let sans = v["sans"]
                .as_array()
                .expect("sans")
                .iter()
                .map(|s| s.as_str().expect("str").as_bytes().to_vec())
                .collect();
            Game { start, sans }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = games();
    let plies: u64 = games.iter().map(|g| g.sans.len() as u64).sum();
    let mut g = c.benchmark_group("san");
    g.throughput(Throughput::Elements(plies));
    g.bench_function("resolve_and_play", |b| {
        b.iter(|| {
            for game in &games {
                let mut pos = game.start;
                for san in &game.sans {
                    let m = pos.parse_san(san).expect("legal");
                    pos.play(m);
                }
                black_box(&pos);
            }
        })
    });
    g.bench_function("resolve_play_and_keys", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for game in &games {
                let mut pos = game.start;
                for san in &game.sans {
                    let m = pos.parse_san(san).expect("legal");
                    pos.play(m);
                    acc ^= pos.key_ep_always() ^ pos.key_ep_legal().rotate_left(1);
                }
            }
            black_box(acc)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
