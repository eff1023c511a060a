//! The host clock behind the node's timestamps: `CLOCK_BOOTTIME` in
//! nanoseconds, ROCr's system timestamp (`os::ReadSystemClock`, 1 GHz), and
//! the GPU clock counter derived from it (`amdgpu_sim::clock`: 100 MHz, in
//! step). Reading it is a call into the C library, hence here.

use std::ffi::c_int;

/// `CLOCK_BOOTTIME` (Linux's `<linux/time.h>`): monotonic, counting
/// suspend, the clock ROCr and the KFD use for the system timestamp.
const CLOCK_BOOTTIME: c_int = 7;

/// `struct timespec` on 64-bit Linux.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: c_int, time: *mut Timespec) -> c_int;
}

/// The system timestamp: nanoseconds of `CLOCK_BOOTTIME` (0 if the clock
/// cannot be read, which Linux never refuses for this clock).
pub(crate) fn system_timestamp() -> u64 {
    let mut time = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `struct timespec` for the call's
    // duration; the clock id is one Linux defines.
    if unsafe { clock_gettime(CLOCK_BOOTTIME, &mut time) } != 0 {
        return 0;
    }
    let seconds = u64::try_from(time.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(time.tv_nsec).unwrap_or(0);
    seconds.saturating_mul(1_000_000_000).saturating_add(nanos)
}

/// The GPU clock counter now (every GPU's counter reads the same: one
/// reference clock).
pub(crate) fn gpu_clock() -> u64 {
    amdgpu_sim::clock::gpu_clock_at(system_timestamp())
}
