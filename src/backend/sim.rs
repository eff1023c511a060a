//! The default backend: the simulated node of `amdgpu-sim` behind the
//! [`Hsa`], [`Hip`] and [`Ccl`] traits. The simulator speaks raw vendor
//! values; this adapter gives them their types.

use std::sync::Arc;

use amdgpu_sim::elf::SymbolKind as SimSymbolKind;
use amdgpu_sim::validate::Format;
use amdgpu_sim::{HipCode, HsaCode, Machine, Sim};

use super::Backend;
use super::handles::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, HipDevice, Isa,
    LoadedCodeObject, MemoryPool,
};
use super::hip::{Ccl, CclError, Hip, HipResult};
use super::hip_error::HipError;
use super::hip_types::{HipDeviceAttribute, HipDeviceProps, HipP2pAttribute, HipUuid};
use super::hsa::{Hsa, HsaResult};
use super::hsa_status::HsaStatus;
use super::hsa_types::{
    DeviceType, GlobalFlags, LinkInfo, LinkType, PoolAccess, Profile, RoundingMode, Segment,
    SymbolKind,
};
use crate::input::{InputKind, read_text_file};
use crate::status::{Result, Status};

/// The backend name `--backend sim` selects.
pub const SIM_BACKEND_NAME: &str = "sim";

fn hsa_status(code: HsaCode) -> HsaStatus {
    HsaStatus::from_raw(code.0).unwrap_or(HsaStatus::Error)
}

fn hip_error(code: HipCode) -> HipError {
    HipError::from_raw(code.0).unwrap_or(HipError::Unknown)
}

fn hsa<T>(result: std::result::Result<T, HsaCode>) -> HsaResult<T> {
    result.map_err(hsa_status)
}

fn hip<T>(result: std::result::Result<T, HipCode>) -> HipResult<T> {
    result.map_err(hip_error)
}

/// The simulated node as a backend. Clone the `Arc<Sim>` out with
/// [`SimBackend::sim`] to inject faults, read the call log or count live objects.
#[derive(Clone, Debug)]
pub struct SimBackend {
    sim: Arc<Sim>,
}

impl SimBackend {
    /// A backend over `sim`.
    pub fn new(sim: Arc<Sim>) -> SimBackend {
        SimBackend { sim }
    }

    /// The simulator.
    pub fn sim(&self) -> &Arc<Sim> {
        &self.sim
    }
}

/// Loads the machine `--machine` names: a preset name, else a TOML or JSON
/// file (JSON when it ends in `.json`).
pub fn load_machine(name_or_path: &str) -> Result<Machine> {
    if let Some(preset) = amdgpu_sim::presets::load_preset(name_or_path) {
        return preset.map_err(|e| Status::internal(e.to_string()));
    }
    let path = std::path::Path::new(name_or_path);
    let text = read_text_file(path, InputKind::MachineDescription).map_err(|status| {
        if status.code() != crate::status::StatusCode::NotFound {
            return status;
        }
        let presets: Vec<&str> = amdgpu_sim::presets::PRESETS
            .iter()
            .map(|(n, _)| *n)
            .collect();
        Status::not_found(format!(
            "no machine preset or file named '{name_or_path}' ({}); presets: {}",
            status.message(),
            presets.join(", ")
        ))
    })?;
    Machine::parse(name_or_path, &text, Format::from_file_name(name_or_path))
        .map_err(|e| Status::invalid_argument(e.to_string()))
}

impl Backend {
    /// The simulated backend on the machine `--machine` names (a preset or a
    /// file), with its call log off: use [`Backend::from_sim`] to read the log.
    pub fn sim(machine: &str) -> Result<Backend> {
        let _span = tracing::debug_span!("sim_machine_load", machine).entered();
        let loaded = load_machine(machine)?;
        let label = loaded.name.clone();
        let sim = Sim::new(loaded);
        // Nobody else holds this simulator, so its call log could never be
        // read: don't pay for rendering it (`from_sim` keeps it).
        sim.set_call_log(false);
        Ok(Backend::from_sim(Arc::new(sim), &label))
    }

    /// The simulated backend over an existing simulator (tests keep the `Arc`
    /// to inject faults and read the call log).
    pub fn from_sim(sim: Arc<Sim>, machine: &str) -> Backend {
        let adapter = Arc::new(SimBackend::new(Arc::clone(&sim)));
        let backend = Backend::new(SIM_BACKEND_NAME, machine, adapter.clone(), adapter.clone());
        if sim.machine().rccl_version.is_some() {
            backend.with_ccl(adapter)
        } else {
            backend
        }
    }
}

impl Hsa for SimBackend {
    fn init(&self) -> HsaResult<()> {
        hsa(self.sim.hsa_init())
    }

    fn shut_down(&self) -> HsaResult<()> {
        hsa(self.sim.hsa_shut_down())
    }

    fn iterate_agents(&self) -> HsaResult<Vec<Agent>> {
        hsa(self.sim.iterate_agents()).map(|v| v.into_iter().map(Agent).collect())
    }

    fn agent_device_type(&self, agent: Agent) -> HsaResult<DeviceType> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_DEVICE", |a| match a.kind {
                amdgpu_sim::machine::AgentKind::Cpu => DeviceType::Cpu,
                amdgpu_sim::machine::AgentKind::Gpu => DeviceType::Gpu,
            }))
    }

    fn agent_name(&self, agent: Agent) -> HsaResult<String> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_NAME", |a| a.name.clone()))
    }

    fn agent_vendor_name(&self, agent: Agent) -> HsaResult<String> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_VENDOR_NAME", |a| a.vendor.clone()))
    }

    fn agent_product_name(&self, agent: Agent) -> HsaResult<String> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_PRODUCT_NAME", |a| {
                a.product.clone()
            }))
    }

    fn agent_uuid(&self, agent: Agent) -> HsaResult<String> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_UUID", |a| a.uuid.clone()))
    }

    fn agent_node(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_NODE", |a| a.node))
    }

    fn agent_nearest_cpu(&self, agent: Agent) -> HsaResult<Agent> {
        hsa(self.sim.agent_nearest_cpu(agent.0)).map(Agent)
    }

    fn agent_queues_max(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_QUEUES_MAX", |a| a.queues_max))
    }

    fn agent_wavefront_size(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_WAVEFRONT_SIZE", |a| {
                a.wavefront_size
            }))
    }

    fn agent_compute_unit_count(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT", |a| {
                a.compute_units
            }))
    }

    fn agent_chip_id(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_CHIP_ID", |a| a.chip_id))
    }

    fn agent_bdf_id(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_BDFID", |a| a.bdf_id))
    }

    fn agent_domain(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_DOMAIN", |a| a.domain))
    }

    fn agent_driver_uid(&self, agent: Agent) -> HsaResult<u32> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AMD_AGENT_INFO_DRIVER_UID", |a| a.driver_uid))
    }

    fn agent_profile(&self, agent: Agent) -> HsaResult<Profile> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_PROFILE", |a| a.profile))
        .map(|raw| Profile::from_raw(raw).unwrap_or(Profile::Base))
    }

    fn agent_default_float_rounding_mode(&self, agent: Agent) -> HsaResult<RoundingMode> {
        hsa(self
            .sim
            .agent_info(agent.0, "HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE", |a| {
                a.rounding_mode
            }))
        .map(|raw| RoundingMode::from_raw(raw).unwrap_or(RoundingMode::Default))
    }

    fn agent_iterate_isas(&self, agent: Agent) -> HsaResult<Vec<Isa>> {
        hsa(self.sim.agent_iterate_isas(agent.0)).map(|v| v.into_iter().map(Isa).collect())
    }

    fn isa_name_length(&self, isa: Isa) -> HsaResult<u32> {
        hsa(self.sim.isa_info(isa.0, "HSA_ISA_INFO_NAME_LENGTH", |i| {
            i.name.len() as u32 + 1
        }))
    }

    fn isa_name(&self, isa: Isa) -> HsaResult<String> {
        hsa(self
            .sim
            .isa_info(isa.0, "HSA_ISA_INFO_NAME", |i| i.name.clone()))
    }

    fn isa_workgroup_max_size(&self, isa: Isa) -> HsaResult<u32> {
        hsa(self
            .sim
            .isa_info(isa.0, "HSA_ISA_INFO_WORKGROUP_MAX_SIZE", |i| {
                i.workgroup_max_size
            }))
    }

    fn isa_workgroup_max_dim(&self, isa: Isa) -> HsaResult<[u16; 3]> {
        hsa(self
            .sim
            .isa_info(isa.0, "HSA_ISA_INFO_WORKGROUP_MAX_DIM", |i| {
                i.workgroup_max_dim
            }))
    }

    fn agent_iterate_memory_pools(&self, agent: Agent) -> HsaResult<Vec<MemoryPool>> {
        hsa(self.sim.agent_iterate_memory_pools(agent.0))
            .map(|v| v.into_iter().map(MemoryPool).collect())
    }

    fn memory_pool_segment(&self, pool: MemoryPool) -> HsaResult<Segment> {
        hsa(self
            .sim
            .pool_info(pool.0, "HSA_AMD_MEMORY_POOL_INFO_SEGMENT", |p| p.segment))
        .map(|raw| Segment::from_raw(raw).unwrap_or(Segment::Global))
    }

    fn memory_pool_global_flags(&self, pool: MemoryPool) -> HsaResult<GlobalFlags> {
        hsa(self
            .sim
            .pool_info(pool.0, "HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS", |p| p.flags))
        .map(GlobalFlags::from_bits_retain)
    }

    fn memory_pool_size(&self, pool: MemoryPool) -> HsaResult<u64> {
        hsa(self
            .sim
            .pool_info(pool.0, "HSA_AMD_MEMORY_POOL_INFO_SIZE", |p| p.size))
    }

    fn memory_pool_alloc_allowed(&self, pool: MemoryPool) -> HsaResult<bool> {
        hsa(self.sim.pool_info(
            pool.0,
            "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED",
            |p| p.alloc_allowed,
        ))
    }

    fn memory_pool_alloc_granule(&self, pool: MemoryPool) -> HsaResult<u64> {
        hsa(self.sim.pool_info(
            pool.0,
            "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE",
            |p| p.granule,
        ))
    }

    fn memory_pool_alloc_alignment(&self, pool: MemoryPool) -> HsaResult<u64> {
        hsa(self.sim.pool_info(
            pool.0,
            "HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT",
            |p| p.alignment,
        ))
    }

    fn memory_pool_accessible_by_all(&self, pool: MemoryPool) -> HsaResult<bool> {
        hsa(self
            .sim
            .pool_info(pool.0, "HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL", |p| {
                p.accessible_by_all
            }))
    }

    fn memory_pool_alloc_max_size(&self, pool: MemoryPool) -> HsaResult<u64> {
        hsa(self
            .sim
            .pool_info(pool.0, "HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE", |p| {
                p.alloc_max_size
            }))
    }

    fn agent_memory_pool_access(&self, agent: Agent, pool: MemoryPool) -> HsaResult<PoolAccess> {
        hsa(self.sim.agent_pool_access(agent.0, pool.0))
            .map(|raw| PoolAccess::from_raw(raw).unwrap_or(PoolAccess::NeverAllowed))
    }

    fn agent_memory_pool_num_link_hops(&self, agent: Agent, pool: MemoryPool) -> HsaResult<u32> {
        hsa(self.sim.agent_pool_num_link_hops(agent.0, pool.0))
    }

    fn agent_memory_pool_link_info(
        &self,
        agent: Agent,
        pool: MemoryPool,
    ) -> HsaResult<Vec<LinkInfo>> {
        hsa(self.sim.agent_pool_link_info(agent.0, pool.0)).map(|links| {
            links
                .into_iter()
                .map(|l| LinkInfo {
                    min_latency: l.min_latency,
                    max_latency: l.max_latency,
                    min_bandwidth: l.min_bandwidth,
                    max_bandwidth: l.max_bandwidth,
                    atomic_support_32bit: l.atomic_32bit,
                    atomic_support_64bit: l.atomic_64bit,
                    coherent_support: l.coherent,
                    link_type: LinkType::from_raw(l.link_type),
                    numa_distance: l.numa_distance,
                })
                .collect()
        })
    }

    fn memory_pool_allocate(
        &self,
        pool: MemoryPool,
        size: u64,
        flags: u32,
    ) -> HsaResult<DevicePtr> {
        hsa(self.sim.memory_pool_allocate(pool.0, size, flags)).map(DevicePtr)
    }

    fn memory_pool_free(&self, ptr: DevicePtr) -> HsaResult<()> {
        hsa(self.sim.memory_pool_free(ptr.0))
    }

    fn memory_copy_to_device(&self, dst: DevicePtr, src: &[u8]) -> HsaResult<()> {
        hsa(self.sim.memory_copy_to_device(dst.0, src))
    }

    fn memory_copy_from_device(&self, dst: &mut [u8], src: DevicePtr) -> HsaResult<()> {
        hsa(self.sim.memory_copy_from_device(dst, src.0))
    }

    fn memory_copy(&self, dst: DevicePtr, src: DevicePtr, size: u64) -> HsaResult<()> {
        hsa(self.sim.memory_copy(dst.0, src.0, size))
    }

    fn agents_allow_access(&self, agents: &[Agent], ptr: DevicePtr) -> HsaResult<()> {
        let raw: Vec<u64> = agents.iter().map(|a| a.0).collect();
        hsa(self.sim.agents_allow_access(&raw, ptr.0))
    }

    fn code_object_reader_create_from_memory(
        &self,
        code_object: &[u8],
    ) -> HsaResult<CodeObjectReader> {
        hsa(self.sim.code_object_reader_create_from_memory(code_object)).map(CodeObjectReader)
    }

    fn code_object_reader_destroy(&self, reader: CodeObjectReader) -> HsaResult<()> {
        hsa(self.sim.code_object_reader_destroy(reader.0))
    }

    fn executable_create_alt(
        &self,
        profile: Profile,
        rounding_mode: RoundingMode,
    ) -> HsaResult<Executable> {
        hsa(self
            .sim
            .executable_create_alt(profile.raw(), rounding_mode.raw()))
        .map(Executable)
    }

    fn executable_load_agent_code_object(
        &self,
        executable: Executable,
        agent: Agent,
        reader: CodeObjectReader,
    ) -> HsaResult<LoadedCodeObject> {
        hsa(self
            .sim
            .executable_load_agent_code_object(executable.0, agent.0, reader.0))
        .map(LoadedCodeObject)
    }

    fn executable_freeze(&self, executable: Executable) -> HsaResult<()> {
        hsa(self.sim.executable_freeze(executable.0))
    }

    fn executable_destroy(&self, executable: Executable) -> HsaResult<()> {
        hsa(self.sim.executable_destroy(executable.0))
    }

    fn executable_get_symbol_by_name(
        &self,
        executable: Executable,
        name: &str,
        agent: Option<Agent>,
    ) -> HsaResult<ExecutableSymbol> {
        hsa(self
            .sim
            .executable_get_symbol_by_name(executable.0, name, agent.map(|a| a.0)))
        .map(ExecutableSymbol)
    }

    fn symbol_kind(&self, symbol: ExecutableSymbol) -> HsaResult<SymbolKind> {
        let info = hsa(self
            .sim
            .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_TYPE"))?;
        Ok(match info.kind {
            SimSymbolKind::Kernel { .. } => SymbolKind::Kernel,
            SimSymbolKind::Variable => SymbolKind::Variable,
        })
    }

    fn symbol_name(&self, symbol: ExecutableSymbol) -> HsaResult<String> {
        hsa(self
            .sim
            .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_NAME"))
        .map(|i| i.name)
    }

    fn symbol_agent(&self, symbol: ExecutableSymbol) -> HsaResult<Agent> {
        hsa(self
            .sim
            .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_AGENT"))
        .map(|i| Agent(i.agent))
    }

    fn symbol_kernel_object(&self, symbol: ExecutableSymbol) -> HsaResult<u64> {
        kernel(
            self.sim
                .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT"),
            |address, _, _, _| address,
        )
    }

    fn symbol_kernarg_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        let attribute = "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE";
        kernel(
            self.sim.symbol_info(symbol.0, attribute),
            |_, _, _, kernarg| kernarg,
        )
    }

    fn symbol_kernarg_segment_alignment(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        // ROCr reports 16 for code object v3+ kernels (it does not read the metadata).
        let attribute = "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT";
        kernel(self.sim.symbol_info(symbol.0, attribute), |_, _, _, _| 16)
    }

    fn symbol_group_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        let attribute = "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE";
        kernel(
            self.sim.symbol_info(symbol.0, attribute),
            |_, group, _, _| group,
        )
    }

    fn symbol_private_segment_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        let attribute = "HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE";
        kernel(
            self.sim.symbol_info(symbol.0, attribute),
            |_, _, private, _| private,
        )
    }

    fn symbol_variable_address(&self, symbol: ExecutableSymbol) -> HsaResult<u64> {
        variable(
            self.sim
                .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS"),
            |a, _| Ok(a),
        )
    }

    fn symbol_variable_size(&self, symbol: ExecutableSymbol) -> HsaResult<u32> {
        variable(
            self.sim
                .symbol_info(symbol.0, "HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE"),
            |_, size| u32::try_from(size).map_err(|_| HsaStatus::ErrorInvalidExecutableSymbol),
        )
    }

    fn executable_iterate_loaded_code_objects(
        &self,
        executable: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>> {
        hsa(self
            .sim
            .executable_iterate_loaded_code_objects(executable.0))
        .map(|v| v.into_iter().map(LoadedCodeObject).collect())
    }

    fn loaded_code_object_agent(&self, loaded: LoadedCodeObject) -> HsaResult<Agent> {
        hsa(self
            .sim
            .loaded_code_object_info(loaded.0, "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT"))
        .map(|i| Agent(i.agent))
    }

    fn loaded_code_object_load_base(&self, loaded: LoadedCodeObject) -> HsaResult<u64> {
        hsa(self.sim.loaded_code_object_info(
            loaded.0,
            "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE",
        ))
        .map(|i| i.load_base)
    }

    fn loaded_code_object_load_delta(&self, loaded: LoadedCodeObject) -> HsaResult<i64> {
        hsa(self.sim.loaded_code_object_info(
            loaded.0,
            "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA",
        ))
        .map(|i| i.load_delta)
    }

    fn loaded_code_object_load_size(&self, loaded: LoadedCodeObject) -> HsaResult<u64> {
        hsa(self.sim.loaded_code_object_info(
            loaded.0,
            "HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE",
        ))
        .map(|i| i.load_size)
    }
}

/// A kernel-only symbol query: a variable is `HSA_STATUS_ERROR_INVALID_ARGUMENT`, as in ROCr.
fn kernel<T>(
    info: std::result::Result<amdgpu_sim::SymbolInfo, HsaCode>,
    read: impl FnOnce(u64, u32, u32, u32) -> T,
) -> HsaResult<T> {
    match hsa(info)? {
        amdgpu_sim::SymbolInfo {
            address,
            kind:
                SimSymbolKind::Kernel {
                    group_segment_size,
                    private_segment_size,
                    kernarg_size,
                },
            ..
        } => Ok(read(
            address,
            group_segment_size,
            private_segment_size,
            kernarg_size,
        )),
        _ => Err(HsaStatus::ErrorInvalidArgument),
    }
}

/// A variable-only symbol query.
fn variable<T>(
    info: std::result::Result<amdgpu_sim::SymbolInfo, HsaCode>,
    read: impl FnOnce(u64, u64) -> HsaResult<T>,
) -> HsaResult<T> {
    match hsa(info)? {
        amdgpu_sim::SymbolInfo {
            address,
            size,
            kind: SimSymbolKind::Variable,
            ..
        } => read(address, size),
        _ => Err(HsaStatus::ErrorInvalidArgument),
    }
}

impl Hip for SimBackend {
    fn init(&self, flags: u32) -> HipResult<()> {
        hip(self.sim.hip_init(flags))
    }

    fn driver_get_version(&self) -> HipResult<i32> {
        hip(self.sim.hip_driver_get_version())
    }

    fn runtime_get_version(&self) -> HipResult<i32> {
        hip(self.sim.hip_runtime_get_version())
    }

    fn get_device_count(&self) -> HipResult<i32> {
        hip(self.sim.hip_get_device_count())
    }

    fn device_get(&self, ordinal: i32) -> HipResult<HipDevice> {
        hip(self.sim.hip_device_get(ordinal)).map(HipDevice)
    }

    fn device_get_name(&self, device: HipDevice, len: usize) -> HipResult<String> {
        hip(self.sim.hip_device_get_name(device.0, len))
    }

    fn device_get_uuid(&self, device: HipDevice) -> HipResult<HipUuid> {
        hip(self.sim.hip_device_get_uuid(device.0)).map(HipUuid)
    }

    fn get_device_properties(&self, ordinal: i32) -> HipResult<HipDeviceProps> {
        hip(self.sim.hip_get_device_properties(ordinal)).map(|p| HipDeviceProps {
            name: p.name,
            gcn_arch_name: p.gcn_arch_name,
            total_global_mem: p.total_global_mem,
            shared_mem_per_block: p.shared_mem_per_block,
            regs_per_block: p.regs_per_block,
            warp_size: p.warp_size,
            max_threads_per_block: p.max_threads_per_block,
            max_threads_dim: p.max_threads_dim,
            max_grid_size: p.max_grid_size,
            clock_rate: p.clock_rate,
            memory_clock_rate: p.memory_clock_rate,
            memory_bus_width: p.memory_bus_width,
            total_const_mem: p.total_const_mem,
            major: p.major,
            minor: p.minor,
            multi_processor_count: p.multi_processor_count,
            l2_cache_size: p.l2_cache_size,
            max_threads_per_multi_processor: p.max_threads_per_multi_processor,
            pci_domain_id: p.pci_domain_id,
            pci_bus_id: p.pci_bus_id,
            pci_device_id: p.pci_device_id,
            is_multi_gpu_board: p.is_multi_gpu_board,
            integrated: p.integrated,
            managed_memory: p.managed_memory,
            ecc_enabled: p.ecc_enabled,
        })
    }

    fn device_get_attribute(&self, attribute: HipDeviceAttribute, ordinal: i32) -> HipResult<i32> {
        hip(self.sim.hip_device_get_attribute(attribute.raw(), ordinal))
    }

    fn device_can_access_peer(&self, ordinal: i32, peer_ordinal: i32) -> HipResult<bool> {
        hip(self.sim.hip_device_can_access_peer(ordinal, peer_ordinal))
    }

    fn set_device(&self, ordinal: i32) -> HipResult<()> {
        hip(self.sim.hip_set_device(ordinal))
    }

    fn device_enable_peer_access(&self, peer_ordinal: i32, flags: u32) -> HipResult<()> {
        hip(self.sim.hip_device_enable_peer_access(peer_ordinal, flags))
    }

    fn device_get_p2p_attribute(
        &self,
        attribute: HipP2pAttribute,
        src: i32,
        dst: i32,
    ) -> HipResult<i32> {
        hip(self
            .sim
            .hip_device_get_p2p_attribute(attribute.raw(), src, dst))
    }

    fn get_error_name(&self, error: HipError) -> String {
        error.name().to_string()
    }

    fn get_error_string(&self, error: HipError) -> String {
        error.description().to_string()
    }
}

impl Ccl for SimBackend {
    fn get_version(&self) -> std::result::Result<i32, CclError> {
        match self.sim.rccl_get_version() {
            Some(Ok(version)) => Ok(version),
            Some(Err(code)) => Err(CclError::from_raw(code.0).unwrap_or(CclError::SystemError)),
            None => Err(CclError::SystemError),
        }
    }
}
