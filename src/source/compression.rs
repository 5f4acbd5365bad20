//! How an input's bytes are stored, told by their first bytes (never by
//! the file's name: a `.pgn` that is really gzip is read, a `.zst` that is
//! really text is text).

/// How an input's bytes were stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
    Xz,
    /// A zip archive: its `.pgn` members are inputs of their own
    /// ([`super::expand_inputs`]); read whole, as a stream, it is refused.
    Zip,
    /// A 7z archive: like a zip archive, its `.pgn` members are inputs of
    /// their own, and read as a stream it is refused.
    SevenZip,
}

impl Compression {
    /// The name `summary.json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zip => "zip",
            Compression::SevenZip => "7z",
        }
    }

    /// True for a compressed stream: zstd, gzip, bzip2 or xz. Such a
    /// stream that decodes to no text is not what a compressor makes of a
    /// file, and is said (`TextWindow::no_text_warning`). An archive's
    /// member is not one: a member of no bytes is an empty file, as the
    /// archive's index says, and reads as an empty `.pgn` does.
    pub fn is_stream(self) -> bool {
        matches!(
            self,
            Compression::Zstd | Compression::Gzip | Compression::Bzip2 | Compression::Xz
        )
    }

    /// True for an archive, whose members are the inputs: zip and 7z.
    pub(super) fn is_archive(self) -> bool {
        matches!(self, Compression::Zip | Compression::SevenZip)
    }
}

/// The first four bytes of a zstd data frame.
pub(super) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// A zstd *skippable frame* starts with `0x184D2A5?` (little-endian: `5?
/// 2A 4D 18`, any of sixteen values of the first byte). pzstd, which
/// writes the lichess database dumps, puts one before every data frame
/// (it holds the size of the frame that follows), so such a file starts
/// with one; the zstd decoder passes over them wherever they stand.
const ZSTD_SKIPPABLE_TAIL: [u8; 3] = [0x2a, 0x4d, 0x18];
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// The first six bytes of an xz stream (its header's magic).
pub(super) const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0];
const SEVEN_ZIP_MAGIC: [u8; 6] = [b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c];

/// Bytes of an input's start that say how it is compressed.
pub(super) const MAGIC_BYTES: usize = 6;

/// The compression an input's first bytes announce. A `head` shorter than
/// [`MAGIC_BYTES`] is the whole input; one that ends inside a zstd, xz or
/// bzip2 magic number is that compression cut short ([`cut_in_magic`]).
pub(super) fn compression_of(head: &[u8]) -> Compression {
    if let Some(cut) = cut_in_magic(head) {
        return cut;
    }
    if head.starts_with(&ZSTD_MAGIC) || starts_with_skippable(head) {
        Compression::Zstd
    } else if head.starts_with(&GZIP_MAGIC) {
        Compression::Gzip
    } else if head.starts_with(&XZ_MAGIC) {
        Compression::Xz
    } else if head.len() >= 4
        && head.starts_with(b"BZh")
        && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b))
    {
        Compression::Bzip2
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        Compression::Zip
    } else if head.starts_with(&SEVEN_ZIP_MAGIC) {
        Compression::SevenZip
    } else {
        Compression::None
    }
}

/// Whether `head` starts with a zstd skippable frame's magic number (as
/// a pzstd-made file or stream does).
pub(super) fn starts_with_skippable(head: &[u8]) -> bool {
    head.first().is_some_and(|b| b & 0xf0 == 0x50)
        && head.get(1..4) == Some(&ZSTD_SKIPPABLE_TAIL[..])
}

/// The compression whose magic number the whole input `head` is the start
/// of, without the rest: a download that broke off within its first
/// bytes, for the decoder to report as cut short (as `zstd -d`, `xz -d`
/// and `bzip2 -d` do) rather than a game of stray text. At least two
/// bytes of zstd's or xz's magic number, whose second byte no text has,
/// and bzip2's `BZh` whole: a shorter start could be text.
fn cut_in_magic(head: &[u8]) -> Option<Compression> {
    let cut = |magic: &[u8], least: usize| {
        (least..magic.len()).contains(&head.len()) && magic.starts_with(head)
    };
    if cut(&ZSTD_MAGIC, 2) {
        Some(Compression::Zstd)
    } else if cut(&XZ_MAGIC, 2) {
        Some(Compression::Xz)
    } else if cut(b"BZh9", 3) {
        Some(Compression::Bzip2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_that_ends_inside_a_magic_number_is_that_compression() {
        assert_eq!(compression_of(&ZSTD_MAGIC[..2]), Compression::Zstd);
        assert_eq!(compression_of(&ZSTD_MAGIC[..3]), Compression::Zstd);
        for n in 2..XZ_MAGIC.len() {
            assert_eq!(compression_of(&XZ_MAGIC[..n]), Compression::Xz, "{n}");
        }
        assert_eq!(compression_of(b"BZh"), Compression::Bzip2);
        // Too short to tell from text, or not a magic number's start.
        for text in [&b"("[..], b"BZ", b"B", b"1.", b"BZh ", b"(\xb5x"] {
            assert_eq!(compression_of(text), Compression::None, "{text:?}");
        }
        // Whole magic numbers, and more, as before.
        assert_eq!(compression_of(&ZSTD_MAGIC), Compression::Zstd);
        assert_eq!(compression_of(b"BZh91AY"), Compression::Bzip2);
        assert_eq!(compression_of(&XZ_MAGIC), Compression::Xz);
    }
}
