//! One game in, one record out: replays a game's main line with the rules
//! kernel its variant needs and counts repetitions under both en-passant
//! conventions. Nothing here knows about files, threads or CSV.

pub mod record;
pub mod repetition;
pub mod variant;

pub use record::{CastlingConflict, GameRecord, GameTags};
pub use repetition::{RepetitionStats, RepetitionTable};
pub use variant::GameVariant;
