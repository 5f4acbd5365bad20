//! Measures the serial fraction of `pgnmill report` (issue 5): runs the same
//! pipeline as `commands::report` (source batches → rayon chunks → ordered
//! writer) over one input and times each stage on its own.
//!
//! The reading/splitting stage and the writing stage run on the main thread
//! between parallel sections, so their on-CPU time (from
//! `/proc/thread-self/schedstat`, nanoseconds, immune to other processes on a
//! loaded machine) is the serial part of the job; the replay stage is the
//! parallel part. Amdahl's law then gives the speed-up ceiling at 16 cores.
//!
//! This mirrors `report_input` in `src/commands/report.rs`; if that loop
//! changes shape, change this one too (it is a measuring tool, not a second
//! implementation: it calls the same library functions).
//!
//! Usage: `cargo run --release --example pipeline_stages -- INPUT [THREADS] [OUTDIR]`

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use pgnmill::replay::ReplayOptions;
use pgnmill::report::OutputDir;
use pgnmill::report::chunk::{ChunkResult, process_chunk};
use pgnmill::report::summary::InputSummary;
use pgnmill::report::writer::ReportWriter;
use pgnmill::source::{Input, ReadOptions};
use rayon::prelude::*;

/// Same task size as `commands::report`.
const GAMES_PER_TASK: usize = 64;

/// On-CPU nanoseconds of the calling thread so far (Linux); 0 elsewhere,
/// which turns the CPU columns into zeros rather than failing.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

/// User+system seconds of the whole process so far (Linux, 100 ticks/s).
fn process_cpu_s() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses and may hold
    // spaces): state is field 3, utime field 14, stime field 15.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

/// Wall time and main-thread CPU time of one stage, accumulated.
#[derive(Default)]
struct Stage {
    wall: Duration,
    cpu_ns: u64,
}

impl Stage {
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let (w, c) = (Instant::now(), thread_cpu_ns());
        let r = f();
        self.wall += w.elapsed();
        self.cpu_ns += thread_cpu_ns().saturating_sub(c);
        r
    }
    fn cpu_s(&self) -> f64 {
        self.cpu_ns as f64 / 1e9
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let input = PathBuf::from(
        args.next()
            .ok_or("usage: pipeline_stages INPUT [THREADS] [OUTDIR]")?,
    );
    let threads: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let out_dir = args.next().map_or_else(
        || std::env::temp_dir().join("pgnmill-pipeline-stages"),
        PathBuf::from,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let started = Instant::now();
    let cpu0 = process_cpu_s();

    let (mut read, mut replay, mut write) = (Stage::default(), Stage::default(), Stage::default());
    let out = OutputDir::prepare(&out_dir, true)?;
    let mut writer = ReportWriter::create(&out, false, &[], threads)?;
    let options = ReplayOptions {
        moves: false,
        variant: None,
    };
    let name = input.to_string_lossy().into_owned();
    let mut reader = read.time(|| Input::file(&input).open(&ReadOptions::default()))?;
    let encoding = reader.encoding();
    writer.begin_input(InputSummary {
        path: name.clone(),
        ..InputSummary::default()
    });
    let (mut bytes, mut games, mut batches) = (0u64, 0u64, 0u64);
    while let Some(batch) = read.time(|| reader.next()) {
        let batch = batch?;
        let results: Vec<csv::Result<ChunkResult>> = replay.time(|| {
            pool.install(|| {
                batch
                    .games
                    .par_chunks(GAMES_PER_TASK)
                    .enumerate()
                    .map(|(i, chunk)| {
                        process_chunk(
                            &name,
                            batch.bytes(),
                            batch.base_offset,
                            chunk,
                            batch.first_game + 1 + (i * GAMES_PER_TASK) as u64,
                            encoding,
                            &options,
                        )
                    })
                    .collect()
            })
        });
        write.time(|| -> Result<(), Box<dyn Error>> {
            for result in results {
                writer.add(&result?, &|span| batch.game_bytes(span).to_vec())?;
            }
            Ok(())
        })?;
        bytes = batch.base_offset + batch.bytes().len() as u64;
        games += batch.games.len() as u64;
        batches += 1;
    }
    write.time(|| writer.finish(started.elapsed().as_secs_f64()))?;
    let wall = started.elapsed().as_secs_f64();
    let cpu = process_cpu_s() - cpu0;

    let serial_cpu = read.cpu_s() + write.cpu_s();
    // The serial fraction of the single-thread work: what Amdahl's law needs.
    let s = if cpu > 0.0 { serial_cpu / cpu } else { 0.0 };
    let cap = |n: f64| 1.0 / (s + (1.0 - s) / n);
    println!(
        "input {name}: {:.1} MB, {games} games, {batches} batches, {threads} thread(s)",
        bytes as f64 / 1e6
    );
    println!("stage            wall s   main-thread CPU s");
    for (label, st) in [
        ("read+split", &read),
        ("replay (par)", &replay),
        ("write", &write),
    ] {
        println!(
            "{label:<14} {:>8.3} {:>12.3}",
            st.wall.as_secs_f64(),
            st.cpu_s()
        );
    }
    println!("total          {wall:>8.3}   process CPU {cpu:.2} s");
    println!(
        "serial CPU (read+split+write on the main thread): {serial_cpu:.3} s = {:.2}% of the process CPU",
        100.0 * s
    );
    println!(
        "Amdahl ceiling with this serial fraction: {:.2}x at 2, {:.1}x at 16 threads",
        cap(2.0),
        cap(16.0)
    );
    Ok(())
}
