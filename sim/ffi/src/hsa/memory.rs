//! HSA's memory exports: pool allocations (process memory at their
//! simulated addresses, `mapped_store`), `hsa_memory_copy`,
//! `hsa_amd_memory_fill`, `hsa_amd_agents_allow_access`,
//! `hsa_amd_pointer_info`, and locking host memory for agents
//! (`hsa_amd_memory_lock`, `_lock_to_pool`, `_unlock`), with ROCr's checks
//! and statuses (`hsa_ext_amd.cpp`, `core/runtime/runtime.cpp`).

use std::ffi::{c_int, c_void};

use amdgpu_isa::{Memory, OutOfBounds};
use amdgpu_sim::HsaCode;
use amdgpu_sim::hsa_memory::PointerInfo;
use amdgpu_sys::hsa_types::hsa_amd_pointer_info_t;
use amdgpu_sys::hsa_values::{
    GLOBAL_FLAG_COARSE_GRAINED, GLOBAL_FLAG_FINE_GRAINED, POINTER_TYPE_HSA, POINTER_TYPE_LOCKED,
    POINTER_TYPE_UNKNOWN,
};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::host_memory::KnownHostMemory;
use crate::core::hsa_call::{Call, INVALID, on_runtime, put};
use crate::core::ptr;
use crate::core::read_back::ReadBack;
use crate::core::runtime::Runtime;

/// The caller's host memory, which a copy's host side names: any address
/// is taken as the caller's, as the copy calls' contracts say (ROCr copies
/// host ranges with `memcpy`); only NULL is refused. What a copy writes
/// there is what the client reads back (`core::read_back`).
pub(crate) struct CallerMemory<'a>(pub(crate) &'a ReadBack);

impl Memory for CallerMemory<'_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if address == 0 {
            return Err(OutOfBounds);
        }
        // SAFETY: the copy's contract: a host side is `out.len()` readable
        // bytes of the caller's, live until the copy completes.
        let bytes = unsafe { ptr::read_bytes(address as *const c_void, out.len()) };
        out.copy_from_slice(&bytes.ok_or(OutOfBounds)?);
        Ok(())
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        // SAFETY: the copy's contract: a host side is `data.len()` writable
        // bytes of the caller's, live until the copy completes.
        let written = unsafe { ptr::write_bytes(address as *mut c_void, data) };
        if !written {
            return Err(OutOfBounds);
        }
        self.0.record(data);
        Ok(())
    }
}

/// `hsa_amd_pointer_info_t` of `info` (the C layout, all fields; the
/// caller writes as many bytes as the client has room for).
fn c_info(info: &PointerInfo) -> hsa_amd_pointer_info_t {
    hsa_amd_pointer_info_t {
        size: size_of::<hsa_amd_pointer_info_t>() as u32,
        type_: info.type_,
        agent_base_address: info.base,
        host_base_address: info.base,
        size_in_bytes: info.size,
        user_data: 0,
        agent_owner: hsa_agent_t { handle: info.owner },
        global_flags: info.global_flags,
        // ROCr's `PtrInfo` never sets it.
        registered: false,
    }
}

/// What pointer info says of host memory the runtimes know: a HIP host
/// allocation is an HSA allocation of the first CPU's fine-grained pool,
/// a registration or lock is locked memory; any other address is unknown.
fn host_info(rt: &Runtime, ptr: u64) -> Option<PointerInfo> {
    let cpu = rt.sim.agents_of_kind(true).first().copied().unwrap_or(0);
    let gpus = rt.sim.agents_of_kind(false);
    let every = |mut agents: Vec<u64>| {
        agents.insert(0, cpu);
        agents
    };
    let at = usize::try_from(ptr).ok()?;
    let memory = rt.host_memory();
    if let Some((base, size, _)) = memory.allocation_at(at) {
        return Some(PointerInfo {
            type_: POINTER_TYPE_HSA,
            base: base as u64,
            size: size as u64,
            owner: cpu,
            global_flags: GLOBAL_FLAG_FINE_GRAINED,
            accessible: every(gpus),
        });
    }
    if let Some((base, locked)) = memory.lock_at(at) {
        let agents = if locked.agents.is_empty() {
            gpus
        } else {
            locked.agents.clone()
        };
        return Some(PointerInfo {
            type_: POINTER_TYPE_LOCKED,
            base: base as u64,
            size: locked.size as u64,
            owner: cpu,
            global_flags: locked.global_flags,
            accessible: every(agents),
        });
    }
    let (base, size) = memory.registration_at(at)?;
    Some(PointerInfo {
        type_: POINTER_TYPE_LOCKED,
        base: base as u64,
        size: size as u64,
        owner: cpu,
        global_flags: GLOBAL_FLAG_COARSE_GRAINED,
        accessible: every(gpus),
    })
}

/// `hsa_amd_pointer_info`'s work: the answer, then the accessible agents
/// when every list argument is given.
///
/// # Safety
/// `info` points at a `hsa_amd_pointer_info_t` of `info->size` bytes;
/// `num` and `accessible` are NULL or writable.
unsafe fn pointer_info(
    rt: &Runtime,
    ptr: u64,
    info: *mut hsa_amd_pointer_info_t,
    alloc: Option<extern "C" fn(usize) -> *mut c_void>,
    num: *mut u32,
    accessible: *mut *mut hsa_agent_t,
) -> Call {
    if ptr == 0 || info.is_null() {
        return Err(INVALID);
    }
    // SAFETY: the caller's contract (non-NULL, checked above).
    let room = unsafe { ptr::read_array(info.cast::<u32>(), 1) }
        .and_then(|v| v.first().copied())
        .ok_or(INVALID)?;
    if room == 0 {
        return Err(INVALID);
    }
    let found = rt.sim.describe_pointer(ptr).or_else(|| host_info(rt, ptr));
    let mut answer = found
        .as_ref()
        .map(c_info)
        .unwrap_or(hsa_amd_pointer_info_t {
            type_: POINTER_TYPE_UNKNOWN,
            ..Default::default()
        });
    let size = (room as usize).min(size_of::<hsa_amd_pointer_info_t>());
    answer.size = size as u32;
    // SAFETY: `answer` is the C struct; the first `size` bytes are those
    // the caller has room for.
    let bytes =
        unsafe { std::slice::from_raw_parts(std::ptr::from_ref(&answer).cast::<u8>(), size) };
    // SAFETY: the caller's contract: `info` holds `room` >= `size` bytes.
    unsafe { ptr::write_bytes(info.cast(), bytes) };
    let (Some(alloc), false, false) = (alloc, num.is_null(), accessible.is_null()) else {
        return Ok(());
    };
    let agents: Vec<hsa_agent_t> = found
        .map(|f| f.accessible)
        .unwrap_or_default()
        .into_iter()
        .map(|handle| hsa_agent_t { handle })
        .collect();
    let list = alloc(size_of::<hsa_agent_t>() * agents.len());
    if list.is_null() {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    // SAFETY: `alloc` returned room for `agents.len()` agents; `num` and
    // `accessible` are writable (the caller's contract, non-NULL above).
    unsafe {
        for (i, agent) in agents.iter().enumerate() {
            ptr::write(list.cast::<hsa_agent_t>().add(i).cast(), *agent);
        }
        put(num.cast(), agents.len() as u32)?;
        put(accessible.cast(), list)
    }
}

/// The agents of a lock call (`INVALID_AGENT` for one that is none).
///
/// # Safety
/// `agents` is NULL or points at `count` agents.
unsafe fn lock_agents(
    rt: &Runtime,
    agents: *const hsa_agent_t,
    count: c_int,
) -> Result<Vec<u64>, HsaCode> {
    let count = usize::try_from(count).map_err(|_| INVALID)?;
    // SAFETY: the caller's contract.
    let agents = unsafe { ptr::read_array(agents, count) }.ok_or(INVALID)?;
    agents
        .iter()
        .map(|a| {
            rt.sim
                .is_agent(a.handle)
                .then_some(a.handle)
                .ok_or(HsaCode::INVALID_AGENT)
        })
        .collect()
}

/// `hsa_amd_memory_lock` and `_lock_to_pool`: the host range becomes
/// memory kernels may reach, at the same address (no other address is
/// ever handed out: the simulated GPUs share the host's).
///
/// # Safety
/// `agents` is NULL or points at `count` agents; `agent_ptr` is NULL or
/// writable.
unsafe fn lock(
    rt: &Runtime,
    host_ptr: *mut c_void,
    size: usize,
    agents: *const hsa_agent_t,
    count: c_int,
    pool: Option<(u64, u32)>,
    agent_ptr: *mut *mut c_void,
) -> Call {
    let flags = pool.map_or(0, |(_, flags)| flags);
    if size == 0 || host_ptr.is_null() || agent_ptr.is_null() || flags != 0 {
        return Err(INVALID);
    }
    // SAFETY: the caller's contract (non-NULL).
    unsafe { put(agent_ptr.cast(), std::ptr::null_mut::<c_void>()) }?;
    if agents.is_null() != (count == 0) || count < 0 {
        return Err(INVALID);
    }
    let global_flags = match pool {
        None => GLOBAL_FLAG_COARSE_GRAINED,
        Some((pool, _)) => match rt.sim.pool_facts(pool) {
            Some((_, true, flags)) => flags,
            _ => return Err(HsaCode::INVALID_MEMORY_POOL),
        },
    };
    // SAFETY: the caller's contract, passed on.
    let agents = unsafe { lock_agents(rt, agents, count) }?;
    rt.host_memory()
        .lock(host_ptr as usize, size, &agents, global_flags);
    // SAFETY: the caller's contract (non-NULL).
    unsafe { put(agent_ptr.cast(), host_ptr) }
}

c_exports! {
    /// `hsa_amd_memory_pool_allocate`: process memory at the simulated
    /// address (the pointer the client writes through and kernels read).
    ///
    /// # Safety
    /// `ptr` is NULL or points at a writable `void*`.
    unsafe fn hsa_amd_memory_pool_allocate(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if ptr.is_null() {
                return Err(INVALID);
            }
            let size = u64::try_from(size).map_err(|_| INVALID)?;
            let base = rt.sim.memory_pool_allocate(pool.handle, size, flags)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr.cast(), base as usize) }
        })
    }

    /// `hsa_amd_memory_pool_free`: the allocation's mapping goes too.
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| rt.sim.memory_pool_free(ptr as u64))
    }

    /// `hsa_memory_copy`: each side is simulated memory (wholly inside it)
    /// or the caller's host memory.
    ///
    /// # Safety
    /// A side that is not simulated memory is `size` bytes of the caller's
    /// host memory (readable `src`, writable `dst`).
    unsafe fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t {
        on_runtime(|rt| {
            if dst.is_null() || src.is_null() {
                return Err(INVALID);
            }
            let size = u64::try_from(size).map_err(|_| INVALID)?;
            rt.sim.memory_copy_with(dst as u64, src as u64, size, &mut CallerMemory(&rt.read_back))
        })
    }

    /// `hsa_amd_memory_fill`: `count` copies of `value` at `ptr`, in
    /// simulated memory or host memory the runtimes know.
    fn hsa_amd_memory_fill(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t {
        on_runtime(|rt| {
            let count = u64::try_from(count).map_err(|_| INVALID)?;
            rt.sim.memory_fill(ptr as u64, value, count, &mut KnownHostMemory(&rt.host_memory))
        })
    }

    /// `hsa_amd_agents_allow_access`.
    ///
    /// # Safety
    /// `agents` is NULL or points at `num_agents` agents.
    unsafe fn hsa_amd_agents_allow_access(
        num_agents: u32,
        agents: *const hsa_agent_t,
        flags: *const u32,
        ptr: *const c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            if num_agents == 0 || agents.is_null() || !flags.is_null() || ptr.is_null() {
                return Err(INVALID);
            }
            let count = usize::try_from(num_agents).map_err(|_| INVALID)?;
            // SAFETY: the caller's contract (above).
            let agents = unsafe { ptr::read_array(agents, count) }.ok_or(INVALID)?;
            let raw: Vec<u64> = agents.iter().map(|a| a.handle).collect();
            rt.sim.agents_allow_access(&raw, ptr as u64)
        })
    }

    /// `hsa_amd_pointer_info`: an allocation, loaded code, a reservation,
    /// or host memory the runtimes know; anything else
    /// `HSA_EXT_POINTER_TYPE_UNKNOWN`, with every other field zero.
    ///
    /// # Safety
    /// `info` is NULL or holds `info->size` writable bytes; `num_agents_accessible`
    /// and `accessible` are NULL or writable; `alloc` returns memory of the
    /// size asked, or NULL.
    unsafe fn hsa_amd_pointer_info(
        ptr: *const c_void,
        info: *mut hsa_amd_pointer_info_t,
        alloc: Option<extern "C" fn(usize) -> *mut c_void>,
        num_agents_accessible: *mut u32,
        accessible: *mut *mut hsa_agent_t,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            rt.sim.hsa_external(
                "hsa_amd_pointer_info",
                || format!("{ptr:?}"),
                // SAFETY: the caller's contract (above).
                || unsafe {
                    pointer_info(rt, ptr as u64, info, alloc, num_agents_accessible, accessible)
                },
            )
        })
    }

    /// `hsa_amd_memory_lock`.
    ///
    /// # Safety
    /// `agents` is NULL or points at `num_agent` agents; `agent_ptr` is
    /// NULL or writable.
    unsafe fn hsa_amd_memory_lock(
        host_ptr: *mut c_void,
        size: usize,
        agents: *mut hsa_agent_t,
        num_agent: c_int,
        agent_ptr: *mut *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            rt.sim.hsa_external(
                "hsa_amd_memory_lock",
                || format!("{host_ptr:?}, {size:#x}"),
                // SAFETY: the caller's contract (above).
                || unsafe { lock(rt, host_ptr, size, agents, num_agent, None, agent_ptr) },
            )
        })
    }

    /// `hsa_amd_memory_lock_to_pool` (a CPU agent's pool; `flags` 0).
    ///
    /// # Safety
    /// As `hsa_amd_memory_lock`.
    unsafe fn hsa_amd_memory_lock_to_pool(
        host_ptr: *mut c_void,
        size: usize,
        agents: *mut hsa_agent_t,
        num_agent: c_int,
        pool: hsa_amd_memory_pool_t,
        flags: u32,
        agent_ptr: *mut *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            rt.sim.hsa_external(
                "hsa_amd_memory_lock_to_pool",
                || format!("{host_ptr:?}, {size:#x}, {:#x}", pool.handle),
                // SAFETY: the caller's contract (above).
                || unsafe {
                    lock(rt, host_ptr, size, agents, num_agent, Some((pool.handle, flags)), agent_ptr)
                },
            )
        })
    }

    /// `hsa_amd_memory_unlock`: one lock of the range at `host_ptr` fewer
    /// (an address that is not locked is ignored, as ROCr does).
    fn hsa_amd_memory_unlock(host_ptr: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| {
            rt.sim.hsa_external(
                "hsa_amd_memory_unlock",
                || format!("{host_ptr:?}"),
                || {
                    rt.host_memory().unlock(host_ptr as usize);
                    Ok(())
                },
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::read_back::{ReadBackTotals, hash};
    use crate::core::settings::Settings;
    use amdgpu_sim::Sim;
    use amdgpu_sim::presets::load_machine;

    /// `hsa_memory_copy`'s host side: what a copy writes into the caller's
    /// memory is read back (the bytes as the caller received them); what a
    /// copy takes from it is not.
    #[test]
    fn a_copy_into_host_memory_is_read_back_and_one_out_of_it_is_not() {
        let sim = Sim::new(load_machine("w7900").expect("preset"));
        sim.hsa_init().expect("hsa_init");
        let settings = Settings {
            report: Some("unwritten".into()),
            ..Settings::default()
        };
        let rt = Runtime::new(sim, settings);
        let gpu = rt.sim.agents_of_kind(false)[0];
        let pool = rt.sim.agent_iterate_memory_pools(gpu).expect("pools")[0];
        let device = rt
            .sim
            .memory_pool_allocate(pool, 4096, 0)
            .expect("allocation");
        let data: Vec<u8> = (0..64u8).map(|b| b.wrapping_mul(37)).collect();
        let mut caller = CallerMemory(&rt.read_back);
        rt.sim
            .memory_copy_with(device, data.as_ptr() as u64, 64, &mut caller)
            .expect("to the device");
        assert_eq!(rt.read_back.totals(), ReadBackTotals::default());
        let mut out = vec![0u8; 64];
        rt.sim
            .memory_copy_with(out.as_mut_ptr() as u64, device, 64, &mut caller)
            .expect("back to the host");
        assert_eq!(out, data);
        let expected = ReadBackTotals {
            copies: 1,
            bytes: 64,
            digest: hash(&data),
        };
        assert_eq!(rt.read_back.totals(), expected);
    }
}
