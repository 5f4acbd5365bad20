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
        }
    }
}

const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// A zstd *skippable frame* starts with `0x184D2A5?` (little-endian: `5?
/// 2A 4D 18`, any of sixteen values of the first byte). pzstd, which
/// writes the lichess database dumps, puts one before every data frame
/// (it holds the size of the frame that follows), so such a file starts
/// with one; the zstd decoder passes over them wherever they stand.
const ZSTD_SKIPPABLE_TAIL: [u8; 3] = [0x2a, 0x4d, 0x18];
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0];

/// Bytes of an input's start that say how it is compressed.
pub(super) const MAGIC_BYTES: usize = 6;

/// The compression an input's first bytes announce.
pub(super) fn compression_of(head: &[u8]) -> Compression {
    if head.starts_with(&ZSTD_MAGIC) || is_zstd_skippable(head) {
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
    } else {
        Compression::None
    }
}

/// Whether `head` starts with a zstd skippable frame's magic number.
fn is_zstd_skippable(head: &[u8]) -> bool {
    head.first().is_some_and(|b| b & 0xf0 == 0x50)
        && head.get(1..4) == Some(&ZSTD_SKIPPABLE_TAIL[..])
}
