//! What report.html tells a reader, rendered by headless Chromium: the
//! banner of a run that did not read every input whole, what each chart's
//! axis counts, whole-number ticks, the games without a year or a rating,
//! the sections of a xiangqi report, a distribution whose counts differ
//! 10,000-fold, and a page that fits 1280 px without a scrollbar.
//!
//! The expected values come from how each input was made (cut, refused,
//! given no Date), from `summary.json`'s entries (the page must say what
//! the summary says) and from pyffish (testdata/xiangqi/outcomes-expected.json).

use crate::html::{chromium, dump_dom, table, unescape};
use crate::support::{read_csv, root, run_report};
use std::path::Path;

fn summary(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("json")
}

/// The text of every element of `dom` that `pattern` (a regex with one
/// group) finds, entities resolved.
fn texts(dom: &str, pattern: &str) -> Vec<String> {
    let re = regex::Regex::new(pattern).expect("regex");
    re.captures_iter(dom).map(|c| unescape(&c[1])).collect()
}

/// The SVG of chart `id` in `dom`.
fn chart<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("<svg id=\"{id}\""))
        .unwrap_or_else(|| panic!("no chart {id}"));
    let end = dom[start..].find("</svg>").map_or(dom.len(), |e| start + e);
    &dom[start..end]
}

/// The ids of every chart of `dom`.
fn chart_ids(dom: &str) -> Vec<String> {
    texts(dom, r#"<svg id="([^"]+)" class="chart""#)
}

/// A folder of inputs that were not read whole, beside one that was:
/// a `.zst` cut in the middle, random bytes named `.pgn`, a packed
/// CCBridge library (a format pgnmill names but cannot read).
fn broken_inputs(dir: &Path) {
    let london =
        std::fs::read(root().join("testdata/corpus/pgn2tex-london1851.pgn")).expect("read");
    std::fs::write(dir.join("complete.pgn"), &london).expect("write");
    let z = zstd::encode_all(&london[..], 3).expect("zstd");
    std::fs::write(dir.join("cut.pgn.zst"), &z[..z.len() * 2 / 3]).expect("write");
    std::fs::copy(
        root().join("testdata/malformed/binary.pgn"),
        dir.join("random-bytes.pgn"),
    )
    .expect("copy");
    std::fs::copy(
        root().join("testdata/xiangqi/records/walker8088-cbl-packed-zlib-v3-unsupported.CBL"),
        dir.join("packed.cbl"),
    )
    .expect("copy");
}

/// The banner counts each kind of input that was not read whole, and the
/// table of inputs gives each one's warning: the words of `summary.json`.
#[test]
fn the_banner_names_inputs_cut_short_refused_and_unsupported() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("in");
    std::fs::create_dir(&dir).expect("mkdir");
    broken_inputs(&dir);
    let (_out_tmp, out) = run_report(&[dir.to_str().expect("path")]);
    let dom = dump_dom(browser, &out.join("report.html"));
    let banner = texts(&dom, r#"(?s)<div id="banner"[^>]*>(.*?)</div>"#);
    assert_eq!(banner.len(), 1, "one banner");
    let counts = texts(
        &dom,
        r#"<span class="(?:cut-short|not-pgn|unsupported|damaged)">([^<]*)</span>"#,
    );
    assert_eq!(
        counts,
        [
            "1 input cut short",
            "1 input refused as not PGN",
            "1 input unsupported"
        ]
    );
    // The banner comes before the first chart.
    assert!(dom.find("id=\"banner\"") < dom.find("<svg"));
    let s = summary(&out);
    let rows = table(&dom, "table-status");
    let head = texts(&dom, r#"(?s)<table id="table-status"><thead>(.*?)</thead>"#);
    assert!(head[0].ends_with(">warning</th></tr>"), "{}", head[0]);
    let inputs = s["inputs"].as_array().expect("inputs");
    assert_eq!(rows.len(), inputs.len() + 1);
    for (row, input) in rows.iter().zip(inputs) {
        let path = input["path"].as_str().expect("path");
        assert!(path.ends_with(&row[0]), "{path} named {}", row[0]);
        let warning = row.last().expect("warning cell");
        let text = |key: &str| input[key].as_str().unwrap_or_default().to_string();
        let message = input["warnings"][0]["message"].as_str().unwrap_or_default();
        let want = match row[0].as_str() {
            "complete.pgn" => String::new(),
            "cut.pgn.zst" => format!("cut short: {}", text("error")),
            "random-bytes.pgn" => format!("refused as not PGN: {message}"),
            "packed.cbl" => format!("unsupported: {message}"),
            other => panic!("unexpected input {other}"),
        };
        if row[0] != "complete.pgn" {
            assert!(message.ends_with(&text("unsupported")) || row[0] == "cut.pgn.zst");
        }
        assert_eq!(warning, &want, "{path}");
        assert!(
            row[0] == "complete.pgn" || !warning.ends_with(": "),
            "{path}"
        );
    }
}

/// Each chart's axis says what that chart counts, and no two charts of a
/// report say the same; count axes tick at whole numbers.
#[test]
fn every_axis_says_what_its_chart_counts_with_whole_number_ticks() {
    let Some(browser) = chromium() else { return };
    let (_tmp, out) = run_report(&[
        "testdata/corpus",
        "testdata/xiangqi/outcomes/cases.pgn",
        "--tags",
        "lichess",
    ]);
    let dom = dump_dom(browser, &out.join("report.html"));
    // The games of each kind, as the summary counts them.
    let totals = summary(&out);
    let count = |v: &str| totals["variants"][v].as_u64().unwrap_or(0);
    let chess_label = format!(
        "chess games with this outcome or rule, of {}",
        count("chess") + count("chess960")
    );
    let xiangqi_label = format!(
        "xiangqi games with this outcome or rule, of {}",
        count("xiangqi")
    );
    let want = [
        ("chart-status", "games with this status"),
        ("chart-outcomes-chess", chess_label.as_str()),
        ("chart-outcomes-xiangqi", xiangqi_label.as_str()),
        (
            "chart-rep-ep-always",
            "chess games with this rep_max, ep-always",
        ),
        (
            "chart-rep-ep-legal",
            "chess games with this rep_max, ep-if-legal",
        ),
        ("chart-rep-xiangqi", "xiangqi games with this rep_max"),
        (
            "chart-missed-time-control",
            "missed threefolds, % of the time-control class's chess games",
        ),
        (
            "chart-missed-rating-band",
            "missed threefolds, % of the rating band's chess games",
        ),
        (
            "chart-missed-year",
            "missed threefolds, % of the year's chess games",
        ),
    ];
    assert_eq!(
        chart_ids(&dom),
        want.iter()
            .map(|(id, _)| id.to_string())
            .collect::<Vec<_>>()
    );
    let whole = regex::Regex::new(r"^\d+[kMG]?$").expect("regex");
    for (id, label) in want {
        let svg = chart(&dom, id);
        let axis = texts(svg, r#"<text class="axis-label"[^>]*>([^<]*)</text>"#);
        let axis = axis.first().expect("axis label");
        assert!(
            axis == label || *axis == format!("{label} (log scale)"),
            "{id}: {axis}"
        );
        let ticks = texts(svg, r#"<text class="tick"[^>]*>([^<]*)</text>"#);
        assert!(ticks.len() >= 2, "{id}: {ticks:?}");
        if id.starts_with("chart-missed") {
            continue;
        }
        // Whole numbers (1k, 10k on a log scale).
        for t in &ticks {
            assert!(whole.is_match(t), "{id}: tick {t}");
        }
    }
    // The counts the status chart draws are summary.json's.
    let s = summary(&out);
    let drawn = crate::html::bars(&dom, "chart-status");
    let statuses = [
        "ok",
        "illegal_move",
        "bad_fen",
        "parse_error",
        "unsupported",
    ];
    for (n, status) in drawn.iter().zip(statuses) {
        assert_eq!(*n as u64, s["status"][status].as_u64().expect("count"));
    }
}

/// Games without a year (in Date or UTCDate), a time-control class or
/// both ratings are the row "unknown", and a sentence says how many; a
/// game with only UTCDate counts under its year.
#[test]
fn games_without_a_year_or_rating_are_an_unknown_row() {
    let Some(browser) = chromium() else { return };
    // Six games of one corpus file, each given tags by its index: games
    // 0-1 a Date, 2-3 only a UTCDate (2013), 4-5 neither; games 0-2
    // ratings, 3-5 none; even games a TimeControl, odd ones `-`.
    let source = std::fs::read_to_string(root().join("testdata/corpus/pgn2tex-london1851.pgn"))
        .expect("read");
    let bodies: Vec<&str> = source
        .split("\r\n\r\n")
        .filter(|b| !b.trim_start().starts_with('['))
        .take(6)
        .collect();
    assert_eq!(bodies.len(), 6);
    let mut pgn = String::new();
    for (i, body) in bodies.iter().enumerate() {
        pgn.push_str("[Event \"x\"]\n");
        match i {
            0 | 1 => pgn.push_str("[Date \"1851.06.01\"]\n[UTCDate \"2020.01.01\"]\n"),
            2 | 3 => pgn.push_str("[Date \"????.??.??\"]\n[UTCDate \"2013.03.04\"]\n"),
            _ => pgn.push_str("[Date \"????.??.??\"]\n"),
        }
        if i < 3 {
            pgn.push_str("[WhiteElo \"1500\"]\n[BlackElo \"1700\"]\n");
        } else {
            pgn.push_str("[WhiteElo \"?\"]\n");
        }
        let tc = if i % 2 == 0 { "300+3" } else { "-" };
        pgn.push_str(&format!("[TimeControl \"{tc}\"]\n\n{}\n\n", body.trim()));
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("dates.pgn");
    std::fs::write(&file, pgn).expect("write");
    let (_out_tmp, out) = run_report(&[file.to_str().expect("path"), "--tags", "lichess"]);
    let games = read_csv(&out.join("games.csv"));
    assert_eq!(games.len(), 6);
    let missed: Vec<bool> = games
        .iter()
        .map(|g| g["missed_threefold"] == "true")
        .collect();
    let tally = |idx: &[usize]| {
        let n = idx.len();
        let m = idx.iter().filter(|&&i| missed[i]).count();
        vec![
            n.to_string(),
            m.to_string(),
            format!("{:.2} %", m as f64 * 100.0 / n as f64),
        ]
    };
    let row = |label: &str, idx: &[usize]| [vec![label.to_string()], tally(idx)].concat();
    let dom = dump_dom(browser, &out.join("report.html"));
    assert_eq!(
        table(&dom, "table-missed-year"),
        [
            row("1851", &[0, 1]),
            row("2013", &[2, 3]),
            row("unknown", &[4, 5])
        ]
    );
    assert_eq!(
        table(&dom, "table-missed-rating-band"),
        [row("1600-1799", &[0, 1, 2]), row("unknown", &[3, 4, 5])]
    );
    assert_eq!(
        table(&dom, "table-missed-time-control"),
        [row("blitz", &[0, 2, 4]), row("unknown", &[1, 3, 5])]
    );
    let notes = texts(&dom, r#"<p class="note" id="unknown-([^"]+)""#);
    assert_eq!(
        notes,
        ["missed-time-control", "missed-rating-band", "missed-year"]
    );
    assert!(dom.contains("2 chess games have no year in Date or UTCDate"));
    assert!(dom.contains("3 chess games lack a number in WhiteElo or BlackElo"));
    // Each row is a bar of the chart.
    assert_eq!(crate::html::bars(&dom, "chart-missed-year").len(), 3);
}

/// A xiangqi-only report: xiangqi's outcomes (pyffish's counts), one
/// rep_max chart, and nothing of en passant, missed threefolds or castling.
#[test]
fn a_xiangqi_report_shows_its_outcomes_and_no_chess_sections() {
    let Some(browser) = chromium() else { return };
    let (_tmp, out) = run_report(&["testdata/xiangqi/outcomes/cases.pgn"]);
    let dom = dump_dom(browser, &out.join("report.html"));
    assert_eq!(
        chart_ids(&dom),
        [
            "chart-status",
            "chart-outcomes-xiangqi",
            "chart-rep-xiangqi"
        ]
    );
    let lower = dom.to_lowercase();
    for chess in [
        "ep-always",
        "ep-if-legal",
        "en passant",
        "missed threefold",
        "castling",
        "chess games",
    ] {
        assert!(!lower.contains(chess), "a xiangqi report says {chess:?}");
    }
    let expected: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(root().join("testdata/xiangqi/outcomes-expected.json"))
            .expect("read"),
    )
    .expect("json");
    let cases: Vec<&serde_json::Value> = expected
        .iter()
        .filter(|g| g["file"] == "cases.pgn")
        .collect();
    assert!(cases.len() >= 40, "the constructed cases are there");
    // (row, field, value): games whose field has the value, or (None)
    // whose field is set at all.
    let rows: [(&str, &str, Option<&str>); 8] = [
        ("checkmate", "termination", Some("checkmate")),
        ("stalemate", "termination", Some("stalemate")),
        ("threefold repetition", "threefold_ply", None),
        ("perpetual check by red", "perpetual_check", Some("red")),
        ("perpetual check by black", "perpetual_check", Some("black")),
        ("perpetual check by both", "perpetual_check", Some("both")),
        ("natural limit", "natural_limit_ply", None),
        ("result conflict", "result_conflict", None),
    ];
    let holds = |g: &serde_json::Value, field: &str, value: Option<&str>| match (&g[field], value) {
        (serde_json::Value::String(s), Some(v)) => s == v,
        (serde_json::Value::String(s), None) => !s.is_empty(),
        (v, None) => !v.is_null(),
        _ => false,
    };
    let want: Vec<(String, String)> = rows
        .iter()
        .map(|(row, field, value)| {
            let n = cases.iter().filter(|g| holds(g, field, *value)).count();
            (row.to_string(), n.to_string())
        })
        .collect();
    let got: Vec<(String, String)> = table(&dom, "table-outcomes-xiangqi")
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    let want: Vec<(String, String)> = want.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    assert_eq!(got, want);
    assert!(
        want.iter().filter(|(_, v)| v != "0").count() >= 6,
        "cases too thin: {want:?}"
    );
}

/// `rep_max` of 10,000 games at 1 and one game at 4: every count that is
/// not zero is drawn as a bar a reader can see, with its number.
#[test]
fn a_rep_max_bar_ten_thousand_times_another_leaves_both_visible() {
    let Some(browser) = chromium() else { return };
    let mut pgn = String::new();
    for _ in 0..10_000 {
        pgn.push_str("1. e4 e5 *\n\n");
    }
    // The start position four times: rep_max 4 (and a threefold).
    pgn.push_str("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 *\n");
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("spread.pgn");
    std::fs::write(&file, pgn).expect("write");
    let (_out_tmp, out) = run_report(&[file.to_str().expect("path")]);
    let dom = dump_dom(browser, &out.join("report.html"));
    assert_eq!(
        table(&dom, "table-rep-max"),
        [
            vec!["1".to_string(), "10000".into(), "10000".into()],
            vec!["4".to_string(), "1".into(), "1".into()],
        ]
    );
    let rect = regex::Regex::new(r#"<rect [^>]*width="([0-9.]+)"[^>]*data-value="([0-9.]+)""#)
        .expect("regex");
    for id in ["chart-rep-ep-always", "chart-rep-ep-legal"] {
        let svg = chart(&dom, id);
        let drawn: Vec<(f64, f64)> = rect
            .captures_iter(svg)
            .map(|c| (c[1].parse().expect("width"), c[2].parse().expect("value")))
            .collect();
        assert_eq!(drawn.len(), 2, "{id}");
        let longest = drawn.iter().map(|d| d.0).fold(0.0, f64::max);
        for (width, value) in &drawn {
            // A twentieth of the longest bar at least (19 units of 380):
            // seen, not a hairline (on a linear scale it would be 0.04).
            assert!(*width >= longest / 20.0, "{id}: {value} drawn {width} wide");
        }
        let numbers = texts(svg, r#"<text class="value"[^>]*>([^<]*)</text>"#);
        assert_eq!(numbers, ["10000", "1"], "{id}");
        assert!(svg.contains("(log scale)"), "{id}");
    }
}

/// The page at 1280 px: no element reaches past the viewport, none hides
/// content behind a scrollbar, no chart text is cut off, with long input
/// names, a long error and every section present. Measured by a script
/// in a copy of the page (report.html itself has none).
#[test]
fn nothing_is_wider_than_1280_px() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().expect("tmp");
    let deep = tmp
        .path()
        .join("collections-downloaded-from-many-places")
        .join("a-folder-whose-name-alone-is-longer-than-a-table-column-would-be");
    std::fs::create_dir_all(&deep).expect("mkdir");
    broken_inputs(&deep);
    let long_token = "Nf3".repeat(120);
    std::fs::write(
        deep.join(format!(
            "{}.pgn",
            "a-game-collection-with-a-very-long-name".repeat(4)
        )),
        format!("[Event \"x\"]\n\n1. e4 e5 2. {long_token} *\n"),
    )
    .expect("write");
    std::fs::copy(
        root().join("testdata/xiangqi/outcomes/cases.pgn"),
        deep.join("xiangqi-cases.pgn"),
    )
    .expect("copy");
    std::fs::copy(
        root().join("testdata/research/lichess-style.pgn"),
        tmp.path().join("lichess-style.pgn"),
    )
    .expect("copy");
    let master = root().join("testdata/duplicates/against-master.pgn");
    let (_out_tmp, out) = run_report(&[
        tmp.path().to_str().expect("path"),
        "--tags",
        "lichess",
        "--against",
        master.to_str().expect("path"),
    ]);
    let page = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(page.contains("id=\"banner\""));
    assert!(page.contains("id=\"duplicate-kinds\""));
    assert!(page.contains("id=\"against\""));
    assert!(page.contains("id=\"chart-outcomes-xiangqi\""));
    assert!(page.contains("id=\"chart-missed-rating-band\""));
    let measured = measure(browser, &page, tmp.path());
    assert_eq!(measured["width"], 1280, "{measured}");
    assert_eq!(measured["problems"], serde_json::json!([]), "{measured:#}");
}

/// What the script below finds in `page` at a 1280 px wide window.
fn measure(browser: &str, page: &str, dir: &Path) -> serde_json::Value {
    let script = r#"<pre id="measured"></pre><script>
const W = document.documentElement.clientWidth;
const problems = [];
const name = e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + (e.textContent || '').slice(0, 60);
if (document.documentElement.scrollWidth > W) problems.push('page scrolls: ' + document.documentElement.scrollWidth);
for (const e of document.body.querySelectorAll('*')) {
  if (e.id === 'measured' || e.closest('svg') && e.tagName !== 'svg') continue;
  const r = e.getBoundingClientRect();
  if (r.width > 0 && (r.left < -0.5 || r.right > W + 0.5)) problems.push('outside: ' + name(e) + ' ' + r.left + '..' + r.right);
  if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) problems.push('overflows: ' + name(e) + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
}
for (const svg of document.querySelectorAll('svg.chart')) {
  const vb = svg.viewBox.baseVal;
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5) problems.push('cut off: ' + svg.id + ' ' + t.textContent);
  }
}
document.getElementById('measured').textContent = JSON.stringify({width: W, problems});
</script></body>"#;
    let probe = dir.join("probe.html");
    std::fs::write(&probe, page.replace("</body>", script)).expect("write probe");
    let dom = crate::html::render_dom(
        browser,
        &probe,
        &["--hide-scrollbars", "--window-size=1280,1000"],
    );
    let json = texts(&dom, r#"(?s)<pre id="measured">(.*?)</pre>"#);
    serde_json::from_str(json.first().expect("the probe ran")).expect("json")
}

/// The errors table shows the games that failed through a fault of their
/// own: a damaged gzip member's games (`damaged_input`, which docs/reports.md
/// counts as the input's fault, not the games') do not take their places.
/// Read from the page's bytes: the table is in them, no script builds it.
#[test]
fn the_errors_table_passes_over_games_of_damaged_input() {
    let tmp = tempfile::tempdir().expect("tmp");
    let gzip = |text: &[u8]| {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, text).expect("gzip");
        gz.finish().expect("gzip")
    };
    // Member 1: a dozen games whose CRC-32 fails (its trailer's first
    // byte flipped); member 2: games with errors of every kind.
    let mut damaged = gzip(&b"[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(12));
    let crc_at = damaged.len() - 8;
    damaged[crc_at] ^= 0xFF;
    let errors = std::fs::read(root().join("testdata/corpus/synthetic-errors.pgn")).expect("read");
    let input = tmp.path().join("mixed.pgn.gz");
    std::fs::write(&input, [damaged, gzip(&errors)].concat()).expect("write");
    let (_out_tmp, out) = run_report(&[input.to_str().expect("path")]);
    let page = std::fs::read_to_string(out.join("report.html")).expect("page");
    let shown = table(&page, "table-errors");
    let rows = read_csv(&out.join("games.csv"));
    assert!(rows.iter().any(|r| r["status"] == "damaged_input"));
    let want: Vec<Vec<String>> = rows
        .iter()
        .filter(|r| !matches!(r["status"].as_str(), "ok" | "damaged_input"))
        .take(5)
        .map(|r| {
            ["game", "line", "status", "error"]
                .iter()
                .map(|c| r[*c].clone())
                .collect()
        })
        .collect();
    assert_eq!(want.len(), 5, "the second member has five errors or more");
    let got: Vec<Vec<String>> = shown.iter().map(|r| r[1..].to_vec()).collect();
    assert_eq!(got, want);
}

/// A control byte in a game (an escape sequence in a move token) reaches
/// the page as U+FFFD, as it reaches games.csv: a raw control character
/// is a parse error in HTML.
#[test]
fn control_bytes_reach_the_page_as_replacement_characters() {
    let tmp = tempfile::tempdir().expect("tmp");
    let input = tmp.path().join("escape.pgn");
    // After real games, or so few bytes with two controls among them are
    // binary data (docs/reports.md, "Inputs").
    let mut text =
        std::fs::read(root().join("testdata/corpus/pgn2tex-london1851.pgn")).expect("read");
    text.extend_from_slice(b"\n\n[Event \"x\x07\"]\n\n1. e4 e\x1b[31mx *\n");
    std::fs::write(&input, text).expect("write");
    let (_out_tmp, out) = run_report(&[input.to_str().expect("path")]);
    let page = std::fs::read_to_string(out.join("report.html")).expect("page");
    let control = page
        .bytes()
        .find(|&b| (b < 0x20 && !matches!(b, b'\n' | b'\t')) || b == 0x7f);
    assert_eq!(control, None);
    let rows = read_csv(&out.join("games.csv"));
    let last = rows.last().expect("rows");
    assert_eq!(last["event"], "x\u{FFFD}");
    assert!(
        last["error"].starts_with("move 1... e\u{FFFD}[31mx, ply 2 (line "),
        "{}",
        last["error"]
    );
    let shown = table(&page, "table-errors");
    assert!(shown.iter().any(|r| r[4] == last["error"]), "{shown:?}");
}
