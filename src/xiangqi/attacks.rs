//! Where a piece can go, given blockers: precomputed step tables for the
//! short-range pieces (king, advisor, elephant, horse, pawn) with the point
//! that blocks each step (horse leg, elephant eye), rays for the sliding
//! pieces (rook, cannon), and the question the legality filter asks: "is the
//! king on this point attacked?".
//!
//! The tables are computed at compile time (`const fn`), so there is no
//! start-up cost and no lazy initialisation check in the hot loops.

use super::board::Board;
use super::types::{Color, NUM_SQUARES, Role, Square};

/// Up to eight steps from one point: destination and the point that must be
/// empty for the step (the horse's leg, the elephant's eye; for pieces that
/// cannot be blocked it is the destination itself, which callers ignore).
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    len: u8,
    to: [Square; 8],
    via: [Square; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [Square::ALL[0]; 8],
        via: [Square::ALL[0]; 8],
    };

    const fn push(mut self, to: usize, via: usize) -> Steps {
        self.to[self.len as usize] = Square::ALL[to];
        self.via[self.len as usize] = Square::ALL[via];
        self.len += 1;
        self
    }

    /// `(destination, blocking point)` pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.to
            .iter()
            .copied()
            .zip(self.via.iter().copied())
            .take(self.len as usize)
    }
}

/// The points met walking from a point in one direction, nearest first.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    len: u8,
    squares: [Square; 9],
}

impl Ray {
    const EMPTY: Ray = Ray {
        len: 0,
        squares: [Square::ALL[0]; 9],
    };

    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.squares.iter().copied().take(self.len as usize)
    }
}

/// Ray directions: index 0 and 1 run along the file (toward black, toward
/// red), 2 and 3 along the rank. Only file rays can carry the "flying
/// general" (kings facing each other).
pub const NORTH: usize = 0;
pub const SOUTH: usize = 1;
pub const EAST: usize = 2;
pub const WEST: usize = 3;
const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn idx(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

/// Colour index 0 = red, 1 = black (as `Color::index`).
const fn palace(c: usize, f: i32, r: i32) -> bool {
    f >= 3
        && f <= 5
        && if c == 0 {
            r >= 0 && r <= 2
        } else {
            r >= 7 && r <= 9
        }
}

const fn own_side(c: usize, r: i32) -> bool {
    if c == 0 { r <= 4 } else { r >= 5 }
}

/// One step in each of `dirs`, staying in the mover's palace: the king
/// (orthogonal steps) and the advisors (diagonal steps) differ only there.
const fn build_palace_steps(dirs: &[(i32, i32); 4]) -> [[Steps; NUM_SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_SQUARES {
            let (f, r) = ((i % 9) as i32, (i / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + dirs[d].0, r + dirs[d].1);
                if on_board(nf, nr) && palace(c, nf, nr) {
                    t[c][i] = t[c][i].push(idx(nf, nr), idx(nf, nr));
                }
                d += 1;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn build_elephant() -> [[Steps; NUM_SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_SQUARES {
            let (f, r) = ((i % 9) as i32, (i / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (nf, nr) = (f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
                if on_board(nf, nr) && own_side(c, nr) {
                    let eye = idx(f + DIAG[d].0, r + DIAG[d].1);
                    t[c][i] = t[c][i].push(idx(nf, nr), eye);
                }
                d += 1;
            }
            i += 1;
        }
        c += 1;
    }
    t
}

const HORSE_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

const fn build_horse() -> [Steps; NUM_SQUARES] {
    let mut t = [Steps::EMPTY; NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = HORSE_DELTAS[d];
            let (nf, nr) = (f + df, r + dr);
            if on_board(nf, nr) {
                // The leg is the point next to the horse in the long direction.
                let leg = if dr == 2 || dr == -2 {
                    idx(f, r + dr / 2)
                } else {
                    idx(f + df / 2, r)
                };
                t[i] = t[i].push(idx(nf, nr), leg);
            }
            d += 1;
        }
        i += 1;
    }
    t
}

const fn build_pawn() -> [[Steps; NUM_SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; NUM_SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let forward = if c == 0 { 1 } else { -1 };
        let mut i = 0;
        while i < NUM_SQUARES {
            let (f, r) = ((i % 9) as i32, (i / 9) as i32);
            if on_board(f, r + forward) {
                t[c][i] = t[c][i].push(idx(f, r + forward), idx(f, r + forward));
            }
            // Sideways only once across the river, i.e. off its own half.
            if !own_side(c, r) {
                if on_board(f - 1, r) {
                    t[c][i] = t[c][i].push(idx(f - 1, r), idx(f - 1, r));
                }
                if on_board(f + 1, r) {
                    t[c][i] = t[c][i].push(idx(f + 1, r), idx(f + 1, r));
                }
            }
            i += 1;
        }
        c += 1;
    }
    t
}

/// Turns "where can a piece on X go" into "from where can a piece reach Y",
/// keeping each step's blocking point.
const fn invert(t: &[Steps; NUM_SQUARES]) -> [Steps; NUM_SQUARES] {
    let mut inv = [Steps::EMPTY; NUM_SQUARES];
    let mut from = 0;
    while from < NUM_SQUARES {
        let s = t[from];
        let mut k = 0;
        while k < s.len as usize {
            let to = s.to[k].index_const();
            inv[to] = inv[to].push(from, s.via[k].index_const());
            k += 1;
        }
        from += 1;
    }
    inv
}

const fn build_rays() -> [[Ray; 4]; NUM_SQUARES] {
    let mut t = [[Ray::EMPTY; 4]; NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (mut nf, mut nr) = (f + DIRS[d].0, r + DIRS[d].1);
            while on_board(nf, nr) {
                let ray = &mut t[i][d];
                ray.squares[ray.len as usize] = Square::ALL[idx(nf, nr)];
                ray.len += 1;
                nf += DIRS[d].0;
                nr += DIRS[d].1;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// King steps: orthogonal, inside its own palace. `[colour][square]`.
pub static KING: [[Steps; NUM_SQUARES]; 2] = build_palace_steps(&DIRS);
/// Advisor steps: diagonal, inside its own palace. `[colour][square]`.
pub static ADVISOR: [[Steps; NUM_SQUARES]; 2] = build_palace_steps(&DIAG);
/// Elephant steps: two points diagonally, blocked by the eye, never across
/// the river. `[colour][square]`.
pub static ELEPHANT: [[Steps; NUM_SQUARES]; 2] = build_elephant();
/// Horse steps, blocked by the leg. `[square]`.
pub static HORSE: [Steps; NUM_SQUARES] = build_horse();
/// Pawn steps: forward; sideways too once across the river. `[colour][square]`.
pub static PAWN: [[Steps; NUM_SQUARES]; 2] = build_pawn();
/// Sliding rays. `[square][direction]`.
pub static RAYS: [[Ray; 4]; NUM_SQUARES] = build_rays();

/// Points from which a horse reaches `[square]`, with the leg it needs empty.
static HORSE_TO: [Steps; NUM_SQUARES] = invert(&build_horse());
/// Points from which a red / black pawn reaches `[square]`.
static PAWN_TO: [[Steps; NUM_SQUARES]; 2] = {
    let p = build_pawn();
    [invert(&p[0]), invert(&p[1])]
};

/// Whether the king standing on `king` could be captured by a piece of
/// colour `by`, or faces `by`'s king on an open file (the "flying general":
/// such a position is illegal for the side that made it, exactly as if its
/// king were in check).
///
/// Advisors, elephants and the enemy king's step are not tested: positions
/// are validated so that each king stays in its own palace, which enemy
/// advisors (confined to their palace) and elephants (confined to their half)
/// never reach, and the two palaces are never adjacent.
pub fn king_attacked(board: &Board, king: Square, by: Color) -> bool {
    (0..4).any(|dir| line_attacked(board, king, dir, by))
        || HORSE_TO[king.index()]
            .iter()
            .any(|(from, leg)| horse_attacks(board, from, leg, by))
        || PAWN_TO[by.index()][king.index()].iter().any(|(from, _)| {
            board
                .get(from)
                .is_some_and(|p| p.color == by && p.role == Role::Pawn)
        })
}

/// Whether a piece of `by` attacks the king on `king` along the ray in
/// direction `dir` ([`NORTH`], [`SOUTH`], [`EAST`], [`WEST`]): a rook (or on a
/// file, the other king) as the first piece met, or a cannon as the second.
#[inline]
pub fn line_attacked(board: &Board, king: Square, dir: usize, by: Color) -> bool {
    let Some(ray) = RAYS[king.index()].get(dir) else {
        return false;
    };
    let mut screened = false;
    for sq in ray.iter() {
        let Some(p) = board.get(sq) else { continue };
        if screened {
            return p.color == by && p.role == Role::Cannon;
        }
        if p.color == by
            && (p.role == Role::Rook || (p.role == Role::King && (dir == NORTH || dir == SOUTH)))
        {
            return true;
        }
        screened = true;
    }
    false
}

/// Whether a horse of `by` on `from` attacks through the leg point `leg`.
#[inline]
fn horse_attacks(board: &Board, from: Square, leg: Square, by: Color) -> bool {
    board.get(leg).is_none()
        && board
            .get(from)
            .is_some_and(|p| p.color == by && p.role == Role::Horse)
}

/// Whether a horse of `by` attacks the king on `king` through `leg` (a
/// diagonal neighbour of the king): the check a move emptying `leg` needs.
#[inline]
pub fn horse_attacked_via(board: &Board, king: Square, leg: Square, by: Color) -> bool {
    HORSE_TO[king.index()]
        .iter()
        .any(|(from, l)| l == leg && horse_attacks(board, from, leg, by))
}

/// How a point relates to a king's point, for the legality filter:
/// `1 + direction` if they share a file or rank, [`LEG`] if the point is a
/// diagonal neighbour (a horse leg), 0 otherwise. `[king][square]`.
static RELATION: [[u8; NUM_SQUARES]; NUM_SQUARES] = {
    let mut t = [[0u8; NUM_SQUARES]; NUM_SQUARES];
    let mut k = 0;
    while k < NUM_SQUARES {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s = 0;
        while s < NUM_SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let dir = if s == k {
                None
            } else if f == kf {
                Some(if r > kr { NORTH } else { SOUTH })
            } else if r == kr {
                Some(if f > kf { EAST } else { WEST })
            } else {
                None
            };
            t[k][s] = match dir {
                Some(d) => 1 + d as u8,
                None if (f - kf == 1 || kf - f == 1) && (r - kr == 1 || kr - r == 1) => LEG,
                None => 0,
            };
            s += 1;
        }
        k += 1;
    }
    t
};

/// [`relation`] value of a diagonal neighbour of the king.
pub const LEG: u8 = 8;

/// How `sq` relates to `king`: `1 + direction` (same file or rank), [`LEG`]
/// (diagonal neighbour) or 0.
#[inline]
pub fn relation(king: Square, sq: Square) -> u8 {
    RELATION[king.index()][sq.index()]
}

/// The ray direction from `king` toward `sq` if they share a file or rank.
#[inline]
pub fn direction(king: Square, sq: Square) -> Option<usize> {
    match relation(king, sq) {
        r @ 1..=4 => Some(usize::from(r - 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_iccs(s.as_bytes()).unwrap()
    }

    #[test]
    fn table_sizes_match_the_rules() {
        // Red king on e1 (palace centre column, middle rank) has 4 steps;
        // on d0 (palace corner) 2.
        assert_eq!(KING[0][sq("e1").index()].iter().count(), 4);
        assert_eq!(KING[0][sq("d0").index()].iter().count(), 2);
        // Advisor in the palace centre: 4; on a corner: 1.
        assert_eq!(ADVISOR[1][sq("e8").index()].iter().count(), 4);
        assert_eq!(ADVISOR[1][sq("d9").index()].iter().count(), 1);
        // Red elephant on e2 may go to c0 g0 c4 g4, on c4 not across to e6.
        assert_eq!(ELEPHANT[0][sq("e2").index()].iter().count(), 4);
        assert_eq!(ELEPHANT[0][sq("c4").index()].iter().count(), 2);
        // Horse in a corner: 2 steps; legs are the orthogonal neighbours.
        let corner: Vec<_> = HORSE[sq("a0").index()].iter().collect();
        assert_eq!(corner, vec![(sq("b2"), sq("a1")), (sq("c1"), sq("b0"))]);
        // Red pawn before the river: 1 step; after: 3; on the last rank: 2.
        assert_eq!(PAWN[0][sq("e4").index()].iter().count(), 1);
        assert_eq!(PAWN[0][sq("e5").index()].iter().count(), 3);
        assert_eq!(PAWN[0][sq("e9").index()].iter().count(), 2);
        // Black pawns go downward.
        assert_eq!(
            PAWN[1][sq("a6").index()]
                .iter()
                .map(|s| s.0)
                .collect::<Vec<_>>(),
            vec![sq("a5")]
        );
        assert_eq!(RAYS[sq("a0").index()][NORTH].iter().count(), 9);
        assert_eq!(RAYS[sq("a0").index()][2].iter().count(), 8);
    }
}
