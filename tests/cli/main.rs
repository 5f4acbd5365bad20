//! The command line of `pgnmill report` through the binary: every option,
//! the usage errors and the faults (exit codes, messages, interruption).
//!
//! One test binary; each module is a former `tests/*.rs` file. Run one
//! module with `cargo test --release --test cli -- cli_faults::`.

mod cli_faults;
mod cli_options;
