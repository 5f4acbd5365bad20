//! What the targets that read files share: the fuzz input written as a
//! file, and every input it gives opened as `report` opens one and read
//! to its end, window by window.

use pgnmill::source::{Opened, ReadOptions, WindowEnd, expand_inputs};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The options the fuzz targets read with: batches of 64 KiB, so that a
/// small input still makes several.
pub fn small_batches() -> ReadOptions {
    ReadOptions {
        batch_bytes: 1 << 16,
        ..ReadOptions::default()
    }
}

/// `data` written as `name` in a temporary folder, which lives as long as
/// the returned handle; `None` when it cannot be written.
pub fn as_file(data: &[u8], name: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::tempdir().ok()?;
    let path = dir.path().join(name);
    std::fs::File::create(&path).ok()?.write_all(data).ok()?;
    Some((dir, path))
}

/// What reading one input showed: the kind it was opened as, and for text,
/// every byte in order, then how it ended (the error's words when it broke
/// off) and what of it was damaged.
#[derive(Debug, PartialEq, Eq)]
pub enum Seen {
    Text {
        bytes: Vec<u8>,
        broken: Option<String>,
        /// The stretches of the text its compressed data did not vouch
        /// for, found by the end.
        damage: Vec<std::ops::Range<u64>>,
    },
    Records,
    /// Why, and the stretches of its text found damaged while its first
    /// bytes were read to classify it.
    Refused(String, Vec<std::ops::Range<u64>>),
    NotOpened(String),
}

/// How the text of an input is asked for.
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// The least a window is asked to hold.
    pub window: usize,
    /// Take half of each window (rounded up) instead of all of it, so that
    /// the next window starts inside the last one.
    pub half: bool,
}

impl Reading {
    /// 64 KiB windows, each taken whole: what the splitter does with a
    /// window that holds whole games.
    pub const WHOLE: Reading = Reading {
        window: 1 << 16,
        half: false,
    };
}

/// Every input `path` gives, opened with `options` and read as `reading`
/// says to its end. Nothing may hang: a window that may grow shows at
/// least one byte, and the reading ends with `Final` or `Broken`.
pub fn read_inputs(path: &Path, options: &ReadOptions, reading: Reading) -> Vec<Seen> {
    let Ok(inputs) = expand_inputs(&[path.to_path_buf()]) else {
        return Vec::new();
    };
    inputs
        .iter()
        .map(|input| read_opened(input.open(options), reading))
        .collect()
}

/// What reading an opened input (or the error opening it) showed, read
/// as `reading` says to its end.
pub fn read_opened(opened: Result<Opened, pgnmill::source::SourceError>, reading: Reading) -> Seen {
    match opened {
        Ok(Opened::Text(mut source)) => {
            let mut bytes = Vec::new();
            let mut broken = None;
            // A fuzz input expands to at most about 70 MB (a deflate
            // stream of 64 KiB), so this bound is never the reason
            // the loop ends.
            for _ in 0..100_000_000u64 {
                let (window, end) = source.window(reading.window);
                let n = window.len();
                let k = if reading.half { n.div_ceil(2) } else { n };
                bytes.extend_from_slice(&window[..k]);
                source.take(k);
                match end {
                    WindowEnd::More => assert!(n > 0, "an open window showed no byte"),
                    WindowEnd::Final if k == n => break,
                    WindowEnd::Broken if k == n => {
                        broken = Some(source.take_error().to_string());
                        break;
                    }
                    WindowEnd::Final | WindowEnd::Broken => {}
                }
            }
            let damage = source.damage().into_iter().map(|d| d.text).collect();
            Seen::Text {
                bytes,
                broken,
                damage,
            }
        }
        Ok(Opened::Records(_)) => Seen::Records,
        Ok(Opened::Refused(refusal)) => {
            let damage = refusal.damage().iter().map(|d| d.text.clone()).collect();
            Seen::Refused(refusal.why, damage)
        }
        Err(e) => Seen::NotOpened(e.to_string()),
    }
}
