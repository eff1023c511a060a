//! The GPU clock counter as the packet processor reads it (PM4
//! timestamps, profiled dispatches): `amdgpu_sim::clock`'s definition,
//! shared with the `/dev/kfd` stand-in's `gpu_clock_counter`, over the
//! host's `CLOCK_MONOTONIC_RAW`. Reading the clock is a call into the C
//! library, hence here.

use std::ffi::c_int;

/// `CLOCK_MONOTONIC_RAW` (Linux's `<linux/time.h>`): the unslewed clock
/// the KFD's `cpu_clock_counter` reads.
const CLOCK_MONOTONIC_RAW: c_int = 4;

/// `struct timespec` on 64-bit Linux.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: c_int, time: *mut Timespec) -> c_int;
}

/// Nanoseconds of `CLOCK_MONOTONIC_RAW` (0 if the clock cannot be read,
/// which Linux never refuses for this clock).
fn raw_monotonic_ns() -> u64 {
    let mut time = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `struct timespec` for the call's
    // duration; the clock id is one Linux defines.
    if unsafe { clock_gettime(CLOCK_MONOTONIC_RAW, &mut time) } != 0 {
        return 0;
    }
    let seconds = u64::try_from(time.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(time.tv_nsec).unwrap_or(0);
    seconds.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// The GPU clock counter now, for a counter of `frequency_hz` (the
/// queue's agent's, [`amdgpu_sim::QueueAgent::gpu_clock_hz`]).
pub(crate) fn gpu_clock(frequency_hz: u64) -> u64 {
    amdgpu_sim::clock::gpu_clock_at(raw_monotonic_ns(), frequency_hz)
}
