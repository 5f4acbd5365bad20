//! The streams of `read_games`, `read_plies` and `read_fens`: rows as Arrow record
//! batches, handed to any reader of the Arrow PyCapsule interface
//! (`__arrow_c_stream__`: pyarrow, polars, DuckDB, pandas through
//! pyarrow) without a copy, or iterated from Python batch by batch.
//!
//! The run goes on the library's threads and sends its batches through a
//! channel of one; a reader that falls behind makes the run wait, so
//! memory holds a few batches whatever the input's size. Whoever reads the
//! stream waits for the next batch without the GIL and watching for Ctrl-C
//! ([`crate::wait`]). The stream is read once: its batches are not kept.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;

use arrow_array::ffi::FFI_ArrowSchema;
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader, StructArray};
use arrow_schema::{ArrowError, SchemaRef};
use pgnmill::job::{Job, ReportOptions};
use pgnmill::pipeline::{Cancel, ReportError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

use crate::errors::{PgnmillError, report_error, warn};
use crate::wait::{self, POLL};

const SCHEMA_CAPSULE: &std::ffi::CStr = c"arrow_schema";
const ARRAY_CAPSULE: &std::ffi::CStr = c"arrow_array";
const STREAM_CAPSULE: &std::ffi::CStr = c"arrow_array_stream";

/// What a run sends to its stream.
pub enum Item {
    Batch(RecordBatch),
    /// The run is over; the warnings of its inputs, in order.
    End(Vec<String>),
    /// The run stopped on an error.
    Failed(ReportError),
}

/// The receiving end of a run: its batches, and how to stop it.
struct Feed {
    rx: Mutex<Receiver<Item>>,
    cancel: Cancel,
}

impl Feed {
    /// The next item, or `None` after [`POLL`].
    fn poll(&self) -> Result<Option<Item>, RecvTimeoutError> {
        match lock(&self.rx).recv_timeout(POLL) {
            Ok(item) => Ok(Some(item)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl Drop for Feed {
    /// A stream given up before its end stops the run.
    fn drop(&mut self) {
        self.cancel.request();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The rows of a run, as `pgnmill.read_games` and `pgnmill.read_fens`
/// return them.
///
/// Read it once: hand it to `polars.DataFrame`, `pyarrow.table`,
/// `pyarrow.RecordBatchReader.from_stream` or a DuckDB query (they call
/// `__arrow_c_stream__`), or iterate it for `Batch`es. `columns` and
/// `__arrow_c_schema__` may be used before and after.
#[pyclass(module = "pgnmill", name = "RowStream")]
pub struct RowStream {
    schema: SchemaRef,
    /// The function that made the stream, named when it is read twice.
    made_by: &'static str,
    /// The run's feed until the stream is read to its end, handed to
    /// another reader, or closed. Locked only briefly and with the GIL
    /// held, never while waiting for a batch: a wait holds its own
    /// reference, so that `close` or `repr` from another thread never
    /// waits for it (and it never waits for the GIL they hold).
    feed: Mutex<Option<Arc<Feed>>>,
    /// A batch has been asked for by iteration.
    iterated: AtomicBool,
    /// Stops the run: kept here too, so that `close` stops a run whose
    /// feed another reader (pyarrow, polars, DuckDB) has taken.
    cancel: Cancel,
}

impl RowStream {
    /// A stream of rows of `schema`, which `run` sends from a thread of its
    /// own (it stops when a send fails: the stream is gone); `cancel`
    /// stops the run when the stream is given up.
    pub fn start(
        schema: SchemaRef,
        made_by: &'static str,
        cancel: Cancel,
        run: impl FnOnce(&SyncSender<Item>) + Send + 'static,
    ) -> PyResult<RowStream> {
        let (tx, rx) = sync_channel(1);
        std::thread::Builder::new()
            .name("pgnmill-stream".into())
            .spawn(move || run(&tx))
            .map_err(|e| PgnmillError::new_err(format!("cannot start the stream's thread: {e}")))?;
        Ok(RowStream {
            schema,
            made_by,
            feed: Mutex::new(Some(Arc::new(Feed {
                rx: Mutex::new(rx),
                cancel: cancel.clone(),
            }))),
            iterated: AtomicBool::new(false),
            cancel,
        })
    }

    /// The feed, taken: the stream is read once.
    fn take(&self) -> PyResult<Arc<Feed>> {
        lock(&self.feed).take().ok_or_else(|| self.read_already())
    }

    fn read_already(&self) -> PyErr {
        PgnmillError::new_err(format!(
            "this stream has been read (or closed): call {} again to read the rows again",
            self.made_by
        ))
    }

    /// The feed, shared, while the stream has one.
    fn current(&self) -> Option<Arc<Feed>> {
        lock(&self.feed).as_ref().map(Arc::clone)
    }

    /// Whether `feed` is still the stream's (not ended or closed meanwhile).
    fn holds(&self, feed: &Arc<Feed>) -> bool {
        lock(&self.feed)
            .as_ref()
            .is_some_and(|f| Arc::ptr_eq(f, feed))
    }

    /// Ends the stream's hold on `feed`, if it still has it.
    fn release(&self, feed: &Arc<Feed>) {
        let mut slot = lock(&self.feed);
        if slot.as_ref().is_some_and(|f| Arc::ptr_eq(f, feed)) {
            *slot = None;
        }
    }
}

/// The game rows of `job` run with `options`, as they are made.
pub fn games(job: Job, options: &ReportOptions, cancel: Cancel) -> PyResult<RowStream> {
    let stream = job.games(options).map_err(report_error)?;
    RowStream::start(stream.schema(), "read_games", cancel, move |tx| {
        forward(stream, tx)
    })
}

/// The ply rows of `job` run with `options` (`plies.parquet`'s rows), as
/// they are made.
pub fn plies(job: Job, options: &ReportOptions, cancel: Cancel) -> PyResult<RowStream> {
    let stream = job.plies(options).map_err(report_error)?;
    RowStream::start(stream.schema(), "read_plies", cancel, move |tx| {
        forward(stream, tx)
    })
}

/// Forwards the batches of `stream`, then its end; stops when the reader
/// is gone (dropping `stream` stops the run).
fn forward(mut stream: pgnmill::job::GameStream, tx: &SyncSender<Item>) {
    for item in stream.by_ref() {
        let (item, last) = match item {
            Ok(batch) => (Item::Batch(batch), false),
            Err(e) => (Item::Failed(e), true),
        };
        if tx.send(item).is_err() || last {
            return;
        }
    }
    let warnings = stream.finish().map(|o| o.warnings).unwrap_or_default();
    let _ = tx.send(Item::End(warnings));
}

#[pymethods]
impl RowStream {
    /// The column names, in order.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// The schema of the batches as an Arrow C schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.schema)
    }

    /// The batches as an Arrow C stream capsule (once). `requested_schema`
    /// is not needed: the batches have the one schema they have.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = Reader {
            schema: self.schema.clone(),
            feed: Some(self.take()?),
            main: wait::main_thread(py)?,
        };
        stream_capsule(py, reader)
    }

    /// The stream itself; a stream already read to its end, handed to
    /// another reader or closed raises PgnmillError, as reading it again
    /// through the Arrow interface does, rather than look empty.
    fn __iter__(slf: PyRef<'_, Self>) -> PyResult<PyRef<'_, Self>> {
        if lock(&slf.feed).is_none() {
            return Err(slf.read_already());
        }
        Ok(slf)
    }

    /// The next batch; Ctrl-C while waiting for it stops the run and
    /// raises KeyboardInterrupt here. Several threads may iterate one
    /// stream (each batch goes to one of them), and another may close it
    /// meanwhile: the iteration then ends.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Batch>> {
        let Some(feed) = self.current() else {
            return Ok(None);
        };
        self.iterated.store(true, Ordering::Relaxed);
        loop {
            let item = py.detach(|| feed.poll());
            if !self.holds(&feed) {
                // Closed, or ended by another thread's iteration.
                return Ok(None);
            }
            match item {
                Ok(Some(Item::Batch(batch))) => return Ok(Some(Batch { batch })),
                Ok(Some(Item::End(warnings))) => {
                    self.release(&feed);
                    for message in &warnings {
                        warn(py, message)?;
                    }
                    return Ok(None);
                }
                Ok(Some(Item::Failed(e))) => {
                    self.release(&feed);
                    return Err(report_error(e));
                }
                Ok(None) => {
                    if let Err(interrupt) = py.check_signals() {
                        self.release(&feed);
                        feed.cancel.request();
                        return Err(interrupt);
                    }
                }
                Err(_) => {
                    self.release(&feed);
                    return Err(PgnmillError::new_err("the run stopped without an end"));
                }
            }
        }
    }

    /// Stops the run; the stream then has no more batches. Safe from any
    /// thread, also while another is iterating, or while another reader
    /// that was handed the stream reads it (that reader then fails).
    fn close(&self) {
        lock(&self.feed).take();
        self.cancel.request();
    }

    fn __repr__(&self) -> String {
        let state = match (
            lock(&self.feed).is_some(),
            self.iterated.load(Ordering::Relaxed),
        ) {
            (false, _) => "read",
            (true, false) => "unread",
            (true, true) => "being read",
        };
        format!(
            "<pgnmill.RowStream of {} columns, {state}>",
            self.schema.fields().len()
        )
    }
}

/// The stream as another library's reader reads it, through the Arrow C
/// stream interface: `next` is its `get_next`, on whatever thread it
/// calls from.
struct Reader {
    schema: SchemaRef,
    feed: Option<Arc<Feed>>,
    /// Python's main thread, if the stream was exported there: where a
    /// wait looks for Ctrl-C.
    main: Option<ThreadId>,
}

impl Iterator for Reader {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let feed = self.feed.as_ref()?;
        let failure = loop {
            match wait::without_gil(|| feed.poll()) {
                Ok(Some(Item::Batch(batch))) => return Some(Ok(batch)),
                // Ends the stream rather than fails it: the reader's call
                // then returns, and Python raises KeyboardInterrupt before
                // its result is assigned. An error would have the reader
                // raise its own exception first (polars' ComputeError).
                Ok(None) if wait::interrupted(self.main) => break None,
                Ok(None) => {}
                Ok(Some(Item::End(warnings))) => break say(&warnings).err().map(|e| e.to_string()),
                Ok(Some(Item::Failed(e))) => break Some(e.to_string()),
                Err(_) => break Some("the run stopped without an end".to_string()),
            }
        };
        self.feed = None;
        failure.map(|message| {
            Err(ArrowError::ExternalError(Box::new(std::io::Error::other(
                format!("pgnmill: {message}"),
            ))))
        })
    }
}

/// The warnings of a run that a C stream reader ended, through Python's
/// `warnings`; `Err` when a filter makes them errors.
fn say(warnings: &[String]) -> PyResult<()> {
    if warnings.is_empty() {
        return Ok(());
    }
    Python::attach(|py| warnings.iter().try_for_each(|w| warn(py, w)))
}

impl RecordBatchReader for Reader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// One batch of a stream's rows: hand it to `pyarrow.record_batch` or
/// `polars.DataFrame` (the Arrow PyCapsule interface), or read it as a
/// stream of one batch.
#[pyclass(module = "pgnmill", name = "Batch", frozen)]
pub struct Batch {
    batch: RecordBatch,
}

#[pymethods]
impl Batch {
    /// The rows of the batch.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }

    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.batch.schema())
    }

    /// The batch as an Arrow C schema and array (a struct of the columns).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let array = StructArray::from(self.batch.clone());
        let schema = schema_capsule(py, &self.batch.schema())?;
        let array = arrow_array::ffi::FFI_ArrowArray::new(&arrow_array::Array::to_data(&array));
        let array = PyCapsule::new_with_value(py, array, ARRAY_CAPSULE)?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }

    /// The batch as an Arrow C stream of one batch.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let batches = RecordBatchIterator::new([Ok(self.batch.clone())], self.batch.schema());
        stream_capsule(py, batches)
    }

    fn __repr__(&self) -> String {
        format!("<pgnmill.Batch of {} rows>", self.batch.num_rows())
    }
}

/// `schema` as an Arrow C schema capsule.
fn schema_capsule<'py>(py: Python<'py>, schema: &SchemaRef) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi = FFI_ArrowSchema::try_from(schema.as_ref())
        .map_err(|e| PgnmillError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, SCHEMA_CAPSULE)
}

/// `reader`'s batches as an Arrow C stream capsule.
fn stream_capsule<'py>(
    py: Python<'py>,
    reader: impl RecordBatchReader + Send + 'static,
) -> PyResult<Bound<'py, PyCapsule>> {
    let stream = FFI_ArrowArrayStream::new(Box::new(reader));
    PyCapsule::new_with_value(py, stream, STREAM_CAPSULE)
}
