//! # pgnmill
//!
//! Bulk processing of chess and xiangqi game collections: split PGN files into
//! games, replay every main line with this crate's own rules kernels, and write
//! CSV reports about final positions, repetitions under two en-passant
//! conventions, and `[FEN]` headers whose castling field contradicts the board.
//!
//! The data flows one way (`docs/design.md`), and the modules follow it; no
//! module imports one of a later stage:
//!
//! ```text
//! source ─► pgn ─► replay ─► report ─► pipeline
//!  bytes    game    one game   rows,     every stage at once,
//!  windows  spans,  in, one    summary,  on all cores, rows
//!           tags,   record     extracts  in input order
//!           tokens  out
//! ```
//!
//! - [`source`]: opening inputs (files, folders, stdin; mapped or streamed,
//!   decompressed, encoding sniffed) as a window of bytes.
//! - [`pgn`]: the PGN tokenizer: game-aligned [`pgn::Batches`], tag pairs,
//!   movetext tokens, a game's [`pgn::MainLine`]. It knows no rules.
//! - [`chess`], [`xiangqi`]: the rules kernels. They know nothing of PGN.
//! - [`records`]: xiangqi record files (XQF, CCBridge CBR/CBL/CBF,
//!   DhtmlXQ) read into one game form and written as PGN, which the replay
//!   and `convert` then read like any PGN game.
//! - [`variant`]: which rules a game is played by.
//! - [`openings`]: opening tables (lichess's compiled in) and the lichess
//!   rule that names a game's opening.
//! - [`replay`]: one game in, one [`replay::GameRecord`] out, with its
//!   `line_key` and opening.
//! - [`duplicates`]: which games copy an earlier or longer one, from one
//!   small entry per game.
//! - [`report`]: records to CSV rows, the summary and the extract files.
//! - [`output`]: files that appear only when complete.
//! - [`pipeline`]: the whole report run, overlapped on all cores.
//! - [`convert`]: xiangqi games rewritten in another notation.
//! - [`fenlist`]: FEN, EPD and perft lists read and audited record by record.
//!
//! The command line (`src/main.rs` and `src/commands/`) is a separate
//! crate target: it parses flags, calls these modules, and maps their errors
//! to messages and exit codes.

pub mod chess;
pub mod convert;
pub mod duplicates;
pub mod fenlist;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod pipeline;
pub mod records;
pub mod replay;
pub mod report;
pub mod source;
pub mod variant;
pub mod xiangqi;

pub(crate) mod cpu_time;
pub(crate) mod simd;
