//! The parallel splitter (`source::split_window_parallel`) gives exactly
//! the spans and resume position of the one-thread `pgn::split_window`:
//! on every file under `testdata/` (PGN of all kinds, the malformed suite,
//! and non-PGN bytes), as a whole and as non-final windows, from the start
//! and from a position part-way, at likely game starts and at random cuts
//! (which mostly fall inside games, so the fall-back path is checked too).
//! The reference is the one-thread splitter, whose rules
//! `tests/pgn/pgn_split_rules.rs` and `tests/pgn/pgn_counts.rs` check.

use crate::support;

use std::path::PathBuf;
use std::sync::Arc;

use pgnmill::pgn::{Batches, split_window_at, split_window_parallel};
use pgnmill::pgn::{GameSpan, Position, split_window};
use pgnmill::source::ReadOptions;

fn testdata() -> Vec<(PathBuf, Vec<u8>)> {
    support::testdata_files()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

/// xorshift64*: reproducible random cuts without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as usize % n.max(1)
    }
}

fn reference(buf: &[u8], start: Position, is_final: bool, dbcs: bool) -> (Vec<GameSpan>, Position) {
    let mut out = Vec::new();
    let next = split_window(buf, start, is_final, dbcs, &mut out);
    (out, next)
}

fn at_cuts(
    buf: &[u8],
    start: Position,
    is_final: bool,
    dbcs: bool,
    cuts: &[usize],
) -> (Vec<GameSpan>, Position) {
    let mut out = Vec::new();
    let (next, _) = split_window_at(buf, start, is_final, dbcs, &mut out, cuts);
    (out, next)
}

fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let n = 1 + rng.below(6);
    (0..n).map(|_| rng.below(len + 1)).collect()
}

/// Whole files, from the start, final: likely-game-start cuts and random
/// ones.
#[test]
fn whole_files_split_the_same_at_any_cuts() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for (path, bytes) in testdata() {
        for dbcs in [false, true] {
            let want = reference(&bytes, Position::START, true, dbcs);
            for parts in [2, 3, 4, 7] {
                let mut out = Vec::new();
                let (next, _) =
                    split_window_parallel(&bytes, Position::START, true, dbcs, &mut out, parts);
                assert_eq!((out, next), want, "{path:?} parts {parts} dbcs {dbcs}");
            }
            for _ in 0..8 {
                let cuts = random_cuts(&mut rng, bytes.len());
                let got = at_cuts(&bytes, Position::START, true, dbcs, &cuts);
                assert_eq!(got, want, "{path:?} cuts {cuts:?} dbcs {dbcs}");
                checked += 1;
            }
        }
    }
    assert!(
        checked > 1000,
        "only {checked} cut sets: testdata not found?"
    );
}

/// Windows as the reader makes them: a prefix that is not final, and the
/// rest from the position the one-thread splitter returned for it.
#[test]
fn windows_and_positions_part_way_split_the_same() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for (path, bytes) in testdata() {
        let dbcs = path.to_string_lossy().contains("gbk") || rng.below(2) == 1;
        for _ in 0..3 {
            let n = rng.below(bytes.len());
            let prefix = bytes.get(..n).unwrap();
            let (want, next) = reference(prefix, Position::START, false, dbcs);
            let cuts = random_cuts(&mut rng, n);
            let got = at_cuts(prefix, Position::START, false, dbcs, &cuts);
            assert_eq!(got, (want, next), "{path:?} prefix {n} cuts {cuts:?}");

            let from = usize::try_from(next.offset).unwrap();
            let rest = bytes.get(from..).unwrap();
            let want = reference(rest, next, true, dbcs);
            let cuts = random_cuts(&mut rng, rest.len());
            let got = at_cuts(rest, next, true, dbcs, &cuts);
            assert_eq!(got, want, "{path:?} from {next:?} cuts {cuts:?}");
            let mut out = Vec::new();
            let (end, _) = split_window_parallel(rest, next, true, dbcs, &mut out, 3);
            assert_eq!((out, end), want, "{path:?} from {next:?}, 3 parts");
        }
    }
}

/// Through the reader, with windows large enough for the parallel path:
/// the same batches, game for game.
#[test]
fn reader_batches_are_the_same_with_split_threads() {
    let opts = ReadOptions {
        batch_bytes: 1 << 20,
        ..ReadOptions::default()
    };
    for (path, bytes) in testdata() {
        if bytes.len() < 1 << 20 {
            continue;
        }
        let data: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(bytes);
        let batches = |threads: usize| -> Vec<(u64, Vec<GameSpan>)> {
            let mut r = Batches::from_shared(&path, Arc::clone(&data), &opts);
            r.set_split_threads(threads);
            r.map(|b| {
                let b = b.unwrap();
                (b.base_offset, b.games)
            })
            .collect()
        };
        let one = batches(1);
        assert!(!one.is_empty(), "{path:?}");
        for threads in [2, 4] {
            assert_eq!(batches(threads), one, "{path:?} {threads} threads");
        }
    }
}
