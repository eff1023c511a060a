//! The typed HSA queries, written once over the [`Hsa`] C calls: each is
//! one `*_get_info` call (two for the counted attributes: the count, then
//! the value, as a C client asks) decoded from its C layout. Every [`Hsa`]
//! has them ([`HsaExt`] is implemented for all), so the real runtime, the
//! simulator and the tests' mocks answer the same questions the same way.
//!
//! A value outside its C enum is `HSA_STATUS_ERROR` (the runtime broke its
//! own contract); a name or link list longer than [`MAX_NAME_LENGTH`] /
//! [`MAX_LINK_HOPS`] is `HSA_STATUS_ERROR` too, before it is read.

use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};
use amdgpu_sys::hsa_types::LINK_INFO_SIZE;

use super::handles::{Agent, ExecutableSymbol, Isa, LoadedCodeObject, MemoryPool};
use super::hsa::{Hsa, HsaResult};
use super::hsa_status::HsaStatus;
use super::hsa_types::{
    DeviceType, GlobalFlags, LinkInfo, PoolAccess, Profile, RoundingMode, Segment, SymbolKind,
};

/// Longest ISA or symbol name read (bytes, NUL included).
pub const MAX_NAME_LENGTH: u32 = 4096;
/// Most link hops read for one agent–pool pair.
pub const MAX_LINK_HOPS: u32 = 64;

/// `N` bytes of an answer from `query`.
fn read<const N: usize>(query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<[u8; N]> {
    let mut out = [0u8; N];
    query(&mut out)?;
    Ok(out)
}

fn u32_of(query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<u32> {
    read(query).map(u32::from_ne_bytes)
}

fn u64_of(query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<u64> {
    read(query).map(u64::from_ne_bytes)
}

/// A `size_t` answer.
fn size_of_answer(query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<u64> {
    read(query).map(|b| usize::from_ne_bytes(b) as u64)
}

/// A C `bool` answer: one byte, any nonzero is true.
fn bool_of(query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<bool> {
    read::<1>(query).map(|[b]| b != 0)
}

/// A value of a C enum, `HSA_STATUS_ERROR` outside it.
fn known<T>(value: Option<T>) -> HsaResult<T> {
    value.ok_or(HsaStatus::Error)
}

/// A NUL-terminated (or full) `char` buffer as text, lossy.
fn text_of(buffer: &[u8]) -> String {
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(buffer.get(..end).unwrap_or_default()).into_owned()
}

/// A counted name: `length` from its length attribute (bounded), then the
/// name into a buffer one byte longer (do not rely on a NUL).
fn name_of(length: u32, query: impl FnOnce(&mut [u8]) -> HsaResult<()>) -> HsaResult<String> {
    if length > MAX_NAME_LENGTH {
        return Err(HsaStatus::Error);
    }
    let mut buffer = vec![0u8; length as usize + 1];
    query(&mut buffer)?;
    Ok(text_of(&buffer))
}

/// One `hsa_amd_memory_pool_link_info_t` read from its C layout.
fn link_of(hop: &[u8]) -> LinkInfo {
    let word = |at: usize| {
        hop.get(at..)
            .and_then(<[u8]>::first_chunk::<4>)
            .map_or(0, |b| u32::from_ne_bytes(*b))
    };
    let flag = |at: usize| hop.get(at).is_some_and(|&b| b != 0);
    LinkInfo {
        min_latency: word(0),
        max_latency: word(4),
        min_bandwidth: word(8),
        max_bandwidth: word(12),
        atomic_support_32bit: flag(16),
        atomic_support_64bit: flag(17),
        coherent_support: flag(18),
        link_type: word(20),
        numa_distance: word(24),
    }
}

/// The typed queries of every [`Hsa`] (module docs). Bring it into scope to
/// call them: `use amdgpu_hal::backend::HsaExt;`.
pub trait HsaExt: Hsa {
    // --- Agents ------------------------------------------------------------

    /// `HSA_AGENT_INFO_DEVICE`.
    fn agent_device_type(&self, agent: Agent) -> HsaResult<DeviceType> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::Device, out)).map(DeviceType::from_raw)
    }
    /// `HSA_AGENT_INFO_NAME`: `gfx942` for a GPU, the CPU model for a CPU.
    fn agent_name(&self, agent: Agent) -> HsaResult<String> {
        read::<64>(|out| self.agent_get_info(agent, AgentInfo::Name, out)).map(|b| text_of(&b))
    }
    /// `HSA_AGENT_INFO_VENDOR_NAME`.
    fn agent_vendor_name(&self, agent: Agent) -> HsaResult<String> {
        read::<64>(|out| self.agent_get_info(agent, AgentInfo::VendorName, out))
            .map(|b| text_of(&b))
    }
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME`: the marketing name.
    fn agent_product_name(&self, agent: Agent) -> HsaResult<String> {
        read::<64>(|out| self.agent_get_info(agent, AgentInfo::ProductName, out))
            .map(|b| text_of(&b))
    }
    /// `HSA_AMD_AGENT_INFO_UUID`: `GPU-<16 hex>` or `CPU-XX`.
    fn agent_uuid(&self, agent: Agent) -> HsaResult<String> {
        read::<21>(|out| self.agent_get_info(agent, AgentInfo::Uuid, out)).map(|b| text_of(&b))
    }
    /// `HSA_AGENT_INFO_NODE`: the agent's NUMA node (KFD node id).
    fn agent_node(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::Node, out))
    }
    /// `HSA_AGENT_INFO_QUEUES_MAX`: hardware queues the agent supports (0 for CPUs).
    fn agent_queues_max(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::QueuesMax, out))
    }
    /// `HSA_AGENT_INFO_WAVEFRONT_SIZE` (0 for CPUs).
    fn agent_wavefront_size(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::WavefrontSize, out))
    }
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT` (cores for a CPU).
    fn agent_compute_unit_count(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::ComputeUnitCount, out))
    }
    /// `HSA_AMD_AGENT_INFO_CHIP_ID`: the PCI device id.
    fn agent_chip_id(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::ChipId, out))
    }
    /// `HSA_AMD_AGENT_INFO_BDFID`: PCI bus/device/function, `bus << 8 | dev << 3 | fn`.
    fn agent_bdf_id(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::BdfId, out))
    }
    /// `HSA_AMD_AGENT_INFO_DOMAIN`: the PCI domain.
    fn agent_domain(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::Domain, out))
    }
    /// `HSA_AMD_AGENT_INFO_DRIVER_UID`: the KFD's unique id of the device.
    fn agent_driver_uid(&self, agent: Agent) -> HsaResult<u32> {
        u32_of(|out| self.agent_get_info(agent, AgentInfo::DriverUid, out))
    }
    /// `HSA_AMD_AGENT_INFO_NEAREST_CPU` (ROCm 6.2+): the CPU agent a GPU hangs
    /// off (its host NUMA node is that agent's `agent_node`); a CPU returns
    /// itself. A runtime without the attribute answers
    /// `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
    fn agent_nearest_cpu(&self, agent: Agent) -> HsaResult<Agent> {
        u64_of(|out| self.agent_get_info(agent, AgentInfo::NearestCpu, out)).map(Agent)
    }
    /// `HSA_AGENT_INFO_PROFILE`.
    fn agent_profile(&self, agent: Agent) -> HsaResult<Profile> {
        known(Profile::from_raw(u32_of(|out| {
            self.agent_get_info(agent, AgentInfo::Profile, out)
        })?))
    }
    /// `HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE`.
    fn agent_default_float_rounding_mode(&self, agent: Agent) -> HsaResult<RoundingMode> {
        known(RoundingMode::from_raw(u32_of(|out| {
            self.agent_get_info(agent, AgentInfo::DefaultFloatRoundingMode, out)
        })?))
    }

    // --- ISAs --------------------------------------------------------------

    /// `HSA_ISA_INFO_NAME_LENGTH`: the name's length including its NUL.
    fn isa_name_length(&self, isa: Isa) -> HsaResult<u32> {
        u32_of(|out| self.isa_get_info_alt(isa, IsaInfo::NameLength, out))
    }
    /// `HSA_ISA_INFO_NAME`, e.g. `amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`,
    /// sized by its length attribute (asked first).
    fn isa_name(&self, isa: Isa) -> HsaResult<String> {
        let length = self.isa_name_length(isa)?;
        self.isa_name_of_length(isa, length)
    }
    /// `HSA_ISA_INFO_NAME` for a caller that already asked
    /// `HSA_ISA_INFO_NAME_LENGTH` (`length`, NUL included).
    fn isa_name_of_length(&self, isa: Isa, length: u32) -> HsaResult<String> {
        name_of(length, |out| self.isa_get_info_alt(isa, IsaInfo::Name, out))
    }
    /// `HSA_ISA_INFO_WORKGROUP_MAX_SIZE`.
    fn isa_workgroup_max_size(&self, isa: Isa) -> HsaResult<u32> {
        u32_of(|out| self.isa_get_info_alt(isa, IsaInfo::WorkgroupMaxSize, out))
    }
    /// `HSA_ISA_INFO_WORKGROUP_MAX_DIM` (`uint16_t[3]`).
    fn isa_workgroup_max_dim(&self, isa: Isa) -> HsaResult<[u16; 3]> {
        let [x0, x1, y0, y1, z0, z1] =
            read(|out| self.isa_get_info_alt(isa, IsaInfo::WorkgroupMaxDim, out))?;
        Ok([
            u16::from_ne_bytes([x0, x1]),
            u16::from_ne_bytes([y0, y1]),
            u16::from_ne_bytes([z0, z1]),
        ])
    }

    // --- Memory pools ------------------------------------------------------

    /// `HSA_AMD_MEMORY_POOL_INFO_SEGMENT`.
    fn memory_pool_segment(&self, pool: MemoryPool) -> HsaResult<Segment> {
        known(Segment::from_raw(u32_of(|out| {
            self.memory_pool_get_info(pool, MemoryPoolInfo::Segment, out)
        })?))
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS` (global segment only).
    fn memory_pool_global_flags(&self, pool: MemoryPool) -> HsaResult<GlobalFlags> {
        u32_of(|out| self.memory_pool_get_info(pool, MemoryPoolInfo::GlobalFlags, out))
            .map(GlobalFlags::from_bits_retain)
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_SIZE` (bytes).
    fn memory_pool_size(&self, pool: MemoryPool) -> HsaResult<u64> {
        size_of_answer(|out| self.memory_pool_get_info(pool, MemoryPoolInfo::Size, out))
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED`.
    fn memory_pool_alloc_allowed(&self, pool: MemoryPool) -> HsaResult<bool> {
        bool_of(|out| self.memory_pool_get_info(pool, MemoryPoolInfo::RuntimeAllocAllowed, out))
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE` (bytes).
    fn memory_pool_alloc_granule(&self, pool: MemoryPool) -> HsaResult<u64> {
        size_of_answer(|out| {
            self.memory_pool_get_info(pool, MemoryPoolInfo::RuntimeAllocGranule, out)
        })
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT` (bytes).
    fn memory_pool_alloc_alignment(&self, pool: MemoryPool) -> HsaResult<u64> {
        size_of_answer(|out| {
            self.memory_pool_get_info(pool, MemoryPoolInfo::RuntimeAllocAlignment, out)
        })
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL`.
    fn memory_pool_accessible_by_all(&self, pool: MemoryPool) -> HsaResult<bool> {
        bool_of(|out| self.memory_pool_get_info(pool, MemoryPoolInfo::AccessibleByAll, out))
    }
    /// `HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE` (bytes).
    fn memory_pool_alloc_max_size(&self, pool: MemoryPool) -> HsaResult<u64> {
        size_of_answer(|out| self.memory_pool_get_info(pool, MemoryPoolInfo::AllocMaxSize, out))
    }
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS`.
    fn agent_memory_pool_access(&self, agent: Agent, pool: MemoryPool) -> HsaResult<PoolAccess> {
        known(PoolAccess::from_raw(u32_of(|out| {
            self.agent_memory_pool_get_info(agent, pool, AgentMemoryPoolInfo::Access, out)
        })?))
    }
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS`.
    fn agent_memory_pool_num_link_hops(&self, agent: Agent, pool: MemoryPool) -> HsaResult<u32> {
        u32_of(|out| {
            self.agent_memory_pool_get_info(agent, pool, AgentMemoryPoolInfo::NumLinkHops, out)
        })
    }
    /// `HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO`: one entry per hop
    /// (`num_link_hops` of them, asked first; empty for the agent's own pool,
    /// without a second call).
    fn agent_memory_pool_link_info(
        &self,
        agent: Agent,
        pool: MemoryPool,
    ) -> HsaResult<Vec<LinkInfo>> {
        let hops = self.agent_memory_pool_num_link_hops(agent, pool)?;
        if hops == 0 {
            return Ok(Vec::new());
        }
        if hops > MAX_LINK_HOPS {
            return Err(HsaStatus::Error);
        }
        let mut buffer = vec![0u8; hops as usize * LINK_INFO_SIZE];
        self.agent_memory_pool_get_info(agent, pool, AgentMemoryPoolInfo::LinkInfo, &mut buffer)?;
        Ok(buffer.chunks_exact(LINK_INFO_SIZE).map(link_of).collect())
    }

    // --- Symbols -----------------------------------------------------------

    /// `HSA_EXECUTABLE_SYMBOL_INFO_TYPE`.
    fn symbol_kind(&self, symbol: ExecutableSymbol) -> HsaResult<SymbolKind> {
        known(SymbolKind::from_raw(u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::Type, out)
        })?))
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_NAME` (with its `.kd` suffix for
    /// kernels), sized by its length attribute.
    fn symbol_name(&self, symbol: ExecutableSymbol) -> HsaResult<String> {
        let length = u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::NameLength, out)
        })?;
        name_of(length, |out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::Name, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_AGENT`.
    fn symbol_agent(&self, symbol: ExecutableSymbol) -> HsaResult<Agent> {
        u64_of(|out| self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::Agent, out))
            .map(Agent)
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT`: the kernel descriptor's device address.
    fn symbol_kernel_object(&self, symbol: ExecutableSymbol) -> HsaResult<u64> {
        u64_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::KernelObject, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE` (bytes).
    fn symbol_kernarg_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::KernargSegmentSize, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT` (bytes).
    fn symbol_kernarg_segment_alignment(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        u32_of(|out| {
            let attribute = ExecutableSymbolInfo::KernargSegmentAlignment;
            self.executable_symbol_get_info(symbol, attribute, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE` (bytes of LDS).
    fn symbol_group_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::GroupSegmentSize, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE` (bytes of scratch per work-item).
    fn symbol_private_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::PrivateSegmentSize, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS`.
    fn symbol_variable_address(&self, symbol: ExecutableSymbol) -> HsaResult<u64> {
        u64_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::VariableAddress, out)
        })
    }
    /// `HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE` (bytes).
    fn symbol_variable_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        u32_of(|out| {
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::VariableSize, out)
        })
    }

    // --- Loaded code objects -----------------------------------------------

    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT`.
    fn loaded_code_object_agent(&self, loaded: LoadedCodeObject) -> HsaResult<Agent> {
        u64_of(|out| self.loaded_code_object_get_info(loaded, LoadedCodeObjectInfo::Agent, out))
            .map(Agent)
    }
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE`: where the code object was placed.
    fn loaded_code_object_load_base(&self, loaded: LoadedCodeObject) -> HsaResult<u64> {
        u64_of(|out| self.loaded_code_object_get_info(loaded, LoadedCodeObjectInfo::LoadBase, out))
    }
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA`: load base minus the ELF's lowest vaddr.
    fn loaded_code_object_load_delta(&self, loaded: LoadedCodeObject) -> HsaResult<i64> {
        read(|out| self.loaded_code_object_get_info(loaded, LoadedCodeObjectInfo::LoadDelta, out))
            .map(i64::from_ne_bytes)
    }
    /// `HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE` (bytes of the loaded image).
    fn loaded_code_object_load_size(&self, loaded: LoadedCodeObject) -> HsaResult<u64> {
        u64_of(|out| self.loaded_code_object_get_info(loaded, LoadedCodeObjectInfo::LoadSize, out))
    }
}

impl<T: Hsa + ?Sized> HsaExt for T {}
