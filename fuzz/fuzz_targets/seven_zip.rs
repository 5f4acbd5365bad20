//! Arbitrary bytes as a `.7z` input, through the library as `report`
//! opens one: its index read (an archive whose index cannot be read is
//! one input refused), an input per member, each checked then read to
//! its end, window by window, from its block's decoder threads
//! (`source/seven_zip.rs`). Nothing may panic or hang: a member whose
//! block fails ends, and the members after it in the block end too. Seed
//! it with `testdata/compressed/*.7z` (7-Zip's methods, solid or not,
//! damaged, encrypted, cut short).
#![no_main]

#[path = "support/read_inputs.rs"]
mod read_inputs;

use libfuzzer_sys::fuzz_target;
use read_inputs::{Reading, as_file, read_inputs, small_batches};

fuzz_target!(|data: &[u8]| {
    let Some((_dir, path)) = as_file(data, "fuzz.7z") else {
        return;
    };
    let options = small_batches();
    read_inputs(&path, &options, Reading::WHOLE);
});
