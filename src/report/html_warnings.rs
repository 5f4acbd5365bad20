//! What report.html says of inputs that were not read whole: a banner at
//! the top of the page whenever the run is not complete, and each input's
//! warning beside it in the table of inputs.
//!
//! Both come from one function over an input's entry in `summary.json`
//! ([`input_warnings`]), so that the page says what the summary says; a new
//! kind of warning joins there.

use super::summary::InputSummary;
use std::fmt::Write;

/// Why an input was not read whole, or not read at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WarningKind {
    /// The input ended early (a compressed stream cut off, a read error):
    /// its games up to there are in the report.
    CutShort,
    /// Part of the input decoded to unreliable text (a checksum that
    /// failed): those games have status `damaged_input`.
    Damaged,
    /// Not PGN at all (an executable, an image, binary data): no games.
    NotPgn,
    /// A format pgnmill recognises but cannot read (a packed CCBridge
    /// library, a record file with a broken header): no games.
    Unsupported,
}

impl WarningKind {
    /// Every kind, in the banner's order.
    pub const ALL: [WarningKind; 4] = [
        WarningKind::CutShort,
        WarningKind::Damaged,
        WarningKind::NotPgn,
        WarningKind::Unsupported,
    ];

    /// The words after "N input(s)" in the banner.
    fn words(self) -> &'static str {
        match self {
            WarningKind::CutShort => "cut short",
            WarningKind::Damaged => "damaged",
            WarningKind::NotPgn => "refused as not PGN",
            WarningKind::Unsupported => "unsupported",
        }
    }
}

/// One warning of an input: its kind, and the text `summary.json` gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub kind: WarningKind,
    pub text: String,
}

/// The status of games read from damaged compressed data.
const DAMAGED_STATUS: &str = "damaged_input";

/// The warnings of one input, from its `summary.json` entry: games of
/// status `damaged_input` make it damaged (with the reason in `error`, if
/// any); otherwise an `error` means it was cut short. An `unsupported`
/// reason is a refusal: "not PGN" when the reason says so, unsupported
/// otherwise.
pub fn input_warnings(input: &InputSummary) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let damaged = input.status.get(DAMAGED_STATUS).copied().unwrap_or(0);
    if damaged > 0 {
        let text = match &input.error {
            Some(e) => e.clone(),
            None => format!("{damaged} game(s) read from damaged data"),
        };
        warnings.push(Warning {
            kind: WarningKind::Damaged,
            text,
        });
    } else if let Some(e) = &input.error {
        warnings.push(Warning {
            kind: WarningKind::CutShort,
            text: e.clone(),
        });
    } else if !input.complete {
        warnings.push(Warning {
            kind: WarningKind::CutShort,
            text: "not read to its end".into(),
        });
    }
    if let Some(why) = &input.unsupported {
        let kind = if why.contains("not PGN") {
            WarningKind::NotPgn
        } else {
            WarningKind::Unsupported
        };
        warnings.push(Warning {
            kind,
            text: why.clone(),
        });
    }
    warnings
}

/// The banner, when some input has a warning: how many inputs of each
/// kind, and where to read which.
pub fn banner(out: &mut String, inputs: &[InputSummary]) {
    let mut counts = [0u64; WarningKind::ALL.len()];
    for input in inputs {
        let mut kinds: Vec<WarningKind> = input_warnings(input).iter().map(|w| w.kind).collect();
        kinds.dedup();
        for kind in kinds {
            if let Some(n) = WarningKind::ALL
                .iter()
                .position(|k| *k == kind)
                .and_then(|i| counts.get_mut(i))
            {
                *n += 1;
            }
        }
    }
    let parts: Vec<String> = WarningKind::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(kind, n)| {
            let inputs = if n == 1 { "input" } else { "inputs" };
            format!(
                "<span class=\"{class}\">{n} {inputs} {words}</span>",
                class = css_class(*kind),
                words = kind.words()
            )
        })
        .collect();
    if parts.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<div id=\"banner\" class=\"banner\" role=\"alert\"><strong>This run is not \
         complete:</strong> {}. The figures below count only what was read; the \
         table of inputs says which input and why.</div>",
        parts.join(", ")
    );
}

/// The class of a kind's count in the banner (the browser test finds the
/// counts by it).
fn css_class(kind: WarningKind) -> &'static str {
    match kind {
        WarningKind::CutShort => "cut-short",
        WarningKind::Damaged => "damaged",
        WarningKind::NotPgn => "not-pgn",
        WarningKind::Unsupported => "unsupported",
    }
}

/// An input's warnings as one cell of text: each kind's words, then its
/// reason.
pub fn warning_cell(input: &InputSummary) -> String {
    input_warnings(input)
        .iter()
        .map(|w| format!("{}: {}", w.kind.words(), w.text))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether some input has a warning: the table of inputs then has a
/// column for them.
pub fn has_warnings(inputs: &[InputSummary]) -> bool {
    inputs.iter().any(|i| !input_warnings(i).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> InputSummary {
        InputSummary::new("x.pgn".into(), "UTF-8".into(), "none".into())
    }

    #[test]
    fn a_complete_input_has_no_warning() {
        assert!(input_warnings(&input()).is_empty());
        let mut out = String::new();
        banner(&mut out, &[input()]);
        assert!(out.is_empty());
    }

    /// Each field of the summary entry gives its kind; games of status
    /// `damaged_input` turn an error into damage.
    #[test]
    fn each_summary_field_gives_its_kind() {
        let mut cut = input();
        cut.broke_off("x.pgn.gz: stream ends early at byte 120".into());
        let mut damaged = input();
        damaged.broke_off("a.zip:b.pgn: checksum failed".into());
        damaged.status.insert(DAMAGED_STATUS, 3);
        let mut elf = input();
        elf.unsupported = Some("ELF executable, not PGN".into());
        let mut packed = input();
        packed.unsupported = Some("CCBridge file not read: packed library".into());
        let kinds = |i: &InputSummary| -> Vec<WarningKind> {
            input_warnings(i).iter().map(|w| w.kind).collect()
        };
        assert_eq!(kinds(&cut), [WarningKind::CutShort]);
        assert_eq!(kinds(&damaged), [WarningKind::Damaged]);
        assert_eq!(kinds(&elf), [WarningKind::NotPgn]);
        assert_eq!(kinds(&packed), [WarningKind::Unsupported]);
        assert_eq!(
            warning_cell(&damaged),
            "damaged: a.zip:b.pgn: checksum failed"
        );
        let mut out = String::new();
        banner(&mut out, &[cut, damaged, elf, packed, input()]);
        for words in [
            "1 input cut short",
            "1 input damaged",
            "1 input refused as not PGN",
            "1 input unsupported",
        ] {
            assert!(out.contains(words), "{words}: {out}");
        }
    }
}
