//! Measures the game splitter alone (docs/performance.md): the producer stage of
//! `pgnmill report` without I/O. The input is read into memory first, then
//! split by the same [`Batches`] the report uses (8 MiB windows), several
//! times, on THREADS threads (`Batches::set_split_threads`); prints the best
//! round's wall time and CPU time of the whole process (all threads, from
//! `/proc/self/stat`, 10 ms ticks), as MB of PGN per second.
//!
//! With the pipeline, the split runs beside the replay workers, so it caps
//! the speed-up of a run at (split MB per wall second) / (replay MB per
//! CPU-second and core): compare with the replay figure of
//! `benches/pipeline_stages.rs`.
//!
//! Usage: `cargo bench --bench split_speed -- INPUT [THREADS] [ROUNDS]`

use std::error::Error;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use pgnmill::pgn::Batches;
use pgnmill::source::ReadOptions;

mod support;

/// User+system seconds of the whole process so far (Linux, 100 ticks/s).
fn process_cpu_s() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // After the command name (in parentheses, may hold spaces): utime and
    // stime are the 12th and 13th fields.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = support::args().into_iter();
    let input = PathBuf::from(
        args.next()
            .ok_or("usage: split_speed INPUT [THREADS] [ROUNDS]")?,
    );
    let threads: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let rounds: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let bytes = Arc::new(std::fs::read(&input)?);
    let mb = bytes.len() as f64 / 1e6;
    let (mut wall, mut cpu, mut games) = (f64::INFINITY, f64::INFINITY, 0);
    for _ in 0..rounds {
        let (w, c) = (Instant::now(), process_cpu_s());
        let mut reader = Batches::from_shared(&input, bytes.clone(), &ReadOptions::default());
        reader.set_split_threads(threads);
        games = 0;
        for batch in reader {
            games += batch?.games.len();
        }
        wall = wall.min(w.elapsed().as_secs_f64());
        cpu = cpu.min(process_cpu_s() - c);
    }
    println!(
        "split alone, {threads} thread(s): {mb:.1} MB, {games} games; best of {rounds}: \
         {wall:.3} s wall = {:.0} MB/s, {cpu:.2} CPU s = {:.0} MB per CPU-second",
        mb / wall.max(1e-9),
        mb / cpu.max(1e-9)
    );
    Ok(())
}
