//! Xiangqi (Chinese chess) rules kernel and notation.
//!
//! Split by question, after Pikafish: [`types`] says what things are; the
//! board, attacks, position and move generation modules say where pieces can
//! go; the notation modules translate moves to and from Chinese, WXF and ICCS.

pub mod notation;
pub mod types;
