//! The shape of a report (its columns and files), where a game is, and
//! the header lines of the CSV files.

use super::columns::{CASTLING_COLUMNS, Column, OptionalColumns};
use super::csv_rows::clean_text;
use super::facts::FactsPlan;

/// The header line of `games.csv` for `columns` ([`super::columns::game_columns`]).
pub fn games_header(columns: &[Column]) -> Vec<u8> {
    header_bytes(columns)
}

/// The header line of `castling.csv`.
pub fn castling_header() -> Vec<u8> {
    header_bytes(&CASTLING_COLUMNS)
}

/// The header line of a CSV file with `columns`.
pub(super) fn header_bytes(columns: &[Column]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.write_record(columns.iter().map(|c| clean_text(&c.name).into_owned()));
    w.into_inner().unwrap_or_default()
}

/// About the length of a `games.csv` row without moves (270 bytes on the
/// lichess and TWIC corpus), rounded up.
pub(crate) const ROW_BYTES_HINT: usize = 320;

/// The shape of a run's report: its columns and its file formats.
#[derive(Clone, Debug)]
pub struct ReportLayout {
    /// The `moves` column (`--moves`).
    pub moves: bool,
    /// The clock columns (`--clocks`).
    pub clocks: bool,
    /// `plies.parquet`, and `plies.csv` with `csv` (`--plies`).
    pub plies: bool,
    /// One column per tag (`--tags`), named as given.
    pub tags: Vec<String>,
    /// Write `games.csv` and `castling.csv`.
    pub csv: bool,
    /// Write `games.parquet` and `castling.parquet`.
    pub parquet: bool,
    /// The duplicate columns and `duplicates.csv` (`--duplicates`).
    pub duplicates: bool,
}

impl ReportLayout {
    /// The columns the options add to `games.csv`.
    pub fn optional_columns(&self) -> OptionalColumns {
        OptionalColumns {
            moves: self.moves,
            clocks: self.clocks,
            duplicates: self.duplicates,
        }
    }

    /// Where the tags report.html breaks chess games down by are among
    /// the `--tags` columns.
    pub fn facts_plan(&self) -> FactsPlan {
        let at = |name: &str| self.tags.iter().position(|t| t.eq_ignore_ascii_case(name));
        FactsPlan {
            time_control_tag: at("TimeControl"),
            white_elo_tag: at("WhiteElo"),
            black_elo_tag: at("BlackElo"),
        }
    }
}

impl Default for ReportLayout {
    /// The default report: CSV, no optional column.
    fn default() -> Self {
        ReportLayout {
            moves: false,
            clocks: false,
            plies: false,
            tags: Vec::new(),
            csv: true,
            parquet: false,
            duplicates: false,
        }
    }
}
