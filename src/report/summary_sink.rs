//! `report.html` and `summary.json`, the report's last two files: the page
//! is drawn from the run's totals and what it counted on its way
//! ([`HtmlStats`]: breakdowns by year, rating and time control, first
//! errors, castling examples), and `summary.json`, the totals, is renamed
//! into place after every other file of the report: a folder holds a
//! `summary.json` only when its report is complete (`output.rs`).

use super::folder::ReportFolder;
use super::html_stats::HtmlStats;
use super::sink::{Encoded, Sink, SinkChunk};
use super::summary::{InputSummary, Summary};
use crate::output::{AtomicFile, FinishedFile, OutputError};

/// report.html and summary.json, being written.
pub struct SummarySink {
    html_file: AtomicFile,
    stats: HtmlStats,
    summary_file: AtomicFile,
}

impl SummarySink {
    /// Starts both files in `out`; `time_control` and `ratings` say
    /// whether the tags the page breaks games down by are columns.
    pub fn create(
        out: &ReportFolder,
        time_control: bool,
        ratings: bool,
    ) -> Result<Self, OutputError> {
        Ok(SummarySink {
            html_file: out.create("report.html")?,
            stats: HtmlStats::new(time_control, ratings),
            summary_file: out.create("summary.json")?,
        })
    }
}

impl Sink for SummarySink {
    fn begin_input(&mut self, input: &InputSummary) {
        self.stats.begin_input(&input.path);
    }

    fn write(&mut self, chunk: SinkChunk<'_>) -> Result<Option<Encoded>, OutputError> {
        for g in chunk.facts {
            self.stats.add(g);
        }
        Ok(None)
    }

    /// Writes the page, then summary.json, the completion marker, last.
    fn finish(mut self: Box<Self>, summary: &Summary) -> Result<Vec<FinishedFile>, OutputError> {
        let json = serde_json::to_vec_pretty(summary).map_err(|e| OutputError::Format {
            file: "summary.json".into(),
            message: e.to_string(),
        })?;
        let page = super::html::render(&self.stats, summary, env!("CARGO_PKG_VERSION"));
        self.html_file.write_all(page.as_bytes())?;
        let page = self.html_file.finish()?;
        self.summary_file.write_all(&json)?;
        self.summary_file.write_all(b"\n")?;
        Ok(vec![page, self.summary_file.finish()?])
    }
}
