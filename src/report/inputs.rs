//! Interim input opening for the report (mapped plain files, decompressed
//! or piped input held in memory) until `source` provides streaming batches.

use crate::CliError;
use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};

/// One input named on the command line (or found in a folder).
pub struct Input {
    path: PathBuf,
    name: String,
}

impl Input {
    pub fn display_name(&self) -> &str {
        &self.name
    }

    /// Size on disk, for the progress bar (0 for stdin).
    pub fn size_hint(&self) -> u64 {
        if self.name == "-" {
            return 0;
        }
        std::fs::metadata(&self.path).map_or(0, |m| m.len())
    }

    pub fn open(&self) -> Result<Opened, CliError> {
        if self.name == "-" {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| CliError::io("-", e))?;
            return Ok(Opened::owned(buf, "none"));
        }
        let file = std::fs::File::open(&self.path).map_err(|e| CliError::io(&self.path, e))?;
        let len = file.metadata().map_err(|e| CliError::io(&self.path, e))?.len();
        if len == 0 {
            return Ok(Opened::owned(Vec::new(), "none"));
        }
        // SAFETY: the map is read-only; a file truncated by another process
        // while mapped is outside what this tool can defend against (as in
        // ripgrep, which makes the same choice for large files).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| CliError::io(&self.path, e))?;
        let compression = match map.get(..4) {
            Some([0x28, 0xb5, 0x2f, 0xfd]) => "zstd",
            Some([0x1f, 0x8b, ..]) => "gzip",
            _ => return Ok(Opened::mapped(map)),
        };
        let mut buf = Vec::new();
        let result = if compression == "zstd" {
            zstd::stream::read::Decoder::new(&map[..]).and_then(|mut d| d.read_to_end(&mut buf))
        } else {
            flate2::read::MultiGzDecoder::new(&map[..]).read_to_end(&mut buf)
        };
        result.map_err(|e| CliError::io(&self.path, e))?;
        Ok(Opened::owned(buf, compression))
    }
}

enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

/// An input's bytes and how to read them.
pub struct Opened {
    bytes: Bytes,
    compression: &'static str,
}

impl Opened {
    fn mapped(map: memmap2::Mmap) -> Self {
        Opened {
            bytes: Bytes::Mapped(map),
            compression: "none",
        }
    }

    fn owned(buf: Vec<u8>, compression: &'static str) -> Self {
        Opened {
            bytes: Bytes::Owned(buf),
            compression,
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    pub fn encoding_name(&self) -> &'static str {
        "utf-8"
    }

    pub fn compression_name(&self) -> &'static str {
        self.compression
    }

    pub fn is_double_byte(&self) -> bool {
        false
    }

}

impl crate::report::chunk::GameDecoder for Opened {
    fn decode_game<'a>(&self, raw: &'a [u8]) -> Cow<'a, [u8]> {
        Cow::Borrowed(raw)
    }
}

/// Files, folders (searched recursively for `.pgn`, `.pgn.zst`, `.pgn.gz`,
/// sorted) and `-`.
pub fn expand_inputs(args: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    let mut inputs = Vec::new();
    for arg in args {
        let name = arg.to_string_lossy().into_owned();
        if name == "-" {
            inputs.push(Input {
                path: arg.clone(),
                name,
            });
            continue;
        }
        let meta = std::fs::metadata(arg).map_err(|e| CliError::io(arg, e))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(arg, &mut found)?;
            if found.is_empty() {
                return Err(CliError::Failed(format!(
                    "{}: no .pgn, .pgn.zst or .pgn.gz files in this folder",
                    arg.display()
                )));
            }
            found.sort();
            inputs.extend(found.into_iter().map(|path| Input {
                name: path.to_string_lossy().into_owned(),
                path,
            }));
        } else {
            inputs.push(Input {
                path: arg.clone(),
                name,
            });
        }
    }
    Ok(inputs)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CliError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| CliError::io(dir, e))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| CliError::io(&path, e))?;
        if kind.is_dir() {
            walk(&path, found)?;
        } else {
            let lower = path.to_string_lossy().to_ascii_lowercase();
            if [".pgn", ".pgn.zst", ".pgn.gz"]
                .iter()
                .any(|ext| lower.ends_with(ext))
            {
                found.push(path);
            }
        }
    }
    Ok(())
}
