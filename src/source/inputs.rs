//! Command-line inputs: files, directories searched for PGN files, and `-`.

use std::path::{Path, PathBuf};

use super::SourceError;
use super::window::{ReadOptions, Source, io_err};

/// One input to read: a file, or stdin (`-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path as given on the command line (or as found under a given
    /// directory); `-` for stdin. Reports name the input by this.
    pub path: PathBuf,
    stdin: bool,
}

impl Input {
    /// Standard input.
    pub fn stdin() -> Input {
        Input {
            path: PathBuf::from("-"),
            stdin: true,
        }
    }

    /// A file (compressed or not; that is found out when it is opened).
    pub fn file(path: impl Into<PathBuf>) -> Input {
        Input {
            path: path.into(),
            stdin: false,
        }
    }

    pub fn is_stdin(&self) -> bool {
        self.stdin
    }

    /// Opens the input: maps a plain file, or starts a decoder for a
    /// compressed file or stdin, and decides the text encoding.
    pub fn open(&self, opts: &ReadOptions) -> Result<Source, SourceError> {
        if self.stdin {
            Source::from_read(&self.path, Box::new(std::io::stdin()), opts)
        } else {
            Source::open_file(&self.path, opts)
        }
    }
}

/// What a folder search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Game collections: `.pgn`, `.pgn.zst`, `.pgn.zstd`, `.pgn.gz`.
    Games,
    /// Position lists: `.fen`, `.epd`, `.perft`, each also compressed.
    Positions,
}

impl Listing {
    /// The file name endings a search picks up (any case).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Listing::Games => &[".pgn", ".pgn.zst", ".pgn.zstd", ".pgn.gz"],
            Listing::Positions => &[
                ".fen", ".epd", ".perft", ".fen.zst", ".epd.zst", ".fen.gz", ".epd.gz",
            ],
        }
    }

    /// True for names a folder search picks up.
    fn picks(self, path: &Path) -> bool {
        let Some(name) = path.file_name() else {
            return false;
        };
        let name = name.to_string_lossy().to_ascii_lowercase();
        self.extensions().iter().any(|ext| name.ends_with(ext))
    }
}

/// Expands command-line arguments into inputs, in order: `-` is stdin, a file
/// is itself (whatever its name), a directory is every PGN file under it
/// (recursively, sorted by path so runs are reproducible; symbolic links to
/// directories are not followed, so there are no cycles).
pub fn expand_inputs(args: &[PathBuf]) -> Result<Vec<Input>, SourceError> {
    expand_inputs_for(args, Listing::Games)
}

/// [`expand_inputs`], a folder searched for the files of `listing`.
pub fn expand_inputs_for(args: &[PathBuf], listing: Listing) -> Result<Vec<Input>, SourceError> {
    let mut out = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            out.push(Input::stdin());
            continue;
        }
        let meta = std::fs::metadata(arg).map_err(|e| io_err(arg, e))?;
        if meta.is_dir() {
            let found = walk(arg, listing)?;
            if found.is_empty() {
                return Err(SourceError::NoInputFiles {
                    path: arg.clone(),
                    listing,
                });
            }
            out.extend(found.into_iter().map(Input::file));
        } else {
            // Find out now, not half-way through the run, that it cannot be read.
            std::fs::File::open(arg).map_err(|e| io_err(arg, e))?;
            out.push(Input::file(arg.clone()));
        }
    }
    Ok(out)
}

/// The files of `listing` under `dir`, sorted; an explicit stack, not recursion.
fn walk(dir: &Path, listing: Listing) -> Result<Vec<PathBuf>, SourceError> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| io_err(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io_err(&d, e))?;
            let path = entry.path();
            let ft = entry.file_type().map_err(|e| io_err(&path, e))?;
            if ft.is_dir() {
                stack.push(path);
            } else if listing.picks(&path) && (ft.is_file() || path.is_file()) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}
