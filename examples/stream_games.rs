//! The README's "From Rust" program: every game of testdata/corpus,
//! replayed on all cores, as Arrow batches, and whether every input was
//! read to its end.
//!
//! Usage: `cargo run --release --example stream_games`

use pgnmill::{Job, Listing, ReportOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let job = Job::new(&["testdata/corpus".into()], Listing::Games)?;
    let mut stream = job.games(&ReportOptions::default())?;
    for batch in stream.by_ref() {
        let batch = batch?; // an arrow_array::RecordBatch: games.csv's columns
        println!("{} games", batch.num_rows());
    }
    let outcome = stream.finish()?;
    println!(
        "read whole: {}; {:?}",
        outcome.summary.complete, outcome.warnings
    );
    Ok(())
}
