//! A pzstd stream cut into its frames as it is read, so that a lichess
//! dump piped in (`curl … | pgnmill report -`) is decoded on several
//! threads as the file is, and a damaged frame is passed over.
//!
//! A file's frames are found by walking their block headers
//! (`zstd_frames.rs`), which needs the whole frame at hand. A stream can
//! be read only once, front to back; but pzstd puts before every data
//! frame a *skippable frame* of four bytes that gives the size of the
//! frame after it (its `SkippableFrame`: magic `0x184D2A50`, size 4, then
//! the frame's compressed size, all little-endian). So each frame is read
//! whole by its size, as `pzstd -d` reads it, and handed to a decoder,
//! which treats it as it treats a file's frame: a frame whose data or
//! checksum is damaged fails alone, and the frames after it are read as
//! usual.
//!
//! Where the hints stop (a data frame with no hint before it, a frame cut
//! short, one whose headers do not bound its text to what a decoder may
//! hold, damaged block headers included, bytes that are neither, a read
//! error), the rest of the stream from there is one last piece, streamed
//! by the one-thread decoder as any `.zst` is: its text ends at the first
//! error, as `zstd -dc`'s does, and as a file's does where its frame
//! headers stop making sense.

use std::io::{Cursor, Read};
use std::ops::Range;

use super::readers::{BrokenOff, read_head};

/// The first four bytes of a skippable frame, without the low four bits
/// (pzstd writes `0x184D2A50`; any of the sixteen is a skippable frame).
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// A size hint's length: magic, content size (4), the next frame's size.
const HINT_BYTES: usize = 12;

/// What a pzstd stream is cut into.
pub(super) enum Cut {
    /// A whole data frame: where it stands in the stream, its bytes, and
    /// the text size its header states, if it does.
    Frame {
        at: Range<usize>,
        bytes: Vec<u8>,
        content_size: Option<u64>,
    },
    /// The rest of the stream from `at` on, where the hints stop: the
    /// bytes read of it already, then the rest, to be streamed.
    Rest {
        at: usize,
        bytes: Box<dyn Read + Send>,
    },
}

/// Whether a stream starting with `head` may be cut by its hints: it
/// starts with a skippable frame, as a pzstd-made stream does. (Any other
/// `.zst` stream, one `zstd` frame above all, is streamed whole.)
pub(super) fn starts_with_skippable(head: &[u8]) -> bool {
    head.get(..4)
        .and_then(|m| m.try_into().ok())
        .is_some_and(|m: [u8; 4]| u32::from_le_bytes(m) & !0xF == SKIPPABLE_MAGIC)
}

/// The size of the frame a pzstd hint announces, if `bytes` is one.
fn size_hint(bytes: &[u8]) -> Option<usize> {
    let word = |at: usize| -> Option<u32> {
        let four: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(four))
    };
    if bytes.len() != HINT_BYTES || !starts_with_skippable(bytes) || word(4)? != 4 {
        return None;
    }
    word(8).map(|size| size as usize)
}

/// Whether a frame's text is bounded to at most `most_text` bytes (a
/// decoder thread holds a frame's whole text): by the size its header
/// states, else by its blocks, which `ZSTD_decompressBound` gives.
fn bounded(frame: &[u8], most_text: u64) -> bool {
    zstd::zstd_safe::decompress_bound(frame).is_ok_and(|n| n <= most_text)
}

/// Cuts `rd` into its frames and the rest, and hands each in order to
/// `deal` with whether anything follows it in the stream; stops when
/// `deal` says `false` (the reader is gone) or after the rest.
pub(super) fn cut(
    mut rd: Box<dyn Read + Send>,
    most_text: u64,
    mut deal: impl FnMut(Cut, bool) -> bool,
) {
    let mut at = 0;
    // A frame is dealt once the next bytes are read, which say whether
    // anything follows it.
    let mut held = None;
    loop {
        let mut hint = [0u8; HINT_BYTES];
        let (n, mut error) = read_head(&mut *rd, &mut hint);
        if let Some(frame) = held.take()
            && !deal(frame, n > 0 || error.is_some())
        {
            return;
        }
        if n == 0 && error.is_none() {
            return;
        }
        let mut read = hint.get(..n).unwrap_or_default().to_vec();
        let size = size_hint(&read).filter(|&size| size as u64 <= most_text);
        if let Some(size) = size.filter(|_| error.is_none()) {
            let mut frame = Vec::new();
            match (&mut rd).take(size as u64).read_to_end(&mut frame) {
                Ok(_) if frame.len() == size && bounded(&frame, most_text) => {
                    let start = at + HINT_BYTES;
                    held = Some(Cut::Frame {
                        at: start..start + size,
                        content_size: zstd::zstd_safe::get_frame_content_size(&frame)
                            .ok()
                            .flatten(),
                        bytes: frame,
                    });
                    at = start + size;
                    continue;
                }
                Ok(_) => {}
                Err(e) => error = Some(e),
            }
            read.extend(frame);
        }
        let rest: Box<dyn Read + Send> = match error {
            Some(e) => Box::new(Cursor::new(read).chain(BrokenOff(Some(e)))),
            None => Box::new(Cursor::new(read).chain(rd)),
        };
        deal(Cut::Rest { at, bytes: rest }, false);
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(size: usize) -> Vec<u8> {
        [
            &0x184D_2A50u32.to_le_bytes()[..],
            &4u32.to_le_bytes(),
            &(size as u32).to_le_bytes(),
        ]
        .concat()
    }

    /// `text` as pzstd writes a frame: its size hint, then the frame.
    fn hinted(text: &[u8]) -> Vec<u8> {
        let frame = zstd::bulk::compress(text, 3).expect("compress");
        [hint(frame.len()), frame].concat()
    }

    /// What `cut` makes of `data`: per piece, its place, whether it is a
    /// frame, whether anything follows, and its bytes (the rest read out).
    fn cuts(data: Vec<u8>, most_text: u64) -> Vec<(Range<usize>, bool, bool, Vec<u8>)> {
        let mut seen = Vec::new();
        cut(Box::new(Cursor::new(data)), most_text, |piece, followed| {
            seen.push(match piece {
                Cut::Frame { at, bytes, .. } => (at, true, followed, bytes),
                Cut::Rest { at, mut bytes } => {
                    let mut rest = Vec::new();
                    bytes.read_to_end(&mut rest).expect("the rest");
                    (at..at + rest.len(), false, followed, rest)
                }
            });
            true
        });
        seen
    }

    #[test]
    fn a_pzstd_stream_is_cut_at_its_frames() {
        let (a, b) = (hinted(b"1. e4 e5 *\n"), hinted(b"1. d4 d5 *\n"));
        let data = [&a[..], &b].concat();
        let got = cuts(data.clone(), 1 << 20);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], (12..a.len(), true, true, a[12..].to_vec()));
        assert_eq!(
            got[1],
            (a.len() + 12..data.len(), true, false, b[12..].to_vec())
        );
    }

    /// Where the hints stop, the rest is every byte from there on,
    /// whatever the shape.
    #[test]
    fn the_rest_is_every_byte_from_where_the_hints_stop() {
        let a = hinted(b"1. e4 e5 *\n");
        let plain = zstd::bulk::compress(b"1. c4 *\n", 3).expect("compress");
        let b = hinted(b"1. d4 d5 *\n");
        let large = hinted(&vec![b' '; 5000]);
        let shapes: Vec<(&str, Vec<u8>)> = vec![
            ("a frame with no hint", [&a[..], &plain, &b].concat()),
            ("cut in a frame", [&a[..], &b[..b.len() - 3]].concat()),
            ("cut in a hint", [&a[..], &b[..7]].concat()),
            ("bytes after", [&a[..], b"garbage"].concat()),
            ("a frame holding too much", [&a[..], &large, &b].concat()),
            (
                "a hint larger than a frame may be",
                [&a[..], &hint(1 << 21)].concat(),
            ),
        ];
        for (shape, data) in shapes {
            let got = cuts(data.clone(), 4096);
            assert_eq!(got.len(), 2, "{shape}");
            assert_eq!(got[0].1..got[0].2, true..true, "{shape}: a frame, followed");
            let (at, frame, followed, bytes) = &got[1];
            assert!(!frame && !followed, "{shape}");
            assert_eq!(at.clone(), a.len()..data.len(), "{shape}");
            assert_eq!(bytes[..], data[a.len()..], "{shape}");
        }
    }

    #[test]
    fn a_stream_that_fails_gives_the_bytes_before_then_the_error() {
        let a = hinted(b"1. e4 e5 *\n");
        let b = hinted(b"1. d4 d5 *\n");
        let failing = Cursor::new([&a[..], &b[..20]].concat()).chain(BrokenOff(Some(
            std::io::Error::other("the network went away"),
        )));
        let mut seen = Vec::new();
        cut(Box::new(failing), 1 << 20, |piece, _| {
            if let Cut::Rest { mut bytes, .. } = piece {
                let mut rest = Vec::new();
                let e = bytes.read_to_end(&mut rest).expect_err("the error");
                seen.push((rest, e.to_string()));
            }
            true
        });
        assert_eq!(seen, [(b[..20].to_vec(), "the network went away".into())]);
    }

    #[test]
    fn a_stream_is_not_cut_unless_it_starts_with_a_skippable_frame() {
        assert!(starts_with_skippable(&hint(5)));
        assert!(starts_with_skippable(&0x184D_2A5Fu32.to_le_bytes()));
        let plain = zstd::bulk::compress(b"1. c4 *\n", 3).expect("compress");
        assert!(!starts_with_skippable(&plain));
        assert!(!starts_with_skippable(&hint(5)[..3]));
    }

    #[test]
    fn the_reader_gone_stops_the_cutting() {
        let data: Vec<u8> = (0..5).flat_map(|_| hinted(b"1. e4 *\n")).collect();
        let mut dealt = 0;
        cut(Box::new(Cursor::new(data)), 1 << 20, |_, _| {
            dealt += 1;
            false
        });
        assert_eq!(dealt, 1);
    }
}
