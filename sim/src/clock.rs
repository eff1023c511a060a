//! The GPU clock counter, one definition for every part of the node that
//! reads it: the PM4 `COPY_DATA`/`RELEASE_MEM` timestamps and the profiled
//! dispatch times of the C library's packet processor, and the
//! `gpu_clock_counter` of the `/dev/kfd` stand-in's
//! `AMDKFD_IOC_GET_CLOCK_COUNTERS` — so a client that correlates GPU
//! ticks with host time through the KFD, as IREE's profiling does, reads
//! its timestamps in exactly the domain it correlated.
//!
//! The counter counts since boot on the host's raw monotonic clock
//! (`CLOCK_MONOTONIC_RAW`, what the KFD's `cpu_clock_counter` reads), at
//! the node's `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`: the node reports no
//! GPU clock rate of its own (`HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY` is
//! not answered; ROCr would answer libdrm's `gpu_counter_freq`), so the only
//! rate a client can learn is the one it runs at. Every GPU reads the same
//! counter.

/// Nanoseconds per second.
const NANOS_PER_SECOND: u128 = 1_000_000_000;

/// The GPU clock counter at `raw_ns` nanoseconds of the host's raw
/// monotonic clock, for a counter of `frequency_hz` ticks per second.
pub fn gpu_clock_at(raw_ns: u64, frequency_hz: u64) -> u64 {
    let ticks = u128::from(raw_ns) * u128::from(frequency_hz) / NANOS_PER_SECOND;
    u64::try_from(ticks).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_at_the_frequency() {
        assert_eq!(gpu_clock_at(0, 1_000_000_000), 0);
        assert_eq!(gpu_clock_at(1_234, 1_000_000_000), 1_234);
        assert_eq!(gpu_clock_at(1_000_000_000, 100_000_000), 100_000_000);
        assert_eq!(gpu_clock_at(19, 100_000_000), 1);
        assert_eq!(gpu_clock_at(u64::MAX, 1_000_000_000), u64::MAX);
        assert_eq!(gpu_clock_at(u64::MAX, 100_000_000), u64::MAX / 10);
    }
}
