//! Decoding an `.xz` input so that a damaged one gives every byte before
//! the damage, as `xz -dc` does.
//!
//! The decoder is liblzma, the library the `xz` tool is built on, run as
//! `xz -dc` runs it: one stream or several concatenated, with stream
//! padding between and after them. So a file cut short, a flipped byte, a
//! damaged index or bytes after the last stream give the text `xz -dc`
//! writes before it fails, byte for byte.
//!
//! The crate's own `Read` adapters drop the output of the call that meets
//! the error: a reader asking for a megabyte at a time (as
//! [`crate::source`] does) lost up to a megabyte of text before a damaged
//! byte, and all of it when the damage was in the index after the last
//! block or in bytes appended to the file. This reader hands on what the
//! decoder produced, and the error at the next read.

use std::io::{BufRead, Read};

use liblzma::stream::{Action, CONCATENATED, Status, Stream};

/// The text of an `.xz` input (one stream or several concatenated).
pub(super) struct XzText<R: BufRead> {
    inner: R,
    stream: Stream,
    /// The decoder has finished (its end, or an error already met).
    done: bool,
    /// The error met in a read that also produced text, returned by the
    /// next read.
    pending: Option<std::io::Error>,
}

impl<R: BufRead> XzText<R> {
    pub(super) fn new(inner: R) -> std::io::Result<XzText<R>> {
        // No memory limit, as `xz -dc` by default; CONCATENATED: several
        // streams and their padding, as `xz -dc` reads a file.
        let stream = Stream::new_stream_decoder(u64::MAX, CONCATENATED)?;
        Ok(XzText {
            inner,
            stream,
            done: false,
            pending: None,
        })
    }
}

impl<R: BufRead> Read for XzText<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if buf.is_empty() {
            return Ok(0);
        }
        while !self.done {
            let input = self.inner.fill_buf()?;
            let at_end = input.is_empty();
            let action = if at_end { Action::Finish } else { Action::Run };
            let (read_before, written_before) = (self.stream.total_in(), self.stream.total_out());
            let status = self.stream.process(input, buf, action);
            let consumed = self.stream.total_in() - read_before;
            let produced = self.stream.total_out() - written_before;
            // Both are at most the lengths of the slices given.
            self.inner
                .consume(usize::try_from(consumed).unwrap_or(usize::MAX));
            let produced = usize::try_from(produced).unwrap_or(0);
            let error = match status {
                Ok(Status::StreamEnd) => {
                    self.done = true;
                    None
                }
                // No input left, and the decoder can make nothing more of
                // what it has: the file ends inside a stream. (MemNeeded is
                // liblzma's "no progress possible", which only a cut stream
                // gives here: the reader always offers input and room.)
                Ok(Status::MemNeeded) => Some(cut_short()),
                Ok(_) if at_end && produced == 0 => Some(cut_short()),
                Ok(_) => None,
                Err(e) => Some(damaged(e)),
            };
            if let Some(error) = error {
                self.done = true;
                if produced == 0 {
                    return Err(error);
                }
                self.pending = Some(error);
            }
            if produced > 0 {
                return Ok(produced);
            }
        }
        Ok(0)
    }
}

fn cut_short() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::UnexpectedEof,
        "the xz data ends before its stream does",
    )
}

/// liblzma's error in the words a user reading a warning understands.
fn damaged(e: liblzma::stream::Error) -> std::io::Error {
    use liblzma::stream::Error;
    let what = match e {
        Error::Data => "the compressed data is corrupt".to_string(),
        Error::Format => "not xz data where a stream should start".to_string(),
        Error::Options => "the stream uses options this decoder does not have".to_string(),
        Error::UnsupportedCheck => "the stream's check type is not supported".to_string(),
        Error::Mem | Error::MemLimit => "the decoder ran out of memory".to_string(),
        other => other.to_string(),
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("damaged xz data: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xz(text: &[u8]) -> Vec<u8> {
        let mut w = liblzma::write::XzEncoder::new(Vec::new(), 6);
        std::io::Write::write_all(&mut w, text).expect("xz write");
        w.finish().expect("xz finish")
    }

    fn text() -> Vec<u8> {
        (0..40_000u32)
            .flat_map(|i| format!("{} ", i.wrapping_mul(2_654_435_761)).into_bytes())
            .collect()
    }

    fn read_all(data: &[u8]) -> (Vec<u8>, Option<std::io::Error>) {
        let mut rd = XzText::new(std::io::BufReader::with_capacity(4096, data)).expect("decoder");
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
    /// cut after its first tenth, the prefix is not empty (a reader that
    /// fills a whole megabyte before it returns gave nothing).
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
            let err = err.unwrap_or_else(|| panic!("cut at {cut} of {}", data.len()));
            assert!(err.to_string().contains("ends before"), "{err}");
            assert!(text.starts_with(&out), "cut at {cut}");
            if cut >= data.len() / 10 {
                assert!(!out.is_empty(), "cut at {cut}");
            }
        }
    }

    /// Damage after the last block (its index, the stream footer, bytes
    /// appended to the file) leaves the text whole: all of it comes out,
    /// then the error, in the words of the warning.
    #[test]
    fn damage_after_the_text_gives_the_whole_text_then_an_error() {
        let text = text();
        let data = xz(&text);
        let mut appended = data.clone();
        appended.extend_from_slice(b"not xz data, appended to the file\n");
        let mut footer = data.clone();
        if let Some(b) = footer
            .len()
            .checked_sub(8)
            .and_then(|at| footer.get_mut(at))
        {
            *b ^= 0x55;
        }
        for (what, damaged) in [("appended", appended), ("footer", footer)] {
            let (out, err) = read_all(&damaged);
            assert!(out == text, "{what}: {} of {} bytes", out.len(), text.len());
            let err = err.unwrap_or_else(|| panic!("{what}: no error"));
            assert!(
                err.to_string().starts_with("damaged xz data: "),
                "{what}: {err}"
            );
        }
    }
}
