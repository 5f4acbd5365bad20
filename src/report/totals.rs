//! The run's totals, counted once, as the chunks are written: what
//! `summary.json` holds, and what report.html and the closing lines on the
//! terminal read from it; and the totals of runs over parts of the inputs
//! merged into those of one run over all of them ([`merge_summaries`]).

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

/// The keys of `summary.json` that say how the run was made rather than
/// what it counted: a merged summary takes them from its base.
const RUN_KEYS: [&str; 4] = ["options", "skipped", "elapsed_seconds", "threads"];

/// The `summary.json` of one run over all the inputs, from those of runs
/// over parts of them (the Python package's shards: one run per input
/// file, on any machine) in input order. `base` is what only the whole run
/// knows: how it was asked for (`options`), what the search of the
/// folders passed over (`skipped`: a part's own is not counted again),
/// its time and threads; its counts are zero (a [`Summary::new`]).
///
/// Every other key is merged by its value's kind, so that a count added
/// to the summary is merged with no change here: numbers are added (the
/// totals and each breakdown: status, variants, outcomes), lists joined
/// (`inputs`, in order), `complete` holds when it holds for every part,
/// and the version must be the same (parts written by another pgnmill
/// are refused: they may count differently).
pub fn merge_summaries(
    base: serde_json::Value,
    parts: &[serde_json::Value],
) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    let Value::Object(mut merged) = base else {
        return Err("a summary is a JSON object".into());
    };
    for (i, part) in parts.iter().enumerate() {
        let Value::Object(part) = part else {
            return Err(format!("part {}: a summary is a JSON object", i + 1));
        };
        for (key, value) in part {
            if RUN_KEYS.contains(&key.as_str()) {
                continue;
            }
            let into = merged.entry(key.clone()).or_insert(Value::Null);
            merge_value(into, value).map_err(|why| format!("part {}: {key}: {why}", i + 1))?;
        }
    }
    Ok(Value::Object(merged))
}

/// Merges `part` into `into` by kind ([`merge_summaries`]).
fn merge_value(into: &mut serde_json::Value, part: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    match (into, part) {
        (into @ Value::Null, part) => *into = part.clone(),
        (_, Value::Null) => {}
        (Value::Number(a), Value::Number(b)) => {
            *a = match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a.saturating_add(b).into(),
                _ => serde_json::Number::from_f64(
                    a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0),
                )
                .ok_or("not a finite number")?,
            }
        }
        (Value::Bool(a), Value::Bool(b)) => *a &= *b,
        (Value::Array(a), Value::Array(b)) => a.extend(b.iter().cloned()),
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in b {
                let into = a.entry(key.clone()).or_insert(Value::Null);
                merge_value(into, value).map_err(|why| format!("{key}: {why}"))?;
            }
        }
        (Value::String(a), Value::String(b)) if a == b => {}
        (a, b) => return Err(format!("{a} and {b} cannot be merged")),
    }
    Ok(())
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
    fn parts_merge_by_kind_and_the_base_says_how_the_run_was_made() {
        use serde_json::json;
        let base = json!({
            "pgnmill_version": "1.0", "complete": true, "options": {"moves": true},
            "skipped": {"hidden": 2}, "threads": 8, "elapsed_seconds": 3.5,
            "inputs": [], "games": 0, "status": {"ok": 0}, "variants": {},
        });
        let part = |path: &str, games: u64, complete: bool, variant: &str| {
            json!({
                "pgnmill_version": "1.0", "complete": complete, "options": {"moves": false},
                "skipped": {"hidden": 1}, "threads": 1, "elapsed_seconds": 1.0,
                "inputs": [{"path": path}], "games": games, "status": {"ok": games},
                "variants": {variant: games},
            })
        };
        let merged = merge_summaries(
            base,
            &[
                part("a.pgn", 3, true, "chess"),
                part("b.pgn", 4, false, "xiangqi"),
            ],
        )
        .unwrap();
        assert_eq!(
            merged,
            json!({
                "pgnmill_version": "1.0", "complete": false, "options": {"moves": true},
                "skipped": {"hidden": 2}, "threads": 8, "elapsed_seconds": 3.5,
                "inputs": [{"path": "a.pgn"}, {"path": "b.pgn"}], "games": 7,
                "status": {"ok": 7}, "variants": {"chess": 3, "xiangqi": 4},
            })
        );
        let other_version = json!({"pgnmill_version": "2.0"});
        let why = merge_summaries(json!({"pgnmill_version": "1.0"}), &[other_version]);
        assert!(why.unwrap_err().contains("pgnmill_version"));
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
