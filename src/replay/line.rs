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
//! The replay pays one 16-bit store a ply (`Trails::push`);
//! the line string is hashed once, at the end of the game, and the end key
//! taken and the line kept only when `--duplicates` asks.

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
    let hex = key_hex_bytes(key);
    hex.iter().map(|&b| char::from(b)).collect()
}

/// The 32 lowercase hexadecimal digits of a key, without formatting
/// machinery: this runs for every row.
#[inline]
pub fn key_hex_bytes(key: &Key128) -> [u8; 32] {
    let mut out = [[0u8; 2]; 16];
    for (pair, &b) in out.iter_mut().zip(key) {
        *pair = HEX_PAIRS[usize::from(b)];
    }
    let mut flat = [0u8; 32];
    flat.copy_from_slice(out.as_flattened());
    flat
}

/// The two hexadecimal digits of each byte: one load a byte.
static HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        pairs[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    pairs
};

/// What replay found of a game's line: filled only when the whole main
/// line replayed (`status` ok), so that a game cut short is never grouped
/// on its partial line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// `line_key`: start position and main-line moves.
    pub key: Option<Key128>,
    /// Start position, final position (EPD) and ply count (with
    /// `--duplicates` only).
    pub end_key: Option<Key128>,
    /// The canonical line string itself (header and moves), kept when
    /// `CurationOptions::duplicates` asks: `--duplicates` needs it to
    /// find lines that are a prefix of another.
    pub bytes: Option<Vec<u8>>,
}

/// Plies kept in place: nearly every game's; a longer game's later moves
/// go to a vector. The opening trail keeps as many keys in place, so that
/// one test of the ply serves both ([`super::curation::Trails::push`]).
pub(crate) const INLINE_PLIES: usize = crate::openings::INLINE_KEYS;

/// Bytes kept in place for a header, before the moves: a standard start's
/// (60 and 77 bytes) and any other start's EPD (at most 92 bytes with the
/// variant's name) fit.
const HEADER_ROOM: usize = 128;

/// The standard header in place, if any: a game from the same start as
/// the one before it does not write it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InPlace {
    Other,
    Chess,
    Xiangqi,
}

/// The moves of one game's line, recorded during replay: one 16-bit store
/// a ply, at the ply's own place right after the header, so that the line
/// string is hashed where it lies, and the replay loop keeps no count of
/// its own for it. Each replay thread keeps one recorder for all its games
/// ([`LineRecorder::start`]), so a game neither allocates nor clears one.
#[derive(Debug)]
pub struct LineRecorder {
    /// The header (variant and start EPD with their `\n`s) ending at byte
    /// [`HEADER_ROOM`], then each move's two bytes, by ply (from 0): the
    /// line string, in one piece.
    pairs: [[u8; 2]; HEADER_ROOM / 2 + INLINE_PLIES],
    /// The header's length in `pairs` (0 when it is `long_header`).
    header_len: usize,
    /// A header longer than [`HEADER_ROOM`] (none of a legal start), else
    /// empty.
    long_header: Vec<u8>,
    in_place: InPlace,
    /// The moves past [`INLINE_PLIES`].
    more: Vec<u8>,
}

impl Default for LineRecorder {
    fn default() -> Self {
        LineRecorder {
            pairs: [[0; 2]; HEADER_ROOM / 2 + INLINE_PLIES],
            header_len: 0,
            long_header: Vec::new(),
            in_place: InPlace::Other,
            more: Vec::new(),
        }
    }
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
    /// Starts the line of a game of `variant` from the position whose FEN
    /// (any number of fields) is `start_fen`.
    pub fn start(&mut self, variant: &str, start_fen: &str) {
        let epd = epd_of(start_fen);
        let mut header = Vec::with_capacity(variant.len() + epd.len() + 2);
        header.extend_from_slice(variant.as_bytes());
        header.push(b'\n');
        header.extend_from_slice(epd.as_bytes());
        header.push(b'\n');
        self.start_with(&header, InPlace::Other);
    }

    /// Starts the line of a standard chess game from the standard start.
    pub fn start_chess(&mut self) {
        self.start_with(CHESS_START, InPlace::Chess);
    }

    /// Starts the line of a xiangqi game from the standard start.
    pub fn start_xiangqi(&mut self) {
        self.start_with(XIANGQI_START, InPlace::Xiangqi);
    }

    fn start_with(&mut self, header: &[u8], kind: InPlace) {
        self.more.clear();
        self.long_header.clear();
        if kind != InPlace::Other && kind == self.in_place {
            return;
        }
        self.in_place = kind;
        let room = self.pairs.as_flattened_mut();
        match HEADER_ROOM
            .checked_sub(header.len())
            .and_then(|from| room.get_mut(from..HEADER_ROOM))
        {
            Some(place) => {
                place.copy_from_slice(header);
                self.header_len = header.len();
            }
            None => {
                self.long_header.extend_from_slice(header);
                self.header_len = 0;
            }
        }
    }

    /// Records the move `word` of ply `ply` (from 0; plies are recorded in
    /// order), as the replay does through `Trails::push`.
    #[cfg(test)]
    fn push(&mut self, ply: u32, word: u16) {
        match (ply as usize) < INLINE_PLIES {
            true => self.store_inline(ply as usize, word),
            false => self.store_more(word),
        }
    }

    /// Records the move `word` of ply `at` (< [`INLINE_PLIES`]) in place.
    #[inline(always)]
    pub(crate) fn store_inline(&mut self, at: usize, word: u16) {
        if let Some(pair) = self.pairs.get_mut(HEADER_ROOM / 2 + at) {
            *pair = word.to_le_bytes();
        }
    }

    /// Records the move `word` of the next ply past [`INLINE_PLIES`].
    pub(crate) fn store_more(&mut self, word: u16) {
        self.more.extend_from_slice(&word.to_le_bytes());
    }

    /// The line's word for chess move `m`: the kernel's own 16-bit move
    /// word.
    #[inline(always)]
    pub fn chess_word(m: crate::chess::Move) -> u16 {
        m.to_bits()
    }

    /// The line's word for xiangqi move `m`: its two points.
    #[inline(always)]
    pub fn xiangqi_word(m: crate::xiangqi::types::Move) -> u16 {
        u16::from_le_bytes([m.from.index() as u8, m.to.index() as u8])
    }

    /// The canonical line string of the first `plies` plies recorded: where
    /// it lies, or (a line longer than [`INLINE_PLIES`], a header longer
    /// than [`HEADER_ROOM`]) put together in `spare`.
    fn line<'s>(&'s self, plies: u32, spare: &'s mut Vec<u8>) -> &'s [u8] {
        let flat = self.pairs.as_flattened();
        let end = HEADER_ROOM + 2 * (plies as usize).min(INLINE_PLIES);
        let moves = flat.get(HEADER_ROOM..end).unwrap_or_default();
        if self.long_header.is_empty() && self.more.is_empty() {
            return flat
                .get(HEADER_ROOM - self.header_len..end)
                .unwrap_or_default();
        }
        spare.clear();
        spare.extend_from_slice(self.header());
        spare.extend_from_slice(moves);
        spare.extend_from_slice(&self.more);
        spare
    }

    /// The header alone.
    fn header(&self) -> &[u8] {
        if self.long_header.is_empty() {
            let flat = self.pairs.as_flattened();
            flat.get(HEADER_ROOM - self.header_len..HEADER_ROOM)
                .unwrap_or_default()
        } else {
            &self.long_header
        }
    }

    /// The key of the finished line of `plies` plies; with `duplicates`,
    /// the end key too (given the final position's FEN) and the line
    /// string itself.
    pub fn finish(&self, final_fen: &str, plies: u32, duplicates: bool) -> LineFacts {
        let mut spare = Vec::new();
        let line = self.line(plies, &mut spare);
        let key = Some(xxh3_128(line));
        if !duplicates {
            return LineFacts {
                key,
                ..LineFacts::default()
            };
        }
        let header = self.header();
        let mut end = Vec::with_capacity(header.len() + 96);
        end.extend_from_slice(header);
        end.extend_from_slice(epd_of(final_fen).as_bytes());
        end.push(b'\n');
        end.extend_from_slice(itoa::Buffer::new().format(plies).as_bytes());
        LineFacts {
            key,
            end_key: Some(xxh3_128(&end)),
            bytes: Some(line.to_vec()),
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
        let mut start = LineRecorder::default();
        let mut spare = Vec::new();
        start.start(
            "chess",
            crate::chess::Position::startpos()
                .fen(crate::chess::EpMode::Legal)
                .as_str(),
        );
        assert_eq!(start.line(0, &mut spare), CHESS_START);
        start.start("xiangqi", &crate::xiangqi::Position::startpos().fen());
        assert_eq!(start.line(0, &mut spare), XIANGQI_START);
        assert_eq!(start.header(), XIANGQI_START);
        // A header too long to keep in place (no legal start's) is the
        // same string.
        let long = "x".repeat(200);
        start.start("chess", &long);
        let mut want = format!("chess\n{long}\n").into_bytes();
        assert_eq!(start.line(0, &mut spare), want);
        start.push(0, 0x0102);
        want.extend_from_slice(&[2, 1]);
        assert_eq!(start.line(1, &mut spare), want);
    }

    /// A line longer than the recorder keeps in place is the same string:
    /// every move's word in order after the header, whether the recorder
    /// held a longer game before or not.
    #[test]
    fn a_long_line_is_every_move_in_order() {
        let mut recorder = LineRecorder::default();
        let mut spare = Vec::new();
        for plies in [300u32, 3, 256, 257, 0] {
            recorder.start_chess();
            let words: Vec<u16> = (0..plies).map(|p| (p * 7 + 1) as u16).collect();
            for (ply, &w) in words.iter().enumerate() {
                recorder.push(ply as u32, w);
            }
            let line = recorder.line(plies, &mut spare).to_vec();
            let mut want = CHESS_START.to_vec();
            for w in &words {
                want.extend_from_slice(&w.to_le_bytes());
            }
            assert_eq!(line, want, "{plies} plies");
        }
    }

    #[test]
    fn the_header_ends_at_its_second_newline() {
        assert_eq!(header_len(CHESS_START), Some(CHESS_START.len()));
        assert_eq!(header_len(b"chess\nx"), None);
    }
}
