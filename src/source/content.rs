//! What an input's (decompressed) bytes are, from their start: PGN text,
//! UTF-16 text (decoded to UTF-8 on the way, so that every later stage
//! sees bytes it can split), a xiangqi record file (XQF, CCBridge, CBF:
//! read by `crate::records`, not split), or a binary file that is not PGN
//! at all (never split into rows of binary text). The rules are in
//! `docs/reports.md`, "Inputs".

use std::io::Read;

use super::encoding::Encoding;
use super::record_format::RecordFormat;
use super::window::Shared;

/// Bytes of the start looked at.
pub(super) const CONTENT_BYTES: usize = 4096;

/// What an input's start says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Content {
    Text,
    Utf16(Encoding),
    /// A xiangqi record file, read whole by its own decoder.
    Record(RecordFormat),
    /// A binary file, and what kind.
    Binary(&'static str),
}

/// Known binary formats by their first bytes; the message names them.
const SIGNATURES: &[(&[u8], &str)] = &[
    (b"\x7fELF", "ELF executable, not PGN"),
    (b"\x89PNG\r\n\x1a\n", "PNG image, not PGN"),
    (b"%PDF-", "PDF document, not PGN"),
    (b"\xff\xd8\xff", "JPEG image, not PGN"),
    (b"GIF87a", "GIF image, not PGN"),
    (b"GIF89a", "GIF image, not PGN"),
    (
        b"7z\xbc\xaf\x27\x1c",
        "7z archive, not PGN (unpack it first)",
    ),
    (b"Rar!\x1a\x07", "RAR archive, not PGN (unpack it first)"),
    (
        b"PK\x03\x04",
        "zip archive inside a compressed stream, not PGN",
    ),
    (b"CCBridge", "CCBridge file of an unknown kind, not read"),
    (b"SQLite format 3\0", "SQLite database, not PGN"),
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "OLE2 (Microsoft Office) file, not PGN",
    ),
    (b"MZ", "Windows executable, not PGN"),
];

/// Decides what `head` (an input's first bytes) is. UTF-16 is recognised
/// by its byte order mark, or without one by ASCII text's pattern of a
/// zero byte in every other place; a known signature names the binary
/// format; any other start of which 5 % or more are NUL or other control
/// bytes is "binary data". A few NULs in a text (a damaged tag) leave it
/// text: its games are rows, the NULs written as U+FFFD.
pub(super) fn content_of(head: &[u8]) -> Content {
    if let Some(content) = record_of(head) {
        return content;
    }
    if head.starts_with(b"\xef\xbb\xbf") {
        return Content::Text;
    }
    if head.starts_with(b"\xff\xfe") {
        return Content::Utf16(Encoding::Utf16Le);
    }
    if head.starts_with(b"\xfe\xff") {
        return Content::Utf16(Encoding::Utf16Be);
    }
    // "MZ" and "XQ" are two letters a text could start with (and a zero
    // byte in every other place is UTF-16's pattern too): those count only
    // with a NUL byte after them, and after the test for UTF-16.
    let signature = |long: bool| {
        SIGNATURES.iter().find(|(magic, _)| {
            (magic.len() > 2) == long && head.starts_with(magic) && (long || head.contains(&0))
        })
    };
    if let Some((_, what)) = signature(true) {
        return Content::Binary(what);
    }
    if let Some(enc) = utf16_without_bom(head) {
        return Content::Utf16(enc);
    }
    if head.starts_with(b"XQ") && head.contains(&0) {
        return Content::Record(RecordFormat::Xqf);
    }
    if let Some((_, what)) = signature(false) {
        return Content::Binary(what);
    }
    // Tab, line ends, form feed and a DOS end-of-file mark are text.
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
        .count();
    if head.len() >= 8 && control * 20 >= head.len() {
        return Content::Binary("binary data, not PGN");
    }
    Content::Text
}

/// The record formats with a magic of their own (docs/xiangqi-formats.md
/// §7): CCBridge records and libraries, the packed library container
/// (recognised, and refused: its layout is not documented), and CBF XML.
fn record_of(head: &[u8]) -> Option<Content> {
    if head.starts_with(b"CCBridge Record\0") {
        return Some(Content::Record(RecordFormat::CcBridgeRecord));
    }
    if head.starts_with(b"CCBridgeLibrary\0") {
        return Some(Content::Record(RecordFormat::CcBridgeLibrary));
    }
    if head.starts_with(b"CCBridge\x15\0\0\0") {
        return Some(Content::Binary(
            "CCBridge packed library (zlib container), not documented: not read",
        ));
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let xml = text.starts_with(b"<?xml") || text.starts_with(b"<ChineseChessRecord");
    if xml && memchr::memmem::find(text, b"<ChineseChessRecord").is_some() {
        return Some(Content::Record(RecordFormat::Cbf));
    }
    None
}

/// UTF-16 without a byte order mark: of the first pairs of bytes, most
/// have a zero high byte (ASCII), on the same side.
fn utf16_without_bom(head: &[u8]) -> Option<Encoding> {
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut zero_even, mut zero_odd) = (0usize, 0usize);
    for pair in head.chunks_exact(2) {
        zero_even += usize::from(pair.first() == Some(&0));
        zero_odd += usize::from(pair.get(1) == Some(&0));
    }
    let most = |n: usize| n * 10 >= pairs * 7;
    let few = |n: usize| n * 10 <= pairs;
    if most(zero_odd) && few(zero_even) {
        Some(Encoding::Utf16Le)
    } else if most(zero_even) && few(zero_odd) {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

/// A reader over bytes in memory (a mapped file).
pub(super) struct SharedReader {
    pub data: Shared,
    pub at: usize,
}

impl Read for SharedReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = (*self.data).as_ref().get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.at += n;
        Ok(n)
    }
}

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

impl Read for Utf16Reader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let ready = self.output.get(self.out_at..).unwrap_or_default();
            if !ready.is_empty() {
                let n = ready.len().min(buf.len());
                if let (Some(dst), Some(src)) = (buf.get_mut(..n), ready.get(..n)) {
                    dst.copy_from_slice(src);
                }
                self.out_at += n;
                return Ok(n);
            }
            if self.done {
                return Ok(0);
            }
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
    }
}
