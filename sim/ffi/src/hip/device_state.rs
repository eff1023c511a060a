//! A device's state as a whole: how much of its memory is free
//! (`hipMemGetInfo`) and putting it back as it started (`hipDeviceReset`).

use amdgpu_sim::HipCode;

use super::context::current_device;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, call, modelled, put};

c_exports! {
    /// `hipMemGetInfo(&free, &total)` of the current device: its global
    /// memory pool's capacity and what live allocations leave of it.
    ///
    /// # Safety
    /// `free` and `total` are NULL or point at writable `size_t`s.
    unsafe fn hipMemGetInfo(free: *mut usize, total: *mut usize) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if free.is_null() || total.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let (left, capacity) = rt.sim.hip_mem_get_info(current_device(&rt.sim))?;
            let size = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
            // SAFETY: the caller's contract (above).
            unsafe { put(free, size(left)) }?;
            // SAFETY: the caller's contract (above).
            unsafe { put(total, size(capacity)) }
        })
    }

    /// `hipDeviceReset`: the current device's streams finish their work
    /// and are destroyed, its allocations freed and its memory pools
    /// destroyed, as ROCm's `Device::Reset` does (hipamd/src/hip_context.cpp).
    /// Modules, events and host memory stay.
    fn hipDeviceReset() -> hipError_t {
        call("hipDeviceReset", |rt| -> Call {
            let ordinal = current_device(&rt.sim);
            let streams = rt.streams().device_streams(ordinal);
            for stream in streams {
                // Out of the table first, so no new work reaches it; its
                // queued work runs before the memory it uses is freed.
                let removed = rt.streams().remove_stream(stream.handle);
                if let Ok(s) = removed {
                    s.stop();
                }
            }
            rt.sim.hip_device_reset(ordinal)
        })
    }
}
