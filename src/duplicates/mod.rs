//! Which games copy another: `dup_of`, `dup_kind` and `dup_headers` of
//! `--duplicates` (docs/reports.md), from one small [`Entry`] per game.
//!
//! A game's kind is the first that applies of:
//! - `exact`: the same `line_key` as an earlier game; `dup_of` is the first
//!   game with that key;
//! - `prefix`: its main line, from the same start, is a strict prefix of a
//!   longer game's; `dup_of` is the longest such game, the earliest on ties;
//! - `transposition`: the same start, final position and ply count as an
//!   earlier game by another move order; `dup_of` is the first such.
//!
//! A game of fewer than `min_plies` plies (an aborted game, a placeholder)
//! is a duplicate only of games whose White, Black, Event, Site and Date
//! agree with its own ([`HeaderPrints`]), and `dup_of` is chosen among
//! those. Games whose line did not replay whole (no `line_key`) are
//! neither duplicates nor copied.
//!
//! The [`Detector`] works in two passes over the games, so that no prefix
//! of any line is ever stored: [`Detector::push`] takes every game in input
//! order (exact copies and transpositions are settled there), then
//! [`Detector::probe`] takes each game's line again (from a spill file or
//! a second read) and looks each of its prefixes up among the lines
//! pushed, a cheap 64-bit chained hash per ply (`chain`) checked against
//! a bit filter first, a candidate confirmed by its `line_key`. Memory per
//! game is stated on [`Detector`].

mod chain;
mod detector;
mod headers;

pub use chain::chain_keys;
pub use detector::{Detector, DuplicateOptions, Entry, Verdict};
pub use headers::{HeaderComparison, HeaderPrints, Tags, normalized};

/// What kind of duplicate a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DupKind {
    Exact,
    Prefix,
    Transposition,
}

impl DupKind {
    /// The `dup_kind` column's word.
    pub fn as_str(self) -> &'static str {
        match self {
            DupKind::Exact => "exact",
            DupKind::Prefix => "prefix",
            DupKind::Transposition => "transposition",
        }
    }
}
