//! Outputs never collide and never become inputs: the checks every command
//! makes on the paths it is asked to write, before it opens any file (the
//! rules, once, in docs/reports.md, "Where outputs may go"). Each refusal
//! is a [`Collision`] that names both paths: a usage error (exit 2) on the
//! command line, a `ValueError` in Python.
//!
//! Paths are compared as the file system resolves them: symbolic links
//! and `..` followed as far as the path exists, the rest taken as
//! written, so `r/../r/x.pgn`, `./r/x.pgn` and a link to `r` are one path.

use std::path::{Component, Path, PathBuf};

/// Why a planned output may not be written where it is asked to be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Collision(pub String);

/// What an output path is to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A report folder (`report -o`).
    Folder,
    /// One file (`convert -o`, `fen -o`).
    File,
    /// An extract file (`--extract`): marked as pgnmill's own, so that a
    /// folder search passes it over; it may be written into an input
    /// folder.
    Extract,
}

impl Shape {
    fn is_file(self) -> bool {
        matches!(self, Shape::File | Shape::Extract)
    }
}

/// One path a command will write, with the words that name it in a
/// message (`-o`, `--extract errors`, `the report's games.csv`).
#[derive(Debug, Clone)]
pub struct Planned {
    pub label: String,
    pub path: PathBuf,
    pub shape: Shape,
}

impl Planned {
    pub fn new(label: impl Into<String>, path: impl Into<PathBuf>, shape: Shape) -> Self {
        Planned {
            label: label.into(),
            path: path.into(),
            shape,
        }
    }

    /// `-`: standard output, no file.
    fn is_stdout(&self) -> bool {
        self.path.as_os_str() == "-"
    }
}

/// Refuses, before the inputs are even searched: an empty path; a report
/// folder named `-`; a file output that is an existing folder; two
/// outputs that name one path (standard output included); a report folder
/// that is an input folder, lies inside one, or holds an input; a file output inside an input folder, where a later
/// search of that folder would read it back (an extract may: a search
/// passes it over).
pub fn check(planned: &[Planned], args: &[PathBuf]) -> Result<(), Collision> {
    for p in planned {
        if p.path.as_os_str().is_empty() {
            return Err(refused(format!(
                "{}: an empty path names no file or folder",
                p.label
            )));
        }
        if p.shape == Shape::Folder && p.is_stdout() {
            return Err(refused(format!(
                "{} -: a report is a folder of files, which standard output cannot hold; name a folder",
                p.label
            )));
        }
        if p.shape.is_file() && !p.is_stdout() && p.path.is_dir() {
            return Err(refused(format!(
                "{}: {} names a folder; give the name of a file to write",
                p.path.display(),
                p.label
            )));
        }
    }
    let resolved: Vec<Option<PathBuf>> = planned
        .iter()
        .map(|p| (!p.is_stdout()).then(|| resolve(&p.path)))
        .collect();
    for (i, a) in planned.iter().enumerate() {
        for (j, b) in planned.iter().enumerate().skip(i + 1) {
            let same = match (&resolved[i], &resolved[j]) {
                (None, None) => true,
                (Some(x), Some(y)) => x == y,
                _ => false,
            };
            if same {
                let what = if a.is_stdout() {
                    "standard output".to_string()
                } else {
                    b.path.display().to_string()
                };
                return Err(refused(format!(
                    "{} and {} both name {what}; give each output its own name",
                    a.label, b.label
                )));
            }
        }
    }
    for arg in args.iter().filter(|a| a.as_os_str() != "-") {
        let input = resolve(arg);
        let input_is_folder = arg.is_dir();
        for (p, out) in planned.iter().zip(&resolved) {
            let Some(out) = out else { continue };
            if p.shape == Shape::Folder && out.starts_with(&input) && input_is_folder {
                let how = if *out == input {
                    "is the input folder"
                } else {
                    "is inside the input folder"
                };
                return Err(refused(format!(
                    "{} {}: {how} {}; the report would be written among the files it reads. Write it elsewhere",
                    p.label,
                    p.path.display(),
                    arg.display()
                )));
            }
            if p.shape == Shape::Folder && input.starts_with(out) && input != *out {
                return Err(refused(format!(
                    "{} {}: holds the input {}; the report would be written among the files it reads. Write it elsewhere",
                    p.label,
                    p.path.display(),
                    arg.display()
                )));
            }
            if p.shape == Shape::File && input_is_folder && out.starts_with(&input) {
                return Err(refused(format!(
                    "{} {}: is inside the input folder {}, where a later run would read it back. Write it elsewhere",
                    p.label,
                    p.path.display(),
                    arg.display()
                )));
            }
        }
    }
    Ok(())
}

/// Refuses a file output that is one of the inputs found (the same file
/// by another path or link too): writing it would destroy what is read.
/// Asked once the inputs are found, after [`check`].
pub fn check_none_is_an_input<'a>(
    planned: impl IntoIterator<Item = &'a Planned>,
    inputs: &[&Path],
) -> Result<(), Collision> {
    planned
        .into_iter()
        .try_for_each(|p| check_not_an_input(p, inputs))
}

fn check_not_an_input(p: &Planned, inputs: &[&Path]) -> Result<(), Collision> {
    if p.is_stdout() {
        return Ok(());
    }
    let Ok(target) = std::fs::canonicalize(&p.path) else {
        return Ok(());
    };
    match inputs
        .iter()
        .find(|i| std::fs::canonicalize(i).is_ok_and(|i| i == target || same_file(&i, &target)))
    {
        Some(input) => Err(refused(format!(
            "{}: {} names the input {}; write it elsewhere",
            p.path.display(),
            p.label,
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Whether two existing paths are one file by two names (a hard link),
/// by the identity the input search dedups files by.
fn same_file(a: &Path, b: &Path) -> bool {
    use crate::source::file_id;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => file_id(&a).is_some_and(|id| file_id(&b) == Some(id)),
        _ => false,
    }
}

fn refused(message: String) -> Collision {
    Collision(message)
}

/// `path` made absolute and resolved as far as it exists: its longest
/// existing ancestor canonicalized (links and `..` followed), the rest
/// appended with `.` dropped and `..` taken lexically.
pub fn resolve(path: &Path) -> PathBuf {
    let absolute = std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest: Vec<Component<'_>> = Vec::new();
    let base = loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            break real;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => break PathBuf::new(),
        }
    };
    let mut out = base;
    for c in rest.into_iter().rev() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_follows_what_exists_and_reads_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(real.join("a")).unwrap();
        assert_eq!(resolve(&real.join("a/../a/x/./y")), real.join("a/x/y"));
        assert_eq!(resolve(&real.join("a/x/../z")), real.join("a/z"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(real.join("a"), real.join("link")).unwrap();
            assert_eq!(resolve(&real.join("link/new.pgn")), real.join("a/new.pgn"));
        }
    }
}
