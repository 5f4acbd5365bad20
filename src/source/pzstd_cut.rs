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
//! A frame whose own headers make no sense (a damaged block header, a
//! damaged magic number) still ends where its hint says: it is handed on
//! as a frame that fails, decoded alone up to its error, and the frames
//! after it are read as usual. A file's walk uses the hints the same way
//! where the headers fail ([`announced_frame`]).
//!
//! Where the hints stop (a data frame with no hint before it, a frame cut
//! short, one whose headers state more text than a decoder may hold,
//! bytes that are neither, a read error), the rest of the stream from
//! there is one last piece, streamed by the one-thread decoder as any
//! `.zst` is: its text ends at the first error, as `zstd -dc`'s does, and
//! as a file's does where its frame headers stop making sense.

use std::io::{Cursor, Read};
use std::ops::Range;

use super::compression::{ZSTD_MAGIC, starts_with_skippable};
use super::readers::{BrokenOff, read_head};

/// A size hint's length: magic, content size (4), the next frame's size.
pub(super) const HINT_BYTES: usize = 12;

/// What a pzstd stream is cut into.
pub(super) enum Cut {
    /// A whole data frame: where it stands in the stream, its bytes, the
    /// text size its header states, if it does, and whether its headers
    /// bound its text (`false`: they make no sense, the frame is damaged,
    /// and only its hint gave its end).
    Frame {
        at: Range<usize>,
        bytes: Vec<u8>,
        content_size: Option<u64>,
        bounded: bool,
    },
    /// The rest of the stream from `at` on, where the hints stop: the
    /// bytes read of it already, then the rest, to be streamed.
    Rest {
        at: usize,
        bytes: Box<dyn Read + Send>,
    },
}

/// The little-endian word `bytes` start with.
fn first_word(bytes: &[u8]) -> Option<u32> {
    let four: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
    Some(u32::from_le_bytes(four))
}

/// Whether a frame may end where `after` starts: at the end of the input,
/// or where a skippable frame or a data frame starts.
fn frame_ends_before(after: &[u8]) -> bool {
    after.is_empty() || starts_with_skippable(after) || after.starts_with(&ZSTD_MAGIC)
}

/// The size of the data frame that a pzstd hint at the start of `rest` (a
/// file's bytes from there to its end) announces, when the frame ends
/// where `rest` does or another frame starts: the end a file's walk
/// trusts when the frame's own headers give none, or one where no frame
/// starts (a damaged block header, or a run of zeroed bytes over one, can
/// make them read past the frame or stop inside it).
pub(super) fn announced_frame(rest: &[u8]) -> Option<usize> {
    let size = size_hint(rest.get(..HINT_BYTES)?).filter(|&size| size > 0)?;
    let after = rest.get(HINT_BYTES.checked_add(size)?..)?;
    frame_ends_before(after).then_some(size)
}

/// Whether `end` is a place in `data` where a frame may end
/// ([`frame_ends_before`]).
pub(super) fn frame_may_end_at(data: &[u8], end: usize) -> bool {
    data.get(end..).is_some_and(frame_ends_before)
}

/// The size of the frame a pzstd hint announces, if `bytes` is one.
fn size_hint(bytes: &[u8]) -> Option<usize> {
    let word = |at: usize| first_word(bytes.get(at..)?);
    if bytes.len() != HINT_BYTES || !starts_with_skippable(bytes) || word(4)? != 4 {
        return None;
    }
    word(8).map(|size| size as usize)
}

/// How a frame's headers bound its text, which a decoder thread holds
/// whole: by the size its header states, else by its blocks
/// (`ZSTD_decompressBound`).
enum Bound {
    /// To at most the most a decoder may hold.
    Within,
    /// To more than that: a sound frame, too large to hold.
    Beyond,
    /// Not at all: the headers make no sense (the frame is damaged).
    Damaged,
}

/// How `frame`'s headers bound its text, against the most a decoder may
/// hold, `most_text`.
fn bound(frame: &[u8], most_text: u64) -> Bound {
    match zstd::zstd_safe::decompress_bound(frame) {
        Ok(n) if n <= most_text => Bound::Within,
        Ok(_) => Bound::Beyond,
        Err(_) => Bound::Damaged,
    }
}

/// Cuts `rd` into its frames and the rest, and hands each in order to
/// `deal` with whether anything follows it in the stream; stops when
/// `deal` says `false` (the reader is gone) or after the rest.
///
/// A frame whose headers make no sense is cut by its hint only when the
/// bytes after it start another frame (or the stream ends there): a hint
/// whose size is damaged would otherwise cut every frame after it in the
/// wrong places, where the one-thread decoder, which needs no hint, reads
/// them all.
pub(super) fn cut(
    mut rd: Box<dyn Read + Send>,
    most_text: u64,
    mut deal: impl FnMut(Cut, bool) -> bool,
) {
    let mut at = 0;
    // A frame is dealt once the next bytes are read, which say whether
    // anything follows it, and whether a frame whose headers make no
    // sense ends where its hint says (its hint is kept for that).
    let mut held: Option<(Cut, [u8; HINT_BYTES])> = None;
    loop {
        let mut hint = [0u8; HINT_BYTES];
        let (n, mut error) = read_head(&mut *rd, &mut hint);
        let head = hint.get(..n).unwrap_or_default();
        if let Some((frame, frame_hint)) = held.take() {
            let next_frame_or_end = match n {
                0 => error.is_none(),
                _ => frame_ends_before(head),
            };
            match frame {
                Cut::Frame {
                    at: frame_at,
                    bytes,
                    bounded: false,
                    ..
                } if !next_frame_or_end => {
                    let read = [&frame_hint[..], &bytes, head].concat();
                    let rest = rest_of(read, rd, error);
                    deal(
                        Cut::Rest {
                            at: frame_at.start - HINT_BYTES,
                            bytes: rest,
                        },
                        false,
                    );
                    return;
                }
                frame => {
                    if !deal(frame, n > 0 || error.is_some()) {
                        return;
                    }
                }
            }
        }
        if n == 0 && error.is_none() {
            return;
        }
        let mut read = head.to_vec();
        let size = size_hint(&read).filter(|&size| size as u64 <= most_text);
        if let Some(size) = size.filter(|_| error.is_none()) {
            let mut frame = Vec::new();
            let whole = match (&mut rd).take(size as u64).read_to_end(&mut frame) {
                Ok(_) => frame.len() == size,
                Err(e) => {
                    error = Some(e);
                    false
                }
            };
            // A frame that holds more than a decoder may, sound as it
            // may be, is streamed with the rest.
            let bounded = match whole.then(|| bound(&frame, most_text)) {
                Some(Bound::Within) => Some(true),
                Some(Bound::Damaged) => Some(false),
                Some(Bound::Beyond) | None => None,
            };
            if let Some(bounded) = bounded {
                let start = at + HINT_BYTES;
                let frame = Cut::Frame {
                    at: start..start + size,
                    content_size: zstd::zstd_safe::get_frame_content_size(&frame)
                        .ok()
                        .flatten()
                        .filter(|_| bounded),
                    bytes: frame,
                    bounded,
                };
                held = Some((frame, hint));
                at = start + size;
                continue;
            }
            read.extend(frame);
        }
        deal(
            Cut::Rest {
                at,
                bytes: rest_of(read, rd, error),
            },
            false,
        );
        return;
    }
}

/// The rest of a stream: the bytes `read` of it already, then `rd`, or
/// the `error` that stopped its reading.
fn rest_of(
    read: Vec<u8>,
    rd: Box<dyn Read + Send>,
    error: Option<std::io::Error>,
) -> Box<dyn Read + Send> {
    match error {
        Some(e) => Box::new(Cursor::new(read).chain(BrokenOff(Some(e)))),
        None => Box::new(Cursor::new(read).chain(rd)),
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

    /// The frames `cut` deals, each as its place and whether its headers
    /// bound its text, and the place of the rest, if any.
    fn frames_and_rest(data: Vec<u8>) -> (Vec<(Range<usize>, bool)>, Option<usize>) {
        let (mut frames, mut rest) = (Vec::new(), None);
        cut(Box::new(Cursor::new(data)), 1 << 20, |piece, _| {
            match piece {
                Cut::Frame { at, bounded, .. } => frames.push((at, bounded)),
                Cut::Rest { at, .. } => rest = Some(at),
            }
            true
        });
        (frames, rest)
    }

    /// A frame whose headers make no sense (its magic number gone) ends
    /// where its hint says when a frame, or the end, follows there; when
    /// nothing starts there (the hint's size is damaged too), the rest is
    /// streamed from the hint on, as the one-thread decoder reads it.
    #[test]
    fn a_frame_with_damaged_headers_is_cut_by_its_hint_where_a_frame_follows() {
        let (a, b, c) = (
            hinted(b"1. e4 e5 *\n"),
            hinted(b"1. d4 d5 *\n"),
            hinted(b"1. c4 c5 *\n"),
        );
        let mut damaged = b.clone();
        damaged[HINT_BYTES..HINT_BYTES + 4].fill(0);
        let (b_at, c_at) = (a.len() + HINT_BYTES, a.len() + b.len() + HINT_BYTES);
        let frames = vec![
            (HINT_BYTES..a.len(), true),
            (b_at..b_at + b.len() - HINT_BYTES, false),
            (c_at..c_at + c.len() - HINT_BYTES, true),
        ];
        let got = frames_and_rest([&a[..], &damaged, &c].concat());
        assert_eq!(got, (frames.clone(), None));
        // The damaged frame last.
        let got = frames_and_rest([&a[..], &damaged].concat());
        assert_eq!(got, (frames[..2].to_vec(), None));
        // Its hint one byte short: no frame starts after it.
        let mut short = damaged.clone();
        short[8] -= 1;
        let got = frames_and_rest([&a[..], &short, &c].concat());
        assert_eq!(got, (frames[..1].to_vec(), Some(a.len())));
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

    /// A file's walk takes a hint's size only where the frame it gives
    /// ends at the end, or where another frame starts.
    #[test]
    fn a_hint_announces_a_frame_that_ends_where_a_frame_may() {
        let (a, b) = (hinted(b"1. e4 e5 *\n"), hinted(b"1. d4 d5 *\n"));
        let size = a.len() - HINT_BYTES;
        assert_eq!(announced_frame(&a), Some(size));
        assert_eq!(announced_frame(&[&a[..], &b].concat()), Some(size));
        let frame = zstd::bulk::compress(b"1. c4 *\n", 3).expect("compress");
        assert_eq!(announced_frame(&[&a[..], &frame].concat()), Some(size));
        assert_eq!(announced_frame(&[&a[..], b"garbage"].concat()), None);
        assert_eq!(announced_frame(&a[..a.len() - 1]), None);
        assert_eq!(announced_frame(&a[HINT_BYTES..]), None, "not a hint");
        assert_eq!(announced_frame(&hint(0)), None, "an empty frame");
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
