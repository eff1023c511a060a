//! The rules of HSA's memory calls (`crate::hsa_memory`): pool
//! allocations, copies between simulated memory and the client's host
//! memory, fills, the access grants `HsaMemory` keeps, and what
//! `hsa_amd_pointer_info` tells about an address, with ROCr's checks and
//! statuses (`hsa_ext_amd.cpp`, `core/runtime/runtime.cpp`).

use std::collections::{BTreeMap, BTreeSet};

use amdgpu_isa::Memory as HostMemory;
use amdgpu_sys::hsa_values::{
    GLOBAL_FLAG_COARSE_GRAINED, GLOBAL_FLAG_FINE_GRAINED, GLOBAL_FLAG_KERNARG_INIT,
    POINTER_TYPE_HSA, POINTER_TYPE_RESERVED_ADDR,
};

use super::code_windows::{CODE_WINDOW_BYTES, CODE_WINDOWS_BASE};
use super::vmem::{self, VirtualMemory};
use crate::codes::HsaCode;
use crate::handles::agent_handle;
use crate::machine::AgentKind;
use crate::memory::{MAX_COPY_BYTES, Memory, RegionKind};
use crate::topology::Topology;

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
    memory: &mut Memory,
    device: bool,
    address: u64,
    out: &mut [u8],
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
    if device {
        memory.read(address, out)
    } else {
        host.read(address, out)
            .map_err(|_| HsaCode::INVALID_ARGUMENT)
    }
}

fn write_side(
    memory: &mut Memory,
    device: bool,
    address: u64,
    data: &[u8],
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
    if device {
        memory.write(address, data)
    } else {
        host.write(address, data)
            .map_err(|_| HsaCode::INVALID_ARGUMENT)
    }
}

/// Copies `size` bytes from `src` to `dst`, each side simulated memory
/// (wholly inside it, else `INVALID_ARGUMENT`) or `host`; overlapping
/// ranges copy as `memmove` does.
pub(crate) fn copy(
    memory: &mut Memory,
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
    let dst_device = memory.region_of(dst).is_some();
    let src_device = memory.region_of(src).is_some();
    for (device, address) in [(dst_device, dst), (src_device, src)] {
        if device {
            memory.check(address, size)?;
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
        read_side(memory, src_device, src + offset, piece, host)?;
        write_side(memory, dst_device, dst + offset, piece, host)?;
        done += n;
    }
    Ok(())
}

/// Checks an asynchronous copy's ranges when it is submitted: a side in
/// simulated memory must lie wholly inside it.
pub(crate) fn check_copy(memory: &Memory, dst: u64, src: u64, size: u64) -> Result<(), HsaCode> {
    for address in [dst, src] {
        if size > 0 && memory.region_of(address).is_some() {
            memory.check(address, size)?;
        }
    }
    Ok(())
}

/// `hsa_amd_memory_fill`: `count` 32-bit `value`s at `ptr` (4-aligned), in
/// simulated memory or in host memory the runtime knows (through `host`,
/// which refuses the rest: `INVALID_ALLOCATION`, as ROCr answers for
/// memory it does not know).
pub(crate) fn fill(
    memory: &mut Memory,
    ptr: u64,
    value: u32,
    count: u64,
    host: &mut dyn HostMemory,
) -> Result<(), HsaCode> {
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
    let device = memory.region_of(ptr).is_some();
    if device {
        memory
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
        write_side(memory, device, ptr + done, piece, host)
            .map_err(|_| HsaCode::INVALID_ALLOCATION)?;
        done += n;
    }
    Ok(())
}

/// HSA's memory state: the allocations `hsa_amd_agents_allow_access`
/// granted to agents beyond those reaching their pool by default.
#[derive(Debug, Default)]
pub(crate) struct HsaMemory {
    /// Allocation base → the agents granted access.
    grants: BTreeMap<u64, BTreeSet<usize>>,
}

impl HsaMemory {
    /// Allocation base → the agents granted access (what a kernel on an
    /// agent may reach beyond its pools).
    pub(crate) fn grants(&self) -> &BTreeMap<u64, BTreeSet<usize>> {
        &self.grants
    }

    /// `hsa_amd_memory_pool_allocate`.
    pub(crate) fn allocate(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        pool: u64,
        size: u64,
    ) -> Result<u64, HsaCode> {
        let index = topology.pool_index(pool)?;
        let (_, info) = topology.pool(pool)?;
        if size == 0 {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        if !info.alloc_allowed || size > info.alloc_max_size {
            return Err(HsaCode::INVALID_ALLOCATION);
        }
        memory.allocate(index, size, info.granule, info.alignment, info.size)
    }

    /// `hsa_amd_memory_pool_free`: NULL frees nothing and succeeds, as in
    /// ROCr; an address that is no allocation's base is
    /// `INVALID_ALLOCATION`.
    pub(crate) fn free(&mut self, memory: &mut Memory, ptr: u64) -> Result<(), HsaCode> {
        // ROCr frees nothing for NULL and succeeds
        // (`hsa_memory_free`, which `hsa_amd_memory_pool_free` calls).
        if ptr == 0 {
            return Ok(());
        }
        memory.free(ptr)?;
        self.grants.remove(&ptr);
        Ok(())
    }

    /// `hsa_amd_agents_allow_access`: `agents` may reach the allocation at
    /// `ptr` (its base, as ROCr looks it up), or the virtual-memory
    /// mapping holding `ptr` and those after it (read and write); any
    /// other address is `INVALID_ALLOCATION`, an agent that is none
    /// `INVALID_AGENT`.
    pub(crate) fn allow_access(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        agents: &[u64],
        ptr: u64,
    ) -> Result<(), HsaCode> {
        if agents.is_empty() || ptr == 0 {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        match memory.region_of(ptr) {
            Some((base, RegionKind::Allocation { .. })) if base == ptr => {
                let indices = agents
                    .iter()
                    .map(|&a| topology.agent_index(a))
                    .collect::<Result<Vec<_>, _>>()?;
                self.grants.entry(base).or_default().extend(indices);
                Ok(())
            }
            Some((_, RegionKind::Mapping { .. })) => {
                vmem::allow_access(topology, memory, agents, ptr)
            }
            _ => Err(HsaCode::INVALID_ALLOCATION),
        }
    }

    /// What `hsa_amd_pointer_info` answers about an address the node
    /// knows: an allocation (a HIP device allocation is one too), a loaded
    /// code object, or a virtual-memory reservation.
    pub(crate) fn describe(
        &self,
        topology: &Topology,
        memory: &Memory,
        vmem: &VirtualMemory,
        ptr: u64,
    ) -> Option<PointerInfo> {
        let machine = &topology.machine;
        let agents = machine.agents.len();
        if let Some((base, size)) = vmem.reservation_holding(ptr) {
            // An address-only reservation of the driver's node 0, the first
            // CPU; no agent has it mapped.
            let owner = (0..agents)
                .find(|&a| {
                    machine
                        .agents
                        .get(a)
                        .is_some_and(|a| a.kind == AgentKind::Cpu)
                })
                .unwrap_or(0);
            return Some(PointerInfo {
                type_: POINTER_TYPE_RESERVED_ADDR,
                base,
                size,
                owner: agent_handle(owner),
                global_flags: GLOBAL_FLAG_FINE_GRAINED,
                accessible: Vec::new(),
            });
        }
        let (base, kind) = memory.region_of(ptr)?;
        let size = memory.region_size(base)?;
        let (owner, global_flags, mut accessible) = match kind {
            RegionKind::Allocation { pool } => {
                let &(owner, p) = topology.tables.pools.get(pool)?;
                let info = machine.agents.get(owner)?.pools.get(p)?;
                let mut accessible: BTreeSet<usize> =
                    self.grants.get(&base).cloned().unwrap_or_default();
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
            owner: agent_handle(owner),
            global_flags,
            accessible: accessible.into_iter().map(agent_handle).collect(),
        })
    }
}

/// A pool's owner (its agent's handle), whether that is a CPU, and its
/// global flags as pointer info reports them; `None` for a handle that is
/// no pool.
pub(crate) fn pool_facts(topology: &Topology, pool: u64) -> Option<(u64, bool, u32)> {
    let (owner, info) = topology.pool(pool).ok()?;
    let cpu = topology.machine.agents.get(owner)?.kind == AgentKind::Cpu;
    Some((agent_handle(owner), cpu, reported_flags(info.flags)))
}

/// No host memory: every host access is outside memory.
pub(crate) struct NoHost;

impl HostMemory for NoHost {
    fn read(&mut self, _: u64, _: &mut [u8]) -> Result<(), amdgpu_isa::OutOfBounds> {
        Err(amdgpu_isa::OutOfBounds)
    }

    fn write(&mut self, _: u64, _: &[u8]) -> Result<(), amdgpu_isa::OutOfBounds> {
        Err(amdgpu_isa::OutOfBounds)
    }
}
