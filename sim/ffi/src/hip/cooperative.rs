//! `hipModuleLaunchCooperativeKernel`: a launch whose work-groups must all
//! be resident at once (grid-wide synchronization needs it). Triton's HIP
//! launcher uses it for kernels compiled with `launch_cooperative_grid`.
//!
//! A grid of more work-groups than the device holds at once — the blocks
//! `super::occupancy`'s formula puts on one compute unit, times the compute
//! units, as clr's hip_module.cpp bounds it — is
//! `hipErrorCooperativeLaunchTooLarge`; otherwise the launch is
//! `hipModuleLaunchKernel`'s (checked, recorded, run in stream order, and
//! counted under that name). The simulator runs work-groups one after
//! another, so a grid barrier between them would not be modelled; the bound
//! keeps launches to those real hardware can run.

use std::ffi::c_void;

use super::module::hipModuleLaunchKernel;
use super::occupancy::blocks_per_cu;
use super::stream::stream_device;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{finish, handle, of_handle};
use crate::core::runtime::runtime;

c_exports! {
    /// `hipModuleLaunchCooperativeKernel`: `hipModuleLaunchKernel`'s
    /// arguments.
    ///
    /// # Safety
    /// `kernel_params` is NULL or holds a pointer to each explicit argument's value; `extra` is NULL or a `HIP_LAUNCH_PARAM_*` list ending in `HIP_LAUNCH_PARAM_END`.
    unsafe fn hipModuleLaunchCooperativeKernel(f: handle, grid_dim_x: u32, grid_dim_y: u32, grid_dim_z: u32,
        block_dim_x: u32, block_dim_y: u32, block_dim_z: u32, shared_mem_bytes: u32,
        stream: handle, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) -> hipError_t {
        let Some(rt) = runtime() else {
            return finish(hipErrorInvalidDevice);
        };
        let block = u64::from(block_dim_x) * u64::from(block_dim_y) * u64::from(block_dim_z);
        let groups = u64::from(grid_dim_x) * u64::from(grid_dim_y) * u64::from(grid_dim_z);
        let limit = stream_device(rt, stream)
            .and_then(|_| rt.sim.hip_function_facts(of_handle(f)))
            .map(|facts| {
                let units = u64::try_from(facts.device.multi_processor_count).unwrap_or(0);
                blocks_per_cu(&facts, block.max(1), u64::from(shared_mem_bytes)).saturating_mul(units)
            });
        match limit {
            Err(code) => return finish(code.0),
            Ok(limit) if block > 0 && groups > limit => {
                return finish(hipErrorCooperativeLaunchTooLarge);
            }
            Ok(_) => {}
        }
        // SAFETY: the caller's contract (above), the same as this one's.
        unsafe {
            hipModuleLaunchKernel(f, grid_dim_x, grid_dim_y, grid_dim_z, block_dim_x, block_dim_y,
                block_dim_z, shared_mem_bytes, stream, kernel_params, extra)
        }
    }
}
