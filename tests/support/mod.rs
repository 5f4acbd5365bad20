//! Helpers shared by the report tests: run the binary, read CSV files.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The repository root (tests run with the package root as working dir).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `testdata/`, in path order, subfolders included.
pub fn testdata_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir:?}: {e}"))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("testdata"), &mut out);
    out
}

/// Runs `pgnmill report` with `args` into a fresh folder and returns it.
pub fn run_report(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("report");
    let status = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .current_dir(root())
        .arg("report")
        .arg("--quiet")
        .arg("-o")
        .arg(&out)
        .args(args)
        .assert()
        .success();
    drop(status);
    (tmp, out)
}

/// A `pgnmill report --quiet` run into a fresh folder, whatever its exit.
pub struct ReportRun {
    pub code: Option<i32>,
    pub stderr: String,
    /// The report folder (inside a temporary folder that lives as long).
    pub out: PathBuf,
    _tmp: tempfile::TempDir,
}

impl ReportRun {
    /// The rows of games.csv.
    pub fn rows(&self) -> Vec<HashMap<String, String>> {
        read_csv(&self.out.join("games.csv"))
    }

    /// summary.json.
    pub fn summary(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.out.join("summary.json")).expect("summary.json");
        serde_json::from_str(&text).expect("summary.json is JSON")
    }
}

/// Runs `pgnmill report --quiet -o FRESH EXTRA... INPUTS...` (two minutes
/// at most).
pub fn report_run(inputs: &[&Path], extra: &[&str]) -> ReportRun {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("report");
    let output = assert_cmd::Command::cargo_bin("pgnmill")
        .expect("binary")
        .arg("report")
        .arg("--quiet")
        .arg("-o")
        .arg(&out)
        .args(extra)
        .args(inputs)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .expect("run pgnmill");
    ReportRun {
        code: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        out,
        _tmp: tmp,
    }
}

/// A CSV file as rows of column name -> value.
pub fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let headers = reader.headers().expect("header").clone();
    reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Checks the invariants of docs/reports.md on every row of a games.csv.
pub fn check_invariants(rows: &[HashMap<String, String>]) {
    for row in rows {
        let at = format!("{}#{}", row["source"], row["game"]);
        let num = |c: &str| row[c].parse::<u32>().ok();
        if let (Some(a), Some(l)) = (num("rep_max_ep_always"), num("rep_max_ep_legal")) {
            assert!(a <= l, "{at}: rep_max_ep_always {a} > rep_max_ep_legal {l}");
        }
        let missed =
            !row["threefold_ply_ep_legal"].is_empty() && row["threefold_ply_ep_always"].is_empty();
        assert_eq!(
            row["missed_threefold"],
            missed.to_string(),
            "{at}: missed_threefold"
        );
        assert_eq!(
            row["status"] == "ok",
            row["error"].is_empty(),
            "{at}: error must be empty exactly when ok: {:?}",
            row["error"]
        );
    }
}
