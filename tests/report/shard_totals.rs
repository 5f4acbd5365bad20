//! The totals of runs over parts of the inputs, merged
//! (`pgnmill::report::merge_summaries`, what the Python package's
//! `shards` writes as `_summary.json`), against the summary.json of one
//! `pgnmill report` over all of them: every count equal.

use std::path::PathBuf;

use pgnmill::job::Job;
use pgnmill::job::request::{Format, ReportRequest};
use pgnmill::report::{Summary, merge_summaries};
use pgnmill::source::Listing;
use serde_json::Value;

use crate::support::{report_run, root};

#[test]
fn merged_parts_count_what_one_run_counts() {
    // Folders (searched, with files passed over), zip members, cut-off
    // and damaged streams (warnings, `complete` false), xiangqi records.
    let inputs: Vec<PathBuf> = [
        "testdata/corpus",
        "testdata/compressed",
        "testdata/xiangqi/corpus",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect();
    let flags = ["--format", "parquet", "-j", "1", "--tags", "lichess"];
    let whole = report_run(
        &inputs.iter().map(|p| p.as_path()).collect::<Vec<_>>(),
        &flags,
    );
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    let whole = whole.summary();

    // What `shards` does: the files of the inputs, one run each.
    let job = Job::new(&inputs, Listing::Games).unwrap();
    let mut files: Vec<PathBuf> = Vec::new();
    for input in job.inputs() {
        let file = input.file_path().expect("a file").to_path_buf();
        if !files.contains(&file) {
            files.push(file);
        }
    }
    assert!(files.len() > 20, "{files:?}");
    let parts: Vec<Value> = files
        .iter()
        .map(|f| {
            let run = report_run(&[f.as_path()], &flags);
            assert_eq!(run.code, Some(0), "{f:?}: {}", run.stderr);
            run.summary()
        })
        .collect();
    let request = ReportRequest {
        inputs: inputs.clone(),
        tags: vec!["lichess".into()],
        formats: vec![Format::Parquet],
        ..ReportRequest::default()
    };
    let mut base = Summary::new(1);
    base.options = request.options().unwrap().summary;
    base.skipped = job.skipped().clone();
    let mut base = serde_json::to_value(&base).unwrap();
    base["elapsed_seconds"] = whole["elapsed_seconds"].clone();
    let merged = merge_summaries(base, &parts).unwrap();

    assert_eq!(merged, whole);
    // Not equal by being empty: the counts are there.
    assert!(
        whole["games"].as_u64().unwrap() > 1000,
        "{}",
        whole["games"]
    );
    assert_eq!(whole["complete"], false);
    assert!(whole["skipped"]["other_extensions"].as_u64().unwrap() > 0);
}
