//! An unnamed scratch file beside the outputs: what a run must read again
//! after its last game (`--duplicates` keeps each game's line there, and
//! the rows that wait for their duplicate columns) without holding it in
//! memory. It has no name (`O_TMPFILE` where the system has it), so it
//! vanishes with the process however the run ends, and it lies in the
//! report's folder, on the disk the user chose for the output, not in a
//! `/tmp` that may be memory.

use super::OutputError;
use std::fs::File;
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

pub struct Spill {
    /// The folder, for messages.
    dir: PathBuf,
    writer: BufWriter<File>,
    /// Bytes written so far.
    len: u64,
}

impl Spill {
    /// A new scratch file in `dir`.
    pub fn create_in(dir: &Path) -> Result<Spill, OutputError> {
        let file = tempfile::tempfile_in(dir).map_err(|e| OutputError::io(dir, e))?;
        Ok(Spill {
            dir: dir.to_path_buf(),
            writer: BufWriter::with_capacity(1 << 16, file),
            len: 0,
        })
    }

    /// Where the next byte written will be.
    pub fn position(&self) -> u64 {
        self.len
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.len += bytes.len() as u64;
        self.writer
            .write_all(bytes)
            .map_err(|e| OutputError::io(&self.dir, e))
    }

    /// Everything written, to be read from the start ([`SpillReader`]).
    pub fn into_reader(self) -> Result<SpillReader, OutputError> {
        let dir = self.dir;
        let mut file = self
            .writer
            .into_inner()
            .map_err(|e| OutputError::io(&dir, e.into_error()))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| OutputError::io(&dir, e))?;
        Ok(SpillReader {
            dir,
            file,
            len: self.len,
        })
    }
}

/// Writes through to the file (the Parquet writer takes a `Write`).
impl Write for Spill {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.writer.write(bytes)?;
        self.len += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

/// A finished scratch file, read in order or at any place.
pub struct SpillReader {
    dir: PathBuf,
    file: File,
    len: u64,
}

impl SpillReader {
    /// The whole file in order, buffered (from its start, once).
    pub fn sequential(&self) -> Result<BufReader<File>, OutputError> {
        let mut file = self
            .file
            .try_clone()
            .map_err(|e| OutputError::io(&self.dir, e))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| OutputError::io(&self.dir, e))?;
        Ok(BufReader::with_capacity(1 << 16, file))
    }

    /// The file itself (a Parquet reader reads at its own places).
    pub fn file(&self) -> Result<File, OutputError> {
        self.file
            .try_clone()
            .map_err(|e| OutputError::io(&self.dir, e))
    }

    /// `buf.len()` bytes at `at`.
    pub fn read_at(&self, at: u64, buf: &mut [u8]) -> Result<(), OutputError> {
        self.file
            .read_exact_at(buf, at)
            .map_err(|e| OutputError::io(&self.dir, e))
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The folder, for messages.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
