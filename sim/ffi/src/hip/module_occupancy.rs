//! The occupancy queries of a `hipFunction_t` (`hipModuleOccupancy*`, what
//! ROCm libraries that load their own code objects ask): the same formula
//! as the host-stub queries of `super::launch` (`super::occupancy`), on the
//! module function's code object and device. `WithFlags` takes
//! `hipOccupancyDefault` or `hipOccupancyDisableCachingOverride`, as clr
//! does; the override changes nothing here.

use std::ffi::{c_int, c_uint};

use amdgpu_sim::HipCode;

use super::occupancy::{blocks_per_cu, potential_block_size};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, handle, modelled, of_handle, put};
use crate::core::runtime::Runtime;

/// `hipOccupancyDefault`, `hipOccupancyDisableCachingOverride`.
const OCCUPANCY_FLAGS: [c_uint; 2] = [0, 1];

fn clamp(value: u64) -> c_int {
    c_int::try_from(value).unwrap_or(c_int::MAX)
}

/// Blocks of `block_size` resident at once on one compute unit (0 for a
/// block larger than the device takes).
///
/// # Safety
/// `num_blocks` is NULL or points at a writable `int`.
unsafe fn active_blocks(
    rt: &Runtime,
    num_blocks: *mut c_int,
    f: handle,
    block_size: c_int,
    dynamic_shared: usize,
) -> Call {
    let block = u64::try_from(block_size).ok().filter(|&b| b > 0);
    let (Some(block), false) = (block, num_blocks.is_null()) else {
        return Err(HipCode::INVALID_VALUE);
    };
    let facts = rt.sim.hip_function_facts(of_handle(f))?;
    let device_max = u64::try_from(facts.device.max_threads_per_block).unwrap_or(0);
    let blocks = if block > device_max {
        0
    } else {
        blocks_per_cu(&facts, block, dynamic_shared as u64)
    };
    // SAFETY: the caller's promise.
    unsafe { put(num_blocks, clamp(blocks)) }
}

/// The block size with the most resident threads per compute unit, and the
/// blocks that fill the device at it.
///
/// # Safety
/// `grid_size` and `block_size` are NULL or point at writable `int`s.
unsafe fn potential(
    rt: &Runtime,
    grid_size: *mut c_int,
    block_size: *mut c_int,
    f: handle,
    dynamic_shared: usize,
    limit: c_int,
) -> Call {
    if grid_size.is_null() || block_size.is_null() {
        return Err(HipCode::INVALID_VALUE);
    }
    let facts = rt.sim.hip_function_facts(of_handle(f))?;
    let limit = u64::try_from(limit).unwrap_or(0);
    let (grid, block) = potential_block_size(&facts, dynamic_shared as u64, limit);
    // SAFETY: the caller's promise.
    unsafe { put(grid_size, clamp(grid)) }?;
    // SAFETY: the caller's promise.
    unsafe { put(block_size, clamp(block)) }
}

fn check_flags(flags: c_uint) -> Call {
    OCCUPANCY_FLAGS
        .contains(&flags)
        .then_some(())
        .ok_or(HipCode::INVALID_VALUE)
}

c_exports! {
    /// `hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocks, f, blockSize, dynSharedMemPerBlk)`.
    ///
    /// # Safety
    /// `num_blocks` is NULL or points at a writable `int`.
    unsafe fn hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks: *mut c_int, f: handle,
        block_size: c_int, dyn_shared_mem_per_blk: usize) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", || {
                // SAFETY: the caller's contract (above).
                unsafe { active_blocks(rt, num_blocks, f, block_size, dyn_shared_mem_per_blk) }
            })
        })
    }

    /// `hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags`.
    ///
    /// # Safety
    /// `num_blocks` is NULL or points at a writable `int`.
    unsafe fn hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks: *mut c_int,
        f: handle, block_size: c_int, dyn_shared_mem_per_blk: usize, flags: c_uint) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", || {
                check_flags(flags)?;
                // SAFETY: the caller's contract (above).
                unsafe { active_blocks(rt, num_blocks, f, block_size, dyn_shared_mem_per_blk) }
            })
        })
    }

    /// `hipModuleOccupancyMaxPotentialBlockSize(&gridSize, &blockSize, f, dynSharedMemPerBlk, blockSizeLimit)`.
    ///
    /// # Safety
    /// `grid_size` and `block_size` are NULL or point at writable `int`s.
    unsafe fn hipModuleOccupancyMaxPotentialBlockSize(grid_size: *mut c_int, block_size: *mut c_int,
        f: handle, dyn_shared_mem_per_blk: usize, block_size_limit: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipModuleOccupancyMaxPotentialBlockSize", || {
                // SAFETY: the caller's contract (above).
                unsafe { potential(rt, grid_size, block_size, f, dyn_shared_mem_per_blk, block_size_limit) }
            })
        })
    }

    /// `hipModuleOccupancyMaxPotentialBlockSizeWithFlags`.
    ///
    /// # Safety
    /// `grid_size` and `block_size` are NULL or point at writable `int`s.
    unsafe fn hipModuleOccupancyMaxPotentialBlockSizeWithFlags(grid_size: *mut c_int,
        block_size: *mut c_int, f: handle, dyn_shared_mem_per_blk: usize, block_size_limit: c_int,
        flags: c_uint) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            rt.sim.hip_external("hipModuleOccupancyMaxPotentialBlockSizeWithFlags", || {
                check_flags(flags)?;
                // SAFETY: the caller's contract (above).
                unsafe { potential(rt, grid_size, block_size, f, dyn_shared_mem_per_blk, block_size_limit) }
            })
        })
    }
}
