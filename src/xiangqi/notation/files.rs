//! Files and directions as each player sees them.
//!
//! Chinese and WXF notation number the files 1..9 from the mover's own right
//! to left, and say "forward" for toward the opponent. Keeping that
//! conversion in one place means no other module ever mixes red's numbering
//! with black's (docs/xiangqi-notation.md §1: red number = 9 − file index, black = file index + 1).

use crate::xiangqi::types::{Color, FILES, Square};

/// The mover's own file number (1..=9) for an ICCS file index (0 = `a`).
pub fn own_file(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => FILES - file,
        Color::Black => file + 1,
    }
}

/// The ICCS file index (0..9) of the mover's own file number `n`, if `n` is
/// 1..=9.
pub fn iccs_file(color: Color, n: u8) -> Option<u8> {
    if !(1..=FILES).contains(&n) {
        return None;
    }
    Some(match color {
        Color::Red => FILES - n,
        Color::Black => n - 1,
    })
}

/// +1 if rising ranks lead toward `color`'s opponent (red), −1 otherwise.
pub fn forward_sign(color: Color) -> i8 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Ranks gained toward the opponent going from `from` to `to` (negative
/// when retreating).
pub fn ranks_forward(color: Color, from: Square, to: Square) -> i8 {
    (to.rank() as i8 - from.rank() as i8) * forward_sign(color)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_spec_examples() {
        // docs/xiangqi-notation.md §1: red ICCS file i = 1, a = 9; black a = 1, i = 9; kings on 5.
        assert_eq!(own_file(Color::Red, 8), 1);
        assert_eq!(own_file(Color::Red, 0), 9);
        assert_eq!(own_file(Color::Black, 0), 1);
        assert_eq!(own_file(Color::Black, 8), 9);
        assert_eq!(own_file(Color::Red, 4), 5);
        for f in 0..FILES {
            for c in [Color::Red, Color::Black] {
                assert_eq!(iccs_file(c, own_file(c, f)), Some(f));
            }
        }
        assert_eq!(iccs_file(Color::Red, 0), None);
        assert_eq!(iccs_file(Color::Black, 10), None);
    }
}
