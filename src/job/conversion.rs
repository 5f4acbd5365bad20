//! The `convert` run: every game of xiangqi collections rewritten in
//! another notation, batch by batch on the worker threads, the text handed
//! to the caller in input order ([`Job::convert`]). Rewriting one game is
//! [`crate::convert`]; a record file's games are written by
//! [`crate::records`]; this file opens the inputs as every run does, keeps
//! the text between games, and holds back an input until it shows a game,
//! so that a file that holds none is refused whole, never copied through.

use rayon::prelude::*;

use super::Job;
use super::note::{JobNote, account_for, note_damage};
use super::reading_thread::{self, OnThread};
use crate::convert::{Outcome, convert_game};
use crate::pgn::headers::GameHeaders;
use crate::pgn::{Batch, Batches, ReaderNote};
use crate::pipeline::ReportError;
use crate::records::{Checked, RecordFileRead, read_record_file, write_pgn};
use crate::replay::{ReplayOptions, Status, replay_text};
use crate::report::unread::{Read, Unread};
use crate::source::{Encoding, Input, NewDamage, Opened, ReadOptions, RecordFormat, decode_game};
use crate::xiangqi::notation::Notation;

/// Games of one input that are not xiangqi get a note each up to this many;
/// the rest one note together (a chess file would otherwise flood stderr).
const NOTES_PER_INPUT: u64 = 5;

/// Text held before an input's first game, at most.
const HOLD_LIMIT: usize = 16 << 20;

/// What a `convert` run did, for its closing line and `--strict`.
#[derive(Debug, Default, Clone)]
pub struct ConvertTotals {
    /// Games whose main line was rewritten to its end.
    pub converted: u64,
    /// Games whose main line stops at a move that cannot be read.
    pub stopped: u64,
    /// Games that are not xiangqi, copied unchanged.
    pub passed: u64,
    /// Inputs not read whole.
    pub unread: Unread,
}

impl Job {
    /// Rewrites every game of the inputs (found with
    /// [`crate::source::Listing::Games`]) in notation `to`, handing the
    /// output text to `out` in input order, games and the text between
    /// them alike. Games that stop early, games that are not xiangqi and
    /// inputs not read whole are said in `notes`; the run goes on.
    ///
    /// ```
    /// use pgnmill::{Job, Listing};
    /// use pgnmill::xiangqi::notation::Notation;
    ///
    /// let game = "testdata/xiangqi/records/030-huang-songxuan-vs-feng-jingru.XQF";
    /// let job = Job::new(&[game.into()], Listing::Games)?;
    /// let mut text = String::new();
    /// let totals = job.convert::<pgnmill::pipeline::ReportError>(
    ///     Notation::Iccs,
    ///     &mut |piece| Ok(text.push_str(piece)),
    ///     &mut |note| eprintln!("{}", note.text),
    /// )?;
    /// assert_eq!(totals.converted, 1);
    /// assert!(text.contains("[Format \"ICCS\"]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn convert<E: From<ReportError>>(
        &self,
        to: Notation,
        out: &mut dyn FnMut(&str) -> Result<(), E>,
        notes: &mut dyn FnMut(JobNote),
    ) -> Result<ConvertTotals, E> {
        let pool = self.pool()?;
        let mut totals = ConvertTotals::default();
        totals.unread.dangling_links = self.skipped().dangling_links.len();
        let mut tail = Tail::default();
        for input in self.inputs() {
            let mut run = InputConversion {
                job: self,
                to,
                pool: &pool,
                held: Held::new(&mut *out, &mut tail),
                totals: &mut totals,
                notes: &mut *notes,
            };
            let read = run.input(input)?;
            // A signal that came while the input was read, however its
            // reading ended (a pipe that gave nothing and closed), stops
            // the run before anything is put in place.
            self.check_cancel(&input.path.to_string_lossy())?;
            let read = run.held.finish(read);
            account_for(
                &mut totals.unread,
                input,
                &read,
                "nothing of it was written",
                notes,
            );
        }
        Ok(totals)
    }
}

/// One input's conversion, and what it reports to.
struct InputConversion<'a, 'o, E> {
    job: &'a Job,
    to: Notation,
    pool: &'a rayon::ThreadPool,
    held: Held<'a, 'o, E>,
    totals: &'a mut ConvertTotals,
    notes: &'a mut dyn FnMut(JobNote),
}

impl<E: From<ReportError>> InputConversion<'_, '_, E> {
    /// Converts every game of one input, batch by batch, in order; the text
    /// between games (blank lines, `%` lines) is copied as well. A break in
    /// the input ends it with a warning ([`Read::Incomplete`]).
    fn input(&mut self, input: &Input) -> Result<Read, E> {
        let name = input.path.to_string_lossy().into_owned();
        // Before each input too: a folder of record files (one game each,
        // no batches) is otherwise read to its end after a signal.
        self.job.check_cancel(&name)?;
        let text = match reading_thread::open(&self.job.cancel, input, &name)? {
            Opened::Text(text) => text,
            Opened::Records(file) => return self.records(&name, file.format(), file.bytes()),
            Opened::Refused(refusal) => return Ok(Read::Refused(refusal.why)),
        };
        let encoding = text.encoding();
        let to = self.to;
        let mut written_upto: u64 = 0;
        let mut last: Option<Batch> = None;
        let mut first = true;
        let mut passed_here: u64 = 0;
        let mut damage = NewDamage::of(text.damage_log());
        let mut read = Read::Whole;
        note_damage(&mut damage, &mut read, self.notes);
        let compressed = text.compression().is_stream();
        let mut batches = OnThread::spawn(Batches::new(text, &ReadOptions::default()), 1)?;
        while let Some(batch) = batches.next(&self.job.cancel, &name)? {
            let batch = match batch {
                Ok(batch) => batch,
                Err(e) => {
                    (self.notes)(JobNote::warning(e.to_string()));
                    read = Read::Incomplete;
                    break;
                }
            };
            let converted: Vec<_> = self.pool.install(|| {
                batch
                    .games
                    .par_iter()
                    .map(|span| {
                        let text = decode_game(batch.game_bytes(span), encoding);
                        let game = convert_game(&text, span.line, to);
                        (text, game)
                    })
                    .collect()
            });
            for (i, (span, (text, game))) in batch.games.iter().zip(&converted).enumerate() {
                let gap = gap_text(&batch, written_upto, span.offset, encoding, first);
                if first {
                    let sep = self.held.separator();
                    self.held.write(sep)?;
                    first = false;
                }
                self.held.write(&gap)?;
                written_upto = span.end();
                if self.held.holding() {
                    if !is_a_game(text, span.line) {
                        // Stray text before any game: held with the rest, and
                        // no game to count or name.
                        self.held.write(&game.text)?;
                        continue;
                    }
                    self.held.game_seen()?;
                }
                self.held.write(&game.text)?;
                let at = format!(
                    "{name}: game {} (line {})",
                    batch.first_game + i as u64 + 1,
                    span.line
                );
                for f in &game.variation_stops {
                    (self.notes)(JobNote::stopped(format!("{at}: a variation stops at {f}")));
                }
                match &game.outcome {
                    Outcome::Converted { .. } => self.totals.converted += 1,
                    Outcome::Stopped(f) => {
                        self.totals.stopped += 1;
                        (self.notes)(JobNote::stopped(format!("{at}: {f}")));
                    }
                    Outcome::NotXiangqi { variant } => {
                        self.totals.passed += 1;
                        passed_here += 1;
                        if passed_here <= NOTES_PER_INPUT {
                            (self.notes)(JobNote::info(format!(
                                "{at} is {variant}, not xiangqi; copied unchanged"
                            )));
                        }
                    }
                }
            }
            last = Some(batch);
            if self.held.over_limit() {
                return Ok(Read::Refused(format!(
                    "no game pgnmill can read in its first {} MiB, not PGN",
                    HOLD_LIMIT >> 20
                )));
            }
        }
        // A `.zst` frame that failed is found as the text is read.
        note_damage(&mut damage, &mut read, self.notes);
        if let Some(batches) = batches.ended()
            && compressed
            && matches!(read, Read::Whole)
            && batches.position().offset == 0
        {
            return Ok(Read::NoText(batches.text().no_text_warning()));
        }
        if passed_here > NOTES_PER_INPUT {
            (self.notes)(JobNote::info(format!(
                "{name}: {} more games are not xiangqi; copied unchanged",
                passed_here - NOTES_PER_INPUT
            )));
        }
        // Whatever follows the last game (blank lines, a trailer) is kept too.
        if let Some(batch) = last {
            let end = batch.base_offset + batch.bytes().len() as u64;
            let rest = gap_text(&batch, written_upto, end, encoding, first);
            let rest = if first {
                rest.trim_start_matches('\u{feff}').to_string()
            } else {
                rest
            };
            self.held.write(&rest)?;
        }
        Ok(read)
    }

    /// Converts the games of a record file (XQF, CCBridge, DhtmlXQ): each is
    /// written whole, its variations and comments included, every move of
    /// every line replayed and written in the target notation
    /// ([`crate::records::Checked`]). A line stops at a move that is not
    /// legal, with a comment that keeps the rest as recorded.
    fn records(&mut self, name: &str, format: RecordFormat, bytes: &[u8]) -> Result<Read, E> {
        let (games, library_break) = match read_record_file(name, format, bytes) {
            RecordFileRead::Games { games, warning } => (games, warning),
            RecordFileRead::Unsupported(why) => return Ok(Read::Refused(why)),
            RecordFileRead::Damaged(warning) => {
                (self.notes)(JobNote::warning(warning));
                return Ok(Read::Incomplete);
            }
        };
        let to = self.to;
        let writer = Checked(to);
        let sep = self.held.separator();
        self.held.write(sep)?;
        self.held.game_seen()?;
        for (i, game) in games.iter().enumerate() {
            self.job.check_cancel(name)?;
            let mut text = String::new();
            let written = write_pgn(game, &writer, to.format_tag(), &mut text);
            self.held.write(&text)?;
            let at = format!("{name}: game {} (byte {})", i + 1, game.offset);
            match (&written.error, &game.problem) {
                // A stopped main line (a record that breaks off stops it
                // too): one note, in the words of `[PgnmillError]`, which
                // name the move.
                (Some(error), _) => {
                    self.totals.stopped += 1;
                    (self.notes)(JobNote::stopped(format!("{at}: {error}")));
                }
                // A record that breaks off before its first move (a
                // library cut inside it) stops where it starts.
                (None, Some(ReaderNote::Damaged(why))) => {
                    self.totals.stopped += 1;
                    (self.notes)(JobNote::stopped(format!("{at}: {why}")));
                }
                (None, Some(ReaderNote::DamagedOffMainLine(why) | ReaderNote::NotAGame(why))) => {
                    self.totals.converted += 1;
                    (self.notes)(JobNote::stopped(format!("{at}: {why}")));
                }
                (None, None) => self.totals.converted += 1,
            }
            if written.variation_stops > 0 {
                (self.notes)(JobNote::stopped(format!(
                    "{at}: {} variation(s) stop at a move that is not legal",
                    written.variation_stops
                )));
            }
        }
        if let Some(warning) = library_break {
            (self.notes)(JobNote::warning(warning));
            return Ok(Read::Incomplete);
        }
        Ok(Read::Whole)
    }
}

/// Held output of one input: nothing of an input is written until it
/// shows a game, so that a file pgnmill cannot read (a `.che` record,
/// notes, any text without a tag pair, move or result) is refused whole,
/// never copied through. Text before the first game is held in memory up
/// to [`HOLD_LIMIT`]; an input with no game that far is refused.
struct Held<'a, 'o, E> {
    out: &'a mut (dyn FnMut(&str) -> Result<(), E> + 'o),
    tail: &'a mut Tail,
    /// `Some` until the input's first game.
    pending: Option<String>,
}

impl<'a, 'o, E> Held<'a, 'o, E> {
    fn new(out: &'a mut (dyn FnMut(&str) -> Result<(), E> + 'o), tail: &'a mut Tail) -> Self {
        Held {
            out,
            tail,
            pending: Some(String::new()),
        }
    }

    /// What to write before the input's first text: a blank line after
    /// the previous input's last game.
    fn separator(&self) -> &'static str {
        self.tail.separator()
    }

    /// Writes `text`, or holds it while no game was seen.
    fn write(&mut self, text: &str) -> Result<(), E> {
        match &mut self.pending {
            Some(held) => {
                held.push_str(text);
                Ok(())
            }
            None => self.write_through(text),
        }
    }

    fn write_through(&mut self, text: &str) -> Result<(), E> {
        (self.out)(text)?;
        self.tail.note(text);
        Ok(())
    }

    /// Whether the input has shown no game yet (its text is held).
    fn holding(&self) -> bool {
        self.pending.is_some()
    }

    /// Whether more than [`HOLD_LIMIT`] is held.
    fn over_limit(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| p.len() > HOLD_LIMIT)
    }

    /// The input showed a game: what was held is written.
    fn game_seen(&mut self) -> Result<(), E> {
        if let Some(held) = self.pending.take() {
            self.write_through(&held)?;
        }
        Ok(())
    }

    /// The end of the input: one that never showed a game is refused
    /// (its held text dropped), whatever else was found.
    fn finish(&mut self, read: Read) -> Read {
        match (self.pending.take(), read) {
            (_, refused @ Read::Refused(_)) => refused,
            (Some(held), _) if !held.trim().is_empty() => Read::Refused(
                "holds no game pgnmill can read (no tag pair, move or result), not PGN".into(),
            ),
            (_, read) => read,
        }
    }
}

/// The last bytes written, so that games of consecutive inputs stay
/// separated by a blank line.
#[derive(Default)]
struct Tail {
    last: [u8; 3],
    any: bool,
}

impl Tail {
    fn note(&mut self, text: &str) {
        for &b in text.as_bytes().iter().rev().take(3).rev() {
            self.last = [self.last[1], self.last[2], b];
        }
        self.any |= !text.is_empty();
    }

    /// What to write before a new input's first game.
    fn separator(&self) -> &'static str {
        match self.last {
            _ if !self.any => "",
            [_, b'\n', b'\n'] | [b'\n', b'\r', b'\n'] => "",
            [_, _, b'\n'] => "\n",
            _ => "\n\n",
        }
    }
}

/// Whether a game's text is a game as `pgnmill report` reads it: a tag
/// pair, or a move or result it can read. Stray text (a `.che` record's
/// numbers, notes) is not.
fn is_a_game(text: &str, line: u64) -> bool {
    if GameHeaders::read_game(text.as_bytes(), line).0.any {
        return true;
    }
    let record = replay_text(text, line, &ReplayOptions::default());
    !(record.status == Status::ParseError && record.plies == 0)
}

/// The decoded bytes of `batch` from source offset `from` (or the batch's
/// start, if later) to `to`; a byte order mark at the start of an input is
/// dropped (the output is UTF-8 without one).
fn gap_text(batch: &Batch, from: u64, to: u64, encoding: Encoding, at_start: bool) -> String {
    let base = batch.base_offset;
    let start = usize::try_from(from.max(base) - base).unwrap_or(usize::MAX);
    let end = usize::try_from(to.max(base) - base).unwrap_or(usize::MAX);
    let bytes = batch.bytes().get(start..end).unwrap_or_default();
    let bytes = if at_start {
        bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
    } else {
        bytes
    };
    decode_game(bytes, encoding).into_owned()
}
