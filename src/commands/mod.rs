//! One module per subcommand: its clap arguments and its `run` function.
//! `main.rs` only dispatches; everything a command does is library code so
//! that tests can call it without a process.
pub mod convert;
pub mod fen;
pub mod perft;
pub mod report;
