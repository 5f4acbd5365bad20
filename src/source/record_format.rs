//! The xiangqi record formats the source recognises: files that are not
//! PGN text but games all the same, handed whole to `crate::records`
//! (which comes after the rules kernel, as it checks moves with it).

/// The first bytes of a CCBridge `.cbr` record (and of every record of a
/// library), by which the source recognises one and the reader checks it.
pub const CBR_MAGIC: &[u8; 16] = b"CCBridge Record\0";

/// The first bytes of an uncompressed CCBridge `.cbl` library.
pub const CBL_MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";

/// A record format, as recognised from an input's bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// XQF (XQStudio): `XQ`, a version byte, binary header.
    Xqf,
    /// A CCBridge `.cbr` record: `CCBridge Record\0`.
    CcBridgeRecord,
    /// An uncompressed CCBridge `.cbl` library: `CCBridgeLibrary\0`.
    CcBridgeLibrary,
    /// CCBridge XML (`.cbf`): `<ChineseChessRecord`.
    Cbf,
    /// DhtmlXQ (UBB) blocks in a text or HTML page.
    DhtmlXq,
}

impl RecordFormat {
    /// The name written in messages and in `summary.json`.
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Xqf => "XQF",
            RecordFormat::CcBridgeRecord => "CBR",
            RecordFormat::CcBridgeLibrary => "CBL",
            RecordFormat::Cbf => "CBF",
            RecordFormat::DhtmlXq => "DhtmlXQ",
        }
    }

    /// Whether a text file named `path` may hold DhtmlXQ blocks: only
    /// `.ubb`, `.txt`, `.html` and `.htm` files are searched for one, so
    /// that a `.pgn` file is never scanned a second time.
    pub fn may_hold_dhtmlxq(path: &std::path::Path) -> bool {
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["ubb", "txt", "html", "htm"]
                .iter()
                .any(|x| e.eq_ignore_ascii_case(x))
        })
    }

    /// Whether `text` holds a DhtmlXQ block.
    pub fn holds_dhtmlxq(text: &[u8]) -> bool {
        memchr::memmem::find(text, b"[DhtmlXQ").is_some()
    }
}
