//! Arbitrary bytes as a `.zst` input, opened as `report` opens one, once
//! decoded as one stream and once frame by frame on three threads (how a
//! pzstd-made lichess dump is read from `-j 2` on,
//! `src/source/zstd_frames.rs`). The two must agree: the same kind of
//! input, the same text to the same end, and for an input that breaks
//! off, the same error; the module promises the one-thread decoder's
//! text and error whatever the headers hold. Seed it with small files in
//! pzstd's layout (a few KB of PGN cut into pieces, each `zstd -c` of a
//! piece behind a skippable frame whose 4 bytes give its size), with
//! plain zstd frames one after another (`cat a.zst b.zst`), and with
//! each of these cut short and with bytes after it: pzstd itself makes
//! frames of megabytes. Run it with `-detect_leaks=0`: a decoder
//! thread of an input may still be ending when the next input starts,
//! which the leak check takes for a leak.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::source::{Opened, ReadOptions, WindowEnd, expand_inputs};
use std::io::Write;
use std::path::Path;

/// What reading the input showed: the kind it was opened as, and for text,
/// every byte in order, then how it ended (the error's words when it broke
/// off).
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Text {
        bytes: Vec<u8>,
        broken: Option<String>,
    },
    Records,
    Refused(String),
    NotOpened(String),
}

fn read(path: &Path, decode_threads: usize) -> Vec<Seen> {
    let Ok(inputs) = expand_inputs(&[path.to_path_buf()]) else {
        return Vec::new();
    };
    let options = ReadOptions {
        batch_bytes: 1 << 16,
        decode_threads,
        ..ReadOptions::default()
    };
    let mut reads = Vec::new();
    for input in &inputs {
        let mut source = match input.open(&options) {
            Ok(Opened::Text(source)) => source,
            Ok(Opened::Records(_)) => {
                reads.push(Seen::Records);
                continue;
            }
            Ok(Opened::Refused(refusal)) => {
                reads.push(Seen::Refused(refusal.why));
                continue;
            }
            Err(e) => {
                reads.push(Seen::NotOpened(e.to_string()));
                continue;
            }
        };
        let mut bytes = Vec::new();
        let mut broken = None;
        // A window is 64 KiB and a fuzz input expands to far less than
        // 64 GiB: this bound is never the reason the loop ends.
        for _ in 0..1_000_000 {
            let (window, end) = source.window(1 << 16);
            bytes.extend_from_slice(window);
            let n = window.len();
            source.take(n);
            match end {
                WindowEnd::Final => break,
                WindowEnd::Broken => {
                    broken = Some(source.take_error().to_string());
                    break;
                }
                WindowEnd::More => assert!(n > 0, "an open window showed no byte"),
            }
        }
        reads.push(Seen::Text { bytes, broken });
    }
    reads
}

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let path = dir.path().join("fuzz.pgn.zst");
    let Ok(mut file) = std::fs::File::create(&path) else {
        return;
    };
    if file.write_all(data).is_err() {
        return;
    }
    drop(file);
    let streamed = read(&path, 1);
    let by_frames = read(&path, 3);
    assert_eq!(
        by_frames, streamed,
        "decoding frame by frame differs from one stream"
    );
});
