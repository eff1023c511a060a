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
//!
//! The calls are here; `state::vmem`'s `VirtualMemory` holds the rules.

use crate::codes::HsaCode;
use crate::node::Sim;
use crate::state::vmem as rules;

impl Sim {
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
            |topology, state| {
                state
                    .vmem
                    .reserve(topology, &mut state.memory, size, address, alignment)
            },
        )
    }

    /// `hsa_amd_vmem_address_free`.
    pub fn vmem_address_free(&self, va: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_address_free",
            || format!("{va:#x}, {size:#x}"),
            |_, state| state.vmem.free(&mut state.memory, va, size),
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
            |topology, state| {
                state.vmem.create_handle(
                    topology,
                    &mut state.memory,
                    &mut state.serials,
                    pool,
                    size,
                    memory_type,
                )
            },
        )
    }

    /// `hsa_amd_vmem_handle_release`: drops a reference; the memory goes
    /// when no reference and no mapping is left.
    pub fn vmem_handle_release(&self, memory_handle: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_handle_release",
            || format!("{memory_handle:#x}"),
            |_, state| state.vmem.release_handle(&mut state.memory, memory_handle),
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
            |_, state| state.vmem.map(&mut state.memory, va, size, memory_handle),
        )
    }

    /// `hsa_amd_vmem_unmap` of the mapping at `va` (`size` its size).
    pub fn vmem_unmap(&self, va: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_unmap",
            || format!("{va:#x}, {size:#x}"),
            |_, state| state.vmem.unmap(&mut state.memory, va, size),
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
            |topology, state| {
                state
                    .vmem
                    .set_access(topology, &mut state.memory, va, size, access)
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
            |topology, state| rules::access_of(topology, &state.memory, va, agent),
        )
    }

    /// `hsa_amd_vmem_retain_alloc_handle`: the handle mapped at `va`, with
    /// one more reference.
    pub fn vmem_retain_alloc_handle(&self, va: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_retain_alloc_handle",
            || format!("{va:#x}"),
            |_, state| state.vmem.retain_handle(&state.memory, va),
        )
    }

    /// `hsa_amd_vmem_get_alloc_properties_from_handle`: the pool's handle
    /// and the memory type.
    pub fn vmem_alloc_properties(&self, memory_handle: u64) -> Result<(u64, u32), HsaCode> {
        self.hsa(
            "hsa_amd_vmem_get_alloc_properties_from_handle",
            || format!("{memory_handle:#x}"),
            |_, state| state.vmem.handle_properties(memory_handle),
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
            |_, state| state.vmem.export_handle(memory_handle),
        )
    }

    /// `hsa_amd_vmem_import_shareable_handle`: no handle is ever exported,
    /// so every descriptor is one the driver does not know
    /// (`INCOMPATIBLE_ARGUMENTS`, ROCr's answer).
    pub fn vmem_import_shareable_handle(&self, dmabuf_fd: i32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_vmem_import_shareable_handle",
            || format!("{dmabuf_fd}"),
            |_, _| rules::import_handle(dmabuf_fd),
        )
    }
}
