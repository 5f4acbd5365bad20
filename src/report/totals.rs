//! The run's totals, counted once, as the chunks are written: what
//! `summary.json` holds, and what report.html and the closing lines on the
//! terminal read from it.

use super::facts::GameFacts;
use super::summary::Summary;
use crate::replay::Status;

impl Summary {
    /// Counts one chunk of the current input: `facts` of its games in the
    /// report, `games_read` games read (selected by `--where` or not).
    pub fn add_chunk(&mut self, facts: &[GameFacts], games_read: u64) {
        let s = &mut *self;
        s.games_read += games_read;
        if let Some(input) = s.inputs.last_mut() {
            input.games_read += games_read;
        }
        // The two maps are counted per chunk, not per game (a map lookup
        // compares strings): statuses in an array, variants as runs of
        // equal names (a file is nearly always one variant).
        let mut by_status = [0u64; Status::ALL.len()];
        let mut variant_run: Option<(&str, u64)> = None;
        for g in facts {
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
        }
        let s = &mut *self;
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
    }

    /// The totals once every input is read: `elapsed_seconds` of wall
    /// time, and what follows from the inputs'.
    pub fn close(&mut self, elapsed_seconds: f64) {
        self.elapsed_seconds = elapsed_seconds;
        self.bytes = self.inputs.iter().map(|i| i.bytes).sum();
        self.complete = self.inputs.iter().all(|i| i.complete);
        self.games_selected = self.games;
        for input in &mut self.inputs {
            input.games_selected = input.games;
        }
    }
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

    /// `add_chunk` counts statuses in an array indexed by `status as
    /// usize`, read back in the order of `Status::ALL`: the two orders
    /// must agree.
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
