//! The module graph follows the data (`docs/design.md`): no module of the
//! library names a module of a later stage, and the rules kernels and the
//! PGN tokenizer know nothing of each other. This test reads the sources
//! and fails on the first `crate::X` (or `pgnmill::X`) that breaks the order.

use std::path::{Path, PathBuf};

/// The library's modules in the order data flows through them; a module may
/// name those before it (and `simd`, `cpu_time`: shared primitives), never
/// those after it. `chess` and `xiangqi` are rules kernels: they name no
/// other stage at all.
///
/// `job` comes last: it runs the whole path (the pipeline into the
/// report's sinks) for the command line and the Python package.
///
/// `records` (XQF, CCBridge, DhtmlXQ) comes after `xiangqi`: it writes a
/// record's games as PGN, checking moves with the kernel for `convert`, and
/// before `replay` and `pipeline`, which read that PGN like any other.
const STAGES: &[&str] = &[
    "source",
    "pgn",
    "chess",
    "xiangqi",
    "records",
    "fenlist",
    "variant",
    "openings",
    "replay",
    "duplicates",
    "output",
    "report",
    "convert",
    "pipeline",
    "job",
];

/// Modules a stage may not name although they come earlier: the kernels
/// know nothing of PGN or files, the tokenizer nothing of the rules.
fn also_forbidden(stage: &str) -> &'static [&'static str] {
    match stage {
        "chess" | "xiangqi" => &["source", "pgn", "chess", "xiangqi"],
        "pgn" => &["chess", "xiangqi"],
        "fenlist" => &["source", "pgn"],
        _ => &[],
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module names a file refers to as `crate::NAME`, `pgnmill::NAME` or
/// `super::NAME` (a stage's `mod.rs` reaching the crate root), outside
/// comments, with their line numbers.
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for prefix in ["crate::", "pgnmill::", "super::"] {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                rest = &rest[at + prefix.len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                found.push((i + 1, name));
            }
        }
    }
    found
}

#[test]
fn no_stage_names_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    let mut checked = 0;
    for (index, stage) in STAGES.iter().enumerate() {
        let mut files = Vec::new();
        // A stage is a folder of files, or one file.
        let single = src.join(format!("{stage}.rs"));
        if single.is_file() {
            files.push(single);
        } else {
            rust_files(&src.join(stage), &mut files);
        }
        assert!(!files.is_empty(), "no sources under src/{stage}");
        let later = &STAGES[index + 1..];
        for file in files {
            let text = std::fs::read_to_string(&file).expect("source file");
            for (line, name) in named_modules(&text) {
                checked += 1;
                if name == "super" || name == "self" {
                    continue;
                }
                let own = name == *stage;
                let bad = later.contains(&name.as_str())
                    || name == "commands"
                    || (!own && also_forbidden(stage).contains(&name.as_str()));
                if bad {
                    broken.push(format!("{}:{line}: names {name}", file.display()));
                }
            }
        }
    }
    assert!(checked > 250, "only {checked} references read");
    assert!(
        broken.is_empty(),
        "stages out of order:\n{}",
        broken.join("\n")
    );
}

/// The command line is the binary's: the library does not declare it.
#[test]
fn the_library_does_not_hold_the_command_line() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    assert!(
        !lib.contains("mod commands"),
        "src/lib.rs declares commands"
    );
}

/// The checker sees a reference written the way the sources write them.
#[test]
fn references_are_found() {
    let found = named_modules(
        "use crate::report::Status; // crate::pipeline\nx(pgnmill::pgn::A, super::replay)",
    );
    assert_eq!(
        found,
        [
            (1, "report".into()),
            (2, "pgn".into()),
            (2, "replay".into())
        ]
    );
}
