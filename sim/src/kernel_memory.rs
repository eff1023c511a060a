//! The memory a kernel sees on the node: device memory, then the client's
//! host memory (pinned or registered, which kernels may address directly).
//!
//! A kernel runs without the node's lock held, so that other threads'
//! calls and other queues' work go on meanwhile, as on a GPU: each of the
//! threads its work-groups run on has a [`SharedNodeMemory`], which takes
//! the lock for one access at a time (what lies where, and what the
//! dispatching agent may reach, is decided under it, with the access, so
//! a free on another thread cannot come between them). An atomic's read
//! and write are one access. The packet processor's own reads and writes
//! (the lock held) go through a [`LockedNodeMemory`].

use std::sync::{Mutex, MutexGuard};

use amdgpu_isa::{Access, Memory as KernelMemory, OutOfBounds};

use crate::memory::{Memory, RegionKind};
use crate::node::Sim;
use crate::state::State;

/// The client's host memory as the threads of one kernel run share it.
pub(crate) type SharedHost<'a> = Mutex<&'a mut (dyn KernelMemory + Send)>;

/// What an agent's kernels may reach of device memory: the pools it
/// reaches by default (its own, and those accessible by all), the
/// allocations `hsa_amd_agents_allow_access` granted it, and the
/// virtual-memory mappings `hsa_amd_vmem_set_access` gave it a
/// permission on (the grants and permissions read at each access).
pub(crate) struct AgentReach {
    /// The agent's index.
    pub(crate) index: usize,
    /// Per global pool index: reached without a grant.
    pub(crate) pools: Vec<bool>,
}

/// Whether `agent` (`None`: a HIP launch, every region) may touch `len`
/// bytes at `address` of device memory (`write` for a store).
fn reaches(
    state: &State,
    agent: Option<&AgentReach>,
    address: u64,
    len: usize,
    write: bool,
) -> bool {
    let Some(agent) = agent else {
        return true;
    };
    match state.memory.region_of(address) {
        Some((base, RegionKind::Allocation { pool })) => {
            agent.pools.get(pool).copied().unwrap_or(false)
                || state
                    .hsa_memory
                    .grants()
                    .get(&base)
                    .is_some_and(|g| g.contains(&agent.index))
        }
        Some((_, RegionKind::Mapping { .. })) => {
            state
                .memory
                .agent_may(agent.index, address, len as u64, write)
        }
        _ => true,
    }
}

fn lock_host<'g, 'a>(
    host: &'g SharedHost<'a>,
) -> MutexGuard<'g, &'a mut (dyn KernelMemory + Send)> {
    host.lock().unwrap_or_else(|p| p.into_inner())
}

/// One kernel thread's view of the node's memory, the node's lock taken
/// per access.
pub(crate) struct SharedNodeMemory<'a, 'h> {
    pub(crate) sim: &'a Sim,
    pub(crate) host: &'a SharedHost<'h>,
    /// The agent a dispatch runs on, held to what it may reach; `None`
    /// (HIP launches): every device region.
    pub(crate) agent: Option<&'a AgentReach>,
}

impl KernelMemory for SharedNodeMemory<'_, '_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        {
            let mut state = self.sim.lock();
            if state.memory.region_of(address).is_some() {
                if !reaches(&state, self.agent, address, out.len(), false) {
                    return Err(OutOfBounds);
                }
                return state.memory.read(address, out).map_err(|_| OutOfBounds);
            }
        }
        lock_host(self.host).read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        {
            let mut state = self.sim.lock();
            if state.memory.region_of(address).is_some() {
                if !reaches(&state, self.agent, address, data.len(), true) {
                    return Err(OutOfBounds);
                }
                return state.memory.write(address, data).map_err(|_| OutOfBounds);
            }
        }
        lock_host(self.host).write(address, data)
    }

    fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        {
            let mut state = self.sim.lock();
            if state.memory.region_of(address).is_some() {
                return device_read_modify_write(&mut state, self.agent, address, len, modify);
            }
        }
        // The host lock held across the read and the write: atomic among
        // the run's threads.
        lock_host(self.host).read_modify_write(address, len, modify)
    }
}

/// An atomic on device memory, the node's lock held: refused as a load
/// where the agent may not read the bytes, as a store where it may not
/// write them.
fn device_read_modify_write(
    state: &mut State,
    agent: Option<&AgentReach>,
    address: u64,
    len: usize,
    modify: &mut dyn FnMut(u64) -> u64,
) -> Result<u64, Access> {
    let mut buf = [0u8; 8];
    let bytes = buf.get_mut(..len).ok_or(Access::Load)?;
    if !reaches(state, agent, address, len, false) {
        return Err(Access::Load);
    }
    state
        .memory
        .read(address, bytes)
        .map_err(|_| Access::Load)?;
    let old = u64::from_le_bytes(buf);
    if !reaches(state, agent, address, len, true) {
        return Err(Access::Store);
    }
    let new = modify(old).to_le_bytes();
    let new = new.get(..len).ok_or(Access::Store)?;
    state
        .memory
        .write(address, new)
        .map_err(|_| Access::Store)?;
    Ok(old)
}

/// The node's memory with its lock held, then `host`: what the packet
/// processor reads and writes (not held to an agent's access; only
/// kernels are).
pub(crate) struct LockedNodeMemory<'a> {
    pub(crate) device: &'a mut Memory,
    pub(crate) host: &'a mut dyn KernelMemory,
}

impl KernelMemory for LockedNodeMemory<'_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if self.device.region_of(address).is_some() {
            return self.device.read(address, out).map_err(|_| OutOfBounds);
        }
        self.host.read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        if self.device.region_of(address).is_some() {
            return self.device.write(address, data).map_err(|_| OutOfBounds);
        }
        self.host.write(address, data)
    }
}
