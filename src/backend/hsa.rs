//! The `Hsa` trait: the HSA runtime's C entry points the HAL calls (core,
//! `hsa_amd_*` and the AMD loader extension), one method per call.
//!
//! Shapes follow the C API so that every backend is a thin layer: handles
//! are the C handles, iteration callbacks become a `Vec` in the runtime's
//! own order (the order `hsa_iterate_agents` / `hsa_agent_iterate_isas`
//! visit, which for ISAs is priority order), and every method returns the
//! vendor status on failure. An info query is the C call too: the
//! attribute is one of `amdgpu-sys`'s enums and the answer is written into
//! `out` in its C layout (`attribute.size()` bytes; the counted ones, the
//! ISA and symbol names and the link hops, as many as their count attribute
//! says). The typed answers (`agent_name`, `memory_pool_size`, ...) are
//! [`super::HsaExt`]'s, written once over these calls.

use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};

use super::handles::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, Isa, LoadedCodeObject,
    MemoryPool,
};
use super::hsa_status::HsaStatus;
use super::hsa_types::{Profile, RoundingMode};
/// Bytes shared without copying (a code object the runtime keeps): the
/// simulator's type, which any owner of bytes can back.
pub use amdgpu_sim::{ByteOwner, SharedBytes};

/// Result of an HSA call.
pub type HsaResult<T> = Result<T, HsaStatus>;

/// The HSA runtime (libhsa-runtime64) as the HAL uses it.
///
/// Every `*_get_info` method writes the attribute's value at the start of
/// `out` as the C call would; an `out` shorter than the value is
/// `HSA_STATUS_ERROR_INVALID_ARGUMENT` with nothing written (C would write
/// past it), and so is an attribute the runtime does not know.
pub trait Hsa: Send + Sync {
    // --- Runtime -----------------------------------------------------------

    /// `hsa_init`: takes a reference on the runtime.
    fn init(&self) -> HsaResult<()>;
    /// `hsa_shut_down`: drops a reference taken by `init`.
    fn shut_down(&self) -> HsaResult<()>;

    // --- Agents and ISAs ---------------------------------------------------

    /// `hsa_iterate_agents`: every agent, in the runtime's order.
    fn iterate_agents(&self) -> HsaResult<Vec<Agent>>;
    /// `hsa_agent_get_info(agent, attribute, out)`.
    fn agent_get_info(&self, agent: Agent, attribute: AgentInfo, out: &mut [u8]) -> HsaResult<()>;
    /// `hsa_agent_iterate_isas`: the agent's ISAs in priority order.
    fn agent_iterate_isas(&self, agent: Agent) -> HsaResult<Vec<Isa>>;
    /// `hsa_isa_get_info_alt(isa, attribute, out)`.
    fn isa_get_info_alt(&self, isa: Isa, attribute: IsaInfo, out: &mut [u8]) -> HsaResult<()>;

    // --- Memory pools ------------------------------------------------------

    /// `hsa_amd_agent_iterate_memory_pools`: the agent's pools in the runtime's order.
    fn agent_iterate_memory_pools(&self, agent: Agent) -> HsaResult<Vec<MemoryPool>>;
    /// `hsa_amd_memory_pool_get_info(pool, attribute, out)`.
    fn memory_pool_get_info(
        &self,
        pool: MemoryPool,
        attribute: MemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()>;
    /// `hsa_amd_agent_memory_pool_get_info(agent, pool, attribute, out)`:
    /// how `agent` reaches `pool`.
    fn agent_memory_pool_get_info(
        &self,
        agent: Agent,
        pool: MemoryPool,
        attribute: AgentMemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()>;

    // --- Memory ------------------------------------------------------------

    /// `hsa_amd_memory_pool_allocate(pool, size, flags, &ptr)`.
    fn memory_pool_allocate(&self, pool: MemoryPool, size: u64, flags: u32)
    -> HsaResult<DevicePtr>;
    /// `hsa_amd_memory_pool_free(ptr)`.
    fn memory_pool_free(&self, ptr: DevicePtr) -> HsaResult<()>;
    /// `hsa_memory_copy(dst, src, src.len())` from host memory to device
    /// memory. `hsa_memory_copy` is three methods, one per direction: a safe
    /// signature has to say which side is host memory.
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
    /// [`Hsa::code_object_reader_create_from_memory`] of bytes the caller
    /// already holds shared and never changes: a backend that keeps its own
    /// copy may keep these instead (the simulator does, so that a large code
    /// object is held once by the loader, the simulated runtime and the
    /// profile registry, or the caller's mapped file is all there is). Not a
    /// C entry point of its own: by default the bytes are passed on as a
    /// slice.
    fn code_object_reader_create_from_shared(
        &self,
        code_object: SharedBytes,
    ) -> HsaResult<CodeObjectReader> {
        self.code_object_reader_create_from_memory(&code_object)
    }
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
    /// `hsa_executable_symbol_get_info(symbol, attribute, out)`.
    fn executable_symbol_get_info(
        &self,
        symbol: ExecutableSymbol,
        attribute: ExecutableSymbolInfo,
        out: &mut [u8],
    ) -> HsaResult<()>;

    // --- AMD loader extension ----------------------------------------------

    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`, in load order.
    fn executable_iterate_loaded_code_objects(
        &self,
        executable: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>>;
    /// `hsa_ven_amd_loader_loaded_code_object_get_info(loaded, attribute, out)`.
    fn loaded_code_object_get_info(
        &self,
        loaded: LoadedCodeObject,
        attribute: LoadedCodeObjectInfo,
        out: &mut [u8],
    ) -> HsaResult<()>;
}

/// Copies an info answer (`value`, in C layout) into the caller's `out`:
/// `HSA_STATUS_ERROR_INVALID_ARGUMENT`, with nothing written, when it does
/// not fit. For backends whose runtime hands the answer over as bytes.
pub fn write_info(value: &[u8], out: &mut [u8]) -> HsaResult<()> {
    out.get_mut(..value.len())
        .ok_or(HsaStatus::ErrorInvalidArgument)?
        .copy_from_slice(value);
    Ok(())
}
