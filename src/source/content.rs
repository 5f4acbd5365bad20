//! What an input's (decompressed) bytes are, from their start: PGN text,
//! UTF-16 text (decoded to UTF-8 on the way, so that every later stage
//! sees bytes it can split), a xiangqi record file (XQF, CCBridge, CBF,
//! a DhtmlXQ page: read by `crate::records`, not split), or something not
//! read at all (a binary file, never split into rows of binary text; a
//! format recognised and not read). Every input is classified here, once,
//! whether it was mapped or streamed. The rules are in `docs/reports.md`,
//! "Inputs".

use std::path::Path;

use super::compression::Compression;
use super::encoding::Encoding;
use super::record_format::{CBL_MAGIC, CBR_MAGIC, RecordFormat};

/// Bytes of the start looked at (a stream's start is read this far before
/// it is classified).
pub(super) const CONTENT_BYTES: usize = 4096;

/// What an input's start says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Content {
    Text,
    /// Text whose lines end in `\r\r\n`, read with each of those as one
    /// line end (`line_ends.rs`).
    TextCrCrLf,
    Utf16(Encoding),
    /// A xiangqi record file, read whole by its own decoder.
    Record(RecordFormat),
    /// Not read, of what kind and why (without the path).
    Refused(RefusalKind, String),
}

/// Why an input is not read: the two kinds `summary.json` and `--strict`
/// tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// Not a game collection at all: an executable, an image, binary data.
    NotPgn,
    /// A format pgnmill recognises and does not read: a packed CCBridge
    /// library, a zip archive read as a stream, a record file it cannot
    /// decode.
    Unsupported,
}

/// Decides what an input is from `start`, the bytes at hand when it is
/// opened (all of a mapped file; the first [`CONTENT_BYTES`] of a stream),
/// its name and how its bytes were stored. The first [`CONTENT_BYTES`]
/// decide ([`content_of`]); a DhtmlXQ block anywhere in `start` makes a
/// text a DhtmlXQ page, if its name allows one (a stream has no name to go
/// by: on stdin, `-`, a block in its first bytes does).
pub(super) fn classify(path: &Path, start: &[u8], compression: Compression) -> Content {
    if compression.is_archive() {
        let name = compression.name();
        return Content::Refused(
            RefusalKind::Unsupported,
            format!(
                "a {name} archive, which cannot be read from a stream: nothing of it was read (name the .{name} file itself, and its .pgn members are read)"
            ),
        );
    }
    let head = start
        .get(..start.len().min(CONTENT_BYTES))
        .unwrap_or_default();
    match content_of(head) {
        Content::Text
            if (path == Path::new("-") || RecordFormat::may_hold_dhtmlxq(path))
                && RecordFormat::holds_dhtmlxq(start) =>
        {
            Content::Record(RecordFormat::DhtmlXq)
        }
        Content::Text if super::line_ends::doubled_cr(head) => Content::TextCrCrLf,
        Content::Refused(kind, what) if compression == Compression::None => {
            Content::Refused(kind, misnamed(path, what))
        }
        other => other,
    }
}

/// A binary format's first bytes; the message names it.
struct Signature {
    magic: &'static [u8],
    kind: RefusalKind,
    what: &'static str,
}

const fn not_pgn(magic: &'static [u8], what: &'static str) -> Signature {
    Signature {
        magic,
        kind: RefusalKind::NotPgn,
        what,
    }
}

/// Known binary formats by their first bytes.
const SIGNATURES: &[Signature] = &[
    not_pgn(b"\x7fELF", "ELF executable, not PGN"),
    not_pgn(b"\x89PNG\r\n\x1a\n", "PNG image, not PGN"),
    not_pgn(b"%PDF-", "PDF document, not PGN"),
    not_pgn(b"\xff\xd8\xff", "JPEG image, not PGN"),
    not_pgn(b"GIF87a", "GIF image, not PGN"),
    not_pgn(b"GIF89a", "GIF image, not PGN"),
    not_pgn(
        b"7z\xbc\xaf\x27\x1c",
        "7z archive inside a compressed stream, not PGN",
    ),
    not_pgn(b"Rar!\x1a\x07", "RAR archive, not PGN (unpack it first)"),
    not_pgn(
        b"PK\x03\x04",
        "zip archive inside a compressed stream, not PGN",
    ),
    Signature {
        magic: b"CCBridge",
        kind: RefusalKind::Unsupported,
        what: "CCBridge file of an unknown kind, not read",
    },
    not_pgn(b"SQLite format 3\0", "SQLite database, not PGN"),
    not_pgn(
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "OLE2 (Microsoft Office) file, not PGN",
    ),
    not_pgn(b"MZ", "Windows executable, not PGN"),
];

/// Decides what `head` (an input's first bytes) is. UTF-16 is recognised
/// by its byte order mark, or without one by ASCII text's pattern of a
/// zero byte in every other place; a known signature names the binary
/// format; any other start of which 5 % or more are NUL or other control
/// bytes is "binary data". A few NULs in a text (a damaged tag) leave it
/// text: its games are rows, the NULs written as U+FFFD.
fn content_of(head: &[u8]) -> Content {
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
        SIGNATURES
            .iter()
            .find(|s| {
                (s.magic.len() > 2) == long
                    && head.starts_with(s.magic)
                    && (long || head.contains(&0))
            })
            .map(|s| Content::Refused(s.kind, s.what.to_string()))
    };
    if let Some(content) = signature(true) {
        return content;
    }
    if let Some(enc) = utf16_without_bom(head) {
        return Content::Utf16(enc);
    }
    if head.starts_with(b"XQ") && head.contains(&0) {
        return Content::Record(RecordFormat::Xqf);
    }
    if let Some(content) = signature(false) {
        return content;
    }
    // Tab, line ends, form feed and a DOS end-of-file mark are text.
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
        .count();
    if head.len() >= 8 && control * 20 >= head.len() {
        return Content::Refused(RefusalKind::NotPgn, "binary data, not PGN".into());
    }
    Content::Text
}

/// The record formats with a magic of their own (docs/xiangqi-formats.md
/// §7): CCBridge records and libraries, the packed library container
/// (recognised, and refused: its layout is not documented), and CBF XML.
fn record_of(head: &[u8]) -> Option<Content> {
    if head.starts_with(CBR_MAGIC) {
        return Some(Content::Record(RecordFormat::CcBridgeRecord));
    }
    if head.starts_with(CBL_MAGIC) {
        return Some(Content::Record(RecordFormat::CcBridgeLibrary));
    }
    if head.starts_with(b"CCBridge\x15\0\0\0") {
        return Some(Content::Refused(
            RefusalKind::Unsupported,
            "CCBridge packed library (a zlib container whose format is not publicly documented): not read; export its games from CCBridge as .cbr files or PGN".into(),
        ));
    }
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let xml = text.starts_with(b"<?xml") || text.starts_with(b"<ChineseChessRecord");
    if xml && memchr::memmem::find(text, b"<ChineseChessRecord").is_some() {
        return Some(Content::Record(RecordFormat::Cbf));
    }
    None
}

/// UTF-16 without a byte order mark: a zero byte in a quarter or more of
/// the pairs of bytes, on the same side, and seldom on the other (a
/// CJK character such as 一, U+4E00, has one);
/// and the bytes decode as UTF-16 of that order to text (no unpaired
/// surrogate, few control characters). A quarter, not most: in Chinese or
/// Russian text only the ASCII characters (tags, move numbers, spaces,
/// line ends) have a zero byte. Binary data with many zeros on one side
/// (an array of small numbers) decodes to control characters.
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
    let many = |n: usize| n * 4 >= pairs;
    let few = |n: usize| n * 10 <= pairs;
    let order = if many(zero_odd) && few(zero_even) {
        Encoding::Utf16Le
    } else if many(zero_even) && few(zero_odd) {
        Encoding::Utf16Be
    } else {
        return None;
    };
    let units = head.chunks_exact(2).map(|p| match (order, p) {
        (Encoding::Utf16Le, [lo, hi]) => u16::from_le_bytes([*lo, *hi]),
        (_, [hi, lo]) => u16::from_be_bytes([*hi, *lo]),
        _ => 0,
    });
    let (mut chars, mut bad) = (0usize, 0usize);
    for c in char::decode_utf16(units) {
        chars += 1;
        bad += usize::from(match c {
            Ok(c) => c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c' | '\x1a'),
            Err(_) => true,
        });
    }
    // A surrogate pair cut at the end of the head is one bad unit.
    (bad <= 1 || bad * 20 < chars).then_some(order)
}

/// Why an input whose bytes are not compressed is refused: `what` it is,
/// and, when its name says it is compressed, that its bytes are not (a
/// download saved under the wrong name, or damaged from its first byte).
fn misnamed(path: &Path, what: String) -> String {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let named = [
        (".zst", "zstd"),
        (".zstd", "zstd"),
        (".gz", "gzip"),
        (".bz2", "bzip2"),
        (".xz", "xz"),
    ]
    .into_iter()
    .find(|(ext, _)| name.ends_with(ext));
    match named {
        Some((ext, format)) => format!("{what} (named {ext}, but not {format} data)"),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Binary data with a zero byte on one side of most pairs (an array of
    /// small 16-bit numbers) has UTF-16's pattern of zeros, but decodes to
    /// control characters: not text.
    #[test]
    fn small_sixteen_bit_numbers_are_not_utf16() {
        let head: Vec<u8> = (0..2048u16).flat_map(|n| (n % 256).to_le_bytes()).collect();
        assert_eq!(utf16_without_bom(&head), None);
        assert!(matches!(
            content_of(&head),
            Content::Refused(RefusalKind::NotPgn, _)
        ));
    }
}
