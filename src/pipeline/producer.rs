//! The producer thread of one input: opens it, then reads and splits it
//! into batches ahead of the workers, through a bounded channel.

use std::collections::VecDeque;
use std::sync::mpsc::SyncSender;

use super::Cancel;
use super::stages::ProducerCpu;
use crate::cpu_time::thread_cpu_ns;
use crate::pgn::{Batch, Batches};
use crate::records::{RecordFileRead, read_record_file, report_text};
use crate::source::{
    Compression, Encoding, Input, NewDamage, Opened, ReadOptions, RecordFile, Refusal, RefusalKind,
    SourceError,
};

/// What the producer thread sends, in this order: whether the input
/// opened, then its batches, then possibly the error that cut it short.
pub(super) enum Produced {
    Opened {
        encoding: Encoding,
        compression: Compression,
        /// Whether its `\r\r\n` line ends are read as `\r\n`.
        doubled_line_ends: bool,
        /// Why it is not read at all (not PGN, a format not read), if so.
        refused: Option<(RefusalKind, String)>,
    },
    OpenFailed(SourceError),
    Batch(Batch),
    /// The input's compressed data decodes to no text at all: a warning on
    /// its entry.
    NoText(String),
    /// A stretch of the text that the compressed data does not vouch for:
    /// the input is not complete, and its games there are damaged.
    Damaged(String),
    Truncated(SourceError),
}

/// Starts the thread that opens `input` and reads it ahead, splitting
/// windows on `split_threads` threads, decoding a multi-frame `.zst` on
/// `decode_threads` and a `.bz2` file on `bzip2_threads`; it returns its own CPU time and that of its split
/// helpers and decoders.
pub(super) fn spawn(
    input: Input,
    (split_threads, decode_threads, bzip2_threads): (usize, usize, usize),
    cancel: Cancel,
    tx: SyncSender<Produced>,
) -> std::io::Result<std::thread::JoinHandle<ProducerCpu>> {
    std::thread::Builder::new()
        .name("pgnmill-read".into())
        .spawn(move || {
            let start = thread_cpu_ns();
            let opts = ReadOptions {
                decode_threads,
                bzip2_threads,
                ..ReadOptions::default()
            };
            let text = match input.open(&opts) {
                Ok(Opened::Text(text)) => text,
                Ok(Opened::Records(file)) => {
                    send_records(&file, &cancel, &tx);
                    return ProducerCpu {
                        own: thread_cpu_ns().saturating_sub(start),
                        ..ProducerCpu::default()
                    };
                }
                Ok(Opened::Refused(refusal)) => {
                    send_refusal(refusal, &cancel, &tx);
                    return ProducerCpu {
                        own: thread_cpu_ns().saturating_sub(start),
                        ..ProducerCpu::default()
                    };
                }
                Err(e) => {
                    let _ = tx.send(Produced::OpenFailed(e));
                    return ProducerCpu::default();
                }
            };
            let opened = Produced::Opened {
                encoding: text.encoding(),
                compression: text.compression(),
                doubled_line_ends: text.doubled_line_ends(),
                refused: None,
            };
            let compressed = text.compression().is_stream();
            let mut batches = Batches::new(text, &opts);
            batches.set_split_threads(split_threads);
            let mut queue = VecDeque::from([opened]);
            // The damage not said yet: found when the input was opened, or
            // by its decoder as the batches are read.
            let mut damage = NewDamage::of(batches.text().damage_log());
            let mut broke = false;
            loop {
                if queue.is_empty() {
                    let next = batches.next();
                    // Before the batch: a break (`Truncated`) is the
                    // input's last message.
                    queue.extend(damage.take().into_iter().map(|d| Produced::Damaged(d.why)));
                    match next {
                        Some(Ok(batch)) => queue.push_back(Produced::Batch(batch)),
                        Some(Err(e)) => {
                            broke = true;
                            queue.push_back(Produced::Truncated(e));
                        }
                        None => {}
                    }
                }
                let Some(message) = queue.pop_front() else {
                    break;
                };
                // A receiver that is gone means the run stopped.
                if cancel.requested() || tx.send(message).is_err() {
                    return producer_cpu(start, &batches);
                }
            }
            let text = batches.text();
            if compressed && !broke && batches.position().offset == 0 && text.damage().is_empty() {
                let _ = tx.send(Produced::NoText(text.no_text_warning()));
            }
            producer_cpu(start, &batches)
        })
}

/// The CPU time of a producer that started at `start`, of its split
/// helpers and of its decoder.
fn producer_cpu(start: u64, batches: &Batches) -> ProducerCpu {
    let text = batches.text();
    ProducerCpu {
        own: thread_cpu_ns().saturating_sub(start),
        split_helpers: batches.split_helpers_cpu_ns(),
        decoder: text.decoder_cpu_ns(),
        decoder_wall: text.decoder_cpu_ns() / text.decoder_threads().max(1) as u64,
    }
}

/// An input that is not read: it opened, with no games, and why; the
/// damage its compressed data's check found is said as well.
fn send_refusal(refusal: Refusal, cancel: &Cancel, tx: &SyncSender<Produced>) {
    let opened = Produced::Opened {
        encoding: Encoding::Utf8,
        compression: refusal.compression(),
        doubled_line_ends: false,
        refused: Some((refusal.kind, refusal.why.clone())),
    };
    let damage = refusal
        .damage()
        .iter()
        .map(|d| Produced::Damaged(d.why.clone()));
    for message in std::iter::once(opened).chain(damage) {
        if cancel.requested() || tx.send(message).is_err() {
            return;
        }
    }
}

/// A record file: its games, each written as the PGN text the replay
/// reads ([`report_text`]), one batch a game, whose offset and line are the
/// record's own. A file that cannot be read at all is `unsupported`, with
/// the reason.
fn send_records(file: &RecordFile, cancel: &Cancel, tx: &SyncSender<Produced>) {
    let (format, bytes) = (file.format(), file.bytes());
    // A damaged file of the format (cut short before its first game, or
    // inside a library's last record) is an input not read whole, not an
    // unsupported one.
    let (games, refused, damage) =
        match read_record_file(&file.path().display().to_string(), format, bytes) {
            RecordFileRead::Games { games, warning } => (games, None, warning),
            RecordFileRead::Unsupported(why) => {
                (Vec::new(), Some((RefusalKind::Unsupported, why)), None)
            }
            RecordFileRead::Damaged(warning) => (Vec::new(), None, Some(warning)),
        };
    let opened = Produced::Opened {
        encoding: Encoding::Utf8,
        compression: file.compression(),
        doubled_line_ends: false,
        refused,
    };
    if tx.send(opened).is_err() {
        return;
    }
    let input_read = bytes.len() as u64;
    for (i, game) in games.into_iter().enumerate() {
        if cancel.requested() {
            return;
        }
        let i = i as u64;
        let batch = Batch::of_record(
            report_text(&game),
            game.offset,
            game.line,
            i,
            i,
            input_read,
            game.problem,
        );
        if tx.send(Produced::Batch(batch)).is_err() {
            return;
        }
    }
    if let Some(damage) = damage {
        let _ = tx.send(Produced::Damaged(damage));
    }
}
