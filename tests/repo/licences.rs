//! pgnmill is MIT OR Apache-2.0 (`LICENSE-MIT`, `LICENSE-APACHE`), the
//! Rust ecosystem's convention, so that anyone may use the library and the
//! packages built from it. That holds only while everything linked into
//! them allows it: this test reads `cargo metadata` and fails on any
//! dependency of the library or the binary (build dependencies included,
//! dev-dependencies not: they are never shipped) whose licence expression
//! cannot be satisfied from the permissive licences below.

use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;

/// Licences that let pgnmill's users use, change and ship it under
/// MIT OR Apache-2.0 without further duties than keeping notices.
const PERMISSIVE: &[&str] = &[
    "MIT",
    "MIT-0",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "0BSD",
    "ISC",
    "Zlib",
    "CC0-1.0",
    "Unlicense",
    "BSL-1.0",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    // libbzip2's own licence: BSD-style (keep the notice).
    "bzip2-1.0.6",
];

/// Whether an SPDX expression (`A OR B`, `A AND B`, `A WITH exception`,
/// parentheses; crates.io's older `A/B` for OR) can be met with the
/// permissive licences: an OR needs one side, an AND both.
fn allowed(expr: &str) -> bool {
    let tokens: Vec<String> = expr
        .replace('(', " ( ")
        .replace(')', " ) ")
        .replace('/', " OR ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut at = 0;
    let ok = or_expr(&tokens, &mut at);
    ok && at == tokens.len()
}

fn or_expr(t: &[String], at: &mut usize) -> bool {
    let mut ok = and_expr(t, at);
    while t.get(*at).is_some_and(|s| s == "OR") {
        *at += 1;
        ok |= and_expr(t, at);
    }
    ok
}

fn and_expr(t: &[String], at: &mut usize) -> bool {
    let mut ok = atom(t, at);
    while t.get(*at).is_some_and(|s| s == "AND") {
        *at += 1;
        ok &= atom(t, at);
    }
    ok
}

fn atom(t: &[String], at: &mut usize) -> bool {
    let Some(token) = t.get(*at) else {
        return false;
    };
    *at += 1;
    let ok = if token == "(" {
        let ok = or_expr(t, at);
        if t.get(*at).is_some_and(|s| s == ")") {
            *at += 1;
            ok
        } else {
            false
        }
    } else {
        PERMISSIVE.contains(&token.as_str())
    };
    // An exception only adds permissions (LLVM-exception, ...).
    if t.get(*at).is_some_and(|s| s == "WITH") {
        *at += 2;
    }
    ok
}

#[test]
fn licence_expressions_are_read_as_spdx_defines_them() {
    assert!(allowed("MIT OR Apache-2.0"));
    assert!(allowed("MIT/Apache-2.0"));
    assert!(allowed("(MIT OR Apache-2.0) AND Unicode-3.0"));
    assert!(allowed(
        "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"
    ));
    assert!(allowed("GPL-3.0-or-later OR MIT"));
    assert!(!allowed("GPL-3.0-or-later"));
    assert!(!allowed("MIT AND GPL-2.0-only"));
    assert!(!allowed("(MIT OR Apache-2.0) AND LGPL-3.0"));
    assert!(!allowed(""));
}

/// The host's target triple, so that `cargo metadata` needs only the
/// packages a build here has already fetched.
fn host() -> String {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("host line")
        .to_string()
}

#[test]
fn pgnmill_and_everything_it_ships_are_permissively_licensed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT OR Apache-2.0\""));
    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(root.join(file).is_file(), "{file} missing");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--filter-platform"])
        .arg(host())
        .output()
        .expect("cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let licence: HashMap<&str, (&str, &str)> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let id = p["id"].as_str().unwrap();
            let name = p["name"].as_str().unwrap();
            (id, (name, p["license"].as_str().unwrap_or("")))
        })
        .collect();
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    // Everything the workspace's packages need to build and run, but not
    // their dev-dependencies.
    let mut todo: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let members: HashSet<&str> = todo.iter().copied().collect();
    let mut seen = HashSet::new();
    let mut refused = Vec::new();
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        let (name, expr) = licence[id];
        if !members.contains(id) && !allowed(expr) {
            refused.push(format!("{name}: {expr:?}"));
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let shipped = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].as_str() != Some("dev"));
            if shipped {
                todo.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    assert!(seen.len() > 20, "the dependency graph was read");
    assert!(refused.is_empty(), "not permissive: {refused:?}");
}
