//! HSA's memory calls on the node: pool allocations, copies (between
//! simulated memory and the client's host memory), fills, access grants
//! and what `hsa_amd_pointer_info` tells about an address, with ROCr's
//! checks and statuses (`hsa_ext_amd.cpp`, `core/runtime/runtime.cpp`).
//!
//! The calls are here; `state::hsa_memory` holds the rules.

use amdgpu_isa::Memory as HostMemory;

use crate::codes::HsaCode;
use crate::handles::agent_handle;
use crate::machine::AgentKind;
use crate::memory::{MAX_COPY_BYTES, RegionKind};
use crate::node::Sim;
use crate::state::hsa_memory::{self as rules, NoHost};

pub use crate::state::hsa_memory::{COPY_CHUNK_BYTES, PointerInfo};

impl Sim {
    /// `hsa_amd_memory_pool_allocate`.
    pub fn memory_pool_allocate(&self, pool: u64, size: u64, flags: u32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_allocate",
            || format!("{pool:#x}, {size}, {flags:#x}"),
            |topology, state| {
                state
                    .hsa_memory
                    .allocate(topology, &mut state.memory, pool, size)
            },
        )
    }

    /// `hsa_amd_memory_pool_free`: NULL frees nothing and succeeds, as in
    /// ROCr; an address that is no allocation's base is
    /// `INVALID_ALLOCATION`.
    pub fn memory_pool_free(&self, ptr: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_free",
            || format!("{ptr:#x}"),
            |_, state| state.hsa_memory.free(&mut state.memory, ptr),
        )
    }

    /// `hsa_memory_copy` from host bytes to device memory.
    pub fn memory_copy_to_device(&self, dst: u64, src: &[u8]) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, host, {}", src.len()),
            |_, state| {
                if src.is_empty() {
                    Ok(())
                } else {
                    state.memory.write(dst, src)
                }
            },
        )
    }

    /// `hsa_memory_copy` from device memory to host bytes.
    pub fn memory_copy_from_device(&self, dst: &mut [u8], src: u64) -> Result<(), HsaCode> {
        let len = dst.len();
        self.hsa(
            "hsa_memory_copy",
            || format!("host, {src:#x}, {len}"),
            |_, state| {
                if dst.is_empty() {
                    Ok(())
                } else {
                    state.memory.read(src, dst)
                }
            },
        )
    }

    /// `hsa_memory_copy` between device allocations.
    pub fn memory_copy(&self, dst: u64, src: u64, size: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, {src:#x}, {size}"),
            |_, state| {
                for address in [dst, src] {
                    if size > 0 && state.memory.region_of(address).is_none() {
                        return Err(HsaCode::INVALID_ARGUMENT);
                    }
                }
                rules::copy(&mut state.memory, dst, src, size, &mut NoHost)
            },
        )
    }

    /// `hsa_memory_copy` of `size` bytes at addresses that are simulated
    /// memory or the client's host memory, reached through `host` (ROCr
    /// copies between two host ranges with `memcpy`).
    pub fn memory_copy_with(
        &self,
        dst: u64,
        src: u64,
        size: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_memory_copy",
            || format!("{dst:#x}, {src:#x}, {size}"),
            |_, state| rules::copy(&mut state.memory, dst, src, size, host),
        )
    }

    /// The work of an asynchronous copy (`hsa_amd_memory_async_copy`),
    /// counted when it was submitted: as [`Sim::memory_copy_with`].
    pub fn engine_copy(
        &self,
        dst: u64,
        src: u64,
        size: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        rules::copy(&mut self.lock().memory, dst, src, size, host)
    }

    /// Checks an asynchronous copy's ranges when it is submitted: a side
    /// in simulated memory must lie wholly inside it (no call is counted).
    pub fn check_copy(&self, dst: u64, src: u64, size: u64) -> Result<(), HsaCode> {
        if size > MAX_COPY_BYTES {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        rules::check_copy(&self.lock().memory, dst, src, size)
    }

    /// `hsa_amd_memory_fill`: `count` 32-bit `value`s at `ptr` (4-aligned),
    /// in simulated memory or in host memory the runtime knows (through
    /// `host`, which refuses the rest: `INVALID_ALLOCATION`, as ROCr
    /// answers for memory it does not know).
    pub fn memory_fill(
        &self,
        ptr: u64,
        value: u32,
        count: u64,
        host: &mut dyn HostMemory,
    ) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_memory_fill",
            || format!("{ptr:#x}, {value:#x}, {count}"),
            |_, state| rules::fill(&mut state.memory, ptr, value, count, host),
        )
    }

    /// `hsa_amd_agents_allow_access`: `agents` may reach the allocation at
    /// `ptr` (its base, as ROCr looks it up), or the virtual-memory
    /// mapping holding `ptr` and those after it (read and write); any
    /// other address is `INVALID_ALLOCATION`, an agent that is none
    /// `INVALID_AGENT`.
    pub fn agents_allow_access(&self, agents: &[u64], ptr: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_amd_agents_allow_access",
            || format!("{agents:x?}, {ptr:#x}"),
            |topology, state| {
                state
                    .hsa_memory
                    .allow_access(topology, &mut state.memory, agents, ptr)
            },
        )
    }

    /// What `hsa_amd_pointer_info` answers about an address the node
    /// knows: an allocation (a HIP device allocation is one too), a loaded
    /// code object, or a virtual-memory reservation; `None` for any other
    /// (the C library then asks its host memory). Not a counted call: the
    /// C library's export counts it.
    pub fn describe_pointer(&self, ptr: u64) -> Option<PointerInfo> {
        let state = self.lock();
        state
            .hsa_memory
            .describe(&self.topology, &state.memory, &state.vmem, ptr)
    }

    /// Whether `address` lies in a loaded code object's image (no call is
    /// counted).
    pub fn is_loaded_code(&self, address: u64) -> bool {
        matches!(
            self.lock().memory.region_of(address),
            Some((_, RegionKind::CodeObject))
        )
    }

    /// A pool's owner (its agent's handle), whether that is a CPU, and its
    /// global flags as pointer info reports them; `None` for a handle that
    /// is no pool (no call is counted).
    pub fn pool_facts(&self, pool: u64) -> Option<(u64, bool, u32)> {
        rules::pool_facts(&self.topology, pool)
    }

    /// The handles of the CPU agents (`cpu`) or of the GPU agents, in HSA
    /// order (no call is counted).
    pub fn agents_of_kind(&self, cpu: bool) -> Vec<u64> {
        let wanted = if cpu { AgentKind::Cpu } else { AgentKind::Gpu };
        let agents = &self.topology.machine.agents;
        (0..agents.len())
            .filter(|&a| agents.get(a).is_some_and(|a| a.kind == wanted))
            .map(agent_handle)
            .collect()
    }
}
