//! The ordered writer: receives each chunk's rows in input order, appends
//! them to the report files, keeps the totals, copies extracted games, and
//! at the end renames everything into place with `summary.json` last.

use super::atomic::AtomicFile;
use super::chunk::ChunkResult;
use super::extract::{ExtractFile, ExtractRequest};
use super::format::{castling_header, games_header};
use super::output::OutputDir;
use super::summary::{InputSummary, Summary};
use crate::CliError;

pub struct ReportWriter {
    games: AtomicFile,
    castling: AtomicFile,
    extracts: Vec<ExtractFile>,
    summary_file: AtomicFile,
    pub summary: Summary,
}

impl ReportWriter {
    /// Opens the report's files under temporary names.
    pub fn create(
        out: &OutputDir,
        with_moves: bool,
        extracts: &[ExtractRequest],
        threads: usize,
    ) -> Result<Self, CliError> {
        let mut games = out.create("games.csv")?;
        games.write_all(&games_header(with_moves))?;
        let mut castling = out.create("castling.csv")?;
        castling.write_all(&castling_header())?;
        let extracts = extracts
            .iter()
            .map(ExtractFile::create)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ReportWriter {
            games,
            castling,
            extracts,
            summary_file: out.create("summary.json")?,
            summary: Summary::new(threads),
        })
    }

    /// Starts the totals of a new input.
    pub fn begin_input(&mut self, input: InputSummary) {
        self.summary.inputs.push(input);
    }

    /// Appends one chunk of the current input. `source_bytes` gives the
    /// original text of a game for the extract files.
    pub fn add(
        &mut self,
        chunk: &ChunkResult,
        game_text: &dyn Fn(&crate::pgn::GameSpan) -> Vec<u8>,
    ) -> Result<(), CliError> {
        self.games.write_all(&chunk.games_csv)?;
        self.castling.write_all(&chunk.castling_csv)?;
        let s = &mut self.summary;
        for g in &chunk.games {
            s.games += 1;
            s.plies += u64::from(g.plies);
            *s.status.entry(g.status.as_str()).or_insert(0) += 1;
            match s.variants.get_mut(g.variant.as_ref()) {
                Some(n) => *n += 1,
                None => {
                    s.variants.insert(g.variant.to_string(), 1);
                }
            }
            s.threefolds_ep_always += u64::from(g.threefold_ep_always);
            s.threefolds_ep_legal += u64::from(g.threefold_ep_legal);
            s.missed_threefolds += u64::from(g.missed_threefold);
            s.castling_conflicts += u64::from(g.castling_conflict);
            if let Some(input) = s.inputs.last_mut() {
                input.games += 1;
            }
            for extract in &mut self.extracts {
                if g.is(extract.kind) {
                    extract.append(&game_text(&g.span))?;
                }
            }
        }
        Ok(())
    }

    /// Renames every file into place, `summary.json` last, and returns the
    /// totals.
    pub fn finish(mut self, elapsed_seconds: f64) -> Result<Summary, CliError> {
        self.summary.elapsed_seconds = elapsed_seconds;
        self.summary.bytes = self.summary.inputs.iter().map(|i| i.bytes).sum();
        let json = serde_json::to_vec_pretty(&self.summary)
            .map_err(|e| CliError::Failed(format!("summary.json: {e}")))?;
        self.summary_file.write_all(&json)?;
        self.summary_file.write_all(b"\n")?;
        self.games.commit()?;
        self.castling.commit()?;
        for extract in self.extracts {
            extract.commit()?;
        }
        self.summary_file.commit()?;
        Ok(self.summary)
    }
}
