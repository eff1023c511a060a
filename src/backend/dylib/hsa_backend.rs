//! [`Hsa`] over the real `libhsa-runtime64` ([`HsaLibrary`]): the trait's
//! typed values built from the C attributes; a value outside a C enum is
//! `HSA_STATUS_ERROR` (the runtime broke its own contract).

use super::hsa::{HsaCall, HsaLibrary};
use super::hsa_ffi::*;
use crate::backend::{
    Agent, CodeObjectReader, DevicePtr, DeviceType, Executable, ExecutableSymbol, GlobalFlags, Hsa,
    HsaResult, HsaStatus, Isa, LinkInfo, LinkType, LoadedCodeObject, MemoryPool, PoolAccess,
    Profile, RoundingMode, Segment, SymbolKind,
};

fn status(raw: hsa_status_t) -> HsaStatus {
    HsaStatus::from_raw(raw).unwrap_or(HsaStatus::Error)
}

fn typed<T>(call: HsaCall<T>) -> HsaResult<T> {
    call.map_err(status)
}

fn known<T>(value: Option<T>) -> HsaResult<T> {
    value.ok_or(HsaStatus::Error)
}

fn agent(agent: Agent) -> hsa_agent_t {
    hsa_agent_t { handle: agent.0 }
}

fn pool(pool: MemoryPool) -> hsa_amd_memory_pool_t {
    hsa_amd_memory_pool_t { handle: pool.0 }
}

fn symbol(symbol: ExecutableSymbol) -> hsa_executable_symbol_t {
    hsa_executable_symbol_t { handle: symbol.0 }
}

fn loaded(loaded: LoadedCodeObject) -> hsa_loaded_code_object_t {
    hsa_loaded_code_object_t { handle: loaded.0 }
}

impl Hsa for HsaLibrary {
    fn init(&self) -> HsaResult<()> {
        typed(HsaLibrary::init(self))
    }
    fn shut_down(&self) -> HsaResult<()> {
        typed(HsaLibrary::shut_down(self))
    }
    fn iterate_agents(&self) -> HsaResult<Vec<Agent>> {
        Ok(typed(HsaLibrary::iterate_agents(self))?
            .into_iter()
            .map(|a| Agent(a.handle))
            .collect())
    }
    fn agent_device_type(&self, a: Agent) -> HsaResult<DeviceType> {
        Ok(DeviceType::from_raw(typed(
            self.agent_info_u32(agent(a), agent_info::DEVICE),
        )?))
    }
    fn agent_name(&self, a: Agent) -> HsaResult<String> {
        typed(self.agent_info_string(agent(a), agent_info::NAME))
    }
    fn agent_vendor_name(&self, a: Agent) -> HsaResult<String> {
        typed(self.agent_info_string(agent(a), agent_info::VENDOR_NAME))
    }
    fn agent_product_name(&self, a: Agent) -> HsaResult<String> {
        typed(self.agent_info_string(agent(a), agent_info::AMD_PRODUCT_NAME))
    }
    fn agent_uuid(&self, a: Agent) -> HsaResult<String> {
        typed(self.agent_info_string(agent(a), agent_info::AMD_UUID))
    }
    fn agent_node(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::NODE))
    }
    fn agent_queues_max(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::QUEUES_MAX))
    }
    fn agent_wavefront_size(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::WAVEFRONT_SIZE))
    }
    fn agent_compute_unit_count(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::AMD_COMPUTE_UNIT_COUNT))
    }
    fn agent_chip_id(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::AMD_CHIP_ID))
    }
    fn agent_bdf_id(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::AMD_BDFID))
    }
    fn agent_domain(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::AMD_DOMAIN))
    }
    fn agent_driver_uid(&self, a: Agent) -> HsaResult<u32> {
        typed(self.agent_info_u32(agent(a), agent_info::AMD_DRIVER_UID))
    }
    fn agent_nearest_cpu(&self, a: Agent) -> HsaResult<Agent> {
        typed(HsaLibrary::agent_nearest_cpu(self, agent(a))).map(|cpu| Agent(cpu.handle))
    }
    fn agent_profile(&self, a: Agent) -> HsaResult<Profile> {
        known(Profile::from_raw(typed(
            self.agent_info_u32(agent(a), agent_info::PROFILE),
        )?))
    }
    fn agent_default_float_rounding_mode(&self, a: Agent) -> HsaResult<RoundingMode> {
        let raw = typed(self.agent_info_u32(agent(a), agent_info::DEFAULT_FLOAT_ROUNDING_MODE))?;
        known(RoundingMode::from_raw(raw))
    }
    fn agent_iterate_isas(&self, a: Agent) -> HsaResult<Vec<Isa>> {
        Ok(typed(HsaLibrary::agent_iterate_isas(self, agent(a)))?
            .into_iter()
            .map(|i| Isa(i.handle))
            .collect())
    }
    fn isa_name_length(&self, isa: Isa) -> HsaResult<u32> {
        typed(self.isa_info_u32(hsa_isa_t { handle: isa.0 }, isa_info::NAME_LENGTH))
    }
    fn isa_name(&self, isa: Isa) -> HsaResult<String> {
        typed(HsaLibrary::isa_name(self, hsa_isa_t { handle: isa.0 }))
    }
    fn isa_workgroup_max_size(&self, isa: Isa) -> HsaResult<u32> {
        typed(self.isa_info_u32(hsa_isa_t { handle: isa.0 }, isa_info::WORKGROUP_MAX_SIZE))
    }
    fn isa_workgroup_max_dim(&self, isa: Isa) -> HsaResult<[u16; 3]> {
        typed(HsaLibrary::isa_workgroup_max_dim(
            self,
            hsa_isa_t { handle: isa.0 },
        ))
    }
    fn agent_iterate_memory_pools(&self, a: Agent) -> HsaResult<Vec<MemoryPool>> {
        let pools = typed(HsaLibrary::agent_iterate_memory_pools(self, agent(a)))?;
        Ok(pools.into_iter().map(|p| MemoryPool(p.handle)).collect())
    }
    fn memory_pool_segment(&self, p: MemoryPool) -> HsaResult<Segment> {
        known(Segment::from_raw(typed(
            self.pool_info_u32(pool(p), pool_info::SEGMENT),
        )?))
    }
    fn memory_pool_global_flags(&self, p: MemoryPool) -> HsaResult<GlobalFlags> {
        Ok(GlobalFlags::from_bits_retain(typed(
            self.pool_info_u32(pool(p), pool_info::GLOBAL_FLAGS),
        )?))
    }
    fn memory_pool_size(&self, p: MemoryPool) -> HsaResult<u64> {
        typed(self.pool_info_size(pool(p), pool_info::SIZE))
    }
    fn memory_pool_alloc_allowed(&self, p: MemoryPool) -> HsaResult<bool> {
        typed(self.pool_info_bool(pool(p), pool_info::RUNTIME_ALLOC_ALLOWED))
    }
    fn memory_pool_alloc_granule(&self, p: MemoryPool) -> HsaResult<u64> {
        typed(self.pool_info_size(pool(p), pool_info::RUNTIME_ALLOC_GRANULE))
    }
    fn memory_pool_alloc_alignment(&self, p: MemoryPool) -> HsaResult<u64> {
        typed(self.pool_info_size(pool(p), pool_info::RUNTIME_ALLOC_ALIGNMENT))
    }
    fn memory_pool_accessible_by_all(&self, p: MemoryPool) -> HsaResult<bool> {
        typed(self.pool_info_bool(pool(p), pool_info::ACCESSIBLE_BY_ALL))
    }
    fn memory_pool_alloc_max_size(&self, p: MemoryPool) -> HsaResult<u64> {
        typed(self.pool_info_size(pool(p), pool_info::ALLOC_MAX_SIZE))
    }
    fn agent_memory_pool_access(&self, a: Agent, p: MemoryPool) -> HsaResult<PoolAccess> {
        let raw = typed(self.agent_pool_info_u32(agent(a), pool(p), agent_pool_info::ACCESS))?;
        known(PoolAccess::from_raw(raw))
    }
    fn agent_memory_pool_num_link_hops(&self, a: Agent, p: MemoryPool) -> HsaResult<u32> {
        typed(self.agent_pool_info_u32(agent(a), pool(p), agent_pool_info::NUM_LINK_HOPS))
    }
    fn agent_memory_pool_link_info(&self, a: Agent, p: MemoryPool) -> HsaResult<Vec<LinkInfo>> {
        let hops = typed(self.agent_pool_link_info(agent(a), pool(p)))?;
        Ok(hops
            .into_iter()
            .map(|hop| LinkInfo {
                min_latency: hop.min_latency,
                max_latency: hop.max_latency,
                min_bandwidth: hop.min_bandwidth,
                max_bandwidth: hop.max_bandwidth,
                atomic_support_32bit: hop.atomic_support_32bit,
                atomic_support_64bit: hop.atomic_support_64bit,
                coherent_support: hop.coherent_support,
                link_type: LinkType::from_raw(hop.link_type),
                numa_distance: hop.numa_distance,
            })
            .collect())
    }
    fn memory_pool_allocate(&self, p: MemoryPool, size: u64, flags: u32) -> HsaResult<DevicePtr> {
        typed(HsaLibrary::memory_pool_allocate(self, pool(p), size, flags)).map(DevicePtr)
    }
    fn memory_pool_free(&self, ptr: DevicePtr) -> HsaResult<()> {
        typed(HsaLibrary::memory_pool_free(self, ptr.0))
    }
    fn memory_copy_to_device(&self, dst: DevicePtr, src: &[u8]) -> HsaResult<()> {
        typed(HsaLibrary::memory_copy_to_device(self, dst.0, src))
    }
    fn memory_copy_from_device(&self, dst: &mut [u8], src: DevicePtr) -> HsaResult<()> {
        typed(HsaLibrary::memory_copy_from_device(self, dst, src.0))
    }
    fn memory_copy(&self, dst: DevicePtr, src: DevicePtr, size: u64) -> HsaResult<()> {
        typed(HsaLibrary::memory_copy(self, dst.0, src.0, size))
    }
    fn agents_allow_access(&self, agents: &[Agent], ptr: DevicePtr) -> HsaResult<()> {
        let agents: Vec<hsa_agent_t> = agents.iter().map(|&a| agent(a)).collect();
        typed(HsaLibrary::agents_allow_access(self, &agents, ptr.0))
    }
    fn code_object_reader_create_from_memory(
        &self,
        code_object: &[u8],
    ) -> HsaResult<CodeObjectReader> {
        typed(self.code_object_reader_create(code_object)).map(|r| CodeObjectReader(r.handle))
    }
    fn code_object_reader_destroy(&self, reader: CodeObjectReader) -> HsaResult<()> {
        typed(HsaLibrary::code_object_reader_destroy(
            self,
            hsa_code_object_reader_t { handle: reader.0 },
        ))
    }
    fn executable_create_alt(
        &self,
        profile: Profile,
        rounding_mode: RoundingMode,
    ) -> HsaResult<Executable> {
        typed(HsaLibrary::executable_create_alt(
            self,
            profile.raw(),
            rounding_mode.raw(),
        ))
        .map(|e| Executable(e.handle))
    }
    fn executable_load_agent_code_object(
        &self,
        executable: Executable,
        a: Agent,
        reader: CodeObjectReader,
    ) -> HsaResult<LoadedCodeObject> {
        typed(HsaLibrary::executable_load_agent_code_object(
            self,
            hsa_executable_t {
                handle: executable.0,
            },
            agent(a),
            hsa_code_object_reader_t { handle: reader.0 },
        ))
        .map(|l| LoadedCodeObject(l.handle))
    }
    fn executable_freeze(&self, executable: Executable) -> HsaResult<()> {
        typed(HsaLibrary::executable_freeze(
            self,
            hsa_executable_t {
                handle: executable.0,
            },
        ))
    }
    fn executable_destroy(&self, executable: Executable) -> HsaResult<()> {
        typed(HsaLibrary::executable_destroy(
            self,
            hsa_executable_t {
                handle: executable.0,
            },
        ))
    }
    fn executable_get_symbol_by_name(
        &self,
        executable: Executable,
        name: &str,
        a: Option<Agent>,
    ) -> HsaResult<ExecutableSymbol> {
        typed(HsaLibrary::executable_get_symbol_by_name(
            self,
            hsa_executable_t {
                handle: executable.0,
            },
            name,
            a.map(agent),
        ))
        .map(|s| ExecutableSymbol(s.handle))
    }
    fn symbol_kind(&self, s: ExecutableSymbol) -> HsaResult<SymbolKind> {
        known(SymbolKind::from_raw(typed(
            self.symbol_info_u32(symbol(s), symbol_info::TYPE),
        )?))
    }
    fn symbol_name(&self, s: ExecutableSymbol) -> HsaResult<String> {
        typed(HsaLibrary::symbol_name(self, symbol(s)))
    }
    fn symbol_agent(&self, s: ExecutableSymbol) -> HsaResult<Agent> {
        typed(self.symbol_info_u64(symbol(s), symbol_info::AGENT)).map(Agent)
    }
    fn symbol_kernel_object(&self, s: ExecutableSymbol) -> HsaResult<u64> {
        typed(self.symbol_info_u64(symbol(s), symbol_info::KERNEL_OBJECT))
    }
    fn symbol_kernarg_segment_size(&self, s: ExecutableSymbol) -> HsaResult<u32> {
        typed(self.symbol_info_u32(symbol(s), symbol_info::KERNARG_SEGMENT_SIZE))
    }
    fn symbol_kernarg_segment_alignment(&self, s: ExecutableSymbol) -> HsaResult<u32> {
        typed(self.symbol_info_u32(symbol(s), symbol_info::KERNARG_SEGMENT_ALIGNMENT))
    }
    fn symbol_group_segment_size(&self, s: ExecutableSymbol) -> HsaResult<u32> {
        typed(self.symbol_info_u32(symbol(s), symbol_info::GROUP_SEGMENT_SIZE))
    }
    fn symbol_private_segment_size(&self, s: ExecutableSymbol) -> HsaResult<u32> {
        typed(self.symbol_info_u32(symbol(s), symbol_info::PRIVATE_SEGMENT_SIZE))
    }
    fn symbol_variable_address(&self, s: ExecutableSymbol) -> HsaResult<u64> {
        typed(self.symbol_info_u64(symbol(s), symbol_info::VARIABLE_ADDRESS))
    }
    fn symbol_variable_size(&self, s: ExecutableSymbol) -> HsaResult<u32> {
        typed(self.symbol_info_u32(symbol(s), symbol_info::VARIABLE_SIZE))
    }
    fn executable_iterate_loaded_code_objects(
        &self,
        executable: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>> {
        let all = typed(HsaLibrary::executable_iterate_loaded_code_objects(
            self,
            hsa_executable_t {
                handle: executable.0,
            },
        ))?;
        Ok(all
            .into_iter()
            .map(|l| LoadedCodeObject(l.handle))
            .collect())
    }
    fn loaded_code_object_agent(&self, l: LoadedCodeObject) -> HsaResult<Agent> {
        typed(self.loaded_code_object_info_u64(loaded(l), loaded_code_object_info::AGENT))
            .map(Agent)
    }
    fn loaded_code_object_load_base(&self, l: LoadedCodeObject) -> HsaResult<u64> {
        typed(self.loaded_code_object_info_u64(loaded(l), loaded_code_object_info::LOAD_BASE))
    }
    fn loaded_code_object_load_delta(&self, l: LoadedCodeObject) -> HsaResult<i64> {
        // `int64_t` read through the same 8 bytes.
        typed(self.loaded_code_object_info_u64(loaded(l), loaded_code_object_info::LOAD_DELTA))
            .map(|v| v as i64)
    }
    fn loaded_code_object_load_size(&self, l: LoadedCodeObject) -> HsaResult<u64> {
        typed(self.loaded_code_object_info_u64(loaded(l), loaded_code_object_info::LOAD_SIZE))
    }
}
