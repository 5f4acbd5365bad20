//! `report.html`: one self-contained page (no script, no network, no
//! font but the reader's own), written by hand from [`HtmlStats`] and the
//! run's [`Summary`]: the same input gives the same bytes (no clock, no
//! thread count, maps in key order). The charts are inline SVG
//! ([`super::html_chart`]); the numbers behind each chart follow it in a
//! table a person can copy.
//!
//! The page says only what holds for the games present: the en-passant
//! conventions, missed threefolds and castling are chess matters and are
//! left out of a report without chess games; xiangqi's outcomes appear
//! when it has xiangqi games. A run that did not read every input whole
//! says so at the top ([`super::html_warnings`]). At the width of a laptop
//! nothing is cut off or needs a scrollbar: long names and messages wrap.

use super::classes::TIME_CONTROL_CLASSES;
use super::columns::GAME_COLUMNS;
use super::duplicate_stage::DuplicateTotals;
use super::html_chart::{Bar, ChartText, Scale, bar_chart, chart_with_table};
use super::html_outcomes::outcome_section;
use super::html_stats::{Counts, HtmlStats, Tally};
use super::html_table::{esc, table};
use super::html_warnings::{banner, has_warnings, warning_cell};
use super::summary::Summary;
use crate::replay::Status;
use std::fmt::Write;

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

/// The chess games of a breakdown that have no class, and what they lack
/// (words after "N chess games").
struct Unknown<'a> {
    games: Tally,
    lack: &'a str,
}

/// A breakdown of missed threefolds: its chart (rate per class) and table,
/// the games without a class as the last row, `unknown`, when there are
/// any, with a sentence that says how many and why.
fn breakdown(
    out: &mut String,
    id: &str,
    title: &str,
    class: &str,
    mut rows: Vec<(String, Tally)>,
    unknown: Unknown<'_>,
) {
    let _ = write!(out, "<h3>{}</h3>", esc(title));
    if unknown.games.games > 0 {
        let _ = write!(
            out,
            "<p class=\"note\" id=\"unknown-{id}\">{} chess games {}: they are the row \
             <q>{UNKNOWN}</q>.</p>",
            unknown.games.games, unknown.lack
        );
        rows.push((UNKNOWN.to_string(), unknown.games));
    }
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
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, t)| tally_row(label.clone(), t))
        .collect();
    chart_with_table(
        out,
        &ChartText {
            id,
            title,
            axis: &format!("missed threefolds, % of the {class}'s chess games"),
        },
        Scale::percent(bars.iter().map(|b| b.value)),
        &bars,
        &[class, "games", "missed threefolds", "rate"],
        &cells,
    );
}

/// The label of the games without a class in a breakdown.
const UNKNOWN: &str = "unknown";

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

/// The length of the folder part that every name shares (up to and with
/// its last `/`), so that the page names inputs by what tells them apart.
fn common_folder(names: &[String]) -> usize {
    let Some(first) = names.first() else {
        return 0;
    };
    let mut len = first.rfind('/').map_or(0, |i| i + 1);
    for name in names {
        while len > 0
            && !(name.len() > len && name.as_bytes().get(..len) == first.as_bytes().get(..len))
        {
            len = first
                .get(..len - 1)
                .and_then(|f| f.rfind('/'))
                .map_or(0, |i| i + 1);
        }
    }
    len
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0 auto;max-width:64rem;padding:1rem;color:#222;line-height:1.4}\
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ccc}\
figure{margin:1rem 0}svg.chart{width:100%;height:auto;max-width:48rem;display:block}\
svg text{font-size:13px;fill:#222}svg .title{font-size:15px;font-weight:bold}\
svg rect{fill:#4a7bb7}svg .axis{stroke:#666}\
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}\
th,td{border:1px solid #ccc;padding:.2rem .5rem;text-align:right;vertical-align:top}thead th{background:#f2f2f2}\
tbody th{font-weight:normal}.text{text-align:left}\
.wrap{overflow-wrap:anywhere;min-width:8rem}\
p.note{color:#555}code{overflow-wrap:anywhere}\
.banner{border:2px solid #b3261e;background:#fdecea;padding:.6rem .8rem;margin:1rem 0}";

/// The page for a finished run.
pub fn render(stats: &HtmlStats, summary: &Summary, version: &str) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>pgnmill report</title><style>{STYLE}</style></head><body>\
         <h1>pgnmill report</h1>"
    );
    banner(&mut out, &summary.inputs);
    totals(&mut out, stats, summary, version);
    status_section(&mut out, stats, summary);
    outcome_section(&mut out, &summary.outcomes, stats);
    repetition_section(&mut out, stats);
    if stats.chess.games > 0 {
        missed_section(&mut out, stats);
        castling_section(&mut out, stats, summary);
    }
    if let Some(totals) = &summary.duplicates {
        duplicates_section(&mut out, totals, summary.games);
    }
    out.push_str("</body></html>\n");
    out
}

/// `--duplicates`: the copies by kind, in a table.
fn duplicates_section(out: &mut String, totals: &DuplicateTotals, games: u64) {
    let copies = totals.exact + totals.prefix + totals.transposition;
    let _ = write!(
        out,
        "<h2>Duplicates</h2><p><span id=\"duplicates\">{copies}</span> of {games} games copy \
         another (games.csv's <code>dup_of</code>, <code>dup_kind</code> and \
         <code>dup_headers</code>; each pair in duplicates.csv). A game of fewer than {min} plies \
         is a copy only of a game whose White, Black, Event, Site and Date agree. \
         <span id=\"unique\">{unique}</span> games are neither an exact copy nor a prefix of \
         another (what <code>--extract unique=</code> keeps).</p>",
        min = totals.min_plies,
        unique = totals.unique,
    );
    let kinds = [
        (
            "exact",
            "the same start and moves as an earlier game",
            totals.exact,
        ),
        (
            "prefix",
            "the moves are the start of a longer game's",
            totals.prefix,
        ),
        (
            "transposition",
            "the same final position and plies as an earlier game, by other moves",
            totals.transposition,
        ),
    ];
    let rows: Vec<Vec<String>> = kinds
        .iter()
        .map(|(kind, what, n)| {
            vec![
                (*kind).into(),
                (*what).into(),
                n.to_string(),
                rate(*n, games),
            ]
        })
        .collect();
    table(
        out,
        "duplicate-kinds",
        &["dup_kind", "meaning", "games", "share"],
        &rows,
    );
    if !totals.against.is_empty() {
        let _ = write!(
            out,
            "<p><span id=\"of-against\">{}</span> games copy a game of the collections read \
             with <code>--against</code>:</p>",
            totals.of_against
        );
        let rows: Vec<Vec<String>> = totals
            .against
            .iter()
            .map(|a| vec![a.source.clone(), a.games.to_string()])
            .collect();
        table(out, "against", &["collection", "games"], &rows);
    }
}

/// Games of `status` in a summary's count by status word.
fn status_count(counts: &std::collections::BTreeMap<&'static str, u64>, status: Status) -> u64 {
    counts.get(status.as_str()).copied().unwrap_or(0)
}

/// The opening paragraph: the run's totals, by kind of game.
fn totals(out: &mut String, stats: &HtmlStats, summary: &Summary, version: &str) {
    let _ = write!(
        out,
        "<p id=\"totals\">pgnmill {v}: <span id=\"games\">{g}</span> games in the report, \
         <span id=\"games-read\">{r}</span> read, from {n} input(s): \
         <span id=\"games-chess\">{c}</span> chess, <span id=\"games-xiangqi\">{x}</span> \
         xiangqi",
        v = esc(version),
        g = summary.games,
        r = summary.games_read,
        n = summary.inputs.len(),
        c = stats.chess.games,
        x = stats.xiangqi.games,
    );
    if stats.other_games > 0 {
        let _ = write!(
            out,
            ", <span id=\"games-other\">{}</span> of variants pgnmill does not replay",
            stats.other_games
        );
    }
    out.push('.');
    if stats.chess.games > 0 {
        let _ = write!(
            out,
            " Chess: <span id=\"missed\">{m}</span> missed threefolds (threefolds that \
             ep-always misses and ep-if-legal finds), <span id=\"castling-conflicts\">{c}</span> \
             castling conflicts.",
            m = summary.missed_threefolds,
            c = summary.castling_conflicts,
        );
    }
    out.push_str("</p>");
}

fn status_section(out: &mut String, stats: &HtmlStats, summary: &Summary) {
    out.push_str("<h2>Games by status</h2>");
    let bars: Vec<Bar> = Status::ALL
        .iter()
        .map(|s| Bar::count(s.as_str(), status_count(&summary.status, *s)))
        .collect();
    bar_chart(
        out,
        &ChartText {
            id: "chart-status",
            title: "Games by status, all inputs",
            axis: "games with this status",
        },
        Scale::counts(bars.iter().map(|b| b.value)),
        &bars,
    );
    let names: Vec<String> = stats.inputs.iter().map(|i| i.name.clone()).collect();
    let common = common_folder(&names);
    if common > 0 {
        let _ = write!(
            out,
            "<p class=\"note\">Inputs are named from the folder <code>{}</code>.</p>",
            esc(names
                .first()
                .and_then(|n| n.get(..common))
                .unwrap_or_default())
        );
    }
    let short = |name: &str| name.get(common..).unwrap_or(name).to_string();
    let warnings = has_warnings(&summary.inputs);
    let mut head = vec!["input", "games read", "games"];
    head.extend(Status::ALL.iter().map(|s| s.as_str()));
    if warnings {
        head.push("warning");
    }
    let mut rows: Vec<Vec<String>> = stats
        .inputs
        .iter()
        .zip(&summary.inputs)
        .map(|(i, s)| {
            let mut row = vec![
                short(&i.name),
                s.games_read.to_string(),
                s.games.to_string(),
            ];
            row.extend(
                Status::ALL
                    .iter()
                    .map(|st| status_count(&s.status, *st).to_string()),
            );
            if warnings {
                row.push(warning_cell(s));
            }
            row
        })
        .collect();
    let mut total = vec![
        "all inputs".to_string(),
        summary.games_read.to_string(),
        summary.games.to_string(),
    ];
    total.extend(
        Status::ALL
            .iter()
            .map(|st| status_count(&summary.status, *st).to_string()),
    );
    if warnings {
        total.push(String::new());
    }
    rows.push(total);
    table(out, "table-status", &head, &rows);
    out.push_str("<h3>Errors: the first games of each input that did not replay</h3>");
    let errors: Vec<Vec<String>> = stats
        .inputs
        .iter()
        .flat_map(|i| &i.errors)
        .map(|e| {
            vec![
                short(&e.source),
                e.game.to_string(),
                e.line.to_string(),
                e.status.as_str().to_string(),
                e.message.clone(),
            ]
        })
        .collect();
    if errors.is_empty() {
        // A damaged input's games are not errors, nor replayed whole.
        let note = if status_count(&summary.status, Status::DamagedInput) == 0 {
            "Every game replayed."
        } else {
            "Every game replayed but those of damaged inputs (the banner above)."
        };
        let _ = write!(out, "<p class=\"note\">{note}</p>");
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

/// One `rep_max` chart of `counts` at `keys`, on `scale`.
fn rep_chart(out: &mut String, text: &ChartText<'_>, scale: Scale, keys: &[u32], counts: &Counts) {
    let bars: Vec<Bar> = keys
        .iter()
        .map(|k| Bar::count(format!("rep_max {k}"), counts.get(*k)))
        .collect();
    bar_chart(out, text, scale, &bars);
}

/// The scale of the `rep_max` charts of `counts`, shown one under the
/// other: one scale for all, so that their bars compare.
fn rep_scale(counts: &[&Counts]) -> Scale {
    let values: Vec<f64> = counts
        .iter()
        .flat_map(|c| c.iter().map(|(_, n)| n as f64))
        .collect();
    Scale::spread_counts(values)
}

fn repetition_section(out: &mut String, stats: &HtmlStats) {
    if stats.chess.games == 0 && stats.xiangqi.games == 0 {
        return;
    }
    out.push_str(
        "<h2>Highest repetition count per game</h2><p class=\"note\">rep_max: the most times \
         any position occurred in the game (start position counted); games replayed from no \
         position are left out. Every count is written at the end of its bar.</p>",
    );
    if stats.chess.games > 0 {
        let (always, legal) = (&stats.chess.rep_ep_always, &stats.chess.rep_ep_legal);
        let keys: Vec<u32> = always
            .iter()
            .chain(legal.iter())
            .map(|(v, _)| v)
            .collect::<std::collections::BTreeSet<u32>>()
            .into_iter()
            .collect();
        let scale = rep_scale(&[always, legal]);
        let always_text = ChartText {
            id: "chart-rep-ep-always",
            title: "rep_max of chess games, ep-always",
            axis: "chess games with this rep_max, ep-always",
        };
        rep_chart(out, &always_text, scale, &keys, always);
        let legal_text = ChartText {
            id: "chart-rep-ep-legal",
            title: "rep_max of chess games, ep-if-legal",
            axis: "chess games with this rep_max, ep-if-legal",
        };
        rep_chart(out, &legal_text, scale, &keys, legal);
        let rows: Vec<Vec<String>> = keys
            .iter()
            .map(|k| {
                vec![
                    k.to_string(),
                    always.get(*k).to_string(),
                    legal.get(*k).to_string(),
                ]
            })
            .collect();
        table(
            out,
            "table-rep-max",
            &[
                "rep_max",
                "chess games, ep-always",
                "chess games, ep-if-legal",
            ],
            &rows,
        );
    }
    if stats.xiangqi.games > 0 {
        // Xiangqi has no en passant: its two conventions agree.
        let counts = &stats.xiangqi.rep_ep_legal;
        let keys: Vec<u32> = counts.iter().map(|(v, _)| v).collect();
        let text = ChartText {
            id: "chart-rep-xiangqi",
            title: "rep_max of xiangqi games",
            axis: "xiangqi games with this rep_max",
        };
        rep_chart(out, &text, rep_scale(&[counts]), &keys, counts);
        let rows: Vec<Vec<String>> = counts
            .iter()
            .map(|(k, n)| vec![k.to_string(), n.to_string()])
            .collect();
        table(
            out,
            "table-rep-max-xiangqi",
            &["rep_max", "xiangqi games"],
            &rows,
        );
    }
}

fn missed_section(out: &mut String, stats: &HtmlStats) {
    out.push_str(
        "<h2>Missed threefolds</h2><p class=\"note\">Chess games only, each counted under its \
         class or as unknown.</p>",
    );
    if !stats.has_time_control || !stats.has_ratings {
        out.push_str(
            "<p class=\"note\">The breakdowns by time control and by rating need the \
             TimeControl, WhiteElo and BlackElo tags as columns: <code>--tags lichess</code> \
             or <code>--tags TimeControl,WhiteElo,BlackElo</code>.</p>",
        );
    }
    if stats.has_time_control {
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
            rows,
            Unknown {
                games: stats.time_control_unknown,
                lack: "have no TimeControl of the form BASE+INC",
            },
        );
    }
    if stats.has_ratings {
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
            rows,
            Unknown {
                games: stats.rating_unknown,
                lack: "lack a number in WhiteElo or BlackElo",
            },
        );
    }
    if !stats.by_time_control_and_band.is_empty() {
        out.push_str(
            "<h3>Missed threefolds by time-control class and rating band</h3><p class=\"note\">\
             Games with both a class and a band.</p>",
        );
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
    let rows: Vec<(String, Tally)> = stats.years().map(|(y, t)| (format!("{y:04}"), t)).collect();
    breakdown(
        out,
        "missed-year",
        "Missed threefolds by year (Date, else UTCDate)",
        "year",
        rows,
        Unknown {
            games: stats.year_unknown,
            lack: "have no year in Date or UTCDate",
        },
    );
}

fn castling_section(out: &mut String, stats: &HtmlStats, summary: &Summary) {
    let (games, have) = match summary.castling_conflicts {
        1 => ("game", "has"),
        _ => ("games", "have"),
    };
    let _ = write!(
        out,
        "<h2>Castling conflicts</h2><p>{} {games} {have} a [FEN] castling field that \
         contradicts the board (castling.csv has them all).</p>",
        summary.castling_conflicts
    );
    if stats.castling.is_empty() {
        return;
    }
    let common = common_folder(
        &stats
            .inputs
            .iter()
            .map(|i| i.name.clone())
            .collect::<Vec<_>>(),
    );
    let rows: Vec<Vec<String>> = stats
        .castling
        .iter()
        .map(|c| {
            vec![
                c.source.get(common..).unwrap_or(&c.source).to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_at_the_folder_they_share() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(common_folder(&names(&["a/b/c.pgn", "a/b/d/e.pgn"])), 4);
        assert_eq!(common_folder(&names(&["a/b/c.pgn"])), 4);
        assert_eq!(common_folder(&names(&["a/bc.pgn", "a/b/c.pgn"])), 2);
        assert_eq!(common_folder(&names(&["ab/c.pgn", "a/c.pgn"])), 0);
        assert_eq!(common_folder(&names(&["-", "a/c.pgn"])), 0);
        assert_eq!(common_folder(&names(&["/x/a.zip:m/n.pgn", "/x/b.pgn"])), 3);
        assert_eq!(common_folder(&[]), 0);
    }
}
