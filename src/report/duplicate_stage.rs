//! `--duplicates` on the writer thread: every game's entry goes to the
//! detector in input order ([`crate::duplicates::Detector::push`]) and its
//! record to an unnamed file beside the report ([`Spill`]); when the last
//! game is in, [`DuplicateStage::settle`] reads the lines back for the
//! detector's second pass and gives every row its verdict
//! ([`DuplicateRows`]), which the sinks then add to their files.
//!
//! The games of `--against` collections come first, through a run of
//! their own with no sink: they are matched against, and have no row.
//!
//! Kept per game: the detector's 32 bytes and about 80 a distinct line
//! (`Detector`), 16 bytes of source and game number and 8 of the record's
//! place here, and once settled 24 bytes of verdict: about 160 bytes a
//! game in memory (16 GB for a lichess month of 10⁸ games), and on disk
//! the record, 2 bytes a ply and about 100 more (docs/reports.md,
//! "Duplicates").

use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::columns::DuplicateFields;
use super::duplicate_entries::{DuplicateEntries, Record};
use super::facts::GameFacts;
use crate::duplicates::{Detector, DupKind, DuplicateOptions, Verdict};
use crate::output::{Frames, OutputError, Spill, SpillReader};
use std::path::Path;

/// A stage that two runs fill in turn (the `--against` collections, then
/// the inputs), settled by the second.
#[derive(Clone)]
pub struct SharedStage(Arc<Mutex<Option<DuplicateStage>>>);

impl SharedStage {
    /// Runs `f` on the stage; `None` once it was taken to be settled (or
    /// a thread panicked holding it).
    pub fn with<R>(&self, f: impl FnOnce(&mut DuplicateStage) -> R) -> Option<R> {
        let mut stage = self.0.lock().ok()?;
        stage.as_mut().map(f)
    }

    /// The stage itself, for the run that settles it.
    pub fn take(&self) -> Option<DuplicateStage> {
        self.0.lock().ok()?.take()
    }
}

/// Where a game is: its source (an index into the stage's names) and its
/// `game` number there.
#[derive(Clone, Copy, Debug)]
struct GameRef {
    source: u32,
    game: u64,
}

pub struct DuplicateStage {
    options: DuplicateOptions,
    detector: Detector,
    spill: Spill,
    /// Where each game's record starts in `spill`.
    offsets: Vec<u64>,
    refs: Vec<GameRef>,
    sources: Vec<String>,
    /// The `--against` collections and their games, when the inputs begin.
    against: Vec<AgainstSummary>,
    /// Games of `--against` collections: the first of the detector's.
    masters: usize,
    /// Whether the games coming are the `--against` collections'.
    reading_masters: bool,
}

/// An `--against` collection, as `summary.json` lists it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AgainstSummary {
    pub source: String,
    pub games: u64,
}

/// The counts of `summary.json`'s `duplicates` object.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct DuplicateTotals {
    /// `--duplicates-min-plies`.
    pub min_plies: u32,
    /// Rows with each `dup_kind`.
    pub exact: u64,
    pub prefix: u64,
    pub transposition: u64,
    /// Rows whose `dup_of` is an `--against` game.
    pub of_against: u64,
    /// Rows that `--extract unique=` keeps: no `dup_kind` of `exact` or
    /// `prefix`.
    pub unique: u64,
    pub against: Vec<AgainstSummary>,
}

impl DuplicateStage {
    /// A stage whose scratch file lies in `dir`.
    pub fn new(dir: &Path, options: DuplicateOptions) -> Result<Self, OutputError> {
        Ok(DuplicateStage {
            options,
            detector: Detector::new(options),
            spill: Spill::create_in(dir)?,
            offsets: Vec::new(),
            refs: Vec::new(),
            sources: Vec::new(),
            against: Vec::new(),
            masters: 0,
            reading_masters: false,
        })
    }

    /// The stage, to be filled by two runs.
    pub fn shared(self) -> SharedStage {
        SharedStage(Arc::new(Mutex::new(Some(self))))
    }

    /// The games that come until [`DuplicateStage::end_against`] are of
    /// `--against` collections.
    pub fn begin_against(&mut self) {
        self.reading_masters = true;
    }

    /// The `--against` collections are read: the inputs come.
    pub fn end_against(&mut self) {
        self.reading_masters = false;
        self.masters = self.refs.len();
    }

    /// A new source starts (`name` as the `source` column names it).
    pub fn begin_input(&mut self, name: &str) {
        self.sources.push(name.to_string());
        if self.reading_masters {
            self.against.push(AgainstSummary {
                source: name.to_string(),
                games: 0,
            });
        }
    }

    /// The next chunk's games (their facts, and their entries in the same
    /// order), of the source begun last.
    pub fn add(
        &mut self,
        games: &[GameFacts],
        entries: &DuplicateEntries,
    ) -> Result<(), OutputError> {
        let source = self.sources.len().saturating_sub(1) as u32;
        for (facts, (entry, record)) in games.iter().zip(entries.iter()) {
            self.offsets.push(self.spill.position());
            // An exact copy's line is its original's: the second pass
            // passes it over, and only its tags are kept.
            let line = entry.line.map_or(0, <[u8]>::len);
            let probed = self.detector.push(&entry);
            let kept = if probed {
                record
            } else {
                &record[..record.len() - line]
            };
            self.spill.write_frame(kept)?;
            self.refs.push(GameRef {
                source,
                game: facts.game,
            });
        }
        if let Some(last) = self.against.last_mut().filter(|_| self.reading_masters) {
            last.games += games.len() as u64;
        }
        Ok(())
    }

    /// Every game is in: the detector's second pass over the lines kept,
    /// and each row's verdict.
    pub fn settle(self) -> Result<DuplicateRows, OutputError> {
        let DuplicateStage {
            options,
            mut detector,
            spill,
            offsets,
            refs,
            sources,
            against,
            masters,
            ..
        } = self;
        let spill = spill.into_reader()?;
        let mut frames = spill.frames()?;
        let mut index = 0;
        while let Some(record) = frames.next_frame()? {
            if let Some(line) = Record::line_of(record).filter(|l| !l.is_empty()) {
                detector.probe(index, line);
            }
            index += 1;
        }
        Ok(DuplicateRows {
            min_plies: options.min_plies,
            verdicts: detector.finish(),
            refs,
            sources,
            against,
            masters,
            spill,
            offsets,
        })
    }
}

/// The rows of `duplicates.csv` and the games they copy: the rows' own
/// records from one buffered read of the scratch file in order, those of
/// the games copied from their places.
pub struct PairReader<'r> {
    rows: &'r DuplicateRows,
    sequential: Frames,
    /// The index of the record `sequential` reads next.
    next: usize,
    this: Vec<u8>,
    /// The records of games copied, by index, in [`COPIED_SLOTS`] slots
    /// (a game's slot is its index's remainder): many rows copy the same
    /// few games, and each read of one is a system call.
    copied: Vec<(usize, Vec<u8>)>,
}

/// Slots of [`PairReader::copied`]: at most a few megabytes of records.
const COPIED_SLOTS: usize = 1 << 14;

impl PairReader<'_> {
    /// Row `row` (rows asked for in increasing order) and the game it
    /// copies; `None` for a row that copies none.
    pub fn pair(
        &mut self,
        row: usize,
    ) -> Result<Option<(GameSide<'_>, GameSide<'_>)>, OutputError> {
        let rows = self.rows;
        let Some(verdict) = rows.verdict(row) else {
            return Ok(None);
        };
        let index = rows.index_of_row(row);
        while self.next <= index {
            let frame = self.sequential.next_frame()?.unwrap_or_default();
            self.this.clear();
            self.this.extend_from_slice(frame);
            self.next += 1;
        }
        let this = rows.game_side(index, &self.this)?;
        let (held, record) = &mut self.copied[verdict.dup_of % COPIED_SLOTS];
        if *held != verdict.dup_of {
            let at = rows
                .offsets
                .get(verdict.dup_of)
                .copied()
                .unwrap_or_default();
            rows.spill.frame_at(at, record)?;
            *held = verdict.dup_of;
        }
        let of = rows.game_side(verdict.dup_of, record)?;
        Ok(Some((this, of)))
    }
}

/// Every row's verdict once the run is over, for the sinks to add: the
/// duplicate columns, `duplicates.csv`, the unique and duplicates
/// extracts, the counts.
pub struct DuplicateRows {
    min_plies: u32,
    /// Every game's, `--against` games first.
    verdicts: Vec<Option<Verdict>>,
    refs: Vec<GameRef>,
    sources: Vec<String>,
    against: Vec<AgainstSummary>,
    masters: usize,
    spill: SpillReader,
    offsets: Vec<u64>,
}

/// One side of a `duplicates.csv` row: a game's source, number and
/// record (plies, White, Black, Date), read back from the scratch file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSide<'a> {
    pub source: &'a str,
    pub game: u64,
    pub record: Record<'a>,
}

impl DuplicateRows {
    /// Rows of the report (games of the inputs).
    pub fn rows(&self) -> usize {
        self.verdicts.len() - self.masters
    }

    /// The verdict of row `row` (from 0, in input order).
    pub fn verdict(&self, row: usize) -> Option<&Verdict> {
        self.verdicts.get(self.masters + row)?.as_ref()
    }

    /// Whether `--extract unique=` keeps row `row`.
    pub fn is_unique(&self, row: usize) -> bool {
        !matches!(
            self.verdict(row).map(|v| v.kind),
            Some(DupKind::Exact | DupKind::Prefix)
        )
    }

    /// The duplicate columns of row `row`.
    pub fn fields(&self, row: usize) -> DuplicateFields {
        let mut fields = DuplicateFields::default();
        self.fields_into(row, &mut fields);
        fields
    }

    /// The same into `fields`, its strings reused.
    pub fn fields_into(&self, row: usize, fields: &mut DuplicateFields) {
        fields.dup_of.clear();
        fields.headers.clear();
        fields.kind = "";
        let Some(v) = self.verdict(row) else {
            return;
        };
        if let Some(r) = self.refs.get(v.dup_of) {
            let source = self.sources.get(r.source as usize).map_or("", |s| s);
            fields.dup_of.push_str(source);
            fields.dup_of.push(':');
            fields.dup_of.push_str(itoa::Buffer::new().format(r.game));
        }
        fields.kind = v.kind.as_str();
        v.headers.write_words(&mut fields.headers);
    }

    /// Game `index` of all games (`--against` games first), whose record
    /// is `bytes`.
    fn game_side<'b>(&'b self, index: usize, bytes: &'b [u8]) -> Result<GameSide<'b>, OutputError> {
        let record = Record::parse(bytes).ok_or_else(|| OutputError::Format {
            file: "duplicates.csv".into(),
            message: format!("game {index}: a damaged record in the scratch file"),
        })?;
        let r = self
            .refs
            .get(index)
            .copied()
            .unwrap_or(GameRef { source: 0, game: 0 });
        Ok(GameSide {
            source: self.sources.get(r.source as usize).map_or("", |s| s),
            game: r.game,
            record,
        })
    }

    /// Reads each row and the game it copies, rows in order.
    pub fn pairs(&self) -> Result<PairReader<'_>, OutputError> {
        Ok(PairReader {
            rows: self,
            sequential: self.spill.frames()?,
            next: 0,
            this: Vec::new(),
            copied: vec![(usize::MAX, Vec::new()); COPIED_SLOTS],
        })
    }

    /// The index among all games of row `row`.
    pub fn index_of_row(&self, row: usize) -> usize {
        self.masters + row
    }

    /// The counts of `summary.json`.
    pub fn totals(&self) -> DuplicateTotals {
        let mut totals = DuplicateTotals {
            min_plies: self.min_plies,
            against: self.against.clone(),
            ..DuplicateTotals::default()
        };
        for row in 0..self.rows() {
            match self.verdict(row) {
                None => {}
                Some(v) => {
                    match v.kind {
                        DupKind::Exact => totals.exact += 1,
                        DupKind::Prefix => totals.prefix += 1,
                        DupKind::Transposition => totals.transposition += 1,
                    }
                    if v.dup_of < self.masters {
                        totals.of_against += 1;
                    }
                }
            }
            if self.is_unique(row) {
                totals.unique += 1;
            }
        }
        totals
    }
}
