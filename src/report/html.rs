//! `report.html`: one self-contained page (no script, no network, no
//! font but the reader's own), written by hand from [`HtmlStats`]: the
//! same input gives the same bytes (no clock, no thread count, maps in key
//! order). Every chart is inline SVG drawn on a fixed grid in its own
//! coordinates (`viewBox`), scaled to the page's width, so its labels keep
//! their places on a laptop and on a phone; the numbers behind each chart
//! follow it in a table a person can copy.

use super::classes::TIME_CONTROL_CLASSES;
use super::columns::GAME_COLUMNS;
use super::html_stats::{HtmlStats, Tally};
use crate::replay::Status;
use std::fmt::Write;

/// `text` with `&`, `<`, `>` and `"` escaped.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// `part` of `whole` in percent, two decimals; `-` of nothing.
fn rate(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2} %", part as f64 * 100.0 / whole as f64)
    }
}

/// A table row of a class's tally: its label, games, missed threefolds and
/// their rate.
fn tally_row(label: String, t: &Tally) -> Vec<String> {
    vec![
        label,
        t.games.to_string(),
        t.missed.to_string(),
        rate(t.missed, t.games),
    ]
}

/// One bar of a chart: its label, its length, and the text at its end.
struct Bar {
    label: String,
    value: f64,
    text: String,
}

/// Width of the chart's own coordinates; it is drawn at the page's width.
const WIDTH: f64 = 640.0;
const LABEL_W: f64 = 150.0;
const BAR_AREA: f64 = 380.0;
const ROW_H: f64 = 24.0;

/// A horizontal bar chart: a title, a label per row at its left, the bar,
/// its number at its right end, and an x axis with its label.
fn bar_chart(out: &mut String, id: &str, title: &str, x_label: &str, bars: &[Bar]) {
    let max = bars.iter().map(|b| b.value).fold(0.0, f64::max);
    let height = 40.0 + ROW_H * bars.len() as f64 + 44.0;
    let _ = write!(
        out,
        "<figure><svg id=\"{id}\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"{id}-title\">\
         <title id=\"{id}-title\">{t}</title>\
         <text class=\"title\" x=\"{x}\" y=\"22\" text-anchor=\"middle\">{t}</text>",
        x = WIDTH / 2.0,
        t = esc(title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = 40.0 + ROW_H * i as f64;
        let w = if max > 0.0 {
            b.value / max * BAR_AREA
        } else {
            0.0
        };
        let _ = write!(
            out,
            "<text class=\"label\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{l}</text>\
             <rect x=\"{LABEL_W}\" y=\"{ry}\" width=\"{w:.1}\" height=\"{h}\" data-value=\"{v}\"/>\
             <text class=\"value\" x=\"{vx:.1}\" y=\"{ty}\">{tx}</text>",
            lx = LABEL_W - 8.0,
            ty = y + 16.0,
            l = esc(&b.label),
            ry = y + 4.0,
            h = ROW_H - 8.0,
            v = b.value,
            vx = LABEL_W + w + 6.0,
            tx = esc(&b.text)
        );
    }
    let axis_y = 40.0 + ROW_H * bars.len() as f64 + 4.0;
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{LABEL_W}\" y1=\"{axis_y}\" x2=\"{x2}\" y2=\"{axis_y}\"/>",
        x2 = LABEL_W + BAR_AREA
    );
    for k in 0..=2 {
        let v = max * f64::from(k) / 2.0;
        let x = LABEL_W + BAR_AREA * f64::from(k) / 2.0;
        let _ = write!(
            out,
            "<line class=\"axis\" x1=\"{x}\" y1=\"{axis_y}\" x2=\"{x}\" y2=\"{y2}\"/>\
             <text class=\"tick\" x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\">{v}</text>",
            y2 = axis_y + 4.0,
            ty = axis_y + 17.0,
            v = tick(v)
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis-label\" x=\"{x}\" y=\"{y}\" text-anchor=\"middle\">{l}</text></svg></figure>",
        x = LABEL_W + BAR_AREA / 2.0,
        y = axis_y + 36.0,
        l = esc(x_label)
    );
}

/// A tick's number: whole numbers as such, others with two decimals.
fn tick(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v}")
    } else {
        format!("{v:.2}")
    }
}

/// A table with a header row; the first cell of each row is a header.
fn table(out: &mut String, id: &str, head: &[&str], rows: &[Vec<String>]) {
    let _ = write!(out, "<div class=\"scroll\"><table id=\"{id}\"><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            let _ = write!(out, "<{tag}>{}</{tag}>", esc(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// A breakdown of missed threefolds: its chart (rate per class) and table.
fn breakdown(out: &mut String, id: &str, title: &str, class: &str, rows: &[(String, Tally)]) {
    let _ = write!(out, "<h3>{}</h3>", esc(title));
    let bars: Vec<Bar> = rows
        .iter()
        .map(|(label, t)| Bar {
            label: label.clone(),
            value: if t.games > 0 {
                t.missed as f64 * 100.0 / t.games as f64
            } else {
                0.0
            },
            text: format!("{} of {}", t.missed, t.games),
        })
        .collect();
    bar_chart(
        out,
        &format!("chart-{id}"),
        title,
        "missed threefolds, % of the class's games",
        &bars,
    );
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, t)| tally_row(label.clone(), t))
        .collect();
    table(
        out,
        &format!("table-{id}"),
        &[class, "games", "missed threefolds", "rate"],
        &rows,
    );
}

fn band_name(lo: u32) -> String {
    format!("{lo}-{}", lo + 199)
}

fn class_name(tc: u8) -> String {
    TIME_CONTROL_CLASSES
        .get(usize::from(tc))
        .copied()
        .unwrap_or("?")
        .to_string()
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#222;line-height:1.4}\
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}\
figure{margin:1rem 0}svg.chart{width:100%;height:auto;max-width:48rem;display:block}\
svg text{font-size:13px;fill:#222}svg .title{font-size:15px;font-weight:bold}\
svg rect{fill:#4a7bb7}svg rect.legal{fill:#e08a2c}svg .axis{stroke:#666}\
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}\
th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right}thead th{background:#f2f2f2}\
tbody th{text-align:left;font-weight:normal}td.text{text-align:left}\
p.note{color:#555}";

/// The page for a finished run.
pub fn render(stats: &HtmlStats, version: &str) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>pgnmill report</title><style>{STYLE}</style></head><body>\
         <h1>pgnmill report</h1><p id=\"totals\">pgnmill {v}: <span id=\"games\">{g}</span> games \
         in the report, <span id=\"games-read\">{r}</span> read, from {n} input(s); \
         <span id=\"missed\">{m}</span> missed threefolds (threefolds that ep-always misses \
         and ep-if-legal finds), <span id=\"castling-conflicts\">{c}</span> castling conflicts.</p>",
        v = esc(version),
        g = stats.games,
        r = stats.games_read,
        n = stats.inputs.len(),
        m = stats.missed,
        c = stats.castling_conflicts,
    );
    status_section(&mut out, stats);
    repetition_section(&mut out, stats);
    missed_section(&mut out, stats);
    castling_section(&mut out, stats);
    out.push_str("</body></html>\n");
    out
}

fn status_section(out: &mut String, stats: &HtmlStats) {
    out.push_str("<h2>Games by status</h2>");
    let bars: Vec<Bar> = Status::ALL
        .iter()
        .zip(stats.by_status)
        .map(|(s, n)| Bar {
            label: s.as_str().into(),
            value: n as f64,
            text: n.to_string(),
        })
        .collect();
    bar_chart(
        out,
        "chart-status",
        "Games by status, all inputs",
        "games",
        &bars,
    );
    let mut head = vec!["input", "games read", "games"];
    head.extend(Status::ALL.iter().map(|s| s.as_str()));
    let mut rows: Vec<Vec<String>> = stats
        .inputs
        .iter()
        .map(|i| {
            let mut row = vec![
                i.name.clone(),
                i.games_read.to_string(),
                i.by_status.iter().sum::<u64>().to_string(),
            ];
            row.extend(i.by_status.iter().map(u64::to_string));
            row
        })
        .collect();
    let mut total = vec![
        "all inputs".to_string(),
        stats.games_read.to_string(),
        stats.games.to_string(),
    ];
    total.extend(stats.by_status.iter().map(u64::to_string));
    rows.push(total);
    table(out, "table-status", &head, &rows);
    out.push_str("<h3>Errors: the first games of each input that did not replay</h3>");
    let errors: Vec<Vec<String>> = stats
        .inputs
        .iter()
        .flat_map(|i| &i.errors)
        .map(|e| {
            vec![
                e.source.clone(),
                e.game.to_string(),
                e.line.to_string(),
                e.status.as_str().to_string(),
                e.message.clone(),
            ]
        })
        .collect();
    if errors.is_empty() {
        out.push_str("<p class=\"note\">Every game replayed.</p>");
    } else {
        // The column names of games.csv, so that a reader finds the rows.
        let name = |i: usize| GAME_COLUMNS.get(i).map_or("", |c| c.name.as_ref());
        table(
            out,
            "table-errors",
            &[name(0), name(1), name(3), name(22), name(23)],
            &errors,
        );
    }
}

fn repetition_section(out: &mut String, stats: &HtmlStats) {
    out.push_str(
        "<h2>Highest repetition count per game</h2><p class=\"note\">rep_max: the most times \
         any position occurred in the game (start position counted), under each en-passant \
         convention; games replayed from no position are left out.</p>",
    );
    let keys: std::collections::BTreeSet<u32> = stats
        .rep_ep_always
        .iter()
        .chain(stats.rep_ep_legal.iter())
        .map(|(v, _)| v)
        .collect();
    for (id, title, map) in [
        ("rep-ep-always", "rep_max, ep-always", &stats.rep_ep_always),
        ("rep-ep-legal", "rep_max, ep-if-legal", &stats.rep_ep_legal),
    ] {
        let bars: Vec<Bar> = keys
            .iter()
            .map(|k| {
                let n = map.get(*k);
                Bar {
                    label: format!("rep_max {k}"),
                    value: n as f64,
                    text: n.to_string(),
                }
            })
            .collect();
        bar_chart(out, &format!("chart-{id}"), title, "games", &bars);
    }
    let rows: Vec<Vec<String>> = keys
        .iter()
        .map(|k| {
            vec![
                k.to_string(),
                stats.rep_ep_always.get(*k).to_string(),
                stats.rep_ep_legal.get(*k).to_string(),
            ]
        })
        .collect();
    table(
        out,
        "table-rep-max",
        &["rep_max", "games, ep-always", "games, ep-if-legal"],
        &rows,
    );
}

fn missed_section(out: &mut String, stats: &HtmlStats) {
    out.push_str("<h2>Missed threefolds</h2>");
    let any = !stats.by_time_control.is_empty()
        || !stats.by_rating_band.is_empty()
        || stats.years().next().is_some();
    if !any {
        out.push_str("<p class=\"note\">No game has a Date, TimeControl or rating to break them down by.</p>");
    }
    if stats.by_time_control.is_empty() || stats.by_rating_band.is_empty() {
        out.push_str(
            "<p class=\"note\">The breakdowns by time control and by rating need the \
             TimeControl, WhiteElo and BlackElo tags as columns: <code>--tags lichess</code> \
             or <code>--tags TimeControl,WhiteElo,BlackElo</code>.</p>",
        );
    }
    if !stats.by_time_control.is_empty() {
        let rows: Vec<(String, Tally)> = stats
            .by_time_control
            .iter()
            .map(|(k, t)| (class_name(*k), *t))
            .collect();
        breakdown(
            out,
            "missed-time-control",
            "Missed threefolds by time-control class",
            "time-control class",
            &rows,
        );
    }
    if !stats.by_rating_band.is_empty() {
        let rows: Vec<(String, Tally)> = stats
            .by_rating_band
            .iter()
            .map(|(k, t)| (band_name(*k), *t))
            .collect();
        breakdown(
            out,
            "missed-rating-band",
            "Missed threefolds by rating band (mean of WhiteElo and BlackElo)",
            "rating band",
            &rows,
        );
    }
    if !stats.by_time_control_and_band.is_empty() {
        out.push_str("<h3>Missed threefolds by time-control class and rating band</h3>");
        let rows: Vec<Vec<String>> = stats
            .by_time_control_and_band
            .iter()
            .map(|((tc, band), t)| {
                tally_row(format!("{} {}", class_name(*tc), band_name(*band)), t)
            })
            .collect();
        table(
            out,
            "table-missed-time-control-band",
            &["class and band", "games", "missed threefolds", "rate"],
            &rows,
        );
    }
    if stats.years().next().is_some() {
        let rows: Vec<(String, Tally)> =
            stats.years().map(|(y, t)| (format!("{y:04}"), t)).collect();
        breakdown(
            out,
            "missed-year",
            "Missed threefolds by year (Date tag)",
            "year",
            &rows,
        );
    }
}

fn castling_section(out: &mut String, stats: &HtmlStats) {
    let _ = write!(
        out,
        "<h2>Castling conflicts</h2><p>{} games have a [FEN] castling field that \
         contradicts the board (castling.csv has them all).</p>",
        stats.castling_conflicts
    );
    if stats.castling.is_empty() {
        return;
    }
    let rows: Vec<Vec<String>> = stats
        .castling
        .iter()
        .map(|c| {
            vec![
                c.source.clone(),
                c.game.to_string(),
                c.line.to_string(),
                c.invalid.clone(),
                c.reason.clone(),
            ]
        })
        .collect();
    table(
        out,
        "table-castling",
        &["source", "game", "line", "invalid", "reason"],
        &rows,
    );
}
