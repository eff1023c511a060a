//! The default backend: the simulated node of `amdgpu-sim` behind the
//! [`Hsa`], [`Hip`] and [`Ccl`] traits. The simulator speaks raw vendor
//! values and answers every `*_get_info` in C layout (`amdgpu_sim::get_info`,
//! the encoder the simulator's C library writes through its callers'
//! pointers too); this adapter gives the statuses their types and copies
//! the answers into the caller's buffer.

use std::sync::Arc;

use amdgpu_sim::validate::Format;
use amdgpu_sim::{HipCode, HsaCode, Machine, Sim};
use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};

use super::Backend;
use super::handles::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, HipDevice, Isa,
    LoadedCodeObject, MemoryPool,
};
use super::hip::{Ccl, CclError, Hip, HipResult};
use super::hip_error::HipError;
use super::hip_types::{HipDeviceAttribute, HipDeviceProps, HipP2pAttribute, HipUuid};
use super::hsa::{Hsa, HsaResult, write_info};
use super::hsa_status::HsaStatus;
use super::hsa_types::{Profile, RoundingMode};
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
        let suggestion = amdgpu_sim::suggest::closest(name_or_path, presets.iter().copied())
            .map(|close| format!("; did you mean '{close}'?"))
            .unwrap_or_default();
        Status::not_found(format!(
            "no machine preset or file named '{name_or_path}' ({}){suggestion}; presets: {}",
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

    fn agent_get_info(&self, agent: Agent, attribute: AgentInfo, out: &mut [u8]) -> HsaResult<()> {
        write_info(&hsa(self.sim.agent_get_info(agent.0, attribute))?, out)
    }

    fn agent_iterate_isas(&self, agent: Agent) -> HsaResult<Vec<Isa>> {
        hsa(self.sim.agent_iterate_isas(agent.0)).map(|v| v.into_iter().map(Isa).collect())
    }

    fn isa_get_info_alt(&self, isa: Isa, attribute: IsaInfo, out: &mut [u8]) -> HsaResult<()> {
        write_info(&hsa(self.sim.isa_get_info(isa.0, attribute))?, out)
    }

    fn agent_iterate_memory_pools(&self, agent: Agent) -> HsaResult<Vec<MemoryPool>> {
        hsa(self.sim.agent_iterate_memory_pools(agent.0))
            .map(|v| v.into_iter().map(MemoryPool).collect())
    }

    fn memory_pool_get_info(
        &self,
        pool: MemoryPool,
        attribute: MemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        write_info(&hsa(self.sim.memory_pool_get_info(pool.0, attribute))?, out)
    }

    fn agent_memory_pool_get_info(
        &self,
        agent: Agent,
        pool: MemoryPool,
        attribute: AgentMemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        let answer = hsa(self
            .sim
            .agent_memory_pool_get_info(agent.0, pool.0, attribute))?;
        write_info(&answer, out)
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

    fn code_object_reader_create_from_shared(
        &self,
        code_object: amdgpu_sim::SharedBytes,
    ) -> HsaResult<CodeObjectReader> {
        hsa(self.sim.code_object_reader_create_from_shared(code_object)).map(CodeObjectReader)
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

    fn executable_symbol_get_info(
        &self,
        symbol: ExecutableSymbol,
        attribute: ExecutableSymbolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        write_info(
            &hsa(self.sim.executable_symbol_get_info(symbol.0, attribute))?,
            out,
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

    fn loaded_code_object_get_info(
        &self,
        loaded: LoadedCodeObject,
        attribute: LoadedCodeObjectInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        write_info(
            &hsa(self.sim.loaded_code_object_get_info(loaded.0, attribute))?,
            out,
        )
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
        hip(self.sim.hip_get_device_properties(ordinal))
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
