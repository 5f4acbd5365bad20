//! Compressed data that fails its own check: where the text it decodes
//! to cannot be trusted.
//!
//! A gzip member and a zip member end with the CRC-32 of the text they
//! hold. The check can only be made once the member's text has been
//! decoded, but by then, read as a stream, that text would already be rows
//! of the report: a bit flipped inside a member decodes to garbage from
//! some unknown point on, which replayed as games gives hundreds of false
//! `illegal_move` and `parse_error` rows. So a gzip file and a zip member
//! are *checked* first ([`check_gzip`], [`check_zip_member`]): decoded once
//! without keeping the text, member by member, which says which stretches
//! of the text ([`Damage`]) are unreliable; the games there become rows of
//! status `damaged_input` when the input is then read for real. It costs a
//! second decoding of gzip and zip input (never of plain or zstd input),
//! and needs a file that can be read twice: on standard input a damaged
//! member ends the text like a cut.
//!
//! A gzip file's members are independent, so the members after one whose
//! checksum fails are read as usual ([`GzipMembers`]); data that cannot
//! be decoded at all ends what can be read of the file, as a cut does.

use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A stretch of an input's (decompressed) text that its compressed data
/// does not vouch for, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// Text offsets; the end is `u64::MAX` when the damage runs to the
    /// end of what can be read.
    pub text: Range<u64>,
    /// What failed and where, in words (it names the input).
    pub why: String,
}

impl Damage {
    /// Damage to compressed data that loses no text, `why` saying what
    /// failed (a bzip2 stream's header or combined CRC-32, where every
    /// block passed its own check): a warning that covers no game.
    pub(super) fn losing_no_text(why: String) -> Damage {
        Damage {
            text: u64::MAX..u64::MAX,
            why,
        }
    }

    /// Whether any text was lost or is unreliable: false only for damage
    /// to compressed data that leaves the text whole (a bzip2 stream's
    /// header or combined CRC-32, its blocks all passing their own).
    pub fn loses_text(&self) -> bool {
        self.text.start != u64::MAX
    }

    /// Whether the text `start..end` (a game's) overlaps the damage. An
    /// empty stretch (nothing could be read there) covers the game that
    /// runs up to it: that game's text may have gone on in what was lost,
    /// even where nothing follows to show it (the text after the loss,
    /// which starts inside some game, is read as that game's rest). At the
    /// very start of the text no game runs up to it, and the first game
    /// is the one that may have begun in what was lost.
    pub fn covers(&self, start: u64, end: u64) -> bool {
        if !self.loses_text() {
            return false;
        }
        let Range {
            start: from,
            end: to,
        } = self.text;
        match from < to {
            true => start < to && from < end.max(start + 1),
            false => (start < from || start == 0) && from <= end,
        }
    }
}

/// The damage of one input's text: what a check found before reading
/// (`check_gzip`, `check_zip_member`), and what its decoder finds while
/// the text is read (a frame of a many-frame `.zst` that fails to decode
/// is passed over, and its text marked, as the reader comes to it:
/// `zstd_frames.rs`). Shared between the decoder, which adds to it before it
/// hands out the text concerned, and the readers of the text, which look
/// at it after each read.
#[derive(Debug, Clone, Default)]
pub struct DamageLog(Arc<Mutex<Log>>);

#[derive(Debug, Default)]
struct Log {
    damage: Vec<Damage>,
    /// The text's offsets are not the decoder's (UTF-16 decoded to UTF-8
    /// on the way): damage found covers all of the text.
    offsets_moved: bool,
}

impl DamageLog {
    /// A log holding what a check found.
    pub(super) fn new(damage: Vec<Damage>) -> DamageLog {
        DamageLog(Arc::new(Mutex::new(Log {
            damage,
            offsets_moved: false,
        })))
    }

    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        // A panic while holding the lock left a whole vector behind.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds damage found while reading.
    pub(super) fn push(&self, mut damage: Damage) {
        let mut log = self.log();
        if log.offsets_moved && damage.loses_text() {
            damage.text = 0..u64::MAX;
        }
        log.damage.push(damage);
    }

    /// Says the text's offsets are not the decoder's (see [`Log`]): the
    /// damage already found, and all found later, covers the whole text.
    pub(super) fn offsets_moved(&self) {
        let mut log = self.log();
        log.offsets_moved = true;
        for damage in log.damage.iter_mut().filter(|d| d.loses_text()) {
            damage.text = 0..u64::MAX;
        }
    }

    /// How many stretches have been found so far.
    pub fn len(&self) -> usize {
        self.log().damage.len()
    }

    /// Whether none has been found so far.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stretches found so far, from the `from`-th on (0: all).
    pub fn since(&self, from: usize) -> Vec<Damage> {
        self.log().damage.get(from..).unwrap_or_default().to_vec()
    }
}

/// A [`DamageLog`] read as it grows: each call gives what was found since
/// the last, so that each stretch is said once.
#[derive(Debug, Clone)]
pub struct NewDamage {
    log: DamageLog,
    seen: usize,
}

impl NewDamage {
    /// Reads `log` from its start.
    pub fn of(log: &DamageLog) -> NewDamage {
        NewDamage {
            log: log.clone(),
            seen: 0,
        }
    }

    /// The stretches found since the last call (all of them, the first
    /// time).
    pub fn take(&mut self) -> Vec<Damage> {
        let found = self.log.since(self.seen);
        self.seen += found.len();
        found
    }
}

/// What checking an input found: its damaged stretches, and how much of
/// its text can be read at all (`u64::MAX`: all of it, or as far as a cut
/// lets the reader go, which the reader then reports as a cut).
#[derive(Debug, Clone, Default)]
pub(super) struct Checked {
    pub damage: Vec<Damage>,
    pub readable: u64,
}

impl Checked {
    /// An archive member read through, as [`read_through`] found it: sound
    /// if nothing ended it early; else damaged from its start (a member's
    /// check comes at its end, and nothing tells where its text went
    /// wrong), `why` saying so from the bytes read and the error, and
    /// readable as far as it was decoded.
    pub(super) fn member(
        (read, failure): (u64, Option<std::io::Error>),
        why: impl FnOnce(u64, std::io::Error) -> String,
    ) -> Checked {
        let Some(e) = failure else {
            return Checked {
                damage: Vec::new(),
                readable: u64::MAX,
            };
        };
        Checked {
            damage: vec![Damage {
                text: 0..u64::MAX,
                why: why(read, e),
            }],
            readable: read,
        }
    }
}

/// Reads `text` to its end without keeping it: the bytes it gave, and the
/// error that ended it, if one did.
pub(super) fn read_through(text: &mut dyn Read) -> (u64, Option<std::io::Error>) {
    let mut read = 0u64;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match text.read(&mut buf) {
            Ok(0) => return (read, None),
            Ok(n) => read += n as u64,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return (read, Some(e)),
        }
    }
}

/// Checks the gzip file at `path` member by member.
pub(super) fn check_gzip(path: &Path) -> std::io::Result<Checked> {
    let file = std::fs::File::open(path)?;
    let mut members = GzipMembers::new(BufReader::with_capacity(1 << 16, file), true);
    let mut buf = vec![0u8; 1 << 16];
    let failure = loop {
        match members.read(&mut buf) {
            Ok(0) => break None,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Some(e),
        }
    };
    let name = path.display();
    let mut damage: Vec<Damage> = members
        .failed
        .iter()
        .map(|m| Damage {
            text: m.text.clone(),
            why: format!(
                "{name}: gzip member {} fails its CRC-32 check: its text, decompressed bytes {} to {}, is unreliable",
                m.number, m.text.start, m.text.end
            ),
        })
        .collect();
    let mut readable = u64::MAX;
    if let Some(e) = failure
        && e.kind() != std::io::ErrorKind::UnexpectedEof
    {
        // Data that cannot be decoded: nothing after it can be read, and
        // the member's text before the failure is not vouched for either.
        let start = members.member_start;
        let why = if members.text_read == start && members.number > 1 {
            // Nothing decoded of it: bytes after the last member that are
            // not a member at all (what `gzip -dc` calls trailing garbage).
            format!(
                "{name}: the bytes after gzip member {} are not gzip data ({e}): the text ends with that member, at decompressed byte {start}, and the rest of the file is passed over",
                members.number - 1
            )
        } else {
            format!(
                "{name}: gzip member {} cannot be decoded ({e}): its text from decompressed byte {start} is unreliable, and nothing after byte {} can be read",
                members.number, members.text_read
            )
        };
        damage.push(Damage {
            text: start..u64::MAX,
            why,
        });
        readable = members.text_read;
    }
    Ok(Checked { damage, readable })
}

/// Checks member `index` of the zip archive at `archive`.
pub(super) fn check_zip_member(
    archive: &Path,
    index: usize,
    name: &Path,
) -> std::io::Result<Checked> {
    let file = std::fs::File::open(archive)?;
    let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(std::io::Error::other)?;
    let mut member = zip.by_index(index).map_err(std::io::Error::other)?;
    let name = name.display();
    Ok(Checked::member(read_through(&mut member), |read, e| {
        if e.to_string().contains("checksum") {
            format!(
                "{name}: zip member fails its CRC-32 check: its text ({read} bytes) is unreliable"
            )
        } else {
            format!(
                "{name}: zip member cannot be decoded after {read} bytes of text ({e}): that text is unreliable"
            )
        }
    }))
}

/// A member whose checksum failed, and the text it decoded to.
#[derive(Debug, Clone)]
struct FailedMember {
    /// 1 for the file's first member.
    number: u64,
    text: Range<u64>,
}

/// The text of a gzip file's members, one after another (as `gzip -dc`
/// gives it), decoded on the fly. A member whose CRC-32 (or length) does
/// not match is an error, unless the reader was told to go past such
/// members (the file has been checked, and its damage is known): then it
/// is noted and reading goes on with the next member. Zero bytes after
/// the last member (padding, which gzip ignores) end the text.
pub(super) struct GzipMembers<R: BufRead> {
    decoder: Option<flate2::bufread::GzDecoder<R>>,
    past_checksum_failures: bool,
    /// The number of the member being read (1 for the first).
    number: u64,
    /// Text offset where the member being read starts.
    member_start: u64,
    /// Text decoded so far.
    text_read: u64,
    failed: Vec<FailedMember>,
}

impl<R: BufRead> GzipMembers<R> {
    pub(super) fn new(inner: R, past_checksum_failures: bool) -> Self {
        GzipMembers {
            decoder: Some(flate2::bufread::GzDecoder::new(inner)),
            past_checksum_failures,
            number: 1,
            member_start: 0,
            text_read: 0,
            failed: Vec::new(),
        }
    }

    /// The current member has ended: starts the next one, if any bytes
    /// other than zero padding follow.
    fn next_member(&mut self) -> std::io::Result<()> {
        let Some(decoder) = self.decoder.take() else {
            return Ok(());
        };
        let mut inner = decoder.into_inner();
        loop {
            let buf = inner.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            match buf.iter().position(|&b| b != 0) {
                Some(at) => {
                    inner.consume(at);
                    break;
                }
                None => {
                    let n = buf.len();
                    inner.consume(n);
                }
            }
        }
        self.number += 1;
        self.member_start = self.text_read;
        self.decoder = Some(flate2::bufread::GzDecoder::new(inner));
        Ok(())
    }
}

/// Whether `e` is flate2's complaint that a member's CRC-32 or length does
/// not match its text (the trailer was read: the next member follows).
fn is_checksum_failure(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::InvalidInput && e.to_string().contains("checksum")
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            let Some(decoder) = self.decoder.as_mut() else {
                return Ok(0);
            };
            match decoder.read(buf) {
                Ok(0) => self.next_member()?,
                Ok(n) => {
                    self.text_read += n as u64;
                    return Ok(n);
                }
                Err(e) if is_checksum_failure(&e) && self.past_checksum_failures => {
                    self.failed.push(FailedMember {
                        number: self.number,
                        text: self.member_start..self.text_read,
                    });
                    self.next_member()?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                // Unchecked (read from a pipe): the member's text has been
                // handed on as it came, and only now is it known to be
                // unreliable; flate2's words ("corrupt gzip stream does
                // not have a matching checksum") would not say that.
                Err(e) if is_checksum_failure(&e) => {
                    self.decoder = None;
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "gzip member {} fails its CRC-32 check, so its text, decompressed bytes {} to {}, read as sound up to here, is unreliable",
                            self.number, self.member_start, self.text_read
                        ),
                    ));
                }
                Err(e) => {
                    self.decoder = None;
                    return Err(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(text: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    /// The CRC-32 sits 8 bytes before a member's end.
    fn break_checksum(member: &mut [u8]) {
        let at = member.len() - 8;
        member[at] ^= 0xff;
    }

    fn read_all(bytes: &[u8], past: bool) -> (Vec<u8>, std::io::Result<()>, Vec<FailedMember>) {
        let mut r = GzipMembers::new(bytes, past);
        let mut out = Vec::new();
        let res = r.read_to_end(&mut out).map(|_| ());
        (out, res, r.failed)
    }

    #[test]
    fn members_are_read_in_turn_and_padding_ends_them() {
        let mut file = gzip(b"one ");
        file.extend(gzip(b""));
        file.extend(gzip(b"two"));
        file.extend([0u8; 7]);
        let (text, res, failed) = read_all(&file, false);
        res.unwrap();
        assert_eq!(text, b"one two");
        assert!(failed.is_empty());
    }

    #[test]
    fn a_checksum_failure_stops_a_stream_and_is_passed_over_when_checked() {
        let mut bad = gzip(b"middle");
        break_checksum(&mut bad);
        let mut file = gzip(b"first ");
        file.extend(&bad);
        file.extend(gzip(b" last"));
        let (_, res, _) = read_all(&file, false);
        assert!(res.is_err());
        let (text, res, failed) = read_all(&file, true);
        res.unwrap();
        assert_eq!(text, b"first middle last");
        assert_eq!(failed.len(), 1);
        assert_eq!((failed[0].number, failed[0].text.clone()), (2, 6..12));
    }

    #[test]
    fn damage_covers_the_games_that_overlap_it() {
        let d = Damage {
            text: 10..20,
            why: String::new(),
        };
        assert!(!d.covers(0, 10));
        assert!(d.covers(0, 11));
        assert!(d.covers(19, 30));
        assert!(!d.covers(20, 30));
        assert!(d.covers(12, 12));
        // Nothing read at 15: the game up to it, or across it.
        let lost = Damage {
            text: 15..15,
            why: String::new(),
        };
        assert!(lost.covers(10, 15));
        assert!(lost.covers(10, 20));
        assert!(!lost.covers(0, 14));
        assert!(!lost.covers(15, 20));
        // Nothing read at the start: the first game.
        let lost = Damage {
            text: 0..0,
            why: String::new(),
        };
        assert!(lost.covers(0, 5));
        assert!(!lost.covers(5, 9));
    }
}
