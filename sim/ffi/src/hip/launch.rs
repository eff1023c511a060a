//! Launches by host function, the `<<<…>>>` path: the call configuration
//! a launch pushes and its host stub pops (this thread's stack, kept in
//! `context`), `hipLaunchKernel` and `hipExtLaunchKernel` (the kernel
//! registered for the stub, on the stream's device, then
//! `hipModuleLaunchKernel`'s checks, kernargs and refusals), and the
//! queries by host function: `hipFuncGetAttributes` and the occupancy
//! calls (`occupancy`).

use std::ffi::{c_int, c_void};

use amdgpu_sim::HipCode;
use amdgpu_sim::hip_module::LaunchRequest;
use amdgpu_sim::hip_registered::FunctionFacts;

use super::context::{
    CallConfiguration, current_device, pop_call_configuration, push_call_configuration,
};
use super::module::{kernargs, submit};
use super::occupancy::{blocks_per_cu, potential_block_size};
use super::registration::kernel_function;
use super::stream::{enqueue, stream_device};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, handle, modelled, of_handle, put};
use crate::core::runtime::Runtime;
use crate::core::streams::Op;

/// `hipFuncAttributes` (`hip_runtime_api.h`, the same in HIP 5 and 6).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
#[allow(non_snake_case)]
pub struct hipFuncAttributes {
    /// The device's `major * 10 + minor`.
    pub binaryVersion: c_int,
    /// 0: no cache modes.
    pub cacheModeCA: c_int,
    /// 0: constants live in global memory.
    pub constSizeBytes: usize,
    /// The private segment (scratch) bytes per work-item.
    pub localSizeBytes: usize,
    /// The LDS the device leaves beside the static LDS.
    pub maxDynamicSharedSizeBytes: c_int,
    /// The kernel's `.max_flat_workgroup_size`.
    pub maxThreadsPerBlock: c_int,
    /// The kernel's `.vgpr_count`.
    pub numRegs: c_int,
    /// -1: no preference (ROCm has no carveout).
    pub preferredShmemCarveout: c_int,
    /// As `binaryVersion`.
    pub ptxVersion: c_int,
    /// The kernel's `.group_segment_fixed_size` (static LDS).
    pub sharedSizeBytes: usize,
}
const _: () = assert!(size_of::<hipFuncAttributes>() == 56);

fn clamp(value: u64) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MAX)
}

/// The attributes a function's code object and device give it.
fn attributes(facts: &FunctionFacts) -> hipFuncAttributes {
    let version = facts.device.major * 10 + facts.device.minor;
    let group = u64::from(facts.kernel.group_segment_fixed_size);
    hipFuncAttributes {
        binaryVersion: version,
        cacheModeCA: 0,
        constSizeBytes: 0,
        localSizeBytes: facts.private_segment_size as usize,
        maxDynamicSharedSizeBytes: clamp(facts.lds_limit.saturating_sub(group)),
        maxThreadsPerBlock: clamp(u64::from(facts.kernel.max_flat_workgroup_size)),
        numRegs: clamp(u64::from(facts.kernel.vgpr_count)),
        preferredShmemCarveout: -1,
        ptxVersion: version,
        sharedSizeBytes: group as usize,
    }
}

/// The facts of the kernel registered for `host_function`, on the
/// current device.
fn facts_of(rt: &Runtime, host_function: *const c_void) -> Result<FunctionFacts, HipCode> {
    let function = kernel_function(rt, host_function as usize, current_device(&rt.sim))?;
    rt.sim.hip_function_facts(function)
}

/// Records `event` on `stream`, as `hipExtLaunchKernel` records its
/// start and stop events around the kernel (NULL: none).
fn record(rt: &Runtime, event: handle, stream: handle) -> Call {
    if event.is_null() {
        return Ok(());
    }
    let event = rt.streams().event(of_handle(event))?;
    let generation = event.begin_record(stream_device(rt, stream)?);
    // SAFETY: the op holds no host memory.
    unsafe { enqueue(rt, stream, Op::Record(event, generation)) }
}

/// `hipLaunchKernel`'s body: the kernel registered for `host_function`
/// on `stream`'s device, its kernargs from `args`, checked, recorded and
/// put on the stream.
///
/// # Safety
/// `args` holds a pointer to each explicit argument's value.
unsafe fn launch(
    rt: &Runtime,
    host_function: *const c_void,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: handle,
) -> Call {
    let ordinal = stream_device(rt, stream)?;
    let function = kernel_function(rt, host_function as usize, ordinal)?;
    // SAFETY: the caller's promise for `args`.
    let kernargs = unsafe { kernargs(rt, function, args, std::ptr::null_mut()) }?;
    let request = LaunchRequest {
        function,
        ordinal,
        grid: [grid.x, grid.y, grid.z],
        block: [block.x, block.y, block.z],
        shared_bytes: u32::try_from(shared).map_err(|_| HipCode::INVALID_VALUE)?,
    };
    let launched = rt.sim.hip_record_launch(&request, kernargs);
    submit(rt, stream, ordinal, launched)
}

c_exports! {
    /// `__hipPushCallConfiguration`: a `<<<grid, block, shared, stream>>>`
    /// launch's configuration, for its host stub to pop.
    fn __hipPushCallConfiguration(grid: dim3, block: dim3, shared: usize, stream: handle) -> hipError_t {
        let pushed = push_call_configuration(CallConfiguration {
            grid: [grid.x, grid.y, grid.z],
            block: [block.x, block.y, block.z],
            shared,
            stream: stream as usize,
        });
        crate::core::hip_call::finish(if pushed { hipSuccess } else { hipErrorInvalidConfiguration })
    }

    /// `__hipPopCallConfiguration`: the configuration last pushed on this
    /// thread (`hipErrorInvalidConfiguration` when none is).
    ///
    /// # Safety
    /// Each pointer is NULL or writable storage of its type.
    unsafe fn __hipPopCallConfiguration(grid: *mut dim3, block: *mut dim3, shared: *mut usize,
        stream: *mut handle) -> hipError_t {
        let popped = pop_call_configuration().ok_or(HipCode::INVALID_CONFIGURATION).and_then(|c| {
            let [gx, gy, gz] = c.grid;
            let [bx, by, bz] = c.block;
            // SAFETY: the caller's contract (above).
            unsafe {
                put(grid, dim3 { x: gx, y: gy, z: gz })?;
                put(block, dim3 { x: bx, y: by, z: bz })?;
                put(shared, c.shared)?;
                put(stream, c.stream as handle)
            }
        });
        crate::core::hip_call::finish(popped.err().map_or(hipSuccess, |code| code.0))
    }

    /// `hipLaunchKernel`: the kernel registered for the host stub
    /// `function_address` on `stream`'s device (loaded there at its first
    /// use), checked and recorded now, run in stream order.
    ///
    /// # Safety
    /// `args` holds a pointer to each explicit argument's value.
    unsafe fn hipLaunchKernel(function_address: *const c_void, num_blocks: dim3, dim_blocks: dim3,
        args: *mut *mut c_void, shared_mem_bytes: usize, stream: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipLaunchKernel", || {
                // SAFETY: the caller's contract (above).
                unsafe { launch(rt, function_address, num_blocks, dim_blocks, args, shared_mem_bytes, stream) }
            })
        })
    }

    /// `hipExtLaunchKernel` (`hip_ext.h`): `hipLaunchKernel` between the
    /// records of `start_event` and `stop_event` (each may be NULL);
    /// `flags` are ROCm's scheduling hints and change nothing here.
    ///
    /// # Safety
    /// `args` holds a pointer to each explicit argument's value.
    unsafe fn hipExtLaunchKernel(function_address: *const c_void, num_blocks: dim3, dim_blocks: dim3,
        args: *mut *mut c_void, shared_mem_bytes: usize, stream: handle, start_event: handle,
        stop_event: handle, flags: c_int) -> hipError_t {
        let _ = flags;
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipExtLaunchKernel", || {
                record(rt, start_event, stream)?;
                // SAFETY: the caller's contract (above).
                unsafe { launch(rt, function_address, num_blocks, dim_blocks, args, shared_mem_bytes, stream) }?;
                record(rt, stop_event, stream)
            })
        })
    }

    /// `hipFuncGetAttributes`: the registered kernel's attributes on the
    /// current device, from its code object's metadata and descriptor.
    ///
    /// # Safety
    /// `attr` is NULL or points at a writable `hipFuncAttributes`.
    unsafe fn hipFuncGetAttributes(attr: *mut hipFuncAttributes, function: *const c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipFuncGetAttributes", || {
                if attr.is_null() {
                    return Err(HipCode::INVALID_VALUE);
                }
                let facts = facts_of(rt, function)?;
                // SAFETY: the caller's contract (above).
                unsafe { put(attr, attributes(&facts)) }
            })
        })
    }

    /// `hipOccupancyMaxActiveBlocksPerMultiprocessor`: blocks of
    /// `block_size` resident at once on one compute unit (`occupancy`'s
    /// formula).
    ///
    /// # Safety
    /// `num_blocks` is NULL or points at a writable `int`.
    unsafe fn hipOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks: *mut c_int,
        function: *const c_void, block_size: c_int, dyn_shared_mem_per_blk: usize) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipOccupancyMaxActiveBlocksPerMultiprocessor", || {
                let block = u64::try_from(block_size).ok().filter(|&b| b > 0);
                let (Some(block), false) = (block, num_blocks.is_null()) else {
                    return Err(HipCode::INVALID_VALUE);
                };
                let facts = facts_of(rt, function)?;
                let device_max = u64::try_from(facts.device.max_threads_per_block).unwrap_or(0);
                let blocks = if block > device_max {
                    0
                } else {
                    blocks_per_cu(&facts, block, dyn_shared_mem_per_blk as u64)
                };
                // SAFETY: the caller's contract (above).
                unsafe { put(num_blocks, clamp(blocks)) }
            })
        })
    }

    /// `hipOccupancyMaxPotentialBlockSize`: the block size with the most
    /// resident threads per compute unit, and the blocks that fill the
    /// device at it (`occupancy`'s formula).
    ///
    /// # Safety
    /// `grid_size` and `block_size` are NULL or point at writable `int`s.
    unsafe fn hipOccupancyMaxPotentialBlockSize(grid_size: *mut c_int, block_size: *mut c_int,
        function: *const c_void, dyn_shared_mem_per_blk: usize, block_size_limit: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipOccupancyMaxPotentialBlockSize", || {
                if grid_size.is_null() || block_size.is_null() {
                    return Err(HipCode::INVALID_VALUE);
                }
                let facts = facts_of(rt, function)?;
                let limit = u64::try_from(block_size_limit).unwrap_or(0);
                let (grid, block) = potential_block_size(&facts, dyn_shared_mem_per_blk as u64, limit);
                // SAFETY: the caller's contract (above).
                unsafe {
                    put(grid_size, clamp(grid))?;
                    put(block_size, clamp(block))
                }
            })
        })
    }
}
