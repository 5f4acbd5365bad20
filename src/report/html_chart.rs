//! The bar charts of report.html: inline SVG drawn on a fixed grid in its
//! own coordinates (`viewBox`) and scaled to the page's width, so that its
//! labels keep their places on a laptop and on a phone.
//!
//! Every bar carries its number at its end, so a count is never lost to
//! the scale; a count that is not zero is drawn at least [`MIN_BAR`] wide.
//! Ticks fall on round numbers (whole numbers for counts, never `1658.50
//! games`), and a distribution whose largest count is a hundred times its
//! smallest is drawn on a log scale, where a bar of 1 beside one of
//! 10,000 is still a bar.

use super::html_table::{esc, table};
use std::fmt::Write;

/// One bar of a chart: its label, its length, and the text at its end.
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub text: String,
}

impl Bar {
    /// A bar of a count, labelled with the count.
    pub fn count(label: impl Into<String>, n: u64) -> Bar {
        Bar {
            label: label.into(),
            value: n as f64,
            text: n.to_string(),
        }
    }
}

/// Width of the chart's own coordinates; it is drawn at the page's width.
pub const WIDTH: f64 = 680.0;
/// Room for the row labels, right-aligned against the bars.
const LABEL_W: f64 = 190.0;
/// The length of the longest bar; what is right of it holds its number.
const BAR_AREA: f64 = 380.0;
const ROW_H: f64 = 24.0;
/// The least length of a bar of a count that is not zero.
pub const MIN_BAR: f64 = 2.0;

/// How values map to lengths, and where the ticks go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// From 0 to `top`, a tick every `step`, labelled with `decimals`
    /// decimals.
    Linear {
        top: f64,
        step: f64,
        decimals: usize,
    },
    /// log10(1 + v), from 0 to 10^`decades`, a tick at every power of ten.
    Log { decades: u32 },
}

impl Scale {
    /// A linear scale for counts: whole-number ticks.
    pub fn counts(values: impl IntoIterator<Item = f64>) -> Scale {
        Scale::linear(max_of(values), 1.0)
    }

    /// A linear scale for rates in percent: ticks on round numbers, with
    /// as many decimals as their step needs.
    pub fn percent(values: impl IntoIterator<Item = f64>) -> Scale {
        Scale::linear(max_of(values), 0.0)
    }

    /// A scale for a distribution of counts: linear, unless the largest
    /// count is at least a hundred times the smallest that is not zero;
    /// then logarithmic, so that every count shows as a bar.
    pub fn spread_counts(values: impl IntoIterator<Item = f64> + Clone) -> Scale {
        let max = max_of(values.clone());
        let min = values
            .into_iter()
            .filter(|v| *v > 0.0)
            .fold(f64::INFINITY, f64::min);
        if min.is_finite() && max >= 100.0 * min {
            Scale::Log {
                decades: max.log10().ceil().max(1.0) as u32,
            }
        } else {
            Scale::counts([max])
        }
    }

    /// The smallest round step (1, 2 or 5 times a power of ten, at least
    /// `least`) that covers `max` in at most five intervals.
    fn linear(max: f64, least: f64) -> Scale {
        let mut step = if max > 0.0 {
            10f64.powf((max / 5.0).log10().floor())
        } else {
            1.0
        };
        'find: loop {
            for m in [1.0, 2.0, 5.0] {
                let s = (step * m).max(least);
                if (max / s).ceil() <= 5.0 {
                    step = s;
                    break 'find;
                }
            }
            step *= 10.0;
        }
        let top = ((max / step).ceil() * step).max(step);
        let decimals = if step >= 1.0 {
            0
        } else {
            (-step.log10().floor()) as usize
        };
        Scale::Linear {
            top,
            step,
            decimals,
        }
    }

    /// Where `v` falls, from 0 (the axis) to 1 (the top of the scale).
    fn at(&self, v: f64) -> f64 {
        let v = v.max(0.0);
        match *self {
            Scale::Linear { top, .. } => v / top,
            Scale::Log { decades } => {
                (1.0 + v).log10() / (1.0 + 10f64.powi(decades as i32)).log10()
            }
        }
    }

    /// The ticks: their values' places (0 to 1) and labels.
    fn ticks(&self) -> Vec<(f64, String)> {
        match *self {
            Scale::Linear {
                top,
                step,
                decimals,
            } => {
                let n = (top / step).round() as u32;
                (0..=n)
                    .map(|k| {
                        let v = step * f64::from(k);
                        (self.at(v), format!("{v:.decimals$}"))
                    })
                    .collect()
            }
            Scale::Log { decades } => std::iter::once((0.0, "0".to_string()))
                .chain((0..=decades).map(|d| {
                    let v = 10f64.powi(d as i32);
                    (self.at(v), compact(10u64.pow(d)))
                }))
                .collect(),
        }
    }

    /// Words after the axis label that say how to read the axis.
    fn note(&self) -> &'static str {
        match self {
            Scale::Linear { .. } => "",
            Scale::Log { .. } => " (log scale)",
        }
    }
}

/// A power of ten as a tick label: `1000` as `1k`, `1000000` as `1M`.
fn compact(n: u64) -> String {
    match n {
        n if n >= 1_000_000_000 => format!("{}G", n / 1_000_000_000),
        n if n >= 1_000_000 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

fn max_of(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, f64::max)
}

/// A chart's words: its element id, its title, and what its axis counts.
#[derive(Clone, Copy)]
pub struct ChartText<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub axis: &'a str,
}

/// A horizontal bar chart: a title, a label per row at its left, the bar,
/// its number at its right end, and an x axis with its ticks and label.
pub fn bar_chart(out: &mut String, text: &ChartText<'_>, scale: Scale, bars: &[Bar]) {
    let height = 40.0 + ROW_H * bars.len() as f64 + 44.0;
    let _ = write!(
        out,
        "<figure><svg id=\"{id}\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"{id}-title\">\
         <title id=\"{id}-title\">{t}</title>\
         <text class=\"title\" x=\"{x}\" y=\"22\" text-anchor=\"middle\">{t}</text>",
        id = text.id,
        x = WIDTH / 2.0,
        t = esc(text.title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = 40.0 + ROW_H * i as f64;
        let w = if b.value > 0.0 {
            (scale.at(b.value) * BAR_AREA).max(MIN_BAR)
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
    for (at, label) in scale.ticks() {
        let x = LABEL_W + BAR_AREA * at;
        let _ = write!(
            out,
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{axis_y}\" x2=\"{x:.1}\" y2=\"{y2}\"/>\
             <text class=\"tick\" x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\">{label}</text>",
            y2 = axis_y + 4.0,
            ty = axis_y + 17.0,
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis-label\" x=\"{x}\" y=\"{y}\" text-anchor=\"middle\">{l}{n}</text></svg></figure>",
        x = LABEL_W + BAR_AREA / 2.0,
        y = axis_y + 36.0,
        l = esc(text.axis),
        n = scale.note()
    );
}

/// A chart and the table of its numbers: `chart-ID` and `table-ID`, for
/// `text.id` ID.
pub fn chart_with_table(
    out: &mut String,
    text: &ChartText<'_>,
    scale: Scale,
    bars: &[Bar],
    head: &[&str],
    rows: &[Vec<String>],
) {
    let chart = ChartText {
        id: &format!("chart-{}", text.id),
        ..*text
    };
    bar_chart(out, &chart, scale, bars);
    table(out, &format!("table-{}", text.id), head, rows);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick_labels(scale: Scale) -> Vec<String> {
        scale.ticks().into_iter().map(|(_, l)| l).collect()
    }

    /// Counts get whole-number ticks on round steps, never `157.50`.
    #[test]
    fn count_ticks_are_round_whole_numbers() {
        assert_eq!(
            tick_labels(Scale::counts([315.0])),
            ["0", "100", "200", "300", "400"]
        );
        assert_eq!(
            tick_labels(Scale::counts([3317.0])),
            ["0", "1000", "2000", "3000", "4000"]
        );
        assert_eq!(tick_labels(Scale::counts([1.0])), ["0", "1"]);
        assert_eq!(tick_labels(Scale::counts([3.0])), ["0", "1", "2", "3"]);
        assert_eq!(tick_labels(Scale::counts([0.0])), ["0", "1"]);
        assert_eq!(tick_labels(Scale::counts([7.0])), ["0", "2", "4", "6", "8"]);
        assert_eq!(
            tick_labels(Scale::counts([10.0])),
            ["0", "2", "4", "6", "8", "10"]
        );
    }

    #[test]
    fn percent_ticks_have_the_decimals_their_step_needs() {
        assert_eq!(
            tick_labels(Scale::percent([8.57])),
            ["0", "2", "4", "6", "8", "10"]
        );
        assert_eq!(
            tick_labels(Scale::percent([0.9])),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        assert_eq!(
            tick_labels(Scale::percent([100.0])),
            ["0", "20", "40", "60", "80", "100"]
        );
    }

    /// One count 10,000 times another: a log scale, and the small bar is
    /// still a tenth of the axis long.
    #[test]
    fn a_wide_spread_is_drawn_on_a_log_scale() {
        let scale = Scale::spread_counts([10_000.0, 1.0, 0.0]);
        assert_eq!(scale, Scale::Log { decades: 4 });
        assert_eq!(tick_labels(scale), ["0", "1", "10", "100", "1k", "10k"]);
        assert!(scale.at(1.0) * BAR_AREA > 20.0);
        assert!(matches!(
            Scale::spread_counts([99.0, 1.0]),
            Scale::Linear { .. }
        ));
    }
}
