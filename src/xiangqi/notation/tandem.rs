//! Like pieces standing on one file ("tandem" pieces), ordered front to back.
//!
//! Both Chinese (前/中/后, 一兵..五兵) and WXF (`+`/`-`, `++`, `7+`) name a
//! piece by its place in such a stack, so reading and writing share this
//! ordering. "Front" is nearer the opponent: a higher rank for red, a lower
//! one for black. Stacks are small fixed arrays; nothing here allocates.

use super::NotationBoard;
use super::files::own_file;
use super::spec::StackPlace;
use crate::xiangqi::types::{Color, FILES, Piece, RANKS, Role, Square};

/// The squares of one colour's pieces of one role on one file, front first.
#[derive(Copy, Clone, Debug)]
pub struct Stack {
    file: u8,
    ranks: [u8; RANKS as usize],
    len: u8,
}

impl Stack {
    /// Collects `color`'s `role` pieces on ICCS file `file` (0..9).
    pub fn on_file(board: &impl NotationBoard, color: Color, role: Role, file: u8) -> Stack {
        let mut stack = Stack {
            file,
            ranks: [0; RANKS as usize],
            len: 0,
        };
        let wanted = Piece::new(color, role);
        // Walk from the mover's front rank toward its back rank.
        for step in 0..RANKS {
            let rank = match color {
                Color::Red => RANKS - 1 - step,
                Color::Black => step,
            };
            let here = Square::new(file, rank).and_then(|sq| board.piece_at(sq));
            if here == Some(wanted) {
                stack.ranks[usize::from(stack.len)] = rank;
                stack.len += 1;
            }
        }
        stack
    }

    /// How many pieces stand on the file.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The `i`-th piece from the front (0-based).
    pub fn get(&self, i: usize) -> Option<Square> {
        if i < self.len() {
            Square::new(self.file, *self.ranks.get(i)?)
        } else {
            None
        }
    }

    /// The squares, front first.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The 0-based place of `sq` in the stack.
    pub fn index_of(&self, sq: Square) -> Option<usize> {
        self.iter().position(|s| s == sq)
    }

    /// The piece a stack place names, if the stack is tall enough for it.
    pub fn pick(&self, at: StackPlace) -> Option<Square> {
        let n = self.len();
        let i = match at {
            StackPlace::Front => 0,
            StackPlace::Rear => n.checked_sub(1)?,
            StackPlace::Middle if n >= 3 && n % 2 == 1 => n / 2,
            StackPlace::Middle => return None,
            StackPlace::Nth(k) => usize::from(k).checked_sub(1)?,
            StackPlace::WxfPlus if n >= 4 => 1,
            StackPlace::WxfPlus => 0,
            StackPlace::WxfMinus if n >= 4 => n - 2,
            StackPlace::WxfMinus => n.checked_sub(1)?,
        };
        self.get(i)
    }
}

/// The files on which `color` has two or more `role` pieces, in ascending
/// own file number (the mover's right to left), which is the order xqbase
/// numbers stacked pawns in (docs/xiangqi-notation.md §3.3).
#[derive(Copy, Clone, Debug)]
pub struct StackedFiles {
    stacks: [Option<Stack>; FILES as usize],
    len: u8,
}

impl StackedFiles {
    pub fn find(board: &impl NotationBoard, color: Color, role: Role) -> StackedFiles {
        let mut found = StackedFiles {
            stacks: [None; FILES as usize],
            len: 0,
        };
        for n in 1..=FILES {
            let Some(file) = super::files::iccs_file(color, n) else {
                continue;
            };
            let stack = Stack::on_file(board, color, role, file);
            if stack.len() >= 2
                && let Some(slot) = found.stacks.get_mut(usize::from(found.len))
            {
                *slot = Some(stack);
                found.len += 1;
            }
        }
        found
    }

    /// How many files hold a stack.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The stacks, in ascending own file number.
    pub fn iter(&self) -> impl Iterator<Item = &Stack> + '_ {
        self.stacks.iter().flatten()
    }

    /// The `k`-th piece (1-based) of the xqbase series: all stacked files
    /// from the mover's right, each front to back.
    pub fn nth_in_series(&self, k: u8) -> Option<Square> {
        let k = usize::from(k).checked_sub(1)?;
        self.iter().flat_map(|s| s.iter()).nth(k)
    }

    /// The 1-based place of `sq` in that series.
    pub fn series_index(&self, sq: Square) -> Option<usize> {
        self.iter()
            .flat_map(|s| s.iter())
            .position(|s| s == sq)
            .map(|i| i + 1)
    }
}

/// Where a piece stands among its like pieces: what a writer needs to choose
/// between the plain form, 前/后, 一兵 and the WXF stack forms.
#[derive(Copy, Clone, Debug)]
pub struct Placement {
    pub piece: Piece,
    /// The mover's own file number of the piece, 1..=9.
    pub own_file: u8,
    /// 0-based place on its file, front first.
    pub index: usize,
    /// How many like pieces share its file.
    pub count: usize,
    /// How many files hold two or more like pieces.
    pub stacked_files: usize,
    /// 1-based place in the xqbase series over all stacked files.
    pub series_index: usize,
}

impl Placement {
    /// Describes the piece on `from`, if there is one.
    pub fn of(board: &impl NotationBoard, from: Square) -> Option<Placement> {
        let piece = board.piece_at(from)?;
        let stack = Stack::on_file(board, piece.color, piece.role, from.file());
        let index = stack.index_of(from)?;
        let (stacked_files, series_index) = if stack.len() >= 2 {
            let files = StackedFiles::find(board, piece.color, piece.role);
            (files.len(), files.series_index(from).unwrap_or(index + 1))
        } else {
            (0, 0)
        };
        Some(Placement {
            piece,
            own_file: own_file(piece.color, from.file()),
            index,
            count: stack.len(),
            stacked_files,
            series_index,
        })
    }
}
