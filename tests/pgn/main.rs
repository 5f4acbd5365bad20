//! Stage 1, PGN text: sources, the game splitter, tag pairs and the
//! main-line tokenizer (`pgnmill::source`, `pgnmill::pgn`).
//!
//! One test binary for the stage (one link under `cargo test`);
//! each module is a former `tests/*.rs` file. Run one module with
//! `cargo test --test pgn -- tokens_fast::`.

#[path = "../support/mod.rs"]
mod support;

mod movetext_reference;
mod split_reference;
mod tag_reference;

mod opened_inputs;
mod pgn_counts;
mod pgn_robust;
mod pgn_shared_corpora;
mod pgn_split_rules;
mod pgn_tokens;
mod roundtrip_pgn;
mod source_streams;
mod split_fast;
mod split_parallel;
mod split_vs_reference;
mod tokens_fast;
