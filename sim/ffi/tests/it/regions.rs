//! HSA regions through the C symbols, on w7900: ROCr's regions are its
//! memory pools (the same handles), listed per agent as ROCr does (a GPU's
//! own pools, then every CPU's fine-grained pools, then every CPU's other
//! pools; a CPU agent the last two alone), and `hsa_region_get_info`
//! answering from the pool. Expected values: `hsa.h`'s and
//! `hsa_ext_amd.h`'s enumerators, and the preset's pools
//! (`fixtures/machines/w7900.toml`).

use std::ffi::c_void;

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::{hsa_agent_t, hsa_amd_memory_pool_t, hsa_region_t};

use crate::signals::setup;

unsafe extern "C" {
    fn hsa_iterate_agents(
        callback: Option<extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_agent_iterate_regions(
        agent: hsa_agent_t,
        callback: Option<extern "C" fn(hsa_region_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_region_get_info(
        region: hsa_region_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Option<extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
}

// hsa_region_info_t (hsa.h) and hsa_amd_region_info_t (hsa_ext_amd.h).
const SEGMENT: u32 = 0;
const GLOBAL_FLAGS: u32 = 1;
const SIZE: u32 = 2;
const ALLOC_MAX_SIZE: u32 = 4;
const RUNTIME_ALLOC_ALLOWED: u32 = 5;
const RUNTIME_ALLOC_GRANULE: u32 = 6;
const RUNTIME_ALLOC_ALIGNMENT: u32 = 7;
const ALLOC_MAX_PRIVATE_WORKGROUP_SIZE: u32 = 8;
const HOST_ACCESSIBLE: u32 = 0xA000;
const AMD_REGION_BASE: u32 = 0xA001;
// hsa_amd_memory_pool_info_t (hsa_ext_amd.h): ALLOC_MAX_SIZE is 16 there.
const POOL_ALLOC_MAX_SIZE: u32 = 16;
// hsa_region_segment_t and hsa_region_global_flag_t (hsa.h).
const SEGMENT_GLOBAL: u32 = 0;
const SEGMENT_GROUP: u32 = 3;
const FLAG_KERNARG: u32 = 1;
const FLAG_FINE_GRAINED: u32 = 2;
const FLAG_COARSE_GRAINED: u32 = 4;
const FLAG_EXTENDED_SCOPE_FINE_GRAINED: u32 = 8;

extern "C" fn push<T: Copy>(item: T, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the `Vec<T>` the caller passed.
    unsafe { (*data.cast::<Vec<T>>()).push(item) };
    HSA_STATUS_SUCCESS
}

fn agents() -> Vec<hsa_agent_t> {
    let mut out: Vec<hsa_agent_t> = Vec::new();
    // SAFETY: the callback pushes onto `out`, which outlives the call.
    let status = unsafe { hsa_iterate_agents(Some(push), (&raw mut out).cast()) };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    out
}

fn regions(agent: hsa_agent_t) -> Vec<u64> {
    let mut out: Vec<hsa_region_t> = Vec::new();
    // SAFETY: as in `agents`.
    let status = unsafe { hsa_agent_iterate_regions(agent, Some(push), (&raw mut out).cast()) };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    out.iter().map(|r| r.handle).collect()
}

fn pools(agent: hsa_agent_t) -> Vec<u64> {
    let mut out: Vec<hsa_amd_memory_pool_t> = Vec::new();
    // SAFETY: as in `agents`.
    let status =
        unsafe { hsa_amd_agent_iterate_memory_pools(agent, Some(push), (&raw mut out).cast()) };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    out.iter().map(|p| p.handle).collect()
}

/// One attribute as a `T`; panics unless the call succeeds.
fn info<T: Copy + Default>(region: u64, attribute: u32) -> T {
    let mut value = T::default();
    // SAFETY: `value` is the attribute's C type.
    let status = unsafe {
        hsa_region_get_info(
            hsa_region_t { handle: region },
            attribute,
            (&raw mut value).cast(),
        )
    };
    assert_eq!(
        status, HSA_STATUS_SUCCESS,
        "{region:#x} attribute {attribute:#x}"
    );
    value
}

fn pool_info<T: Copy + Default>(pool: u64, attribute: u32) -> T {
    let mut value = T::default();
    // SAFETY: `value` is the attribute's C type.
    let status = unsafe {
        hsa_amd_memory_pool_get_info(
            hsa_amd_memory_pool_t { handle: pool },
            attribute,
            (&raw mut value).cast(),
        )
    };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    value
}

#[test]
fn regions_are_the_pools_in_rocr_order() {
    setup();
    let agents = agents();
    let (cpu, gpu) = (agents[0], agents[1]);
    // w7900.toml: the CPU's pools are fine, extended-scope fine, kernarg
    // (kernarg + fine) and coarse; fine ones first, then the others.
    let p = pools(cpu);
    assert_eq!(p.len(), 4);
    let system = vec![p[0], p[2], p[1], p[3]];
    assert_eq!(regions(cpu), system);
    // The GPU: its own three pools, then the system regions.
    let mut expected = pools(gpu);
    assert_eq!(expected.len(), 3);
    expected.extend(&system);
    assert_eq!(regions(gpu), expected);
}

#[test]
fn region_info_is_the_pools() {
    setup();
    let agents = agents();
    let (cpu, gpu) = (agents[0], agents[1]);
    let p = pools(cpu);
    let flags = |r| info::<u32>(r, GLOBAL_FLAGS);
    assert_eq!(flags(p[0]), FLAG_FINE_GRAINED);
    assert_eq!(flags(p[1]), FLAG_EXTENDED_SCOPE_FINE_GRAINED);
    assert_eq!(flags(p[2]), FLAG_KERNARG | FLAG_FINE_GRAINED);
    assert_eq!(flags(p[3]), FLAG_COARSE_GRAINED);
    for &r in &p {
        assert_eq!(info::<u32>(r, SEGMENT), SEGMENT_GLOBAL);
        assert_eq!(info::<usize>(r, SIZE), 68_719_476_736);
        assert!(info::<bool>(r, RUNTIME_ALLOC_ALLOWED));
        assert!(info::<bool>(r, HOST_ACCESSIBLE), "system memory");
    }
    let g = pools(gpu);
    assert_eq!(info::<u32>(g[0], GLOBAL_FLAGS), FLAG_COARSE_GRAINED);
    assert_eq!(info::<usize>(g[0], SIZE), 48_301_604_864);
    assert!(!info::<bool>(g[0], HOST_ACCESSIBLE));
    // The group (LDS) pool: ROCr's group region has no global flags and
    // no runtime allocation.
    assert_eq!(info::<u32>(g[2], SEGMENT), SEGMENT_GROUP);
    assert_eq!(info::<u32>(g[2], GLOBAL_FLAGS), 0);
    assert_eq!(info::<usize>(g[2], SIZE), 65_536);
    assert!(!info::<bool>(g[2], RUNTIME_ALLOC_ALLOWED));
    // Every shared attribute equals the pool's own answer.
    for &r in p.iter().chain(&g) {
        for a in [SEGMENT, GLOBAL_FLAGS] {
            assert_eq!(info::<u32>(r, a), pool_info::<u32>(r, a));
        }
        assert_eq!(
            info::<bool>(r, RUNTIME_ALLOC_ALLOWED),
            pool_info::<bool>(r, RUNTIME_ALLOC_ALLOWED)
        );
        for a in [SIZE, RUNTIME_ALLOC_GRANULE, RUNTIME_ALLOC_ALIGNMENT] {
            assert_eq!(info::<usize>(r, a), pool_info::<usize>(r, a));
        }
        assert_eq!(
            info::<usize>(r, ALLOC_MAX_SIZE),
            pool_info::<usize>(r, POOL_ALLOC_MAX_SIZE)
        );
    }
}

/// IREE's `iree_hal_amdgpu_system_populate_host_regions`: the first
/// global, allocatable, fine-grained region of the host agent.
#[test]
fn iree_finds_the_hosts_fine_grained_region() {
    setup();
    let cpu = agents()[0];
    let fine = regions(cpu).into_iter().find(|&r| {
        info::<u32>(r, SEGMENT) == SEGMENT_GLOBAL
            && info::<bool>(r, RUNTIME_ALLOC_ALLOWED)
            && info::<u32>(r, GLOBAL_FLAGS) & FLAG_FINE_GRAINED != 0
    });
    assert_eq!(fine, Some(pools(cpu)[0]));
}

#[test]
fn refusals_are_rocrs() {
    setup();
    let cpu = agents()[0];
    let region = regions(cpu)[0];
    let mut value = [0u8; 16];
    let query = |region: u64, attribute: u32, value: *mut c_void| {
        // SAFETY: `value` is NULL or 16 writable bytes.
        unsafe { hsa_region_get_info(hsa_region_t { handle: region }, attribute, value) }
    };
    // ROCr answers neither (its GetInfo's default case).
    for attribute in [ALLOC_MAX_PRIVATE_WORKGROUP_SIZE, AMD_REGION_BASE, 0xFFFF] {
        assert_eq!(
            query(region, attribute, value.as_mut_ptr().cast()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "{attribute:#x}"
        );
    }
    assert_eq!(
        query(region, SEGMENT, std::ptr::null_mut()),
        HSA_STATUS_ERROR_INVALID_ARGUMENT
    );
    // hsa.h: HSA_STATUS_ERROR_INVALID_REGION for a region that is not one.
    assert_eq!(
        query(cpu.handle, SEGMENT, value.as_mut_ptr().cast()),
        HSA_STATUS_ERROR_INVALID_REGION
    );
    // SAFETY: a NULL callback is refused before any call.
    let status = unsafe { hsa_agent_iterate_regions(cpu, None, std::ptr::null_mut()) };
    assert_eq!(status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
    extern "C" fn stop(_: hsa_region_t, data: *mut c_void) -> hsa_status_t {
        // SAFETY: `data` is the caller's counter.
        unsafe { *data.cast::<u32>() += 1 };
        HSA_STATUS_INFO_BREAK
    }
    let mut calls = 0u32;
    // SAFETY: `stop` counts into `calls`, which outlives the call.
    let status = unsafe { hsa_agent_iterate_regions(cpu, Some(stop), (&raw mut calls).cast()) };
    assert_eq!((status, calls), (HSA_STATUS_INFO_BREAK, 1));
    let agent = hsa_agent_t { handle: region };
    // SAFETY: plain C call; the callback is never reached.
    let status = unsafe { hsa_agent_iterate_regions(agent, Some(stop), (&raw mut calls).cast()) };
    assert_eq!(status, HSA_STATUS_ERROR_INVALID_AGENT);
}
