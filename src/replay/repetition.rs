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
    /// First ply at which some key occurred for the fifth time (FIDE
    /// 9.6.1 under ep-if-legal; docs/outcomes.md).
    pub fivefold_ply: Option<u32>,
}

impl RepetitionStats {
    fn record(&mut self, count: u32, ply: u32) {
        self.max = self.max.max(count);
        if count >= 3 && self.threefold_ply.is_none() {
            self.threefold_ply = Some(ply);
        }
        if count >= 5 && self.fivefold_ply.is_none() {
            self.fivefold_ply = Some(ply);
        }
    }
}

/// Occurrence counts of the positions since the last irreversible move,
/// under both en-passant conventions at once.
///
/// The two conventions can only disagree on a position with an en-passant
/// square, which only a pawn's double step creates; a pawn move is
/// irreversible, so such a position is always the first of its run. The
/// table therefore keeps one list of keys and two versions of the first
/// one: every later position has the same key under both conventions.
#[derive(Debug)]
pub struct RepetitionTable {
    /// Keys of the run's positions after the first, in ply order (the
    /// first `len`), until the run outgrows [`SCAN_LIMIT`].
    keys: [u64; SCAN_LIMIT],
    len: usize,
    /// The run's first position under ep-always and ep-if-legal.
    first: [u64; 2],
    /// A 256-bit filter of every key of the run (both first keys
    /// included), by the key's top byte: a new position, by far the usual
    /// case, finds its bit clear and skips the scan, and with it a loop
    /// whose length changes every ply and so ends in a mispredicted branch.
    seen: [u64; 4],
    /// Occurrence counts of the run's keys after the first, kept instead of
    /// `keys` once the run outgrows [`SCAN_LIMIT`].
    counts: Option<HashMap<u64, u32>>,
    stats: [RepetitionStats; 2],
}

impl Default for RepetitionTable {
    fn default() -> Self {
        RepetitionTable {
            keys: [0; SCAN_LIMIT],
            len: 0,
            first: [0; 2],
            seen: [0; 4],
            counts: None,
            stats: Default::default(),
        }
    }
}

/// The word and bit of `key` in [`RepetitionTable::seen`]: its top byte.
#[inline(always)]
fn filter_bit(key: u64) -> (usize, u64) {
    let top = (key >> 56) as usize;
    (top >> 6 & 3, 1u64 << (top & 63))
}

impl RepetitionTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a run: the position at `ply` is the start of the game or
    /// follows an irreversible move, so no earlier position can occur
    /// again. Its keys under ep-always and ep-if-legal.
    pub fn start(&mut self, key_ep_always: u64, key_ep_legal: u64, ply: u32) {
        self.len = 0;
        self.counts = None;
        self.first = [key_ep_always, key_ep_legal];
        self.seen = [0; 4];
        for key in self.first {
            let (word, bit) = filter_bit(key);
            self.seen[word] |= bit;
        }
        for stats in &mut self.stats {
            stats.record(1, ply);
        }
    }

    /// Records the position at `ply`, reached by a reversible move: it has
    /// no en-passant square, so one key serves both conventions. Returns
    /// how often the key has now occurred in the run under ep-if-legal
    /// (1 for a new position), so that the caller can watch for claims.
    #[inline(always)]
    pub fn push(&mut self, key: u64, ply: u32) -> u32 {
        let (word, bit) = filter_bit(key);
        if self.seen[word] & bit == 0 && self.len < SCAN_LIMIT {
            // Not in the run: its first occurrence changes no statistic.
            self.seen[word] |= bit;
            self.keys[self.len] = key;
            self.len += 1;
            return 1;
        }
        self.seen[word] |= bit;
        self.push_maybe_seen(key, ply)
    }

    /// [`RepetitionTable::push`] for a key the filter may have seen, or
    /// past the scan limit: counts it for real.
    #[inline(never)]
    fn push_maybe_seen(&mut self, key: u64, ply: u32) -> u32 {
        let earlier = match self.counts {
            Some(_) => self.count_in_map(key),
            None => {
                let run = self.keys.get(..self.len).unwrap_or_default();
                // Keys include the side to move, so only every second
                // earlier position (those of the same parity as the new
                // one's index) can be equal.
                let mut earlier = 0;
                let mut i = self.len % 2;
                while let Some(&k) = run.get(i) {
                    earlier += u32::from(k == key);
                    i += 2;
                }
                if self.len < SCAN_LIMIT {
                    self.keys[self.len] = key;
                    self.len += 1;
                } else {
                    self.switch_to_map(key);
                }
                earlier
            }
        };
        // A first occurrence changes nothing: every run starts with a
        // count of 1 already recorded.
        if earlier > 0 || self.first.contains(&key) {
            for (stats, first) in self.stats.iter_mut().zip(self.first) {
                stats.record(1 + earlier + u32::from(first == key), ply);
            }
        }
        1 + earlier + u32::from(self.first[1] == key)
    }

    /// How often `key` occurred in the current run under ep-if-legal (0 if
    /// never). A scan of at most `SCAN_LIMIT` keys or a map lookup.
    pub fn count_ep_legal(&self, key: u64) -> u32 {
        let later = match &self.counts {
            Some(counts) => counts.get(&key).copied().unwrap_or(0),
            None => {
                let run = self.keys.get(..self.len).unwrap_or_default();
                run.iter().filter(|&&k| k == key).count() as u32
            }
        };
        later + u32::from(self.first[1] == key)
    }

    /// Names the current run, for a caller that keeps facts about it: the
    /// ep-if-legal key of its first position. No position occurs in two
    /// runs (an irreversible move changes the pawns, the material or the
    /// castling rights for good), so two runs never share it.
    pub fn run_id(&self) -> u64 {
        self.first[1]
    }

    /// The run outgrew the scan: from now on its keys are counted in a
    /// hash map, starting with the stored ones and `key`.
    #[cold]
    #[inline(never)]
    fn switch_to_map(&mut self, key: u64) {
        let mut counts = HashMap::with_capacity(SCAN_LIMIT * 4);
        for &k in self.keys.iter().chain([&key]) {
            *counts.entry(k).or_insert(0) += 1;
        }
        self.counts = Some(counts);
    }

    /// Counts `key` in the hash map of a long run; returns how often it
    /// occurred before.
    #[cold]
    #[inline(never)]
    fn count_in_map(&mut self, key: u64) -> u32 {
        let Some(counts) = &mut self.counts else {
            return 0;
        };
        let c = counts.entry(key).or_insert(0);
        *c += 1;
        *c - 1
    }

    /// The statistics under ep-always.
    pub fn stats_ep_always(&self) -> RepetitionStats {
        self.stats[0]
    }

    /// The statistics under ep-if-legal.
    pub fn stats_ep_legal(&self) -> RepetitionStats {
        self.stats[1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shuffle a-b-a-b-a: key 1 appears at plies 0, 2, 4.
    #[test]
    fn third_occurrence_is_reported_at_its_ply() {
        let mut t = RepetitionTable::new();
        t.start(1, 1, 0);
        for (ply, key) in [2, 1, 2, 1].into_iter().enumerate() {
            t.push(key, ply as u32 + 1);
        }
        assert_eq!(
            t.stats_ep_legal(),
            RepetitionStats {
                max: 3,
                threefold_ply: Some(4),
                fivefold_ply: None
            }
        );
    }

    #[test]
    fn clearing_forgets_earlier_positions_but_not_the_stats() {
        let mut t = RepetitionTable::new();
        t.start(7, 7, 0);
        t.push(8, 1);
        t.push(7, 2);
        t.start(7, 7, 3);
        assert_eq!(t.stats_ep_always().max, 2);
        assert_eq!(t.stats_ep_always().threefold_ply, None);
    }

    /// The hash-map path must count exactly like the scan path. Keys carry
    /// the side to move, as position keys do: equal keys have equal parity.
    #[test]
    fn long_reversible_runs_count_like_short_ones() {
        let keys: Vec<u64> = (0..1000u64)
            .map(|i| (((i * 7919) % 13) << 1) | (i & 1))
            .collect();
        let mut table = RepetitionTable::new();
        let mut naive: HashMap<u64, u32> = HashMap::new();
        let mut expected = RepetitionStats::default();
        for (ply, &k) in keys.iter().enumerate() {
            if ply == 0 {
                table.start(k, k, 0);
            } else {
                table.push(k, ply as u32);
            }
            let c = naive.entry(k).or_insert(0);
            *c += 1;
            expected.max = expected.max.max(*c);
            if *c >= 3 && expected.threefold_ply.is_none() {
                expected.threefold_ply = Some(ply as u32);
            }
            if *c >= 5 && expected.fivefold_ply.is_none() {
                expected.fivefold_ply = Some(ply as u32);
            }
        }
        assert_eq!(table.stats_ep_always(), expected);
        assert_eq!(table.stats_ep_legal(), expected);
    }

    /// Any sequence of runs counts like a naive per-run tally: keys drawn
    /// from a small pool (with the side to move in the low bit, as position
    /// keys have it), pairs of them sharing their top byte (the
    /// filter's index) with another, so that the filter's hits, misses and
    /// false alarms all occur, with runs long enough to reach the map.
    #[test]
    fn the_filter_never_changes_a_count() {
        use proptest::prelude::*;
        let pool: Vec<u64> = (0..12u64).map(|i| ((i / 2) << 56) | (i << 1)).collect();
        let step = (0..pool.len(), proptest::bool::weighted(0.05));
        proptest!(|(steps in proptest::collection::vec(step, 1..400))| {
            let mut table = RepetitionTable::new();
            let mut run: HashMap<u64, u32> = HashMap::new();
            let mut expected = RepetitionStats::default();
            for (ply, &(k, irreversible)) in steps.iter().enumerate() {
                let ply = ply as u32;
                // The side to move is part of a real key.
                let key = pool[k] | u64::from(ply & 1);
                if ply == 0 || irreversible {
                    table.start(key, key, ply);
                    run.clear();
                } else {
                    table.push(key, ply);
                }
                let c = run.entry(key).or_insert(0);
                *c += 1;
                expected.max = expected.max.max(*c);
                if *c >= 3 && expected.threefold_ply.is_none() {
                    expected.threefold_ply = Some(ply);
                }
                if *c >= 5 && expected.fivefold_ply.is_none() {
                    expected.fivefold_ply = Some(ply);
                }
            }
            prop_assert_eq!(table.stats_ep_always(), expected);
            prop_assert_eq!(table.stats_ep_legal(), expected);
        });
    }

    /// After a double step whose en-passant capture is not legal, the
    /// position recurs without the ep square: ep-if-legal counts the first
    /// occurrence, ep-always does not (docs/chess.md's missed threefold).
    #[test]
    fn only_the_first_position_of_a_run_differs_between_conventions() {
        let mut t = RepetitionTable::new();
        t.start(99, 10, 0);
        for (ply, key) in [21, 30, 41, 10, 21, 30, 41, 10].into_iter().enumerate() {
            t.push(key, ply as u32 + 1);
        }
        assert_eq!(
            t.stats_ep_legal(),
            RepetitionStats {
                max: 3,
                threefold_ply: Some(8),
                fivefold_ply: None
            }
        );
        assert_eq!(
            t.stats_ep_always(),
            RepetitionStats {
                max: 2,
                threefold_ply: None,
                fivefold_ply: None
            }
        );
    }
}
