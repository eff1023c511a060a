//! The `Hsa` trait: the HSA runtime calls the HAL makes (core, `hsa_amd_*`
//! and the AMD loader extension), one method per C call and info attribute.
//!
//! Shapes follow the C API so that the real backend is a thin layer:
//! handles are the C handles, iteration callbacks become a `Vec` in the
//! runtime's own order (the order `hsa_iterate_agents` /
//! `hsa_agent_iterate_isas` visit, which for ISAs is priority order), and
//! every method returns the vendor status on failure.

use super::handles::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, Isa, LoadedCodeObject,
    MemoryPool,
};
use super::hsa_status::HsaStatus;
use super::hsa_types::{
    DeviceType, GlobalFlags, LinkInfo, PoolAccess, Profile, RoundingMode, Segment, SymbolKind,
};

/// Result of an HSA call.
pub type HsaResult<T> = Result<T, HsaStatus>;

/// The HSA runtime (libhsa-runtime64) as the HAL uses it.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Hsa: Send + Sync {
    // --- Runtime -----------------------------------------------------------

    /// `hsa_init`: takes a reference on the runtime.
    fn init(&self) -> HsaResult<()>;
    /// `hsa_shut_down`: drops a reference taken by `init`.
    fn shut_down(&self) -> HsaResult<()>;

    // --- Agents ------------------------------------------------------------

    /// `hsa_iterate_agents`: every agent, in the runtime's order.
    fn iterate_agents(&self) -> HsaResult<Vec<Agent>>;
    /// `HSA_AGENT_INFO_DEVICE`.
    fn agent_device_type(&self, agent: Agent) -> HsaResult<DeviceType>;
    /// `HSA_AGENT_INFO_NAME` (`char[64]`): `gfx942` for a GPU, the CPU model for a CPU.
    fn agent_name(&self, agent: Agent) -> HsaResult<String>;
    /// `HSA_AGENT_INFO_VENDOR_NAME` (`char[64]`).
    fn agent_vendor_name(&self, agent: Agent) -> HsaResult<String>;
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME` (`char[64]`): the marketing name.
    fn agent_product_name(&self, agent: Agent) -> HsaResult<String>;
    /// `HSA_AMD_AGENT_INFO_UUID` (`char[21]`): `GPU-<16 hex>` or `CPU-XX`.
    fn agent_uuid(&self, agent: Agent) -> HsaResult<String>;
    /// `HSA_AGENT_INFO_NODE`: the agent's NUMA node (KFD node id).
    fn agent_node(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AGENT_INFO_QUEUES_MAX`: hardware queues the agent supports (0 for CPUs).
    fn agent_queues_max(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE` (0 for CPUs).
    fn agent_wavefront_size(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT` (cores for a CPU).
    fn agent_compute_unit_count(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_CHIP_ID`: the PCI device id.
    fn agent_chip_id(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_BDFID`: PCI bus/device/function, `bus << 8 | dev << 3 | fn`.
    fn agent_bdf_id(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_DOMAIN`: the PCI domain.
    fn agent_domain(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_DRIVER_UID`: the KFD's unique id of the device.
    fn agent_driver_uid(&self, agent: Agent) -> HsaResult<u32>;
    /// `HSA_AMD_AGENT_INFO_NEAREST_CPU` (ROCm 6.2+): the CPU agent a GPU hangs
    /// off (its host NUMA node is that agent's `agent_node`); a CPU returns itself.
    ///
    /// The default answers as a runtime without the attribute does
    /// (`HSA_STATUS_ERROR_INVALID_ARGUMENT`).
    fn agent_nearest_cpu(&self, agent: Agent) -> HsaResult<Agent> {
        let _ = agent;
        Err(HsaStatus::ErrorInvalidArgument)
    }
    /// `HSA_AGENT_INFO_PROFILE`.
    fn agent_profile(&self, agent: Agent) -> HsaResult<Profile>;
    /// `HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE`.
    fn agent_default_float_rounding_mode(&self, agent: Agent) -> HsaResult<RoundingMode>;

    // --- ISAs --------------------------------------------------------------

    /// `hsa_agent_iterate_isas`: the agent's ISAs in priority order.
    fn agent_iterate_isas(&self, agent: Agent) -> HsaResult<Vec<Isa>>;
    /// `hsa_isa_get_info_alt(HSA_ISA_INFO_NAME_LENGTH)`: the name's length including its NUL.
    fn isa_name_length(&self, isa: Isa) -> HsaResult<u32>;
    /// `hsa_isa_get_info_alt(HSA_ISA_INFO_NAME)`, e.g. `amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`.
    fn isa_name(&self, isa: Isa) -> HsaResult<String>;
    /// `hsa_isa_get_info_alt(HSA_ISA_INFO_WORKGROUP_MAX_SIZE)`.
    fn isa_workgroup_max_size(&self, isa: Isa) -> HsaResult<u32>;
    /// `hsa_isa_get_info_alt(HSA_ISA_INFO_WORKGROUP_MAX_DIM)` (`uint16_t[3]`).
    fn isa_workgroup_max_dim(&self, isa: Isa) -> HsaResult<[u16; 3]>;

    // --- Memory pools ------------------------------------------------------

    /// `hsa_amd_agent_iterate_memory_pools`: the agent's pools in the runtime's order.
    fn agent_iterate_memory_pools(&self, agent: Agent) -> HsaResult<Vec<MemoryPool>>;
    /// `HSA_AMD_MEMORY_POOL_INFO_SEGMENT`.
    fn memory_pool_segment(&self, pool: MemoryPool) -> HsaResult<Segment>;
    /// `HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS` (global segment only).
    fn memory_pool_global_flags(&self, pool: MemoryPool) -> HsaResult<GlobalFlags>;
    /// `HSA_AMD_MEMORY_POOL_INFO_SIZE` (bytes).
    fn memory_pool_size(&self, pool: MemoryPool) -> HsaResult<u64>;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED`.
    fn memory_pool_alloc_allowed(&self, pool: MemoryPool) -> HsaResult<bool>;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE` (bytes).
    fn memory_pool_alloc_granule(&self, pool: MemoryPool) -> HsaResult<u64>;
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT` (bytes).
    fn memory_pool_alloc_alignment(&self, pool: MemoryPool) -> HsaResult<u64>;
    /// `HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL`.
    fn memory_pool_accessible_by_all(&self, pool: MemoryPool) -> HsaResult<bool>;
    /// `HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE` (bytes).
    fn memory_pool_alloc_max_size(&self, pool: MemoryPool) -> HsaResult<u64>;
    /// `hsa_amd_agent_memory_pool_get_info(HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS)`.
    fn agent_memory_pool_access(&self, agent: Agent, pool: MemoryPool) -> HsaResult<PoolAccess>;
    /// `hsa_amd_agent_memory_pool_get_info(HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS)`.
    fn agent_memory_pool_num_link_hops(&self, agent: Agent, pool: MemoryPool) -> HsaResult<u32>;
    /// `hsa_amd_agent_memory_pool_get_info(HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO)`:
    /// one entry per hop (`num_link_hops` of them; empty for the agent's own pool).
    fn agent_memory_pool_link_info(
        &self,
        agent: Agent,
        pool: MemoryPool,
    ) -> HsaResult<Vec<LinkInfo>>;

    // --- Memory ------------------------------------------------------------

    /// `hsa_amd_memory_pool_allocate(pool, size, flags, &ptr)`.
    fn memory_pool_allocate(&self, pool: MemoryPool, size: u64, flags: u32)
    -> HsaResult<DevicePtr>;
    /// `hsa_amd_memory_pool_free(ptr)`.
    fn memory_pool_free(&self, ptr: DevicePtr) -> HsaResult<()>;
    /// `hsa_memory_copy(dst, src, src.len())` from host memory to device memory.
    fn memory_copy_to_device(&self, dst: DevicePtr, src: &[u8]) -> HsaResult<()>;
    /// `hsa_memory_copy(dst, src, dst.len())` from device memory to host memory.
    fn memory_copy_from_device(&self, dst: &mut [u8], src: DevicePtr) -> HsaResult<()>;
    /// `hsa_memory_copy(dst, src, size)` between two device allocations.
    fn memory_copy(&self, dst: DevicePtr, src: DevicePtr, size: u64) -> HsaResult<()>;
    /// `hsa_amd_agents_allow_access(agents, NULL, ptr)`: lets `agents` reach
    /// an allocation of a pool that is `DisallowedByDefault` for them.
    fn agents_allow_access(&self, agents: &[Agent], ptr: DevicePtr) -> HsaResult<()>;

    // --- Code objects and executables --------------------------------------

    /// `hsa_code_object_reader_create_from_memory`. The runtime reads the
    /// bytes lazily, so the backend keeps its own copy until `destroy`.
    fn code_object_reader_create_from_memory(
        &self,
        code_object: &[u8],
    ) -> HsaResult<CodeObjectReader>;
    /// `hsa_code_object_reader_destroy`.
    fn code_object_reader_destroy(&self, reader: CodeObjectReader) -> HsaResult<()>;
    /// `hsa_executable_create_alt(profile, rounding_mode, options = NULL)`.
    fn executable_create_alt(
        &self,
        profile: Profile,
        rounding_mode: RoundingMode,
    ) -> HsaResult<Executable>;
    /// `hsa_executable_load_agent_code_object(executable, agent, reader, options = NULL, &loaded)`.
    fn executable_load_agent_code_object(
        &self,
        executable: Executable,
        agent: Agent,
        reader: CodeObjectReader,
    ) -> HsaResult<LoadedCodeObject>;
    /// `hsa_executable_freeze(executable, options = NULL)`.
    fn executable_freeze(&self, executable: Executable) -> HsaResult<()>;
    /// `hsa_executable_destroy`.
    fn executable_destroy(&self, executable: Executable) -> HsaResult<()>;
    /// `hsa_executable_get_symbol_by_name(executable, name, agent)`; `agent`
    /// is `None` for program-scope (agent-independent) symbols.
    fn executable_get_symbol_by_name(
        &self,
        executable: Executable,
        name: &str,
        agent: Option<Agent>,
    ) -> HsaResult<ExecutableSymbol>;

    // --- Symbol info -------------------------------------------------------

    /// `HSA_EXECUTABLE_SYMBOL_INFO_TYPE`.
    fn symbol_kind(&self, symbol: ExecutableSymbol) -> HsaResult<SymbolKind>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME` (with its `.kd` suffix for kernels).
    fn symbol_name(&self, symbol: ExecutableSymbol) -> HsaResult<String>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_AGENT`.
    fn symbol_agent(&self, symbol: ExecutableSymbol) -> HsaResult<Agent>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`: the kernel descriptor's device address.
    fn symbol_kernel_object(&self, symbol: ExecutableSymbol) -> HsaResult<u64>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE` (bytes).
    fn symbol_kernarg_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT` (bytes).
    fn symbol_kernarg_segment_alignment(&self, symbol: ExecutableSymbol) -> HsaResult<u32>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE` (bytes of LDS).
    fn symbol_group_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE` (bytes of scratch per work-item).
    fn symbol_private_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS`.
    fn symbol_variable_address(&self, symbol: ExecutableSymbol) -> HsaResult<u64>;
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE` (bytes).
    fn symbol_variable_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32>;

    // --- AMD loader extension ----------------------------------------------

    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`, in load order.
    fn executable_iterate_loaded_code_objects(
        &self,
        executable: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>>;
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT`.
    fn loaded_code_object_agent(&self, loaded: LoadedCodeObject) -> HsaResult<Agent>;
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE`: where the code object was placed.
    fn loaded_code_object_load_base(&self, loaded: LoadedCodeObject) -> HsaResult<u64>;
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA`: load base minus the ELF's lowest vaddr.
    fn loaded_code_object_load_delta(&self, loaded: LoadedCodeObject) -> HsaResult<i64>;
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE` (bytes of the loaded image).
    fn loaded_code_object_load_size(&self, loaded: LoadedCodeObject) -> HsaResult<u64>;
}
