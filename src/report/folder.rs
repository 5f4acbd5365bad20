//! The report folder: refuses to mix a new report with an earlier one, and
//! makes the finished files appear together at the end.
//!
//! `summary.json` is the completeness marker: it is renamed into place last,
//! and removed first when `--force` replaces an earlier report, so a folder
//! with a `summary.json` always holds one finished run.

use crate::output::collisions::{Planned, Shape};
use crate::output::{AtomicFile, OutputError};
use crate::source::REPORT_FILES;
use std::path::{Path, PathBuf};

/// Every path a report folder `dir` is made of, the folder and its own
/// files, as [`crate::output::collisions::check`] takes them; `label`
/// names the folder in a refusal (`-o`, `out`).
pub fn planned_paths(label: &str, dir: &Path) -> Vec<Planned> {
    let mut planned = vec![Planned::new(label, dir, Shape::Folder)];
    planned.extend(
        REPORT_FILES
            .iter()
            .map(|name| Planned::new(format!("the report's {name}"), dir.join(name), Shape::File)),
    );
    planned
}

/// Removes the temporary files (`.games.csv.partial` ...) that a run into
/// `dir` left when it was killed before it could (SIGKILL, a bus error, a
/// power cut): they are pgnmill's own, under names no one else uses, and
/// a report folder should not keep them.
fn remove_leftover_partials(dir: &Path) -> Result<(), OutputError> {
    for name in REPORT_FILES {
        let partial = AtomicFile::temporary_path(&dir.join(name));
        let is_file = std::fs::symlink_metadata(&partial).is_ok_and(|m| m.is_file());
        if is_file {
            std::fs::remove_file(&partial).map_err(|e| OutputError::io(&partial, e))?;
        }
    }
    Ok(())
}

pub struct ReportFolder {
    dir: PathBuf,
    /// The folders this run created, innermost first: removed again when
    /// the run ends with them empty (it failed or was interrupted before
    /// any file was renamed into place), so a failed run leaves nothing.
    created: Vec<PathBuf>,
    /// Whether an earlier report was there (`--force`): its summary.json is
    /// gone from the start, so a run that then fails leaves it incomplete.
    replaced_earlier: bool,
}

impl ReportFolder {
    /// Checks and creates the folder. An earlier report in it is refused
    /// unless `force`, in which case its marker is removed at once.
    pub fn prepare(dir: &Path, force: bool) -> Result<Self, OutputError> {
        if dir.exists() && !dir.is_dir() {
            let what = if crate::output::is_stream(dir) {
                "a device or a pipe"
            } else {
                "a file"
            };
            return Err(OutputError::NotAFolder {
                path: dir.to_path_buf(),
                what,
            });
        }
        let earlier: Vec<&str> = REPORT_FILES
            .iter()
            .copied()
            .filter(|name| crate::output::is_taken(&dir.join(name)))
            .collect();
        if !earlier.is_empty() {
            if !force {
                return Err(OutputError::EarlierReport {
                    path: dir.to_path_buf(),
                    files: earlier.iter().map(|f| f.to_string()).collect(),
                });
            }
            let marker = dir.join("summary.json");
            if crate::output::is_taken(&marker) {
                std::fs::remove_file(&marker).map_err(|e| OutputError::io(&marker, e))?;
            }
        }
        let created: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(dir).map_err(|e| OutputError::io(dir, e))?;
        remove_leftover_partials(dir)?;
        Ok(ReportFolder {
            dir: dir.to_path_buf(),
            created,
            replaced_earlier: !earlier.is_empty(),
        })
    }

    /// Whether the folder held an earlier report, which `--force` began
    /// to replace by removing its summary.json: a run that does not finish
    /// leaves its other files without it, no longer a complete report.
    pub fn replaced_earlier(&self) -> bool {
        self.replaced_earlier
    }

    /// Starts writing `name` inside the folder.
    pub fn create(&self, name: &str) -> Result<AtomicFile, OutputError> {
        AtomicFile::create(&self.dir.join(name))
    }

    /// Removes the files `names` of an earlier report (replaced with
    /// `--force`) that this run does not write.
    pub fn remove_earlier(&self, names: &[&str]) -> Result<(), OutputError> {
        for name in names {
            let path = self.dir.join(name);
            if path.exists() {
                std::fs::remove_file(&path).map_err(|e| OutputError::io(&path, e))?;
            }
        }
        Ok(())
    }

    /// Removes the extract files of earlier runs (files whose first line
    /// is an extract's, [`crate::source::is_extract`]) in the folder and its subfolders
    /// for which `keep` is false: a report replaced with `--force` leaves
    /// none of its extracts that the new run does not write again, so no
    /// old extract passes for part of the new report. Returns those removed.
    pub fn remove_earlier_extracts(
        &self,
        keep: &dyn Fn(&Path) -> bool,
    ) -> Result<Vec<PathBuf>, OutputError> {
        let mut removed = Vec::new();
        let mut stack = vec![self.dir.clone()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| OutputError::io(&dir, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| OutputError::io(&dir, e))?;
                let path = entry.path();
                let hidden = entry.file_name().to_string_lossy().starts_with('.');
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if hidden {
                    continue;
                } else if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_file() && crate::source::is_extract(&path) && !keep(&path) {
                    std::fs::remove_file(&path).map_err(|e| OutputError::io(&path, e))?;
                    removed.push(path);
                }
            }
        }
        removed.sort();
        Ok(removed)
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for ReportFolder {
    /// Removes the folders the run created that are still empty: a
    /// finished report always holds `summary.json`, so only a run that
    /// failed or was interrupted leaves one empty. `remove_dir` removes
    /// only an empty folder; a folder that is not is left as it is.
    fn drop(&mut self) {
        for dir in &self.created {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
}
