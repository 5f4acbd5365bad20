//! Arbitrary bytes as a `.zst` input, opened as `report` opens one, once
//! decoded as one stream (`decode_threads: 0`) and frame by frame on one
//! thread and on three (how a pzstd-made lichess dump is read,
//! `src/source/zstd_frames.rs`); and the same bytes piped in on standard
//! input, where a pzstd stream is cut into frames by its size hints
//! (`src/source/pzstd_cut.rs`), on one thread and on three. Each frame
//! decoder, the file's and the stream's, must give the same on one thread
//! as on three: the same kind of input, the same text, the same damage,
//! the same end. Where it found no damaged frame, it must give what the
//! one stream gives (the same text to the same end, and for an input that
//! breaks off, the same error); where it found one, it read on past it and
//! the stream stopped in it, so they agree on the text before it (and
//! what follows may even be refused as binary data, where the stream gave
//! no text). Seed it with small files in pzstd's layout (a few KB of PGN
//! cut into pieces, each `zstd -c` of a piece behind a skippable frame
//! whose 4 bytes give its size), with plain zstd frames one after another
//! (`cat a.zst b.zst`), and with each of these cut short, damaged inside
//! (its data, and its headers: a zeroed magic number or block header,
//! which only the size hint before it gets past) and with bytes after
//! it: pzstd itself makes frames of megabytes. Run
//! it with `-detect_leaks=0`, and `ASAN_OPTIONS=detect_leaks=0` for the
//! check when the run ends: a decoder thread of an input may still be
//! ending when the next input starts (or the run ends), which the leak
//! check takes for a leak.
#![no_main]

#[path = "support/read_inputs.rs"]
mod read_inputs;

use libfuzzer_sys::fuzz_target;
use pgnmill::source::{Opened, ReadOptions};
use read_inputs::{Reading, Seen, as_file, read_inputs, read_opened, small_batches};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((_dir, path)) = as_file(data, "fuzz.pgn.zst") else {
        return;
    };
    let threads = |decode_threads| ReadOptions {
        decode_threads,
        ..small_batches()
    };
    let streamed = read_inputs(&path, &threads(0), Reading::WHOLE);
    let one = read_inputs(&path, &threads(1), Reading::WHOLE);
    let by_frames = read_inputs(&path, &threads(3), Reading::WHOLE);
    assert_eq!(
        by_frames, one,
        "decoding frame by frame depends on the threads"
    );
    agrees_with_one_stream(&by_frames, &streamed, "a file");
    let piped_one = read_stream(data, &threads(1), Reading::WHOLE);
    let piped = read_stream(data, &threads(3), Reading::WHOLE);
    assert_eq!(
        piped, piped_one,
        "decoding a stream frame by frame depends on the threads"
    );
    let piped_streamed = read_stream(data, &threads(0), Reading::WHOLE);
    agrees_with_one_stream(&[piped], &[piped_streamed], "a stream");
});

/// `data` opened as standard input is (`curl … | pgnmill report -`) and
/// read as `reading` says to its end.
fn read_stream(data: &[u8], options: &ReadOptions, reading: Reading) -> Seen {
    let stream = Box::new(std::io::Cursor::new(data.to_vec()));
    read_opened(Opened::from_read(Path::new("-"), stream, options), reading)
}

/// What frame decoders gave agrees with what one stream gave: the same,
/// or where they found a damaged frame, the same text before it.
fn agrees_with_one_stream(by_frames: &[Seen], streamed: &[Seen], input: &str) {
    match (by_frames, streamed) {
        (
            [Seen::Text { bytes, damage, .. }],
            [
                Seen::Text {
                    bytes: stream_bytes,
                    ..
                },
            ],
        ) if !damage.is_empty() => {
            let before = damage[0].start as usize;
            assert!(
                bytes.len() >= before && stream_bytes.starts_with(&bytes[..before]),
                "{input}: the text before a damaged frame differs from one stream's"
            );
        }
        // Refused for what follows a damaged frame, which the stream
        // stopped in.
        ([Seen::Refused(_, damage)], _) if !damage.is_empty() => {}
        _ => assert_eq!(
            by_frames, streamed,
            "{input}: decoding frame by frame differs from one stream"
        ),
    }
}
