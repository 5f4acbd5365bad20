//! An input's text as game-aligned batches: runs of whole games of a few
//! megabytes, each handed to a worker as it is.
//!
//! The splitter ([`split_window`]) runs over the text's window of about
//! [`ReadOptions::batch_bytes`]: a window yields the games whose end it
//! contains, and the next window starts where the first unfinished game
//! starts. A game longer than a window makes the window double until the
//! game fits, so the total work stays linear and memory is bounded by the
//! larger of the batch size and the longest game.

use super::game::GameText;
use super::split::{GameSpan, Position, split_window};
use super::split_parallel::split_window_parallel;
use crate::source::{
    Block, Compression, Damage, Encoding, Input, Opened, ReadOptions, SourceError, TextWindow,
    WindowEnd,
};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// A run of whole games from one input: the bytes (a slice of the mapped
/// file, or an owned piece of a stream) and where each game is in them.
/// `Send + Sync`: hand it to a worker thread as it is.
pub struct Batch {
    bytes: Block,
    /// Source offset of `bytes()[0]` (offsets count decompressed bytes).
    pub base_offset: u64,
    /// The games, in order; their offsets are source offsets.
    pub games: Vec<GameSpan>,
    /// 0-based index of this batch in its input.
    pub index: u64,
    /// Index (0-based) in its input of the first game of this batch.
    pub first_game: u64,
    /// Bytes of the input itself (compressed, for `.zst`/`.gz`) read when
    /// this batch was cut: what a progress bar over the file's size counts.
    pub input_read: u64,
    /// What the reader of a record file found wrong with this batch's one
    /// game (never set for PGN text).
    pub note: Option<ReaderNote>,
    /// True for the one game of a record file, written as text by a record
    /// reader: its messages name the record, not a line of that text.
    pub record: bool,
    /// The input's damaged stretches ([`TextWindow::damage`]), if it has any.
    pub damage: Option<Arc<[Damage]>>,
}

/// A problem a record reader found in a game it wrote as PGN text: the
/// replay of that text cannot see it, so it travels beside the text and
/// decides the row's status when the replay itself found nothing worse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReaderNote {
    /// The record breaks off in its main line (a file cut short, a move
    /// list cut inside a move); its moves up to the break are the text.
    Damaged(String),
    /// The record is damaged where its main line is not (a variation cut
    /// short, two pieces on one point of its start): the main line is
    /// whole, and a converted game must not say it stops.
    DamagedOffMainLine(String),
    /// The record holds no game (a library's chapter heading).
    NotAGame(String),
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("base_offset", &self.base_offset)
            .field("len", &self.bytes().len())
            .field("games", &self.games.len())
            .field("index", &self.index)
            .field("first_game", &self.first_game)
            .finish()
    }
}

impl Batch {
    /// A batch of one game that a record reader wrote as PGN text (UTF-8):
    /// `offset` and `line` say where the record is in its file, `index`
    /// and `game` count batches and games of the input so far.
    pub fn of_record(
        text: String,
        offset: u64,
        line: u64,
        index: u64,
        game: u64,
        input_read: u64,
        note: Option<ReaderNote>,
    ) -> Batch {
        let len = text.len();
        Batch {
            bytes: Block::owned(text.into_bytes()),
            base_offset: offset,
            games: vec![GameSpan { offset, line, len }],
            index,
            first_game: game,
            input_read,
            note,
            record: true,
            damage: None,
        }
    }

    /// The damage that covers a game of this batch, if any: its text is
    /// not what was compressed.
    pub fn damage_of(&self, span: &GameSpan) -> Option<&Damage> {
        let end = span.offset + span.len as u64;
        self.damage
            .as_deref()?
            .iter()
            .find(|d| d.covers(span.offset, end))
    }

    /// All bytes of the batch (games and whatever lies between them).
    pub fn bytes(&self) -> &[u8] {
        self.bytes.bytes()
    }

    /// The bytes of one of this batch's games (empty if `span` is not one).
    pub fn game_bytes(&self, span: &GameSpan) -> &[u8] {
        span.slice(self.bytes(), self.base_offset)
            .unwrap_or_default()
    }
}

/// Windows smaller than this are split on one thread: starting threads
/// would cost more than it saves.
const PARALLEL_SPLIT_MIN: usize = 1 << 20;

/// The batches of one text, in order. A text that breaks off part-way
/// (truncated `.zst`, read error) yields the batches of the games before
/// the break, then one `Err`, then ends. The game the break falls in is
/// not delivered, unless its text is whole by its own account (it ends
/// with its result): damage after the text (bytes appended to a file, a
/// damaged index or trailer) leaves every game whole.
pub struct Batches {
    text: TextWindow,
    batch_bytes: usize,
    pos: Position,
    batches: u64,
    games: u64,
    done: bool,
    /// The error of a text that broke off after a whole game, returned
    /// after the batch that holds that game.
    pending: Option<SourceError>,
    /// Threads a window is split on (1: the one-thread splitter).
    split_threads: usize,
    /// CPU nanoseconds of the threads that split parts of windows.
    split_helpers_ns: u64,
    /// The text's damaged stretches, shared by its batches.
    damage: Option<Arc<[Damage]>>,
    /// How many of the text's damaged stretches `damage` holds: the
    /// decoder of a many-frame `.zst` finds more as it goes.
    damage_seen: usize,
}

impl std::fmt::Debug for Batches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batches")
            .field("text", &self.text)
            .field("pos", &self.pos)
            .finish()
    }
}

impl Batches {
    /// The batches of `text`, of about `opts.batch_bytes` each.
    pub fn new(text: TextWindow, opts: &ReadOptions) -> Batches {
        Batches {
            damage: None,
            damage_seen: 0,
            text,
            batch_bytes: opts.batch_bytes.max(1),
            pos: Position::START,
            batches: 0,
            games: 0,
            done: false,
            pending: None,
            split_threads: 1,
            split_helpers_ns: 0,
        }
    }

    /// Opens `input` ([`Input::open`]) and reads it as batches; an input
    /// that is not text (a record file, or refused) is an error
    /// ([`SourceError::NotText`]).
    pub fn open(input: &Input, opts: &ReadOptions) -> Result<Batches, SourceError> {
        Ok(Batches::new(input.open(opts)?.into_text()?, opts))
    }

    /// The batches of bytes already in memory ([`TextWindow::from_shared`]).
    pub fn from_shared(
        path: &Path,
        data: Arc<dyn AsRef<[u8]> + Send + Sync>,
        opts: &ReadOptions,
    ) -> Batches {
        Batches::new(TextWindow::from_shared(path, data, opts), opts)
    }

    /// The batches of a stream ([`Opened::from_read`]); a stream that is
    /// not text is an error ([`SourceError::NotText`]).
    pub fn from_read(
        path: &Path,
        rd: Box<dyn Read + Send>,
        opts: &ReadOptions,
    ) -> Result<Batches, SourceError> {
        Ok(Batches::new(
            Opened::from_read(path, rd, opts)?.into_text()?,
            opts,
        ))
    }

    /// The text's encoding.
    pub fn encoding(&self) -> Encoding {
        self.text.encoding()
    }

    /// How the text was stored.
    pub fn compression(&self) -> Compression {
        self.text.compression()
    }

    /// The text being read (its path, encoding, compression, progress).
    pub fn text(&self) -> &TextWindow {
        &self.text
    }

    /// Splits each window on up to `threads` threads (see
    /// [`split_window_parallel`]: the batches are the same). Worth it only
    /// when many replay threads consume the batches faster than one thread
    /// splits them.
    pub fn set_split_threads(&mut self, threads: usize) {
        self.split_threads = threads.max(1);
    }

    /// CPU nanoseconds spent so far by the threads that split parts of
    /// windows (see [`Self::set_split_threads`]), beside the calling
    /// thread's own.
    pub fn split_helpers_cpu_ns(&self) -> u64 {
        self.split_helpers_ns
    }

    /// Where reading has got to: the start of the first game not yet
    /// delivered.
    pub fn position(&self) -> Position {
        self.pos
    }

    fn make_batch(&mut self, bytes: Block, base: u64, games: Vec<GameSpan>) -> Batch {
        // Damage found as the window was filled covers text of this batch
        // at the earliest: it is known before the games there are cut.
        let log = self.text.damage_log();
        if log.len() != self.damage_seen {
            let damage = log.since(0);
            self.damage_seen = damage.len();
            self.damage = Some(damage.into());
        }
        let b = Batch {
            bytes,
            base_offset: base,
            index: self.batches,
            first_game: self.games,
            games,
            input_read: self.text.input_read(),
            note: None,
            record: false,
            damage: self.damage.clone(),
        };
        self.batches += 1;
        self.games += b.games.len() as u64;
        b
    }

    fn next_batch(&mut self) -> Option<Result<Batch, SourceError>> {
        let dbcs = self.text.encoding().is_dbcs();
        let threads = self.split_threads;
        let mut want = self.batch_bytes;
        loop {
            let (window, reach) = self.text.window(want);
            let is_final = reach == WindowEnd::Final;
            let window_len = window.len();
            let mut games = Vec::new();
            let (next, ns) = split(window, self.pos, is_final, dbcs, &mut games, threads);
            self.split_helpers_ns += ns;
            let consumed = usize::try_from(next.offset - self.pos.offset)
                .unwrap_or(0)
                .min(window_len);
            if !games.is_empty() {
                let base = self.pos.offset;
                let bytes = self.text.take(consumed);
                self.pos = next;
                self.done = is_final;
                return Some(Ok(self.make_batch(bytes, base, games)));
            }
            if is_final {
                self.pos = next;
                self.done = true;
                return None;
            }
            if reach == WindowEnd::Broken {
                // Nothing more will come: the rest is one game at most.
                self.done = true;
                let offset = self.pos.offset + window_len as u64;
                // Trail bytes of a double-byte encoding can look like `{`:
                // such a text is not read undecoded.
                let whole = (!dbcs).then(|| whole_games(window, self.pos)).flatten();
                let path = self.text.path().to_path_buf();
                let what = self.text.text_word();
                let source = self.text.take_error();
                let Some((whole, next)) = whole else {
                    return Some(Err(SourceError::Truncated {
                        path,
                        what,
                        offset,
                        line: self.pos.line,
                        source,
                    }));
                };
                self.pending = Some(SourceError::StoppedAfterGame {
                    path,
                    what,
                    offset,
                    source,
                });
                let base = self.pos.offset;
                let bytes = self.text.take(window_len);
                self.pos = next;
                return Some(Ok(self.make_batch(bytes, base, whole)));
            }
            self.text.skip(consumed);
            self.pos = next;
            if consumed == 0 {
                want = want.max(window_len).saturating_mul(2);
            }
        }
    }
}

impl Iterator for Batches {
    type Item = Result<Batch, SourceError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.pending.take() {
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        self.next_batch()
    }
}

/// The games of `rest`, the text after the last game delivered when
/// the text broke off, and the position after them, if the last of them
/// is whole by its own account ([`GameText::ends_with_result`]).
fn whole_games(rest: &[u8], pos: Position) -> Option<(Vec<GameSpan>, Position)> {
    let mut games = Vec::new();
    let next = split_window(rest, pos, true, false, &mut games);
    let last = games.last()?;
    let bytes = last.slice(rest, pos.offset)?;
    GameText::new(bytes, last.line)
        .ends_with_result()
        .then_some((games, next))
}

/// [`split_window`], on `threads` threads when the window is large; also
/// the CPU nanoseconds of the threads it started.
fn split(
    window: &[u8],
    pos: Position,
    is_final: bool,
    dbcs: bool,
    games: &mut Vec<GameSpan>,
    threads: usize,
) -> (Position, u64) {
    if threads > 1 && window.len() >= PARALLEL_SPLIT_MIN {
        split_window_parallel(window, pos, is_final, dbcs, games, threads)
    } else {
        (split_window(window, pos, is_final, dbcs, games), 0)
    }
}
