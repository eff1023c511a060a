//! The node's clocks. The system timestamp is ROCr's: nanoseconds of the
//! host's `CLOCK_BOOTTIME` (`os::ReadSystemClock` answers
//! `HSA_SYSTEM_INFO_TIMESTAMP` with it, at the 1 GHz of
//! `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`; the KFD's clock counters call the
//! same clock `system_clock_counter`). Each GPU's clock counter — what a
//! PM4 `COPY_DATA` or `RELEASE_MEM` of the GPU clock writes, and the
//! KFD's `gpu_clock_counter` — runs at [`GPU_CLOCK_FREQUENCY_HZ`] in step
//! with it, so a GPU tick converts to system time by the ratio of the two
//! frequencies and nothing else.

use crate::hsa_info::SYSTEM;

/// The GPU clock counter's rate: amdgpu reports the gfx9, gfx10 and gfx11
/// reference clock as 100 MHz (`gpu_counter_freq` of libdrm's
/// `amdgpu_gpu_info`, 100000 kHz), which ROCr answers as
/// `HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY`.
pub const GPU_CLOCK_FREQUENCY_HZ: u64 = 100_000_000;

/// The GPU clock counter at system timestamp `system` (in
/// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY` ticks).
pub fn gpu_clock_at(system: u64) -> u64 {
    let ticks = u128::from(system) * u128::from(GPU_CLOCK_FREQUENCY_HZ)
        / u128::from(SYSTEM.timestamp_frequency);
    u64::try_from(ticks).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_tick_is_ten_system_ticks() {
        // 1 GHz against 100 MHz.
        assert_eq!(gpu_clock_at(0), 0);
        assert_eq!(gpu_clock_at(1_000_000_000), 100_000_000);
        assert_eq!(gpu_clock_at(19), 1);
        assert_eq!(gpu_clock_at(u64::MAX), u64::MAX / 10);
    }
}
