//! One tag as a scanner found it: where its name and value are.

/// Where the parts of one tag are, as indices into the scanned buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TagScan {
    pub name: (usize, usize),
    pub value: (usize, usize),
    /// First byte after the tag (after its `]`, or the line end).
    pub end: usize,
    /// The value may hold a backslash (an escape to resolve): false when
    /// the reader knows it holds none (the plain tag line reader stops a
    /// value at a backslash), which spares [`super::unescape`] its search.
    pub may_escape: bool,
}
