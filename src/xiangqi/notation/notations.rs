//! The move notations read and written, by name: what `--to` takes, what a
//! PGN `[Format]` tag says, what messages call them.

use std::fmt;

/// The move notations this crate reads and writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates, `h2e2` (written lower case without hyphen; `H2-E2` read).
    Iccs,
    /// WXF, `C2.5` (written in the wxf.org form; pyffish's `C2=5` read).
    Wxf,
    /// Chinese in simplified characters, `炮二平五` / `马8进7`.
    Chinese,
    /// Chinese in traditional characters, `炮二平五` / `馬8進7`.
    ChineseTraditional,
}

impl Notation {
    /// The value of a PGN `[Format "…"]` tag for this notation (xqbase
    /// convention; traditional Chinese is still `Chinese`).
    pub fn format_tag(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese | Notation::ChineseTraditional => "Chinese",
        }
    }
}

impl std::str::FromStr for Notation {
    type Err = String;

    /// Reads the names `pgnmill convert --to` takes: `iccs`, `wxf`,
    /// `chinese`, `chinese-traditional` (case-insensitive).
    fn from_str(s: &str) -> Result<Notation, String> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            "chinese" => Ok(Notation::Chinese),
            "chinese-traditional" => Ok(Notation::ChineseTraditional),
            _ => Err(format!(
                "unknown notation {s:?}: expected iccs, wxf, chinese or chinese-traditional"
            )),
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::ChineseTraditional => "traditional Chinese",
        })
    }
}
