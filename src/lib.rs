//! # pgnmill
//!
//! Bulk processing of chess and xiangqi game collections: split PGN files
//! (and xiangqi XQF, CCBridge and DhtmlXQ records) into games, replay every
//! main line with this crate's own rules kernels, and report, per game, the
//! final position, repetitions under two en-passant conventions, how the
//! game ended by the rules, and `[FEN]` castling fields that contradict the
//! board; audit FEN/EPD lists; rewrite xiangqi notation.
//!
//! The data flows one way (`docs/design.md`), and the modules follow it; no
//! module imports one of a later stage:
//!
//! ```text
//! source ─► pgn ─► replay ─► report ─► pipeline ─► job
//!  input    split   one game   rows to   every stage   one run:
//!  bytes,   into    in, one    sinks     at once, on   inputs,
//!  decoded  games   record out (files,   all cores     threads,
//!                              streams)                sinks
//! ```
//!
//! The few types most users need are re-exported here, as shakmaty does:
//! [`Job`] and [`ReportOptions`] run the report over files, folders or
//! standard input; [`GameStream`] hands its rows out as Arrow record
//! batches; [`replay_text`] replays one game's text into a [`ReplayedGame`];
//! [`read_records`] reads a xiangqi record file; [`audit_line`] audits one
//! line of a FEN/EPD list.
//!
//! ## Reading a PGN file
//!
//! Every game of a file (or folder, or `.pgn.zst`), replayed on all cores,
//! as Arrow record batches with the columns of `games.csv`. An input that
//! cannot be read to its end (a download cut short, a damaged archive) is
//! no error, as on the command line: its games up to the break are rows,
//! and [`GameStream::finish`] says what was missed:
//!
//! ```
//! use pgnmill::{Job, Listing, ReportOptions};
//!
//! // Tata Steel Masters 2022, 91 games (shared/corpora/SOURCES.md).
//! let job = Job::new(&["testdata/corpus/pgn2tex-tatamast22.pgn".into()], Listing::Games)?;
//! let mut stream = job.games(&ReportOptions::default())?;
//! let mut games = 0;
//! for batch in stream.by_ref() {
//!     games += batch?.num_rows();
//! }
//! assert_eq!(games, 91);
//! let outcome = stream.finish()?;
//! assert!(outcome.summary.complete && outcome.warnings.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same loop over a `.zst` file cut short in the middle of a game
//! reads the games before the cut, and `finish` says so:
//!
//! ```
//! use pgnmill::{Job, Listing, ReportOptions};
//!
//! let job = Job::new(&["testdata/compressed/cut-short.pgn.zst".into()], Listing::Games)?;
//! let mut stream = job.games(&ReportOptions::default())?;
//! let games: usize = stream.by_ref().map(|b| b.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
//! let outcome = stream.finish()?;
//! assert!(games > 0 && !outcome.summary.complete);
//! assert!(outcome.warnings[0].contains("and any after it are missing"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! One game's text, replayed on its own:
//!
//! ```
//! use pgnmill::{ReplayOptions, Status, replay_text};
//!
//! let game = "[Event \"?\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
//! let record = replay_text(game, 1, &ReplayOptions::default());
//! assert_eq!(record.status, Status::Ok);
//! assert_eq!(record.plies, 4);
//! assert_eq!(record.outcome.termination.map(|t| t.as_str()), Some("checkmate"));
//! ```
//!
//! ## Reading an XQF file
//!
//! A xiangqi record file is read into the record form every format shares,
//! written as PGN text, and replayed like any PGN game (the expected moves
//! and final position are cchess's, `testdata/xiangqi/records-expected.json`):
//!
//! ```
//! use pgnmill::records::report_text;
//! use pgnmill::source::RecordFormat;
//! use pgnmill::{ReplayOptions, Status, read_records, replay_text};
//!
//! let bytes = std::fs::read("testdata/xiangqi/records/030-huang-songxuan-vs-feng-jingru.XQF")?;
//! let games = read_records(RecordFormat::Xqf, &bytes)?;
//! let text = report_text(&games[0]);
//! let record = replay_text(&text, 1, &ReplayOptions::default());
//! assert_eq!(record.status, Status::Ok);
//! assert_eq!(record.plies, 37);
//! assert_eq!(record.final_fen, "3nkab2/3ra4/R3b3n/p4rp1p/2p6/4N2R1/P1P3P2/4C1N2/9/2BAKAB2 b - - 4 19");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Reading a FEN list
//!
//! Each line of a FEN/EPD/perft list is a row of the `fen` audit: the
//! position written back under both en-passant conventions, its castling
//! field checked against the board, its legal moves (here against the
//! suite's published perft counts at depth 1, its `;D1` fields):
//!
//! ```
//! use pgnmill::fenlist::{FenOptions, FileState};
//! use pgnmill::audit_line;
//!
//! let text = std::fs::read_to_string("testdata/fen/ethereal-standard.epd")?;
//! let (opts, mut state) = (FenOptions::default(), FileState::default());
//! let mut checked = 0;
//! for (n, line) in (1..).zip(text.lines()) {
//!     let Some(row) = audit_line("suite.epd", n, line, &opts, &mut state) else {
//!         continue; // a comment
//!     };
//!     if let Some(d1) = line.split(";D1 ").nth(1).and_then(|f| f.split_whitespace().next()) {
//!         assert_eq!(row.legal_moves.map(|m| m.to_string()).as_deref(), Some(d1), "{line}");
//!         checked += 1;
//!     }
//! }
//! assert!(checked > 10);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The modules
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
//! - [`replay`]: one game in, one [`ReplayedGame`] out, with its `line_key`
//!   and opening.
//! - [`duplicates`]: which games copy an earlier or longer one, from one
//!   small entry per game.
//! - [`report`]: the column table, game rows to sinks (CSV, Parquet,
//!   report.html and summary.json, extracts, an Arrow stream), the totals.
//! - [`output`]: files that appear only when complete.
//! - [`pipeline`]: the report run, overlapped on all cores.
//! - [`job`]: one run: inputs, threads, sinks.
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
pub mod job;
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

pub use fenlist::audit_line;
pub use job::{ArrowReader, GameStream, Job, ReportOptions};
pub use records::read_records;
pub use replay::{ReplayOptions, ReplayedGame, Status, replay_text};
pub use source::Listing;

/// The Arrow crates whose types [`GameStream`] hands out
/// (`arrow_array::RecordBatch`, `arrow_schema::SchemaRef`), at the versions
/// this crate is built with: `pgnmill::arrow_array::cast::AsArray` works
/// without a dependency of one's own that must match them.
pub use arrow_array;
pub use arrow_schema;
