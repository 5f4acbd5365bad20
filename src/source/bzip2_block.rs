//! A bzip2 block found by its magic number and decoded on its own: how a
//! `.bz2` is read on past a block that fails.
//!
//! A bzip2 stream is a 4-byte header, then blocks, then an end-of-stream
//! marker and the stream's combined CRC-32; blocks and marker start with
//! 48-bit magic numbers (the digits of pi and of the square root of pi in
//! BCD) and are packed bit after bit, not aligned to bytes. Nothing gives a
//! block's length, but a block holds nothing that refers to another one:
//! `bzip2recover` finds the blocks of a damaged file by their magic
//! numbers and writes each as a stream of its own, and so does this. The
//! magic number of a block may by chance occur inside another block's data
//! (one chance in 2^48 at each bit); a block cut there fails to decode and
//! is counted as damaged, as it would be by `bzip2recover`.

/// The magic number a block starts with (BCD of pi).
const BLOCK_MAGIC: u64 = 0x3141_5926_5359;
/// The magic number of the end-of-stream marker (BCD of sqrt(pi)); the
/// stream's combined CRC-32 follows it.
const END_MAGIC: u64 = 0x1772_4538_5090;
const MAGIC_BITS: usize = 48;
/// The end-of-stream marker and the combined CRC-32 after it.
pub(super) const END_BITS: usize = MAGIC_BITS + 32;

/// The most text one block can decode to: 900,000 bytes before bzip2's
/// first run-length coding, which turns 5 bytes into at most 259.
pub(super) const MOST_BLOCK_TEXT: usize = 900_000 / 5 * 259;

/// The most compressed bytes one block can take: its 900,000 symbols of
/// at most 20 bits each, its tables, and room to spare. A "block" that
/// runs on longer is not one: its magic number was a chance match in
/// bytes that are not bzip2 data.
pub(super) const MOST_BLOCK_BYTES: usize = 2_500_000;

/// What starts at a bit of a bzip2 stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    Block,
    End,
}

/// The bytes that can be a marker's second: a marker starting at bit `s`
/// of a byte (0 the highest) has bits `8 - s .. 16 - s` of its magic
/// number in the next byte, whole. 16 values of 256 (8 shifts, two magic
/// numbers), so the search looks at the eight shifts of about one byte in
/// sixteen: a `.bz2` is searched from end to end when its blocks are
/// decoded on several threads (`bzip2_blocks.rs`).
const MAY_BE_SECOND: [bool; 256] = {
    let mut table = [false; 256];
    let mut shift = 0;
    while shift < 8 {
        table[((BLOCK_MAGIC >> (32 + shift)) & 0xFF) as usize] = true;
        table[((END_MAGIC >> (32 + shift)) & 0xFF) as usize] = true;
        shift += 1;
    }
    table
};

/// The first block or end-of-stream marker of `bytes` that starts at bit
/// `from` or later (bits counted from the first byte's highest bit), and
/// whose 48 bits all lie in `bytes`.
pub(super) fn next_marker(bytes: &[u8], from: usize) -> Option<(usize, Marker)> {
    let bits = bytes.len() * 8;
    let first = from / 8;
    let seconds = bytes.get(first + 1..)?;
    for (i, &second) in seconds.iter().enumerate() {
        if !MAY_BE_SECOND[usize::from(second)] {
            continue;
        }
        let at = first + i;
        if at * 8 + MAGIC_BITS > bits {
            return None;
        }
        let word = word_at(bytes, at);
        for shift in 0..8 {
            let bit = at * 8 + shift;
            if bit < from || bit + MAGIC_BITS > bits {
                continue;
            }
            match word >> (16 - shift) & ((1 << MAGIC_BITS) - 1) {
                BLOCK_MAGIC => return Some((bit, Marker::Block)),
                END_MAGIC => return Some((bit, Marker::End)),
                _ => {}
            }
        }
    }
    None
}

/// The marker that starts at bit `bit` of `bytes`, if one does (all its
/// 48 bits in `bytes`).
pub(super) fn marker_at(bytes: &[u8], bit: usize) -> Option<Marker> {
    if bit + MAGIC_BITS > bytes.len() * 8 {
        return None;
    }
    match bits_at(bytes, bit, MAGIC_BITS) {
        BLOCK_MAGIC => Some(Marker::Block),
        END_MAGIC => Some(Marker::End),
        _ => None,
    }
}

/// The CRC-32 stored after the marker at bit `bit`: a block's own, or
/// after the end-of-stream marker, the stream's combined one.
pub(super) fn stored_crc(bytes: &[u8], bit: usize) -> u32 {
    bits_at(bytes, bit + MAGIC_BITS, 32) as u32
}

/// The eight bytes of `bytes` from byte `at`, highest first, zeros past
/// its end.
fn word_at(bytes: &[u8], at: usize) -> u64 {
    (0..8).fold(0u64, |w, i| {
        w << 8 | u64::from(bytes.get(at + i).copied().unwrap_or(0))
    })
}

/// The `n` bits (at most 56) of `bytes` from bit `bit`, as a number.
fn bits_at(bytes: &[u8], bit: usize, n: usize) -> u64 {
    word_at(bytes, bit / 8) << (bit % 8) >> (64 - n)
}

/// Every marker of `bytes`, in order: the blocks and stream ends of a
/// sound stream (for tests).
#[cfg(test)]
pub(super) fn markers(bytes: &[u8]) -> Vec<(usize, Marker)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some((bit, marker)) = next_marker(bytes, from) {
        found.push((bit, marker));
        from = bit + 1;
    }
    found
}

/// Whether `bytes` end with an end-of-stream marker and its combined
/// CRC-32 (and up to seven bits of padding): what a decoder has just read
/// when it fails there, which is then the combined CRC failing, every
/// block of the stream having passed its own.
pub(super) fn ends_with_stream_end(bytes: &[u8]) -> bool {
    let bits = bytes.len() * 8;
    (0..8).any(|padding| {
        bits.checked_sub(END_BITS + padding)
            .is_some_and(|start| next_marker(bytes, start) == Some((start, Marker::End)))
    })
}

/// Writes bits `from..to` of `bytes` to `out`: from a byte boundary of
/// `out` (a block after a stream header), eight at a time, each byte of
/// `out` made of two of `bytes`; the rest bit by bit.
fn copy_bits(out: &mut BitWriter, bytes: &[u8], from: usize, to: usize) {
    let mut bit = from;
    if out.used == 0 && bit < to {
        let whole = (to - bit) / 8;
        let shift = bit % 8;
        let source = bytes.get(bit / 8..).unwrap_or_default();
        let next = source.iter().skip(1).chain(std::iter::once(&0));
        out.bytes.extend(
            source
                .iter()
                .zip(next)
                .take(whole)
                .map(|(&high, &low)| ((u16::from(high) << 8 | u16::from(low)) << shift >> 8) as u8),
        );
        bit += whole * 8;
    }
    while bit < to {
        let n = (to - bit).min(8);
        out.bits(bits_at(bytes, bit, n), n);
        bit += n;
    }
}

/// Bits written one field after another, from each byte's highest bit.
struct BitWriter {
    bytes: Vec<u8>,
    /// Bits used of the last byte (0: a new byte starts).
    used: usize,
}

impl BitWriter {
    fn new(capacity: usize) -> Self {
        BitWriter {
            bytes: Vec::with_capacity(capacity),
            used: 0,
        }
    }

    /// The low `n` bits of `value`, highest first.
    fn bits(&mut self, value: u64, n: usize) {
        if n == 8 && self.used == 0 {
            self.bytes.push(value as u8);
            return;
        }
        for i in (0..n).rev() {
            let bit = (value >> i & 1) as u8;
            if self.used == 0 {
                self.bytes.push(0);
            }
            if let Some(last) = self.bytes.last_mut() {
                *last |= bit << (7 - self.used);
            }
            self.used = (self.used + 1) % 8;
        }
    }
}

/// One call of `decoder` on `input`, its text appended to `text` with room
/// for `room` bytes: the input bytes used, the text bytes made, and the
/// decoder's status.
pub(super) fn decompress_into(
    decoder: &mut bzip2::Decompress,
    input: &[u8],
    text: &mut Vec<u8>,
    room: usize,
) -> (usize, usize, Result<bzip2::Status, bzip2::Error>) {
    let start = text.len();
    text.resize(start + room, 0);
    let (read_before, written_before) = (decoder.total_in(), decoder.total_out());
    let status = decoder.decompress(input, text.get_mut(start..).unwrap_or_default());
    // Both are at most the lengths of the slices given.
    let consumed = usize::try_from(decoder.total_in() - read_before).unwrap_or(0);
    let produced = usize::try_from(decoder.total_out() - written_before).unwrap_or(0);
    text.truncate(start + produced);
    (consumed, produced, status)
}

/// bzip2's CRC-32 of a block's text (CRC-32/BZIP2: the polynomial of
/// gzip's, bits taken highest first).
const BLOCK_CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_BZIP2);

/// What a block decoded on its own gave.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum BlockText {
    /// Its text, checked. `then_lost`: more bytes followed it before the
    /// next marker, which are not a block (one whose magic number is
    /// damaged): that block's text is lost.
    Sound { text: Vec<u8>, then_lost: bool },
    /// It fails its CRC-32 check, or cannot be decoded.
    Lost,
}

/// The block of `bytes` that starts at bit `from` (its magic number) and
/// runs up to bit `to` (where the next block or end-of-stream marker
/// starts), decoded as a stream of its own: a header for blocks of
/// `level` (the digit of its stream's header; `b'9'`, the largest blocks,
/// where it is not known), the block, and an end-of-stream marker whose
/// combined CRC-32 is, for one block, the block's own (the 32 bits after
/// its magic number); the decoder checks both.
///
/// Where the decoder fails after it has written some text, that text is
/// the block's own when it matches the CRC-32 in the block's header: the
/// block is sound, and what failed is what followed it (a next block
/// whose magic number is damaged, so that no marker starts it).
pub(super) fn decode_block(bytes: &[u8], from: usize, to: usize, level: u8) -> BlockText {
    let stored = stored_crc(bytes, from);
    let mut stream = BitWriter::new((to - from) / 8 + 16);
    stream.bits(u64::from(u32::from_be_bytes([b'B', b'Z', b'h', level])), 32);
    copy_bits(&mut stream, bytes, from, to);
    stream.bits(END_MAGIC, MAGIC_BITS);
    stream.bits(u64::from(stored), 32);

    let mut decoder = bzip2::Decompress::new(false);
    let mut input = stream.bytes.as_slice();
    let mut text = Vec::new();
    loop {
        let room = (MOST_BLOCK_TEXT + 1 - text.len()).min(1 << 20);
        if room == 0 {
            return BlockText::Lost;
        }
        let (consumed, produced, status) = decompress_into(&mut decoder, input, &mut text, room);
        input = input.get(consumed..).unwrap_or_default();
        match status {
            Ok(bzip2::Status::StreamEnd) => {
                return BlockText::Sound {
                    text,
                    then_lost: false,
                };
            }
            Ok(_) if consumed > 0 || produced > 0 => {}
            // Out of input before the end, or failed.
            Ok(_) | Err(_) => break,
        }
    }
    match !text.is_empty() && BLOCK_CRC.checksum(&text) == stored {
        true => BlockText::Sound {
            text,
            then_lost: true,
        },
        false => BlockText::Lost,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::Write;

    fn text() -> Vec<u8> {
        (0..60_000u32)
            .flat_map(|i| format!("{} ", i.wrapping_mul(2_654_435_761) % 1000).into_bytes())
            .collect()
    }

    /// `text` compressed by the bzip2 library at its fastest (100 kB
    /// blocks).
    pub(in crate::source) fn bz(text: &[u8]) -> Vec<u8> {
        let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        w.write_all(text).unwrap();
        w.finish().unwrap()
    }

    /// Every block of a stream (made by the bzip2 library at its fastest,
    /// 100 kB blocks), found by its magic number and decoded alone, gives
    /// the stream's text back, block after block; the marker search finds
    /// nothing else.
    #[test]
    fn blocks_decoded_alone_give_the_text_back() {
        let text = text();
        let data = bz(&text);
        let markers = markers(&data);
        assert!(markers.len() >= 4, "{markers:?}");
        let (last, blocks) = markers.split_last().unwrap();
        assert_eq!(last.1, Marker::End);
        assert!(blocks.iter().all(|&(_, m)| m == Marker::Block));
        // The first block follows the 4-byte header.
        assert_eq!(blocks[0].0, 32);
        let mut decoded = Vec::new();
        for (i, &(start, _)) in blocks.iter().enumerate() {
            let end = markers[i + 1].0;
            match decode_block(&data, start, end, data[3]) {
                BlockText::Sound {
                    text,
                    then_lost: false,
                } => decoded.extend(text),
                other => panic!("block {i}: {other:?}"),
            }
        }
        assert!(decoded == text);
        assert!(ends_with_stream_end(&data));
        assert!(!ends_with_stream_end(&data[..data.len() - 1]));
    }

    /// Random bytes with markers written in at chosen bits, some near the
    /// ends, some a byte or two apart: the search finds exactly those, in
    /// order, whatever bit it starts from, and none whose 48 bits do not
    /// all lie in the bytes.
    #[test]
    fn the_search_finds_the_markers_written_in_and_no_other() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..40 {
            let len = 64 + (random() % 3000) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| random() as u8).collect();
            let mut planted = Vec::new();
            let mut bit = (random() % 20) as usize;
            while bit + MAGIC_BITS <= len * 8 {
                let (magic, marker) = match random() % 2 {
                    0 => (BLOCK_MAGIC, Marker::Block),
                    _ => (END_MAGIC, Marker::End),
                };
                for i in 0..MAGIC_BITS {
                    let (byte, mask) = ((bit + i) / 8, 0x80u8 >> ((bit + i) % 8));
                    match magic >> (MAGIC_BITS - 1 - i) & 1 {
                        1 => bytes[byte] |= mask,
                        _ => bytes[byte] &= !mask,
                    }
                }
                planted.push((bit, marker));
                bit += MAGIC_BITS + (random() % 4000) as usize;
            }
            assert_eq!(markers(&bytes), planted, "round {round}");
            for &(at, marker) in &planted {
                assert_eq!(marker_at(&bytes, at), Some(marker));
                assert_eq!(next_marker(&bytes, at), Some((at, marker)));
                let after = planted.iter().find(|&&(b, _)| b > at).copied();
                assert_eq!(next_marker(&bytes, at + 1), after, "round {round}");
                // Cut inside the marker: not found.
                let cut = &bytes[..(at + MAGIC_BITS - 1) / 8];
                assert_eq!(next_marker(cut, at), None, "round {round}");
            }
        }
    }

    /// A block whose data has a flipped bit fails alone, and the blocks
    /// around it still decode.
    #[test]
    fn a_damaged_block_fails_alone() {
        let data = bz(&text());
        let starts: Vec<usize> = markers(&data).iter().map(|&(bit, _)| bit).collect();
        let mut damaged = data.clone();
        let middle = (starts[1] + starts[2]) / 16;
        damaged[middle] ^= 0x10;
        let sound = |b: BlockText| {
            matches!(
                b,
                BlockText::Sound {
                    then_lost: false,
                    ..
                }
            )
        };
        assert!(sound(decode_block(&damaged, starts[0], starts[1], b'9')));
        assert_eq!(
            decode_block(&damaged, starts[1], starts[2], b'9'),
            BlockText::Lost
        );
        assert!(sound(decode_block(&damaged, starts[2], starts[3], b'9')));
        // Block 3's magic number damaged: block 2, decoded up to block 4,
        // is sound (its text matches its CRC-32), and what follows it lost.
        let mut damaged = data.clone();
        damaged[starts[2] / 8 + 2] ^= 0x24;
        match decode_block(&damaged, starts[1], starts[3], b'9') {
            BlockText::Sound { text, then_lost } => {
                assert!(then_lost);
                let alone = decode_block(&data, starts[1], starts[2], b'9');
                assert_eq!(
                    alone,
                    BlockText::Sound {
                        text,
                        then_lost: false
                    }
                );
            }
            BlockText::Lost => panic!("block 2 lost"),
        }
    }
}
