//! A file that appears under its name only when it is complete.
//!
//! It is written under a temporary name in the same folder (so the final
//! rename cannot cross file systems) and renamed into place by
//! [`AtomicFile::commit`]. Dropped without a commit — an error, a full disk,
//! an interrupt — the temporary file is removed, so no half-written report
//! can pass for a finished one.
//!
//! A run that writes several files finishes each one first
//! ([`AtomicFile::finish`]: flushed and synced, still under its temporary
//! name) and renames them only once all are finished
//! ([`FinishedFile::publish`]): a failure in the last file leaves none of the
//! others in place either.

use super::OutputError;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub struct AtomicFile {
    dest: PathBuf,
    tmp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file beside `dest`; opens `dest` itself when
    /// it is a stream ([`super::is_stream`]), which is written as the run
    /// goes, with no temporary file (the empty `tmp`).
    pub fn create(dest: &Path) -> Result<Self, OutputError> {
        if super::is_stream(dest) {
            // Appending: `/dev/stdout` that the shell opened with `>>`
            // keeps what the file held (with `>` it was emptied already).
            let file = std::fs::OpenOptions::new()
                .append(true)
                .open(dest)
                .map_err(|e| OutputError::io(dest, e))?;
            return Ok(AtomicFile {
                dest: dest.to_path_buf(),
                tmp: PathBuf::new(),
                writer: Some(BufWriter::with_capacity(1 << 16, file)),
            });
        }
        let tmp = Self::temporary_path(dest);
        let file = File::create(&tmp).map_err(|e| OutputError::io(dest, e))?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            tmp,
            writer: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Where the file for `dest` is written until it is complete:
    /// `.NAME.partial` beside it (hidden, and passed over by a folder
    /// search).
    pub fn temporary_path(dest: &Path) -> PathBuf {
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        dest.with_file_name(format!(".{name}.partial"))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.dest
    }

    /// Writes bytes, naming the file in the error.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        match self.writer.as_mut() {
            Some(w) => w
                .write_all(bytes)
                .map_err(|e| OutputError::io(&self.dest, e)),
            None => Ok(()),
        }
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(self) -> Result<(), OutputError> {
        self.finish()?.publish()
    }

    /// Flushes and syncs the file, still under its temporary name, for
    /// [`FinishedFile::publish`] to rename into place.
    pub fn finish(mut self) -> Result<FinishedFile, OutputError> {
        let dest = std::mem::take(&mut self.dest);
        let tmp = std::mem::take(&mut self.tmp);
        let Some(writer) = self.writer.take() else {
            return Ok(FinishedFile { dest, tmp });
        };
        // From here the temporary file is `FinishedFile`'s to remove.
        let finished = FinishedFile { dest, tmp };
        let file = writer
            .into_inner()
            .map_err(|e| OutputError::io(&finished.dest, e.into_error()))?;
        // A stream has nothing to sync (a pipe refuses `fsync`).
        if !finished.tmp.as_os_str().is_empty() {
            file.sync_all()
                .map_err(|e| OutputError::io(&finished.dest, e))?;
        }
        Ok(finished)
    }
}

/// A complete file under its temporary name ([`AtomicFile::finish`]).
/// Dropped without [`FinishedFile::publish`], it is removed, as an unfinished
/// [`AtomicFile`] is.
#[must_use = "a finished file is removed unless it is published"]
pub struct FinishedFile {
    dest: PathBuf,
    tmp: PathBuf,
}

impl FinishedFile {
    /// Renames the file into place (a stream is in place already).
    pub fn publish(mut self) -> Result<(), OutputError> {
        let tmp = std::mem::take(&mut self.tmp);
        if tmp.as_os_str().is_empty() {
            return Ok(());
        }
        std::fs::rename(&tmp, &self.dest).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            OutputError::io(&self.dest, e)
        })
    }
}

impl Drop for FinishedFile {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// For writers that take a `Write` (the Parquet file writer): the same
/// bytes as [`AtomicFile::write_all`], with plain I/O errors.
impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.writer.as_mut() {
            Some(w) => w.write(bytes),
            None => Ok(bytes.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.is_some() {
            // Not committed: remove the partial file. Errors are ignored, as
            // there is nothing better to do with them while unwinding.
            self.writer = None;
            if !self.tmp.as_os_str().is_empty() {
                let _ = std::fs::remove_file(&self.tmp);
            }
        }
    }
}
