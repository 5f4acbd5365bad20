//! Counting how often each position occurs along a main line.
//!
//! A position key (a Zobrist hash of FEN fields 1-4 under one en-passant
//! convention) is pushed once per ply, the start position included. Only
//! positions since the last irreversible move (capture, pawn move, loss of a
//! castling right) can repeat, so the table is cleared there: in real games it
//! holds a handful of keys and a linear scan beats any hash map. A long run of
//! reversible moves (a pathological or composed game) switches to a hash map
//! so that time stays linear in the number of plies.

use std::collections::HashMap;

/// Past this many keys since the last irreversible move the table indexes
/// them in a hash map instead of scanning.
const SCAN_LIMIT: usize = 64;

/// The answer the report needs for one convention.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RepetitionStats {
    /// Highest number of occurrences of any key (1 for a game without
    /// repetitions; 0 only before anything was pushed).
    pub max: u32,
    /// First ply at which some key occurred for the third time.
    pub threefold_ply: Option<u32>,
}

/// Occurrence counts of the keys since the last irreversible move.
#[derive(Debug, Default)]
pub struct RepetitionTable {
    /// Keys since the last irreversible move, in ply order.
    keys: Vec<u64>,
    /// Occurrence counts, built only once `keys` outgrows [`SCAN_LIMIT`].
    counts: Option<HashMap<u64, u32>>,
    stats: RepetitionStats,
}

impl RepetitionTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every key: called before pushing the position after an
    /// irreversible move, since no earlier position can occur again.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.counts = None;
    }

    /// Records the position at `ply` and updates the statistics.
    pub fn push(&mut self, key: u64, ply: u32) {
        let count = match &mut self.counts {
            Some(counts) => {
                let c = counts.entry(key).or_insert(0);
                *c += 1;
                *c
            }
            None => {
                // Keys include the side to move, so one comparison per
                // earlier key is the whole test.
                1 + self.keys.iter().filter(|&&k| k == key).count() as u32
            }
        };
        self.keys.push(key);
        if self.counts.is_none() && self.keys.len() > SCAN_LIMIT {
            let mut counts = HashMap::with_capacity(self.keys.len() * 2);
            for &k in &self.keys {
                *counts.entry(k).or_insert(0) += 1;
            }
            self.counts = Some(counts);
        }
        self.stats.max = self.stats.max.max(count);
        if count >= 3 && self.stats.threefold_ply.is_none() {
            self.stats.threefold_ply = Some(ply);
        }
    }

    pub fn stats(&self) -> RepetitionStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shuffle a-b-a-b-a: key 1 appears at plies 0, 2, 4.
    #[test]
    fn third_occurrence_is_reported_at_its_ply() {
        let mut t = RepetitionTable::new();
        for (ply, key) in [1, 2, 1, 2, 1].into_iter().enumerate() {
            t.push(key, ply as u32);
        }
        assert_eq!(
            t.stats(),
            RepetitionStats {
                max: 3,
                threefold_ply: Some(4)
            }
        );
    }

    #[test]
    fn clearing_forgets_earlier_positions_but_not_the_stats() {
        let mut t = RepetitionTable::new();
        t.push(7, 0);
        t.push(8, 1);
        t.push(7, 2);
        t.clear();
        t.push(7, 3);
        assert_eq!(t.stats().max, 2);
        assert_eq!(t.stats().threefold_ply, None);
    }

    /// The hash-map path must count exactly like the scan path.
    #[test]
    fn long_reversible_runs_count_like_short_ones() {
        let keys: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 13).collect();
        let mut table = RepetitionTable::new();
        let mut naive: HashMap<u64, u32> = HashMap::new();
        let mut expected = RepetitionStats::default();
        for (ply, &k) in keys.iter().enumerate() {
            table.push(k, ply as u32);
            let c = naive.entry(k).or_insert(0);
            *c += 1;
            expected.max = expected.max.max(*c);
            if *c >= 3 && expected.threefold_ply.is_none() {
                expected.threefold_ply = Some(ply as u32);
            }
        }
        assert_eq!(table.stats(), expected);
    }
}
