//! Decompressing on a thread of its own, ahead of the reader.
//!
//! A zstd or gzip stream is one sequence: only one thread can decode it.
//! Without this, that thread also splits the text into games, so a
//! compressed input goes at (decoder + splitter) speed; with it, decoding
//! overlaps splitting and a compressed input goes at the speed of the
//! slower of the two, which is the decoder's (docs/performance.md, "The serial
//! stages, measured").
//!
//! [`ReadAhead`] is a [`BufRead`] whose bytes come from a thread that reads
//! the inner reader in blocks of [`BLOCK`] bytes, at most [`BLOCKS_AHEAD`]
//! ahead, so memory stays bounded. A read error (a truncated `.zst`) is
//! delivered after the bytes before it, then the stream ends.
//!
//! The blocks go round: the reader sends each block it has finished back
//! to the thread, which fills it again. A new block would be memory the
//! allocator has to zero (or the kernel to map and zero, page by page) for
//! every megabyte of text; a returned one is written over as it is.

use std::io::{BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use crate::cpu_time::thread_cpu_ns;

/// Bytes per block handed over: large enough that the hand-over costs
/// nothing next to decoding it.
const BLOCK: usize = 1 << 20;

/// Blocks decoded ahead of the reader.
const BLOCKS_AHEAD: usize = 2;

/// A reader fed by a thread that reads `inner` ahead.
pub struct ReadAhead {
    rx: Receiver<std::io::Result<Vec<u8>>>,
    /// Finished blocks, back to the thread to be filled again.
    spare: SyncSender<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
    /// CPU nanoseconds of the reading thread, set when it ends.
    cpu_ns: Arc<AtomicU64>,
}

impl ReadAhead {
    /// Starts the thread that reads `inner`. Fails only if the system
    /// refuses a thread.
    pub fn spawn(mut inner: Box<dyn Read + Send>) -> std::io::Result<ReadAhead> {
        ReadAhead::spawn_with(move |pump| {
            pump(&mut *inner);
            Ok(())
        })
    }

    /// Starts a thread that runs `open`, which makes a reader and hands it
    /// to the pump it is given (for a reader that borrows from another
    /// that must live on the thread: a zip member from its archive). An
    /// error of `open` is the stream's error. The pump can be given several
    /// readers in turn (the members of a damaged archive); it says `false`
    /// when the stream has ended (a read error was delivered, or the
    /// reader is gone), and `open` should then stop.
    pub fn spawn_with<F>(open: F) -> std::io::Result<ReadAhead>
    where
        F: FnOnce(&mut dyn FnMut(&mut dyn Read) -> bool) -> std::io::Result<()> + Send + 'static,
    {
        let (tx, rx) = sync_channel(BLOCKS_AHEAD);
        // Room for every block there can be besides the one being filled:
        // those in `tx` and the reader's.
        let (spare, returned) = sync_channel::<Vec<u8>>(BLOCKS_AHEAD + 1);
        let cpu_ns = Arc::new(AtomicU64::new(0));
        let cpu = Arc::clone(&cpu_ns);
        std::thread::Builder::new()
            .name("pgnmill-decode".into())
            .spawn(move || {
                let start = thread_cpu_ns();
                let mut pump = |inner: &mut dyn Read| loop {
                    let mut block = returned.try_recv().unwrap_or_default();
                    // Zeroes only what a short last read left out of a
                    // returned block, all of a new one.
                    block.resize(BLOCK, 0);
                    let (n, error) = fill_block(inner, &mut block);
                    block.truncate(n);
                    // A reader that is gone means the run stopped.
                    if n > 0 && tx.send(Ok(block)).is_err() {
                        break false;
                    }
                    if let Some(e) = error {
                        let _ = tx.send(Err(e));
                        break false;
                    }
                    if n == 0 {
                        break true;
                    }
                };
                let opened = open(&mut pump);
                if let Err(e) = opened {
                    let _ = tx.send(Err(e));
                }
                // Before the channel closes, so the reader sees it at EOF.
                cpu.store(thread_cpu_ns().saturating_sub(start), Ordering::Relaxed);
                drop(tx);
            })?;
        Ok(ReadAhead {
            rx,
            spare,
            block: Vec::new(),
            at: 0,
            cpu_ns,
        })
    }

    /// Where the reading thread's CPU nanoseconds will be once it ends.
    pub fn cpu_ns(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.cpu_ns)
    }
}

impl BufRead for ReadAhead {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at >= self.block.len() {
            match self.rx.recv() {
                Ok(Ok(block)) => {
                    let done = std::mem::replace(&mut self.block, block);
                    self.at = 0;
                    // Full of spares or the thread gone: let it go.
                    let _ = self.spare.try_send(done);
                }
                Ok(Err(e)) => return Err(e),
                // The thread ended: end of input.
                Err(_) => return Ok(&[]),
            }
        }
        Ok(self.block.get(self.at..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.at = self.at.saturating_add(n).min(self.block.len());
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}

/// [`Read::read`] of a [`BufRead`] that holds its bytes already: a copy of
/// what [`BufRead::fill_buf`] gives.
pub(super) fn read_buffered(rd: &mut impl BufRead, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut at = 0;
    let n = hand_out(rd.fill_buf()?, &mut at, buf);
    rd.consume(n);
    Ok(n)
}

/// Copies what fits of `bytes[*at..]` into `buf` and moves `at` past it:
/// the end of every `read` over bytes in memory.
pub(super) fn hand_out(bytes: &[u8], at: &mut usize, buf: &mut [u8]) -> usize {
    let rest = bytes.get(*at..).unwrap_or_default();
    let n = rest.len().min(buf.len());
    if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
        dst.copy_from_slice(src);
    }
    *at += n;
    n
}

/// Reads until `block` is full or `inner` ends (byte count, no error) or
/// fails (the bytes before the failure, and the error, which ends the
/// stream: a decoder is not asked again after an error).
pub(super) fn fill_block(
    inner: &mut dyn Read,
    block: &mut [u8],
) -> (usize, Option<std::io::Error>) {
    let mut n = 0;
    while n < block.len() {
        match inner.read(block.get_mut(n..).unwrap_or_default()) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives `data` in reads of at most 7000 bytes, then fails (if `fail`)
    /// or ends.
    struct Source {
        data: Vec<u8>,
        at: usize,
        fail: bool,
    }

    impl Read for Source {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let rest = self.data.get(self.at..).unwrap_or_default();
            if rest.is_empty() && self.fail {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "frame cut short",
                ));
            }
            let n = rest.len().min(buf.len()).min(7000);
            buf[..n].copy_from_slice(&rest[..n]);
            self.at += n;
            Ok(n)
        }
    }

    fn data() -> Vec<u8> {
        (0..3 * BLOCK + 12345).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn delivers_every_byte_in_order_then_ends() {
        let src = Source {
            data: data(),
            at: 0,
            fail: false,
        };
        let mut r = ReadAhead::spawn(Box::new(src)).unwrap();
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert!(got == data());
        assert_eq!(r.read(&mut [0u8; 16]).unwrap(), 0);
    }

    #[test]
    fn an_error_comes_after_the_bytes_before_it() {
        let src = Source {
            data: data(),
            at: 0,
            fail: true,
        };
        let mut r = ReadAhead::spawn(Box::new(src)).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 50_000];
        let err = loop {
            match r.read(&mut buf) {
                Ok(0) => panic!("ended without the error"),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => break e,
            }
        };
        assert!(got == data(), "{} bytes before the error", got.len());
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
        assert_eq!(
            r.read(&mut buf).unwrap(),
            0,
            "the stream ends after its error"
        );
    }
}
