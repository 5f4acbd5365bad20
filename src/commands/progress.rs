//! The progress bar on long runs: how far the inputs are read, the text
//! rate, games and games per second, and time left, on stderr, and only
//! when stderr is a terminal and `--quiet` is off, so logs and pipes never
//! fill with redraws.
//!
//! Two byte counts, each for what it is good at. How far the run is (the
//! bar, the percentage, the time left) counts the inputs' own bytes
//! (compressed ones for a compressed input) out of their sizes on disk:
//! one unit, so the time left is honest. The rate counts text bytes
//! (decompressed), as the closing line and `summary.json` do, so a `.gz`,
//! `.bz2` or `.zst` input shows the same kind of MB/s as a plain one,
//! from the first redraw to the last. The line is written here, not by a
//! template, so that it always fits the terminal's width: on a narrow
//! terminal (down to 40 columns) the fields that matter least are left
//! out ([`line`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The columns assumed when the terminal does not say.
const DEFAULT_WIDTH: usize = 80;

/// Characters of the bar itself.
const BAR: usize = 16;

pub struct Progress {
    bar: Option<ProgressBar>,
    total: Option<u64>,
    /// Bytes of the inputs themselves read, out of `total`.
    done: u64,
    /// Bytes of text (decompressed) read.
    text: u64,
    games: u64,
}

impl Progress {
    /// A bar over `total_bytes` (0 when unknown, e.g. stdin).
    pub fn new(total_bytes: u64, quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{msg}") {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total: (total_bytes > 0).then_some(total_bytes),
            done: 0,
            text: 0,
            games: 0,
        }
    }

    /// Records that a batch of `games` games is done, spanning
    /// `input_bytes` of the input itself and `text_bytes` of its text.
    pub fn advance(&mut self, input_bytes: u64, text_bytes: u64, games: u64) {
        self.games += games;
        self.done += input_bytes;
        self.text += text_bytes;
        if let Some(bar) = &self.bar {
            let secs = bar.elapsed().as_secs_f64();
            let counts = Counts {
                done: self.done,
                total: self.total,
                text: self.text,
                games: self.games,
            };
            bar.set_message(line(&counts, secs, terminal_width()));
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What the line reports.
pub(super) struct Counts {
    /// Bytes of the inputs themselves read, and their total if known.
    pub done: u64,
    pub total: Option<u64>,
    /// Bytes of text read (decompressed).
    pub text: u64,
    pub games: u64,
}

/// The width of the terminal on stderr, in columns.
fn terminal_width() -> usize {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes a `winsize` into the one given.
    let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    if ok && size.ws_col > 0 {
        usize::from(size.ws_col)
    } else {
        DEFAULT_WIDTH
    }
}

/// The progress line after `secs` seconds: bar, percentage (or the text
/// bytes read, when the total is unknown), text rate, games, game rate,
/// time left, in that order, within `width` columns (one fewer, so that
/// the cursor never wraps). When they do not all fit, the game rate goes
/// first, then the bar, then the time left, then the text rate; the
/// percentage and the games always stay.
pub(super) fn line(c: &Counts, secs: f64, width: usize) -> String {
    let secs = secs.max(1e-3);
    let width = width.saturating_sub(1).max(1);
    // (text, rank): the lower the rank, the later it is dropped.
    let mut fields: Vec<(String, u8)> = Vec::new();
    if let Some(total) = c.total {
        fields.push((bar(c.done, total), 4));
        fields.push((percent(c.done, total), 0));
    } else {
        fields.push((decimal(c.text), 0));
    }
    fields.push((format!("{}/s", decimal((c.text as f64 / secs) as u64)), 2));
    fields.push((format!("{} games", c.games), 1));
    fields.push((format!("{:.0}/s", c.games as f64 / secs), 5));
    if let Some(total) = c.total.filter(|_| c.done > 0) {
        let left = total.saturating_sub(c.done) as f64 * secs / c.done as f64;
        fields.push((format!("ETA {}", duration(left)), 3));
    }
    let columns = |f: &[(String, u8)]| f.iter().map(|(t, _)| t.chars().count() + 1).sum::<usize>();
    while columns(&fields) > width + 1 {
        let Some(worst) = fields.iter().map(|(_, r)| *r).max().filter(|r| *r > 1) else {
            break;
        };
        fields.retain(|(_, r)| *r != worst);
    }
    let text: Vec<&str> = fields.iter().map(|(t, _)| t.as_str()).collect();
    // The percentage and games alone are at most 21 columns; the cut is a
    // last guard for terminals narrower than that.
    text.join(" ").chars().take(width).collect()
}

/// How far, in whole percent (never 100 % before the end).
fn percent(done: u64, total: u64) -> String {
    let p = (done.min(total) as u128 * 100 / u128::from(total.max(1))) as u64;
    format!("{p}%")
}

/// `BAR` characters, `#` for the part done.
fn bar(done: u64, total: u64) -> String {
    let filled = (done.min(total) as u128 * BAR as u128 / total.max(1) as u128) as usize;
    format!("{}{}", "#".repeat(filled), "-".repeat(BAR - filled))
}

/// Bytes in decimal units, as the closing line writes them: `812 B`,
/// `1.50 kB`, `999.99 GB` (at most 9 characters, up to exabytes).
fn decimal(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1000.0;
    let mut unit = 0;
    while value >= 999.995 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

/// Time left: `42s`, `12m05s`, `3h07m`, `12d03h`, and `>99d` beyond.
fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86_400 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        86_400..8_640_000 => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
        _ => ">99d".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(s: &str) -> usize {
        s.chars().count()
    }

    fn counts(done: u64, total: Option<u64>, text: u64, games: u64) -> Counts {
        Counts {
            done,
            total,
            text,
            games,
        }
    }

    #[test]
    fn an_ordinary_run_shows_every_field() {
        // 1.2 GB of a 4.8 GB .zst after 10 s, 6 GB of text, 250,000 games:
        // the rate is the text's.
        let c = counts(1_200_000_000, Some(4_800_000_000), 6_000_000_000, 250_000);
        let l = line(&c, 10.0, 80);
        assert_eq!(
            l,
            "####------------ 25% 600.00 MB/s 250000 games 25000/s ETA 30s"
        );
    }

    #[test]
    fn the_largest_values_fit_in_40_and_80_columns() {
        // Nine-digit game counts, terabyte and exabyte sizes, rates from a
        // first batch read in a millisecond, times left of years.
        let cases = [
            counts(999_999_999_999_999, Some(u64::MAX), u64::MAX, 999_999_999),
            counts(1, Some(u64::MAX), 1, 999_999_999),
            counts(u64::MAX, Some(u64::MAX), u64::MAX, u64::MAX),
            counts(
                987_654_321_000,
                Some(999_999_999_999),
                5_000_000_000_000,
                123_456_789,
            ),
            counts(u64::MAX, None, u64::MAX, 999_999_999),
            counts(0, Some(1), 0, 0),
        ];
        for width in [40, 80, 132] {
            for (i, c) in cases.iter().enumerate() {
                for secs in [0.0, 0.001, 1.0, 3_599.0, 1.0e6] {
                    let l = line(c, secs, width);
                    assert!(
                        cols(&l) < width,
                        "case {i}, {width}: {} columns: {l}",
                        cols(&l)
                    );
                    // What is never dropped: how far, and the game count.
                    if c.games < 1_000_000_000_000 {
                        assert!(l.contains(&format!("{} games", c.games)), "{l}");
                    }
                }
            }
        }
    }

    #[test]
    fn at_40_columns_the_rate_stays_and_the_rest_goes_first() {
        let c = counts(1_200_000_000, Some(4_800_000_000), 6_000_000_000, 250_000);
        let l = line(&c, 10.0, 40);
        assert_eq!(l, "25% 600.00 MB/s 250000 games ETA 30s");
        // Without a total (standard input): text bytes, rate, games.
        let c = counts(0, None, 6_000_000_000, 250_000);
        assert_eq!(line(&c, 10.0, 40), "6.00 GB 600.00 MB/s 250000 games");
    }

    #[test]
    fn units_and_durations() {
        assert_eq!(decimal(812), "812 B");
        assert_eq!(decimal(1_500), "1.50 kB");
        assert_eq!(decimal(999_999), "1.00 MB");
        assert_eq!(decimal(u64::MAX), "18.45 EB");
        assert_eq!(duration(42.0), "42s");
        assert_eq!(duration(725.0), "12m05s");
        assert_eq!(duration(11_220.0), "3h07m");
        assert_eq!(duration(1e12), ">99d");
        assert_eq!(bar(0, 0), "-".repeat(BAR));
        assert_eq!(bar(5, 10), format!("{}{}", "#".repeat(8), "-".repeat(8)));
        assert_eq!(percent(999, 1000), "99%");
    }
}
