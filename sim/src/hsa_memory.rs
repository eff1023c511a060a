//! HSA's memory calls on the node: pool allocations, copies (between
//! simulated memory and the client's host memory), fills, access grants
//! and what `hsa_amd_pointer_info` tells about an address, with ROCr's
//! checks and statuses (`hsa_ext_amd.cpp`, `core/runtime/runtime.cpp`).

use std::collections::BTreeSet;

use amdgpu_isa::Memory as HostMemory;
use amdgpu_sys::hsa_values::{
    GLOBAL_FLAG_COARSE_GRAINED, GLOBAL_FLAG_FINE_GRAINED, GLOBAL_FLAG_KERNARG_INIT,
    POINTER_TYPE_HSA, POINTER_TYPE_RESERVED_ADDR,
};

use crate::codes::HsaCode;
use crate::loader::{CODE_WINDOW_BYTES, CODE_WINDOWS_BASE};
use crate::machine::AgentKind;
use crate::memory::{MAX_COPY_BYTES, RegionKind};
use crate::node::{Sim, State};

/// Bytes a copy or fill moves at a time (its buffer between the two sides).
pub const COPY_CHUNK_BYTES: u64 = 1 << 20;

/// What `hsa_amd_pointer_info` answers about an address the node knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointerInfo {
    /// `hsa_amd_pointer_type_t`: `HSA_EXT_POINTER_TYPE_HSA` for allocations
    /// and loaded code, `_RESERVED_ADDR` for virtual-memory reservations.
    pub type_: u32,
    /// The allocation's base (agents and host see it at the same address).
    pub base: u64,
    /// Its size in bytes (as asked for).
    pub size: u64,
    /// The agent owning its pool.
    pub owner: u64,
    /// `hsa_amd_memory_pool_global_flag_t` bits as ROCr reports them:
    /// coarse- or fine-grained, and kernarg for the kernarg pool.
    pub global_flags: u32,
    /// The agents that may access it directly, in HSA order.
    pub accessible: Vec<u64>,
}

/// `global_flags` of a pool as pointer info reports them: the driver knows
/// coarse grain and uncached (which ROCr uses for the kernarg pool).
fn reported_flags(pool_flags: u32) -> u32 {
    let grain = if pool_flags & GLOBAL_FLAG_COARSE_GRAINED != 0 {
        GLOBAL_FLAG_COARSE_GRAINED
    } else {
        GLOBAL_FLAG_FINE_GRAINED
    };
    grain | (pool_flags & GLOBAL_FLAG_KERNARG_INIT)
}

/// Reads `out.len()` bytes at `address`: simulated memory when a region
/// holds it, else `host`.
fn read_side(
    state: &mut State,
    device: bool,
    address: u64,
    out: &mut [u8],
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
    if device {
        state.memory.read(address, out)
    } else {
        host.read(address, out)
            .map_err(|_| HsaCode::INVALID_ARGUMENT)
    }
}

fn write_side(
    state: &mut State,
    device: bool,
    address: u64,
    data: &[u8],
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
    if device {
        state.memory.write(address, data)
    } else {
        host.write(address, data)
            .map_err(|_| HsaCode::INVALID_ARGUMENT)
    }
}

/// Copies `size` bytes from `src` to `dst`, each side simulated memory
/// (wholly inside it, else `INVALID_ARGUMENT`) or `host`; overlapping
/// ranges copy as `memmove` does.
fn copy(
    state: &mut State,
    dst: u64,
    src: u64,
    size: u64,
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
    if size == 0 {
        return Ok(());
    }
    if size > MAX_COPY_BYTES {
        return Err(HsaCode::INVALID_ARGUMENT);
    }
    let dst_device = state.memory.region_of(dst).is_some();
    let src_device = state.memory.region_of(src).is_some();
    for (device, address) in [(dst_device, dst), (src_device, src)] {
        if device {
            state.memory.check(address, size)?;
        }
    }
    let chunk = size.min(COPY_CHUNK_BYTES);
    let mut buffer = vec![0u8; usize::try_from(chunk).map_err(|_| HsaCode::INVALID_ARGUMENT)?];
    let backwards = dst > src && dst < src.saturating_add(size);
    let mut done = 0;
    while done < size {
        let n = chunk.min(size - done);
        let offset = if backwards { size - done - n } else { done };
        let piece = buffer
            .get_mut(..n as usize)
            .ok_or(HsaCode::INVALID_ARGUMENT)?;
        read_side(state, src_device, src + offset, piece, host)?;
        write_side(state, dst_device, dst + offset, piece, host)?;
        done += n;
    }
    Ok(())
}

impl Sim {
    /// `hsa_amd_memory_pool_allocate`.
    pub fn memory_pool_allocate(&self, pool: u64, size: u64, flags: u32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_allocate",
            || format!("{pool:#x}, {size}, {flags:#x}"),
            |sim, state| {
                let index = sim.pool_index(pool)?;
                let (_, info) = sim.pool(pool)?;
                if size == 0 {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                if !info.alloc_allowed || size > info.alloc_max_size {
                    return Err(HsaCode::INVALID_ALLOCATION);
                }
                state
                    .memory
                    .allocate(index, size, info.granule, info.alignment, info.size)
            },
        )
    }

    /// `hsa_amd_memory_pool_free`: NULL frees nothing and succeeds, as in
    /// ROCr; an address that is no allocation's base is
    /// `INVALID_ALLOCATION`.
    pub fn memory_pool_free(&self, ptr: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_free",
            || format!("{ptr:#x}"),
            |_, state| {
                // ROCr frees nothing for NULL and succeeds
                // (`hsa_memory_free`, which `hsa_amd_memory_pool_free` calls).
                if ptr == 0 {
                    return Ok(());
                }
                state.memory.free(ptr)?;
                state.access.remove(&ptr);
                Ok(())
            },
        )
    }

    /// `hsa_memory_copy` from host bytes to device memory.
    pub fn memory_copy_to_device(&self, dst: u64, src: &[u8]) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, host, {}", src.len()),
            |_, state| {
                if src.is_empty() {
                    Ok(())
                } else {
                    state.memory.write(dst, src)
                }
            },
        )
    }

    /// `hsa_memory_copy` from device memory to host bytes.
    pub fn memory_copy_from_device(&self, dst: &mut [u8], src: u64) -> Result<(), HsaCode> {
        let len = dst.len();
        self.hsa(
            "hsa_memory_copy",
            || format!("host, {src:#x}, {len}"),
            |_, state| {
                if dst.is_empty() {
                    Ok(())
                } else {
                    state.memory.read(src, dst)
                }
            },
        )
    }

    /// `hsa_memory_copy` between device allocations.
    pub fn memory_copy(&self, dst: u64, src: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, {src:#x}, {size}"),
            |_, state| {
                for address in [dst, src] {
                    if size > 0 && state.memory.region_of(address).is_none() {
                        return Err(HsaCode::INVALID_ARGUMENT);
                    }
                }
                copy(state, dst, src, size, &mut NoHost)
            },
        )
    }

    /// `hsa_memory_copy` of `size` bytes at addresses that are simulated
    /// memory or the client's host memory, reached through `host` (ROCr
    /// copies between two host ranges with `memcpy`).
    pub fn memory_copy_with(
        &self,
        dst: u64,
        src: u64,
        size: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, {src:#x}, {size}"),
            |_, state| copy(state, dst, src, size, host),
        )
    }

    /// The work of an asynchronous copy (`hsa_amd_memory_async_copy`),
    /// counted when it was submitted: as [`Sim::memory_copy_with`].
    pub fn engine_copy(
        &self,
        dst: u64,
        src: u64,
        size: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        copy(&mut self.lock(), dst, src, size, host)
    }

    /// Checks an asynchronous copy's ranges when it is submitted: a side
    /// in simulated memory must lie wholly inside it (no call is counted).
    pub fn check_copy(&self, dst: u64, src: u64, size: u64) -> Result<(), HsaCode> {
        if size > MAX_COPY_BYTES {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let state = self.lock();
        for address in [dst, src] {
            if size > 0 && state.memory.region_of(address).is_some() {
                state.memory.check(address, size)?;
            }
        }
        Ok(())
    }

    /// `hsa_amd_memory_fill`: `count` 32-bit `value`s at `ptr` (4-aligned),
    /// in simulated memory or in host memory the runtime knows (through
    /// `host`, which refuses the rest: `INVALID_ALLOCATION`, as ROCr
    /// answers for memory it does not know).
    pub fn memory_fill(
        &self,
        ptr: u64,
        value: u32,
        count: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_memory_fill",
            || format!("{ptr:#x}, {value:#x}, {count}"),
            |_, state| {
                if ptr == 0 || !ptr.is_multiple_of(4) {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                if count == 0 {
                    return Ok(());
                }
                let size = count
                    .checked_mul(4)
                    .filter(|&n| n <= MAX_COPY_BYTES)
                    .ok_or(HsaCode::INVALID_ARGUMENT)?;
                let device = state.memory.region_of(ptr).is_some();
                if device {
                    state
                        .memory
                        .check(ptr, size)
                        .map_err(|_| HsaCode::INVALID_ALLOCATION)?;
                }
                let chunk = size.min(COPY_CHUNK_BYTES);
                let pattern: Vec<u8> = value
                    .to_le_bytes()
                    .into_iter()
                    .cycle()
                    .take(chunk as usize)
                    .collect();
                let mut done = 0;
                while done < size {
                    let n = chunk.min(size - done);
                    let piece = pattern.get(..n as usize).unwrap_or_default();
                    write_side(state, device, ptr + done, piece, host)
                        .map_err(|_| HsaCode::INVALID_ALLOCATION)?;
                    done += n;
                }
                Ok(())
            },
        )
    }

    /// `hsa_amd_agents_allow_access`: `agents` may reach the allocation at
    /// `ptr` (its base, as ROCr looks it up), or the virtual-memory
    /// mapping holding `ptr` and those after it (read and write); any
    /// other address is `INVALID_ALLOCATION`, an agent that is none
    /// `INVALID_AGENT`.
    pub fn agents_allow_access(&self, agents: &[u64], ptr: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_agents_allow_access",
            || format!("{agents:x?}, {ptr:#x}"),
            |sim, state| {
                if agents.is_empty() || ptr == 0 {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                match state.memory.region_of(ptr) {
                    Some((base, RegionKind::Allocation { .. })) if base == ptr => {
                        let indices = agents
                            .iter()
                            .map(|&a| sim.agent_index(a))
                            .collect::<Result<Vec<_>, _>>()?;
                        state.access.entry(base).or_default().extend(indices);
                        Ok(())
                    }
                    Some((_, RegionKind::Mapping { .. })) => {
                        sim.vmem_allow_access(state, agents, ptr)
                    }
                    _ => Err(HsaCode::INVALID_ALLOCATION),
                }
            },
        )
    }

    /// What `hsa_amd_pointer_info` answers about an address the node
    /// knows: an allocation (a HIP device allocation is one too), a loaded
    /// code object, or a virtual-memory reservation; `None` for any other
    /// (the C library then asks its host memory). Not a counted call: the
    /// C library's export counts it.
    pub fn describe_pointer(&self, ptr: u64) -> Option<PointerInfo> {
        self.describe(&self.lock(), ptr)
    }

    /// Whether `address` lies in a loaded code object's image (no call is
    /// counted).
    pub fn is_loaded_code(&self, address: u64) -> bool {
        matches!(
            self.lock().memory.region_of(address),
            Some((_, RegionKind::CodeObject))
        )
    }

    /// A pool's owner (its agent's handle), whether that is a CPU, and its
    /// global flags as pointer info reports them; `None` for a handle that
    /// is no pool (no call is counted).
    pub fn pool_facts(&self, pool: u64) -> Option<(u64, bool, u32)> {
        let (owner, info) = self.pool(pool).ok()?;
        let cpu = self.machine.agents.get(owner)?.kind == AgentKind::Cpu;
        Some((Sim::agent_handle(owner), cpu, reported_flags(info.flags)))
    }

    /// The handles of the CPU agents (`cpu`) or of the GPU agents, in HSA
    /// order (no call is counted).
    pub fn agents_of_kind(&self, cpu: bool) -> Vec<u64> {
        let wanted = if cpu { AgentKind::Cpu } else { AgentKind::Gpu };
        (0..self.machine.agents.len())
            .filter(|&a| self.machine.agents.get(a).is_some_and(|a| a.kind == wanted))
            .map(Sim::agent_handle)
            .collect()
    }

    fn describe(&self, state: &State, ptr: u64) -> Option<PointerInfo> {
        let agents = self.machine.agents.len();
        if let Some((base, size)) = Sim::vmem_reservation_of(state, ptr) {
            // An address-only reservation of the driver's node 0, the first
            // CPU; no agent has it mapped.
            let owner = (0..agents)
                .find(|&a| {
                    self.machine
                        .agents
                        .get(a)
                        .is_some_and(|a| a.kind == AgentKind::Cpu)
                })
                .unwrap_or(0);
            return Some(PointerInfo {
                type_: POINTER_TYPE_RESERVED_ADDR,
                base,
                size,
                owner: Sim::agent_handle(owner),
                global_flags: GLOBAL_FLAG_FINE_GRAINED,
                accessible: Vec::new(),
            });
        }
        let (base, kind) = state.memory.region_of(ptr)?;
        let size = state.memory.region_size(base)?;
        let (owner, global_flags, mut accessible) = match kind {
            RegionKind::Allocation { pool } => {
                let &(owner, p) = self.tables.pools.get(pool)?;
                let info = self.machine.agents.get(owner)?.pools.get(p)?;
                let mut accessible: BTreeSet<usize> =
                    state.access.get(&base).cloned().unwrap_or_default();
                accessible.insert(owner);
                if info.accessible_by_all {
                    accessible.extend(0..agents);
                }
                (owner, reported_flags(info.flags), accessible)
            }
            RegionKind::CodeObject => {
                let owner = usize::try_from((base - CODE_WINDOWS_BASE) / CODE_WINDOW_BYTES).ok()?;
                (owner, GLOBAL_FLAG_COARSE_GRAINED, BTreeSet::from([owner]))
            }
            RegionKind::Mapping { .. } => return None,
        };
        accessible.insert(owner);
        Some(PointerInfo {
            type_: POINTER_TYPE_HSA,
            base,
            size,
            owner: Sim::agent_handle(owner),
            global_flags,
            accessible: accessible.into_iter().map(Sim::agent_handle).collect(),
        })
    }
}

/// No host memory: every host access is outside memory.
struct NoHost;

impl HostMemory for NoHost {
    fn read(&mut self, _: u64, _: &mut [u8]) -> Result<(), amdgpu_isa::OutOfBounds> {
        Err(amdgpu_isa::OutOfBounds)
    }

    fn write(&mut self, _: u64, _: &[u8]) -> Result<(), amdgpu_isa::OutOfBounds> {
        Err(amdgpu_isa::OutOfBounds)
    }
}
