//! The geometry behind "verb + number": from a move to (direction, number)
//! and back.
//!
//! Straight movers (king, chariot, cannon, pawn) give the ranks moved after
//! 进/退 and the destination file after 平; diagonal movers (advisor,
//! elephant, horse) always give the destination file and never use 平
//! (docs/xiangqi-notation.md §3.1). A diagonal mover's destination file fixes its rank step, so
//! the destination square follows from the origin in both cases.

use super::files::{forward_sign, iccs_file, own_file, ranks_forward};
use super::spec::Direction;
use crate::xiangqi::types::{Color, Role, Square};

/// True for the roles whose number after 进/退 is a distance.
pub fn moves_straight(role: Role) -> bool {
    matches!(role, Role::King | Role::Rook | Role::Cannon | Role::Pawn)
}

/// The square a `color` `role` on `from` reaches by `direction` and
/// `number`, or `None` if no such move exists on the board.
pub fn target(
    color: Color,
    role: Role,
    from: Square,
    direction: Direction,
    number: u8,
) -> Option<Square> {
    if !(1..=9).contains(&number) {
        return None;
    }
    let fwd = forward_sign(color);
    let n = number as i8;
    if moves_straight(role) {
        return match direction {
            Direction::Sideways => {
                let file = iccs_file(color, number)?;
                if file == from.file() {
                    None
                } else {
                    Square::new(file, from.rank())
                }
            }
            Direction::Forward => from.offset(0, n * fwd),
            Direction::Backward => from.offset(0, -n * fwd),
        };
    }
    let file = iccs_file(color, number)?;
    let df = file as i8 - from.file() as i8;
    let dr = match (role, df.abs()) {
        (Role::Advisor, 1) => 1,
        (Role::Elephant, 2) => 2,
        (Role::Horse, 1) => 2,
        (Role::Horse, 2) => 1,
        _ => return None,
    };
    match direction {
        Direction::Forward => from.offset(df, dr * fwd),
        Direction::Backward => from.offset(df, -dr * fwd),
        Direction::Sideways => None,
    }
}

/// The direction and number that describe a `color` `role` moving from
/// `from` to `to`, or `None` if the move has no such description (a
/// chariot moving diagonally, a horse moving along a rank).
pub fn describe(color: Color, role: Role, from: Square, to: Square) -> Option<(Direction, u8)> {
    let dy = ranks_forward(color, from, to);
    let direction = match dy {
        0 => Direction::Sideways,
        d if d > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let number = if moves_straight(role) {
        match (direction, from.file() == to.file()) {
            (Direction::Sideways, false) => own_file(color, to.file()),
            (Direction::Forward | Direction::Backward, true) => dy.unsigned_abs(),
            _ => return None,
        }
    } else if direction == Direction::Sideways {
        return None;
    } else {
        own_file(color, to.file())
    };
    // Check the description really leads back to `to` (rejects a horse
    // "moving" three files, an advisor jumping two ranks, ...).
    (target(color, role, from, direction, number) == Some(to)).then_some((direction, number))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_iccs(s.as_bytes()).unwrap()
    }

    #[test]
    fn spec_3_1_examples() {
        // 炮二平五 = h2e2, 马八进七 = b0c2, 相三进五 = g0e2, 仕四进五 = f0e1,
        // 帅五进一 = e0e1, 车1进1 (black) = a9a8, 炮8平5 (black) = h7e7.
        let cases = [
            (Color::Red, Role::Cannon, "h2", Direction::Sideways, 5, "e2"),
            (Color::Red, Role::Horse, "b0", Direction::Forward, 7, "c2"),
            (
                Color::Red,
                Role::Elephant,
                "g0",
                Direction::Forward,
                5,
                "e2",
            ),
            (Color::Red, Role::Advisor, "f0", Direction::Forward, 5, "e1"),
            (Color::Red, Role::King, "e0", Direction::Forward, 1, "e1"),
            (Color::Black, Role::Rook, "a9", Direction::Forward, 1, "a8"),
            (
                Color::Black,
                Role::Cannon,
                "h7",
                Direction::Sideways,
                5,
                "e7",
            ),
        ];
        for (color, role, from, dir, n, to) in cases {
            assert_eq!(target(color, role, sq(from), dir, n), Some(sq(to)));
            assert_eq!(describe(color, role, sq(from), sq(to)), Some((dir, n)));
        }
    }

    #[test]
    fn impossible_shapes_have_no_description() {
        assert_eq!(describe(Color::Red, Role::Horse, sq("b0"), sq("d0")), None);
        assert_eq!(describe(Color::Red, Role::Rook, sq("a0"), sq("b1")), None);
        assert_eq!(
            target(Color::Red, Role::Horse, sq("b0"), Direction::Sideways, 7),
            None
        );
        assert_eq!(
            target(Color::Red, Role::Rook, sq("a0"), Direction::Backward, 1),
            None
        );
    }
}
