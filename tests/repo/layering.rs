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
        // A stage is a folder of files, one file, or one file and the
        // folder of its submodules (`job.rs` and `job/`).
        let single = src.join(format!("{stage}.rs"));
        if single.is_file() {
            files.push(single);
        }
        let folder = src.join(stage);
        if folder.is_dir() {
            rust_files(&folder, &mut files);
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

// No cycles between files -------------------------------------------------
//
// Stage order says nothing of the files inside a stage: two files of one
// module can still need each other (once, `source/content.rs` and
// `source/window.rs` did), which makes neither readable alone. This check
// builds the graph of which file of `src/` uses which and fails on any
// cycle in it.
//
// A path is followed to the file that *defines* what it names: through
// child modules (`crate::source::window::Chunk`), `use` bindings (a name a
// module imports or re-exports), `super::` and `self::`. A file that uses
// a name defined in another is an edge; so is a `use` of a module. A
// module's re-export of its own children (`pub use window::Chunk` in
// `source/mod.rs`) is its table of contents, not a use: it is followed,
// and is no edge. A `#[cfg(test)]` module is no part of what its file
// needs: unit tests may drive a module from its crate's entry point (the
// tests of `replay/chess_game.rs` call `replay::replay_text`), as an
// integration test would.

/// A token of Rust source, as far as paths need: comments, strings and
/// character literals are skipped, so braces inside them do not count.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Colons,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other(char),
}

/// The tokens of `text`, each with its line number.
fn tokens(text: &str) -> Vec<(usize, Tok)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    line += usize::from(chars[i] == '\n');
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            '\'' => {
                if at(i + 1) == '\\' {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    // A lifetime: its name follows as an identifier.
                    i += 1;
                }
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let start = i;
                while at(i).is_ascii_alphanumeric() || at(i) == '_' {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                if (word == "r" || word == "br") && matches!(at(i), '"' | '#') {
                    // A raw string: r#"..."#, as many # as opened it.
                    let mut hashes = 0;
                    while at(i) == '#' {
                        hashes += 1;
                        i += 1;
                    }
                    if at(i) == '"' {
                        i += 1;
                        loop {
                            if i >= chars.len() {
                                break;
                            }
                            if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                                i += 1 + hashes;
                                break;
                            }
                            line += usize::from(chars[i] == '\n');
                            i += 1;
                        }
                    }
                    continue;
                }
                out.push((line, Tok::Ident(word)));
            }
            c if c.is_ascii_digit() => {
                while at(i).is_ascii_alphanumeric() || at(i) == '_' {
                    i += 1;
                }
            }
            ':' if at(i + 1) == ':' => {
                out.push((line, Tok::Colons));
                i += 2;
            }
            _ => {
                let tok = match c {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    ',' => Tok::Comma,
                    ';' => Tok::Semi,
                    '*' => Tok::Star,
                    other => Tok::Other(other),
                };
                out.push((line, tok));
                i += 1;
            }
        }
    }
    out
}

/// A path a file names: where it stands (the module, inline modules such
/// as `tests` included) and its segments (`*` for a glob).
#[derive(Debug, Clone)]
struct Named {
    line: usize,
    scope: Vec<String>,
    segments: Vec<String>,
    /// The name a `use` binds (the last segment, or its `as` name).
    binds: Option<String>,
    /// A `pub` (or `pub(..)`) `use`.
    public: bool,
    /// A name alone in code (`Listing`, `io_err(..)`): a use of what the
    /// module binds by that name, if it binds one.
    bare: bool,
    /// Inside a `#[cfg(test)]` module.
    in_test: bool,
}

/// Expands the use tree at `toks[*i..]` (up to a `,`, `}` or `;`) after
/// `prefix`: one `(segments, bound name)` per leaf.
fn use_tree(
    toks: &[(usize, Tok)],
    i: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*i).map(|t| &t.1) {
            Some(Tok::Ident(word)) => {
                path.push(word.clone());
                *i += 1;
            }
            Some(Tok::Star) => {
                path.push("*".into());
                *i += 1;
                out.push((path, None));
                return;
            }
            Some(Tok::Open) => {
                *i += 1;
                while !matches!(toks.get(*i).map(|t| &t.1), Some(Tok::Close) | None) {
                    use_tree(toks, i, &path, out);
                    if toks.get(*i).map(|t| &t.1) == Some(&Tok::Comma) {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            _ => {}
        }
        match toks.get(*i).map(|t| &t.1) {
            Some(Tok::Colons) => *i += 1,
            _ => break,
        }
    }
    let mut name = path.last().cloned();
    if toks.get(*i).map(|t| &t.1) == Some(&Tok::Ident("as".into())) {
        name = match toks.get(*i + 1).map(|t| &t.1) {
            Some(Tok::Ident(alias)) => Some(alias.clone()),
            _ => None,
        };
        *i += 2;
    }
    if path.last().is_some_and(|s| s == "self") {
        path.pop();
        if name.as_deref() == Some("self") {
            name = path.last().cloned();
        }
    }
    if name.as_deref() == Some("_") {
        name = None;
    }
    out.push((path, name));
}

/// Every path `text` (the file of module `module`) names: its `use`
/// statements and the paths in its code that start with a module word
/// (`crate`, `super`, `self`, `pgnmill`) or any name followed by `::`.
fn paths_named(text: &str, module: &[String]) -> Vec<Named> {
    let toks = tokens(text);
    let mut found = Vec::new();
    let mut depth = 0usize;
    // Inline modules (`mod tests { .. }`): their name, the depth of their
    // body, and whether they are `#[cfg(test)]`.
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let scope = |inline: &[(String, usize, bool)]| -> Vec<String> {
        module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _, _)| n.clone()))
            .collect()
    };
    let in_test = |inline: &[(String, usize, bool)]| inline.iter().any(|m| m.2);
    let mut i = 0;
    while i < toks.len() {
        let (line, tok) = &toks[i];
        let prev = i.checked_sub(1).and_then(|p| toks.get(p)).map(|t| &t.1);
        match tok {
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last().is_some_and(|(_, d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(word) if word == "mod" => {
                if let (Some((_, Tok::Ident(name))), Some((_, Tok::Open))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    let cfg_test = [
                        Tok::Other('#'),
                        Tok::Other('['),
                        Tok::Ident("cfg".into()),
                        Tok::Other('('),
                        Tok::Ident("test".into()),
                        Tok::Other(')'),
                        Tok::Other(']'),
                    ];
                    let before = toks[i.saturating_sub(7)..i].iter().map(|t| &t.1);
                    let test = i >= 7 && before.eq(cfg_test.iter());
                    inline.push((name.clone(), depth + 1, test));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Tok::Ident(word) if word == "use" && prev != Some(&Tok::Colons) => {
                let public = match prev {
                    Some(Tok::Ident(p)) => p == "pub",
                    Some(Tok::Other(')')) => (1..=6).any(|back| {
                        i.checked_sub(back)
                            .and_then(|p| toks.get(p))
                            .is_some_and(|t| t.1 == Tok::Ident("pub".into()))
                    }),
                    _ => false,
                };
                let mut leaves = Vec::new();
                let mut j = i + 1;
                if toks.get(j).map(|t| &t.1) == Some(&Tok::Colons) {
                    j += 1;
                }
                use_tree(&toks, &mut j, &[], &mut leaves);
                for (segments, binds) in leaves {
                    found.push(Named {
                        line: *line,
                        scope: scope(&inline),
                        segments,
                        binds,
                        public,
                        bare: false,
                        in_test: in_test(&inline),
                    });
                }
                i = j;
                continue;
            }
            Tok::Ident(first)
                if prev != Some(&Tok::Colons)
                    && toks.get(i + 1).map(|t| &t.1) == Some(&Tok::Colons) =>
            {
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while let (Some((_, Tok::Colons)), Some((_, Tok::Ident(next)))) =
                    (toks.get(j), toks.get(j + 1))
                {
                    segments.push(next.clone());
                    j += 2;
                }
                found.push(Named {
                    line: *line,
                    scope: scope(&inline),
                    segments,
                    binds: None,
                    public: false,
                    bare: false,
                    in_test: in_test(&inline),
                });
                i = j;
                continue;
            }
            Tok::Ident(word)
                if prev != Some(&Tok::Colons) && prev != Some(&Tok::Ident("mod".into())) =>
            {
                found.push(Named {
                    line: *line,
                    scope: scope(&inline),
                    segments: vec![word.clone()],
                    binds: None,
                    public: false,
                    bare: true,
                    in_test: in_test(&inline),
                });
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The two crates of `src/`: the library (`lib.rs`) and the binary
/// (`main.rs` and the modules it declares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Crate {
    Lib,
    Bin,
}

/// A module: its crate and path (`["source", "window"]`).
type Module = (Crate, Vec<String>);

/// What a path leads to: a module, or an item defined in a module.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Module(Module),
    Item(Module),
}

/// The files of `src/` and what they name.
struct Graph {
    /// `(file name, module)`, by index.
    files: Vec<(String, Module)>,
    named: Vec<Vec<Named>>,
    /// The names each module (inline modules too) binds by `use`.
    bindings: std::collections::HashMap<Module, std::collections::HashMap<String, Named>>,
}

impl Graph {
    /// `sources`: `(path under src/, text)`.
    fn new(sources: &[(String, String)]) -> Graph {
        let bin_modules: Vec<String> = sources
            .iter()
            .find(|(p, _)| p == "main.rs")
            .map(|(_, text)| {
                let toks = tokens(text);
                toks.windows(3)
                    .filter_map(|w| match (&w[0].1, &w[1].1, &w[2].1) {
                        (Tok::Ident(m), Tok::Ident(name), Tok::Semi) if m == "mod" => {
                            Some(name.clone())
                        }
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut graph = Graph {
            files: Vec::new(),
            named: Vec::new(),
            bindings: Default::default(),
        };
        for (path, text) in sources {
            let mut parts: Vec<String> = path
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            let krate =
                if path == "main.rs" || parts.first().is_some_and(|p| bin_modules.contains(p)) {
                    Crate::Bin
                } else {
                    Crate::Lib
                };
            let named = paths_named(text, &parts);
            for n in &named {
                if let Some(name) = &n.binds {
                    graph
                        .bindings
                        .entry((krate, n.scope.clone()))
                        .or_default()
                        .insert(name.clone(), n.clone());
                }
            }
            graph.files.push((path.clone(), (krate, parts)));
            graph.named.push(named);
        }
        graph
    }

    fn is_module(&self, module: &Module) -> bool {
        self.files.iter().any(|(_, m)| m == module)
    }

    /// The file a module is in (an inline module is in its parent's).
    fn file_of(&self, module: &Module) -> Option<usize> {
        let (krate, path) = module;
        (0..=path.len()).rev().find_map(|n| {
            let prefix = (*krate, path[..n].to_vec());
            self.files.iter().position(|(_, m)| *m == prefix)
        })
    }

    /// Where `segments`, named in module `scope`, lead; `None` for what is
    /// not of this crate (std, other crates) or not followed (a local
    /// type's `Type::method`).
    fn resolve(
        &self,
        krate: Crate,
        scope: &[String],
        segments: &[String],
        depth: usize,
    ) -> Option<Target> {
        if depth > 16 {
            return None;
        }
        let (first, rest) = segments.split_first()?;
        let mut cur: Module = match first.as_str() {
            "crate" => (krate, Vec::new()),
            "pgnmill" => (Crate::Lib, Vec::new()),
            "super" => (krate, scope[..scope.len().saturating_sub(1)].to_vec()),
            "self" => (krate, scope.to_vec()),
            name => {
                let child = (krate, [scope, &[name.to_string()]].concat());
                if self.is_module(&child) {
                    child
                } else {
                    match self.bound(krate, scope, name, depth)?? {
                        Target::Module(m) => m,
                        item => return Some(item),
                    }
                }
            }
        };
        for seg in rest {
            match seg.as_str() {
                "super" => {
                    cur.1.pop();
                }
                "self" => {}
                "*" => return Some(Target::Module(cur)),
                name => {
                    let mut child = cur.clone();
                    child.1.push(name.to_string());
                    if self.is_module(&child) {
                        cur = child;
                        continue;
                    }
                    match self.bound(cur.0, &cur.1, name, depth) {
                        // A module reached through a binding: the path goes
                        // on from it.
                        Some(Some(Target::Module(m))) => cur = m,
                        Some(found) => return found,
                        // Not a module, not bound: defined there.
                        None => return Some(Target::Item(cur)),
                    }
                }
            }
        }
        Some(Target::Module(cur))
    }

    /// Where the name `name` that module `(krate, scope)` binds by `use`
    /// leads (`Some(None)`: out of this crate); `None` if it binds no such
    /// name.
    fn bound(
        &self,
        krate: Crate,
        scope: &[String],
        name: &str,
        depth: usize,
    ) -> Option<Option<Target>> {
        let b = self.bindings.get(&(krate, scope.to_vec()))?.get(name)?;
        Some(self.resolve(krate, &b.scope, &b.segments, depth + 1))
    }

    /// Every edge `(from, to, line)` between two files.
    fn edges(&self) -> Vec<(usize, usize, usize)> {
        let mut edges = Vec::new();
        for (from, named) in self.named.iter().enumerate() {
            let (krate, module) = &self.files[from].1;
            for n in named.iter().filter(|n| !n.in_test) {
                let target = if n.bare {
                    self.bound(*krate, &n.scope, &n.segments[0], 0).flatten()
                } else {
                    self.resolve(*krate, &n.scope, &n.segments, 0)
                };
                let Some(target) = target else {
                    continue;
                };
                let (Target::Module(m) | Target::Item(m)) = &target;
                // A re-export of the module's own descendant: its table of
                // contents.
                let own = m.0 == *krate && m.1.len() > module.len() && m.1.starts_with(module);
                if n.public && own {
                    continue;
                }
                if let Some(to) = self.file_of(m)
                    && to != from
                {
                    edges.push((from, to, n.line));
                }
            }
        }
        edges
    }

    /// The cycles: each strongly connected set of two or more files, with
    /// the edges inside it (`file:line -> file`, the first line of each
    /// pair of files), sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let edges = self.edges();
        let n = self.files.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b, _) in &edges {
            next[a].push(b);
        }
        // Which files reach which (n is ~150: a search from each is cheap).
        let reach: Vec<Vec<bool>> = (0..n)
            .map(|s| {
                let mut seen = vec![false; n];
                let mut stack = vec![s];
                while let Some(v) = stack.pop() {
                    for &w in &next[v] {
                        if !seen[w] {
                            seen[w] = true;
                            stack.push(w);
                        }
                    }
                }
                seen
            })
            .collect();
        let mut done = vec![false; n];
        let mut cycles = Vec::new();
        for a in 0..n {
            if done[a] || !reach[a][a] {
                continue;
            }
            let set: Vec<usize> = (0..n).filter(|&b| reach[a][b] && reach[b][a]).collect();
            // One edge per pair of files: the first line that makes it.
            let mut inside: Vec<(usize, usize, usize)> = edges
                .iter()
                .copied()
                .filter(|(x, y, _)| set.contains(x) && set.contains(y))
                .collect();
            inside.sort();
            inside.dedup_by_key(|&mut (x, y, _)| (x, y));
            let mut lines: Vec<String> = inside
                .iter()
                .map(|&(x, y, line)| format!("{}:{line} -> {}", self.files[x].0, self.files[y].0))
                .collect();
            lines.sort();
            for &b in &set {
                done[b] = true;
            }
            cycles.push(lines);
        }
        cycles
    }
}

/// `src/`'s files, as `(path under src/, text)`.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).expect("under src/");
            let name = rel.to_string_lossy().replace('\\', "/");
            (name, std::fs::read_to_string(f).expect("source file"))
        })
        .collect()
}

#[test]
fn no_file_of_src_needs_itself_through_others() {
    let graph = Graph::new(&sources());
    let edges = graph.edges();
    assert!(
        edges.len() > 300,
        "only {} uses between files found",
        edges.len()
    );
    let cycles = graph.cycles();
    assert!(
        cycles.is_empty(),
        "{} cycle(s) between files of src/:\n{}",
        cycles.len(),
        cycles
            .iter()
            .map(|c| c.join("\n  "))
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// `(path, text)` pairs of a made-up `src/`.
fn made_up(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

/// The shape `source/` once had is a cycle; without the one import that
/// closes it, there is none: a re-export of a child and the child's use of
/// an error its parent defines are no cycle.
#[test]
fn two_files_that_import_each_other_are_a_cycle() {
    let mut files = vec![
        ("lib.rs", "pub mod source;"),
        (
            "source/mod.rs",
            "mod content;\nmod window;\npub use window::{Chunk, Source};\npub enum SourceError {}",
        ),
        (
            "source/window.rs",
            "use super::SourceError;\nuse super::content::{CONTENT_BYTES, content_of};\npub struct Source;",
        ),
        (
            "source/content.rs",
            "use std::io::Read;\nuse super::window::Shared;\npub(super) fn content_of() {}",
        ),
    ];
    assert_eq!(
        Graph::new(&made_up(&files)).cycles(),
        [vec![
            "source/content.rs:2 -> source/window.rs".to_string(),
            "source/window.rs:2 -> source/content.rs".to_string(),
        ]]
    );
    files[3].1 = "use std::io::Read;\npub(super) fn content_of() {}";
    assert_eq!(
        Graph::new(&made_up(&files)).cycles(),
        Vec::<Vec<String>>::new()
    );
}

/// Paths are followed through re-exports to the file that defines the
/// item, in `use` statements and in code, across three files and both
/// crates; paths in strings, comments and test modules' `use super::*`
/// are no edges, and a brace in a character literal does not end a module.
#[test]
fn a_cycle_through_reexports_and_code_paths_is_found() {
    let files = [
        ("lib.rs", "pub mod a;\npub mod b;"),
        (
            "main.rs",
            "mod commands;\nfn main() { pgnmill::b::Thing::new(); }",
        ),
        (
            "commands/mod.rs",
            "use pgnmill::a::f;\nuse crate::main_helper;",
        ),
        ("a.rs", "pub fn f() { let _ = crate::b::Thing::new(); }"),
        ("b/mod.rs", "mod inner;\npub use inner::Thing;"),
        (
            "b/inner.rs",
            "pub struct Thing;\n// crate::c::x\nconst S: &str = \"crate::a::f\";\nconst B: u8 = b'{';\n\
             impl Thing { fn g() { super::super::c::h() } }\n#[cfg(test)]\nmod tests {\n    use super::*;\n    \
             use crate::d::entry;\n}\nfn after() {}",
        ),
        ("c.rs", "pub fn h() { crate::a::f() }"),
        // Used by b/inner.rs's tests only: no cycle.
        ("d.rs", "pub fn entry() { crate::b::Thing::g() }"),
    ];
    let cycles = Graph::new(&made_up(&files)).cycles();
    assert_eq!(
        cycles,
        [vec![
            "a.rs:1 -> b/inner.rs".to_string(),
            "b/inner.rs:5 -> c.rs".to_string(),
            "c.rs:1 -> a.rs".to_string(),
        ]]
    );
}
