//! The two passes of duplicate detection over one small entry per game.

use super::DupKind;
use super::chain::chain_keys;
use super::headers::{HeaderComparison, HeaderPrints};
use crate::replay::line::{Key128, header_len, xxh3_128};
use std::collections::hash_map::Entry as MapEntry;
use std::hash::{BuildHasherDefault, Hasher};

/// The keys of the detector's tables are hashes already (XXH3 digests and
/// chained keys, uniform in every bit): their own bytes serve as the
/// table's hash, where SipHash would hash them a second time.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(17) ^ u64::from_le_bytes(word);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = self.0.rotate_left(17) ^ value;
    }
}

type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// `--duplicates-min-plies`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuplicateOptions {
    /// A game of fewer plies is a duplicate only of games whose White,
    /// Black, Event, Site and Date agree with its own.
    pub min_plies: u32,
}

impl Default for DuplicateOptions {
    fn default() -> Self {
        DuplicateOptions { min_plies: 10 }
    }
}

/// One game as the detector takes it (from its `ReplayedGame`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry<'a> {
    /// `line_key`; `None` for a game whose line did not replay whole:
    /// then it is no duplicate and nothing copies it.
    pub line_key: Option<Key128>,
    /// The start, final position and ply count's key.
    pub end_key: Option<Key128>,
    /// The canonical line string (`line_key` is its hash); needed with a
    /// `line_key`.
    pub line: Option<&'a [u8]>,
    /// Its White, Black, Event, Site and Date, as prints
    /// ([`HeaderPrints::of`], taken where the game was replayed).
    pub prints: HeaderPrints,
}

/// What a game copies: `dup_of` (its index in input order, from 0),
/// `dup_kind` and `dup_headers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub dup_of: usize,
    pub kind: DupKind,
    pub headers: HeaderComparison,
}

const NONE: u32 = u32::MAX;

/// What is kept of every game: 32 bytes.
#[derive(Clone, Copy, Debug)]
struct Game {
    prints: HeaderPrints,
    /// The first earlier game with the same line (and tags, when short).
    exact_of: u32,
    /// The first earlier game with the same end (and tags, when short).
    transposition_of: u32,
    /// The line class this game is the first of.
    class: u32,
}

/// A distinct line (the first game with it): 36 bytes.
#[derive(Clone, Copy, Debug)]
struct Class {
    line_key: Key128,
    first: u32,
    plies: u32,
    /// The longest game found so far whose line this one's is a strict
    /// prefix of, and its plies.
    best: u32,
    best_plies: u32,
    /// The next class whose chain key is the same (a 64-bit collision).
    next: u32,
}

/// Finds exact copies, prefix copies and transpositions (see the module).
///
/// Memory: 32 bytes a game, plus for each distinct line 36 bytes of class,
/// about 20 of chain-key index and 24 of end-key index (hash tables at
/// their load factor): about 110 bytes a game, up to twice that while a
/// table grows; 11 GB for a lichess month of 10⁸ games. No prefix is
/// stored: [`Detector::probe`] takes each line again.
#[derive(Debug, Default)]
pub struct Detector {
    options: DuplicateOptions,
    games: Vec<Game>,
    classes: Vec<Class>,
    /// Chain key of each class's whole line (its tags' group mixed in
    /// when short) → its class (the first of those with that key).
    by_chain: HashMap<u64, u32>,
    /// End key (tags' group mixed in when short) → first game.
    by_end: HashMap<Key128, u32>,
    /// One bit per chain key of `by_chain` (built for the second pass): a
    /// prefix whose bit is clear, nearly all, costs no table look-up.
    filter: Vec<u64>,
}

/// `key` with `group` mixed into its first eight bytes.
fn grouped(key: Key128, group: u64) -> Key128 {
    let mut out = key;
    let (head, _) = out.split_at_mut(8);
    let mixed = u64::from_le_bytes(head.try_into().unwrap_or_default()) ^ group;
    head.copy_from_slice(&mixed.to_le_bytes());
    out
}

impl Detector {
    pub fn new(options: DuplicateOptions) -> Self {
        Detector {
            options,
            ..Detector::default()
        }
    }

    /// The group a prefix or line of `plies` plies is keyed with: the
    /// tags' for fewer than `min_plies`, else none.
    fn group(&self, prints: &HeaderPrints, plies: u32) -> u64 {
        if plies < self.options.min_plies {
            prints.group()
        } else {
            0
        }
    }

    /// The first pass: the next game in input order. Exact copies and
    /// transpositions of earlier games are settled here. Returns whether
    /// [`Detector::probe`] wants the game's line again: not for an exact
    /// copy (its line is its original's) nor for a game without one.
    pub fn push(&mut self, entry: &Entry<'_>) -> bool {
        let index = self.games.len() as u32;
        let prints = entry.prints;
        let mut game = Game {
            prints,
            exact_of: NONE,
            transposition_of: NONE,
            class: NONE,
        };
        let (Some(line_key), Some(line)) = (entry.line_key, entry.line) else {
            self.games.push(game);
            return false;
        };
        let plies = header_len(line).map_or(0, |h| (line.len() - h) / 2) as u32;
        let group = self.group(&prints, plies);
        let chain = chain_keys(line).last().unwrap_or_default() ^ group;
        match self.find_class(chain, line_key, plies, group) {
            Some(class) => game.exact_of = self.classes[class as usize].first,
            None => {
                let class = self.classes.len() as u32;
                let next = match self.by_chain.entry(chain) {
                    MapEntry::Occupied(first) => {
                        // A 64-bit collision: chain the new class in.
                        std::mem::replace(first.into_mut(), class)
                    }
                    MapEntry::Vacant(slot) => {
                        slot.insert(class);
                        NONE
                    }
                };
                self.classes.push(Class {
                    line_key,
                    first: index,
                    plies,
                    best: NONE,
                    best_plies: 0,
                    next,
                });
                game.class = class;
            }
        }
        if let Some(end_key) = entry.end_key {
            let first = *self.by_end.entry(grouped(end_key, group)).or_insert(index);
            if first != index {
                game.transposition_of = first;
            }
        }
        let probed = game.class != NONE;
        self.games.push(game);
        probed
    }

    /// The class of the line `line_key` of `plies` plies whose chain key
    /// is `chain`, tags' group `group` (0 when not short).
    fn find_class(&self, chain: u64, line_key: Key128, plies: u32, group: u64) -> Option<u32> {
        let mut at = *self.by_chain.get(&chain)?;
        while let Some(class) = self.classes.get(at as usize) {
            let tags_agree = group == 0 || self.games[class.first as usize].prints.group() == group;
            if class.line_key == line_key && class.plies == plies && tags_agree {
                return Some(at);
            }
            at = class.next;
        }
        None
    }

    /// Bit of `key` in the filter.
    fn filter_bit(&self, key: u64) -> (usize, u64) {
        let bits = self.filter.len() * 64;
        let at = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & (bits - 1);
        (at / 64, 1 << (at % 64))
    }

    fn build_filter(&mut self) {
        // About 8 bits a class: a prefix that is no line passes with a
        // chance of about 1 in 8.
        let bits = (self.by_chain.len() * 8).next_power_of_two().max(64);
        self.filter = vec![0; bits / 64];
        let keys: Vec<u64> = self.by_chain.keys().copied().collect();
        for key in keys {
            let (word, bit) = self.filter_bit(key);
            self.filter[word] |= bit;
        }
    }

    /// The second pass: game `index`'s line again (any order, each game at
    /// most once; games without a line and exact copies are passed over).
    /// Each strict prefix that is the whole line of a pushed game makes
    /// this game a candidate for that game's `dup_of`.
    pub fn probe(&mut self, index: usize, line: &[u8]) {
        if self.filter.is_empty() {
            self.build_filter();
        }
        let Some(game) = self.games.get(index).copied() else {
            return;
        };
        if game.class == NONE {
            return;
        }
        let Some(header) = header_len(line) else {
            return;
        };
        let plies = ((line.len() - header) / 2) as u32;
        let short_group = game.prints.group();
        for (ply, chain) in chain_keys(line).enumerate().take(plies as usize) {
            let ply = ply as u32;
            let group = if ply < self.options.min_plies {
                short_group
            } else {
                0
            };
            let key = chain ^ group;
            let (word, bit) = self.filter_bit(key);
            if self.filter[word] & bit == 0 {
                continue;
            }
            let prefix = &line[..header + 2 * ply as usize];
            let mut key128 = None;
            let mut at = self.by_chain.get(&key).copied().unwrap_or(NONE);
            while let Some(class) = self.classes.get(at as usize).copied() {
                let next = class.next;
                let tags_agree =
                    group == 0 || self.games[class.first as usize].prints.group() == group;
                if class.plies == ply && tags_agree {
                    let prefix_key = *key128.get_or_insert_with(|| xxh3_128(prefix));
                    let longer = plies > class.best_plies
                        || (plies == class.best_plies && (index as u32) < class.best);
                    if prefix_key == class.line_key && longer {
                        let class = &mut self.classes[at as usize];
                        class.best = index as u32;
                        class.best_plies = plies;
                    }
                }
                at = next;
            }
        }
    }

    /// Every game's verdict, in input order (`None`: not a duplicate).
    pub fn finish(self) -> Vec<Option<Verdict>> {
        self.games
            .iter()
            .map(|game| {
                let prefix_of = self
                    .classes
                    .get(game.class as usize)
                    .map_or(NONE, |class| class.best);
                let (dup_of, kind) = if game.exact_of != NONE {
                    (game.exact_of, DupKind::Exact)
                } else if prefix_of != NONE {
                    (prefix_of, DupKind::Prefix)
                } else if game.transposition_of != NONE {
                    (game.transposition_of, DupKind::Transposition)
                } else {
                    return None;
                };
                let original = &self.games[dup_of as usize];
                Some(Verdict {
                    dup_of: dup_of as usize,
                    kind,
                    headers: HeaderComparison::of(&game.prints, &original.prints),
                })
            })
            .collect()
    }
}
