//! Where a command's text output goes, the same way for every command:
//! standard output, or a file (`-o/--out`) written under a temporary name
//! and renamed into place when the run is complete. A file that exists is
//! replaced only with `--force`; `-o -` is standard output, and a path
//! that names a device or a pipe (`/dev/null`, `/dev/stdout`) is written
//! as it is, like standard output (`pgnmill::output::is_stream`).

use super::CliError;
use pgnmill::output::collisions::{Planned, Shape};
use pgnmill::output::{AtomicFile, OutputError};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An open output.
pub enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File(AtomicFile),
}

impl Output {
    /// Opens `out`: standard output when `None` or `-` (as `-` is
    /// standard input among the inputs), else the file, under a temporary
    /// name. The paths were checked against each other and the inputs
    /// before ([`planned`]).
    pub fn open(out: Option<&Path>, force: bool) -> Result<Output, CliError> {
        let Some(path) = out.filter(|p| p.as_os_str() != "-") else {
            check_stdout()?;
            return Ok(Output::Stdout(std::io::BufWriter::with_capacity(
                1 << 16,
                std::io::stdout(),
            )));
        };
        refuse_to_replace(path, force)?;
        Ok(Output::File(AtomicFile::create(path)?))
    }

    /// The output's name for messages: its path, or `standard output`.
    pub fn name(&self) -> PathBuf {
        match self {
            Output::Stdout(_) => PathBuf::from("standard output"),
            Output::File(f) => f.path().to_path_buf(),
        }
    }

    /// Writes bytes; names the output in the error.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        match self {
            Output::Stdout(w) => w.write_all(bytes).map_err(stdout_error),
            Output::File(f) => Ok(f.write_all(bytes)?),
        }
    }

    /// Flushes standard output, or renames the file into place.
    pub fn finish(self) -> Result<(), CliError> {
        match self {
            Output::Stdout(mut w) => w.flush().map_err(stdout_error),
            Output::File(f) => Ok(f.commit()?),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write_all(buf).map(|()| buf.len()).map_err(|e| match e {
                OutputError::Io { source, .. } => source,
                e => std::io::Error::other(e),
            }),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(_) => Ok(()),
        }
    }
}

fn stdout_error(e: std::io::Error) -> CliError {
    CliError::io("standard output", e)
}

/// An error when something is at `path` (a file, a folder, a symbolic
/// link even to nothing) and `force` was not given: a user's file is
/// replaced only with `--force`.
pub fn refuse_to_replace(path: &Path, force: bool) -> Result<(), CliError> {
    if pgnmill::output::is_taken(path) && !force {
        return Err(CliError::Failed(format!(
            "{}: already exists; use --force to replace it",
            path.display()
        )));
    }
    Ok(())
}

/// The `-o FILE` of `convert` and `fen`, for the checks of
/// [`collisions`](pgnmill::output::collisions): none when the output is standard
/// output.
pub fn planned(out: Option<&Path>) -> Vec<Planned> {
    out.filter(|p| p.as_os_str() != "-")
        .map(|p| Planned::new("-o", p, Shape::File))
        .into_iter()
        .collect()
}

/// Whether `out` (`-o`) means standard output.
pub fn is_stdout(out: Option<&Path>) -> bool {
    out.is_none_or(|p| p.as_os_str() == "-")
}

/// True for the error a write to a closed pipe gives (`| head`): the reader
/// has what it wanted, and the command stops quietly with exit 0.
pub fn is_broken_pipe(err: &CliError) -> bool {
    matches!(err, CliError::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

/// Refuses to run when standard output was closed (`>&-`), which would
/// otherwise pass for a success that wrote nothing.
///
/// Rust's runtime opens `/dev/null` on a standard descriptor that is closed
/// when the program starts (so that no file can take its number), read and
/// write. A shell's `> /dev/null` opens it write-only. So standard output
/// that is the null device opened read-write was closed by the caller; a
/// descriptor that is still closed (a runtime that did not do this) fails
/// `fcntl` and counts as closed too.
pub fn check_stdout() -> Result<(), CliError> {
    if stdout_was_closed() {
        Err(CliError::Failed(
            "standard output is closed; give it a file or a pipe, or use -o".into(),
        ))
    } else {
        Ok(())
    }
}

fn stdout_was_closed() -> bool {
    let fd = libc::STDOUT_FILENO;
    // SAFETY: F_GETFL only reads the descriptor's flags; a closed
    // descriptor makes it return -1 (EBADF).
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags == -1 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    use std::os::unix::fs::MetadataExt;
    let (Ok(out), Ok(null)) = (
        std::fs::metadata("/proc/self/fd/1"),
        std::fs::metadata("/dev/null"),
    ) else {
        return false;
    };
    out.rdev() == null.rdev() && out.dev() == null.dev()
}
