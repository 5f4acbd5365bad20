//! The members of a 7z archive, each read as an input of its own.
//!
//! A 7z archive keeps its index at its end and packs its files into
//! *blocks*, one compressed stream each. In a solid archive (7-Zip's
//! default) one block holds many files, one after another: a member is
//! decoded by decoding its block from the start. Opening every member
//! afresh would decode a block of n members n times over (quadratic in
//! the archive's size); instead each block has a decoder thread that runs
//! through it once ([`Cursor`]), and the members, opened in the archive's
//! order as a run reads its inputs, take their text from it in turn. A
//! member opened out of order is still read right: its block is decoded
//! again from the start.
//!
//! As a zip member is, each member is checked before it is read: decoded
//! once without keeping its text, on a cursor of its own, so that a member
//! whose CRC-32 fails is `damaged_input` rather than rows of garbage.
//! That is one more decoding of the archive, as for gzip and zip.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use sevenz_rust2::{Archive, BlockDecoder, Password};

use super::damage::{Checked, read_through};
use super::read_ahead::{fill_block, read_buffered};

/// Bytes of text per piece a decoder thread hands over.
const PIECE: usize = 1 << 18;

/// Pieces a decoder thread decodes ahead of its reader.
const PIECES_AHEAD: usize = 4;

/// Reads the index of the 7z archive at `path`. The reader of the index
/// is not this project's, and an index is arbitrary bytes: a panic in it
/// is an index that cannot be read.
pub(super) fn read_index(path: &Path) -> Result<Arc<Archive>, String> {
    let read = || -> Result<Archive, String> {
        let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        Archive::read(&mut file, &Password::empty()).map_err(|e| describe(&e))
    };
    match std::panic::catch_unwind(read) {
        Ok(index) => index.map(Arc::new),
        Err(_) => Err("its index is malformed".to_string()),
    }
}

/// One block of a 7z archive, shared by the inputs of its members.
#[derive(Clone)]
pub(super) struct SevenZipBlock(Arc<Block>);

struct Block {
    archive: PathBuf,
    index: Arc<Archive>,
    block: usize,
    /// The decoder the members' checks take their text from.
    check: Mutex<Option<Cursor>>,
    /// The decoder the members' text is read from.
    read: Mutex<Option<Cursor>>,
    /// Decoder threads started for this block: two (one per cursor) when
    /// its members are read in order.
    started: std::sync::atomic::AtomicUsize,
    /// The last of its members that is an input ([`SevenZipBlock::wants`]).
    /// Once it has been read, a cursor is dropped rather than kept, and its
    /// thread ends (at its next piece) with the memory of its decoder,
    /// instead of waiting until the run ends for members nobody reads.
    last_wanted: std::sync::atomic::AtomicUsize,
}

impl SevenZipBlock {
    /// Block `block` of the archive at `archive`, whose index is `index`.
    pub(super) fn new(archive: &Path, index: &Arc<Archive>, block: usize) -> SevenZipBlock {
        SevenZipBlock(Arc::new(Block {
            archive: archive.to_path_buf(),
            index: Arc::clone(index),
            block,
            check: Mutex::new(None),
            read: Mutex::new(None),
            started: Default::default(),
            last_wanted: Default::default(),
        }))
    }

    /// Says member `member` (its index among the archive's files) is an
    /// input, to be read.
    pub(super) fn wants(&self, member: usize) {
        self.0
            .last_wanted
            .fetch_max(member, std::sync::atomic::Ordering::Relaxed);
    }

    /// Checks member `member` (its index among the archive's files), as
    /// [`super::damage::check_zip_member`] checks a zip member: decodes it
    /// without keeping its text. `name` is the input's name, for the
    /// message. An error is a member that cannot be read at all (encrypted,
    /// or in a method not built in), with the reason.
    pub(super) fn check(&self, member: usize, name: &Path) -> Result<Checked, String> {
        let (read, failure) = read_through(&mut self.member(member, Slot::Check));
        let why = failure
            .as_ref()
            .and_then(|e| e.get_ref()?.downcast_ref::<Failure>());
        if read == 0 && why.is_some_and(|f| f.unsupported) {
            return Err(why.map(|f| f.why.clone()).unwrap_or_default());
        }
        let checksum = why.is_some_and(|f| f.checksum);
        let name = name.display();
        Ok(Checked::member((read, failure), |read, e| {
            if read == 0 {
                format!("{name}: 7z member cannot be decoded ({e}): nothing of it is read")
            } else if checksum {
                format!(
                    "{name}: 7z member fails its CRC-32 check: its text ({read} bytes) is unreliable"
                )
            } else {
                format!(
                    "{name}: 7z member cannot be decoded after {read} bytes of text ({e}): that text is unreliable"
                )
            }
        }))
    }

    /// The text of member `member`, decoded on its block's thread, as far
    /// as `readable` bytes (where its check found the decoding fails).
    pub(super) fn text(&self, member: usize, readable: u64) -> impl Read + Send + 'static {
        self.member(member, Slot::Read).take(readable)
    }

    fn member(&self, member: usize, slot: Slot) -> MemberText {
        let taken = self.slot(slot).lock().ok().and_then(|mut s| s.take());
        // A cursor that has handed out none of this member's text yet can
        // go on to it; one past it cannot go back.
        let cursor = match taken {
            Some(c) if c.last.is_none_or(|last| last < member) => c,
            _ => Cursor::start(&self.0),
        };
        MemberText {
            block: self.clone(),
            slot,
            member,
            cursor: Some(cursor),
            piece: Vec::new(),
            at: 0,
            ended: false,
        }
    }

    fn slot(&self, slot: Slot) -> &Mutex<Option<Cursor>> {
        match slot {
            Slot::Check => &self.0.check,
            Slot::Read => &self.0.read,
        }
    }
}

impl PartialEq for SevenZipBlock {
    fn eq(&self, other: &Self) -> bool {
        self.0.archive == other.0.archive && self.0.block == other.0.block
    }
}

impl Eq for SevenZipBlock {}

impl std::fmt::Debug for SevenZipBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} block {}", self.0.archive.display(), self.0.block)
    }
}

#[derive(Clone, Copy)]
enum Slot {
    Check,
    Read,
}

/// A decoder thread running through one block, and how far its reader
/// has taken its pieces.
struct Cursor {
    pieces: Receiver<Piece>,
    /// The member whose piece was taken last (`None` before the first).
    last: Option<usize>,
    /// A failure that ended the block's decoding: the member it happened
    /// in, and what it was. The members after it have no text.
    ended_by: Option<(usize, Failure)>,
}

/// What a decoder thread hands over, for member `.0`.
enum Piece {
    Text(usize, Vec<u8>),
    End(usize),
    Failed(usize, Failure),
}

/// Why a member's decoding failed.
#[derive(Debug, Clone)]
struct Failure {
    why: String,
    /// All of the member's text was decoded, and its CRC-32 does not
    /// match: the block goes on with the next member.
    checksum: bool,
    /// Nothing can be decoded: encrypted, or a method not built in.
    unsupported: bool,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::error::Error for Failure {}

impl Cursor {
    /// Starts a thread that decodes `block` from its start. A thread the
    /// system refuses is a cursor whose block fails at once.
    fn start(block: &Block) -> Cursor {
        block
            .started
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, pieces) = sync_channel(PIECES_AHEAD);
        let (archive, index, number) =
            (block.archive.clone(), Arc::clone(&block.index), block.block);
        let first = first_member(&index, number);
        let spawned = std::thread::Builder::new()
            .name("pgnmill-7z".into())
            .spawn(move || {
                let tx2 = tx.clone();
                let run =
                    std::panic::AssertUnwindSafe(move || decode(&archive, &index, number, &tx2));
                if std::panic::catch_unwind(run).is_err() {
                    let _ = tx.send(Piece::Failed(
                        first,
                        failure("the 7z decoder failed".into()),
                    ));
                }
            });
        let ended_by = spawned
            .err()
            .map(|e| (first, failure(format!("cannot start a thread: {e}"))));
        Cursor {
            pieces,
            last: None,
            ended_by,
        }
    }
}

fn failure(why: String) -> Failure {
    Failure {
        why,
        checksum: false,
        unsupported: false,
    }
}

/// The index among the archive's files of block `block`'s first member.
fn first_member(index: &Archive, block: usize) -> usize {
    index
        .stream_map
        .block_first_file_index
        .get(block)
        .copied()
        .unwrap_or(0)
}

/// Decodes block `block` of `archive` (whose index is `index`) from its
/// start, handing every member's text to `tx` in pieces, then its end or
/// its failure. Stops when the reader is gone.
fn decode(archive: &Path, index: &Archive, block: usize, tx: &SyncSender<Piece>) {
    let first = first_member(index, block);
    let mut member = first;
    let file = match std::fs::File::open(archive) {
        Ok(file) => file,
        Err(e) => {
            let _ = tx.send(Piece::Failed(first, failure(e.to_string())));
            return;
        }
    };
    let mut file = std::io::BufReader::new(file);
    let password = Password::empty();
    let decoder = BlockDecoder::new(1, block, index, &password, &mut file);
    let mut each = |entry: &sevenz_rust2::ArchiveEntry, text: &mut dyn Read| {
        let m = member;
        member += 1;
        // Bytes of the member's text decoded so far.
        let mut got = 0u64;
        loop {
            let mut piece = vec![0u8; PIECE];
            let (mut filled, failed) = fill_block(text, &mut piece);
            got += filled as u64;
            let checksum = failed.as_ref().is_some_and(is_checksum_failure);
            if checksum {
                // The check is made on the read that gives the member's
                // last bytes, which are in the piece after the `filled`
                // before it: all of the text was decoded, and the member
                // is read as damaged (as a zip member is).
                let last = entry.size().saturating_sub(got);
                filled = (filled + last as usize).min(PIECE);
            }
            if filled > 0 {
                piece.truncate(filled);
                if tx.send(Piece::Text(m, piece)).is_err() {
                    return Ok(false);
                }
            }
            if let Some(e) = failed {
                let failure = Failure {
                    why: if checksum {
                        "its CRC-32 does not match".into()
                    } else {
                        e.to_string()
                    },
                    checksum,
                    unsupported: false,
                };
                // After a checksum failure the block's decoder stands at
                // the next member's start: the block goes on.
                return Ok(tx.send(Piece::Failed(m, failure)).is_ok() && checksum);
            }
            if filled < PIECE {
                return Ok(tx.send(Piece::End(m)).is_ok());
            }
        }
    };
    if let Err(e) = decoder.for_each_entries(&mut each) {
        let unsupported = matches!(
            e,
            sevenz_rust2::Error::UnsupportedCompressionMethod(_)
                | sevenz_rust2::Error::Unsupported(_)
                | sevenz_rust2::Error::ExternalUnsupported
                | sevenz_rust2::Error::PasswordRequired
                | sevenz_rust2::Error::MaybeBadPassword(_)
        );
        let failure = Failure {
            why: describe(&e),
            checksum: false,
            unsupported,
        };
        let _ = tx.send(Piece::Failed(member, failure));
    }
}

fn is_checksum_failure(e: &std::io::Error) -> bool {
    e.get_ref()
        .and_then(|e| e.downcast_ref::<sevenz_rust2::Error>())
        .is_some_and(|e| matches!(e, sevenz_rust2::Error::ChecksumVerificationFailed))
}

/// A 7z reader's error in words.
fn describe(e: &sevenz_rust2::Error) -> String {
    use sevenz_rust2::Error;
    match e {
        Error::BadSignature(_) => "not a 7z archive".into(),
        Error::Io(e, _) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            "the file ends before it".into()
        }
        Error::Io(e, what) if what.is_empty() => e.to_string(),
        Error::Io(e, what) => format!("{what}: {e}"),
        Error::UnsupportedCompressionMethod(method) if method.starts_with("AES") => {
            format!("encrypted ({method})")
        }
        Error::UnsupportedCompressionMethod(method) => {
            format!("compressed in a method not built in ({method})")
        }
        Error::PasswordRequired | Error::MaybeBadPassword(_) => "encrypted".into(),
        Error::ChecksumVerificationFailed | Error::NextHeaderCrcMismatch => {
            "its index fails its CRC-32 check".into()
        }
        other => format!("{other:?}"),
    }
}

/// One member's text, taken from its block's cursor.
struct MemberText {
    block: SevenZipBlock,
    slot: Slot,
    member: usize,
    cursor: Option<Cursor>,
    piece: Vec<u8>,
    at: usize,
    ended: bool,
}

impl MemberText {
    /// Ends the member's text with `failure`.
    fn fail(&mut self, failure: Failure) -> std::io::Error {
        self.ended = true;
        std::io::Error::new(std::io::ErrorKind::InvalidData, failure)
    }
}

impl BufRead for MemberText {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at >= self.piece.len() {
            let Some(cursor) = self.cursor.as_mut().filter(|_| !self.ended) else {
                return Ok(&[]);
            };
            if let Some((at, failure)) = &cursor.ended_by {
                let failure = if *at == self.member || failure.unsupported {
                    failure.clone()
                } else {
                    Failure {
                        why: format!(
                            "the block it is in cannot be decoded past an earlier member: {failure}"
                        ),
                        checksum: false,
                        unsupported: false,
                    }
                };
                return Err(self.fail(failure));
            }
            let Ok(piece) = cursor.pieces.recv() else {
                let gone = failure("the 7z decoder stopped".into());
                cursor.ended_by = Some((self.member, gone.clone()));
                return Err(self.fail(gone));
            };
            match piece {
                Piece::Text(m, text) => {
                    cursor.last = Some(m);
                    if m == self.member {
                        self.piece = text;
                        self.at = 0;
                    }
                }
                Piece::End(m) => {
                    cursor.last = Some(m);
                    if m == self.member {
                        self.ended = true;
                    }
                }
                Piece::Failed(m, failure) => {
                    cursor.last = Some(m);
                    if !failure.checksum {
                        cursor.ended_by = Some((m, failure.clone()));
                    }
                    if m == self.member {
                        return Err(self.fail(failure));
                    }
                }
            }
        }
        Ok(self.piece.get(self.at..).unwrap_or_default())
    }

    fn consume(&mut self, n: usize) {
        self.at = self.at.saturating_add(n).min(self.piece.len());
    }
}

impl Read for MemberText {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl Drop for MemberText {
    fn drop(&mut self) {
        let last = self
            .block
            .0
            .last_wanted
            .load(std::sync::atomic::Ordering::Relaxed);
        if self.member >= last {
            return;
        }
        if let (Some(cursor), Ok(mut slot)) =
            (self.cursor.take(), self.block.slot(self.slot).lock())
        {
            *slot = Some(cursor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::decoding::tests::{fixture, fixture_path, manifest, source_text};

    /// What 7-Zip extracts of each `partN.pgn` member of the fixtures: the
    /// stretches of the lichess sample that expected.json gives them
    /// (checked against `7zz x` by make_compressed.py).
    fn extracted(archive: &str) -> Vec<(String, Vec<u8>)> {
        let manifest = manifest();
        let sample = source_text();
        let members = manifest["files"][archive]["members"].as_object().unwrap();
        members
            .iter()
            .map(|(name, m)| {
                let (a, b) = (
                    m["text"][0].as_u64().unwrap(),
                    m["text"][1].as_u64().unwrap(),
                );
                (name.clone(), sample[a as usize..b as usize].to_vec())
            })
            .collect()
    }

    /// The block of `archive`, its `.pgn` members wanted, and the
    /// archive-wide index of each member.
    fn solid(archive: &Path) -> (SevenZipBlock, Vec<(String, usize)>) {
        let index = read_index(archive).unwrap();
        assert_eq!(index.blocks.len(), 1, "one solid block");
        let block = SevenZipBlock::new(archive, &index, 0);
        let members: Vec<(String, usize)> = index
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name().to_string(), i))
            .collect();
        for (name, i) in &members {
            if name.ends_with(".pgn") {
                block.wants(*i);
            }
        }
        (block, members)
    }

    fn read_member(block: &SevenZipBlock, member: usize) -> Vec<u8> {
        let mut text = Vec::new();
        block.text(member, u64::MAX).read_to_end(&mut text).unwrap();
        text
    }

    #[test]
    fn members_read_in_order_decode_their_block_once() {
        let archive = fixture_path("members.7z");
        let (block, members) = solid(&archive);
        let want = extracted("members.7z");
        for (name, text) in &want {
            let &(_, i) = members.iter().find(|(n, _)| n == name).unwrap();
            let checked = block.check(i, Path::new(name)).unwrap();
            assert!(checked.damage.is_empty(), "{name}");
            assert!(read_member(&block, i) == *text, "{name}");
        }
        // One decoder for the checks, one for the text, whatever the
        // number of members.
        assert_eq!(
            block.0.started.load(std::sync::atomic::Ordering::Relaxed),
            2
        );
        // Past the last member wanted, no decoder is kept waiting.
        assert!(block.0.check.lock().unwrap().is_none());
        assert!(block.0.read.lock().unwrap().is_none());
    }

    #[test]
    fn a_member_opened_before_one_already_read_is_decoded_again() {
        let archive = fixture_path("members.7z");
        let (block, members) = solid(&archive);
        let want = extracted("members.7z");
        let order = [2, 0, 1, 1, 2];
        for &k in &order {
            let (name, text) = &want[k];
            let &(_, i) = members.iter().find(|(n, _)| n == name).unwrap();
            assert!(read_member(&block, i) == *text, "{name}");
        }
        // part3, then part1 (a new decoder), part2 (the same), part2 again
        // (a new one), part3 (the same).
        assert_eq!(
            block.0.started.load(std::sync::atomic::Ordering::Relaxed),
            3
        );
    }

    #[test]
    fn a_member_failing_its_crc_is_damaged_whole_and_the_next_is_read() {
        let archive = fixture_path("crc-member.7z");
        let (block, members) = solid(&archive);
        let want = extracted("crc-member.7z");
        for (name, text) in &want {
            let &(_, i) = members.iter().find(|(n, _)| n == name).unwrap();
            let checked = block.check(i, Path::new(name)).unwrap();
            if name == "part2.pgn" {
                assert_eq!(checked.readable, text.len() as u64);
                assert_eq!(checked.damage.len(), 1);
                assert!(checked.damage[0].why.contains("fails its CRC-32 check"));
                // Its text is all there, to be read as damaged.
                let mut got = Vec::new();
                block
                    .text(i, checked.readable)
                    .read_to_end(&mut got)
                    .unwrap();
                assert!(got == *text);
            } else {
                assert!(checked.damage.is_empty(), "{name}");
                assert!(read_member(&block, i) == *text, "{name}");
            }
        }
    }

    #[test]
    fn an_archive_cut_short_has_no_index() {
        let dir = tempfile::tempdir().unwrap();
        let whole = fixture("members.7z");
        for cut in (0..whole.len()).step_by(97) {
            let path = dir.path().join("cut.7z");
            std::fs::write(&path, &whole[..cut]).unwrap();
            assert!(read_index(&path).is_err(), "cut at {cut}");
        }
    }
}
