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
    report_with(extra, |command| {
        command.args(inputs);
    })
}

/// Runs `pgnmill report --quiet -o FRESH EXTRA... -` with `file` on its
/// standard input, as `curl … | pgnmill report -` is run (two minutes at
/// most).
pub fn report_piped(file: &Path, extra: &[&str]) -> ReportRun {
    report_with(extra, |command| {
        command.arg("-").pipe_stdin(file).expect("stdin");
    })
}

/// Runs `pgnmill report --quiet -o FRESH EXTRA...` with the inputs
/// `inputs` adds.
fn report_with(extra: &[&str], inputs: impl FnOnce(&mut assert_cmd::Command)) -> ReportRun {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("report");
    let mut command = assert_cmd::Command::cargo_bin("pgnmill").expect("binary");
    command
        .arg("report")
        .arg("--quiet")
        .arg("-o")
        .arg(&out)
        .args(extra);
    inputs(&mut command);
    let output = command
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

/// One value of an Arrow column as the CSV field holds it (a null as the
/// empty field).
pub fn cell(array: &dyn arrow_array::Array, i: usize) -> String {
    use arrow_array::{BooleanArray, FixedSizeBinaryArray, Int32Array, Int64Array, StringArray};
    if array.is_null(i) {
        return String::new();
    }
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<StringArray>() {
        a.value(i).to_string()
    } else if let Some(a) = any.downcast_ref::<Int64Array>() {
        a.value(i).to_string()
    } else if let Some(a) = any.downcast_ref::<Int32Array>() {
        a.value(i).to_string()
    } else if let Some(a) = any.downcast_ref::<BooleanArray>() {
        a.value(i).to_string()
    } else if let Some(a) = any.downcast_ref::<FixedSizeBinaryArray>() {
        // A 128-bit key, as the CSV writes it (`line_key`).
        a.value(i).iter().map(|b| format!("{b:02x}")).collect()
    } else {
        panic!("unexpected type {:?}", array.data_type())
    }
}

/// A Parquet file as rows of CSV fields, its column names first, and its
/// schema.
pub fn parquet_cells(path: &Path) -> (Vec<Vec<String>>, arrow_schema::SchemaRef) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("parquet");
    let schema = builder.schema().clone();
    let mut rows = vec![
        schema
            .fields()
            .iter()
            .map(|f| f.name().to_string())
            .collect(),
    ];
    for batch in builder.build().expect("reader") {
        let batch = batch.expect("batch");
        for i in 0..batch.num_rows() {
            rows.push(
                batch
                    .columns()
                    .iter()
                    .map(|c| cell(c.as_ref(), i))
                    .collect(),
            );
        }
    }
    (rows, schema)
}

/// A CSV file as rows of fields, its header first.
pub fn csv_cells(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    reader
        .records()
        .map(|r| r.expect("record").iter().map(str::to_string).collect())
        .collect()
}
