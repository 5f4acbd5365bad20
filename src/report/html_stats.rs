//! The numbers behind report.html, kept by the ordered writer from each
//! game's [`GameFacts`] as its chunk is written: a few additions a game,
//! so that a report without the new options costs what it did.

use super::facts::GameFacts;
use crate::replay::Status;
use std::collections::BTreeMap;

/// Games and missed threefolds of one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub missed: u64,
}

impl Tally {
    fn add(&mut self, missed: bool) {
        self.games += 1;
        self.missed += u64::from(missed);
    }
}

/// Games by a small count (`rep_max`): an array for the usual values, a
/// map for the rare large ones; this runs for every game.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    small: [u64; 16],
    large: BTreeMap<u32, u64>,
}

impl Counts {
    fn add(&mut self, value: u32) {
        match self.small.get_mut(value as usize) {
            Some(n) => *n += 1,
            None => *self.large.entry(value).or_insert(0) += 1,
        }
    }

    /// The values counted, in order, with their counts (none of zero).
    pub fn iter(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        (0u32..)
            .zip(self.small)
            .filter(|&(_, n)| n > 0)
            .chain(self.large.iter().map(|(&v, &n)| (v, n)))
    }

    /// The count of `value`.
    pub fn get(&self, value: u32) -> u64 {
        match self.small.get(value as usize) {
            Some(&n) => n,
            None => self.large.get(&value).copied().unwrap_or(0),
        }
    }
}

impl HtmlStats {
    /// The years counted, in order, with their tallies.
    pub fn years(&self) -> impl Iterator<Item = (usize, Tally)> + '_ {
        self.by_year
            .iter()
            .enumerate()
            .filter(|(_, t)| t.games > 0)
            .map(|(y, t)| (y, *t))
    }
}

/// A game that did not replay, as report.html shows it.
#[derive(Clone, Debug)]
pub struct ErrorExample {
    pub source: String,
    pub game: u64,
    pub line: u64,
    pub status: Status,
    pub message: String,
}

/// A castling conflict, as report.html shows it.
#[derive(Clone, Debug)]
pub struct CastlingExample {
    pub source: String,
    pub game: u64,
    pub line: u64,
    pub invalid: String,
    pub reason: String,
}

/// Examples kept of each kind: enough to see what went wrong.
pub const ERROR_EXAMPLES: usize = 5;
pub const CASTLING_EXAMPLES: usize = 20;

/// The first errors of one input (its totals are the summary's).
#[derive(Clone, Debug, Default)]
pub struct InputStats {
    pub name: String,
    pub errors: Vec<ErrorExample>,
}

/// The rules a game was read with, as report.html groups games: most of
/// its sections mean something for one kind of game only (en-passant
/// conventions and castling for chess, perpetual checks for xiangqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `chess` and `chess960`.
    Chess,
    Xiangqi,
    /// A variant pgnmill does not replay.
    Other,
}

impl Family {
    /// The family of a `variant` column value.
    pub fn of(variant: &str) -> Family {
        match variant {
            "chess" | "chess960" => Family::Chess,
            "xiangqi" => Family::Xiangqi,
            _ => Family::Other,
        }
    }
}

/// The games of one family and their repetitions.
#[derive(Clone, Debug, Default)]
pub struct FamilyStats {
    pub games: u64,
    /// Games with a threefold repetition (ep-if-legal for chess; xiangqi
    /// has no en passant, its two conventions agree).
    pub threefolds: u64,
    /// Games by `rep_max` (games replayed from a position, so > 0).
    pub rep_ep_always: Counts,
    pub rep_ep_legal: Counts,
}

impl FamilyStats {
    fn add(&mut self, g: &GameFacts) {
        self.games += 1;
        self.threefolds += u64::from(g.threefold_ep_legal);
        if g.rep_max_ep_always > 0 {
            self.rep_ep_always.add(g.rep_max_ep_always);
        }
        if g.rep_max_ep_legal > 0 {
            self.rep_ep_legal.add(g.rep_max_ep_legal);
        }
    }
}

/// Everything report.html shows beyond `summary.json`'s totals, which it
/// reads from the summary itself.
#[derive(Clone, Debug, Default)]
pub struct HtmlStats {
    pub inputs: Vec<InputStats>,
    pub chess: FamilyStats,
    pub xiangqi: FamilyStats,
    /// Games of variants pgnmill does not replay.
    pub other_games: u64,
    /// Whether the TimeControl tag is a column (`--tags`): the breakdown
    /// by time-control class needs it.
    pub has_time_control: bool,
    /// Whether WhiteElo and BlackElo are columns: the breakdown by rating
    /// band needs them.
    pub has_ratings: bool,
    /// By time-control class (index of `classes::TIME_CONTROL_CLASSES`).
    /// This and the breakdowns below count chess games only: the others
    /// have no en passant to miss a threefold by.
    pub by_time_control: BTreeMap<u8, Tally>,
    /// Chess games whose TimeControl has no class (`-`, `?`, none).
    pub time_control_unknown: Tally,
    /// By the lower end of the rating band.
    pub by_rating_band: BTreeMap<u32, Tally>,
    /// Chess games without both ratings as numbers.
    pub rating_unknown: Tally,
    /// By year, indexed by the year (a Date's four digits, or UTCDate's):
    /// an array, not a map, since nearly every game has a year to count.
    pub by_year: Vec<Tally>,
    /// Chess games without a year in Date or UTCDate.
    pub year_unknown: Tally,
    pub by_time_control_and_band: BTreeMap<(u8, u32), Tally>,
    pub castling: Vec<CastlingExample>,
}

impl HtmlStats {
    /// The stats of a report whose tag columns include TimeControl
    /// (`time_control`) and both ratings (`ratings`).
    pub fn new(time_control: bool, ratings: bool) -> Self {
        HtmlStats {
            has_time_control: time_control,
            has_ratings: ratings,
            ..HtmlStats::default()
        }
    }

    /// Starts a new input.
    pub fn begin_input(&mut self, name: &str) {
        self.inputs.push(InputStats {
            name: name.to_string(),
            ..InputStats::default()
        });
    }

    /// Adds one game of the current input.
    pub fn add(&mut self, g: &GameFacts) {
        match Family::of(&g.variant) {
            Family::Chess => {
                self.chess.add(g);
                self.add_chess_classes(g);
            }
            Family::Xiangqi => self.xiangqi.add(g),
            Family::Other => self.other_games += 1,
        }
        if let Some(c) = &g.castling
            && self.castling.len() < CASTLING_EXAMPLES
        {
            let source = self.inputs.last().map(|i| i.name.clone());
            self.castling.push(CastlingExample {
                source: source.unwrap_or_default(),
                game: g.game,
                line: g.span.line,
                invalid: c.0.clone(),
                reason: c.1.clone(),
            });
        }
        // A damaged input's games are its fault, not theirs: not errors
        // (docs/reports.md), and they would take the examples' places.
        if let Some(input) = self.inputs.last_mut()
            && let Some(message) = &g.error
            && g.status.is_broken()
            && input.errors.len() < ERROR_EXAMPLES
        {
            input.errors.push(ErrorExample {
                source: input.name.clone(),
                game: g.game,
                line: g.span.line,
                status: g.status,
                message: message.to_string(),
            });
        }
    }

    /// Counts a chess game in the breakdowns of missed threefolds: under
    /// its classes, or as unknown where it has none.
    fn add_chess_classes(&mut self, g: &GameFacts) {
        let missed = g.missed_threefold;
        if self.has_time_control {
            match g.time_control {
                Some(tc) => self.by_time_control.entry(tc).or_default().add(missed),
                None => self.time_control_unknown.add(missed),
            }
        }
        if self.has_ratings {
            match g.rating_band {
                Some(band) => self.by_rating_band.entry(band).or_default().add(missed),
                None => self.rating_unknown.add(missed),
            }
        }
        if let (Some(tc), Some(band)) = (g.time_control, g.rating_band) {
            self.by_time_control_and_band
                .entry((tc, band))
                .or_default()
                .add(missed);
        }
        match g.year {
            Some(year) => {
                let y = usize::from(year);
                if self.by_year.len() <= y {
                    self.by_year.resize(y + 1, Tally::default());
                }
                if let Some(t) = self.by_year.get_mut(y) {
                    t.add(missed);
                }
            }
            None => self.year_unknown.add(missed),
        }
    }
}
