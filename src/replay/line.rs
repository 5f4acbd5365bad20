//! A game's line identity: `line_key`, the 128-bit key of its start position
//! and main-line moves, and `end_key`, the key of its start, final position
//! and ply count (what `--duplicates` calls a transposition).
//!
//! Both are XXH3-128 (seed 0, the published xxHash definition; the `xxhash`
//! Python package computes the same digests) of a canonical byte string
//! (docs/reports.md, "line_key"):
//!
//! ```text
//! line:  variant "\n" start-EPD "\n" move move move ...
//! end:   variant "\n" start-EPD "\n" final-EPD "\n" plies
//! ```
//!
//! `variant` is `chess`, `chess960` or `xiangqi`, so that a Chess960 game and
//! a chess game are never the same line; an EPD is a FEN's first four fields
//! (chess: en-passant square only when a capture is legal, castling in X-FEN
//! as python-chess's `Board.epd()`; xiangqi: as pyffish writes it, `w - -`);
//! `plies` is decimal. A move is two bytes: for chess the little-endian
//! 16-bit word `from | to << 6 | kind << 12` (squares a1 = 0 … h8 = 63;
//! kind 0 a normal move, 1 en passant, 2 castling with `to` the rook's
//! square, 3 a null move with `from = to = a1`, 4-7 a promotion to knight,
//! bishop, rook, queen), for xiangqi the bytes `from`, `to` (points a0 = 0 …
//! i9 = 89, file + 9 × rank in ICCS). The header ends in its second `\n`
//! and every move has two bytes, so two different games never give the same
//! string, and a key names one line but for a 2⁻¹²⁸ chance.
//!
//! The replay pays two byte stores a ply ([`LineRecorder::push_chess`]);
//! the hash is taken once, at the end of the game.

use std::fmt::Write as _;
use twox_hash::XxHash3_128;

/// The 16 bytes of a key: the XXH3-128 digest in its canonical (big-endian)
/// form, as `xxhash.xxh3_128_digest` gives it.
pub type Key128 = [u8; 16];

/// The XXH3-128 digest of `bytes`, canonical.
pub fn xxh3_128(bytes: &[u8]) -> Key128 {
    XxHash3_128::oneshot(bytes).to_be_bytes()
}

/// A key as 32 lowercase hexadecimal characters (the CSV form).
pub fn key_hex(key: &Key128) -> String {
    let mut out = String::with_capacity(32);
    for b in key {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// What replay found of a game's line: filled only when the whole main
/// line replayed (`status` ok), so that a game cut short is never grouped
/// on its partial line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// `line_key`: start position and main-line moves.
    pub key: Option<Key128>,
    /// Start position, final position (EPD) and ply count.
    pub end_key: Option<Key128>,
    /// The canonical line string itself (header and moves), kept when
    /// `CurationOptions::keep_line_bytes` asks: `--duplicates` needs it to
    /// find lines that are a prefix of another.
    pub bytes: Option<Vec<u8>>,
}

/// The canonical line string of one game, built during replay.
#[derive(Debug)]
pub struct LineRecorder {
    bytes: Vec<u8>,
    /// Length of the header (variant and start EPD with their `\n`s).
    header: usize,
}

/// The header of every chess game from the standard start: built without
/// formatting a FEN.
const CHESS_START: &[u8] = b"chess\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n";

/// The same for xiangqi.
const XIANGQI_START: &[u8] =
    b"xiangqi\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -\n";

/// The first four fields of a FEN (its EPD), or all of it if it has fewer.
pub fn epd_of(fen: &str) -> &str {
    match fen.match_indices(' ').nth(3) {
        Some((at, _)) => &fen[..at],
        None => fen,
    }
}

impl LineRecorder {
    /// Room for the header and a long game's moves without a reallocation.
    const CAPACITY: usize = 96 + 2 * 160;

    /// A line of `variant` from the position whose FEN (any number of
    /// fields) is `start_fen`.
    pub fn new(variant: &str, start_fen: &str) -> Self {
        let mut bytes = Vec::with_capacity(Self::CAPACITY);
        bytes.extend_from_slice(variant.as_bytes());
        bytes.push(b'\n');
        bytes.extend_from_slice(epd_of(start_fen).as_bytes());
        bytes.push(b'\n');
        let header = bytes.len();
        LineRecorder { bytes, header }
    }

    /// A standard chess game from the standard start.
    pub fn chess_start() -> Self {
        Self::from_header(CHESS_START)
    }

    /// A xiangqi game from the standard start.
    pub fn xiangqi_start() -> Self {
        Self::from_header(XIANGQI_START)
    }

    fn from_header(header: &[u8]) -> Self {
        let mut bytes = Vec::with_capacity(Self::CAPACITY);
        bytes.extend_from_slice(header);
        LineRecorder {
            header: bytes.len(),
            bytes,
        }
    }

    /// Appends a chess move: the kernel's own 16-bit move word is the
    /// encoding, so this is one store.
    #[inline(always)]
    pub fn push_chess(&mut self, m: crate::chess::Move) {
        self.bytes.extend_from_slice(&m.to_bits().to_le_bytes());
    }

    /// Appends a xiangqi move.
    #[inline(always)]
    pub fn push_xiangqi(&mut self, m: crate::xiangqi::types::Move) {
        self.bytes
            .extend_from_slice(&[m.from.index() as u8, m.to.index() as u8]);
    }

    /// The keys of the finished line, given the final position's FEN and the
    /// plies played; the line string too when `keep_bytes`.
    pub fn finish(self, final_fen: &str, plies: u32, keep_bytes: bool) -> LineFacts {
        let key = xxh3_128(&self.bytes);
        let mut end = Vec::with_capacity(self.header + 96);
        end.extend_from_slice(&self.bytes[..self.header]);
        end.extend_from_slice(epd_of(final_fen).as_bytes());
        end.push(b'\n');
        end.extend_from_slice(itoa::Buffer::new().format(plies).as_bytes());
        LineFacts {
            key: Some(key),
            end_key: Some(xxh3_128(&end)),
            bytes: keep_bytes.then_some(self.bytes),
        }
    }
}

/// The length of the header of a canonical line string (up to and with its
/// second `\n`), or `None` if it has none.
pub fn header_len(line: &[u8]) -> Option<usize> {
    let first = memchr::memchr(b'\n', line)?;
    let second = memchr::memchr(b'\n', line.get(first + 1..)?)?;
    Some(first + 1 + second + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest of a published test input, from the `xxhash` Python
    /// package (`xxhash.xxh3_128_hexdigest(b"abc")`, xxHash 0.8).
    #[test]
    fn the_hash_is_xxh3_128_in_its_canonical_form() {
        assert_eq!(
            key_hex(&xxh3_128(b"abc")),
            "06b05ab6733a618578af5f94892f3950"
        );
    }

    #[test]
    fn the_epd_is_the_first_four_fields() {
        assert_eq!(
            epd_of("8/8/8/8/8/8/8/K6k w - - 0 1"),
            "8/8/8/8/8/8/8/K6k w - -"
        );
        assert_eq!(epd_of("8/8 w -"), "8/8 w -");
        let start = LineRecorder::new(
            "chess",
            crate::chess::Position::startpos()
                .fen(crate::chess::EpMode::Legal)
                .as_str(),
        );
        assert_eq!(start.bytes, CHESS_START);
        let start = LineRecorder::new("xiangqi", &crate::xiangqi::Position::startpos().fen());
        assert_eq!(start.bytes, XIANGQI_START);
    }

    #[test]
    fn the_header_ends_at_its_second_newline() {
        assert_eq!(header_len(CHESS_START), Some(CHESS_START.len()));
        assert_eq!(header_len(b"chess\nx"), None);
    }
}
