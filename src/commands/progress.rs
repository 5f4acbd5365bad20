//! The progress bar on long runs: bytes read, games per second and time
//! left, on stderr, and only when stderr is a terminal and `--quiet` is off,
//! so logs and pipes never fill with redraws.
//!
//! It counts the inputs' own bytes (compressed ones for a compressed input)
//! out of their sizes on disk, so the two are in one unit and the time left
//! is honest; sizes are in decimal megabytes, like the closing line, and
//! the line stays within 80 columns.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub struct Progress {
    bar: Option<ProgressBar>,
    games: u64,
}

impl Progress {
    /// A bar over `total_bytes` (0 when unknown, e.g. stdin or compressed input).
    pub fn new(total_bytes: u64, quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = if total_bytes > 0 {
                ProgressBar::with_draw_target(Some(total_bytes), ProgressDrawTarget::stderr())
            } else {
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
            };
            let template = if total_bytes > 0 {
                "{bar:16} {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {msg} ETA {eta}"
            } else {
                "{spinner} {decimal_bytes} {decimal_bytes_per_sec} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar
        });
        Progress { bar, games: 0 }
    }

    /// Records that a batch of `games` games spanning `bytes` bytes is done.
    pub fn advance(&mut self, bytes: u64, games: u64) {
        self.games += games;
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
            let secs = bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} games {:.0}/s",
                self.games,
                self.games as f64 / secs
            ));
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
