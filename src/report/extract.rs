//! `--extract KIND=FILE`: the original text of the games in one category,
//! byte for byte as in the input, so that a curator can inspect and fix them.
//! The file's first line is a PGN escape line that marks it as pgnmill's
//! own output ([`extract_first_line`]): a later folder search passes it over
//! instead of reading the extracted games a second time.

use super::duplicate_stage::DuplicateRows;
use super::facts::GameFacts;
use crate::output::{AtomicFile, FinishedFile, OutputError, Spill};
use crate::source::extract_first_line;
use std::io::Write;
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
    /// `--duplicates`: games whose `dup_kind` is neither `exact` nor
    /// `prefix` (one copy of each game, the longest of its truncations).
    Unique,
    /// `--duplicates`: the others; with `Unique`, a partition of the
    /// report's games.
    Duplicates,
}

/// One `--extract` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtractRequest {
    pub kind: ExtractKind,
    pub path: PathBuf,
}

impl ExtractKind {
    /// Whether a game with these facts belongs in an extract of this kind
    /// (`None`: known only when every game is read, [`Self::needs_duplicates`]).
    pub fn takes(self, g: &GameFacts) -> Option<bool> {
        match self {
            ExtractKind::Missed => Some(g.missed_threefold),
            ExtractKind::Castling => Some(g.castling_conflict),
            ExtractKind::Errors => Some(g.status.is_broken()),
            ExtractKind::Conflicts => Some(g.outcome.result_conflict),
            ExtractKind::Unique | ExtractKind::Duplicates => None,
        }
    }

    /// Whether the extract's games are known from the duplicate verdicts
    /// (it implies `--duplicates`).
    pub fn needs_duplicates(self) -> bool {
        matches!(self, ExtractKind::Unique | ExtractKind::Duplicates)
    }

    /// The word `--extract` takes.
    pub fn name(self) -> &'static str {
        match self {
            ExtractKind::Missed => "missed",
            ExtractKind::Castling => "castling",
            ExtractKind::Errors => "errors",
            ExtractKind::Conflicts => "conflicts",
            ExtractKind::Unique => "unique",
            ExtractKind::Duplicates => "duplicates",
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
            format!(
                "expected KIND=FILE (missed, castling, errors, conflicts, unique or duplicates), got {s:?}"
            )
        })?;
        let kind = match kind {
            "missed" => ExtractKind::Missed,
            "castling" => ExtractKind::Castling,
            "errors" => ExtractKind::Errors,
            "conflicts" => ExtractKind::Conflicts,
            "unique" => ExtractKind::Unique,
            "duplicates" => ExtractKind::Duplicates,
            other => {
                return Err(format!(
                    "unknown extract kind {other:?}: use missed, castling, errors, conflicts, \
                     unique or duplicates"
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

/// An open extract: a file, or standard output for `KIND=-`.
pub struct ExtractFile {
    pub kind: ExtractKind,
    sink: Target,
    games: u64,
    /// For the unique and duplicates extracts: every game's text, a frame
    /// each ([`Spill::write_frame`]), waiting for the verdicts.
    waiting: Option<Spill>,
}

enum Target {
    File(AtomicFile),
    /// Standard output; `gone` once its reader went away (`| head`): the
    /// rest of the extract is dropped, and the report is still written.
    Stdout {
        out: std::io::BufWriter<std::io::Stdout>,
        gone: bool,
    },
}

impl ExtractRequest {
    /// `FILE` is `-`: the extract goes to standard output.
    pub fn is_stdout(&self) -> bool {
        self.path.as_os_str() == "-"
    }
}

impl ExtractFile {
    /// Opens the extract and writes its first line, the marker a folder
    /// search recognises it by ([`extract_first_line`]).
    pub fn create(request: &ExtractRequest) -> Result<Self, OutputError> {
        let sink = if request.is_stdout() {
            Target::Stdout {
                out: std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
                gone: false,
            }
        } else {
            Target::File(AtomicFile::create(&request.path)?)
        };
        let waiting = match request.kind.needs_duplicates() {
            // Standard output's games wait in the system's temporary folder.
            true if request.is_stdout() => Some(Spill::create_in(&std::env::temp_dir())?),
            true => Some(Spill::create_for(&request.path)?),
            false => None,
        };
        let mut extract = ExtractFile {
            kind: request.kind,
            sink,
            games: 0,
            waiting,
        };
        extract.write(extract_first_line(request.kind.name()).as_bytes())?;
        Ok(extract)
    }

    /// Appends one game's original bytes, followed by a blank line when the
    /// game's own text does not already end with one, so that games stay
    /// apart.
    pub fn append(&mut self, game_text: &[u8]) -> Result<(), OutputError> {
        self.write(game_text)?;
        let line_ends = trailing_line_ends(game_text);
        if line_ends < 2 {
            self.write(&b"\n\n"[..2 - line_ends])?;
        }
        self.games += 1;
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        match &mut self.sink {
            Target::File(f) => f.write_all(bytes),
            Target::Stdout { gone: true, .. } => Ok(()),
            Target::Stdout { out, gone } => stdout_result(out.write_all(bytes), gone),
        }
    }

    pub fn games(&self) -> u64 {
        self.games
    }
}

/// A write to standard output: a reader that went away ends the extract
/// quietly (`gone`); any other failure is an error naming the stream.
fn stdout_result(result: std::io::Result<()>, gone: &mut bool) -> Result<(), OutputError> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            *gone = true;
            Ok(())
        }
        other => other.map_err(|e| OutputError::io("standard output", e)),
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

impl super::sink::Sink for ExtractFile {
    fn write(
        &mut self,
        chunk: super::sink::SinkChunk<'_>,
    ) -> Result<Option<super::sink::Encoded>, OutputError> {
        for g in chunk.facts {
            match (self.kind.takes(g), &mut self.waiting) {
                (Some(true), _) => self.append(&(chunk.game_text)(&g.span))?,
                (None, Some(spill)) => {
                    let text = (chunk.game_text)(&g.span);
                    spill.write_frame(&text)?;
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// The games that waited, each to this extract or not by its verdict.
    fn duplicates(&mut self, rows: &DuplicateRows) -> Result<(), OutputError> {
        let Some(spill) = self.waiting.take() else {
            return Ok(());
        };
        let mut frames = spill.into_reader()?.frames()?;
        let want_unique = self.kind == ExtractKind::Unique;
        let mut row = 0;
        while let Some(text) = frames.next_frame()? {
            if rows.is_unique(row) == want_unique {
                self.append(text)?;
            }
            row += 1;
        }
        Ok(())
    }

    /// The file, finished for the writer to rename into place; standard
    /// output is flushed.
    fn finish(
        self: Box<Self>,
        _summary: &super::summary::Summary,
    ) -> Result<Vec<FinishedFile>, OutputError> {
        if self.waiting.is_some() {
            return Err(OutputError::NoVerdicts {
                file: self.kind.name().to_string(),
            });
        }
        match self.sink {
            Target::File(f) => Ok(vec![f.finish()?]),
            Target::Stdout { gone: true, .. } => Ok(Vec::new()),
            Target::Stdout { mut out, mut gone } => {
                stdout_result(out.flush(), &mut gone).map(|()| Vec::new())
            }
        }
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
