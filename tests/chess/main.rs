//! Stage 2a, the chess rules kernel: FEN, SAN, legal moves, perft, and the
//! `perft` and `fen` commands (`pgnmill::chess`).
//!
//! One test binary for the stage; each module is a former `tests/*.rs`
//! file. Run one module with `cargo test --test chess -- chess_perft::`.

mod chess_cli;
mod chess_fuzz;
mod chess_perft;
mod chess_spec;
mod chess_vectors;
mod duplicates;
mod fen_problems;
mod fuzz_regressions;
mod openings;
mod perft_messages;

#[path = "../support/mod.rs"]
mod support;
