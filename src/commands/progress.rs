//! The progress bar on long runs: bytes read, games per second and time
//! left, on stderr, and only when stderr is a terminal and `--quiet` is off,
//! so logs and pipes never fill with redraws.
//!
//! It counts the inputs' own bytes (compressed ones for a compressed input)
//! out of their sizes on disk, so the two are in one unit and the time left
//! is honest; sizes are in decimal megabytes, like the closing line. The
//! line is written here, not by a template, so that it always fits in
//! [`WIDTH`] columns: with nine-digit game counts and terabyte inputs the
//! fields that matter least are left out ([`line`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The columns the line may take: an 80-column terminal's.
const WIDTH: usize = 80;

/// Characters of the bar itself.
const BAR: usize = 16;

pub struct Progress {
    bar: Option<ProgressBar>,
    total: Option<u64>,
    done: u64,
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
            games: 0,
        }
    }

    /// Records that a batch of `games` games spanning `bytes` bytes is done.
    pub fn advance(&mut self, bytes: u64, games: u64) {
        self.games += games;
        self.done += bytes;
        if let Some(bar) = &self.bar {
            let secs = bar.elapsed().as_secs_f64();
            bar.set_message(line(self.done, self.total, secs, self.games));
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The progress line after `secs` seconds with `done` of `total` bytes
/// (if known) and `games` games read: bar, bytes, byte rate, games, game
/// rate, time left, in that order, within [`WIDTH`] columns. When they do
/// not all fit, the game rate goes first, then the byte rate, then the
/// bar, then the time left; the bytes and the games always stay.
pub(super) fn line(done: u64, total: Option<u64>, secs: f64, games: u64) -> String {
    let secs = secs.max(1e-3);
    // (text, rank): the lower the rank, the later it is dropped.
    let mut fields: Vec<(String, u8)> = Vec::new();
    if let Some(total) = total {
        fields.push((bar(done, total), 3));
        fields.push((format!("{}/{}", decimal(done), decimal(total)), 0));
    } else {
        fields.push((decimal(done), 0));
    }
    fields.push((format!("{}/s", decimal((done as f64 / secs) as u64)), 4));
    fields.push((format!("{games} games"), 1));
    fields.push((format!("{:.0}/s", games as f64 / secs), 5));
    if let Some(total) = total.filter(|_| done > 0) {
        let left = total.saturating_sub(done) as f64 * secs / done as f64;
        fields.push((format!("ETA {}", duration(left)), 2));
    }
    let width = |f: &[(String, u8)]| f.iter().map(|(t, _)| t.chars().count() + 1).sum::<usize>();
    while width(&fields) > WIDTH + 1 {
        let Some(worst) = fields.iter().map(|(_, r)| *r).max().filter(|r| *r > 1) else {
            break;
        };
        fields.retain(|(_, r)| *r != worst);
    }
    let text: Vec<&str> = fields.iter().map(|(t, _)| t.as_str()).collect();
    // Bytes and games alone are at most 50 columns; the cut is a last guard.
    text.join(" ").chars().take(WIDTH).collect()
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

    #[test]
    fn an_ordinary_run_shows_every_field() {
        // 1.2 GB of 4.8 GB after 10 s, 250,000 games.
        let l = line(1_200_000_000, Some(4_800_000_000), 10.0, 250_000);
        assert_eq!(
            l,
            "####------------ 1.20 GB/4.80 GB 120.00 MB/s 250000 games 25000/s ETA 30s"
        );
        assert!(cols(&l) <= WIDTH);
    }

    #[test]
    fn the_largest_values_fit_in_80_columns() {
        // Nine-digit game counts, terabyte and exabyte sizes, rates from a
        // first batch read in a millisecond, times left of years.
        let cases = [
            (999_999_999_999_999, Some(u64::MAX), 0.0, 999_999_999),
            (1, Some(u64::MAX), 1.0e6, 999_999_999),
            (u64::MAX, Some(u64::MAX), 0.001, u64::MAX),
            (987_654_321_000, Some(999_999_999_999), 3_599.0, 123_456_789),
            (u64::MAX, None, 0.0, 999_999_999),
            (0, Some(1), 0.0, 0),
        ];
        for (done, total, secs, games) in cases {
            let l = line(done, total, secs, games);
            assert!(cols(&l) <= WIDTH, "{} columns: {l}", cols(&l));
            // What is never dropped: the bytes and the game count.
            assert!(l.contains(&format!("{games} games")), "{l}");
            assert!(l.contains(&decimal(done)), "{l}");
        }
    }

    #[test]
    fn fields_are_dropped_least_needed_first() {
        // 9-digit games at a 12-digit rate do not fit with everything: the
        // game rate goes, the rest stays.
        let l = line(
            999_990_000_000_000,
            Some(999_999_000_000_000),
            0.001,
            999_999_999,
        );
        assert!(!l.contains("999999999000/s"), "{l}");
        assert!(l.contains("999999999 games"), "{l}");
        assert!(l.contains("PB/s"), "{l}");
        assert!(l.contains("ETA"), "{l}");
        // 999.99 TB of 1.00 PB: 15 of the 16 characters.
        assert!(l.starts_with("###############- "), "{l}");
        assert!(cols(&l) <= WIDTH, "{l}");
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
    }
}
