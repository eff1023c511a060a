//! The virtual-memory exports (`hsa_amd_vmem_*`, `hsa_ext_amd.h`) over the
//! node's model (`amdgpu_sim::vmem`): reservations are `PROT_NONE` ranges
//! of the process, physical handles memfds, and a mapping is the handle's
//! memfd mapped at the reserved address (`mapped_store`), so a handle
//! mapped at several addresses shows the same bytes at each, to the host
//! and to kernels alike. Every call is a counted HSA call
//! (`AMDGPU_SIM_FAULTS`); live reservations, handles and mappings are in
//! the report. Output pointers are checked before the node is asked (ROCr
//! checks most and dereferences the rest).

use std::ffi::{c_int, c_void};

use amdgpu_sys::hsa_types::{hsa_amd_memory_access_desc_t, hsa_amd_vmem_alloc_handle_t};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{INVALID, on_runtime, put};
use crate::core::ptr;

/// Most access descriptors one `hsa_amd_vmem_set_access` call may name.
pub const MAX_ACCESS_DESCS: usize = 1 << 12;

/// `hsa_amd_vmem_address_reserve` and `_align`.
///
/// # Safety
/// `va` is NULL or points at a writable `void*`.
unsafe fn reserve(
    op: &'static str,
    va: *mut *mut c_void,
    size: usize,
    address: u64,
    alignment: u64,
    flags: u64,
) -> hsa_status_t {
    on_runtime(|rt| {
        if va.is_null() {
            return Err(INVALID);
        }
        let size = u64::try_from(size).map_err(|_| INVALID)?;
        let base = rt
            .sim
            .vmem_address_reserve(op, size, address, alignment, flags)?;
        // SAFETY: the caller's contract (non-NULL).
        unsafe { put(va.cast(), base as usize) }
    })
}

c_exports! {
    /// `hsa_amd_vmem_address_reserve`: `size` bytes of addresses (page
    /// multiples), at `address` when it is free.
    ///
    /// # Safety
    /// `va` is NULL or points at a writable `void*`.
    unsafe fn hsa_amd_vmem_address_reserve(
        va: *mut *mut c_void,
        size: usize,
        address: u64,
        flags: u64,
    ) -> hsa_status_t {
        // SAFETY: the caller's contract, passed on.
        unsafe { reserve("hsa_amd_vmem_address_reserve", va, size, address, 0, flags) }
    }

    /// `hsa_amd_vmem_address_reserve_align` (`alignment` 0: a page).
    ///
    /// # Safety
    /// `va` is NULL or points at a writable `void*`.
    unsafe fn hsa_amd_vmem_address_reserve_align(
        va: *mut *mut c_void,
        size: usize,
        address: u64,
        alignment: u64,
        flags: u64,
    ) -> hsa_status_t {
        // SAFETY: the caller's contract, passed on.
        unsafe {
            reserve("hsa_amd_vmem_address_reserve_align", va, size, address, alignment, flags)
        }
    }

    /// `hsa_amd_vmem_address_free` of a whole reservation with no mapping left.
    fn hsa_amd_vmem_address_free(va: *mut c_void, size: usize) -> hsa_status_t {
        on_runtime(|rt| rt.sim.vmem_address_free(va as u64, size as u64))
    }

    /// `hsa_amd_vmem_handle_create`: physical memory of `pool`.
    ///
    /// # Safety
    /// `memory_handle` is NULL or writable.
    unsafe fn hsa_amd_vmem_handle_create(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        memory_type: u32,
        flags: u64,
        memory_handle: *mut hsa_amd_vmem_alloc_handle_t,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if memory_handle.is_null() {
                return Err(INVALID);
            }
            let handle = rt
                .sim
                .vmem_handle_create(pool.handle, size as u64, memory_type, flags)?;
            // SAFETY: the caller's contract (non-NULL).
            unsafe { put(memory_handle.cast(), hsa_amd_vmem_alloc_handle_t { handle }) }
        })
    }

    /// `hsa_amd_vmem_handle_release`.
    fn hsa_amd_vmem_handle_release(memory_handle: hsa_amd_vmem_alloc_handle_t) -> hsa_status_t {
        on_runtime(|rt| rt.sim.vmem_handle_release(memory_handle.handle))
    }

    /// `hsa_amd_vmem_map`: the handle's memory at `va` in a reservation.
    fn hsa_amd_vmem_map(
        va: *mut c_void,
        size: usize,
        in_offset: usize,
        memory_handle: hsa_amd_vmem_alloc_handle_t,
        flags: u64,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            rt.sim
                .vmem_map(va as u64, size as u64, in_offset as u64, memory_handle.handle, flags)
        })
    }

    /// `hsa_amd_vmem_unmap` of the mapping at `va`.
    fn hsa_amd_vmem_unmap(va: *mut c_void, size: usize) -> hsa_status_t {
        on_runtime(|rt| rt.sim.vmem_unmap(va as u64, size as u64))
    }

    /// `hsa_amd_vmem_set_access`.
    ///
    /// # Safety
    /// `desc` is NULL or points at `desc_cnt` descriptors.
    unsafe fn hsa_amd_vmem_set_access(
        va: *mut c_void,
        size: usize,
        desc: *const hsa_amd_memory_access_desc_t,
        desc_cnt: usize,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if desc.is_null() || desc_cnt > MAX_ACCESS_DESCS {
                return Err(INVALID);
            }
            // SAFETY: the caller's contract (above).
            let descs = unsafe { ptr::read_array(desc, desc_cnt) }.ok_or(INVALID)?;
            let access: Vec<(u64, u32)> = descs
                .iter()
                .map(|d| (d.agent_handle.handle, d.permissions))
                .collect();
            rt.sim.vmem_set_access(va as u64, size as u64, &access)
        })
    }

    /// `hsa_amd_vmem_get_access` for a GPU agent.
    ///
    /// # Safety
    /// `perms` is NULL or writable.
    unsafe fn hsa_amd_vmem_get_access(
        va: *mut c_void,
        perms: *mut u32,
        agent_handle: hsa_agent_t,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if perms.is_null() {
                return Err(INVALID);
            }
            let permission = rt.sim.vmem_get_access(va as u64, agent_handle.handle)?;
            // SAFETY: the caller's contract (non-NULL).
            unsafe { put(perms.cast(), permission) }
        })
    }

    /// `hsa_amd_vmem_export_shareable_handle`: dma-bufs are not modelled.
    ///
    /// # Safety
    /// `dmabuf_fd` is NULL or writable.
    unsafe fn hsa_amd_vmem_export_shareable_handle(
        dmabuf_fd: *mut c_int,
        handle: hsa_amd_vmem_alloc_handle_t,
        flags: u64,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if dmabuf_fd.is_null() {
                return Err(INVALID);
            }
            // SAFETY: the caller's contract (non-NULL); ROCr sets -1 first.
            unsafe { put(dmabuf_fd.cast(), -1 as c_int) }?;
            rt.sim.vmem_export_shareable_handle(handle.handle, flags)
        })
    }

    /// `hsa_amd_vmem_import_shareable_handle`: dma-bufs are not modelled.
    ///
    /// # Safety
    /// `handle` is NULL or writable.
    unsafe fn hsa_amd_vmem_import_shareable_handle(
        dmabuf_fd: c_int,
        handle: *mut hsa_amd_vmem_alloc_handle_t,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if handle.is_null() {
                return Err(INVALID);
            }
            rt.sim.vmem_import_shareable_handle(dmabuf_fd).map(drop)
        })
    }

    /// `hsa_amd_vmem_retain_alloc_handle`: the handle mapped at `addr`, one
    /// more reference to release.
    ///
    /// # Safety
    /// `memory_handle` is NULL or writable.
    unsafe fn hsa_amd_vmem_retain_alloc_handle(
        memory_handle: *mut hsa_amd_vmem_alloc_handle_t,
        addr: *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if memory_handle.is_null() {
                return Err(INVALID);
            }
            let handle = rt.sim.vmem_retain_alloc_handle(addr as u64)?;
            // SAFETY: the caller's contract (non-NULL).
            unsafe { put(memory_handle.cast(), hsa_amd_vmem_alloc_handle_t { handle }) }
        })
    }

    /// `hsa_amd_vmem_get_alloc_properties_from_handle`.
    ///
    /// # Safety
    /// `pool` and `memory_type` are NULL or writable.
    unsafe fn hsa_amd_vmem_get_alloc_properties_from_handle(
        memory_handle: hsa_amd_vmem_alloc_handle_t,
        pool: *mut hsa_amd_memory_pool_t,
        memory_type: *mut u32,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if pool.is_null() || memory_type.is_null() {
                return Err(INVALID);
            }
            let (handle, kind) = rt.sim.vmem_alloc_properties(memory_handle.handle)?;
            // SAFETY: the caller's contract (non-NULL).
            unsafe {
                put(pool.cast(), hsa_amd_memory_pool_t { handle })?;
                put(memory_type.cast(), kind)
            }
        })
    }
}
