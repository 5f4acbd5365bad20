//! Outputs that are streams, not files: a path that names a character
//! device (`/dev/null`, a terminal), a named pipe (`mkfifo`, a shell's
//! `>(gzip > out.gz)`), a socket, or an open descriptor (`/dev/stdout`,
//! `/dev/fd/3`, `/proc/self/fd/1`). Such an output is written where it is,
//! as it is made, as standard output is: there is no file to put in place
//! when the run is complete, and renaming one over the path would replace
//! the device or the link itself (run as root, `-o /dev/null` would leave
//! a regular file in place of the null device). Nothing is replaced, so
//! `--force` is not needed either, as `sort -o /dev/null` or `cp x
//! /dev/null` need none.

use std::path::{Path, PathBuf};

/// Symbolic links followed at most, as the system's own limit (40 on
/// Linux) bounds a loop of links.
const LINKS_FOLLOWED: usize = 40;

/// True when an output at `path` is a stream (see the module docs).
pub fn is_stream(path: &Path) -> bool {
    leads_through_descriptors(path) || is_special_file(path)
}

/// The file at the end of `path`'s links is a character device, a pipe
/// or a socket.
#[cfg(unix)]
fn is_special_file(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    path.metadata().is_ok_and(|m| {
        let kind = m.file_type();
        kind.is_char_device() || kind.is_fifo() || kind.is_socket()
    })
}

#[cfg(not(unix))]
fn is_special_file(_path: &Path) -> bool {
    false
}

/// `path`, or a link it leads through, names one of the process's open
/// descriptors (`/proc/self/fd/1`, `/dev/fd/3`): `/dev/stdout` redirected
/// to a regular file is written through the descriptor's link, not
/// replaced (which would replace the link `/dev/stdout`).
fn leads_through_descriptors(path: &Path) -> bool {
    let mut at: PathBuf = path.to_path_buf();
    for _ in 0..LINKS_FOLLOWED {
        if names_a_descriptor(&at) {
            return true;
        }
        let Ok(target) = std::fs::read_link(&at) else {
            return false;
        };
        at = match at.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    false
}

/// `/proc/PID/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N` or
/// `/dev/fd/N`.
fn names_a_descriptor(path: &Path) -> bool {
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    let parts: Vec<&str> = parts.iter().map(|p| p.as_ref()).collect();
    matches!(
        parts.as_slice(),
        ["/", "dev", "fd", _] | ["/", "proc", _, "fd", _]
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::is_stream;
    use std::path::Path;

    #[test]
    fn devices_descriptors_and_pipes_are_streams_and_files_are_not() {
        for path in ["/dev/null", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/2"] {
            assert!(is_stream(Path::new(path)), "{path}");
        }
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(is_stream(&fifo));
        let file = dir.path().join("out.pgn");
        assert!(!is_stream(&file), "nothing there yet");
        std::fs::write(&file, "x").unwrap();
        assert!(!is_stream(&file));
        assert!(!is_stream(dir.path()));
        let link = dir.path().join("to-null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        assert!(is_stream(&link));
    }
}
