//! Attack tables: where a piece on a square attacks, given the occupied squares.
//!
//! Everything is computed at compile time (`const fn`), so there is no start-up
//! cost and no lazy initialisation on the hot path. Sliding pieces use ray
//! tables: the ray from the square in each direction is cut at the first
//! blocker, found with one bit scan (trailing zeros for rays that go up the
//! board, leading zeros for rays that go down). That is four scans for a rook
//! and four for a bishop; fast enough for perft in the tens of millions of
//! nodes per second, and with none of the start-up search or large tables
//! that magic bitboards need.

use super::bitboard::Bitboard;
use super::square::Square;
use super::types::{Color, Role};

/// (file step, rank step) of the eight directions; the first four go up the
/// board (increasing square index), the last four go down.
const DIRS: [(i8, i8); 8] = [
    (0, 1),   // north  +8
    (1, 0),   // east   +1
    (1, 1),   // north-east +9
    (-1, 1),  // north-west +7
    (0, -1),  // south  -8
    (-1, 0),  // west   -1
    (-1, -1), // south-west -9
    (1, -1),  // south-east -7
];

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        let mut bb = 0u64;
        while i < deltas.len() {
            let nf = f + deltas[i].0;
            let nr = r + deltas[i].1;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bb |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        out[sq] = bb;
        sq += 1;
    }
    out
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut f = (sq % 8) as i8 + DIRS[d].0;
            let mut r = (sq / 8) as i8 + DIRS[d].1;
            let mut bb = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1u64 << (r * 8 + f);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            out[d][sq] = bb;
            sq += 1;
        }
        d += 1;
    }
    out
}

static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = step_table(&[
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
]);
static PAWN: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];
static RAYS: [[u64; 64]; 8] = ray_table();

/// Rook and bishop attacks on an empty board, the union of four rays each:
/// a slider off these squares cannot attack, whatever stands between.
static EMPTY_BOARD_SLIDES: [[u64; 64]; 2] = {
    let rays = ray_table();
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = rays[0][sq] | rays[1][sq] | rays[4][sq] | rays[5][sq];
        t[1][sq] = rays[2][sq] | rays[3][sq] | rays[6][sq] | rays[7][sq];
        sq += 1;
    }
    t
};

/// Squares a rook on `sq` would attack on an empty board.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(EMPTY_BOARD_SLIDES[0][sq.index() & 63])
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(EMPTY_BOARD_SLIDES[1][sq.index() & 63])
}

const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let rays = ray_table();
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let opposite = (d + 4) % 8;
            let full = rays[d][a] | rays[opposite][a] | (1u64 << a);
            let mut f = (a % 8) as i8 + DIRS[d].0;
            let mut r = (a / 8) as i8 + DIRS[d].1;
            let mut acc = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1u64 << b;
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The ray from `sq` in an upward direction `dir`, cut after its first
/// blocker. Without a blocker the scan lands on h8 (bit 63 is forced),
/// whose upward rays are empty: no branch on whether a blocker exists,
/// which no predictor can guess.
#[inline(always)]
fn ray_up(dir: usize, sq: Square, occ: u64) -> u64 {
    let ray = RAYS[dir][sq.index() & 63];
    let blocker = ((ray & occ) | 1 << 63).trailing_zeros() as usize;
    ray ^ RAYS[dir][blocker & 63]
}

/// [`ray_up`] for a downward direction: the scan without a blocker lands
/// on a1, whose downward rays are empty.
#[inline(always)]
fn ray_down(dir: usize, sq: Square, occ: u64) -> u64 {
    let ray = RAYS[dir][sq.index() & 63];
    let blocker = 63 - ((ray & occ) | 1).leading_zeros() as usize;
    ray ^ RAYS[dir][blocker & 63]
}

/// Rook attacks from `sq` with `occupied` blocking (blockers are included).
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let o = occupied.0;
    Bitboard(ray_up(0, sq, o) | ray_up(1, sq, o) | ray_down(4, sq, o) | ray_down(5, sq, o))
}

/// Bishop attacks from `sq` with `occupied` blocking (blockers are included).
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let o = occupied.0;
    Bitboard(ray_up(2, sq, o) | ray_up(3, sq, o) | ray_down(6, sq, o) | ray_down(7, sq, o))
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Attacks of a piece of `role` and `color` on `sq`.
#[inline(always)]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// For each role ([`Role::index`] order), masks that keep the attack sets
/// [`piece_attacks`] combines: a knight's, a king's, along ranks and
/// files, along diagonals.
const KEEP: [[u64; 4]; 6] = {
    const ALL: u64 = u64::MAX;
    [
        [0, 0, 0, 0],
        [ALL, 0, 0, 0],
        [0, 0, 0, ALL],
        [0, 0, ALL, 0],
        [0, 0, ALL, ALL],
        [0, ALL, 0, 0],
    ]
};

/// The squares a piece of `role` (not a pawn: empty) on `sq` attacks,
/// computed with no branch on the role: all four kinds of attack set are
/// computed and the role's kept. SAN resolution asks this of the piece
/// that moves, whose kind changes from ply to ply at random: a `match` on
/// it mispredicted, which cost more than the rays it skipped.
#[inline(always)]
pub fn piece_attacks(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    let [knight, king, straight, diagonal] = KEEP[role.index()];
    Bitboard(
        (knight_attacks(sq).0 & knight)
            | (king_attacks(sq).0 & king)
            | (rook_attacks(sq, occupied).0 & straight)
            | (bishop_attacks(sq, occupied).0 & diagonal),
    )
}

/// Of `pieces`, pieces of `role` (not a pawn: empty), those that attack
/// `to`: what SAN resolution asks of the pieces that may have moved. A
/// side nearly always has at most two pieces of a role, and for each of
/// those a test of the line it shares with `to` ([`slider_reaches`]: two
/// loads) costs less than the eight rays of [`piece_attacks`]; the test
/// of both the lowest and the highest square, one of them twice when
/// there is one piece, needs no branch on their number. Three or more
/// (promoted pieces) take the attack set.
#[inline(always)]
pub fn pieces_reaching(role: Role, to: Square, pieces: Bitboard, occupied: Bitboard) -> Bitboard {
    let without_lowest = pieces.0 & pieces.0.wrapping_sub(1);
    if without_lowest & without_lowest.wrapping_sub(1) != 0 {
        return piece_attacks(role, to, occupied) & pieces;
    }
    let [knight, king, _, _] = KEEP[role.index()];
    let steppers = (knight_attacks(to).0 & knight) | (king_attacks(to).0 & king);
    // An empty set scans to h8 and a1: whatever they answer, `pieces`
    // masks it away.
    let lowest = Square::from_index_masked((pieces.0 | 1 << 63).trailing_zeros());
    let highest = Square::from_index_masked(63 - (pieces.0 | 1).leading_zeros());
    let reached = |from: Square| {
        0u64.wrapping_sub(u64::from(slider_reaches(role, from, to, occupied))) & (1 << from.index())
    };
    Bitboard((steppers | reached(lowest) | reached(highest)) & pieces.0)
}

/// The index into [`DIRS`] of each (file step + 1) * 3 + (rank step + 1),
/// 8 for "no direction".
const DIR_OF_STEPS: [usize; 9] = [6, 5, 3, 4, 8, 0, 7, 1, 2];

/// The index into [`DIRS`] of the direction from one square to another
/// (8 when they share no line), worked out once from coordinates: SAN
/// resolution asks it of every slider that may have moved, and a 4 KB
/// table answers in one load where the arithmetic took a dozen
/// instructions.
static DIRECTION: [[u8; 64]; 64] = {
    let mut t = [[8u8; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut to = 0;
        while to < 64 {
            let df = (to % 8) as i32 - (from % 8) as i32;
            let dr = (to / 8) as i32 - (from / 8) as i32;
            let aligned = (df == 0) != (dr == 0) || (df != 0 && (df == dr || df == -dr));
            if aligned {
                t[from][to] =
                    DIR_OF_STEPS[((df.signum() + 1) * 3 + dr.signum() + 1) as usize] as u8;
            }
            to += 1;
        }
        from += 1;
    }
    t
};

/// Whether a slider of `role` (bishop, rook or queen; any other role
/// answers false) on `from` attacks `to` with `occupied` blocking: `to` is
/// the first piece on the ray from `from` once it counts as occupied. For
/// SAN, which asks this of the one or two pieces that could have moved, it
/// is cheaper than computing their whole attack sets.
#[inline(always)]
pub fn slider_reaches(role: Role, from: Square, to: Square, occupied: Bitboard) -> bool {
    // The squares between, all empty when `to` is reached, and the kind of
    // line the two share: two loads of rows indexed by `to`, no branch on
    // whether they share a line (for the pieces SAN may have moved, at
    // random).
    let dir = usize::from(DIRECTION[to.index() & 63][from.index() & 63]);
    let between = BETWEEN_LINE.0[to.index() & 63][from.index() & 63];
    // The kind of line as a bit of [`SLIDES`]: 1 a rank or file, 2 a
    // diagonal, 0 none (`dir` 8): a table, no branch on the role.
    let kind = LINE_KIND[dir & 15];
    (SLIDES[role.index()] & kind != 0) & (between & occupied.0 == 0)
}

/// The kinds of line each role slides along ([`Role::index`] order), as
/// bits: 1 ranks and files, 2 diagonals.
const SLIDES: [u8; 6] = [0, 0, 2, 1, 3, 0];

/// The kind of line of each [`DIRECTION`] value (as [`SLIDES`]' bits);
/// 0 for 8, "no line", and the values past it.
const LINE_KIND: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut dir = 0;
    while dir < 8 {
        t[dir] = if dir % 4 < 2 { 1 } else { 2 };
        dir += 1;
    }
    t
};

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or empty if
/// they do not share one.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-piece slider test agrees with the attack sets.
    #[test]
    fn slider_reaches_agrees_with_attack_sets() {
        let mut occ = 0x0040_2000_0810_4400u64;
        for round in 0..8u64 {
            occ = occ.rotate_left(7) ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for a in 0..64u32 {
                for b in 0..64u32 {
                    let (Some(a), Some(b)) = (Square::new(a), Square::new(b)) else {
                        continue;
                    };
                    for role in Role::ALL {
                        let by_set = attacks(role, Color::White, a, Bitboard(occ)).contains(b);
                        let slider = matches!(role, Role::Bishop | Role::Rook | Role::Queen);
                        let expected = by_set && slider;
                        assert_eq!(
                            slider_reaches(role, a, b, Bitboard(occ)),
                            expected,
                            "{role:?} {a} {b} {occ:x}"
                        );
                    }
                }
            }
        }
    }

    /// The branch-free attack sets of SAN resolution are the role's own
    /// sets: [`piece_attacks`] for every piece (empty for a pawn), on every
    /// square.
    #[test]
    fn branch_free_attack_sets_agree_with_the_role_sets() {
        let mut occ = 0x0081_2400_1842_0081u64;
        for round in 0..8u64 {
            occ = occ.rotate_left(11) ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for sq in (0..64u32).filter_map(Square::new) {
                for role in Role::ALL {
                    let expected = match role {
                        Role::Pawn => Bitboard::EMPTY,
                        _ => attacks(role, Color::White, sq, Bitboard(occ)),
                    };
                    assert_eq!(
                        piece_attacks(role, sq, Bitboard(occ)),
                        expected,
                        "{role:?} {sq}"
                    );
                }
            }
        }
    }

    /// The pieces that reach a square are those of the role's attack set
    /// from it, for sets of none to four pieces of every role on every
    /// square, whatever stands between.
    #[test]
    fn pieces_reaching_agrees_with_the_attack_set() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..64 {
            let occ = next() & next();
            for to in (0..64u32).filter_map(Square::new) {
                for role in Role::ALL {
                    let expected_from = attacks(role, Color::White, to, Bitboard(occ));
                    for n in 0..=4 {
                        let mut pieces = Bitboard::EMPTY;
                        while pieces.count() < n {
                            pieces |=
                                Bitboard::from_square(Square::from_index_masked(next() as u32));
                        }
                        let expected = match role {
                            Role::Pawn => Bitboard::EMPTY,
                            _ => expected_from & pieces,
                        };
                        assert_eq!(
                            pieces_reaching(role, to, pieces, Bitboard(occ)),
                            expected,
                            "{role:?} to {to}, pieces {:x}, occupied {occ:x}",
                            pieces.0
                        );
                    }
                }
            }
        }
    }
}
