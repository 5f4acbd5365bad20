//! `--strict` (report, convert, fen): the output is written as always, and
//! the run exits 1 when something the user named was not read whole, so
//! that a script notices what a person would read in the warnings.

use super::CliError;
use pgnmill::report::summary::{InputWarning, WarningKind};

/// What a run could not read, counted for `--strict`.
#[derive(Debug, Default, Clone, Copy)]
pub struct Unread {
    /// Inputs read only part of the way (truncated, damaged, a read error).
    pub incomplete: usize,
    /// Inputs refused whole: binary data, a format the command does not
    /// read.
    pub refused: usize,
    /// Inputs whose compressed data decodes to no text.
    pub empty: usize,
    /// Symbolic links under the folders named that lead nowhere.
    pub dangling_links: usize,
}

/// How far one input was read.
pub enum Read {
    Whole,
    /// Up to a break (said in a warning): what was read is in the output.
    Incomplete,
    /// Not at all, and why: nothing of it is in the output.
    Refused(String),
}

impl Unread {
    /// Counts one input of a report by its warnings (summary.json's):
    /// the worst of them.
    pub fn add_warnings(&mut self, warnings: &[InputWarning]) {
        let kinds = || warnings.iter().map(|w| w.kind);
        if kinds().any(WarningKind::read_in_part) {
            self.incomplete += 1;
        } else if kinds().any(|k| matches!(k, WarningKind::NotPgn | WarningKind::Unsupported)) {
            self.refused += 1;
        } else if kinds().any(|k| k == WarningKind::NoText) {
            self.empty += 1;
        }
    }

    /// Counts one input.
    pub fn add(&mut self, read: &Read) {
        match read {
            Read::Whole => {}
            Read::Incomplete => self.incomplete += 1,
            Read::Refused(_) => self.refused += 1,
        }
    }

    /// Exit 1 (with one line that counts each kind) when anything was not
    /// read; `written` says what was written all the same.
    pub fn check(self, written: &str) -> Result<(), CliError> {
        let parts: Vec<String> = [
            (self.incomplete, "input(s) could not be read to their end"),
            (self.refused, "input(s) were not read at all"),
            (self.empty, "input(s) decode to no text"),
            (self.dangling_links, "symbolic link(s) lead nowhere"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        if parts.is_empty() {
            return Ok(());
        }
        Err(CliError::Failed(format!(
            "--strict: {} (see the warnings above); {written}",
            parts.join(", ")
        )))
    }
}
