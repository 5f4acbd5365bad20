//! The ordered writer: receives each chunk of games in input order,
//! counts the run's totals once ([`Summary::add_chunk`]), and hands the
//! chunk to every sink (`sink.rs`); at the end it finishes the sinks in
//! order, the last one making the run's completion visible (a report
//! folder's summary.json).

use super::chunk::{ChunkPlan, FormattedChunk};
use super::columns::game_columns;
use super::csv_sink::CsvSink;
use super::duplicate_stage::SharedStage;
use super::duplicates_sink::DuplicatesSink;
use super::extract::{ExtractFile, ExtractRequest};
use super::facts::FactsPlan;
use super::folder::ReportFolder;
use super::format::ReportLayout;
use super::parquet_sink::ParquetSink;
use super::plies_sink::PliesSink;
use super::sink::{Sink, SinkChunk};
use super::summary::{InputSummary, Summary};
use super::summary_sink::SummarySink;
use crate::output::OutputError;
use crate::pgn::GameSpan;

pub struct ReportWriter {
    /// The sinks, finished in this order.
    sinks: Vec<SinkSlot>,
    plan: ChunkPlan,
    pub summary: Summary,
    /// `--duplicates`: the stage every game's entry goes to, and whether
    /// this run settles it (the run of the inputs, not of the `--against`
    /// collections).
    duplicates: Option<(SharedStage, bool)>,
}

/// A sink, and where its encoding is in a chunk, if it has one.
struct SinkSlot {
    sink: Box<dyn Sink>,
    slot: Option<usize>,
}

impl ReportWriter {
    /// A writer for `sinks`, finished in that order (put the one whose
    /// file says the run is complete last); `facts` says where report.html's
    /// breakdown tags are among the `--tags` values.
    pub fn new(sinks: Vec<Box<dyn Sink>>, facts: FactsPlan, threads: usize) -> Self {
        let mut rows = Vec::new();
        let sinks = sinks
            .into_iter()
            .map(|sink| {
                let slot = sink.rows().map(|format| {
                    rows.push(format);
                    rows.len() - 1
                });
                SinkSlot { sink, slot }
            })
            .collect();
        ReportWriter {
            sinks,
            plan: ChunkPlan {
                rows,
                facts,
                duplicates: false,
            },
            summary: Summary::new(threads),
            duplicates: None,
        }
    }

    /// Sends every game's entry to `stage` (`--duplicates`); when `settle`,
    /// settles it once the last game is in and hands every sink the rows'
    /// verdicts before finishing it.
    pub fn with_duplicates(mut self, stage: SharedStage, settle: bool) -> Self {
        self.plan.duplicates = true;
        self.duplicates = Some((stage, settle));
        self
    }

    /// The sinks of a report folder, as `layout` asks: `games.csv` and
    /// `castling.csv`, the Parquet files, the plies files, the extract
    /// files, then
    /// report.html and summary.json. A file of an earlier report (replaced
    /// with `--force`) that this one does not write is removed, so that it
    /// cannot pass for part of it.
    pub fn create(
        out: &ReportFolder,
        layout: &ReportLayout,
        extracts: &[ExtractRequest],
        threads: usize,
    ) -> Result<Self, OutputError> {
        let optional = layout.optional_columns();
        let columns = game_columns(optional, &layout.tags);
        let mut sinks: Vec<Box<dyn Sink>> = Vec::new();
        if layout.csv {
            sinks.push(Box::new(CsvSink::create(out, &columns, optional)?));
        } else {
            out.remove_earlier(&["games.csv", "castling.csv"])?;
        }
        if layout.parquet {
            sinks.push(Box::new(ParquetSink::create(out, &columns, optional)?));
        } else {
            out.remove_earlier(&["games.parquet", "castling.parquet"])?;
        }
        if layout.plies {
            sinks.push(Box::new(PliesSink::create(out, layout.csv)?));
        } else {
            out.remove_earlier(&["plies.csv", "plies.parquet"])?;
        }
        for request in extracts {
            sinks.push(Box::new(ExtractFile::create(request)?));
        }
        if layout.duplicates {
            sinks.push(Box::new(DuplicatesSink::create(out)?));
        } else {
            out.remove_earlier(&["duplicates.csv"])?;
        }
        let facts = layout.facts_plan();
        let time_control = facts.time_control_tag.is_some();
        let ratings = facts.white_elo_tag.is_some() && facts.black_elo_tag.is_some();
        sinks.push(Box::new(SummarySink::create(out, time_control, ratings)?));
        Ok(ReportWriter::new(sinks, facts, threads))
    }

    /// What the workers make of each chunk.
    pub fn chunk_plan(&self) -> &ChunkPlan {
        &self.plan
    }

    /// Starts the totals of a new input.
    pub fn begin_input(&mut self, input: InputSummary) {
        if let Some((stage, _)) = &self.duplicates {
            stage.with(|stage| stage.begin_input(&input.path));
        }
        for s in &mut self.sinks {
            s.sink.begin_input(&input);
        }
        self.summary.inputs.push(input);
    }

    /// Writes one chunk of the current input. `game_text` gives the
    /// original text of a game, for the sinks that copy games. The chunk's
    /// encodings are put back, written, for their buffers to serve again.
    pub fn add(
        &mut self,
        chunk: &mut FormattedChunk,
        game_text: &dyn Fn(&GameSpan) -> Vec<u8>,
    ) -> Result<(), OutputError> {
        self.summary.add_chunk(&chunk.games, chunk.games_read);
        if let Some((stage, _)) = &self.duplicates {
            stage
                .with(|stage| stage.add(&chunk.games, &chunk.duplicates))
                .transpose()?;
        }
        for s in &mut self.sinks {
            let encoded = s
                .slot
                .and_then(|i| chunk.encoded.get_mut(i))
                .and_then(Option::take);
            let back = s.sink.write(SinkChunk {
                facts: &chunk.games,
                games_read: chunk.games_read,
                encoded,
                game_text,
            })?;
            if let (Some(i), Some(back)) = (s.slot, back)
                && let Some(place) = chunk.encoded.get_mut(i)
            {
                *place = Some(back);
            }
        }
        Ok(())
    }

    /// Closes the totals and finishes every sink, in order, then puts
    /// their files in place, summary.json last; returns the totals.
    pub fn finish(mut self, elapsed_seconds: f64) -> Result<Summary, OutputError> {
        if let Some((stage, true)) = self.duplicates.take()
            && let Some(stage) = stage.take()
        {
            let rows = stage.settle()?;
            for s in &mut self.sinks {
                s.sink.duplicates(&rows)?;
            }
            self.summary.duplicates = Some(rows.totals());
        }
        self.summary.close(elapsed_seconds);
        let mut finished = Vec::new();
        for s in self.sinks {
            finished.extend(s.sink.finish(&self.summary)?);
        }
        for file in finished {
            file.publish()?;
        }
        Ok(self.summary)
    }
}
