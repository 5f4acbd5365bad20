//! UTF-16 text decoded to UTF-8 as it is read, so that every later stage
//! sees bytes it can split (the splitter looks for ASCII syntax bytes,
//! which UTF-16 spreads over two).

use std::io::{BufRead, Read};

use super::encoding::Encoding;
use super::read_ahead::read_buffered;

/// Decodes a UTF-16 stream to UTF-8 (a byte order mark is dropped; a
/// lone surrogate becomes U+FFFD).
pub(super) struct Utf16Reader {
    inner: Box<dyn Read + Send>,
    decoder: encoding_rs::Decoder,
    input: Vec<u8>,
    /// Undecoded bytes are `input[from..to]`.
    from: usize,
    to: usize,
    output: Vec<u8>,
    out_at: usize,
    eof: bool,
    done: bool,
}

impl Utf16Reader {
    pub(super) fn new(inner: Box<dyn Read + Send>, enc: Encoding) -> Utf16Reader {
        let codec = match enc {
            Encoding::Utf16Be => encoding_rs::UTF_16BE,
            _ => encoding_rs::UTF_16LE,
        };
        Utf16Reader {
            inner,
            decoder: codec.new_decoder_with_bom_removal(),
            input: vec![0; 1 << 16],
            from: 0,
            to: 0,
            output: Vec::new(),
            out_at: 0,
            eof: false,
            done: false,
        }
    }
}

impl BufRead for Utf16Reader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.out_at >= self.output.len() && !self.done {
            if self.from == self.to && !self.eof {
                let n = self.inner.read(&mut self.input)?;
                self.from = 0;
                self.to = n;
                self.eof = n == 0;
            }
            let pending = self.input.get(self.from..self.to).unwrap_or_default();
            let room = self
                .decoder
                .max_utf8_buffer_length(pending.len())
                .unwrap_or(pending.len() * 3 + 16);
            self.output.clear();
            self.output.resize(room.max(16), 0);
            self.out_at = 0;
            let (_, read, written, _) =
                self.decoder
                    .decode_to_utf8(pending, &mut self.output, self.eof);
            self.output.truncate(written);
            self.from += read;
            if self.eof && self.from == self.to {
                self.done = true;
            }
        }
        Ok(self.output.get(self.out_at..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.out_at = self.out_at.saturating_add(n).min(self.output.len());
    }
}

impl Read for Utf16Reader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}
