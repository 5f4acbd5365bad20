//! An unnamed scratch file beside the outputs: what a run must read again
//! after its last game (`--duplicates` keeps each game's line there, and
//! the rows that wait for their duplicate columns) without holding it in
//! memory. It has no name (`O_TMPFILE` where the system has it), so it
//! vanishes with the process however the run ends, and it lies in the
//! report's folder, on the disk the user chose for the output, not in a
//! `/tmp` that may be memory.

use super::OutputError;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

pub struct Spill {
    /// What an error names: the output the scratch file serves, or its
    /// folder.
    named: PathBuf,
    writer: BufWriter<File>,
    /// Bytes written so far.
    len: u64,
}

impl Spill {
    /// A new scratch file in `dir`, which its errors name.
    pub fn create_in(dir: &Path) -> Result<Spill, OutputError> {
        Self::create_named(dir, dir)
    }

    /// A new scratch file for `output` (rows that wait for their last
    /// columns): in its folder, and named by it in an error (a full disk
    /// says which output it stopped). For an output that is a stream
    /// ([`super::is_stream`]: `/dev/stdout`, a pipe), whose folder is no
    /// place for files, in the system's temporary folder, as for standard
    /// output.
    pub fn create_for(output: &Path) -> Result<Spill, OutputError> {
        if super::is_stream(output) {
            return Self::create_named(&std::env::temp_dir(), output);
        }
        let dir = match output.parent() {
            Some(dir) if dir != Path::new("") => dir,
            _ => Path::new("."),
        };
        Self::create_named(dir, output)
    }

    fn create_named(dir: &Path, named: &Path) -> Result<Spill, OutputError> {
        let file = tempfile::tempfile_in(dir).map_err(|e| OutputError::io(named, e))?;
        Ok(Spill {
            named: named.to_path_buf(),
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
            .map_err(|e| OutputError::io(&self.named, e))
    }

    /// Writes `bytes` as one frame: its length (8 bytes), then the bytes;
    /// [`SpillReader::frames`] and [`SpillReader::frame_at`] read it back.
    pub fn write_frame(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.write_all(&(bytes.len() as u64).to_le_bytes())?;
        self.write_all(bytes)
    }

    /// Everything written, to be read from the start ([`SpillReader`]).
    pub fn into_reader(self) -> Result<SpillReader, OutputError> {
        let named = self.named;
        let mut file = self
            .writer
            .into_inner()
            .map_err(|e| OutputError::io(&named, e.into_error()))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| OutputError::io(&named, e))?;
        Ok(SpillReader {
            named,
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
    /// What its errors name ([`Spill::named`]).
    named: PathBuf,
    file: File,
    len: u64,
}

impl SpillReader {
    /// The whole file in order, buffered (from its start, once).
    pub fn sequential(&self) -> Result<BufReader<File>, OutputError> {
        let mut file = self
            .file
            .try_clone()
            .map_err(|e| OutputError::io(&self.named, e))?;
        file.seek(SeekFrom::Start(0))
            .map_err(|e| OutputError::io(&self.named, e))?;
        Ok(BufReader::with_capacity(1 << 16, file))
    }

    /// The frames written ([`Spill::write_frame`]), in order.
    pub fn frames(&self) -> Result<Frames, OutputError> {
        Ok(Frames {
            reader: self.sequential()?,
            named: self.named.clone(),
            buf: Vec::new(),
        })
    }

    /// The frame that starts at `at` (where [`Spill::position`] was before
    /// it was written) into `buf`: one read for a frame of up to a
    /// kilobyte, two for a longer one.
    pub fn frame_at(&self, at: u64, buf: &mut Vec<u8>) -> Result<(), OutputError> {
        const FIRST: u64 = 1024;
        let first = FIRST.min(self.len.saturating_sub(at)) as usize;
        buf.resize(first.max(8), 0);
        self.read_at(at, buf)?;
        let mut head = [0u8; 8];
        head.copy_from_slice(&buf[..8]);
        let len = u64::from_le_bytes(head) as usize;
        if 8 + len > buf.len() {
            buf.resize(8 + len, 0);
            self.read_at(at, buf)?;
        }
        buf.truncate(8 + len);
        buf.drain(..8);
        Ok(())
    }

    /// The file itself (a Parquet reader reads at its own places).
    pub fn file(&self) -> Result<File, OutputError> {
        self.file
            .try_clone()
            .map_err(|e| OutputError::io(&self.named, e))
    }

    /// `buf.len()` bytes at `at`.
    pub fn read_at(&self, at: u64, buf: &mut [u8]) -> Result<(), OutputError> {
        self.file
            .read_exact_at(buf, at)
            .map_err(|e| OutputError::io(&self.named, e))
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What its errors name.
    pub fn named(&self) -> &Path {
        &self.named
    }
}

/// The frames of a scratch file, read in order.
pub struct Frames {
    reader: BufReader<File>,
    /// What its errors name ([`Spill::named`]).
    named: PathBuf,
    buf: Vec<u8>,
}

impl Frames {
    /// The next frame; `None` after the last.
    pub fn next_frame(&mut self) -> Result<Option<&[u8]>, OutputError> {
        let mut head = [0u8; 8];
        match self.reader.read_exact(&mut head) {
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            other => other.map_err(|e| OutputError::io(&self.named, e))?,
        }
        self.buf.resize(u64::from_le_bytes(head) as usize, 0);
        self.reader
            .read_exact(&mut self.buf)
            .map_err(|e| OutputError::io(&self.named, e))?;
        Ok(Some(&self.buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_in_order_and_at_their_places() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut spill = Spill::create_in(dir.path()).expect("spill");
        let long = vec![7u8; 3000];
        let frames: [&[u8]; 4] = [b"first", b"", &long, b"last"];
        let mut at = Vec::new();
        for frame in frames {
            at.push(spill.position());
            spill.write_frame(frame).expect("write");
        }
        let spill = spill.into_reader().expect("reader");
        let mut read = spill.frames().expect("frames");
        for frame in frames {
            assert_eq!(read.next_frame().expect("read"), Some(frame));
        }
        assert_eq!(read.next_frame().expect("end"), None);
        let mut buf = Vec::new();
        for (frame, at) in frames.iter().zip(at).rev() {
            spill.frame_at(at, &mut buf).expect("read at");
            assert_eq!(&buf[..], *frame);
        }
        // Nothing is left in the folder: the file has no name.
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    }

    /// A scratch file for an output lies in the output's folder, and its
    /// errors name the output, not the folder: a full disk says which
    /// output it stopped.
    #[test]
    fn a_scratch_file_for_an_output_is_named_by_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let output = dir.path().join("u.pgn");
        let spill = Spill::create_for(&output).expect("spill");
        assert_eq!(spill.into_reader().expect("reader").named(), output);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
        let gone = dir.path().join("gone/u.pgn");
        let Err(OutputError::Io { path, .. }) = Spill::create_for(&gone) else {
            panic!("a scratch file in a folder that is not there");
        };
        assert_eq!(path, gone);
    }
}
