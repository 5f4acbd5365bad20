//! Command-line inputs: files, directories searched for PGN files, members
//! of zip and 7z archives, and `-`.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::compression::{Compression, MAGIC_BYTES, compression_of};
use super::content::RefusalKind;
use super::damage::check_zip_member;
use super::damaged_zip;
use super::listing::Listing;
use super::opened::{Opened, open_file, open_stream, refused};
use super::read_ahead::ReadAhead;
use super::seven_zip::{SevenZipBlock, read_index};
use super::{ReadOptions, SourceError, io_err};

/// One input to read: a file, a member of a zip or 7z archive, or stdin
/// (`-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The path as given on the command line (or as found under a given
    /// directory); `-` for stdin; `archive.zip:member.pgn` for a member of
    /// a zip archive (`archive.7z:member.pgn` for a 7z archive's). Reports
    /// name the input by this.
    pub path: PathBuf,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Stdin,
    File,
    /// Member `index` of the zip archive at `archive`.
    ZipMember {
        archive: PathBuf,
        index: usize,
    },
    /// A zip archive whose central directory cannot be read: its members
    /// of the `members` endings, read from their local headers as far as
    /// they go (`damaged_zip.rs`), as one input; `why` is the reader's
    /// complaint about the directory.
    DamagedZip {
        members: &'static [&'static str],
        why: String,
    },
    /// Member `index` (among its files) of the 7z archive at `archive`,
    /// in `block` of it (`None` for an empty member, which is in none).
    SevenZipMember {
        archive: PathBuf,
        index: usize,
        block: Option<SevenZipBlock>,
    },
    /// A 7z archive whose index cannot be read, and why: refused whole.
    DamagedSevenZip {
        why: String,
    },
    /// An `archive` (zip or 7z) with no member of the `members` endings:
    /// an input refused whole, as a binary file is, so that it is named
    /// in the report and `--strict` fails on it.
    NoMember {
        archive: Compression,
        members: &'static [&'static str],
    },
}

/// [`Input::identity`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum InputIdentity {
    Stdin,
    /// A file's device and inode.
    File(u64, u64),
    /// An archive's device and inode, and the member's index.
    Member(u64, u64, usize),
}

impl Input {
    /// Standard input.
    pub fn stdin() -> Input {
        Input {
            path: PathBuf::from("-"),
            kind: Kind::Stdin,
        }
    }

    /// A file (compressed or not; that is found out when it is opened).
    pub fn file(path: impl Into<PathBuf>) -> Input {
        Input {
            path: path.into(),
            kind: Kind::File,
        }
    }

    /// What names this input's bytes whatever the path it was given by:
    /// standard input, or the device and inode of its file (of its
    /// archive, with the member's index, for a zip member). `None` where
    /// the file cannot be looked at or the platform has no inodes.
    pub(crate) fn identity(&self) -> Option<InputIdentity> {
        let id = |path: &Path| std::fs::metadata(path).ok().as_ref().and_then(file_id);
        match &self.kind {
            Kind::Stdin => Some(InputIdentity::Stdin),
            Kind::ZipMember { archive, index } | Kind::SevenZipMember { archive, index, .. } => {
                id(archive).map(|(dev, ino)| InputIdentity::Member(dev, ino, *index))
            }
            Kind::File
            | Kind::DamagedZip { .. }
            | Kind::DamagedSevenZip { .. }
            | Kind::NoMember { .. } => {
                id(&self.path).map(|(dev, ino)| InputIdentity::File(dev, ino))
            }
        }
    }

    pub fn is_stdin(&self) -> bool {
        self.kind == Kind::Stdin
    }

    /// The file this input is read from: the archive of a member;
    /// `None` for stdin.
    pub fn file_path(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Stdin => None,
            Kind::File
            | Kind::DamagedZip { .. }
            | Kind::DamagedSevenZip { .. }
            | Kind::NoMember { .. } => Some(&self.path),
            Kind::ZipMember { archive, .. } | Kind::SevenZipMember { archive, .. } => Some(archive),
        }
    }

    /// Opens the input: maps a plain file, or starts a decoder for a
    /// compressed file, a zip member, a FIFO or stdin; says what it is
    /// (text, a record file, or refused) and, for text, decides its
    /// encoding.
    pub fn open(&self, opts: &ReadOptions) -> Result<Opened, SourceError> {
        match &self.kind {
            Kind::Stdin => open_stream(&self.path, Box::new(std::io::stdin()), opts, None),
            Kind::File => open_file(&self.path, opts),
            Kind::ZipMember { archive, index } => {
                let checked = match check_zip_member(archive, *index, &self.path) {
                    Ok(checked) => checked,
                    Err(e) => match member_unsupported(&e) {
                        // An encrypted member, or one in a compression
                        // method not built in: that member is not read,
                        // as a binary input is not, and the run goes on.
                        Some(why) => {
                            return Ok(refused(
                                &self.path,
                                Compression::Zip,
                                RefusalKind::Unsupported,
                                format!("zip member that cannot be read: {why}, nothing read"),
                            ));
                        }
                        None => return Err(io_err(&self.path, e)),
                    },
                };
                let member = zip_member(archive, *index, checked.readable)
                    .map_err(|e| io_err(&self.path, e))?;
                open_stream(&self.path, Box::new(member), opts, None)
                    .map(|o| o.archived(Compression::Zip).with_damage(checked.damage))
            }
            Kind::DamagedZip { members, why } => {
                let text = damaged_zip::open(&self.path, members, why.clone())
                    .map_err(|e| io_err(&self.path, e))?;
                open_stream(&self.path, Box::new(text), opts, None)
                    .map(|o| o.archived(Compression::Zip))
            }
            Kind::SevenZipMember { block: None, .. } => {
                open_stream(&self.path, Box::new(std::io::empty()), opts, None)
                    .map(|o| o.archived(Compression::SevenZip))
            }
            Kind::SevenZipMember {
                index,
                block: Some(block),
                ..
            } => {
                let checked = match block.check(*index, &self.path) {
                    Ok(checked) => checked,
                    // Encrypted, or in a method not built in: that member
                    // is not read, as a binary input is not.
                    Err(why) => {
                        return Ok(refused(
                            &self.path,
                            Compression::SevenZip,
                            RefusalKind::Unsupported,
                            format!("7z member that cannot be read: {why}, nothing read"),
                        ));
                    }
                };
                let text = block.text(*index, checked.readable);
                open_stream(&self.path, Box::new(text), opts, None).map(|o| {
                    o.archived(Compression::SevenZip)
                        .with_damage(checked.damage)
                })
            }
            Kind::DamagedSevenZip { why } => Ok(refused(
                &self.path,
                Compression::SevenZip,
                RefusalKind::Unsupported,
                format!(
                    "7z archive whose index cannot be read ({why}): cut short or damaged, nothing read"
                ),
            )),
            Kind::NoMember { archive, members } => Ok(refused(
                &self.path,
                *archive,
                RefusalKind::Unsupported,
                format!(
                    "{} archive holding no {} member, nothing read",
                    archive.name(),
                    members.join(" or ")
                ),
            )),
        }
    }
}

/// Why a zip member cannot be read at all, when `e` (from opening it) says
/// it is encrypted or compressed in a method not built in; `None` for an
/// error of the file itself.
fn member_unsupported(e: &std::io::Error) -> Option<String> {
    match e.get_ref()?.downcast_ref::<zip::result::ZipError>()? {
        zip::result::ZipError::UnsupportedArchive(why) => Some(why.to_lowercase()),
        e @ zip::result::ZipError::CompressionMethodNotSupported(_) => Some(e.to_string()),
        _ => None,
    }
}

/// Member `index` of the zip archive at `archive`, decompressed on a
/// thread of its own (the archive's reader lends the member's, so they
/// live together there), as far as `readable` bytes of text (where its
/// check found that decoding fails: the failure is reported as damage).
fn zip_member(archive: &Path, index: usize, readable: u64) -> std::io::Result<ReadAhead> {
    let archive = archive.to_path_buf();
    ReadAhead::spawn_with(move |pump| {
        let file = std::fs::File::open(&archive)?;
        let mut zip =
            zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(std::io::Error::other)?;
        let member = zip.by_index(index).map_err(std::io::Error::other)?;
        pump(&mut member.take(readable));
        Ok(())
    })
}

/// What a search passed over, for `summary.json` (`skipped`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Files under the folders named whose extension is not one searched for.
    pub other_extensions: u64,
    /// Those files, by path, sorted.
    pub other_extension_files: Vec<String>,
    /// Hidden files and folders under the folders named (name starting
    /// with `.`: `.git/`, `._name.pgn`, a report's `.*.partial` files).
    pub hidden: u64,
    /// Folders holding a pgnmill report (`summary.json` with a
    /// `pgnmill_version` key), whose report files a search never reads.
    pub report_folders: Vec<String>,
    /// Extract files pgnmill wrote ([`is_extract`]),
    /// found by a search and not read: pgnmill's own output.
    pub extracts: Vec<String>,
    /// Symbolic links under the folders named that lead nowhere, as
    /// `link -> target`.
    pub dangling_links: Vec<String>,
    /// Symbolic links to folders under the folders named, which a search
    /// does not follow, as `link -> target`.
    pub folder_links: Vec<String>,
    /// Inputs named again (directly, through a folder or by another path
    /// to the same file): each is read once, where it came first.
    pub duplicates: Vec<String>,
    /// Members of zip and 7z archives that are not read
    /// (`archive.zip:name`).
    pub archive_members: Vec<String>,
}

/// The first line of every extract file `pgnmill report --extract`
/// writes begins with this, then the kind (`errors`) and
/// [`EXTRACT_MARKER_END`]: a PGN escape line (`%` in the first column,
/// which PGN readers skip to its end), so that a folder search tells
/// pgnmill's own output from the user's files by the first bytes of a
/// file, and says so to a person who opens it.
const EXTRACT_MARKER: &str = "% pgnmill extract ";

/// What follows the kind in an extract's first line.
const EXTRACT_MARKER_END: &str =
    ": written by pgnmill report; a folder search passes over a file that begins with this line";

/// The first line (with its line end) of an extract of `kind`.
pub fn extract_first_line(kind: &str) -> String {
    format!("{EXTRACT_MARKER}{kind}{EXTRACT_MARKER_END}\n")
}

/// Paths named one by one in a note before the rest are only counted.
const NAMED_IN_NOTE: usize = 3;

/// Inputs, with what was passed over and a note for each thing a user
/// should hear of (one line each, for stderr).
#[derive(Debug, Clone, Default)]
pub struct Expansion {
    pub inputs: Vec<Input>,
    pub skipped: Skipped,
    pub notes: Vec<String>,
}

/// Expands command-line arguments into inputs, in order: `-` is stdin, a file
/// is itself (whatever its name), a directory is every PGN file under it
/// (recursively, sorted by path so runs are reproducible; symbolic links to
/// directories are not followed, so there are no cycles). The rules are in
/// `docs/reports.md`, "Inputs".
pub fn expand_inputs(args: &[PathBuf]) -> Result<Vec<Input>, SourceError> {
    expand_inputs_for(args, Listing::Games)
}

/// [`expand_inputs`], a folder searched for the files of `listing`.
pub fn expand_inputs_for(args: &[PathBuf], listing: Listing) -> Result<Vec<Input>, SourceError> {
    expand_inputs_noted(args, listing).map(|e| e.inputs)
}

/// [`expand_inputs_for`], with what was passed over and the notes to print.
pub fn expand_inputs_noted(args: &[PathBuf], listing: Listing) -> Result<Expansion, SourceError> {
    let mut out = Expansion::default();
    // (device, inode) of every file taken, and the name it was taken by.
    let mut seen: HashMap<(u64, u64), PathBuf> = HashMap::new();
    let mut stdin_taken = false;
    for arg in args {
        if arg.as_os_str() == "-" {
            // A second read of stdin finds it already at its end: it
            // would be an input of no games that names nothing wrong.
            if stdin_taken {
                out.notes
                    .push("-: standard input named again, read once".to_string());
                out.skipped.duplicates.push("-".to_string());
            } else {
                stdin_taken = true;
                out.inputs.push(Input::stdin());
            }
            continue;
        }
        let meta = std::fs::metadata(arg).map_err(|e| io_err(arg, e))?;
        if meta.is_dir() {
            let mut search = Search::default();
            let found = walk(arg, listing, &mut search)?;
            let (extracts, files): (Vec<PathBuf>, Vec<PathBuf>) =
                found.into_iter().partition(|p| is_extract(p));
            search.extracts = extracts;
            if files.is_empty() {
                let mut own_output = search.report_folders.clone();
                own_output.extend(search.extracts.iter().map(|p| p.display().to_string()));
                return Err(SourceError::NoInputFiles {
                    path: arg.clone(),
                    listing,
                    own_output,
                });
            }
            search.note(arg, listing, &mut out);
            for path in files {
                take_file(path, None, listing, &mut seen, &mut out)?;
            }
        } else {
            take_file(arg.clone(), Some(meta), listing, &mut seen, &mut out)?;
        }
    }
    Ok(out)
}

/// What the search of one folder named on the command line passed over.
#[derive(Default)]
struct Search {
    /// Files of other extensions.
    other: Vec<PathBuf>,
    hidden: u64,
    report_folders: Vec<String>,
    /// Files of the listing that are pgnmill's own extracts.
    extracts: Vec<PathBuf>,
    /// `(link, target)` of links that lead nowhere, and why.
    dangling: Vec<(PathBuf, PathBuf, std::io::Error)>,
    /// `(link, target)` of links to folders, which a search does not follow.
    folder_links: Vec<(PathBuf, PathBuf)>,
}

impl Search {
    /// Moves what was passed over into `out.skipped`, with one note per
    /// kind (and one per dangling link), the first paths named.
    fn note(self, arg: &Path, listing: Listing, out: &mut Expansion) {
        let skipped = &mut out.skipped;
        skipped.hidden += self.hidden;
        if !self.other.is_empty() {
            out.notes.push(format!(
                "{}: passed over {} file(s) that are not {}: {}",
                arg.display(),
                self.other.len(),
                listing.extensions().join(", "),
                first_few(&self.other)
            ));
            skipped.other_extensions += self.other.len() as u64;
            skipped
                .other_extension_files
                .extend(self.other.iter().map(|p| p.to_string_lossy().into_owned()));
        }
        for folder in &self.report_folders {
            out.notes.push(format!(
                "{folder}: a pgnmill report folder (it holds pgnmill's summary.json): its report files are pgnmill's own output, passed over"
            ));
        }
        skipped.report_folders.extend(self.report_folders);
        if !self.extracts.is_empty() {
            out.notes.push(format!(
                "{}: passed over {} extract file(s) that pgnmill wrote (their first line begins with `{}`): {}",
                arg.display(),
                self.extracts.len(),
                EXTRACT_MARKER.trim_end(),
                first_few(&self.extracts)
            ));
            skipped.extracts.extend(
                self.extracts
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned()),
            );
        }
        for (link, target) in self.folder_links {
            out.notes.push(format!(
                "{}: a symbolic link to the folder {}, not followed (name it to read it); passed over",
                link.display(),
                target.display()
            ));
            skipped.folder_links.push(link_to(&link, &target));
        }
        for (link, target, why) in self.dangling {
            let what = if why.kind() == std::io::ErrorKind::NotFound {
                "which does not exist".to_string()
            } else {
                format!("which cannot be followed: {why}")
            };
            out.notes.push(format!(
                "{}: a symbolic link to {}, {what}; passed over",
                link.display(),
                target.display()
            ));
            skipped.dangling_links.push(link_to(&link, &target));
        }
    }
}

/// The first [`NAMED_IN_NOTE`] paths, and how many more there are.
fn first_few(paths: &[PathBuf]) -> String {
    let named: Vec<String> = paths
        .iter()
        .take(NAMED_IN_NOTE)
        .map(|p| p.display().to_string())
        .collect();
    match paths.len().saturating_sub(NAMED_IN_NOTE) {
        0 => named.join(", "),
        more => format!("{} and {more} more", named.join(", ")),
    }
}

/// True for a file whose first line is an extract's
/// ([`extract_first_line`], any kind): an extract pgnmill wrote.
pub fn is_extract(path: &Path) -> bool {
    const LONGEST_KIND: usize = 16;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(128);
    let most = (EXTRACT_MARKER.len() + LONGEST_KIND + EXTRACT_MARKER_END.len() + 2) as u64;
    if file.take(most).read_to_end(&mut head).is_err() {
        return false;
    }
    let Some(rest) = head.strip_prefix(EXTRACT_MARKER.as_bytes()) else {
        return false;
    };
    let kind = rest.iter().take_while(|b| b.is_ascii_lowercase()).count();
    let rest = &rest[kind..];
    kind > 0
        && rest.starts_with(EXTRACT_MARKER_END.as_bytes())
        && matches!(rest.get(EXTRACT_MARKER_END.len()), Some(b'\n' | b'\r'))
}

/// Adds the file at `path` (a zip or 7z archive as its members), unless
/// it was taken before under another name.
fn take_file(
    path: PathBuf,
    meta: Option<std::fs::Metadata>,
    listing: Listing,
    seen: &mut HashMap<(u64, u64), PathBuf>,
    out: &mut Expansion,
) -> Result<(), SourceError> {
    let meta = match meta {
        Some(m) => m,
        None => std::fs::metadata(&path).map_err(|e| io_err(&path, e))?,
    };
    if let Some(key) = file_id(&meta) {
        if let Some(first) = seen.get(&key) {
            out.notes.push(format!(
                "{}: the same file as {}, read once",
                path.display(),
                first.display()
            ));
            out.skipped
                .duplicates
                .push(path.to_string_lossy().into_owned());
            return Ok(());
        }
        seen.insert(key, path.clone());
    }
    if !meta.is_file() {
        // A FIFO, `<(cmd)` or a device: opening it now would consume it
        // (or wait for a writer); it is read once, as a stream, when its
        // turn comes.
        out.inputs.push(Input::file(path));
        return Ok(());
    }
    // Find out now, not half-way through the run, that it cannot be read.
    let mut file = std::fs::File::open(&path).map_err(|e| io_err(&path, e))?;
    let mut head = [0u8; MAGIC_BYTES];
    let n = file.read(&mut head).map_err(|e| io_err(&path, e))?;
    let zip = match compression_of(head.get(..n).unwrap_or_default()) {
        Compression::Zip => Some(zip::ZipArchive::new(std::io::BufReader::new(file))),
        Compression::SevenZip => {
            drop(file);
            take_seven_zip(path, listing, out);
            return Ok(());
        }
        // A zip archive after other bytes (a self-extractor's program, a
        // script): its first bytes are not a zip's, its end is. Not an
        // archive after all, it is read as the text it starts as.
        Compression::None if ends_with_zip_directory(&mut file) => {
            zip::ZipArchive::new(std::io::BufReader::new(file))
                .ok()
                .map(|zip| {
                    out.notes.push(format!(
                        "{}: a zip archive after {} bytes of something else, which are passed over",
                        path.display(),
                        zip.offset()
                    ));
                    Ok(zip)
                })
        }
        _ => None,
    };
    let Some(zip) = zip else {
        out.inputs.push(Input::file(path));
        return Ok(());
    };
    let zip = match zip {
        Ok(zip) => zip,
        Err(e) => {
            // Cut short (no central directory at the end): what can be read
            // is read, and the input is marked incomplete, like a truncated
            // `.zst`; it is not a reason to refuse the whole run.
            out.notes.push(format!(
                "{}: the archive's index at its end cannot be read ({e}): a zip archive cut short or damaged; its members are read in order, as one input, as far as they go",
                path.display()
            ));
            out.inputs.push(Input {
                path,
                kind: Kind::DamagedZip {
                    members: listing.members(),
                    why: e.to_string(),
                },
            });
            return Ok(());
        }
    };
    let mut members = Members::new(&path, listing, out);
    for index in 0..zip.len() {
        let entry = zip
            .by_index_data(index)
            .map_err(|e| io_err(&path, std::io::Error::other(e)))?;
        if entry.is_dir() {
            continue;
        }
        let name = String::from_utf8_lossy(entry.name_raw());
        members.take(&name, || Kind::ZipMember {
            archive: path.clone(),
            index,
        });
    }
    members.end(Compression::Zip);
    Ok(())
}

/// The members of one archive taken as inputs, those of other endings
/// passed over.
struct Members<'a> {
    archive: &'a Path,
    listing: Listing,
    out: &'a mut Expansion,
    before: usize,
}

impl<'a> Members<'a> {
    fn new(archive: &'a Path, listing: Listing, out: &'a mut Expansion) -> Members<'a> {
        let before = out.inputs.len();
        Members {
            archive,
            listing,
            out,
            before,
        }
    }

    /// Takes the member `name` as an input of `kind`, if it has one of the
    /// listing's member endings; else says it is passed over.
    fn take(&mut self, name: &str, kind: impl FnOnce() -> Kind) {
        let full = format!("{}:{name}", self.archive.display());
        let lower = name.to_ascii_lowercase();
        let members = self.listing.members();
        if members.iter().any(|ext| lower.ends_with(ext)) {
            self.out.inputs.push(Input {
                path: PathBuf::from(full),
                kind: kind(),
            });
        } else {
            self.out.notes.push(format!(
                "{full}: not a {} member, skipped",
                members.join(" or ")
            ));
            self.out.skipped.archive_members.push(full);
        }
    }

    /// An archive none of whose members was taken is an input refused.
    fn end(self, archive: Compression) {
        if self.out.inputs.len() == self.before {
            self.out.inputs.push(Input {
                path: self.archive.to_path_buf(),
                kind: Kind::NoMember {
                    archive,
                    members: self.listing.members(),
                },
            });
        }
    }
}

/// Adds the members of the 7z archive at `path`. An archive whose index
/// cannot be read (it is at the archive's end: a download cut short has
/// none) is an input refused, with a note.
fn take_seven_zip(path: PathBuf, listing: Listing, out: &mut Expansion) {
    let index = match read_index(&path) {
        Ok(index) => index,
        Err(why) => {
            out.inputs.push(Input {
                path,
                kind: Kind::DamagedSevenZip { why },
            });
            return;
        }
    };
    let mut blocks: HashMap<usize, SevenZipBlock> = HashMap::new();
    let mut members = Members::new(&path, listing, out);
    for (i, entry) in index.files.iter().enumerate() {
        if entry.is_directory() || entry.is_anti_item() {
            continue;
        }
        let in_block = index.stream_map.file_block_index.get(i).copied().flatten();
        members.take(entry.name(), || Kind::SevenZipMember {
            archive: path.clone(),
            index: i,
            block: in_block.map(|b| {
                let block = blocks
                    .entry(b)
                    .or_insert_with(|| SevenZipBlock::new(&path, &index, b));
                block.wants(i);
                block.clone()
            }),
        });
    }
    members.end(Compression::SevenZip);
}

/// Whether `file` ends with a zip archive's end-of-central-directory
/// record: its signature `PK\x05\x06`, 18 bytes, and a comment of the
/// length they give, which runs to the file's end. PGN text does not end
/// so.
fn ends_with_zip_directory(file: &mut std::fs::File) -> bool {
    use std::io::{Seek, SeekFrom};
    const RECORD: usize = 22;
    const LONGEST_COMMENT: u64 = 65_535;
    let Ok(len) = file.metadata().map(|m| m.len()) else {
        return false;
    };
    let tail_len = len.min(RECORD as u64 + LONGEST_COMMENT);
    if tail_len < RECORD as u64 {
        return false;
    }
    let mut tail = vec![0u8; tail_len as usize];
    let read = file
        .seek(SeekFrom::End(-(tail_len as i64)))
        .and_then(|_| file.read_exact(&mut tail));
    if read.is_err() {
        return false;
    }
    memchr::memmem::rfind_iter(&tail, b"PK\x05\x06").any(|at| {
        tail.get(at + 20..at + 22).is_some_and(|c| {
            at + RECORD + usize::from(u16::from_le_bytes([c[0], c[1]])) == tail.len()
        })
    })
}

/// A file's identity, whatever name reaches it (links, hard links): its
/// device and inode; `None` where the system has no such thing.
#[cfg(unix)]
pub(crate) fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
pub(crate) fn file_id(_meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// File names a report writes (`pgnmill report -o`): in a report folder,
/// pgnmill's own output, which a search passes over; where `-o` names a
/// folder, their presence means an earlier report.
pub const REPORT_FILES: [&str; 9] = [
    "report.html",
    "games.csv",
    "castling.csv",
    "summary.json",
    "games.parquet",
    "castling.parquet",
    "plies.csv",
    "plies.parquet",
    "duplicates.csv",
];

/// A symbolic link as summary.json lists it: `link -> target`.
fn link_to(link: &Path, target: &Path) -> String {
    format!("{} -> {}", link.to_string_lossy(), target.to_string_lossy())
}

/// True for a folder holding a pgnmill report: a `summary.json` with a
/// `pgnmill_version` key.
fn is_report_folder(dir: &Path) -> bool {
    let Ok(text) = std::fs::read(dir.join("summary.json")) else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(&text)
        .is_ok_and(|v| v.get("pgnmill_version").is_some())
}

/// The files of `listing` under `dir`, sorted; an explicit stack, not
/// recursion. Hidden entries (name starting with `.`), files named
/// `*.partial`, the report files of a report folder, links to folders and
/// links that lead nowhere are passed over, and recorded in `search`.
/// The other files of a report folder are read: a report written into a
/// folder of games does not hide them.
fn walk(dir: &Path, listing: Listing, search: &mut Search) -> Result<Vec<PathBuf>, SourceError> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let report_folder = is_report_folder(&d);
        if report_folder {
            search.report_folders.push(d.to_string_lossy().into_owned());
        }
        let entries = std::fs::read_dir(&d).map_err(|e| io_err(&d, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io_err(&d, e))?;
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name.ends_with(".partial") {
                search.hidden += 1;
                continue;
            }
            let ft = entry.file_type().map_err(|e| io_err(&path, e))?;
            if report_folder && REPORT_FILES.contains(&name.as_ref()) {
                continue;
            }
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_symlink()
                && let Err(why) = std::fs::metadata(&path)
            {
                let target = std::fs::read_link(&path).unwrap_or_default();
                search.dangling.push((path, target, why));
            } else if ft.is_symlink() && path.is_dir() {
                // Not followed, as find, fd and ripgrep do not by default:
                // a link back up would make the search endless.
                let target = std::fs::read_link(&path).unwrap_or_default();
                search.folder_links.push((path, target));
            } else if !(ft.is_file() || path.is_file()) {
                // A FIFO or socket found by a search is not read.
            } else if listing.picks(&path) {
                files.push(path);
            } else {
                search.other.push(path);
            }
        }
    }
    files.sort();
    search.other.sort();
    search.report_folders.sort();
    search.dangling.sort_by(|a, b| a.0.cmp(&b.0));
    search.folder_links.sort();
    Ok(files)
}
