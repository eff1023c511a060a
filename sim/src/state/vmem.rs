//! The rules of the virtual-memory API (`crate::vmem`'s calls): the
//! node's reservations and physical memory handles, placed, counted and
//! freed as ROCr does, and access set on the mappings `Memory` holds.

use std::collections::BTreeMap;

use crate::codes::HsaCode;
use crate::handles::{Serials, TAG_POOL, TAG_VMEM_HANDLE, handle};
use crate::machine::AgentKind;
use crate::memory::Memory;
use crate::memory::{PAGE_BYTES, RegionKind, VMEM_WINDOW_BASE, VMEM_WINDOW_BYTES, align_up};
use crate::topology::Topology;

/// `MEMORY_TYPE_NONE` and `MEMORY_TYPE_PINNED` (`hsa_amd_memory_type_t`).
const MEMORY_TYPE_NONE: u32 = 0;
const MEMORY_TYPE_PINNED: u32 = 1;
/// `HSA_ACCESS_PERMISSION_RW`, what `hsa_amd_agents_allow_access` grants.
const PERMISSION_RW: u32 = 3;

#[derive(Debug)]
struct Reservation {
    size: u64,
    /// Mappings inside it.
    uses: u64,
}

#[derive(Debug)]
struct Physical {
    pool: usize,
    size: u64,
    pinned: bool,
    /// References: the creation's, and each `retain_alloc_handle`'s.
    refs: u64,
    /// Mappings of it.
    uses: u64,
}

/// The node's reservations and physical memory handles (mappings are
/// regions of [`crate::memory::Memory`]).
#[derive(Debug, Default)]
pub(crate) struct VirtualMemory {
    reservations: BTreeMap<u64, Reservation>,
    handles: BTreeMap<u64, Physical>,
    /// Where the next reservation goes in the window, while it lasts.
    next: u64,
}

impl VirtualMemory {
    pub(crate) fn reservation_count(&self) -> u64 {
        self.reservations.len() as u64
    }

    pub(crate) fn handle_count(&self) -> u64 {
        self.handles.len() as u64
    }

    /// The reservation holding `[address, address + len)`.
    fn reservation_of(&self, address: u64, len: u64) -> Option<u64> {
        let (&base, r) = self.reservations.range(..=address).next_back()?;
        let end = address.checked_add(len)?;
        (end <= base + r.size).then_some(base)
    }

    fn is_free(&self, address: u64, len: u64) -> bool {
        let end = address.saturating_add(len);
        address >= VMEM_WINDOW_BASE
            && end <= VMEM_WINDOW_BASE + VMEM_WINDOW_BYTES
            && self
                .reservations
                .range(..end)
                .next_back()
                .is_none_or(|(&base, r)| base + r.size <= address)
    }

    /// Where `len` bytes aligned to `align` go: at `hint` when it is free,
    /// else after the last reservation while the window lasts, else the
    /// first gap that fits.
    fn place(&self, hint: u64, len: u64, align: u64) -> Option<u64> {
        if hint != 0 && hint.is_multiple_of(align) && self.is_free(hint, len) {
            return Some(hint);
        }
        let after = align_up(VMEM_WINDOW_BASE + self.next, align)?;
        if self.is_free(after, len) {
            return Some(after);
        }
        let mut cursor = VMEM_WINDOW_BASE;
        for (&base, r) in &self.reservations {
            let candidate = align_up(cursor, align)?;
            if candidate.checked_add(len)? <= base {
                return Some(candidate);
            }
            cursor = base + r.size;
        }
        let candidate = align_up(cursor, align)?;
        self.is_free(candidate, len).then_some(candidate)
    }

    /// `hsa_amd_vmem_address_reserve(_align)`: `size` bytes of addresses,
    /// at `address` when it is free.
    pub(crate) fn reserve(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        size: u64,
        address: u64,
        alignment: u64,
    ) -> Result<u64, HsaCode> {
        nonzero(size)?;
        supported(topology)?;
        // The driver's checks (libhsakmt's hsaKmtAllocMemoryAlign):
        // ROCr tries twice, then answers OUT_OF_RESOURCES.
        let align = if alignment == 0 {
            PAGE_BYTES
        } else {
            alignment
        };
        if !align.is_power_of_two() || align < PAGE_BYTES || !size.is_multiple_of(PAGE_BYTES) {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        let base = self
            .place(address, size, align)
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        memory.reserve(base, size)?;
        self.reservations
            .insert(base, Reservation { size, uses: 0 });
        self.next = self.next.max(base - VMEM_WINDOW_BASE + size);
        Ok(base)
    }

    /// `hsa_amd_vmem_address_free`.
    pub(crate) fn free(&mut self, memory: &mut Memory, va: u64, size: u64) -> Result<(), HsaCode> {
        nonzero(va)?;
        nonzero(size)?;
        let r = self
            .reservations
            .get(&va)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        if r.size != size {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        if r.uses > 0 {
            return Err(HsaCode::RESOURCE_FREE);
        }
        self.reservations.remove(&va);
        memory.unreserve(va, size);
        Ok(())
    }

    /// `hsa_amd_vmem_handle_create`: `size` bytes of physical memory of
    /// `pool`, `memory_type` `MEMORY_TYPE_NONE` or `_PINNED`.
    pub(crate) fn create_handle(
        &mut self,
        topology: &Topology,
        memory: &mut Memory,
        serials: &mut Serials,
        pool: u64,
        size: u64,
        memory_type: u32,
    ) -> Result<u64, HsaCode> {
        nonzero(size)?;
        supported(topology)?;
        if memory_type != MEMORY_TYPE_NONE && memory_type != MEMORY_TYPE_PINNED {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let index = topology
            .pool_index(pool)
            .map_err(|_| HsaCode::INVALID_ARGUMENT)?;
        let (_, info) = topology.pool(pool).map_err(|_| HsaCode::INVALID_ARGUMENT)?;
        if !size.is_multiple_of(PAGE_BYTES) {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        if !info.alloc_allowed || size > info.alloc_max_size {
            return Err(HsaCode::INVALID_ALLOCATION);
        }
        let id = handle(TAG_VMEM_HANDLE, serials.next());
        memory.create_physical(index, id, size, info.size)?;
        self.handles.insert(
            id,
            Physical {
                pool: index,
                size,
                pinned: memory_type == MEMORY_TYPE_PINNED,
                refs: 1,
                uses: 0,
            },
        );
        Ok(id)
    }

    /// `hsa_amd_vmem_handle_release`: drops a reference; the memory goes
    /// when no reference and no mapping is left.
    pub(crate) fn release_handle(
        &mut self,
        memory: &mut Memory,
        memory_handle: u64,
    ) -> Result<(), HsaCode> {
        let h = self
            .handles
            .get_mut(&memory_handle)
            .filter(|h| h.refs > 0)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        h.refs -= 1;
        self.release_if_unused(memory, memory_handle);
        Ok(())
    }

    /// `hsa_amd_vmem_map`: the first `size` bytes of `memory_handle` at
    /// `va` (`in_offset` is ignored, as ROCr ignores it).
    pub(crate) fn map(
        &mut self,
        memory: &mut Memory,
        va: u64,
        size: u64,
        memory_handle: u64,
    ) -> Result<(), HsaCode> {
        nonzero(va)?;
        nonzero(size)?;
        let reservation = self
            .reservation_of(va, size)
            .ok_or(HsaCode::INVALID_ARGUMENT)?;
        if memory.any_region_in(va, size) {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let h = self
            .handles
            .get(&memory_handle)
            .ok_or(HsaCode::INVALID_ARGUMENT)?;
        if !va.is_multiple_of(PAGE_BYTES) || !size.is_multiple_of(PAGE_BYTES) {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        // The driver exports no more than the handle holds.
        if size > h.size {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        memory.map_physical(va, size, memory_handle, reservation)?;
        if let Some(r) = self.reservations.get_mut(&reservation) {
            r.uses += 1;
        }
        if let Some(h) = self.handles.get_mut(&memory_handle) {
            h.uses += 1;
        }
        Ok(())
    }

    /// `hsa_amd_vmem_unmap` of the mapping at `va` (`size` its size).
    pub(crate) fn unmap(&mut self, memory: &mut Memory, va: u64, size: u64) -> Result<(), HsaCode> {
        nonzero(va)?;
        nonzero(size)?;
        let (base, len) = memory
            .mapping_at(va, false)
            .filter(|&(base, _)| base == va)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        if len != size {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let Some((_, RegionKind::Mapping { handle: id })) = memory.region_of(base) else {
            return Err(HsaCode::INVALID_ALLOCATION);
        };
        memory.unmap_physical(base)?;
        if let Some(r) = self
            .reservation_of(base, len)
            .and_then(|r| self.reservations.get_mut(&r))
        {
            r.uses = r.uses.saturating_sub(1);
        }
        if let Some(h) = self.handles.get_mut(&id) {
            h.uses = h.uses.saturating_sub(1);
        }
        self.release_if_unused(memory, id);
        Ok(())
    }

    /// `hsa_amd_vmem_set_access`: each `(agent, permission)` of `access` on
    /// every mapping of `[va, va + size)` (mappings that follow one
    /// another from `va`).
    pub(crate) fn set_access(
        &self,
        topology: &Topology,
        memory: &mut Memory,
        va: u64,
        size: u64,
        access: &[(u64, u32)],
    ) -> Result<(), HsaCode> {
        nonzero(va)?;
        nonzero(size)?;
        nonzero(access.len() as u64)?;
        let agents = access_agents(topology, access)?;
        if self.reservation_of(va, size).is_none() {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let end = va.checked_add(size).ok_or(HsaCode::INVALID_ARGUMENT)?;
        let mappings = memory.mappings_from(va, end);
        let covered = mappings.last().map_or(va, |&(base, len)| base + len);
        if covered < end {
            return Err(HsaCode::INVALID_ALLOCATION);
        }
        set_access(memory, &mappings, &agents)
    }

    /// `hsa_amd_vmem_retain_alloc_handle`: the handle mapped at `va`, with
    /// one more reference.
    pub(crate) fn retain_handle(&mut self, memory: &Memory, va: u64) -> Result<u64, HsaCode> {
        nonzero(va)?;
        let Some((base, RegionKind::Mapping { handle: id })) = memory.region_of(va) else {
            return Err(HsaCode::INVALID_ALLOCATION);
        };
        if base != va {
            return Err(HsaCode::INVALID_ALLOCATION);
        }
        let h = self
            .handles
            .get_mut(&id)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        h.refs += 1;
        Ok(id)
    }

    /// `hsa_amd_vmem_get_alloc_properties_from_handle`: the pool's handle
    /// and the memory type.
    pub(crate) fn handle_properties(&self, memory_handle: u64) -> Result<(u64, u32), HsaCode> {
        let h = self
            .handles
            .get(&memory_handle)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        let memory_type = if h.pinned {
            MEMORY_TYPE_PINNED
        } else {
            MEMORY_TYPE_NONE
        };
        Ok((handle(TAG_POOL, h.pool as u64 + 1), memory_type))
    }

    /// `hsa_amd_vmem_export_shareable_handle`: not modelled (no dma-buf):
    /// a live handle fails as ROCr fails when the driver cannot export it.
    pub(crate) fn export_handle(&self, memory_handle: u64) -> Result<(), HsaCode> {
        if !self.handles.contains_key(&memory_handle) {
            return Err(HsaCode::INVALID_ALLOCATION);
        }
        Err(HsaCode::OUT_OF_RESOURCES)
    }

    /// The reservation holding `address`, as `(base, size)`.
    pub(crate) fn reservation_holding(&self, address: u64) -> Option<(u64, u64)> {
        let base = self.reservation_of(address, 1)?;
        let size = self.reservations.get(&base)?.size;
        Some((base, size))
    }

    /// Frees a handle with no reference and no mapping left.
    fn release_if_unused(&mut self, memory: &mut Memory, id: u64) {
        let unused = self
            .handles
            .get(&id)
            .is_some_and(|h| h.refs == 0 && h.uses == 0);
        if unused && let Some(h) = self.handles.remove(&id) {
            memory.release_physical(h.pool, id, h.size);
        }
    }
}

/// ROCr's `IS_ZERO` and `IS_BAD_PTR` checks: `INVALID_ARGUMENT`.
fn nonzero(value: u64) -> Result<(), HsaCode> {
    if value == 0 {
        Err(HsaCode::INVALID_ARGUMENT)
    } else {
        Ok(())
    }
}

/// Whether the node has virtual memory (`INVALID_ARGUMENT` if not).
fn supported(topology: &Topology) -> Result<(), HsaCode> {
    if topology.machine.system.virtual_memory {
        Ok(())
    } else {
        Err(HsaCode::INVALID_ARGUMENT)
    }
}

/// `hsa_amd_vmem_get_access`: `agent`'s permission on the mapping
/// holding `va` (`HSA_ACCESS_PERMISSION_NONE` when none was set). As in
/// ROCr, a mapping's end address counts as inside it, and only a GPU
/// agent is asked about.
pub(crate) fn access_of(
    topology: &Topology,
    memory: &Memory,
    va: u64,
    agent: u64,
) -> Result<u32, HsaCode> {
    nonzero(va)?;
    let (base, _) = memory
        .mapping_at(va, true)
        .ok_or(HsaCode::INVALID_ALLOCATION)?;
    let a = topology.agent(agent)?;
    if a.kind != AgentKind::Gpu {
        return Err(HsaCode::INVALID_AGENT);
    }
    let index = topology.agent_index(agent)?;
    Ok(memory.mapping_access(base, index).unwrap_or(0))
}

/// `hsa_amd_vmem_import_shareable_handle`: no handle is ever exported, so
/// every descriptor is one the driver does not know
/// (`INCOMPATIBLE_ARGUMENTS`, ROCr's answer).
pub(crate) fn import_handle(dmabuf_fd: i32) -> Result<u64, HsaCode> {
    if dmabuf_fd < 0 {
        return Err(HsaCode::INVALID_ARGUMENT);
    }
    Err(HsaCode::INCOMPATIBLE_ARGUMENTS)
}

/// `hsa_amd_agents_allow_access` on a virtual-memory address: read and
/// write for `agents` on the mapping holding `ptr` and every mapping that
/// follows it without a gap (ROCr's `VMemoryMapAllowAccess`).
pub(crate) fn allow_access(
    topology: &Topology,
    memory: &mut Memory,
    agents: &[u64],
    ptr: u64,
) -> Result<(), HsaCode> {
    let access: Vec<(u64, u32)> = agents.iter().map(|&a| (a, PERMISSION_RW)).collect();
    let agents = access_agents(topology, &access)?;
    let (base, _) = memory
        .mapping_at(ptr, false)
        .ok_or(HsaCode::INVALID_ALLOCATION)?;
    let mappings = memory.mappings_from(base, u64::MAX);
    set_access(memory, &mappings, &agents)
}

/// The agent indices of `access` (`INVALID_AGENT` for one that is none),
/// with their permissions and whether each is a CPU.
fn access_agents(
    topology: &Topology,
    access: &[(u64, u32)],
) -> Result<Vec<(usize, u32, bool)>, HsaCode> {
    access
        .iter()
        .map(|&(agent, permission)| {
            let index = topology.agent_index(agent)?;
            let cpu = topology.agent(agent)?.kind == AgentKind::Cpu;
            Ok((index, permission, cpu))
        })
        .collect()
}

/// Sets each agent's permission on each mapping (a CPU's is also what the
/// host may do there).
fn set_access(
    memory: &mut Memory,
    mappings: &[(u64, u64)],
    agents: &[(usize, u32, bool)],
) -> Result<(), HsaCode> {
    for &(base, _) in mappings {
        for &(agent, permission, cpu) in agents {
            memory.set_mapping_access(base, agent, permission, cpu)?;
        }
    }
    Ok(())
}
