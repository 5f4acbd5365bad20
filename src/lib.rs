//! # pgnmill
//!
//! Bulk processing of chess and xiangqi game collections: split PGN files into
//! games, replay every main line with this crate's own rules kernels, and write
//! CSV reports about final positions, repetitions under two en-passant
//! conventions, and `[FEN]` headers whose castling field contradicts the board.
//!
//! The data flows one way (see `DESIGN.md` in the repository):
//!
//! ```text
//! inputs ─► source ─► pgn (game spans) ─► replay (rayon) ─► report
//! ```
//!
//! Each stage hands plain data to the next and knows nothing of the stages
//! after it: the rules kernels ([`chess`], [`xiangqi`]) know nothing of PGN,
//! the PGN tokenizer ([`pgn`]) knows nothing of the rules.

pub mod chess;
pub mod commands;
pub mod convert;
pub mod cpu_time;
pub mod error;
pub mod fenlist;
pub mod interrupt;
pub mod pgn;
pub mod replay;
pub mod report;
pub mod source;
pub mod xiangqi;

pub use error::CliError;
