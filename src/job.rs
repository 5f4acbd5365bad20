//! One run of pgnmill over some inputs: the single way the report is run,
//! by the command line, the tests and the Python package alike. A [`Job`]
//! is the inputs (files, folders searched, `-`: [`crate::source`]), the
//! number of worker threads and a way to stop it; it runs read → split →
//! replay → sinks ([`crate::pipeline`]) into a report folder
//! ([`Job::report`]) or into any sinks ([`Job::run`]), or hands the game
//! rows out as Arrow record batches as they are made ([`Job::games`]; the
//! ply rows of `--plies`, [`Job::plies`]).
//!
//! ```no_run
//! use pgnmill::arrow_array::cast::AsArray;
//! use pgnmill::job::{Job, ReportOptions};
//! use pgnmill::source::Listing;
//!
//! let job = Job::new(&["games.pgn.zst".into()], Listing::Games)?.threads(4);
//! let mut missed = 0;
//! for batch in job.games(&ReportOptions::default())? {
//!     let batch = batch?;
//!     let column = batch.column_by_name("missed_threefold").expect("a column");
//!     missed += column.as_boolean().true_count();
//! }
//! println!("{missed} missed threefolds");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod conversion;
mod fen_list;
mod note;
mod reading_thread;
pub mod request;

pub use conversion::ConvertTotals;
pub use fen_list::FenTotals;
pub use note::{JobNote, NoteKind};

use std::path::PathBuf;
use std::thread::JoinHandle;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};

use crate::duplicates::DuplicateOptions;
use crate::output::OutputError;
use crate::pgn::select::TagQuery;
use crate::pipeline::{Cancel, Observer, ReportConfig, ReportError, ReportOutcome, run_writer};
use crate::replay::ReplayOptions;
use crate::report::columns::game_columns;
use crate::report::summary::RunOptions;
use crate::report::{
    ArrowSink, DuplicateStage, ExtractRequest, GameBatches, ReportFolder, ReportLayout,
    ReportWriter, SharedStage, Sink,
};
use crate::source::{Input, Listing, Skipped, SourceError, expand_inputs_noted};
use std::sync::Arc;

/// The inputs of a run, and how it runs.
#[derive(Debug, Clone)]
pub struct Job {
    inputs: Vec<Input>,
    /// `--against`: collections read only to be matched against.
    against: Vec<Input>,
    skipped: Skipped,
    notes: Vec<String>,
    threads: usize,
    cancel: Cancel,
}

/// What a report holds and how its games are read: the command line's
/// `report` options.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// `--moves`, `--variant`; `--clocks` and `--plies` are
    /// `replay.ply_data` (the clock columns, the plies files).
    pub replay: ReplayOptions,
    /// `--tags` columns and `--where` conditions, read from each game's
    /// tags before it is replayed: the report has a column for each of its
    /// tags.
    pub select: TagQuery,
    /// `--format`: the CSV files, the Parquet files (a report folder).
    pub csv: bool,
    pub parquet: bool,
    /// `--extract` files, beside the report folder's.
    pub extracts: Vec<ExtractRequest>,
    /// How the run was asked for, as `summary.json` records it.
    pub summary: RunOptions,
    /// `--duplicates`: the duplicate columns, `duplicates.csv` and the
    /// counts (a report folder only).
    pub duplicates: Option<DuplicateOptions>,
}

impl Default for ReportOptions {
    /// The default report: every game, CSV, no optional column.
    fn default() -> Self {
        ReportOptions {
            replay: ReplayOptions::default(),
            select: TagQuery::default(),
            csv: true,
            parquet: false,
            extracts: Vec::new(),
            summary: RunOptions::default(),
            duplicates: None,
        }
    }
}

impl ReportOptions {
    /// The report's columns and files.
    pub fn layout(&self) -> ReportLayout {
        ReportLayout {
            moves: self.replay.moves,
            clocks: self.replay.ply_data.clocks,
            plies: self.replay.ply_data.plies,
            tags: self.select.column_names().to_vec(),
            csv: self.csv,
            parquet: self.parquet,
            duplicates: self.duplicates.is_some(),
        }
    }
}

impl Job {
    /// The inputs `paths` name, in order: files as they are, folders
    /// searched for the files of `listing`, `-` for standard input. Runs on
    /// every CPU the process may use unless [`Job::threads`] says
    /// otherwise.
    pub fn new(paths: &[PathBuf], listing: Listing) -> Result<Job, SourceError> {
        let expansion = expand_inputs_noted(paths, listing)?;
        Ok(Job {
            inputs: expansion.inputs,
            against: Vec::new(),
            skipped: expansion.skipped,
            notes: expansion.notes,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cancel: Cancel::new(),
        })
    }

    /// Reads the collections `paths` name (as [`Job::new`] does) before
    /// the inputs, only to be matched against with `--duplicates`: their
    /// games have no row, and a row's `dup_of` may name one of them (as
    /// pgn-extract's `-c`).
    ///
    /// A file that is also an input (by any path or link) is refused:
    /// its games would each be found a copy of themselves.
    pub fn against(mut self, paths: &[PathBuf], listing: Listing) -> Result<Job, SourceError> {
        let expansion = expand_inputs_noted(paths, listing)?;
        let inputs: std::collections::HashSet<_> =
            self.inputs.iter().filter_map(Input::identity).collect();
        if let Some(both) = expansion
            .inputs
            .iter()
            .find(|a| a.identity().is_some_and(|id| inputs.contains(&id)))
        {
            return Err(SourceError::AgainstIsInput {
                path: both.path.clone(),
            });
        }
        self.against = expansion.inputs;
        self.notes.extend(expansion.notes);
        Ok(self)
    }

    /// The `--against` collections.
    pub fn against_inputs(&self) -> &[Input] {
        &self.against
    }

    /// Replays on `threads` threads: at least one, so 0 is taken as 1
    /// (the command line refuses `-j 0` instead).
    pub fn threads(mut self, threads: usize) -> Job {
        self.threads = threads.max(1);
        self
    }

    /// Stops when `cancel` is set (a signal handler's, say).
    pub fn cancel_on(mut self, cancel: Cancel) -> Job {
        self.cancel = cancel;
        self
    }

    /// The inputs, in the order they are read.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// What the search of the folders passed over, for `summary.json`.
    pub fn skipped(&self) -> &Skipped {
        &self.skipped
    }

    /// Notes on the search (files passed over, inputs named twice), one
    /// line each, for the user.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The replay threads.
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// Writes a report folder into `out`: the files `options.layout` asks
    /// for, the extracts, report.html and summary.json last.
    ///
    /// ```
    /// use pgnmill::job::{Job, ReportOptions};
    /// use pgnmill::report::ReportFolder;
    /// use pgnmill::source::Listing;
    ///
    /// let dir = std::env::temp_dir().join(format!("pgnmill-doc-report-{}", std::process::id()));
    /// let out = ReportFolder::prepare(&dir, true)?;
    /// let input = "testdata/corpus/fairy-stockfish-deep-blue-kasparov-1997.pgn";
    /// let job = Job::new(&[input.into()], Listing::Games)?.threads(1);
    /// job.report(&ReportOptions::default(), &out, &mut ())?;
    /// // The header and the file's one game.
    /// let games = std::fs::read_to_string(dir.join("games.csv"))?;
    /// assert_eq!(games.lines().count(), 2);
    /// assert!(dir.join("summary.json").is_file() && dir.join("report.html").is_file());
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn report(
        &self,
        options: &ReportOptions,
        out: &ReportFolder,
        observer: &mut dyn Observer,
    ) -> Result<ReportOutcome, ReportError> {
        let mut writer =
            ReportWriter::create(out, &options.layout(), &options.extracts, self.threads)?;
        let mut against = None;
        if let Some(duplicates) = options.duplicates {
            let stage = DuplicateStage::new(out.path(), duplicates)?.shared();
            if !self.against.is_empty() {
                against = Some(self.read_against(options, &stage, observer)?);
            }
            writer = writer.with_duplicates(stage, true);
        }
        let mut outcome = self.run(options, writer, observer)?;
        if let Some(read) = against {
            // The collections' warnings first, as they were read first.
            let mut warnings = read.warnings;
            warnings.append(&mut outcome.warnings);
            outcome.warnings = warnings;
        }
        Ok(outcome)
    }

    /// Reads the `--against` collections into `stage`: a run with no
    /// sink.
    fn read_against(
        &self,
        options: &ReportOptions,
        stage: &SharedStage,
        observer: &mut dyn Observer,
    ) -> Result<ReportOutcome, ReportError> {
        let pool = self.pool()?;
        let config = ReportConfig {
            inputs: self.against.clone(),
            ..self.config(options)
        };
        let writer = ReportWriter::new(Vec::new(), options.layout().facts_plan(), self.threads)
            .with_duplicates(stage.clone(), false);
        stage.with(DuplicateStage::begin_against);
        let outcome = run_writer(&config, writer, &pool, &self.cancel, observer);
        stage.with(DuplicateStage::end_against);
        outcome
    }

    /// The run's settings for `options`.
    fn config(&self, options: &ReportOptions) -> ReportConfig {
        let mut replay = options.replay.clone();
        replay.curation.duplicates |= options.duplicates.is_some();
        ReportConfig {
            inputs: self.inputs.clone(),
            replay,
            select: options.select.clone(),
            options: options.summary.clone(),
            skipped: self.skipped.clone(),
        }
    }

    /// Runs into the sinks of `writer` (built with [`ReportWriter::new`]
    /// from any sinks). With `options.duplicates` the writer needs its
    /// duplicate stage ([`ReportWriter::with_duplicates`], which
    /// [`Job::report`] sets up): without it a file that waits for the
    /// verdicts fails the run rather than lose its rows.
    ///
    /// ```
    /// use pgnmill::job::{Job, ReportOptions};
    /// use pgnmill::report::{ReportFolder, ReportWriter};
    /// use pgnmill::source::Listing;
    ///
    /// let dir = std::env::temp_dir().join(format!("pgnmill-doc-run-{}", std::process::id()));
    /// let out = ReportFolder::prepare(&dir, true)?;
    /// let options = ReportOptions::default();
    /// // The report's own sinks, on one thread.
    /// let writer = ReportWriter::create(&out, &options.layout(), &[], 1)?;
    /// let input = "testdata/corpus/fairy-stockfish-deep-blue-kasparov-1997.pgn";
    /// let job = Job::new(&[input.into()], Listing::Games)?.threads(1);
    /// let outcome = job.run(&options, writer, &mut ())?;
    /// assert_eq!(outcome.summary.games, 1);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run(
        &self,
        options: &ReportOptions,
        writer: ReportWriter,
        observer: &mut dyn Observer,
    ) -> Result<ReportOutcome, ReportError> {
        let pool = self.pool()?;
        run_writer(&self.config(options), writer, &pool, &self.cancel, observer)
    }

    /// The worker threads of one run.
    fn pool(&self) -> Result<rayon::ThreadPool, ReportError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| {
                ReportError::Thread(format!("cannot start {} worker threads: {e}", self.threads))
            })
    }

    /// `Err` once the run was asked to stop, for a loop over the records
    /// or games of `input`.
    fn check_cancel(&self, input: &str) -> Result<(), ReportError> {
        if self.cancel.requested() {
            Err(ReportError::Cancelled {
                input: input.to_string(),
            })
        } else {
            Ok(())
        }
    }

    /// The game rows as Arrow record batches, with `games.parquet`'s
    /// columns for `options`, as they are made: the run goes on a thread
    /// of its own, and waits while the reader is a few batches behind
    /// (memory stays bounded whatever the input's size). Dropping the
    /// stream stops the run. Extracts and files are not written.
    ///
    /// With `options.duplicates` a game's verdict is known only once every
    /// game is read: the rows are then written to a Parquet file in a
    /// temporary folder (`TMPDIR`) first and streamed from it, and memory
    /// stays bounded while the disk holds them.
    pub fn games(self, options: &ReportOptions) -> Result<GameStream, ReportError> {
        if options.duplicates.is_some() {
            return self.games_through_a_file(options);
        }
        let layout = options.layout();
        let optional = layout.optional_columns();
        let columns = game_columns(optional, &layout.tags);
        let (sink, batches) = ArrowSink::channel(&columns, optional);
        self.stream(options.clone(), sink, batches)
    }

    /// [`Job::games`] with duplicates: a report of games.parquet alone in a
    /// temporary folder, then its batches.
    fn games_through_a_file(self, options: &ReportOptions) -> Result<GameStream, ReportError> {
        let layout = options.layout();
        let columns = game_columns(layout.optional_columns(), &layout.tags);
        let schema = crate::report::parquet::schema(&columns);
        let (tx, batches) = GameBatches::fed(Arc::clone(&schema));
        let options = ReportOptions {
            csv: false,
            parquet: true,
            extracts: Vec::new(),
            ..options.clone()
        };
        let cancel = self.cancel.clone();
        GameStream::start(batches, cancel, move || {
            let dir = tempfile::tempdir().map_err(|e| OutputError::io(std::env::temp_dir(), e))?;
            let out = ReportFolder::prepare(&dir.path().join("report"), false)?;
            let outcome = self.report(&options, &out, &mut ())?;
            let games = out.path().join("games.parquet");
            crate::report::parquet::read_batches(&games, &schema, &mut |batch| {
                tx.send(batch).is_ok()
            })?;
            Ok(outcome)
        })
    }

    /// The ply rows (`--plies`) as Arrow record batches, with
    /// `plies.parquet`'s columns, as they are made: one row per main-line
    /// ply of every game `options` selects, in input order, in batches of
    /// about [`crate::report::PLY_ROWS_PER_GROUP`] rows (a batch ends with
    /// a game). `options.replay.ply_data.plies` is implied; the other
    /// options choose and replay the games as for a report. Memory is
    /// bounded as for [`Job::games`].
    pub fn plies(self, options: &ReportOptions) -> Result<GameStream, ReportError> {
        let mut options = options.clone();
        options.replay.ply_data.plies = true;
        let (sink, batches) = ArrowSink::plies_channel();
        self.stream(options, sink, batches)
    }

    /// Runs on a thread of its own into `sink`, whose batches the stream
    /// hands out.
    fn stream(
        self,
        options: ReportOptions,
        sink: ArrowSink,
        batches: GameBatches,
    ) -> Result<GameStream, ReportError> {
        let sinks: Vec<Box<dyn Sink>> = vec![Box::new(sink)];
        let writer = ReportWriter::new(sinks, options.layout().facts_plan(), self.threads);
        let cancel = self.cancel.clone();
        GameStream::start(batches, cancel, move || self.run(&options, writer, &mut ()))
    }
}

/// The game rows of a run, batch by batch ([`Job::games`]), or its ply
/// rows ([`Job::plies`]); after the last batch, the run's error if it
/// failed.
pub struct GameStream {
    schema: SchemaRef,
    batches: Option<GameBatches>,
    run: Option<JoinHandle<Result<ReportOutcome, ReportError>>>,
    /// The run's totals, once the iterator has reached its end.
    outcome: Option<ReportOutcome>,
    /// The message of the run's error, once the iterator has handed the
    /// error out, for [`GameStream::finish`] to give again.
    failed: Option<String>,
    cancel: Cancel,
}

impl GameStream {
    /// Starts `run` on a thread of its own; the stream hands out
    /// `batches`, which the run feeds, and `cancel` stops it.
    fn start(
        batches: GameBatches,
        cancel: Cancel,
        run: impl FnOnce() -> Result<ReportOutcome, ReportError> + Send + 'static,
    ) -> Result<GameStream, ReportError> {
        let run = std::thread::Builder::new()
            .name("pgnmill-job".into())
            .spawn(run)
            .map_err(|e| ReportError::Thread(format!("cannot start the run's thread: {e}")))?;
        Ok(GameStream {
            schema: batches.schema(),
            batches: Some(batches),
            run: Some(run),
            outcome: None,
            failed: None,
            cancel,
        })
    }

    /// The schema of every batch: that of `games.parquet` (or
    /// `plies.parquet`).
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// Stops the run (the next batches are not made).
    pub fn cancel(&self) {
        self.cancel.request();
    }

    /// Waits for the run to end (reading the batches left, if any) and
    /// returns its totals (also after the iterator has reached its end):
    /// whether every input was read whole (`summary.complete`) and the
    /// warnings, which the batches do not carry. After the iterator handed
    /// out the run's error, that error again ([`ReportError::Failed`]).
    pub fn finish(mut self) -> Result<ReportOutcome, ReportError> {
        if let Some(outcome) = self.outcome.take() {
            return Ok(outcome);
        }
        if let Some(message) = self.failed.take() {
            return Err(ReportError::Failed(message));
        }
        for _ in self.batches.take().into_iter().flatten() {}
        self.join()
    }

    fn join(&mut self) -> Result<ReportOutcome, ReportError> {
        match self.run.take().map(JoinHandle::join) {
            Some(Ok(outcome)) => outcome,
            Some(Err(_)) => Err(ReportError::Thread("the run's thread panicked".into())),
            None => Err(ReportError::Thread("the run was already joined".into())),
        }
    }

    /// The stream as an Arrow [`RecordBatchReader`], the trait Arrow's
    /// writers and query engines take (an IPC or C stream, DataFusion): the
    /// run's error, if any, comes last as `ArrowError::ExternalError`
    /// holding the [`ReportError`]. Warnings are no error, as for the
    /// stream; [`ArrowReader::finish`] gives them.
    ///
    /// ```
    /// use pgnmill::arrow_array::RecordBatchReader;
    /// use pgnmill::{Job, Listing, ReportOptions};
    ///
    /// let job = Job::new(&["testdata/corpus/pgn2tex-tatamast22.pgn".into()], Listing::Games)?;
    /// let mut reader = job.games(&ReportOptions::default())?.into_arrow_reader();
    /// assert!(reader.schema().field_with_name("final_fen").is_ok());
    /// let games: usize = reader.by_ref().map(|b| b.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
    /// assert_eq!(games, 91);
    /// assert!(reader.finish()?.summary.complete);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_arrow_reader(self) -> ArrowReader {
        ArrowReader { stream: self }
    }
}

/// Its columns and whether its run has ended: the batches and the
/// thread are no one's to look into.
impl std::fmt::Debug for GameStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameStream")
            .field("columns", &self.schema.fields().len())
            .field("ended", &self.run.is_none())
            .finish_non_exhaustive()
    }
}

/// A [`GameStream`] as an Arrow [`RecordBatchReader`]
/// ([`GameStream::into_arrow_reader`]).
#[derive(Debug)]
pub struct ArrowReader {
    stream: GameStream,
}

impl ArrowReader {
    /// [`GameStream::finish`]: the run's totals and warnings.
    pub fn finish(self) -> Result<ReportOutcome, ReportError> {
        self.stream.finish()
    }
}

impl Iterator for ArrowReader {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.stream.next()?;
        Some(item.map_err(|e| ArrowError::ExternalError(Box::new(e))))
    }
}

impl RecordBatchReader for ArrowReader {
    fn schema(&self) -> SchemaRef {
        self.stream.schema()
    }
}

impl Iterator for GameStream {
    type Item = Result<RecordBatch, ReportError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(batch) = self.batches.as_mut()?.next() {
            return Some(Ok(batch));
        }
        // The channel closed: the run has ended; its error, if any, last.
        self.batches = None;
        match self.join() {
            Ok(outcome) => {
                self.outcome = Some(outcome);
                None
            }
            Err(e) => {
                self.failed = Some(e.to_string());
                Some(Err(e))
            }
        }
    }
}

impl Drop for GameStream {
    /// A stream dropped before its end stops the run and waits for it,
    /// so that no thread outlives it.
    fn drop(&mut self) {
        if self.run.is_some() {
            self.cancel.request();
            self.batches = None;
            let _ = self.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of a job whose one input was deleted (by another
    /// program) between the job's making and its run: a run that fails.
    fn games_of_a_vanished_input() -> GameStream {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("games.pgn");
        std::fs::write(&input, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        let job = Job::new(std::slice::from_ref(&input), Listing::Games).unwrap();
        std::fs::remove_file(&input).unwrap();
        job.games(&ReportOptions::default()).unwrap()
    }

    /// The stream's last item is the run's error, and `finish` gives it
    /// again rather than a word about the run's thread.
    #[test]
    fn finish_after_the_streams_error_gives_that_error_again() {
        let mut stream = games_of_a_vanished_input();
        let error = match stream.by_ref().last() {
            Some(Err(e)) => e,
            other => panic!("the run's error last, not {other:?}"),
        };
        assert!(matches!(error, ReportError::Source(_)), "{error:?}");
        match stream.finish() {
            Err(ReportError::Failed(message)) => assert_eq!(message, error.to_string()),
            other => panic!("{other:?}"),
        }
    }

    /// Through the Arrow reader, the same run's error is the reader's last
    /// item, the `ReportError` inside an `ArrowError::ExternalError`.
    #[test]
    fn the_arrow_reader_hands_the_runs_error_out_as_an_external_error() {
        let mut reader = games_of_a_vanished_input().into_arrow_reader();
        match reader.by_ref().last() {
            Some(Err(ArrowError::ExternalError(e))) => {
                let inner = e.downcast_ref::<ReportError>();
                assert!(matches!(inner, Some(ReportError::Source(_))), "{e:?}");
            }
            other => panic!("the run's error last, not {other:?}"),
        }
        assert!(matches!(reader.finish(), Err(ReportError::Failed(_))));
    }
}
