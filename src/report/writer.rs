//! The ordered writer: receives each chunk's rows in input order, appends
//! them to the report files, keeps the totals, copies extracted games, and
//! at the end renames everything into place with `summary.json` last.

use super::chunk::FormattedChunk;
use super::extract::{ExtractFile, ExtractRequest};
use super::format::{castling_header, games_header};
use super::output::OutputDir;
use super::summary::{InputSummary, Summary};
use crate::output::AtomicFile;
use crate::output::OutputError;
use crate::replay::Status;

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
    ) -> Result<Self, OutputError> {
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
        chunk: &FormattedChunk,
        game_text: &dyn Fn(&crate::pgn::GameSpan) -> Vec<u8>,
    ) -> Result<(), OutputError> {
        self.games.write_all(&chunk.games_csv)?;
        self.castling.write_all(&chunk.castling_csv)?;
        let s = &mut self.summary;
        // The two maps are counted per chunk, not per game (a map lookup
        // compares strings): statuses in an array, variants as runs of
        // equal names (a file is nearly always one variant).
        let mut by_status = [0u64; Status::ALL.len()];
        let mut variant_run: Option<(&str, u64)> = None;
        for g in &chunk.games {
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
        let json = serde_json::to_vec_pretty(&self.summary).map_err(|e| OutputError::Format {
            file: "summary.json".into(),
            message: e.to_string(),
        })?;
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

/// Adds `n` games of variant `name` to the summary's count.
fn count_variant(variants: &mut std::collections::BTreeMap<String, u64>, name: &str, n: u64) {
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
