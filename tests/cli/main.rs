//! The command line through the binary: every option of `pgnmill report`
//! and `pgnmill fen`, `convert`'s handling of its inputs, where outputs
//! may go, the usage errors and the faults (exit codes, messages,
//! interruption, output files).
//!
//! One test binary; each module is a former `tests/*.rs` file. Run one
//! module with `cargo test --test cli -- cli_faults::`.

mod cli_faults;
mod cli_inputs;
mod cli_options;
mod collisions;
mod convert_cli;
mod fen_cli;
mod outputs;
#[path = "../support/mod.rs"]
mod support;
