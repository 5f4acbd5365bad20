//! Stage 2b, xiangqi: the rules kernel, the notations (Chinese, WXF, ICCS),
//! `pgnmill convert` and xiangqi files through the report
//! (`pgnmill::xiangqi`, `pgnmill::convert`).
//!
//! One test binary for the stage; each module is a former `tests/*.rs`
//! file. Run one module with
//! `cargo test --test xiangqi -- xiangqi_kernel_fen::`.

#[path = "../support/mod.rs"]
mod support;

mod notation_support;

mod xiangqi_convert;
mod xiangqi_convert_lines;
mod xiangqi_corpora;
mod xiangqi_kernel_consistency;
mod xiangqi_kernel_fen;
mod xiangqi_kernel_games;
mod xiangqi_kernel_perft;
mod xiangqi_line_keys;
mod xiangqi_notation_fuzz;
mod xiangqi_notation_games;
mod xiangqi_notation_variants;
mod xiangqi_notation_vectors;
mod xiangqi_notation_wukong;
mod xiangqi_outcomes;
mod xiangqi_perft_cli;
mod xiangqi_plies;
mod xiangqi_records;
mod xiangqi_records_fen;
mod xiangqi_san;
mod xiangqi_wxf_round_trip;
