//! The virtual-memory API (`hsa_amd_vmem_*`, `hsa_ext_amd.h`) with ROCr's
//! checks and statuses (`core/runtime/runtime.cpp`'s `VMemory*` and the
//! API layer in `hsa_ext_amd.cpp`):
//!
//! - a reservation is a range of addresses with nothing behind them
//!   (in [`crate::memory::VMEM_WINDOW_BASE`]'s window), freed only when no
//!   mapping is left in it;
//! - a handle is physical memory of a pool (charged to its capacity, as an
//!   allocation is), with a reference count (`retain_alloc_handle` adds
//!   one, `handle_release` drops one) and a use count (its mappings); it
//!   is freed when both reach zero;
//! - a mapping makes a handle's memory appear at an address of a
//!   reservation; one handle may be mapped at many addresses, each showing
//!   the same bytes (IREE's ring buffers map one handle three times in a
//!   row). No agent may touch a mapping until `set_access` (or
//!   `hsa_amd_agents_allow_access`) gives it a permission; kernels
//!   dispatched on an agent are held to it.
//!
//! Where the simulator cannot follow ROCr it says so: a mapping's address
//! and size must be whole pages (`INVALID_ARGUMENT`; ROCr fails later, when
//! access is set), `in_offset` is ignored as ROCr ignores it, and sharing
//! a handle through a dma-buf is not modelled (export fails with
//! `OUT_OF_RESOURCES`, ROCr's answer when the driver cannot export).

use std::collections::BTreeMap;

use crate::codes::HsaCode;
use crate::machine::AgentKind;
use crate::memory::{PAGE_BYTES, RegionKind, VMEM_WINDOW_BASE, VMEM_WINDOW_BYTES, align_up};
use crate::node::{Sim, State, TAG_POOL, handle};

/// Handle tag of physical memory handles (`hsa_amd_vmem_alloc_handle_t`).
pub(crate) const TAG_VMEM_HANDLE: u64 = 8;

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
}

/// ROCr's `IS_ZERO` and `IS_BAD_PTR` checks: `INVALID_ARGUMENT`.
fn nonzero(value: u64) -> Result<(), HsaCode> {
    if value == 0 {
        Err(HsaCode::INVALID_ARGUMENT)
    } else {
        Ok(())
    }
}

impl Sim {
    fn vmem_supported(&self) -> Result<(), HsaCode> {
        if self.machine.system.virtual_memory {
            Ok(())
        } else {
            Err(HsaCode::INVALID_ARGUMENT)
        }
    }

    /// `hsa_amd_vmem_address_reserve_align` (`op` names the call, the
    /// `_align` one or `hsa_amd_vmem_address_reserve`, whose alignment is
    /// 0): `size` bytes of addresses, at `address` when it is free.
    pub fn vmem_address_reserve(
        &self,
        op: &'static str,
        size: u64,
        address: u64,
        alignment: u64,
        flags: u64,
    ) -> Result<u64, HsaCode> {
        self.hsa(
            op,
            || format!("{size:#x}, {address:#x}, {alignment:#x}, {flags:#x}"),
            |sim, state| {
                nonzero(size)?;
                sim.vmem_supported()?;
                // The driver's checks (libhsakmt's hsaKmtAllocMemoryAlign):
                // ROCr tries twice, then answers OUT_OF_RESOURCES.
                let align = if alignment == 0 {
                    PAGE_BYTES
                } else {
                    alignment
                };
                if !align.is_power_of_two()
                    || align < PAGE_BYTES
                    || !size.is_multiple_of(PAGE_BYTES)
                {
                    return Err(HsaCode::OUT_OF_RESOURCES);
                }
                let base = state
                    .vmem
                    .place(address, size, align)
                    .ok_or(HsaCode::OUT_OF_RESOURCES)?;
                state.memory.reserve(base, size)?;
                state
                    .vmem
                    .reservations
                    .insert(base, Reservation { size, uses: 0 });
                state.vmem.next = state.vmem.next.max(base - VMEM_WINDOW_BASE + size);
                Ok(base)
            },
        )
    }

    /// `hsa_amd_vmem_address_free`.
    pub fn vmem_address_free(&self, va: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_address_free",
            || format!("{va:#x}, {size:#x}"),
            |_, state| {
                nonzero(va)?;
                nonzero(size)?;
                let r = state
                    .vmem
                    .reservations
                    .get(&va)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                if r.size != size {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                if r.uses > 0 {
                    return Err(HsaCode::RESOURCE_FREE);
                }
                state.vmem.reservations.remove(&va);
                state.memory.unreserve(va, size);
                Ok(())
            },
        )
    }

    /// `hsa_amd_vmem_handle_create`: `size` bytes of physical memory of
    /// `pool`, `memory_type` `MEMORY_TYPE_NONE` or `_PINNED`.
    pub fn vmem_handle_create(
        &self,
        pool: u64,
        size: u64,
        memory_type: u32,
        flags: u64,
    ) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_handle_create",
            || format!("{pool:#x}, {size:#x}, {memory_type}, {flags:#x}"),
            |sim, state| {
                nonzero(size)?;
                sim.vmem_supported()?;
                if memory_type != MEMORY_TYPE_NONE && memory_type != MEMORY_TYPE_PINNED {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let index = sim
                    .pool_index(pool)
                    .map_err(|_| HsaCode::INVALID_ARGUMENT)?;
                let (_, info) = sim.pool(pool).map_err(|_| HsaCode::INVALID_ARGUMENT)?;
                if !size.is_multiple_of(PAGE_BYTES) {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                if !info.alloc_allowed || size > info.alloc_max_size {
                    return Err(HsaCode::INVALID_ALLOCATION);
                }
                let id = handle(TAG_VMEM_HANDLE, state.serial());
                state.memory.create_physical(index, id, size, info.size)?;
                state.vmem.handles.insert(
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
            },
        )
    }

    /// `hsa_amd_vmem_handle_release`: drops a reference; the memory goes
    /// when no reference and no mapping is left.
    pub fn vmem_handle_release(&self, memory_handle: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_handle_release",
            || format!("{memory_handle:#x}"),
            |_, state| {
                let h = state
                    .vmem
                    .handles
                    .get_mut(&memory_handle)
                    .filter(|h| h.refs > 0)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                h.refs -= 1;
                release_if_unused(state, memory_handle);
                Ok(())
            },
        )
    }

    /// `hsa_amd_vmem_map`: the first `size` bytes of `memory_handle` at
    /// `va` (`in_offset` is ignored, as ROCr ignores it; `flags` are
    /// unused).
    pub fn vmem_map(
        &self,
        va: u64,
        size: u64,
        in_offset: u64,
        memory_handle: u64,
        flags: u64,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_map",
            || format!("{va:#x}, {size:#x}, {in_offset:#x}, {memory_handle:#x}, {flags:#x}"),
            |_, state| {
                nonzero(va)?;
                nonzero(size)?;
                let reservation = state
                    .vmem
                    .reservation_of(va, size)
                    .ok_or(HsaCode::INVALID_ARGUMENT)?;
                if state.memory.any_region_in(va, size) {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let h = state
                    .vmem
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
                state
                    .memory
                    .map_physical(va, size, memory_handle, reservation)?;
                if let Some(r) = state.vmem.reservations.get_mut(&reservation) {
                    r.uses += 1;
                }
                if let Some(h) = state.vmem.handles.get_mut(&memory_handle) {
                    h.uses += 1;
                }
                Ok(())
            },
        )
    }

    /// `hsa_amd_vmem_unmap` of the mapping at `va` (`size` its size).
    pub fn vmem_unmap(&self, va: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_unmap",
            || format!("{va:#x}, {size:#x}"),
            |_, state| {
                nonzero(va)?;
                nonzero(size)?;
                let (base, len) = state
                    .memory
                    .mapping_at(va, false)
                    .filter(|&(base, _)| base == va)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                if len != size {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let Some((_, RegionKind::Mapping { handle: id })) = state.memory.region_of(base)
                else {
                    return Err(HsaCode::INVALID_ALLOCATION);
                };
                state.memory.unmap_physical(base)?;
                if let Some(r) = state
                    .vmem
                    .reservation_of(base, len)
                    .and_then(|r| state.vmem.reservations.get_mut(&r))
                {
                    r.uses = r.uses.saturating_sub(1);
                }
                if let Some(h) = state.vmem.handles.get_mut(&id) {
                    h.uses = h.uses.saturating_sub(1);
                }
                release_if_unused(state, id);
                Ok(())
            },
        )
    }

    /// `hsa_amd_vmem_set_access`: each `(agent, permission)` of `access` on
    /// every mapping of `[va, va + size)` (mappings that follow one
    /// another from `va`).
    pub fn vmem_set_access(
        &self,
        va: u64,
        size: u64,
        access: &[(u64, u32)],
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_set_access",
            || format!("{va:#x}, {size:#x}, {access:x?}"),
            |sim, state| {
                nonzero(va)?;
                nonzero(size)?;
                nonzero(access.len() as u64)?;
                let agents = sim.access_agents(access)?;
                if state.vmem.reservation_of(va, size).is_none() {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let end = va.checked_add(size).ok_or(HsaCode::INVALID_ARGUMENT)?;
                let mappings = state.memory.mappings_from(va, end);
                let covered = mappings.last().map_or(va, |&(base, len)| base + len);
                if covered < end {
                    return Err(HsaCode::INVALID_ALLOCATION);
                }
                set_access(state, &mappings, &agents)
            },
        )
    }

    /// `hsa_amd_vmem_get_access`: `agent`'s permission on the mapping
    /// holding `va` (`HSA_ACCESS_PERMISSION_NONE` when none was set). As in
    /// ROCr, a mapping's end address counts as inside it, and only a GPU
    /// agent is asked about.
    pub fn vmem_get_access(&self, va: u64, agent: u64) -> Result<u32, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_get_access",
            || format!("{va:#x}, {agent:#x}"),
            |sim, state| {
                nonzero(va)?;
                let (base, _) = state
                    .memory
                    .mapping_at(va, true)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                let a = sim.agent(agent)?;
                if a.kind != AgentKind::Gpu {
                    return Err(HsaCode::INVALID_AGENT);
                }
                let index = sim.agent_index(agent)?;
                Ok(state.memory.mapping_access(base, index).unwrap_or(0))
            },
        )
    }

    /// `hsa_amd_vmem_retain_alloc_handle`: the handle mapped at `va`, with
    /// one more reference.
    pub fn vmem_retain_alloc_handle(&self, va: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_retain_alloc_handle",
            || format!("{va:#x}"),
            |_, state| {
                nonzero(va)?;
                let Some((base, RegionKind::Mapping { handle: id })) = state.memory.region_of(va)
                else {
                    return Err(HsaCode::INVALID_ALLOCATION);
                };
                if base != va {
                    return Err(HsaCode::INVALID_ALLOCATION);
                }
                let h = state
                    .vmem
                    .handles
                    .get_mut(&id)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                h.refs += 1;
                Ok(id)
            },
        )
    }

    /// `hsa_amd_vmem_get_alloc_properties_from_handle`: the pool's handle
    /// and the memory type.
    pub fn vmem_alloc_properties(&self, memory_handle: u64) -> Result<(u64, u32), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_get_alloc_properties_from_handle",
            || format!("{memory_handle:#x}"),
            |_, state| {
                let h = state
                    .vmem
                    .handles
                    .get(&memory_handle)
                    .ok_or(HsaCode::INVALID_ALLOCATION)?;
                let memory_type = if h.pinned {
                    MEMORY_TYPE_PINNED
                } else {
                    MEMORY_TYPE_NONE
                };
                Ok((handle(TAG_POOL, h.pool as u64 + 1), memory_type))
            },
        )
    }

    /// `hsa_amd_vmem_export_shareable_handle`: not modelled (no dma-buf):
    /// a live handle fails as ROCr fails when the driver cannot export it.
    pub fn vmem_export_shareable_handle(
        &self,
        memory_handle: u64,
        flags: u64,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_export_shareable_handle",
            || format!("{memory_handle:#x}, {flags:#x}"),
            |_, state| {
                if !state.vmem.handles.contains_key(&memory_handle) {
                    return Err(HsaCode::INVALID_ALLOCATION);
                }
                Err(HsaCode::OUT_OF_RESOURCES)
            },
        )
    }

    /// `hsa_amd_vmem_import_shareable_handle`: no handle is ever exported,
    /// so every descriptor is one the driver does not know
    /// (`INCOMPATIBLE_ARGUMENTS`, ROCr's answer).
    pub fn vmem_import_shareable_handle(&self, dmabuf_fd: i32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_import_shareable_handle",
            || format!("{dmabuf_fd}"),
            |_, _| {
                if dmabuf_fd < 0 {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                Err(HsaCode::INCOMPATIBLE_ARGUMENTS)
            },
        )
    }

    /// The agent indices of `access` (`INVALID_AGENT` for one that is none),
    /// with their permissions and whether each is a CPU.
    fn access_agents(&self, access: &[(u64, u32)]) -> Result<Vec<(usize, u32, bool)>, HsaCode> {
        access
            .iter()
            .map(|&(agent, permission)| {
                let index = self.agent_index(agent)?;
                let cpu = self.agent(agent)?.kind == AgentKind::Cpu;
                Ok((index, permission, cpu))
            })
            .collect()
    }

    /// `hsa_amd_agents_allow_access` on a virtual-memory address: read and
    /// write for `agents` on the mapping holding `ptr` and every mapping
    /// that follows it without a gap (ROCr's `VMemoryMapAllowAccess`).
    pub(crate) fn vmem_allow_access(
        &self,
        state: &mut State,
        agents: &[u64],
        ptr: u64,
    ) -> Result<(), HsaCode> {
        let access: Vec<(u64, u32)> = agents.iter().map(|&a| (a, PERMISSION_RW)).collect();
        let agents = self.access_agents(&access)?;
        let (base, _) = state
            .memory
            .mapping_at(ptr, false)
            .ok_or(HsaCode::INVALID_ALLOCATION)?;
        let mappings = state.memory.mappings_from(base, u64::MAX);
        set_access(state, &mappings, &agents)
    }

    /// The reservation holding `address`, as `(base, size)`.
    pub(crate) fn vmem_reservation_of(state: &State, address: u64) -> Option<(u64, u64)> {
        let base = state.vmem.reservation_of(address, 1)?;
        let size = state.vmem.reservations.get(&base)?.size;
        Some((base, size))
    }
}

/// Sets each agent's permission on each mapping (a CPU's is also what the
/// host may do there).
fn set_access(
    state: &mut State,
    mappings: &[(u64, u64)],
    agents: &[(usize, u32, bool)],
) -> Result<(), HsaCode> {
    for &(base, _) in mappings {
        for &(agent, permission, cpu) in agents {
            state
                .memory
                .set_mapping_access(base, agent, permission, cpu)?;
        }
    }
    Ok(())
}

/// Frees a handle with no reference and no mapping left.
fn release_if_unused(state: &mut State, id: u64) {
    let unused = state
        .vmem
        .handles
        .get(&id)
        .is_some_and(|h| h.refs == 0 && h.uses == 0);
    if unused && let Some(h) = state.vmem.handles.remove(&id) {
        state.memory.release_physical(h.pool, id, h.size);
    }
}
