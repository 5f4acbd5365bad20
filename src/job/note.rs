//! What a run says to its user while it goes, beside its output: the
//! library hands each note to the caller, which prints it (the command
//! line, on stderr) or raises it (the Python package, as a warning).

use crate::report::unread::{Read, Unread};
use crate::source::{Input, NewDamage};

/// One thing a run has to say, in words ready to print after `pgnmill: `
/// and the kind's word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobNote {
    pub kind: NoteKind,
    pub text: String,
}

/// How much a note matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    /// Something of an input was not read: a damaged or refused input,
    /// a file passed over. `--strict` fails the run on these.
    Warning,
    /// A game, or one of its variations, could not be processed to its
    /// end; the run goes on and its output says where.
    Stopped,
    /// For information only (a game copied unchanged); `--quiet` drops it.
    Info,
}

impl JobNote {
    pub(crate) fn warning(text: impl Into<String>) -> Self {
        JobNote {
            kind: NoteKind::Warning,
            text: text.into(),
        }
    }

    pub(crate) fn stopped(text: impl Into<String>) -> Self {
        JobNote {
            kind: NoteKind::Stopped,
            text: text.into(),
        }
    }

    pub(crate) fn info(text: impl Into<String>) -> Self {
        JobNote {
            kind: NoteKind::Info,
            text: text.into(),
        }
    }
}

/// Counts how far `input` was read into `unread`, and warns of an input
/// refused whole; `lost` says what that means for the output.
pub(crate) fn account_for(
    unread: &mut Unread,
    input: &Input,
    read: &Read,
    lost: &str,
    notes: &mut dyn FnMut(JobNote),
) {
    match read {
        Read::Refused(why) => notes(JobNote::warning(format!(
            "{}: {why}; {lost}",
            input.path.display()
        ))),
        Read::NoText(why) => notes(JobNote::warning(why.clone())),
        Read::Whole | Read::Incomplete => {}
    }
    unread.add(read);
}

/// Warns of each stretch of a text its compressed data does not vouch for
/// that `damage` has not said yet (a gzip or zip member whose checksum
/// fails: known when the input is opened; a frame of a `.zst` that fails:
/// found as the text is read), as `report` does; the input is then not
/// read whole (`read`).
pub(crate) fn note_damage(damage: &mut NewDamage, read: &mut Read, notes: &mut dyn FnMut(JobNote)) {
    let found = damage.take();
    for damage in &found {
        notes(JobNote::warning(damage.why.clone()));
    }
    if !found.is_empty() {
        *read = Read::Incomplete;
    }
}
