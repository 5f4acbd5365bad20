//! The keywords of the Python functions, read into the library's
//! [`ReportRequest`] as the command line's flags are: the same words, the
//! same defaults, the same reasons for a refusal, raised as `ValueError`
//! before anything runs. A missing input is a `FileNotFoundError` at the
//! same moment: the inputs are expanded (folders searched) here.

use std::path::PathBuf;

use pgnmill::job::request::{Format, ReportRequest, thread_count};
use pgnmill::job::{Job, ReportOptions};
use pgnmill::pgn::select::Condition;
use pgnmill::pipeline::Cancel;
use pgnmill::source::Listing;
use pgnmill::variant::GameVariant;
use pyo3::conversion::FromPyObjectOwned;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyString};

use crate::errors::{options_error, source_error, warn};

/// One path or many: `paths` of every function (a `str` or `os.PathLike`
/// is one path, any other iterable a list of them).
pub struct Paths(pub Vec<PathBuf>);

impl<'a, 'py> FromPyObject<'a, 'py> for Paths {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<PyString>() || ob.hasattr("__fspath__")? {
            return Ok(Paths(vec![ob.extract()?]));
        }
        if ob.is_instance_of::<PyBytes>() {
            // A path as bytes, as `os` takes it: one path, not a sequence
            // of numbers.
            let name = ob.py().import("os")?.call_method1("fsdecode", (ob,))?;
            return Ok(Paths(vec![name.extract()?]));
        }
        let mut paths = Vec::new();
        for item in ob.try_iter()? {
            paths.push(item?.extract::<PathBuf>()?);
        }
        Ok(Paths(paths))
    }
}

/// A whole number given as a Python `int` (not a `bool`, which Python
/// counts as one): a number too large for 64 bits is a `ValueError` (out
/// of range), as a number below an option's least is.
pub struct Whole(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<PyBool>() || !ob.is_instance_of::<PyInt>() {
            let kind = ob.get_type().name()?;
            return Err(PyTypeError::new_err(format!("expected an int, not {kind}")));
        }
        match ob.extract::<i64>() {
            Ok(n) => Ok(Whole(n)),
            Err(_) => Err(PyValueError::new_err(format!(
                "{} is out of range",
                ob.str()?
            ))),
        }
    }
}

/// One word or many: `tags`, `where`, `formats` (a `str` is one item).
pub struct Words(pub Vec<String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Words {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<PyString>() {
            return Ok(Words(vec![ob.extract()?]));
        }
        let mut words = Vec::new();
        for item in ob.try_iter()? {
            words.push(item?.extract::<String>()?);
        }
        Ok(Words(words))
    }
}

/// The options every function takes, as keywords: `tags`, `where`,
/// `moves`, `clocks`, `plies`, `chess960`, `threads`, `openings`,
/// `duplicates`, `duplicates_min_plies`, `against` (the
/// package's functions name those they take in their signatures and pass
/// them on).
pub struct Keywords {
    pub tags: Option<Words>,
    pub conditions: Option<Words>,
    pub moves: bool,
    pub clocks: bool,
    pub plies: bool,
    pub chess960: bool,
    pub threads: Option<Whole>,
    /// `--openings`: a path or a list of them.
    pub openings: Option<Paths>,
    /// `--duplicates`, `--duplicates-min-plies`, `--against` (a report
    /// folder only).
    pub duplicates: bool,
    pub duplicates_min_plies: Option<u32>,
    pub against: Option<Paths>,
}

impl Keywords {
    /// The options of a native function's `**options`; `TypeError` for a
    /// keyword it does not take, as Python says it. `None` values are the
    /// defaults.
    pub fn of(options: Option<&Bound<'_, PyDict>>) -> PyResult<Keywords> {
        let mut keywords = Keywords {
            tags: None,
            conditions: None,
            moves: false,
            clocks: false,
            plies: false,
            chess960: false,
            threads: None,
            openings: None,
            duplicates: false,
            duplicates_min_plies: None,
            against: None,
        };
        for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
            if value.is_none() {
                continue;
            }
            let key = key.extract::<String>()?;
            match key.as_str() {
                "tags" => keywords.tags = Some(argument(&key, &value)?),
                "where" => keywords.conditions = Some(argument(&key, &value)?),
                "moves" => keywords.moves = argument(&key, &value)?,
                "clocks" => keywords.clocks = argument(&key, &value)?,
                "plies" => keywords.plies = argument(&key, &value)?,
                "chess960" => keywords.chess960 = argument(&key, &value)?,
                "threads" => keywords.threads = Some(argument(&key, &value)?),
                "openings" => keywords.openings = Some(argument(&key, &value)?),
                "duplicates" => keywords.duplicates = argument(&key, &value)?,
                "duplicates_min_plies" => {
                    let Whole(n) = argument(&key, &value)?;
                    let n = u32::try_from(n).map_err(|_| {
                        PyValueError::new_err(format!(
                            "duplicates_min_plies must be from 0 to {}, not {n}",
                            u32::MAX
                        ))
                    })?;
                    keywords.duplicates_min_plies = Some(n)
                }
                "against" => keywords.against = Some(argument(&key, &value)?),
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "got an unexpected keyword argument '{other}'"
                    )));
                }
            }
        }
        Ok(keywords)
    }
}

/// The value of keyword `key`; `TypeError` naming it when it has the
/// wrong type, and any other error (a `ValueError`) named the same way.
fn argument<'py, T: FromPyObjectOwned<'py>>(key: &str, value: &Bound<'py, PyAny>) -> PyResult<T> {
    value.extract::<T>().map_err(|e| {
        let e: PyErr = e.into();
        let py = value.py();
        if e.is_instance_of::<PyTypeError>(py) {
            PyTypeError::new_err(format!("argument '{key}': {e}"))
        } else {
            PyValueError::new_err(format!("argument '{key}': {}", e.value(py)))
        }
    })
}

/// A run ready to start: its inputs expanded, its options read.
pub struct Planned {
    pub job: Job,
    pub options: ReportOptions,
    pub cancel: Cancel,
}

/// `formats` of `report`: `csv` when not given.
pub fn formats(words: Option<Words>) -> PyResult<Vec<Format>> {
    let Some(Words(words)) = words else {
        return Ok(vec![Format::Csv]);
    };
    if words.is_empty() {
        return Err(PyValueError::new_err("formats: name csv, parquet or both"));
    }
    words
        .iter()
        .map(|w| {
            w.parse()
                .map_err(|why| PyValueError::new_err(format!("formats: {why}")))
        })
        .collect()
}

impl Keywords {
    /// The run these keywords ask for over `paths`, writing `formats`:
    /// the options checked, the inputs expanded (the notes of the search
    /// are Python warnings), the threads settled.
    pub fn job(
        self,
        py: Python<'_>,
        paths: &Paths,
        formats: &[Format],
        strict: bool,
    ) -> PyResult<Planned> {
        let conditions = self
            .conditions
            .map(|w| w.0)
            .unwrap_or_default()
            .iter()
            .map(|c| {
                c.parse::<Condition>()
                    .map_err(|why| PyValueError::new_err(format!("where: {why}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let request = ReportRequest {
            inputs: paths.0.clone(),
            tags: self.tags.map(|w| w.0).unwrap_or_default(),
            conditions,
            moves: self.moves,
            clocks: self.clocks,
            plies: self.plies,
            variant: self.chess960.then_some(GameVariant::Chess960),
            formats: formats.to_vec(),
            extracts: Vec::new(),
            strict,
            openings: self.openings.map(|p| p.0).unwrap_or_default(),
            duplicates: self.duplicates,
            duplicates_min_plies: self.duplicates_min_plies,
            against: self.against.map(|p| p.0).unwrap_or_default(),
        };
        let options = request.options().map_err(options_error)?;
        let (job, cancel) = plan(py, paths, Listing::Games, self.threads)?;
        let job = py
            .detach(|| job.against(&request.against, Listing::Games))
            .map_err(source_error)?;
        Ok(Planned {
            job,
            options,
            cancel,
        })
    }
}

/// The run over `paths` on `threads` threads (all the CPUs when `None`,
/// with a warning when more than those), its inputs found as `listing`
/// says (the notes of the folder search are warnings), stopped by the
/// [`Cancel`] returned with it.
pub fn plan(
    py: Python<'_>,
    paths: &Paths,
    listing: Listing,
    threads: Option<Whole>,
) -> PyResult<(Job, Cancel)> {
    if paths.0.is_empty() {
        return Err(PyValueError::new_err("paths: name at least one input"));
    }
    let asked = match threads.map(|Whole(n)| n) {
        None => None,
        Some(n) if n < 1 => {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        Some(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
    };
    let threads =
        thread_count(asked).map_err(|_| PyValueError::new_err("threads must be at least 1"))?;
    if let Some(asked) = threads.capped_from {
        warn(
            py,
            &format!(
                "threads={asked} is more than the {} CPU(s) this process may use; using {}",
                threads.count, threads.count
            ),
        )?;
    }
    let job = py
        .detach(|| Job::new(&paths.0, listing))
        .map_err(source_error)?;
    for note in job.notes() {
        warn(py, note)?;
    }
    let cancel = Cancel::new();
    Ok((job.threads(threads.count).cancel_on(cancel.clone()), cancel))
}
