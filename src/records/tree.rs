//! A record's moves as a tree: every format here stores one (XQF and CBR
//! as a pre-order list of records, DhtmlXQ as branches that replace a
//! line's tail), and PGN writes it back as a main line with variations.
//!
//! Nodes live in one vector and point at each other by index (first
//! child, next sibling), so that building, walking and dropping a tree of
//! any depth needs no recursion: a file with a line nested 100,000 deep
//! costs no stack.

use crate::pgn::ReaderNote;

/// One point of the board as a format stores it: file 0–8 from red's left,
/// rank 0–9 from red's side (ICCS). Values outside the board are kept as
/// read so that the move is reported, not dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub file: u8,
    pub rank: u8,
}

impl Point {
    /// `x·10 + y`, the XQF encoding; anything above 89 is off the board.
    pub fn from_xqf(sq: u8) -> Point {
        Point {
            file: sq / 10,
            rank: sq % 10,
        }
    }

    /// True when the point is on the 9 × 10 board.
    pub fn on_board(self) -> bool {
        self.file < 9 && self.rank < 10
    }
}

/// A move as a record stores it: two points, not yet checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawMove {
    pub from: Point,
    pub to: Point,
}

impl RawMove {
    /// ICCS (`h2e2`) when both points are on the board; otherwise a token
    /// that names the bad point and that no notation reads as a move
    /// (`off-board:i9z3`), so that replay reports it at its ply.
    pub fn iccs(self, out: &mut String) {
        if !(self.from.on_board() && self.to.on_board()) {
            out.push_str("off-board:");
        }
        for p in [self.from, self.to] {
            push_point(p, out);
        }
    }
}

fn push_point(p: Point, out: &mut String) {
    if p.file < 9 {
        out.push((b'a' + p.file) as char);
    } else {
        out.push('z');
        out.push_str(&p.file.to_string());
    }
    out.push_str(&p.rank.to_string());
}

/// One node: the move that leads to it (none for the root) and the
/// comment after that move (for the root: the game's opening comment).
#[derive(Clone, Debug, Default)]
pub struct Node {
    pub mv: Option<RawMove>,
    pub comment: String,
    pub first_child: Option<usize>,
    pub next_sibling: Option<usize>,
}

/// A move tree; node 0 is the root (the start position). The main line is
/// root → first child → first child …; a node's siblings are alternatives
/// to its move.
#[derive(Clone, Debug)]
pub struct MoveTree {
    nodes: Vec<Node>,
    /// Each node's last child, so that appending a child costs O(1).
    last_child: Vec<Option<usize>>,
    /// Each node's parent (the root's own index for the root).
    parents: Vec<usize>,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree with only its root.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node::default()],
            last_child: vec![None],
            parents: vec![0],
        }
    }

    pub const ROOT: usize = 0;

    /// Appends a child to `parent` (after its other children) and returns it.
    pub fn add_child(&mut self, parent: usize, mv: RawMove, comment: String) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(mv),
            comment,
            first_child: None,
            next_sibling: None,
        });
        self.last_child.push(None);
        self.parents.push(parent);
        match self.last_child.get(parent).copied().flatten() {
            Some(last) => {
                if let Some(n) = self.nodes.get_mut(last) {
                    n.next_sibling = Some(id);
                }
            }
            None => {
                if let Some(n) = self.nodes.get_mut(parent) {
                    n.first_child = Some(id);
                }
            }
        }
        if let Some(l) = self.last_child.get_mut(parent) {
            *l = Some(id);
        }
        id
    }

    /// The node `id` (the root when `id` is not a node).
    pub fn node(&self, id: usize) -> &Node {
        self.nodes.get(id).unwrap_or(&self.nodes[0])
    }

    /// The parent of `id` (the root for the root).
    pub fn parent(&self, id: usize) -> usize {
        self.parents.get(id).copied().unwrap_or(0)
    }

    /// The node `id`, to set its comment.
    pub fn node_mut(&mut self, id: usize) -> Option<&mut Node> {
        self.nodes.get_mut(id)
    }

    /// Moves in the tree (nodes but the root).
    pub fn moves(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: usize) -> Children<'_> {
        Children {
            tree: self,
            next: self.node(id).first_child,
        }
    }

    /// The main line's moves.
    pub fn main_line(&self) -> Vec<RawMove> {
        let mut out = Vec::new();
        let mut at = self.node(Self::ROOT).first_child;
        while let Some(id) = at {
            let n = self.node(id);
            out.extend(n.mv);
            at = n.first_child;
        }
        out
    }

    /// Lines from the start to a leaf: 1 for a tree without variations
    /// (the empty line of a move-less record included).
    pub fn lines(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.first_child.is_none())
            .count()
            .max(1)
    }
}

/// Where a pre-order list of records broke off (a file cut short).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Break {
    /// The byte the unreadable record starts at.
    pub at: u64,
    /// The main line's last record was read before the break.
    pub main_line_read: bool,
}

impl Break {
    /// The reader's note for records named `records` (`XQF move
    /// records`): a break before the main line's end cuts the main line;
    /// one after it loses variations only.
    pub fn note(&self, records: &str) -> ReaderNote {
        let at = self.at;
        if self.main_line_read {
            ReaderNote::DamagedOffMainLine(format!(
                "{records} cut short at byte {at}, after the main line: the variations after it are missing"
            ))
        } else {
            ReaderNote::Damaged(format!(
                "{records} cut short at byte {at}: the moves after it are missing"
            ))
        }
    }
}

/// Where the next record of a pre-order list goes.
#[derive(Clone, Copy, Debug)]
enum Slot {
    ChildOf(usize),
    SiblingOf(usize),
}

/// Builds a tree from a pre-order list of records, as XQF and CBR store
/// it: a record, then (if it says it has a child) its child's whole
/// subtree, then (if it says it has a sibling) its next sibling. Nodes
/// whose sibling waits for their subtree are kept on a stack, not in
/// recursion.
#[derive(Debug)]
pub struct PreOrder {
    next: Option<Slot>,
    pending: Vec<usize>,
    /// A record without a child has been added: in pre-order the main
    /// line's records come first, so that one ended it.
    main_line_read: bool,
}

impl PreOrder {
    /// The first record becomes a child of `parent`.
    pub fn new(parent: usize) -> PreOrder {
        PreOrder {
            next: Some(Slot::ChildOf(parent)),
            pending: Vec::new(),
            main_line_read: false,
        }
    }

    /// A list with no records to come (a root without a child).
    pub fn finished() -> PreOrder {
        PreOrder {
            next: None,
            pending: Vec::new(),
            main_line_read: true,
        }
    }

    /// True once the last record of the tree has been added.
    pub fn complete(&self) -> bool {
        self.next.is_none()
    }

    /// True once the main line's last record has been added: records
    /// that break off after it lose variations only.
    pub fn main_line_read(&self) -> bool {
        self.main_line_read
    }

    /// Adds the next record's move where pre-order puts it, with the
    /// record's two flags; returns its node (the root when complete).
    pub fn add(
        &mut self,
        tree: &mut MoveTree,
        mv: RawMove,
        comment: String,
        child: bool,
        sibling: bool,
    ) -> usize {
        let parent = match self.next {
            None => return MoveTree::ROOT,
            Some(Slot::ChildOf(p)) => p,
            Some(Slot::SiblingOf(n)) => tree.parent(n),
        };
        let id = tree.add_child(parent, mv, comment);
        self.main_line_read |= !child;
        self.next = if child {
            if sibling {
                self.pending.push(id);
            }
            Some(Slot::ChildOf(id))
        } else if sibling {
            Some(Slot::SiblingOf(id))
        } else {
            self.pending.pop().map(Slot::SiblingOf)
        };
        id
    }
}

/// The children of one node.
pub struct Children<'a> {
    tree: &'a MoveTree,
    next: Option<usize>,
}

impl Iterator for Children<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let id = self.next?;
        self.next = self.tree.nodes.get(id).and_then(|n| n.next_sibling);
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(f: u8, r: u8, f2: u8, r2: u8) -> RawMove {
        RawMove {
            from: Point { file: f, rank: r },
            to: Point { file: f2, rank: r2 },
        }
    }

    #[test]
    fn children_keep_their_order_and_lines_count_leaves() {
        let mut t = MoveTree::new();
        let a = t.add_child(0, mv(7, 2, 4, 2), String::new());
        let b = t.add_child(0, mv(1, 2, 4, 2), String::new());
        t.add_child(a, mv(7, 9, 6, 7), String::new());
        assert_eq!(t.children(0).collect::<Vec<_>>(), [a, b]);
        assert_eq!(t.lines(), 2);
        let mut s = String::new();
        t.main_line()[0].iccs(&mut s);
        assert_eq!(s, "h2e2");
        let mut s = String::new();
        mv(9, 3, 0, 0).iccs(&mut s);
        assert_eq!(s, "off-board:z93a0");
    }
}
