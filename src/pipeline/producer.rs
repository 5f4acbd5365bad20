//! The producer thread of one input: opens it, then reads and splits it
//! into batches ahead of the workers, through a bounded channel.

use std::sync::mpsc::SyncSender;

use super::Cancel;
use super::stages::ProducerCpu;
use crate::cpu_time::thread_cpu_ns;
use crate::pgn::{Batch, Batches};
use crate::source::{Compression, Encoding, Input, ReadOptions, SourceError};

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
