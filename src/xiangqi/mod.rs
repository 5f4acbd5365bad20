//! Xiangqi (Chinese chess) rules kernel and notation.
//!
//! Split by question, after Pikafish: [`types`] says what things are;
//! [`board`] what stands where; [`attacks`] where pieces can go given
//! blockers (horse legs, elephant eyes, cannon screens) and whether a king is
//! attacked; [`movegen`] the legal moves; [`position`] the game state with
//! `play` and an incremental [`zobrist`] key; [`fen`] reading and writing
//! FEN; [`perft`](mod@perft) move-tree counts. The notation modules translate moves to
//! and from Chinese, WXF and ICCS.
//!
//! ```
//! use pgnmill::xiangqi::{Position, types::Move};
//!
//! let mut pos = Position::startpos();
//! for iccs in ["h2e2", "h7e7", "e2e6"] {
//!     let m = Move::from_iccs(iccs).unwrap();
//!     assert!(pos.is_legal(m));
//!     pos.play(m);
//! }
//! // As pyffish writes it: get_fen('xiangqi', startpos, ['h3e3', 'h8e8', 'e3e7']).
//! assert_eq!(pos.fen(), "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2");
//! assert!(pos.is_check());
//! ```

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;
pub mod notation;
mod notation_board;
pub mod perft;
pub mod position;
pub mod problems;
pub mod types;
pub mod zobrist;

pub use fen::FenError;
pub use movegen::MoveList;
pub use perft::{divide, perft};
pub use position::Position;
