//! The virtual-memory API at its edges, held to ROCr: `runtime.cpp`'s
//! `VMemoryAddressFree` (`RESOURCE_FREE` while a mapping is left),
//! `VMemoryHandleMap` (the driver exports no more than the handle holds:
//! `OUT_OF_RESOURCES`), `amd_memory_region.cpp`'s `AllocateImpl` (a handle
//! up to the pool's `ALLOC_MAX_SIZE`, `INVALID_ALLOCATION` past it),
//! `VMemoryHandleRelease` (a handle released while mapped stays until its
//! last mapping goes), `hsa_ext_amd.cpp`'s `IS_TRUE(VirtualMemApiSupported())`
//! (`INVALID_ARGUMENT` on a node without the API), and ROCr's CPU mapping:
//! the host may touch a mapping once a CPU agent, not a GPU, has access.
//! Placement in the window (docs/SIMULATOR.md: freed addresses are not
//! handed out again while the window has room; then they are) runs in a
//! child process, alone on its node, as do the calls that take a pool's
//! whole capacity.

use std::ffi::c_void;

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;

use super::{
    GRANULE, MEMORY_TYPE_NONE, RO, RW, access, handle, host_permissions, hsa_amd_vmem_address_free,
    hsa_amd_vmem_address_reserve_align, hsa_amd_vmem_get_alloc_properties_from_handle,
    hsa_amd_vmem_handle_create, hsa_amd_vmem_handle_release, hsa_amd_vmem_map,
    hsa_amd_vmem_retain_alloc_handle, hsa_amd_vmem_unmap, hsa_init, hsa_shut_down, reserve,
    set_access,
};
use crate::aql::{ok, pools};
use crate::queues::agents;
use crate::signals::setup;

unsafe extern "C" {
    fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> hsa_status_t;
    fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
}

/// `HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED`, `HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE`.
const VIRTUAL_MEM_API_SUPPORTED: u32 = 0x205;
const ALLOC_MAX_SIZE: u32 = 16;
const PAGE: usize = 4096;
const GIB: usize = 1 << 30;
const EDGES_CHILD: &str = "AMDGPU_SIM_VMEM_EDGES_CHILD";

fn try_reserve(size: usize) -> Result<*mut u8, hsa_status_t> {
    let mut va = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    match unsafe { hsa_amd_vmem_address_reserve_align(&mut va, size, 0, 0, 0) } {
        HSA_STATUS_SUCCESS => Ok(va.cast()),
        status => Err(status),
    }
}

fn try_handle(
    pool: hsa_amd_memory_pool_t,
    size: usize,
) -> Result<hsa_amd_vmem_alloc_handle_t, hsa_status_t> {
    let mut h = hsa_amd_vmem_alloc_handle_t::default();
    // SAFETY: a valid out-pointer.
    match unsafe { hsa_amd_vmem_handle_create(pool, size, MEMORY_TYPE_NONE, 0, &mut h) } {
        HSA_STATUS_SUCCESS => Ok(h),
        status => Err(status),
    }
}

fn map(va: *mut u8, size: usize, h: hsa_amd_vmem_alloc_handle_t) -> hsa_status_t {
    // SAFETY: plain C call; the address is only looked up.
    unsafe { hsa_amd_vmem_map(va.cast(), size, 0, h, 0) }
}

fn unmap(va: *mut u8, size: usize) {
    // SAFETY: plain C call.
    ok(unsafe { hsa_amd_vmem_unmap(va.cast(), size) });
}

fn release(h: hsa_amd_vmem_alloc_handle_t) {
    // SAFETY: plain C call.
    ok(unsafe { hsa_amd_vmem_handle_release(h) });
}

fn free(va: *mut u8, size: usize) -> hsa_status_t {
    // SAFETY: plain C call.
    unsafe { hsa_amd_vmem_address_free(va.cast(), size) }
}

#[test]
fn a_gpu_s_access_leaves_the_host_out() {
    setup();
    let (cpu, gpu) = agents();
    let fine = pools(gpu)[1];
    let va = reserve(GRANULE, GRANULE as u64);
    let h = handle(fine, GRANULE);
    ok(map(va, GRANULE, h));
    ok(set_access(va, GRANULE, &[access(gpu, RW)]));
    assert_eq!(&host_permissions(va)[..3], "---", "only a GPU has access");
    ok(set_access(va, GRANULE, &[access(cpu, RO)]));
    assert_eq!(host_permissions(va), "r--s", "the CPU reads");
    unmap(va, GRANULE);
    release(h);
    ok(free(va, GRANULE));
}

/// Runs `child_at_the_edges` on `machine`.
fn run_child(machine: &str) {
    let output = crate::child::command("vmem::edges::child_at_the_edges")
        .env(EDGES_CHILD, "1")
        .env("AMDGPU_SIM_MACHINE", machine)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, machine);
}

#[test]
fn misuse_placement_and_limits_as_rocr() {
    // mi300x-8 has the API (ROCm 6.3); mixed-isa (Debian's ROCr 5.2.3)
    // has not.
    for machine in ["mi300x-8", "mixed-isa"] {
        run_child(machine);
    }
}

#[test]
#[ignore = "a child of misuse_placement_and_limits_as_rocr"]
fn child_at_the_edges() {
    if std::env::var_os(EDGES_CHILD).is_none() {
        return;
    }
    // SAFETY: plain C calls.
    ok(unsafe { hsa_init() });
    let (_, gpu) = agents();
    let coarse = pools(gpu)[0];
    let mut supported = true;
    // SAFETY: the attribute is a bool.
    ok(unsafe { hsa_system_get_info(VIRTUAL_MEM_API_SUPPORTED, (&raw mut supported).cast()) });
    if supported {
        mapped_memory_edges(coarse);
        placement();
    } else {
        assert_eq!(try_reserve(GIB), Err(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        assert_eq!(
            try_handle(coarse, PAGE),
            Err(HSA_STATUS_ERROR_INVALID_ARGUMENT)
        );
    }
    // SAFETY: plain C call.
    ok(unsafe { hsa_shut_down() });
}

fn mapped_memory_edges(pool: hsa_amd_memory_pool_t) {
    let va = try_reserve(2 * PAGE).unwrap();
    let one = try_handle(pool, PAGE).unwrap();
    let two = try_handle(pool, 2 * PAGE).unwrap();
    // More than the handle holds; a prefix of a larger one maps.
    assert_eq!(map(va, 2 * PAGE, one), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    ok(map(va, PAGE, two));
    // A reservation with a mapping left is not freed.
    assert_eq!(free(va, 2 * PAGE), HSA_STATUS_ERROR_RESOURCE_FREE);
    release(one);
    // A handle whose last reference is dropped while it is mapped stays
    // (ROCr frees it with its last mapping): found by its mapping, with
    // its properties.
    release(two);
    let (mut pool_of, mut kind) = (hsa_amd_memory_pool_t::default(), 9u32);
    // SAFETY: valid out-pointers.
    ok(unsafe { hsa_amd_vmem_get_alloc_properties_from_handle(two, &mut pool_of, &mut kind) });
    assert_eq!((pool_of, kind), (pool, MEMORY_TYPE_NONE));
    let mut retained = hsa_amd_vmem_alloc_handle_t::default();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hsa_amd_vmem_retain_alloc_handle(&mut retained, va.cast()) });
    assert_eq!(retained, two);
    release(retained);
    unmap(va, PAGE);
    // SAFETY: valid out-pointers.
    let gone =
        unsafe { hsa_amd_vmem_get_alloc_properties_from_handle(two, &mut pool_of, &mut kind) };
    assert_eq!(gone, HSA_STATUS_ERROR_INVALID_ALLOCATION);
    ok(free(va, 2 * PAGE));

    // A handle as large as the pool allows, and not a page more.
    let mut max = 0usize;
    // SAFETY: the attribute is a size_t.
    ok(unsafe { hsa_amd_memory_pool_get_info(pool, ALLOC_MAX_SIZE, (&raw mut max).cast()) });
    assert_eq!(max % PAGE, 0);
    assert_eq!(
        try_handle(pool, max + PAGE),
        Err(HSA_STATUS_ERROR_INVALID_ALLOCATION)
    );
    release(try_handle(pool, max).expect("a handle of ALLOC_MAX_SIZE"));
}

/// Reservations of 1 GiB until the window is full: a freed one's
/// addresses come back only once nothing else is left, and no two
/// reservations overlap.
fn placement() {
    let first = try_reserve(GIB).unwrap();
    let freed = try_reserve(GIB).unwrap();
    ok(free(freed, GIB));
    let mut taken = vec![first];
    loop {
        assert!(taken.len() <= 1024, "the window has no end");
        match try_reserve(GIB) {
            Ok(va) => taken.push(va),
            Err(status) => {
                assert_eq!(status, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
                break;
            }
        }
    }
    assert_eq!(
        taken.iter().position(|&va| va == freed),
        Some(taken.len() - 1),
        "the freed addresses are handed out last"
    );
    let mut sorted: Vec<usize> = taken.iter().map(|&va| va as usize).collect();
    sorted.sort_unstable();
    assert!(sorted.windows(2).all(|w| w[0] + GIB <= w[1]), "overlap");
    for va in taken {
        ok(free(va, GIB));
    }
}
