//! Tables of report.html: a header row, a header cell first in each row,
//! numbers right-aligned and text left, long text that may break; and the
//! escaping every piece of text on the page goes through.

use std::fmt::Write;

use super::csv_rows::is_control;

/// `text` with `&`, `<`, `>` and `"` escaped, and control characters
/// written as U+FFFD (docs/reports.md, "Control bytes").
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // As in games.csv: a raw control character is a parse error
            // in HTML, and an escape sequence has no place on a page.
            c if c.is_ascii() && is_control(c as u8) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Whether a cell holds a number (a count, a rate, `-`): numbers are
/// right-aligned, text left-aligned.
fn is_number(cell: &str) -> bool {
    !cell.is_empty()
        && cell
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b' ' | b'%' | b'-'))
}

/// Cells longer than this (names, messages) may break anywhere, after a
/// `/` first; shorter ones (status words, classes) never break inside a
/// word, so that a narrow column does not cut `unsupported` in two.
const WRAP_FROM: usize = 24;

/// A cell's escaped text and its class: `text` for words, `text wrap`
/// for long text, none for numbers.
fn cell(text: &str) -> (String, &'static str) {
    if is_number(text) {
        (esc(text), "")
    } else if text.chars().count() > WRAP_FROM {
        (esc(text).replace('/', "/<wbr>"), " class=\"text wrap\"")
    } else {
        (esc(text), " class=\"text\"")
    }
}

/// A table with a header row; the first cell of each row is a header.
/// Header words joined by `_` (status names) may break after it; a column
/// of text has its header on the left, as its cells.
pub fn table(out: &mut String, id: &str, head: &[&str], rows: &[Vec<String>]) {
    let _ = write!(out, "<div class=\"scroll\"><table id=\"{id}\"><thead><tr>");
    for (i, h) in head.iter().enumerate() {
        let numbers = rows
            .iter()
            .filter_map(|r| r.get(i))
            .all(|c| is_number(c) || c.is_empty());
        let class = if i == 0 || !numbers {
            " class=\"text\""
        } else {
            ""
        };
        let _ = write!(out, "<th{class}>{}</th>", esc(h).replace('_', "_<wbr>"));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (i, text) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            let (text, class) = match cell(text) {
                (text, "") if i == 0 => (text, " class=\"text\""),
                other => other,
            };
            let _ = write!(out, "<{tag}{class}>{text}</{tag}>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}
