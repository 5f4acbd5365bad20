//! The ordered writer: receives each chunk's rows in input order, appends
//! them to the report files, keeps the totals, copies extracted games, and
//! at the end renames everything into place with `summary.json` last.

use super::chunk::FormattedChunk;
use super::columns::{CASTLING_COLUMNS, game_columns};
use super::extract::{ExtractFile, ExtractRequest};
use super::format::{ChunkFormat, ReportLayout, castling_header, games_header};
use super::html_stats::HtmlStats;
use super::output::OutputDir;
use super::parquet::ParquetFile;
use super::summary::{InputSummary, Summary};
use crate::output::AtomicFile;
use crate::output::OutputError;
use crate::replay::Status;

pub struct ReportWriter {
    /// The CSV files, unless `--format` leaves them out.
    games: Option<AtomicFile>,
    castling: Option<AtomicFile>,
    games_parquet: Option<ParquetFile>,
    castling_parquet: Option<ParquetFile>,
    format: ChunkFormat,
    html_file: AtomicFile,
    html: HtmlStats,
    extracts: Vec<ExtractFile>,
    summary_file: AtomicFile,
    pub summary: Summary,
}

impl ReportWriter {
    /// Opens the report's files under temporary names.
    pub fn create(
        out: &OutputDir,
        layout: &ReportLayout,
        extracts: &[ExtractRequest],
        threads: usize,
    ) -> Result<Self, OutputError> {
        let columns = game_columns(layout.moves, &layout.tags);
        let (mut games, mut castling) = (None, None);
        if layout.csv {
            let mut g = out.create("games.csv")?;
            g.write_all(&games_header(&columns))?;
            let mut c = out.create("castling.csv")?;
            c.write_all(&castling_header())?;
            (games, castling) = (Some(g), Some(c));
        } else {
            // A file of an earlier report (replaced with --force) that this
            // one does not write must not pass for part of it.
            out.remove_earlier(&["games.csv", "castling.csv"])?;
        }
        let (mut games_parquet, mut castling_parquet) = (None, None);
        if layout.parquet {
            games_parquet = Some(ParquetFile::create(out, "games.parquet", &columns)?);
            castling_parquet = Some(ParquetFile::create(
                out,
                "castling.parquet",
                &CASTLING_COLUMNS,
            )?);
        } else {
            out.remove_earlier(&["games.parquet", "castling.parquet"])?;
        }
        let format = ChunkFormat {
            moves: layout.moves,
            csv: layout.csv,
            games_parquet: games_parquet.as_ref().map(ParquetFile::table),
            castling_parquet: castling_parquet.as_ref().map(ParquetFile::table),
            time_control_tag: tag_at(&layout.tags, "TimeControl"),
            white_elo_tag: tag_at(&layout.tags, "WhiteElo"),
            black_elo_tag: tag_at(&layout.tags, "BlackElo"),
        };
        let html = HtmlStats::new(
            format.time_control_tag.is_some(),
            format.white_elo_tag.is_some() && format.black_elo_tag.is_some(),
        );
        let extracts = extracts
            .iter()
            .map(ExtractFile::create)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ReportWriter {
            games,
            castling,
            games_parquet,
            castling_parquet,
            format,
            html_file: out.create("report.html")?,
            html,
            extracts,
            summary_file: out.create("summary.json")?,
            summary: Summary::new(threads),
        })
    }

    /// What the workers format each chunk's rows for.
    pub fn chunk_format(&self) -> &ChunkFormat {
        &self.format
    }

    /// Starts the totals of a new input.
    pub fn begin_input(&mut self, input: InputSummary) {
        self.html.begin_input(&input.path);
        self.summary.inputs.push(input);
    }

    /// Appends one chunk of the current input. `source_bytes` gives the
    /// original text of a game for the extract files.
    pub fn add(
        &mut self,
        chunk: &mut FormattedChunk,
        game_text: &dyn Fn(&crate::pgn::GameSpan) -> Vec<u8>,
    ) -> Result<(), OutputError> {
        if let Some(games) = &mut self.games {
            games.write_all(&chunk.games_csv)?;
        }
        if let Some(castling) = &mut self.castling {
            castling.write_all(&chunk.castling_csv)?;
        }
        if let (Some(file), Some(group)) = (&mut self.games_parquet, chunk.games_parquet.take()) {
            file.append(group)?;
        }
        if let (Some(file), Some(group)) =
            (&mut self.castling_parquet, chunk.castling_parquet.take())
        {
            file.append(group)?;
        }
        self.html.read(chunk.games_read);
        let s = &mut self.summary;
        s.games_read += chunk.games_read;
        if let Some(input) = s.inputs.last_mut() {
            input.games_read += chunk.games_read;
        }
        // The two maps are counted per chunk, not per game (a map lookup
        // compares strings): statuses in an array, variants as runs of
        // equal names (a file is nearly always one variant).
        let mut by_status = [0u64; Status::ALL.len()];
        let mut variant_run: Option<(&str, u64)> = None;
        for g in &chunk.games {
            self.html.add(g);
            s.games += 1;
            s.plies += u64::from(g.plies);
            if let Some(n) = by_status.get_mut(g.status as usize) {
                *n += 1;
            }
            match &mut variant_run {
                Some((name, n)) if *name == g.variant.as_ref() => *n += 1,
                run => {
                    if let Some((name, n)) = run.take() {
                        count_variant(&mut s.variants, name, n);
                    }
                    *run = Some((g.variant.as_ref(), 1));
                }
            }
            s.threefolds_ep_always += u64::from(g.threefold_ep_always);
            s.threefolds_ep_legal += u64::from(g.threefold_ep_legal);
            s.missed_threefolds += u64::from(g.missed_threefold);
            s.castling_conflicts += u64::from(g.castling_conflict);
            s.outcomes.add(&g.outcome);
            if let Some(input) = s.inputs.last_mut() {
                input.outcomes.add(&g.outcome);
                input.games += 1;
                input.threefolds_ep_always += u64::from(g.threefold_ep_always);
                input.threefolds_ep_legal += u64::from(g.threefold_ep_legal);
                input.missed_threefolds += u64::from(g.missed_threefold);
                input.castling_conflicts += u64::from(g.castling_conflict);
            }
            for extract in &mut self.extracts {
                if g.is(extract.kind) {
                    extract.append(&game_text(&g.span))?;
                }
            }
        }
        let s = &mut self.summary;
        if let Some((name, n)) = variant_run {
            count_variant(&mut s.variants, name, n);
        }
        for (status, n) in Status::ALL.iter().zip(by_status) {
            if n > 0 {
                *s.status.entry(status.as_str()).or_insert(0) += n;
                if let Some(input) = s.inputs.last_mut() {
                    *input.status.entry(status.as_str()).or_insert(0) += n;
                }
            }
        }
        Ok(())
    }

    /// Renames every file into place, `summary.json` last, and returns the
    /// totals.
    pub fn finish(mut self, elapsed_seconds: f64) -> Result<Summary, OutputError> {
        self.summary.elapsed_seconds = elapsed_seconds;
        self.summary.bytes = self.summary.inputs.iter().map(|i| i.bytes).sum();
        self.summary.complete = self.summary.inputs.iter().all(|i| i.complete);
        self.summary.games_selected = self.summary.games;
        for input in &mut self.summary.inputs {
            input.games_selected = input.games;
        }
        let json = serde_json::to_vec_pretty(&self.summary).map_err(|e| OutputError::Format {
            file: "summary.json".into(),
            message: e.to_string(),
        })?;
        let page = super::html::render(&self.html, &self.summary, env!("CARGO_PKG_VERSION"));
        self.html_file.write_all(page.as_bytes())?;
        self.html_file.commit()?;
        self.summary_file.write_all(&json)?;
        self.summary_file.write_all(b"\n")?;
        for file in [self.games, self.castling].into_iter().flatten() {
            file.commit()?;
        }
        for file in [self.games_parquet, self.castling_parquet]
            .into_iter()
            .flatten()
        {
            file.commit()?;
        }
        for extract in self.extracts {
            extract.commit()?;
        }
        self.summary_file.commit()?;
        Ok(self.summary)
    }
}

/// Where tag `name` is among the `--tags` columns (compared without case).
fn tag_at(tags: &[String], name: &str) -> Option<usize> {
    tags.iter().position(|t| t.eq_ignore_ascii_case(name))
}

/// Adds `n` games of variant `name` to the summary's count; a game of an
/// unsupported variant (empty name) is counted by its status only.
fn count_variant(variants: &mut std::collections::BTreeMap<String, u64>, name: &str, n: u64) {
    if name.is_empty() {
        return;
    }
    match variants.get_mut(name) {
        Some(count) => *count += n,
        None => {
            variants.insert(name.to_string(), n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `add` counts statuses in an array indexed by `status as usize`,
    /// read back in the order of `Status::ALL`: the two orders must agree.
    #[test]
    fn status_discriminants_follow_status_all() {
        for (i, status) in Status::ALL.iter().enumerate() {
            assert_eq!(*status as usize, i, "{status:?}");
        }
    }

    #[test]
    fn variant_runs_add_up() {
        let mut variants = std::collections::BTreeMap::new();
        count_variant(&mut variants, "chess", 2);
        count_variant(&mut variants, "xiangqi", 1);
        count_variant(&mut variants, "chess", 3);
        assert_eq!(variants.get("chess"), Some(&5));
        assert_eq!(variants.get("xiangqi"), Some(&1));
    }
}
