//! Streams the games of a collection of any size through pgnmill's Arrow
//! stream ([`pgnmill::job::Job::games`]) and counts, per `TimeControl`, the
//! games and the threefold repetitions the PGN standard's en-passant
//! convention misses (`missed_threefold`), without writing any file: the
//! batches are read as they are made, so memory stays that of a few
//! batches whatever the input's size.
//!
//! ```sh
//! cargo run --release --example missed_by_time_control -- lichess_db_standard_rated_2025-05.pgn.zst
//! ```

use std::collections::BTreeMap;
use std::error::Error;
use std::path::PathBuf;

use arrow_array::{Array, BooleanArray, StringArray};
use pgnmill::job::{Job, ReportOptions};
use pgnmill::pgn::select::TagQuery;
use pgnmill::source::Listing;

/// Games and missed threefolds of one time control.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Count {
    games: u64,
    missed: u64,
}

/// The counts per `TimeControl` value (empty for games without one) of
/// the games in `inputs`, on `threads` threads.
fn missed_by_time_control(
    inputs: &[PathBuf],
    threads: usize,
) -> Result<BTreeMap<String, Count>, Box<dyn Error>> {
    let options = ReportOptions {
        // The TimeControl tag as a column.
        select: TagQuery::new(vec!["TimeControl".into()], Vec::new()),
        ..ReportOptions::default()
    };
    let job = Job::new(inputs, Listing::Games)?.threads(threads);
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    for batch in job.games(&options)? {
        let batch = batch?;
        let column = |name: &str| {
            batch
                .column_by_name(name)
                .ok_or(format!("no column {name}"))
        };
        let missed = column("missed_threefold")?
            .as_any()
            .downcast_ref::<BooleanArray>()
            .ok_or("missed_threefold is not boolean")?;
        let time_control = column("TimeControl")?
            .as_any()
            .downcast_ref::<StringArray>()
            .ok_or("TimeControl is not text")?;
        for row in 0..batch.num_rows() {
            let count = counts
                .entry(time_control.value(row).to_string())
                .or_default();
            count.games += 1;
            count.missed += u64::from(missed.value(row));
        }
        debug_assert_eq!(missed.null_count(), 0);
    }
    Ok(counts)
}

fn main() -> Result<(), Box<dyn Error>> {
    let inputs: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if inputs.is_empty() {
        return Err("usage: missed_by_time_control INPUT...".into());
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{:>12} {:>10} {:>8} {:>7}",
        "TimeControl", "games", "missed", "%"
    );
    for (tc, c) in missed_by_time_control(&inputs, threads)? {
        let rate = 100.0 * c.missed as f64 / c.games.max(1) as f64;
        let tc = if tc.is_empty() { "(none)" } else { &tc };
        println!("{tc:>12} {:>10} {:>8} {rate:>7.2}", c.games, c.missed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example's counts, gathered into lichess's time-control classes,
    /// are python-chess's for `testdata/research/lichess-style.pgn`
    /// (`testdata/expected/research.json`, generator
    /// `testdata/gen/research_expected.py`), at 1 and 2 threads.
    #[test]
    fn counts_are_python_chess_s() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let expected: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join("testdata/expected/research.json")).unwrap(),
        )
        .unwrap();
        let expected = &expected["lichess_style"];
        for threads in [1, 2] {
            let counts = missed_by_time_control(
                &[root.join("testdata/research/lichess-style.pgn")],
                threads,
            )
            .unwrap();
            let mut by_class: BTreeMap<&str, Count> = BTreeMap::new();
            for (tc, c) in &counts {
                let Some(class) = pgnmill::report::classes::time_control_class(tc) else {
                    continue;
                };
                let name = pgnmill::report::classes::TIME_CONTROL_CLASSES[usize::from(class)];
                let entry = by_class.entry(name).or_default();
                entry.games += c.games;
                entry.missed += c.missed;
            }
            let games: u64 = counts.values().map(|c| c.games).sum();
            let missed: u64 = counts.values().map(|c| c.missed).sum();
            assert_eq!(games, expected["games"].as_u64().unwrap());
            assert_eq!(missed, expected["missed"].as_u64().unwrap());
            for (class, want) in expected["by_time_control"].as_object().unwrap() {
                let got = by_class.get(class.as_str()).copied().unwrap_or_default();
                assert_eq!(got.games, want["games"].as_u64().unwrap(), "{class}");
                assert_eq!(got.missed, want["missed"].as_u64().unwrap(), "{class}");
            }
        }
    }
}
