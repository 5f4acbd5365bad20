//! Decoding an `.xz` input so that a damaged one gives every byte before
//! the damage, as `xz -dc` does.
//!
//! The decoder is liblzma, the library the `xz` tool is built on, run as
//! `xz -dc` runs it: one stream or several concatenated, with stream
//! padding between and after them. So a file cut short, a flipped byte, a
//! damaged index or bytes after the last stream give the text `xz -dc`
//! writes before it fails, byte for byte.
//!
//! Driven by [`super::decoding::Decoding`], which hands on all the text
//! the decoder made before its error: with the crate's own `Read`
//! adapters, damage in the index after the last block, or bytes appended
//! to the file, lost up to a megabyte of text before it.

use liblzma::stream::{Action, CONCATENATED, Status, Stream};

use super::decoding::{Decompressor, Step, Stepped};

/// An `.xz` input's decoder (one stream or several concatenated), for
/// [`super::decoding::Decoding`].
pub(super) struct Xz {
    stream: Stream,
}

impl Xz {
    pub(super) fn new() -> std::io::Result<Xz> {
        // No memory limit, as `xz -dc` by default; CONCATENATED: several
        // streams and their padding, as `xz -dc` reads a file.
        let stream = Stream::new_stream_decoder(u64::MAX, CONCATENATED)?;
        Ok(Xz { stream })
    }
}

impl Decompressor for Xz {
    fn step(&mut self, input: &[u8], output: &mut [u8], at_end: bool) -> Step {
        let action = if at_end { Action::Finish } else { Action::Run };
        let (read_before, written_before) = (self.stream.total_in(), self.stream.total_out());
        let status = self.stream.process(input, output, action);
        // Both are at most the lengths of the slices given.
        let consumed = usize::try_from(self.stream.total_in() - read_before).unwrap_or(0);
        let produced = usize::try_from(self.stream.total_out() - written_before).unwrap_or(0);
        let outcome = match status {
            Ok(Status::StreamEnd) => Ok(Stepped::End),
            // liblzma's "no progress possible", which only a cut stream
            // gives here: the reader always offers input and room.
            Ok(Status::MemNeeded) => Err(cut_short()),
            Ok(_) => Ok(Stepped::More),
            Err(e) => Err(damaged(e)),
        };
        Step {
            consumed,
            produced,
            outcome,
        }
    }

    fn cut_short(&self) -> std::io::Error {
        cut_short()
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
    use crate::source::decoding::Decoding;
    use std::io::Read;

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
        let mut rd = Decoding::new(
            std::io::BufReader::with_capacity(4096, data),
            Xz::new().expect("decoder"),
        );
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
