//! Small readers the openers share: one that counts the bytes read, one
//! over bytes in memory, one that has broken off, and a read that fills a
//! buffer as far as the reader goes.

use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::read_ahead::hand_out;
use super::window::Shared;

/// Counts the bytes read from the underlying file or pipe (before any
/// decompression), for a progress bar by input bytes.
pub(super) struct Counting<R> {
    pub inner: R,
    pub count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A reader over bytes in memory (a mapped file).
pub(super) struct SharedReader {
    pub data: Shared,
    pub at: usize,
}

impl Read for SharedReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(hand_out((*self.data).as_ref(), &mut self.at, buf))
    }
}

/// A reader that has broken off: its error, once, then the end.
pub(super) struct BrokenOff(pub Option<std::io::Error>);

impl Read for BrokenOff {
    fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
        self.fill_buf().map(<[u8]>::len)
    }
}

impl BufRead for BrokenOff {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(&[]),
        }
    }

    fn consume(&mut self, _n: usize) {}
}

/// Reads until `buf` is full, the reader ends or fails: the byte count,
/// and the error if it failed.
pub(super) fn read_head(rd: &mut dyn Read, buf: &mut [u8]) -> (usize, Option<std::io::Error>) {
    let mut n = 0;
    while n < buf.len() {
        match rd.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}
