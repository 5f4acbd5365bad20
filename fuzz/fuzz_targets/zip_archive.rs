//! Arbitrary bytes as a `.zip` input, through the library as `report`
//! opens one: listed (a damaged archive, one without a readable central
//! directory, becomes one input read from its local headers,
//! `source/damaged_zip.rs`; a sound one gives an input per member), then
//! every input is opened and read to its end, window by window. Nothing
//! may panic or hang, and every byte an input shows is taken: the reader
//! ends with `Final` or `Broken`, never loops. Seed it with the zip files
//! the CLI tests build (tests/cli/cli_inputs.rs), whole and cut short.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnmill::source::{Opened, ReadOptions, WindowEnd, expand_inputs};
use std::io::Write;

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let path = dir.path().join("fuzz.zip");
    let Ok(mut file) = std::fs::File::create(&path) else {
        return;
    };
    if file.write_all(data).is_err() {
        return;
    }
    drop(file);
    let Ok(inputs) = expand_inputs(&[path]) else {
        return;
    };
    let options = ReadOptions {
        batch_bytes: 1 << 16,
        ..ReadOptions::default()
    };
    for input in &inputs {
        let Ok(Opened::Text(mut source)) = input.open(&options) else {
            continue;
        };
        // A deflate stream of 64 KiB expands to at most about 70 MB; a
        // window is 64 KiB, so this bound is never the reason a loop ends.
        for _ in 0..1_000_000 {
            let (bytes, end) = source.window(1 << 16);
            let n = bytes.len();
            source.take(n);
            match end {
                WindowEnd::Final | WindowEnd::Broken => break,
                WindowEnd::More => assert!(n > 0, "an open window showed no byte"),
            }
        }
    }
});
