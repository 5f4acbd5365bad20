//! The producer thread of one input: opens it, then reads and splits it
//! into batches ahead of the workers, through a bounded channel.

use std::sync::mpsc::SyncSender;

use super::Cancel;
use super::stages::ProducerCpu;
use crate::cpu_time::thread_cpu_ns;
use crate::pgn::{Batch, Batches};
use crate::records::{read_records, report_text};
use crate::source::{Compression, Encoding, Input, ReadOptions, RecordFormat, Source, SourceError};

/// What the producer thread sends, in this order: whether the input
/// opened, then its batches, then possibly the error that cut it short.
pub(super) enum Produced {
    Opened {
        encoding: Encoding,
        compression: Compression,
        /// Why it is not read as PGN (a binary file), if so.
        unsupported: Option<String>,
    },
    OpenFailed(SourceError),
    Batch(Batch),
    Truncated(SourceError),
}

/// Starts the thread that opens `input` and reads it ahead, splitting
/// windows on `split_threads` threads; it returns its own CPU time and
/// that of its split helpers and decoder.
pub(super) fn spawn(
    input: Input,
    split_threads: usize,
    cancel: Cancel,
    tx: SyncSender<Produced>,
) -> std::io::Result<std::thread::JoinHandle<ProducerCpu>> {
    std::thread::Builder::new()
        .name("pgnmill-read".into())
        .spawn(move || {
            let start = thread_cpu_ns();
            let opts = ReadOptions::default();
            let source = match input.open(&opts) {
                Ok(source) => source,
                Err(e) => {
                    let _ = tx.send(Produced::OpenFailed(e));
                    return ProducerCpu::default();
                }
            };
            if let Some((format, bytes)) = source.record() {
                send_records(format, bytes, &source, &cancel, &tx);
                return ProducerCpu {
                    own: thread_cpu_ns().saturating_sub(start),
                    ..ProducerCpu::default()
                };
            }
            let opened = Produced::Opened {
                encoding: source.encoding(),
                compression: source.compression(),
                unsupported: source.unsupported().map(str::to_string),
            };
            let mut batches = Batches::new(source, &opts);
            batches.set_split_threads(split_threads);
            let mut item = Some(opened);
            while let Some(message) = item {
                // A receiver that is gone means the run stopped.
                if cancel.requested() || tx.send(message).is_err() {
                    break;
                }
                item = batches.next().map(|r| match r {
                    Ok(batch) => Produced::Batch(batch),
                    Err(e) => Produced::Truncated(e),
                });
            }
            ProducerCpu {
                own: thread_cpu_ns().saturating_sub(start),
                split_helpers: batches.split_helpers_cpu_ns(),
                decoder: batches.source().decoder_cpu_ns(),
            }
        })
}

/// A record file: its games, each written as the PGN text the replay
/// reads ([`report_text`]), one batch a game, whose offset and line are the
/// record's own. A file that cannot be read at all is `unsupported`, with
/// the reason.
fn send_records(
    format: RecordFormat,
    bytes: &[u8],
    source: &Source,
    cancel: &Cancel,
    tx: &SyncSender<Produced>,
) {
    let read = read_records(format, bytes);
    let unsupported = read
        .as_ref()
        .err()
        .map(|why| format!("{} file not read: {why}", format.name()));
    let opened = Produced::Opened {
        encoding: Encoding::Utf8,
        compression: source.compression(),
        unsupported,
    };
    if tx.send(opened).is_err() {
        return;
    }
    let input_read = bytes.len() as u64;
    for (i, game) in read.unwrap_or_default().into_iter().enumerate() {
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
}
