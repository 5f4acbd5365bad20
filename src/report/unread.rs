//! `--strict` (report, convert, fen; `strict=True` in Python): the output
//! is written as always, and the run fails when something the user named
//! was not read whole, so that a script notices what a person would read
//! in the warnings.

use super::summary::{InputWarning, Summary, WarningKind};

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
    /// Its compressed data decodes to no text (said in a warning).
    NoText(String),
}

impl Unread {
    /// What a finished report could not read: each input by its warnings,
    /// and the symbolic links its folder search found leading nowhere.
    pub fn of_report(summary: &Summary) -> Unread {
        let mut unread = Unread {
            dangling_links: summary.skipped.dangling_links.len(),
            ..Unread::default()
        };
        for input in &summary.inputs {
            unread.add_warnings(&input.warnings);
        }
        unread
    }

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
            Read::NoText(_) => self.empty += 1,
        }
    }

    /// The closing line of a run that did not read everything, in at most
    /// 80 columns: `inputs not read whole: 2 cut short or damaged, 1
    /// refused`; `None` when everything was read.
    pub fn brief(&self) -> Option<String> {
        let parts = self.counted([
            "cut short or damaged",
            "refused",
            "no text",
            "broken link(s)",
        ]);
        (!parts.is_empty()).then(|| format!("inputs not read whole: {}", parts.join(", ")))
    }

    /// `N words` for each kind counted (incomplete, refused, empty,
    /// dangling links, in that order) whose count is not zero.
    fn counted(&self, words: [&str; 4]) -> Vec<String> {
        [
            self.incomplete,
            self.refused,
            self.empty,
            self.dangling_links,
        ]
        .iter()
        .zip(words)
        .filter(|(n, _)| **n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect()
    }

    /// An error (one line that counts each kind: the command line exits 1
    /// with it) when anything was not read; `written` says what was
    /// written all the same.
    pub fn check(self, written: &str) -> Result<(), String> {
        let parts = self.counted([
            "input(s) were cut short or damaged",
            "input(s) were not read at all",
            "input(s) decode to no text",
            "symbolic link(s) lead nowhere",
        ]);
        if parts.is_empty() {
            return Ok(());
        }
        Err(format!(
            "--strict: {} (see the warnings above); {written}",
            parts.join(", ")
        ))
    }
}
