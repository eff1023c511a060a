//! [`Hsa`] over the real `libhsa-runtime64` ([`HsaLibrary`]): handles and
//! statuses given their types, one C call per method.

use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};
use amdgpu_sys::hsa_status::hsa_status_t;
use amdgpu_sys::hsa_types::*;

use super::hsa::{HsaCall, HsaLibrary};
use crate::backend::{
    Agent, CodeObjectReader, DevicePtr, Executable, ExecutableSymbol, Hsa, HsaResult, HsaStatus,
    Isa, LoadedCodeObject, MemoryPool, Profile, RoundingMode,
};

fn status(raw: hsa_status_t) -> HsaStatus {
    HsaStatus::from_raw(raw).unwrap_or(HsaStatus::Error)
}

fn typed<T>(call: HsaCall<T>) -> HsaResult<T> {
    call.map_err(status)
}

fn agent(agent: Agent) -> hsa_agent_t {
    hsa_agent_t { handle: agent.0 }
}

fn pool(pool: MemoryPool) -> hsa_amd_memory_pool_t {
    hsa_amd_memory_pool_t { handle: pool.0 }
}

fn executable(executable: Executable) -> hsa_executable_t {
    hsa_executable_t {
        handle: executable.0,
    }
}

fn reader(reader: CodeObjectReader) -> hsa_code_object_reader_t {
    hsa_code_object_reader_t { handle: reader.0 }
}

impl Hsa for HsaLibrary {
    fn init(&self) -> HsaResult<()> {
        typed(HsaLibrary::init(self))
    }
    fn shut_down(&self) -> HsaResult<()> {
        typed(HsaLibrary::shut_down(self))
    }
    fn iterate_agents(&self) -> HsaResult<Vec<Agent>> {
        let agents = typed(HsaLibrary::iterate_agents(self))?;
        Ok(agents.into_iter().map(|a| Agent(a.handle)).collect())
    }
    fn agent_get_info(&self, a: Agent, attribute: AgentInfo, out: &mut [u8]) -> HsaResult<()> {
        typed(HsaLibrary::agent_get_info(self, agent(a), attribute, out))
    }
    fn agent_iterate_isas(&self, a: Agent) -> HsaResult<Vec<Isa>> {
        let isas = typed(HsaLibrary::agent_iterate_isas(self, agent(a)))?;
        Ok(isas.into_iter().map(|i| Isa(i.handle)).collect())
    }
    fn isa_get_info_alt(&self, isa: Isa, attribute: IsaInfo, out: &mut [u8]) -> HsaResult<()> {
        let isa = hsa_isa_t { handle: isa.0 };
        typed(HsaLibrary::isa_get_info_alt(self, isa, attribute, out))
    }
    fn agent_iterate_memory_pools(&self, a: Agent) -> HsaResult<Vec<MemoryPool>> {
        let pools = typed(HsaLibrary::agent_iterate_memory_pools(self, agent(a)))?;
        Ok(pools.into_iter().map(|p| MemoryPool(p.handle)).collect())
    }
    fn memory_pool_get_info(
        &self,
        p: MemoryPool,
        attribute: MemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        typed(HsaLibrary::memory_pool_get_info(
            self,
            pool(p),
            attribute,
            out,
        ))
    }
    fn agent_memory_pool_get_info(
        &self,
        a: Agent,
        p: MemoryPool,
        attribute: AgentMemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        typed(HsaLibrary::agent_memory_pool_get_info(
            self,
            agent(a),
            pool(p),
            attribute,
            out,
        ))
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
    fn code_object_reader_destroy(&self, r: CodeObjectReader) -> HsaResult<()> {
        typed(HsaLibrary::code_object_reader_destroy(self, reader(r)))
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
        e: Executable,
        a: Agent,
        r: CodeObjectReader,
    ) -> HsaResult<LoadedCodeObject> {
        typed(HsaLibrary::executable_load_agent_code_object(
            self,
            executable(e),
            agent(a),
            reader(r),
        ))
        .map(|l| LoadedCodeObject(l.handle))
    }
    fn executable_freeze(&self, e: Executable) -> HsaResult<()> {
        typed(HsaLibrary::executable_freeze(self, executable(e)))
    }
    fn executable_destroy(&self, e: Executable) -> HsaResult<()> {
        typed(HsaLibrary::executable_destroy(self, executable(e)))
    }
    fn executable_get_symbol_by_name(
        &self,
        e: Executable,
        name: &str,
        a: Option<Agent>,
    ) -> HsaResult<ExecutableSymbol> {
        typed(HsaLibrary::executable_get_symbol_by_name(
            self,
            executable(e),
            name,
            a.map(agent),
        ))
        .map(|s| ExecutableSymbol(s.handle))
    }
    fn executable_symbol_get_info(
        &self,
        symbol: ExecutableSymbol,
        attribute: ExecutableSymbolInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        let symbol = hsa_executable_symbol_t { handle: symbol.0 };
        typed(HsaLibrary::executable_symbol_get_info(
            self, symbol, attribute, out,
        ))
    }
    fn executable_iterate_loaded_code_objects(
        &self,
        e: Executable,
    ) -> HsaResult<Vec<LoadedCodeObject>> {
        let all = typed(HsaLibrary::executable_iterate_loaded_code_objects(
            self,
            executable(e),
        ))?;
        Ok(all
            .into_iter()
            .map(|l| LoadedCodeObject(l.handle))
            .collect())
    }
    fn loaded_code_object_get_info(
        &self,
        loaded: LoadedCodeObject,
        attribute: LoadedCodeObjectInfo,
        out: &mut [u8],
    ) -> HsaResult<()> {
        let loaded = hsa_loaded_code_object_t { handle: loaded.0 };
        typed(HsaLibrary::loaded_code_object_get_info(
            self, loaded, attribute, out,
        ))
    }
}
