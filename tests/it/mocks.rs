//! The backend traits' mocks (`MockHsa`, `MockHip`, `MockCcl`, generated
//! by `mockall::mock!` from the traits' signatures) and the helpers a mock
//! answers an HSA info query with: the value written into the caller's
//! buffer in its C layout, as the runtime writes it.
#![allow(dead_code)]

use amdgpu_hal::backend::{
    Agent, AgentInfo, AgentMemoryPoolInfo, CclError, CodeObjectReader, DevicePtr, Executable,
    ExecutableSymbol, ExecutableSymbolInfo, HipDevice, HipDeviceAttribute, HipDeviceProps,
    HipError, HipP2pAttribute, HipResult, HipUuid, HsaResult, Isa, IsaInfo, LoadedCodeObject,
    LoadedCodeObjectInfo, MemoryPool, MemoryPoolInfo, Profile, RoundingMode, write_info,
};
use amdgpu_sim::get_info::CBytes;

mockall::mock! {
    /// The HSA runtime, scripted.
    pub Hsa {}
    impl amdgpu_hal::backend::Hsa for Hsa {
        fn init(&self) -> HsaResult<()>;
        fn shut_down(&self) -> HsaResult<()>;
        fn iterate_agents(&self) -> HsaResult<Vec<Agent>>;
        fn agent_get_info(&self, agent: Agent, attribute: AgentInfo, out: &mut [u8]) -> HsaResult<()>;
        fn agent_iterate_isas(&self, agent: Agent) -> HsaResult<Vec<Isa>>;
        fn isa_get_info_alt(&self, isa: Isa, attribute: IsaInfo, out: &mut [u8]) -> HsaResult<()>;
        fn agent_iterate_memory_pools(&self, agent: Agent) -> HsaResult<Vec<MemoryPool>>;
        fn memory_pool_get_info(
            &self,
            pool: MemoryPool,
            attribute: MemoryPoolInfo,
            out: &mut [u8],
        ) -> HsaResult<()>;
        fn agent_memory_pool_get_info(
            &self,
            agent: Agent,
            pool: MemoryPool,
            attribute: AgentMemoryPoolInfo,
            out: &mut [u8],
        ) -> HsaResult<()>;
        fn memory_pool_allocate(&self, pool: MemoryPool, size: u64, flags: u32) -> HsaResult<DevicePtr>;
        fn memory_pool_free(&self, ptr: DevicePtr) -> HsaResult<()>;
        fn memory_copy_to_device(&self, dst: DevicePtr, src: &[u8]) -> HsaResult<()>;
        fn memory_copy_from_device(&self, dst: &mut [u8], src: DevicePtr) -> HsaResult<()>;
        fn memory_copy(&self, dst: DevicePtr, src: DevicePtr, size: u64) -> HsaResult<()>;
        fn agents_allow_access(&self, agents: &[Agent], ptr: DevicePtr) -> HsaResult<()>;
        fn code_object_reader_create_from_memory(&self, code_object: &[u8]) -> HsaResult<CodeObjectReader>;
        fn code_object_reader_destroy(&self, reader: CodeObjectReader) -> HsaResult<()>;
        fn executable_create_alt(&self, profile: Profile, rounding_mode: RoundingMode) -> HsaResult<Executable>;
        fn executable_load_agent_code_object(
            &self,
            executable: Executable,
            agent: Agent,
            reader: CodeObjectReader,
        ) -> HsaResult<LoadedCodeObject>;
        fn executable_freeze(&self, executable: Executable) -> HsaResult<()>;
        fn executable_destroy(&self, executable: Executable) -> HsaResult<()>;
        fn executable_get_symbol_by_name(
            &self,
            executable: Executable,
            name: &str,
            agent: Option<Agent>,
        ) -> HsaResult<ExecutableSymbol>;
        fn executable_symbol_get_info(
            &self,
            symbol: ExecutableSymbol,
            attribute: ExecutableSymbolInfo,
            out: &mut [u8],
        ) -> HsaResult<()>;
        fn executable_iterate_loaded_code_objects(&self, executable: Executable) -> HsaResult<Vec<LoadedCodeObject>>;
        fn loaded_code_object_get_info(
            &self,
            loaded: LoadedCodeObject,
            attribute: LoadedCodeObjectInfo,
            out: &mut [u8],
        ) -> HsaResult<()>;
    }
}

mockall::mock! {
    /// The HIP runtime, scripted.
    pub Hip {}
    impl amdgpu_hal::backend::Hip for Hip {
        fn init(&self, flags: u32) -> HipResult<()>;
        fn driver_get_version(&self) -> HipResult<i32>;
        fn runtime_get_version(&self) -> HipResult<i32>;
        fn get_device_count(&self) -> HipResult<i32>;
        fn device_get(&self, ordinal: i32) -> HipResult<HipDevice>;
        fn device_get_name(&self, device: HipDevice, len: usize) -> HipResult<String>;
        fn device_get_uuid(&self, device: HipDevice) -> HipResult<HipUuid>;
        fn get_device_properties(&self, ordinal: i32) -> HipResult<HipDeviceProps>;
        fn device_get_attribute(&self, attribute: HipDeviceAttribute, ordinal: i32) -> HipResult<i32>;
        fn device_can_access_peer(&self, ordinal: i32, peer_ordinal: i32) -> HipResult<bool>;
        fn set_device(&self, ordinal: i32) -> HipResult<()>;
        fn device_enable_peer_access(&self, peer_ordinal: i32, flags: u32) -> HipResult<()>;
        fn device_get_p2p_attribute(&self, attribute: HipP2pAttribute, src: i32, dst: i32) -> HipResult<i32>;
        fn get_error_name(&self, error: HipError) -> String;
        fn get_error_string(&self, error: HipError) -> String;
    }
}

mockall::mock! {
    /// The collective library, scripted.
    pub Ccl {}
    impl amdgpu_hal::backend::Ccl for Ccl {
        fn get_version(&self) -> Result<i32, CclError>;
    }
}

/// Answers an info query with `value` in its C layout (`amdgpu-sim`'s
/// encoding; a C enum as its `raw()`), `HSA_STATUS_ERROR_INVALID_ARGUMENT`
/// when it does not fit `out`, as every backend answers.
pub fn answer(out: &mut [u8], value: impl CBytes) -> HsaResult<()> {
    write_info(&value.c_bytes(), out)
}

/// Answers with text as a C string: its bytes and a NUL (a `char[N]`
/// attribute or an ISA name).
pub fn answer_text(out: &mut [u8], text: &str) -> HsaResult<()> {
    write_info(&[text.as_bytes(), &[0]].concat(), out)
}

/// Answers with as much of `text` as `out` holds: a runtime that writes
/// the length it reported even when the name is longer.
pub fn answer_cut(out: &mut [u8], text: &str) -> HsaResult<()> {
    let n = text.len().min(out.len());
    out[..n].copy_from_slice(&text.as_bytes()[..n]);
    Ok(())
}
