//! A 64-bit key of every prefix of a line, one multiply a ply: the
//! candidate key of prefix detection. Two different prefixes share one
//! with a chance of about 2⁻⁶⁴; a shared key is only a candidate, which
//! the 128-bit `line_key` of the prefix then confirms.

use crate::replay::line::header_len;
use twox_hash::XxHash3_64;

/// The chain key of the empty line from a header (variant and start).
fn start(header: &[u8]) -> u64 {
    XxHash3_64::oneshot(header)
}

/// One ply more: mixes a move's two bytes into the key (a multiply and a
/// shift, as in splitmix64's finalizer).
#[inline(always)]
fn step(key: u64, mv: [u8; 2]) -> u64 {
    let k = (key ^ u64::from(u16::from_le_bytes(mv))).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    k ^ k >> 29
}

/// The chain keys of a canonical line string (`crate::replay::line`):
/// element `i` is the key of its first `i` plies, the last that of the
/// whole line. Empty when the string has no header.
pub fn chain_keys(line: &[u8]) -> impl Iterator<Item = u64> + '_ {
    let header = header_len(line);
    let (mut key, moves) = match header {
        Some(h) => (start(&line[..h]), &line[h..]),
        None => (0, &line[line.len()..]),
    };
    let first = header.map(|_| key);
    first
        .into_iter()
        .chain(moves.chunks_exact(2).map(move |mv| {
            key = step(key, [mv[0], mv[1]]);
            key
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_has_the_key_the_longer_line_has_at_its_length() {
        let long = b"chess\nx w - -\n\x0c\x1c\x34\x24\x06\x15";
        let short = &long[..long.len() - 2];
        let keys: Vec<u64> = chain_keys(long).collect();
        let prefix: Vec<u64> = chain_keys(short).collect();
        assert_eq!(keys.len(), 4);
        assert_eq!(prefix[..], keys[..3]);
        // Another start, the same moves: other keys.
        let other: Vec<u64> = chain_keys(b"chess\ny w - -\n\x0c\x1c").collect();
        assert_ne!(other[1], keys[1]);
        assert_eq!(chain_keys(b"no header").count(), 0);
    }
}
