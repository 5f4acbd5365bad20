//! A report's options as a person spells them, the command line's flags
//! (`pgnmill report --help`) and the Python package's keywords alike,
//! turned into [`ReportOptions`] in this one place: both front ends accept
//! the same words, have the same defaults and refuse with the same
//! reasons.

use std::path::PathBuf;

use super::ReportOptions;
use crate::duplicates::DuplicateOptions;
use crate::openings::{COMPILED_IN_COMMIT, OpeningBook, OpeningsError};
use crate::pgn::select::{Condition, TagQuery};
use crate::replay::ply_data::PlyDataOptions;
use crate::replay::{CurationOptions, ReplayOptions};
use crate::report::ExtractRequest;
use crate::report::columns::tag_columns;
use crate::report::summary::RunOptions;
use crate::variant::GameVariant;
use std::sync::Arc;

/// Why a request's options are refused.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// A `--tags` list that names a roster tag, or two tags whose columns
    /// would share a name.
    #[error("{0}")]
    Tags(String),
    /// An `--openings` table that cannot be read or holds a bad line: kept
    /// whole, so that a front end can tell a missing file from a bad one
    /// (Python raises `FileNotFoundError` for the first, as `open` does).
    #[error("--openings {0}")]
    Openings(#[from] OpeningsError),
}

/// What a report is asked for, in the user's words.
#[derive(Debug, Clone, Default)]
pub struct ReportRequest {
    /// The inputs as given (folders not expanded), as summary.json
    /// records them.
    pub inputs: Vec<PathBuf>,
    /// `--tags`: tag names and `lichess`; an item may be a comma list.
    pub tags: Vec<String>,
    /// `--where`, each read with [`Condition`]'s `FromStr`.
    pub conditions: Vec<Condition>,
    /// `--moves`.
    pub moves: bool,
    /// `--clocks`: the clock and evaluation columns.
    pub clocks: bool,
    /// `--plies`: the plies files (plies.parquet, and plies.csv with CSV).
    pub plies: bool,
    /// `--variant`: the rules forced on every game; `None` is `auto`.
    pub variant: Option<GameVariant>,
    /// `--format`, in the order given.
    pub formats: Vec<Format>,
    /// `--extract`.
    pub extracts: Vec<ExtractRequest>,
    /// `--strict`.
    pub strict: bool,
    /// `--openings`: opening tables replacing the compiled-in one, in
    /// order (a later line wins for a position listed twice).
    pub openings: Vec<PathBuf>,
    /// `--duplicates`.
    pub duplicates: bool,
    /// `--duplicates-min-plies` (10 when not given).
    pub duplicates_min_plies: Option<u32>,
    /// `--against`: collections only matched against.
    pub against: Vec<PathBuf>,
}

/// A file format of the report's tables (`--format`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// games.csv and castling.csv.
    Csv,
    /// games.parquet and castling.parquet.
    Parquet,
}

impl Format {
    /// The word for it: `csv`, `parquet`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(word: &str) -> Result<Format, String> {
        match word {
            "csv" => Ok(Format::Csv),
            "parquet" => Ok(Format::Parquet),
            other => Err(format!(
                "invalid format '{other}' (possible formats: csv, parquet)"
            )),
        }
    }
}

/// The word `--variant` takes for the rules forced on every game (`auto`
/// for none), and back.
pub fn variant_name(variant: Option<&GameVariant>) -> &'static str {
    variant.map_or("auto", GameVariant::static_name)
}

impl ReportRequest {
    /// The options of the run; `Err` with the reason a tag list is refused
    /// (a roster tag, a name that is not a tag's, two tags whose columns
    /// would share a name) or an openings table cannot be used.
    pub fn options(&self) -> Result<ReportOptions, OptionsError> {
        let given: Vec<String> = self
            .tags
            .iter()
            .flat_map(|t| t.split(','))
            .map(str::to_string)
            .collect();
        let tags = tag_columns(&given).map_err(OptionsError::Tags)?;
        let openings = if self.openings.is_empty() {
            None
        } else {
            Some(Arc::new(OpeningBook::from_files(&self.openings)?))
        };
        let duplicates = (self.duplicates
            || self.duplicates_min_plies.is_some()
            || !self.against.is_empty()
            || self.extracts.iter().any(|e| e.kind.needs_duplicates()))
        .then(|| DuplicateOptions {
            min_plies: self
                .duplicates_min_plies
                .unwrap_or(DuplicateOptions::default().min_plies),
        });
        Ok(ReportOptions {
            duplicates,
            replay: ReplayOptions {
                moves: self.moves,
                variant: self.variant.clone(),
                curation: CurationOptions {
                    openings,
                    ..CurationOptions::default()
                },
                ply_data: PlyDataOptions {
                    clocks: self.clocks,
                    plies: self.plies,
                },
            },
            select: TagQuery::new(tags.clone(), self.conditions.clone()),
            csv: self.formats.contains(&Format::Csv),
            parquet: self.formats.contains(&Format::Parquet),
            extracts: self.extracts.clone(),
            summary: RunOptions {
                tags,
                where_: self.conditions.iter().map(|c| c.to_string()).collect(),
                format: self.formats.iter().map(|f| f.name().to_string()).collect(),
                variant: variant_name(self.variant.as_ref()).to_string(),
                moves: self.moves,
                clocks: self.clocks,
                plies: self.plies,
                extract: self.extracts.iter().map(|e| e.to_string()).collect(),
                strict: self.strict,
                inputs: self
                    .inputs
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
                openings: self
                    .openings
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
                openings_table: if self.openings.is_empty() {
                    format!("lichess-org/chess-openings {COMPILED_IN_COMMIT}")
                } else {
                    "--openings".to_string()
                },
                duplicates: duplicates.is_some(),
                duplicates_min_plies: duplicates.map_or(0, |d| d.min_plies),
                against: self
                    .against
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
            },
        })
    }
}

/// The worker threads a run asks for, as [`thread_count`] settles them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threads {
    /// The threads to run on.
    pub count: usize,
    /// The number asked for, when it was more than the CPUs the process
    /// may use (more threads than CPUs only take turns, at a cost in time
    /// and memory): the front end warns.
    pub capped_from: Option<usize>,
}

/// The worker threads for `requested` (all the CPUs the process may use
/// when `None`); `Err` for 0, which the front end words with its flag's
/// name.
pub fn thread_count(requested: Option<usize>) -> Result<Threads, ZeroThreads> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    match requested {
        Some(0) => Err(ZeroThreads),
        Some(n) if n > cpus => Ok(Threads {
            count: cpus,
            capped_from: Some(n),
        }),
        Some(n) => Ok(Threads {
            count: n,
            capped_from: None,
        }),
        None => Ok(Threads {
            count: cpus,
            capped_from: None,
        }),
    }
}

/// A run asked for no threads at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZeroThreads;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_read_by_their_words() {
        assert_eq!("csv".parse(), Ok(Format::Csv));
        assert_eq!("parquet".parse(), Ok(Format::Parquet));
        assert!(
            "CSV"
                .parse::<Format>()
                .unwrap_err()
                .contains("csv, parquet")
        );
    }

    #[test]
    fn tag_items_may_be_comma_lists() {
        let request = ReportRequest {
            tags: vec!["WhiteElo,BlackElo".into(), "ECO".into()],
            ..ReportRequest::default()
        };
        let options = request.options().unwrap();
        assert_eq!(options.summary.tags, ["WhiteElo", "BlackElo", "ECO"]);
        let roster = ReportRequest {
            tags: vec!["White".into()],
            ..ReportRequest::default()
        };
        assert!(roster.options().unwrap_err().to_string().contains("white"));
    }

    #[test]
    fn clocks_and_plies_reach_the_replay_and_the_summary() {
        for (clocks, plies) in [(true, false), (false, true)] {
            let request = ReportRequest {
                clocks,
                plies,
                ..ReportRequest::default()
            };
            let options = request.options().unwrap();
            let replay = options.replay.ply_data;
            assert_eq!((replay.clocks, replay.plies), (clocks, plies));
            let summary = &options.summary;
            assert_eq!((summary.clocks, summary.plies), (clocks, plies));
        }
    }

    #[test]
    fn zero_threads_are_refused_and_too_many_capped() {
        assert_eq!(thread_count(Some(0)), Err(ZeroThreads));
        let cpus = thread_count(None).unwrap().count;
        assert_eq!(thread_count(Some(1)).unwrap().count, 1);
        let many = thread_count(Some(cpus + 1)).unwrap();
        assert_eq!((many.count, many.capped_from), (cpus, Some(cpus + 1)));
    }
}
