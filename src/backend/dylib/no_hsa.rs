//! The HSA half of a backend on a platform without HSA (HIP on NVIDIA):
//! every call answers `HSA_STATUS_ERROR_NOT_INITIALIZED`, what a runtime
//! whose `hsa_init` never succeeded answers, so HSA-walking code reports a
//! clear status instead of pretending there are agents.

use crate::backend::{
    Agent, CodeObjectReader, DevicePtr, DeviceType, Executable, ExecutableSymbol, GlobalFlags, Hsa,
    HsaResult, HsaStatus, Isa, LinkInfo, LoadedCodeObject, MemoryPool, PoolAccess, Profile,
    RoundingMode, Segment, SymbolKind,
};

const ABSENT: HsaStatus = HsaStatus::ErrorNotInitialized;

/// [`Hsa`] for a platform that has no HSA runtime.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHsa;

impl Hsa for NoHsa {
    fn init(&self) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn shut_down(&self) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn iterate_agents(&self) -> HsaResult<Vec<Agent>> {
        Err(ABSENT)
    }
    fn agent_device_type(&self, _agent: Agent) -> HsaResult<DeviceType> {
        Err(ABSENT)
    }
    fn agent_name(&self, _agent: Agent) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn agent_vendor_name(&self, _agent: Agent) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn agent_product_name(&self, _agent: Agent) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn agent_uuid(&self, _agent: Agent) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn agent_node(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_queues_max(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_wavefront_size(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_compute_unit_count(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_chip_id(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_bdf_id(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_domain(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_driver_uid(&self, _agent: Agent) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_nearest_cpu(&self, _agent: Agent) -> HsaResult<Agent> {
        Err(ABSENT)
    }
    fn agent_profile(&self, _agent: Agent) -> HsaResult<Profile> {
        Err(ABSENT)
    }
    fn agent_default_float_rounding_mode(&self, _agent: Agent) -> HsaResult<RoundingMode> {
        Err(ABSENT)
    }
    fn agent_iterate_isas(&self, _agent: Agent) -> HsaResult<Vec<Isa>> {
        Err(ABSENT)
    }
    fn isa_name_length(&self, _isa: Isa) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn isa_name(&self, _isa: Isa) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn isa_workgroup_max_size(&self, _isa: Isa) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn isa_workgroup_max_dim(&self, _isa: Isa) -> HsaResult<[u16; 3]> {
        Err(ABSENT)
    }
    fn agent_iterate_memory_pools(&self, _agent: Agent) -> HsaResult<Vec<MemoryPool>> {
        Err(ABSENT)
    }
    fn memory_pool_segment(&self, _pool: MemoryPool) -> HsaResult<Segment> {
        Err(ABSENT)
    }
    fn memory_pool_global_flags(&self, _pool: MemoryPool) -> HsaResult<GlobalFlags> {
        Err(ABSENT)
    }
    fn memory_pool_size(&self, _pool: MemoryPool) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn memory_pool_alloc_allowed(&self, _pool: MemoryPool) -> HsaResult<bool> {
        Err(ABSENT)
    }
    fn memory_pool_alloc_granule(&self, _pool: MemoryPool) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn memory_pool_alloc_alignment(&self, _pool: MemoryPool) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn memory_pool_accessible_by_all(&self, _pool: MemoryPool) -> HsaResult<bool> {
        Err(ABSENT)
    }
    fn memory_pool_alloc_max_size(&self, _pool: MemoryPool) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn agent_memory_pool_access(&self, _agent: Agent, _pool: MemoryPool) -> HsaResult<PoolAccess> {
        Err(ABSENT)
    }
    fn agent_memory_pool_num_link_hops(&self, _agent: Agent, _pool: MemoryPool) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn agent_memory_pool_link_info(
        &self,
        _agent: Agent,
        _pool: MemoryPool,
    ) -> HsaResult<Vec<LinkInfo>> {
        Err(ABSENT)
    }
    fn memory_pool_allocate(
        &self,
        _pool: MemoryPool,
        _size: u64,
        _flags: u32,
    ) -> HsaResult<DevicePtr> {
        Err(ABSENT)
    }
    fn memory_pool_free(&self, _ptr: DevicePtr) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn memory_copy_to_device(&self, _dst: DevicePtr, _src: &[u8]) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn memory_copy_from_device(&self, _dst: &mut [u8], _src: DevicePtr) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn memory_copy(&self, _dst: DevicePtr, _src: DevicePtr, _size: u64) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn agents_allow_access(&self, _agents: &[Agent], _ptr: DevicePtr) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn code_object_reader_create_from_memory(
        &self,
        _code_object: &[u8],
    ) -> HsaResult<CodeObjectReader> {
        Err(ABSENT)
    }
    fn code_object_reader_destroy(&self, _reader: CodeObjectReader) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn executable_create_alt(
        &self,
        _profile: Profile,
        _rounding_mode: RoundingMode,
    ) -> HsaResult<Executable> {
        Err(ABSENT)
    }
    fn executable_load_agent_code_object(
        &self,
        _executable: Executable,
        _agent: Agent,
        _reader: CodeObjectReader,
    ) -> HsaResult<LoadedCodeObject> {
        Err(ABSENT)
    }
    fn executable_freeze(&self, _executable: Executable) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn executable_destroy(&self, _executable: Executable) -> HsaResult<()> {
        Err(ABSENT)
    }
    fn executable_get_symbol_by_name(
        &self,
        _executable: Executable,
        _name: &str,
        _agent: Option<Agent>,
    ) -> HsaResult<ExecutableSymbol> {
        Err(ABSENT)
    }
    fn symbol_kind(&self, _symbol: ExecutableSymbol) -> HsaResult<SymbolKind> {
        Err(ABSENT)
    }
    fn symbol_name(&self, _symbol: ExecutableSymbol) -> HsaResult<String> {
        Err(ABSENT)
    }
    fn symbol_agent(&self, _symbol: ExecutableSymbol) -> HsaResult<Agent> {
        Err(ABSENT)
    }
    fn symbol_kernel_object(&self, _symbol: ExecutableSymbol) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn symbol_kernarg_segment_size(&self, _symbol: ExecutableSymbol) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn symbol_kernarg_segment_alignment(&self, _symbol: ExecutableSymbol) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn symbol_group_segment_size(&self, _symbol: ExecutableSymbol) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn symbol_private_segment_size(&self, _symbol: ExecutableSymbol) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn symbol_variable_address(&self, _symbol: ExecutableSymbol) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn symbol_variable_size(&self, _symbol: ExecutableSymbol) -> HsaResult<u32> {
        Err(ABSENT)
    }
    fn executable_iterate_loaded_code_objects(
        &self,
        _executable: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>> {
        Err(ABSENT)
    }
    fn loaded_code_object_agent(&self, _loaded: LoadedCodeObject) -> HsaResult<Agent> {
        Err(ABSENT)
    }
    fn loaded_code_object_load_base(&self, _loaded: LoadedCodeObject) -> HsaResult<u64> {
        Err(ABSENT)
    }
    fn loaded_code_object_load_delta(&self, _loaded: LoadedCodeObject) -> HsaResult<i64> {
        Err(ABSENT)
    }
    fn loaded_code_object_load_size(&self, _loaded: LoadedCodeObject) -> HsaResult<u64> {
        Err(ABSENT)
    }
}
