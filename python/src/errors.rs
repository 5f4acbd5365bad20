//! The library's errors as Python exceptions: a missing input or
//! openings table is `FileNotFoundError`, a refused option `ValueError` (raised where the
//! keywords are read), anything else `pgnmill.PgnmillError`, with the
//! command line's words. An input's warnings (cut off, damaged, refused)
//! are `pgnmill.PgnmillWarning`s, through Python's `warnings`, so that a
//! filter can silence them or make them errors.

use pgnmill::job::request::OptionsError;
use pgnmill::openings::OpeningsError;
use pgnmill::output::OutputError;
use pgnmill::pipeline::ReportError;
use pgnmill::source::SourceError;
use pyo3::exceptions::{PyException, PyFileNotFoundError, PyUserWarning, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    pgnmill,
    PgnmillError,
    PyException,
    "A run of pgnmill that could not complete: an input or the output folder could not be used."
);

pyo3::create_exception!(
    pgnmill,
    PgnmillWarning,
    PyUserWarning,
    "An input that was not read whole: cut off, damaged, or not PGN at all (summary.json's inputs[].warnings)."
);

/// Says `message` through Python's `warnings` as a [`PgnmillWarning`];
/// `Err` when a filter makes warnings errors.
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<PgnmillWarning>();
    let message = std::ffi::CString::new(message.replace('\0', " "))
        .map_err(|e| PgnmillError::new_err(e.to_string()))?;
    PyErr::warn(py, &category, &message, 1)
}

/// An input that could not be opened.
pub fn source_error(e: SourceError) -> PyErr {
    match e {
        SourceError::NotFound { path } => PyFileNotFoundError::new_err((
            2,
            "No such file or directory",
            path.display().to_string(),
        )),
        e @ SourceError::AgainstIsInput { .. } => PyValueError::new_err(e.to_string()),
        e => PgnmillError::new_err(e.to_string()),
    }
}

/// Options that cannot be used: an openings table that is not there is a
/// `FileNotFoundError`, as a missing input is; any other refusal a
/// `ValueError`.
pub fn options_error(e: OptionsError) -> PyErr {
    match e {
        OptionsError::Openings(OpeningsError::Unreadable { file, why })
            if why.kind() == std::io::ErrorKind::NotFound =>
        {
            PyFileNotFoundError::new_err((
                2,
                "No such file or directory",
                file.display().to_string(),
            ))
        }
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The output folder that could not be used.
pub fn output_error(e: OutputError) -> PyErr {
    match e {
        e @ OutputError::EarlierReport { .. } => PgnmillError::new_err(format!(
            "{e}; pass force=True to replace it, or choose another folder"
        )),
        e => PgnmillError::new_err(e.to_string()),
    }
}

/// Why a run stopped.
pub fn report_error(e: ReportError) -> PyErr {
    match e {
        ReportError::Source(e) => source_error(e),
        ReportError::Output(e) => output_error(e),
        e => PgnmillError::new_err(e.to_string()),
    }
}
