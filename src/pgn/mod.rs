//! Zero-copy PGN reading: find where each game is in a byte buffer
//! ([`split`]), then read one game's tag pairs ([`tag`]) and main-line
//! movetext tokens ([`movetext`]) without allocating.
//!
//! The module knows nothing of chess or xiangqi rules: a move is a byte slice
//! that a rules kernel will interpret. Its priorities, in order (those of
//! pgn-reader): safe on untrusted input (no panics, linear time, no recursion
//! the input can make deep), correct on valid PGN, fast, reasonable on invalid
//! PGN.
//!
//! ```
//! use pgnmill::pgn::{split_all, GameText, TokenKind};
//!
//! let pgn = b"[Event \"x\"]\n[White \"A\"]\n\n1. e4 {hi} e5 (1... c5) 2. Nf3 1-0\n";
//! let spans = split_all(pgn, false);
//! assert_eq!(spans.len(), 1);
//! let game = GameText::new(spans[0].slice(pgn, 0).unwrap(), spans[0].line);
//! let white = game.tags().find(|t| t.name_is("white")).unwrap();
//! assert_eq!(&*white.value(), b"A");
//! let moves: Vec<&[u8]> = game
//!     .movetext()
//!     .filter(|t| t.kind == TokenKind::Move)
//!     .map(|t| t.text)
//!     .collect();
//! assert_eq!(moves, [&b"e4"[..], b"e5", b"Nf3"]);
//! ```

mod batches;
pub mod commands;
pub mod comments;
pub mod game;
pub mod glyphs;
pub mod headers;
pub mod lines;
mod main_line;
pub mod movetext;
mod python_text;
pub mod select;
pub mod split;
mod split_parallel;
pub mod tag;
pub mod time_control;

pub use batches::{Batch, Batches, ReaderNote};
pub use game::GameText;
pub use main_line::MainLine;
pub use movetext::{Movetext, Token, TokenKind};
pub use split::{GameSpan, Position, split_all, split_window};
pub use split_parallel::{split_window_at, split_window_parallel};
pub use tag::{Tag, Tags};
