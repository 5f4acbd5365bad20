//! Decoding an `.xz` stream so that a damaged one gives every byte before
//! the damage, as `xz -dc` does.
//!
//! lzma-rust2's blocking `XzReader` fills the caller's whole buffer before
//! it returns, and reads each compressed chunk whole before decoding it: an
//! error anywhere in a read (a file cut short) throws away everything
//! decoded in that read. [`crate::source`] reads a compressed input a
//! megabyte at a time, so a cut `.xz` of under a megabyte of text gave no
//! text at all. The same crate's sans-I/O `XzStream` decodes what it has
//! been given, chunk or not; this reader feeds it and hands its output on
//! as it comes, then the error.

use std::io::{BufRead, Read};

use lzma_rust2::{Action, Status, XzStream};

/// The text of an `.xz` input (one stream or several concatenated).
pub(super) struct XzText<R: BufRead> {
    inner: R,
    stream: XzStream,
    /// The decoder has finished (its end, or an error already returned).
    done: bool,
}

impl<R: BufRead> XzText<R> {
    pub(super) fn new(inner: R) -> XzText<R> {
        XzText {
            inner,
            stream: XzStream::new(true),
            done: false,
        }
    }
}

impl<R: BufRead> Read for XzText<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        while !self.done {
            let input = self.inner.fill_buf()?;
            let action = if input.is_empty() {
                Action::Finish
            } else {
                Action::Run
            };
            let result = match self.stream.process(input, buf, action) {
                Ok(result) => result,
                Err(e) => {
                    self.done = true;
                    return Err(plain_error(e));
                }
            };
            self.inner.consume(result.bytes_consumed);
            if result.status == Status::StreamEnd {
                self.done = true;
            }
            if result.bytes_produced > 0 {
                return Ok(result.bytes_produced);
            }
            if result.bytes_consumed == 0 && action == Action::Finish && !self.done {
                // No input left, no output, not at the end: the file was
                // cut inside the stream's framing.
                self.done = true;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the xz data ends before its stream does",
                ));
            }
        }
        Ok(0)
    }
}

/// The decoder's error in words a user reading a warning understands: a
/// cut file is "ends before its stream does", whatever stage it was cut in.
fn plain_error(e: std::io::Error) -> std::io::Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof || e.to_string().contains("truncated") {
        std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the xz data ends before its stream does",
        )
    } else {
        std::io::Error::new(e.kind(), format!("damaged xz data: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = lzma_rust2::XzWriter::new(&mut out, lzma_rust2::XzOptions::with_preset(6))
            .expect("xz writer");
        std::io::Write::write_all(&mut w, text).expect("xz write");
        w.finish().expect("xz finish");
        out
    }

    fn text() -> Vec<u8> {
        (0..40_000u32)
            .flat_map(|i| format!("{} ", i.wrapping_mul(2_654_435_761)).into_bytes())
            .collect()
    }

    fn read_all(data: &[u8]) -> (Vec<u8>, Option<std::io::Error>) {
        let mut rd = XzText::new(std::io::BufReader::with_capacity(4096, data));
        let mut out = Vec::new();
        let mut block = vec![0u8; 1 << 20];
        loop {
            match rd.read(&mut block) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(block.get(..n).unwrap_or_default()),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    #[test]
    fn a_whole_stream_decodes_to_its_text() {
        let text = text();
        let (out, err) = read_all(&xz(&text));
        assert!(err.is_none(), "{err:?}");
        assert_eq!(out, text);
    }

    /// A stream cut anywhere gives a prefix of the text, then an error;
    /// cut after its first tenth, the prefix is not empty (the blocking
    /// reader gave nothing in a read of a megabyte).
    #[test]
    fn a_cut_stream_gives_the_text_before_the_cut_then_an_error() {
        let text = text();
        let data = xz(&text);
        for cut in [
            0,
            5,
            12,
            40,
            data.len() / 10,
            data.len() / 2,
            data.len() - 1,
        ] {
            let (out, err) = read_all(data.get(..cut).unwrap_or_default());
            assert!(err.is_some(), "cut at {cut} of {}", data.len());
            assert!(text.starts_with(&out), "cut at {cut}");
            if cut >= data.len() / 10 {
                assert!(!out.is_empty(), "cut at {cut}");
            }
        }
    }
}
