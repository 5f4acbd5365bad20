//! On-CPU time of each stage of the report pipeline, to state its serial
//! fraction honestly (docs/performance.md, "The units"). The producer (read, decompress, split) and
//! the writer are one thread each and run alongside the replay workers, so
//! each of them bounds the speed-up on its own (the split helpers, when
//! there are any, are parallel work like replay): with `n` cores the run
//! cannot take less wall time than the longest of the producer's CPU time,
//! the writer's, and the whole CPU time divided by `n`.
//!
//! Times come from [`crate::cpu_time::thread_cpu_ns`] (nanoseconds the thread
//! spent on a CPU), which other processes on a loaded machine do not
//! disturb, unlike wall time.

/// CPU seconds spent by each stage of one `report` run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageTimes {
    /// The producer thread: opening, reading or mapping, decompressing,
    /// sniffing and splitting into game spans (of each window, the first
    /// part and the checks of the cuts when the split runs on several
    /// threads): the serial stage.
    pub producer_cpu_s: f64,
    /// The threads that decode a compressed input (zstd, gzip): one thread
    /// per input (several for a many-frame `.zst`), overlapped with the
    /// producer; 0 for plain input.
    pub decoder_cpu_s: f64,
    /// The decoders' CPU time divided among the threads they ran on: the
    /// part of it no more cores can shorten.
    pub decoder_serial_cpu_s: f64,
    /// The threads that split the other parts of each window (0 when the
    /// split runs on one thread, as it does up to 3 replay threads).
    pub split_helpers_cpu_s: f64,
    /// The main thread: opening inputs and output files, dispatching chunks,
    /// writing rows in order, the summary, renaming files into place.
    pub writer_cpu_s: f64,
    /// The replay workers together: replaying and formatting rows (and any
    /// time rayon's threads spin while waiting for work).
    pub replay_cpu_s: f64,
    /// Threads each window was split on.
    pub split_threads: usize,
    /// Wall-clock seconds of the whole run.
    pub wall_s: f64,
    /// Decompressed bytes of PGN read.
    pub bytes: u64,
    /// Games reported.
    pub games: u64,
}

impl StageTimes {
    /// CPU seconds of all stages together: what one core would need.
    pub fn total_cpu_s(&self) -> f64 {
        self.producer_cpu_s
            + self.decoder_cpu_s
            + self.split_helpers_cpu_s
            + self.writer_cpu_s
            + self.replay_cpu_s
    }

    /// The share of the CPU time that runs on one thread whatever the
    /// number of cores: the largest of the producer thread, the decoder
    /// (divided among its threads when there are several) and the writer
    /// (each is one thread; they overlap with each other and with replay).
    pub fn serial_fraction(&self) -> f64 {
        let total = self.total_cpu_s();
        if total > 0.0 {
            self.longest_serial_s() / total
        } else {
            0.0
        }
    }

    /// CPU seconds of the longest one-thread stage.
    fn longest_serial_s(&self) -> f64 {
        self.producer_cpu_s
            .max(self.decoder_serial_cpu_s)
            .max(self.writer_cpu_s)
    }

    /// The best speed-up over one core that `cores` cores can give: the
    /// wall time is at least the total CPU time over `cores`, and at least
    /// the CPU time of each one-thread stage.
    pub fn speedup_cap(&self, cores: f64) -> f64 {
        let total = self.total_cpu_s();
        let floor = (total / cores.max(1.0)).max(self.longest_serial_s());
        if floor > 0.0 { total / floor } else { cores }
    }
}

/// CPU nanoseconds of the threads that read one input, added up over the
/// inputs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ProducerCpu {
    pub own: u64,
    pub split_helpers: u64,
    pub decoder: u64,
    /// The decoders' CPU time over the threads they ran on: at best the
    /// time they take.
    pub decoder_wall: u64,
}

/// Seconds between two [`thread_cpu_ns`] readings.
pub(crate) fn seconds(from_ns: u64, to_ns: u64) -> f64 {
    to_ns.saturating_sub(from_ns) as f64 / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_is_bounded_by_cores_and_by_each_serial_stage() {
        let t = StageTimes {
            producer_cpu_s: 1.0,
            writer_cpu_s: 0.5,
            replay_cpu_s: 18.5,
            ..StageTimes::default()
        };
        // 20 s of CPU: 2 cores give 2x; 16 cores would need 1.25 s of wall
        // time, but the producer alone takes 1 s, so 20x is out of reach
        // and 16 cores give 16x only if 20/16 >= 1.
        assert!((t.speedup_cap(2.0) - 2.0).abs() < 1e-9);
        assert!((t.speedup_cap(16.0) - 16.0).abs() < 1e-9);
        assert!((t.speedup_cap(64.0) - 20.0).abs() < 1e-9);
        assert!((t.serial_fraction() - 0.05).abs() < 1e-9);
        // A many-frame .zst decoded on 4 threads: 4 s of decoding CPU
        // take 1 s at best, which the producer's 1 s already bounds.
        let t = StageTimes {
            decoder_cpu_s: 4.0,
            decoder_serial_cpu_s: 1.0,
            replay_cpu_s: 14.5,
            ..t
        };
        assert!((t.speedup_cap(64.0) - 20.0).abs() < 1e-9);
        // On one decoder thread the same 4 s would cap it at 5x.
        let one = StageTimes {
            decoder_serial_cpu_s: 4.0,
            ..t
        };
        assert!((one.speedup_cap(64.0) - 5.0).abs() < 1e-9);
    }
}
