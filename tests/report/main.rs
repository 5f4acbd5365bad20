//! Stage 3, the report: replay and the rows of `pgnmill report`, against
//! python-chess and on pathological input (`pgnmill::replay`,
//! `pgnmill::report`).
//!
//! One test binary for the stage; each module is a former `tests/*.rs`
//! file. Run one module with `cargo test --test report -- malformed::`.

#[path = "../support/mod.rs"]
mod support;

mod after_the_end;
mod boundaries;
mod boundaries_vs_python_chess;
mod clocks_vs_python_chess;
mod compressed;
mod curation_columns;
mod duplicates_report;
mod encodings;
mod html;
mod html_page;
mod line_ends;
mod malformed;
mod opposite_check;
mod outcomes_vs_python_chess;
mod plies_files;
mod readers;
mod report_vs_python_chess;
mod research;
mod row_messages;
mod seven_zip;
mod shard_totals;
mod tokens;
