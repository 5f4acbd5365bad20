//! On-CPU time of the calling thread, to measure the stages of a run
//! (docs/performance.md) in a way other processes on a loaded machine do not disturb,
//! unlike wall time.

/// Nanoseconds the calling thread has spent on a CPU, from
/// `/proc/thread-self/schedstat` (Linux); 0 where that cannot be read,
/// which turns stage times into zeros rather than failing a run.
pub fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calling_threads_cpu_time_grows() {
        let a = thread_cpu_ns();
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let b = thread_cpu_ns();
        if cfg!(target_os = "linux") {
            assert!(b > a, "{a} -> {b} ({x})");
        }
    }
}
