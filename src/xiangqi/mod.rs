//! Xiangqi (Chinese chess) rules kernel and notation.
//!
//! Split by question, after Pikafish: [`types`] says what things are; the
//! board, attacks, position and move generation modules say where pieces can
//! go; the notation modules translate moves to and from Chinese, WXF and ICCS.

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;
pub mod notation;
mod notation_board;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use fen::FenError;
pub use movegen::MoveList;
pub use perft::{divide, perft};
pub use position::Position;
