//! The native part of pgnmill's Python package (`pgnmill._pgnmill`): the
//! library's [`Job`](pgnmill::job::Job) behind Python calls. The package's
//! `__init__.py` re-exports it, and adds `shards`, which is plain Python
//! over [`report`].
//!
//! - [`read_games`]: the game rows as an Arrow C stream ([`stream`]).
//! - [`read_plies`]: the ply rows of `--plies` the same way.
//! - [`read_fens`]: the audit rows of FEN/EPD lists the same way ([`fens`]).
//! - [`report`]: a report folder, as `pgnmill report` writes it.
//! - `_plan_shards`, `_merge_summaries`: the two steps of `shards` that
//!   need the library: which files are the inputs, and their totals merged.
//!
//! Keywords become the library's [`ReportRequest`] ([`keywords`]), which
//! the command line's flags become too; errors become Python exceptions
//! ([`errors`]); waiting for the run is done without the GIL and watching
//! for Ctrl-C ([`wait`]).

mod errors;
mod fens;
mod keywords;
mod stream;
mod wait;

use std::path::PathBuf;
use std::sync::mpsc;

use pgnmill::fenlist::{FenOptions, VariantRule};
use pgnmill::job::request::Format;
use pgnmill::output::collisions;
use pgnmill::report::unread::Unread;
use pgnmill::report::{ReportFolder, Summary, merge_summaries, planned_paths};
use pgnmill::source::Listing;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use errors::{PgnmillError, PgnmillWarning, report_error, warn};
use keywords::{Keywords, Paths};
use stream::RowStream;

/// The game rows of the inputs as a stream of Arrow record batches, with
/// the columns, names, types and row order of `games.parquet` for the same
/// inputs and options (docs/reports.md). See `pgnmill.read_games`.
#[pyfunction]
#[pyo3(signature = (paths, **options))]
fn read_games(
    py: Python<'_>,
    paths: Paths,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<RowStream> {
    let job = Keywords::of(options)?.job(py, &paths, &[], false)?;
    stream::games(job.job, &job.options, job.cancel)
}

/// The ply rows of the inputs (`pgnmill report --plies`) as a stream of
/// Arrow record batches, with the columns, names, types and row order of
/// `plies.parquet` for the same inputs and options. See
/// `pgnmill.read_plies`.
#[pyfunction]
#[pyo3(signature = (paths, **options))]
fn read_plies(
    py: Python<'_>,
    paths: Paths,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<RowStream> {
    let job = Keywords::of(options)?.job(py, &paths, &[], false)?;
    stream::plies(job.job, &job.options, job.cancel)
}

/// The audit rows of `pgnmill fen` over the inputs (FEN/EPD/perft lists,
/// xiangqi record files, folders searched for them) as a stream of Arrow
/// record batches. See `pgnmill.read_fens`.
#[pyfunction]
#[pyo3(signature = (paths, *, chess960=false, threads=None))]
fn read_fens(
    py: Python<'_>,
    paths: Paths,
    chess960: bool,
    threads: Option<keywords::Whole>,
) -> PyResult<RowStream> {
    let (job, cancel) = keywords::plan(py, &paths, Listing::Positions, threads)?;
    let variant = match chess960 {
        true => VariantRule::Chess960,
        false => VariantRule::Auto,
    };
    fens::stream(job, FenOptions { variant }, cancel)
}

/// Writes the report folder `out` as `pgnmill report` does and returns its
/// summary.json as a dict. See `pgnmill.report`.
#[pyfunction]
#[pyo3(signature = (paths, out, *, formats=None, force=false, strict=false, **options))]
fn report<'py>(
    py: Python<'py>,
    paths: Paths,
    out: PathBuf,
    formats: Option<keywords::Words>,
    force: bool,
    strict: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let formats = keywords::formats(formats)?;
    let keywords = Keywords::of(options)?;
    // Where the report may go, checked as the command line checks `-o`
    // before anything is read or written.
    let inputs: Vec<PathBuf> = paths
        .0
        .iter()
        .chain(keywords.against.iter().flat_map(|a| &a.0))
        .cloned()
        .collect();
    collisions::check(&planned_paths("out", &out), &inputs)
        .map_err(|e| PyValueError::new_err(e.0))?;
    let planned = keywords.job(py, &paths, &formats, strict)?;
    let out = ReportFolder::prepare(&out, force).map_err(errors::output_error)?;
    let (job, options, cancel) = (planned.job, planned.options, planned.cancel);
    let (done, finished) = mpsc::sync_channel(1);
    let run = std::thread::Builder::new()
        .name("pgnmill-report".into())
        .spawn(move || {
            let _ = done.send(job.report(&options, &out, &mut ()));
        })
        .map_err(|e| PgnmillError::new_err(format!("cannot start the run's thread: {e}")))?;
    let outcome = wait::finish(py, &std::sync::Mutex::new(finished), &cancel);
    let _ = run.join();
    let outcome = outcome?.map_err(report_error)?;
    for message in &outcome.warnings {
        warn(py, message)?;
    }
    if strict {
        Unread::of_report(&outcome.summary)
            .check("the report was written; summary.json says which and why")
            .map_err(PgnmillError::new_err)?;
    }
    summary_dict(py, &outcome.summary)
}

/// The files `shards` makes one task each of, in input order (a zip
/// archive once, for all its members), and the summary of a run over them
/// that has counted nothing yet: what the merged summary takes from the
/// whole run (`options`, `skipped`, `threads`).
#[pyfunction]
#[pyo3(signature = (paths, **options))]
fn _plan_shards(
    py: Python<'_>,
    paths: Paths,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Vec<PathBuf>, String)> {
    let planned = Keywords::of(options)?.job(py, &paths, &[Format::Parquet], false)?;
    let mut files: Vec<PathBuf> = Vec::new();
    for input in planned.job.inputs() {
        let Some(file) = input.file_path() else {
            return Err(PyValueError::new_err(
                "shards: standard input (-) cannot be split into tasks; name files",
            ));
        };
        if !files.iter().any(|f| f == file) {
            files.push(file.to_path_buf());
        }
    }
    let mut base = Summary::new(planned.job.thread_count());
    base.options = planned.options.summary.clone();
    base.skipped = planned.job.skipped().clone();
    let base = serde_json::to_string(&base).map_err(|e| PgnmillError::new_err(e.to_string()))?;
    Ok((files, base))
}

/// The summary.json of one run over all the inputs, from `base` (see
/// `_plan_shards`) and the summaries of the runs over each file, in input
/// order (JSON texts in, JSON text out).
#[pyfunction]
fn _merge_summaries(base: &str, parts: Vec<String>) -> PyResult<String> {
    let parse = |text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| PgnmillError::new_err(format!("a summary that is not JSON: {e}")))
    };
    let parts = parts
        .iter()
        .map(|p| parse(p))
        .collect::<PyResult<Vec<_>>>()?;
    let merged = merge_summaries(parse(base)?, &parts).map_err(PgnmillError::new_err)?;
    serde_json::to_string_pretty(&merged).map_err(|e| PgnmillError::new_err(e.to_string()))
}

/// `summary` as Python objects, through its JSON (summary.json's keys).
fn summary_dict<'py>(py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(summary).map_err(|e| PgnmillError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

#[pymodule]
fn _pgnmill(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PgnmillError", py.get_type::<PgnmillError>())?;
    m.add("PgnmillWarning", py.get_type::<PgnmillWarning>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<RowStream>()?;
    m.add_class::<stream::Batch>()?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(read_plies, m)?)?;
    m.add_function(wrap_pyfunction!(read_fens, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(_plan_shards, m)?)?;
    m.add_function(wrap_pyfunction!(_merge_summaries, m)?)?;
    Ok(())
}
