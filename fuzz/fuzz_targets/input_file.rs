//! Arbitrary bytes as an input file, opened as `report` opens one: its
//! magic bytes and its start decide what it is (zstd, gzip, bzip2 or xz,
//! UTF-16 or UTF-8 text, a xiangqi record file, binary data refused), and
//! its text is read to the end. Nothing may panic or hang, and how the
//! text is asked for must not change it: small windows taken half at a
//! time (each window starts inside the last) give the same bytes and the
//! same end as large windows taken whole, and so does decoding on several
//! threads (a `.bz2` block by block, a `.zst` frame by frame). Seed it with small files of
//! each kind: PGN, its `gzip`, `bzip2`, `xz` and `zstd`, each cut short,
//! and its UTF-16 with a byte-order mark.
#![no_main]

#[path = "support/read_inputs.rs"]
mod read_inputs;

use libfuzzer_sys::fuzz_target;
use pgnmill::source::ReadOptions;
use read_inputs::{Reading, as_file, read_inputs, small_batches};

fuzz_target!(|data: &[u8]| {
    let Some((_dir, path)) = as_file(data, "fuzz.pgn") else {
        return;
    };
    let options = small_batches();
    let whole = read_inputs(&path, &options, Reading::WHOLE);
    let small = Reading {
        window: 100,
        half: true,
    };
    let by_halves = read_inputs(&path, &options, small);
    assert_eq!(by_halves, whole, "small windows read other text");
    let threads = ReadOptions {
        bzip2_threads: 3,
        decode_threads: 3,
        ..small_batches()
    };
    let on_threads = read_inputs(&path, &threads, Reading::WHOLE);
    assert_eq!(on_threads, whole, "decoding threads read other text");
});
