//! What report.html says of inputs that were not read whole: a banner at
//! the top of the page whenever the run is not complete, and each input's
//! warning beside it in the table of inputs.
//!
//! Both come from one function over an input's entry in `summary.json`
//! ([`input_warnings`]), so that the page says what the summary says; a new
//! kind of warning joins there.

use super::summary::{InputSummary, InputWarning, WarningKind};
use std::fmt::Write;

/// The words after "N input(s)" in the banner.
fn words(kind: WarningKind) -> &'static str {
    match kind {
        WarningKind::CutShort => "cut short",
        WarningKind::Damaged => "damaged",
        WarningKind::NotPgn => "refused as not PGN",
        WarningKind::Unsupported => "unsupported",
        WarningKind::NoText => "decoding to no text",
    }
}

/// The warnings of one input: those of its `summary.json` entry.
pub fn input_warnings(input: &InputSummary) -> &[InputWarning] {
    &input.warnings
}

/// The banner, when some input has a warning: how many inputs of each
/// kind, and where to read which.
pub fn banner(out: &mut String, inputs: &[InputSummary]) {
    let mut counts = [0u64; WarningKind::ALL.len()];
    for input in inputs {
        let mut kinds: Vec<WarningKind> = input_warnings(input).iter().map(|w| w.kind).collect();
        kinds.sort();
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
                words = words(*kind)
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
        WarningKind::NoText => "no-text",
    }
}

/// An input's warnings as one cell of text: each kind's words, then its
/// reason.
pub fn warning_cell(input: &InputSummary) -> String {
    input_warnings(input)
        .iter()
        .map(|w| format!("{}: {}", words(w.kind), w.message))
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

    /// Each kind of warning is counted in the banner and named in the
    /// input's cell.
    #[test]
    fn each_kind_is_counted_and_named() {
        let mut cut = input();
        cut.broke_off("x.pgn.gz: stream ends early at byte 120".into());
        let mut damaged = input();
        damaged.damaged("a.zip:b.pgn: checksum failed".into());
        let mut elf = input();
        elf.warn(WarningKind::NotPgn, "ELF executable, not PGN".into());
        let mut packed = input();
        packed.warn(
            WarningKind::Unsupported,
            "CCBridge file not read: packed library".into(),
        );
        let mut empty = input();
        empty.warn(WarningKind::NoText, "e.zst: decodes to no text".into());
        assert_eq!(
            warning_cell(&damaged),
            "damaged: a.zip:b.pgn: checksum failed"
        );
        let mut out = String::new();
        banner(&mut out, &[cut, damaged, elf, packed, empty, input()]);
        for words in [
            "1 input cut short",
            "1 input damaged",
            "1 input refused as not PGN",
            "1 input unsupported",
            "1 input decoding to no text",
        ] {
            assert!(out.contains(words), "{words}: {out}");
        }
    }
}
