//! A zip archive whose central directory cannot be read: a download cut
//! short, or a damaged end of file.
//!
//! The member list of a zip archive is at its end, so a truncated archive
//! has none, and the archive cannot be listed. Each member's data is
//! preceded by a local header with its name, though, so the members can
//! still be read in order from the start, as far as the bytes go. Such an
//! archive is therefore one input (named by the archive's path): the text
//! of its members of the wanted endings, one after another (a line end
//! between two, so that the games of two members never share a line), and
//! then always an error, because an archive without its central directory
//! was not read completely, whatever its members held. Read like a
//! truncated `.zst`: the games before the break are rows, and the input is
//! marked incomplete with the reason.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use super::read_ahead::ReadAhead;

/// The members of the damaged archive at `archive` whose names end in one
/// of `members` (any case), decompressed on a thread of its own; `why` is
/// what the archive reader said about its end.
pub(super) fn open(
    archive: &Path,
    members: &'static [&'static str],
    why: String,
) -> std::io::Result<ReadAhead> {
    let archive: PathBuf = archive.to_path_buf();
    ReadAhead::spawn_with(move |pump| {
        let mut file = BufReader::new(std::fs::File::open(&archive)?);
        let mut read = 0usize;
        loop {
            let mut entry = match zip::read::read_zipfile_from_stream(&mut file) {
                Ok(Some(entry)) => entry,
                // The start of the central directory: every member was read,
                // but the directory itself is damaged or cut.
                Ok(None) => break,
                Err(e) => {
                    return Err(std::io::Error::other(format!(
                        "the zip archive breaks off after {read} whole member(s): {e}"
                    )));
                }
            };
            let lower = String::from_utf8_lossy(entry.name_raw()).to_ascii_lowercase();
            let wanted = !entry.is_dir() && members.iter().any(|ext| lower.ends_with(ext));
            if wanted {
                if !pump(&mut (&mut entry).chain(&b"\n"[..])) {
                    // The error (bad data, cut inside this member) was
                    // delivered, or the run stopped.
                    return Ok(());
                }
            } else {
                std::io::copy(&mut entry, &mut std::io::sink())?;
            }
            read += 1;
        }
        Err(std::io::Error::other(format!(
            "zip archive without a readable central directory ({why}); \
             its {read} member(s) were read from their local headers"
        )))
    })
}
