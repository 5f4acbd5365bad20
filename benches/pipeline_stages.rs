//! Measures the serial fraction of `pgnmill report` on the real pipeline:
//! runs `pipeline::run_report` over one input and prints
//! the on-CPU time of each stage, taken inside the run from
//! `/proc/thread-self/schedstat` (nanoseconds on a CPU, immune to other
//! processes on a loaded machine).
//!
//! The producer (read or map, split into games), the decoder of a
//! compressed input and the writer (main thread: rows in input order,
//! summary) are one thread each; they run alongside the replay workers (from
//! 4 replay threads on, each window is also split on helper threads:
//! parallel work, like replay). So they are the serial stages: with `n`
//! cores the run takes at least max(total CPU / n, producer CPU, decoder
//! CPU, writer CPU), which caps the speed-up over one core at total CPU /
//! that.
//!
//! Usage: `cargo bench --bench pipeline_stages -- INPUT [THREADS] [OUTDIR] [FORMAT]`
//! (`scripts/throughput.sh` calls it with THREADS 1 and 16, and with
//! FORMAT `parquet` for the writer's share with `--format parquet`; the
//! default is `csv`).

use std::error::Error;
use std::path::PathBuf;

use pgnmill::job::{Job, ReportOptions};
use pgnmill::report::ReportFolder;
use pgnmill::source::Listing;

mod support;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = support::args().into_iter();
    let input = PathBuf::from(
        args.next()
            .ok_or("usage: pipeline_stages INPUT [THREADS] [OUTDIR] [FORMAT]")?,
    );
    let threads: usize = args.next().map_or(Ok(1), |s| s.parse())?;
    let out = args.next().map_or_else(
        || std::env::temp_dir().join("pgnmill-pipeline-stages"),
        PathBuf::from,
    );
    let format = args.next().unwrap_or_else(|| "csv".into());
    let options = ReportOptions {
        csv: format.split(',').any(|f| f == "csv"),
        parquet: format.split(',').any(|f| f == "parquet"),
        ..ReportOptions::default()
    };
    let job = Job::new(std::slice::from_ref(&input), Listing::Games)?.threads(threads);
    let out = ReportFolder::prepare(&out, true)?;
    let t = job.report(&options, &out, &mut ())?.stages;
    let mb = t.bytes as f64 / 1e6;
    let total = t.total_cpu_s();
    println!(
        "input {}: {mb:.1} MB, {} games, --format {format}, {threads} replay thread(s), split on {}, {:.2} s wall",
        input.display(),
        t.games,
        t.split_threads,
        t.wall_s
    );
    println!("stage                       CPU s   share   MB per CPU-s");
    for (label, s) in [
        ("producer (read+split)", t.producer_cpu_s),
        ("decoder (zstd, gzip)", t.decoder_cpu_s),
        ("split helpers", t.split_helpers_cpu_s),
        ("writer (main thread)", t.writer_cpu_s),
        ("replay (workers)", t.replay_cpu_s),
    ] {
        let share = if total > 0.0 { 100.0 * s / total } else { 0.0 };
        let rate = if s > 0.0 { mb / s } else { 0.0 };
        println!("{label:<24} {s:>8.3} {share:>6.1}% {rate:>10.0}");
    }
    println!("total                    {total:>8.3}");
    println!(
        "serial fraction (the longest one-thread stage, overlapped with replay): {:.2}%",
        100.0 * t.serial_fraction()
    );
    println!(
        "speed-up cap over one core: {:.2}x at 2 cores, {:.1}x at 16 cores, {:.0}x with unlimited cores",
        t.speedup_cap(2.0),
        t.speedup_cap(16.0),
        t.speedup_cap(f64::INFINITY)
    );
    Ok(())
}
