//! Arbitrary bytes as a `.zip` input, through the library as `report`
//! opens one: listed (a damaged archive, one without a readable central
//! directory, becomes one input read from its local headers,
//! `source/damaged_zip.rs`; a sound one gives an input per member), then
//! every input is opened and read to its end, window by window. Nothing
//! may panic or hang, and every byte an input shows is taken: the reader
//! ends with `Final` or `Broken`, never loops. Seed it with the zip files
//! the CLI tests build (tests/cli/cli_inputs.rs), whole and cut short.
#![no_main]

#[path = "support/read_inputs.rs"]
mod read_inputs;

use libfuzzer_sys::fuzz_target;
use read_inputs::{Reading, as_file, read_inputs, small_batches};

fuzz_target!(|data: &[u8]| {
    let Some((_dir, path)) = as_file(data, "fuzz.zip") else {
        return;
    };
    let options = small_batches();
    read_inputs(&path, &options, Reading::WHOLE);
});
