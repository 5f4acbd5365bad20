//! Measures the game splitter alone (issue 5): the producer stage of
//! `pgnmill report` without I/O. The input is read into memory first, then
//! split by the same [`Reader`] the report uses (8 MiB windows), several
//! times; prints the best MB per CPU-second of the splitting thread (from
//! `/proc/thread-self/schedstat`, immune to other processes).
//!
//! With the pipeline, the split runs on one thread beside the replay
//! workers, so it caps the speed-up of a run at (split speed) / (replay
//! speed per core): compare its figure with the replay MB per CPU-second of
//! `examples/pipeline_stages.rs`.
//!
//! Usage: `cargo run --release --example split_speed -- INPUT [ROUNDS]`

use std::error::Error;
use std::path::PathBuf;
use std::sync::Arc;

use pgnmill::commands::report::thread_cpu_ns;
use pgnmill::source::{ReadOptions, Reader};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let input = PathBuf::from(args.next().ok_or("usage: split_speed INPUT [ROUNDS]")?);
    let rounds: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let bytes = Arc::new(std::fs::read(&input)?);
    let mb = bytes.len() as f64 / 1e6;
    let mut best = f64::INFINITY;
    let mut games = 0;
    for _ in 0..rounds {
        let cpu = thread_cpu_ns();
        let reader = Reader::from_shared(&input, bytes.clone(), &ReadOptions::default());
        games = 0;
        for batch in reader {
            games += batch?.games.len();
        }
        best = best.min(thread_cpu_ns().saturating_sub(cpu) as f64 / 1e9);
    }
    println!(
        "split alone: {mb:.1} MB, {games} games, best of {rounds}: {best:.3} CPU s = {:.0} MB per CPU-second",
        mb / best.max(1e-9)
    );
    Ok(())
}
