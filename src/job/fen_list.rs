//! The `fen` run: every record of FEN/EPD/perft lists (and the start
//! position of every game of xiangqi record files) audited on the worker
//! threads, the rows handed to the caller in input order
//! ([`Job::audit_fens`]). Reading and auditing one record is
//! [`crate::fenlist`]; this file opens the inputs as every run does (files,
//! folders, `-`, compressed, any encoding `report` reads) and batches the
//! lines.

use rayon::prelude::*;

use super::Job;
use super::note::{JobNote, account_for, note_damage};
use super::reading_thread::{self, OnThread};
use crate::fenlist::{self, FenOptions, FenRow, FileState};
use crate::pipeline::ReportError;
use crate::records::{RecordFileRead, read_record_file};
use crate::report::unread::{Read, Unread};
use crate::source::{Input, NewDamage, Opened, RecordFile, SourceError, TextLines};

/// Records audited together on the worker pool.
const BATCH_LINES: usize = 4096;

/// Lines the reading thread hands over at a time: few enough that the
/// first record of a pipe (which tells a list from PGN) is looked at
/// without waiting for many more.
const LINES_HANDED_OVER: usize = 64;

/// What a `fen` run read, for its closing line and `--strict`.
#[derive(Debug, Default, Clone)]
pub struct FenTotals {
    /// Rows with status `ok`.
    pub ok: u64,
    /// Rows of records that are not a position (`bad_fen`).
    pub bad: u64,
    /// Records of xiangqi record files that hold no position.
    pub unsupported: u64,
    /// `.perft` count lines, read as part of the record before them.
    pub perft_lines: u64,
    /// Inputs not read whole.
    pub unread: Unread,
}

impl FenTotals {
    /// Every row.
    pub fn rows(&self) -> u64 {
        self.ok + self.bad + self.unsupported
    }

    fn count(&mut self, rows: &[FenRow]) {
        for row in rows {
            match row.status {
                "ok" => self.ok += 1,
                fenlist::NO_POSITION => self.unsupported += 1,
                _ => self.bad += 1,
            }
        }
    }
}

impl Job {
    /// Audits every record of the inputs (found with
    /// [`crate::source::Listing::Positions`]), handing the rows to `rows`
    /// in input order, a batch at a time. A damaged input is read as far
    /// as it goes; one that is not a list of positions (binary data, PGN)
    /// gives no rows; either is a warning in `notes`, and the other inputs
    /// are read as usual.
    ///
    /// ```
    /// use pgnmill::{Job, Listing};
    /// use pgnmill::fenlist::FenOptions;
    ///
    /// let job = Job::new(&["testdata/fen/ethereal-standard.epd".into()], Listing::Positions)?;
    /// let mut legal = Vec::new();
    /// let totals = job.audit_fens::<pgnmill::pipeline::ReportError>(
    ///     &FenOptions::default(),
    ///     &mut |rows| Ok(legal.extend(rows.iter().map(|r| r.legal_moves))),
    ///     &mut |note| eprintln!("{}", note.text),
    /// )?;
    /// assert_eq!(totals.rows(), legal.len() as u64);
    /// assert_eq!(legal[0], Some(20)); // the start position
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn audit_fens<E: From<ReportError>>(
        &self,
        options: &FenOptions,
        rows: &mut dyn FnMut(&[FenRow]) -> Result<(), E>,
        notes: &mut dyn FnMut(JobNote),
    ) -> Result<FenTotals, E> {
        let pool = self.pool()?;
        let mut totals = FenTotals::default();
        totals.unread.dangling_links = self.skipped().dangling_links.len();
        for input in self.inputs() {
            let mut audit = InputAudit {
                job: self,
                options,
                pool: &pool,
                totals: &mut totals,
                rows: &mut *rows,
                notes: &mut *notes,
            };
            let read = audit.input(input)?;
            // As for `convert`: a signal during the read stops the run,
            // however the read ended.
            self.check_cancel(&input.path.to_string_lossy())?;
            account_for(&mut totals.unread, input, &read, "no rows from it", notes);
        }
        Ok(totals)
    }
}

/// One input's audit, and what it reports to.
struct InputAudit<'a, E> {
    job: &'a Job,
    options: &'a FenOptions,
    pool: &'a rayon::ThreadPool,
    totals: &'a mut FenTotals,
    rows: &'a mut dyn FnMut(&[FenRow]) -> Result<(), E>,
    notes: &'a mut dyn FnMut(JobNote),
}

impl<E: From<ReportError>> InputAudit<'_, E> {
    /// Audits the records of one input, handing their rows on in order. A
    /// damaged input is read as far as it goes; one that is not a list of
    /// positions (binary data, PGN) gives no rows. Either is said in a
    /// warning that speaks of records and lines.
    fn input(&mut self, input: &Input) -> Result<Read, E> {
        let source_name = input.path.display().to_string();
        // Before each input too: a folder of record files (one position
        // each, no batches) is otherwise read to its end after a signal.
        self.job.check_cancel(&source_name)?;
        let text = match reading_thread::open(&self.job.cancel, input, &source_name)? {
            Opened::Text(text) => text,
            Opened::Records(file) => return self.records(&source_name, &file),
            Opened::Refused(refusal) => return Ok(Read::Refused(not_a_list(&refusal.why))),
        };
        let mut state = FileState::default();
        let mut batch: Vec<(u64, String)> = Vec::with_capacity(BATCH_LINES);
        let mut first_record_seen = false;
        let mut damage = NewDamage::of(text.damage_log());
        let mut read = Read::Whole;
        note_damage(&mut damage, &mut read, self.notes);
        let compressed = text.compression().is_stream();
        let mut any_line = false;
        let mut lines = OnThread::spawn(TextLines::new(text), LINES_HANDED_OVER)?;
        while let Some(line) = lines.next(&self.job.cancel, &source_name)? {
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    (self.notes)(JobNote::warning(broke_off(&e)));
                    read = Read::Incomplete;
                    break;
                }
            };
            if !first_record_seen && is_record_line(&line.1) {
                first_record_seen = true;
                if fenlist::looks_like_pgn(&line.1) {
                    return Ok(Read::Refused(format!(
                        "looks like PGN (line {}: {}), not a FEN/EPD list; read its games with `pgnmill report`",
                        line.0,
                        shorten(&line.1)
                    )));
                }
            }
            any_line = true;
            batch.push(line);
            if batch.len() == BATCH_LINES {
                self.batch(&source_name, &batch, &mut state)?;
                batch.clear();
            }
        }
        if !batch.is_empty() {
            self.batch(&source_name, &batch, &mut state)?;
        }
        self.totals.perft_lines += state.perft_lines;
        // A `.zst` frame that failed is found as the text is read.
        note_damage(&mut damage, &mut read, self.notes);
        if let Some(lines) = lines.ended()
            && compressed
            && !any_line
            && matches!(read, Read::Whole)
        {
            return Ok(Read::NoText(lines.source().no_text_warning()));
        }
        Ok(read)
    }

    /// Reads the lines of a batch in order (a `.perft` `id` line names the
    /// next record), audits the records on the pool and hands the rows on
    /// in order.
    fn batch(
        &mut self,
        source: &str,
        batch: &[(u64, String)],
        state: &mut FileState,
    ) -> Result<(), E> {
        let records: Vec<_> = batch
            .iter()
            .filter_map(|(n, text)| fenlist::read_line(text, state).map(|r| (*n, r)))
            .collect();
        let options = self.options;
        let rows: Vec<FenRow> = self.pool.install(|| {
            records
                .par_iter()
                .map(|(n, r)| fenlist::audit_record(source, *n, r, options))
                .collect()
        });
        self.hand_on(&rows)
    }

    /// The rows of a xiangqi record file: one a record, its start position.
    fn records(&mut self, source_name: &str, file: &RecordFile) -> Result<Read, E> {
        let format = file.format();
        Ok(match read_record_file(source_name, format, file.bytes()) {
            RecordFileRead::Games { games, warning } => {
                let rows: Vec<FenRow> = (0..)
                    .zip(&games)
                    .map(|(i, game)| fenlist::audit_record_game(source_name, i, game))
                    .collect();
                self.hand_on(&rows)?;
                match warning {
                    Some(warning) => {
                        (self.notes)(JobNote::warning(warning));
                        Read::Incomplete
                    }
                    None => Read::Whole,
                }
            }
            RecordFileRead::Unsupported(why) => Read::Refused(why),
            RecordFileRead::Damaged(warning) => {
                (self.notes)(JobNote::warning(warning));
                Read::Incomplete
            }
        })
    }

    fn hand_on(&mut self, rows: &[FenRow]) -> Result<(), E> {
        self.totals.count(rows);
        (self.rows)(rows)
    }
}

/// A line that holds a record or a `.perft` line: not blank, not a `#`
/// comment.
fn is_record_line(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim();
    !t.is_empty() && !t.starts_with('#')
}

/// A line cut to what a warning needs.
fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

/// The source's reason for refusing an input, said for a list of
/// positions: `binary data, not PGN` becomes `binary data, not a FEN/EPD
/// list`.
fn not_a_list(why: &str) -> String {
    why.replace("not PGN", "not a FEN/EPD list")
}

/// Where a damaged input stopped, in records and lines.
fn broke_off(e: &SourceError) -> String {
    match e {
        SourceError::Truncated {
            path,
            what,
            offset,
            line,
            source,
        } => format!(
            "{}: {what} text stops after byte {offset}; the records from line {line} on are missing: {source}",
            path.display()
        ),
        other => other.to_string(),
    }
}
