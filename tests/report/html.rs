//! report.html, rendered by a real browser (headless Chromium, Debian's
//! `chromium`, installed by `.ci/run`): the DOM it builds holds the charts
//! and the tables with the numbers of testdata/expected/research.json
//! (python-chess's missed threefolds, classes computed in Python).
//!
//! Without `chromium` on PATH the browser tests fail in CI (`CI=true`) and
//! are skipped with a note elsewhere.

use crate::support::{root, run_report};
use std::path::Path;
use std::process::Command;

pub fn chromium() -> Option<&'static str> {
    let found = Command::new("chromium").arg("--version").output().is_ok();
    if found {
        return Some("chromium");
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but chromium is not installed (.ci/run installs it)"
    );
    eprintln!("note: chromium not found: report.html browser test skipped");
    None
}

/// The DOM Chromium builds from `page`.
pub fn dump_dom(browser: &str, page: &Path) -> String {
    render_dom(browser, page, &[])
}

/// The DOM Chromium builds from `page`, given `extra` arguments (a
/// window size).
pub fn render_dom(browser: &str, page: &Path, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new(browser)
        .args(extra)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of an element's HTML: `<wbr>` dropped, entities resolved.
pub fn unescape(html: &str) -> String {
    html.replace("<wbr>", "")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The rows of table `id` in `dom`, each as its cells' text.
pub fn table(dom: &str, id: &str) -> Vec<Vec<String>> {
    let start = dom
        .find(&format!("<table id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = dom[start..]
        .find("</table>")
        .map_or(dom.len(), |e| start + e);
    let body = &dom[start..end];
    let body = body.split("<tbody>").nth(1).unwrap_or_default();
    let cell = regex::Regex::new(r"<t[hd][^>]*>(.*?)</t[hd]>").expect("regex");
    body.split("<tr>")
        .skip(1)
        .map(|row| cell.captures_iter(row).map(|c| unescape(&c[1])).collect())
        .collect()
}

/// The bars of chart `id`: their `data-value`s.
pub fn bars(dom: &str, id: &str) -> Vec<f64> {
    let start = dom
        .find(&format!("<svg id=\"{id}\""))
        .unwrap_or_else(|| panic!("no chart {id}"));
    let end = dom[start..].find("</svg>").map_or(dom.len(), |e| start + e);
    let value = regex::Regex::new(r#"data-value="([0-9.]+)""#).expect("regex");
    value
        .captures_iter(&dom[start..end])
        .map(|c| c[1].parse().unwrap_or(f64::NAN))
        .collect()
}

fn expected() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("testdata/expected/research.json"))
        .expect("research.json");
    serde_json::from_str(&text).expect("json")
}

/// The rows a breakdown table should hold for `want` (a research.json
/// breakdown): class, games, missed, rate.
fn breakdown_rows(want: &serde_json::Value, order: &[&str]) -> Vec<Vec<String>> {
    order
        .iter()
        .filter_map(|k| want.get(*k).map(|t| (k, t)))
        .map(|(k, t)| {
            let games = t["games"].as_u64().unwrap_or(0);
            let missed = t["missed"].as_u64().unwrap_or(0);
            vec![
                k.to_string(),
                games.to_string(),
                missed.to_string(),
                format!("{:.2} %", missed as f64 * 100.0 / games as f64),
            ]
        })
        .collect()
}

#[test]
fn browser_dom_holds_the_charts_and_numbers() {
    let Some(browser) = chromium() else { return };
    let (_tmp, out) = run_report(&["testdata/research/lichess-style.pgn", "--tags", "lichess"]);
    let dom = dump_dom(browser, &out.join("report.html"));
    let want = &expected()["lichess_style"];
    // The games without a class are the last row, "unknown".
    let classes = ["ultrabullet", "bullet", "blitz", "rapid", "classical"];
    let tc = table(&dom, "table-missed-time-control");
    let with_unknown = [&classes[..], &["unknown"]].concat();
    assert_eq!(tc, breakdown_rows(&want["by_time_control"], &with_unknown));
    let mut bands: Vec<String> = want["by_rating_band"]
        .as_object()
        .expect("bands")
        .keys()
        .cloned()
        .collect();
    bands.sort_by_key(|b| {
        let lo = b.split('-').next().and_then(|n| n.parse::<u32>().ok());
        (lo.is_none(), lo)
    });
    let band_refs: Vec<&str> = bands.iter().map(String::as_str).collect();
    assert_eq!(
        table(&dom, "table-missed-rating-band"),
        breakdown_rows(&want["by_rating_band"], &band_refs)
    );
    let years: Vec<&str> = want["by_year"]
        .as_object()
        .expect("years")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        table(&dom, "table-missed-year"),
        breakdown_rows(&want["by_year"], &years)
    );
    // Class and band together: "blitz 1200-1399" for "blitz|1200-1399".
    let mut pairs = Vec::new();
    for c in classes {
        for b in &bands {
            let key = format!("{c}|{b}");
            if let Some(t) = want["by_time_control_and_band"].get(&key) {
                let games = t["games"].as_u64().unwrap_or(0);
                let missed = t["missed"].as_u64().unwrap_or(0);
                pairs.push(vec![
                    format!("{c} {b}"),
                    games.to_string(),
                    missed.to_string(),
                    format!("{:.2} %", missed as f64 * 100.0 / games as f64),
                ]);
            }
        }
    }
    assert_eq!(table(&dom, "table-missed-time-control-band"), pairs);
    // Each chart has a bar per row of its table, of the table's rate.
    let rates: Vec<f64> = tc
        .iter()
        .map(|r| r[2].parse::<f64>().unwrap_or(0.0) * 100.0 / r[1].parse::<f64>().unwrap_or(1.0))
        .collect();
    let drawn = bars(&dom, "chart-missed-time-control");
    assert_eq!(drawn.len(), rates.len());
    for (d, r) in drawn.iter().zip(&rates) {
        assert!((d - r).abs() < 1e-6, "{d} vs {r}");
    }
    assert_eq!(bars(&dom, "chart-status").len(), 6, "a bar per status");
    assert!(
        !dom.contains("id=\"banner\""),
        "a complete run has no banner"
    );
    assert!(dom.contains(&format!("<span id=\"missed\">{}</span>", want["missed"])));
    assert!(dom.contains(&format!("<span id=\"games\">{}</span>", want["games"])));
}

/// The whole sample corpus: statuses per input equal python-chess's
/// totals, the first errors are listed with their place, castling
/// conflicts with their reasons.
#[test]
fn browser_dom_holds_statuses_errors_and_castling() {
    let Some(browser) = chromium() else { return };
    let (_tmp, out) = run_report(&["testdata/corpus"]);
    let dom = dump_dom(browser, &out.join("report.html"));
    let totals: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("testdata/expected/totals.json")).expect("totals"),
    )
    .expect("json");
    let rows = table(&dom, "table-status");
    let all = rows.last().expect("total row");
    assert_eq!(all[0], "all inputs");
    assert_eq!(all[2], totals["games"].to_string());
    for (i, status) in [
        "ok",
        "illegal_move",
        "bad_fen",
        "parse_error",
        "unsupported",
    ]
    .iter()
    .enumerate()
    {
        let want = totals["by_status"][status].as_u64().unwrap_or(0);
        assert_eq!(all[3 + i], want.to_string(), "{status}");
    }
    let errors = table(&dom, "table-errors");
    assert!(!errors.is_empty());
    // Inputs are named from the folder they share, which the page names.
    assert!(dom.contains("named from the folder <code>testdata/corpus/</code>"));
    let games = crate::support::read_csv(&out.join("games.csv"));
    for e in &errors {
        let source = format!("testdata/corpus/{}", e[0]);
        let row = games
            .iter()
            .find(|r| r["source"] == source && r["game"] == e[1])
            .unwrap_or_else(|| panic!("{e:?} not in games.csv"));
        assert_eq!(
            (&row["line"], &row["status"], &row["error"]),
            (&e[2], &e[3], &e[4])
        );
        assert_ne!(row["status"], "ok");
    }
    let castling = table(&dom, "table-castling");
    let want = totals["castling_conflicts"].as_u64().unwrap_or(0);
    assert_eq!(castling.len() as u64, want.min(20));
    assert!(castling.iter().all(|r| !r[4].is_empty()));
}

/// Same input, same bytes (one thread or three); nothing outside the file.
#[test]
fn report_html_is_deterministic_and_self_contained() {
    let (_a, one) = run_report(&["testdata/corpus", "-j", "1"]);
    let (_b, three) = run_report(&["testdata/corpus", "-j", "3"]);
    let a = std::fs::read(one.join("report.html")).expect("report.html");
    let b = std::fs::read(three.join("report.html")).expect("report.html");
    assert_eq!(a, b);
    let text = String::from_utf8(a).expect("UTF-8");
    for outside in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!text.contains(outside), "report.html has {outside}");
    }
    assert!(text.contains("<svg id=\"chart-status\""));
}
