//! The host clocks `kfd_ioctl_get_clock_counters` samples:
//! `ktime_get_raw_ns()` and `ktime_get_boottime_ns()`, read here as
//! `CLOCK_MONOTONIC_RAW` and `CLOCK_BOOTTIME` (the same kernel clocks, seen
//! from user space through the vDSO: no `open`, so no way back into the
//! interposer).

use crate::ioctl::HostClocks;

/// Nanoseconds per second.
const NANOS_PER_SECOND: u64 = 1_000_000_000;

/// One clock's reading in nanoseconds; `Err(errno)` if the clock cannot be
/// read (never, for these two clocks on Linux 2.6.39 and later).
fn read(clock: libc::clockid_t) -> Result<u64, i32> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `struct timespec`.
    let status = unsafe { libc::clock_gettime(clock, &mut now) };
    if status != 0 {
        return Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EINVAL));
    }
    let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(now.tv_nsec).unwrap_or(0);
    Ok(seconds
        .saturating_mul(NANOS_PER_SECOND)
        .saturating_add(nanos))
}

/// Both clocks, raw monotonic first (the KFD's order).
pub fn sample() -> Result<HostClocks, i32> {
    let raw_ns = read(libc::CLOCK_MONOTONIC_RAW)?;
    let boottime_ns = read(libc::CLOCK_BOOTTIME)?;
    Ok(HostClocks {
        raw_ns,
        boottime_ns,
    })
}
