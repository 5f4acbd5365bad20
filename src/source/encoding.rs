//! Which text encoding an input is in, and decoding games and tag values to
//! UTF-8.
//!
//! Real collections come in UTF-8 (with or without a byte order mark),
//! Latin-1 / windows-1252 (old European databases), GBK/GB18030 (mainland
//! xiangqi software) and Big5 (Taiwan and Hong Kong). The splitter works on
//! the raw bytes of all of them; decoding happens per game, in the workers.

use std::borrow::Cow;

/// The encoding of one input, decided once from a sample of its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 (a leading byte order mark is skipped by the splitter).
    Utf8,
    /// GBK / GB2312 / GB18030.
    Gb18030,
    /// Big5 (with the HKSCS extensions encoding_rs knows).
    Big5,
    /// ISO-8859-1 as browsers read it: windows-1252.
    Latin1,
    /// UTF-16, little-endian (with or without a byte order mark). The
    /// source decodes it to UTF-8 before anything else sees it: the text
    /// it hands on is UTF-8.
    Utf16Le,
    /// UTF-16, big-endian; decoded to UTF-8 by the source like `Utf16Le`.
    Utf16Be,
}

impl Encoding {
    /// True for the double-byte encodings whose trail bytes can equal ASCII
    /// syntax characters; the splitter must be told.
    pub fn is_dbcs(self) -> bool {
        matches!(self, Encoding::Gb18030 | Encoding::Big5)
    }

    /// The name used in messages and reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Gb18030 => "GB18030",
            Encoding::Big5 => "Big5",
            Encoding::Latin1 => "windows-1252",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
        }
    }

    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Gb18030 => encoding_rs::GB18030,
            Encoding::Big5 => encoding_rs::BIG5,
            Encoding::Latin1 => encoding_rs::WINDOWS_1252,
            // The text handed on is already UTF-8.
            Encoding::Utf16Le | Encoding::Utf16Be => encoding_rs::UTF_8,
        }
    }
}

/// How many bytes of an input's start are looked at to decide its encoding.
pub const SNIFF_BYTES: usize = 4 << 20;

/// Characters of xiangqi notation and tags, simplified and traditional; a
/// CJK decoding that yields them is almost certainly the right one.
const XIANGQI_CHARS: &str =
    "车車马馬炮砲包兵卒进進退平将將帅帥仕士象相一二三四五六七八九红紅黑先胜勝负負和局";

/// Decides the encoding of `sample` (the first bytes of an input): UTF-8 if
/// it is valid UTF-8 (a character cut at the end of the sample is allowed);
/// otherwise GBK or Big5 when one decodes with no error and yields xiangqi
/// characters; otherwise UTF-8 again when most of its non-ASCII characters
/// are UTF-8 ones (a UTF-8 collection with a game pasted in from a
/// windows-1252 one, which [`decode_game`] then reads as such); otherwise
/// GBK when its text looks like Chinese (two-byte characters in runs);
/// otherwise windows-1252.
pub fn sniff(sample: &[u8]) -> Encoding {
    // simdutf8's `compat` flavour reports where and how validation failed,
    // like std's, at several times its speed on a 1 MiB sample.
    match simdutf8::compat::from_utf8(sample) {
        Ok(_) => return Encoding::Utf8,
        Err(e) if e.error_len().is_none() && sample.len() - e.valid_up_to() < 4 => {
            return Encoding::Utf8;
        }
        Err(_) => {}
    }
    let score = |enc: Encoding| -> Option<usize> {
        let (text, had_errors) = enc.codec().decode_without_bom_handling(sample);
        // A sample cut in the middle of a character ends in one replacement.
        let errors = text.matches('\u{FFFD}').count();
        if had_errors && errors > 1 {
            return None;
        }
        Some(text.chars().filter(|c| XIANGQI_CHARS.contains(*c)).count())
    };
    let gb = score(Encoding::Gb18030);
    let big5 = score(Encoding::Big5);
    match (gb, big5) {
        (Some(g), Some(b)) if b > g && b > 0 => Encoding::Big5,
        (Some(g), _) if g > 0 => Encoding::Gb18030,
        (_, Some(b)) if b > 0 => Encoding::Big5,
        _ if mostly_utf8(sample) => Encoding::Utf8,
        (Some(_), _) if looks_like_gbk(sample) => Encoding::Gb18030,
        _ => Encoding::Latin1,
    }
}

/// Whether the non-ASCII characters of `sample` are mostly UTF-8 ones: at
/// least as many well-formed multi-byte sequences as ill-formed bytes.
/// windows-1252 text almost never forms a UTF-8 sequence (an accented
/// letter followed by a symbol of 0x80 to 0xBF), and GBK or Big5 text only
/// now and then (one character in ten or so).
fn mostly_utf8(sample: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    for chunk in sample.utf8_chunks() {
        good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        bad += chunk.invalid().len();
    }
    good > 0 && good >= bad
}

/// Whether `sample` reads as GBK Chinese without xiangqi characters (a
/// chess collection with players' names in Chinese): its two-byte
/// characters nearly all in the GB2312 block, and mostly in runs of two
/// or more. The second test tells it from windows-1252 text, whose
/// accented letters stand alone or two together (`ÇÃ` in `AÇÃO`, in the
/// block too), never four bytes in a row.
fn looks_like_gbk(sample: &[u8]) -> bool {
    let (mut pairs, mut core) = (0u64, 0u64);
    // Bytes of core pairs, those of them in runs of four bytes or more,
    // and the length of the run the last pair is in.
    let (mut high, mut in_long_runs, mut run) = (0u64, 0u64, 0u64);
    let mut i = 0;
    while let Some(&b) = sample.get(i) {
        if b < 0x81 {
            run = 0;
            i += 1;
            continue;
        }
        let t = sample.get(i + 1).copied().unwrap_or(0);
        pairs += 1;
        if (0xa1..=0xfe).contains(&b) && (0xa1..=0xfe).contains(&t) {
            core += 1;
            high += 2;
            run += 2;
            // A run counts whole once it reaches two pairs.
            in_long_runs += match run {
                4 => 4,
                r if r > 4 => 2,
                _ => 0,
            };
        } else {
            run = 0;
        }
        i += 2;
    }
    pairs > 0 && core * 10 >= pairs * 9 && in_long_runs * 2 >= high
}

/// One game's bytes as UTF-8: borrowed when they already are (UTF-8 and
/// ASCII-only Latin-1 games), decoded otherwise. A game in a "UTF-8" input
/// that is not valid UTF-8 (the sample did not show it) is read as
/// windows-1252, which never fails. Tokenize the result's bytes.
pub fn decode_game(bytes: &[u8], enc: Encoding) -> Cow<'_, str> {
    // Every game's bytes are validated: simdutf8 does it several times
    // faster than `std::str::from_utf8`, with the same answer.
    if let Ok(s) = simdutf8::basic::from_utf8(bytes)
        && (matches!(enc, Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be)
            || bytes.is_ascii())
    {
        return Cow::Borrowed(s);
    }
    let codec = match enc {
        Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be => encoding_rs::WINDOWS_1252,
        other => other.codec(),
    };
    codec.decode_without_bom_handling(bytes).0
}

/// A tag value (escapes already resolved, see [`crate::pgn::Tag::value`]) as
/// UTF-8, for writing to the CSV. Same rules as [`decode_game`].
pub fn decode_tag_value(raw: &[u8], enc: Encoding) -> Cow<'_, str> {
    decode_game(raw, enc)
}
