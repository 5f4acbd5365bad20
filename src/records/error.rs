//! Why a record file gives no game at all: the decoders' one error.

/// Why a record file gives no game at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not a record pgnmill reads: bytes of another kind, or a version of
    /// the format it does not know. A report lists the file as
    /// `unsupported`.
    #[error("{0}")]
    Unsupported(String),
    /// A record of the format whose bytes break off (a download cut short)
    /// or are damaged before any game can be read. A report warns that the
    /// input is damaged, not complete.
    #[error("{0}")]
    Broken(String),
}
