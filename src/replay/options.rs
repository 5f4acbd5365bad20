//! What the user asked of every game's replay.

use super::curation::CurationOptions;
use crate::variant::GameVariant;

/// What the user asked of every game's replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Keep the main line (UCI or ICCS) for the `moves` column.
    pub moves: bool,
    /// `--variant` other than `auto`: replay every game by these rules.
    pub variant: Option<GameVariant>,
    /// Line keys and opening names (`--duplicates`, `--openings`).
    pub curation: CurationOptions,
    /// Clocks, evaluations and one row per ply (`--clocks`, `--plies`).
    pub ply_data: super::ply_data::PlyDataOptions,
}
