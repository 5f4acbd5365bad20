//! `--extract KIND=FILE`: the original text of the games in one category,
//! byte for byte as in the input, so that a curator can inspect and fix them.

use crate::output::AtomicFile;
use crate::output::OutputError;
use std::path::PathBuf;
use std::str::FromStr;

/// Which games an extract file collects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExtractKind {
    /// Games with a threefold under ep-if-legal and none under ep-always.
    Missed,
    /// Games whose `[FEN]` castling field contradicts the board.
    Castling,
    /// Games whose status is not `ok`.
    Errors,
    /// Games whose recorded result contradicts the board (a non-empty
    /// `result_conflict`).
    Conflicts,
}

/// One `--extract` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractRequest {
    pub kind: ExtractKind,
    pub path: PathBuf,
}

impl ExtractKind {
    /// The word `--extract` takes.
    pub fn name(self) -> &'static str {
        match self {
            ExtractKind::Missed => "missed",
            ExtractKind::Castling => "castling",
            ExtractKind::Errors => "errors",
            ExtractKind::Conflicts => "conflicts",
        }
    }
}

/// `KIND=FILE`, as given.
impl std::fmt::Display for ExtractRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.kind.name(), self.path.display())
    }
}

impl FromStr for ExtractRequest {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, path) = s.split_once('=').ok_or_else(|| {
            format!("expected KIND=FILE (missed, castling, errors or conflicts), got {s:?}")
        })?;
        let kind = match kind {
            "missed" => ExtractKind::Missed,
            "castling" => ExtractKind::Castling,
            "errors" => ExtractKind::Errors,
            "conflicts" => ExtractKind::Conflicts,
            other => {
                return Err(format!(
                    "unknown extract kind {other:?}: use missed, castling, errors or conflicts"
                ));
            }
        };
        if path.is_empty() {
            return Err("missing FILE after '='".into());
        }
        Ok(ExtractRequest {
            kind,
            path: PathBuf::from(path),
        })
    }
}

/// An open extract file.
pub struct ExtractFile {
    pub kind: ExtractKind,
    file: AtomicFile,
    games: u64,
}

impl ExtractFile {
    pub fn create(request: &ExtractRequest) -> Result<Self, OutputError> {
        Ok(ExtractFile {
            kind: request.kind,
            file: AtomicFile::create(&request.path)?,
            games: 0,
        })
    }

    /// Appends one game's original bytes, followed by a blank line when the
    /// game's own text does not already end with one, so that games stay
    /// apart.
    pub fn append(&mut self, game_text: &[u8]) -> Result<(), OutputError> {
        self.file.write_all(game_text)?;
        let line_ends = trailing_line_ends(game_text);
        if line_ends < 2 {
            self.file.write_all(&b"\n\n"[..2 - line_ends])?;
        }
        self.games += 1;
        Ok(())
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn commit(self) -> Result<(), OutputError> {
        self.file.commit()
    }
}

/// How many line ends the text finishes with (CRLF, LF or CR-only files).
fn trailing_line_ends(text: &[u8]) -> usize {
    let tail: Vec<u8> = text
        .iter()
        .rev()
        .take_while(|&&b| b == b'\n' || b == b'\r')
        .copied()
        .collect();
    match tail.iter().filter(|&&b| b == b'\n').count() {
        0 => tail.len(),
        lf => lf,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kind_and_file() {
        let r: ExtractRequest = "missed=out/missed.pgn".parse().unwrap();
        assert_eq!(r.kind, ExtractKind::Missed);
        assert_eq!(r.path, PathBuf::from("out/missed.pgn"));
        let r: ExtractRequest = "conflicts=c.pgn".parse().unwrap();
        assert_eq!(r.kind, ExtractKind::Conflicts);
        assert!("missed".parse::<ExtractRequest>().is_err());
        assert!("typo=x.pgn".parse::<ExtractRequest>().is_err());
        assert!("errors=".parse::<ExtractRequest>().is_err());
    }

    #[test]
    fn counts_line_ends_in_every_style() {
        assert_eq!(trailing_line_ends(b"1-0"), 0);
        assert_eq!(trailing_line_ends(b"1-0\r\n"), 1);
        assert_eq!(trailing_line_ends(b"1-0\r\n\r\n"), 2);
        assert_eq!(trailing_line_ends(b"1-0\r\r"), 2);
        assert_eq!(trailing_line_ends(b"1-0\n\n\n"), 3);
    }
}
