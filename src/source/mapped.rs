//! Memory maps of input files, named while they are mapped. A file cut
//! short or rewritten while it is read makes reading its lost pages a bus
//! error (SIGBUS); the command line's handler then says which files were
//! mapped. A signal handler may not allocate, lock or follow a pointer
//! another thread may free, so the names are copied into a fixed table of
//! atomic bytes that it reads with plain loads: a name being replaced at
//! that moment can come out torn, never unsafe.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

/// Maps named at once; a process maps its inputs one or two at a time
/// (the one read, the one whose last games the workers still replay).
const SLOTS: usize = 8;

/// Bytes kept of each name; a longer one keeps its end, the file's name.
const NAME_BYTES: usize = 240;

struct Slot {
    taken: AtomicBool,
    len: AtomicUsize,
    bytes: [AtomicU8; NAME_BYTES],
}

static NAMES: [Slot; SLOTS] = [const {
    Slot {
        taken: AtomicBool::new(false),
        len: AtomicUsize::new(0),
        bytes: [const { AtomicU8::new(0) }; NAME_BYTES],
    }
}; SLOTS];

/// A read-only map of a file, its name in the table while it lives.
pub(crate) struct MappedFile {
    map: memmap2::Mmap,
    slot: Option<usize>,
}

impl MappedFile {
    /// Names `map` (of the file at `path`) until it is dropped; a ninth map
    /// at once goes unnamed.
    pub(crate) fn new(map: memmap2::Mmap, path: &Path) -> MappedFile {
        let slot = NAMES.iter().position(|s| {
            s.taken
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        });
        if let Some(slot) = slot.and_then(|i| NAMES.get(i)) {
            let name = path.as_os_str().as_encoded_bytes();
            let name = name
                .get(name.len().saturating_sub(NAME_BYTES)..)
                .unwrap_or(name);
            for (cell, &byte) in slot.bytes.iter().zip(name) {
                cell.store(byte, Ordering::Relaxed);
            }
            slot.len.store(name.len(), Ordering::Release);
        }
        MappedFile { map, slot }
    }
}

impl Drop for MappedFile {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.and_then(|i| NAMES.get(i)) {
            slot.len.store(0, Ordering::Release);
            slot.taken.store(false, Ordering::Release);
        }
    }
}

impl AsRef<[u8]> for MappedFile {
    fn as_ref(&self) -> &[u8] {
        self.map.as_ref()
    }
}

/// Calls `out` with the name of every file mapped now, in turn: for a
/// signal handler, as it only loads atomics into a buffer on the stack.
pub fn mapped_names(mut out: impl FnMut(&[u8])) {
    for slot in &NAMES {
        let len = slot.len.load(Ordering::Acquire).min(NAME_BYTES);
        if !slot.taken.load(Ordering::Acquire) || len == 0 {
            continue;
        }
        let mut name = [0u8; NAME_BYTES];
        for (byte, cell) in name.iter_mut().zip(&slot.bytes).take(len) {
            *byte = cell.load(Ordering::Relaxed);
        }
        out(name.get(..len).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map is named while it lives and no longer once dropped.
    #[test]
    fn a_map_is_named_while_it_lives() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        std::fs::write(&path, "1. e4 *\n").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        // SAFETY: the file is not changed while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
        let names = || {
            let mut all = Vec::new();
            mapped_names(|n| all.push(String::from_utf8_lossy(n).into_owned()));
            all
        };
        let want = path.display().to_string();
        let mapped = MappedFile::new(map, &path);
        assert_eq!(mapped.as_ref(), b"1. e4 *\n");
        assert!(names().contains(&want), "{:?}", names());
        drop(mapped);
        assert!(!names().contains(&want), "{:?}", names());
    }
}
