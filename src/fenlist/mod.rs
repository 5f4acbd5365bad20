//! FEN/EPD lists, one position per line (an EPD record): reading a line
//! into a [`FenLine`] ([`mod@line`]) and auditing it into a CSV row
//! ([`audit`]); and a
//! xiangqi record file's games, each audited as the one position it sets
//! up ([`record_game`]). This is the library side of `pgnmill fen`; it knows
//! nothing of files, folders or compression (the caller hands it lines, or
//! the games `crate::records` read) and nothing of the CLI.
//!
//! ```
//! use pgnmill::fenlist::{FenOptions, FileState, audit_line};
//!
//! let opts = FenOptions::default();
//! let mut state = FileState::default();
//! let lines = ["id pos-2", "epd r3k2r/8/8/8/8/8/8/R3K2R w KQkq -", "perft 1 26"];
//! let rows: Vec<_> = (1..)
//!     .zip(lines)
//!     .filter_map(|(n, text)| audit_line("suite.perft", n, text, &opts, &mut state))
//!     .collect();
//! assert_eq!(rows.len(), 1);
//! assert_eq!(rows[0].id, "pos-2");
//! assert_eq!(rows[0].legal_moves, Some(26));
//! assert_eq!(state.perft_lines, 1);
//! ```

pub mod audit;
pub mod line;
pub mod record_game;
pub mod sniff;

pub use audit::{COLUMNS, FenOptions, FenRow, Variant, VariantRule, audit_line, audit_record};
pub use line::{EpdOp, FenLine, FileState, read_line};
pub use record_game::{NO_POSITION, audit_record_game};
pub use sniff::looks_like_pgn;
