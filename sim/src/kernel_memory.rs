//! The memory a kernel sees on the node: device memory, then the client's
//! host memory (pinned or registered, which kernels may address directly).
//!
//! A kernel runs without the node's lock held, so that other threads'
//! calls and other queues' work go on meanwhile, as on a GPU, and its
//! accesses take no lock of the node's either: each of the threads its
//! work-groups run on has a [`SharedNodeMemory`] over one
//! [`MemoryView`] of device memory taken when the dispatch started (what
//! lies where, mappings' permissions) and the grants its agent had then
//! ([`AgentReach`]); `MemoryView` says what a free or a permission change
//! on another thread meanwhile does. Atomics hold the view's lock of
//! their line across the read and the write, on device and host memory
//! alike. The client's host memory is reached through one lock per
//! dispatch. The packet processor's own reads and writes (the lock held)
//! go through a [`LockedNodeMemory`].

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};

use amdgpu_isa::{Access, Memory as KernelMemory, OutOfBounds};

use crate::memory::{Memory, MemoryView, RegionKind};
use crate::state::State;

/// The client's host memory as the threads of one kernel run share it.
pub(crate) type SharedHost<'a> = Mutex<&'a mut (dyn KernelMemory + Send)>;

/// What an agent's kernels may reach of device memory: the pools it
/// reaches by default (its own, and those accessible by all), the
/// allocations `hsa_amd_agents_allow_access` had granted it when the
/// dispatch started, and the virtual-memory mappings
/// `hsa_amd_vmem_set_access` gave it a permission on (as the dispatch's
/// [`MemoryView`] holds them).
pub(crate) struct AgentReach {
    /// The agent's index.
    pub(crate) index: usize,
    /// Per global pool index: reached without a grant.
    pub(crate) pools: Vec<bool>,
    /// Bases of the allocations granted to the agent.
    pub(crate) grants: BTreeSet<u64>,
}

impl AgentReach {
    /// What agent `index`, reaching `pools` by default, reaches as `state`
    /// stands now.
    pub(crate) fn new(state: &State, index: usize, pools: Vec<bool>) -> AgentReach {
        let grants = state
            .hsa_memory
            .grants()
            .iter()
            .filter(|(_, agents)| agents.contains(&index))
            .map(|(&base, _)| base)
            .collect();
        AgentReach {
            index,
            pools,
            grants,
        }
    }
}

/// Whether `agent` (`None`: a HIP launch, every region) may touch `len`
/// bytes at `address` of `view`, in the region of kind `kind` at `base`
/// (`write` for a store).
fn reaches(
    view: &MemoryView,
    agent: Option<&AgentReach>,
    (base, kind): (u64, RegionKind),
    address: u64,
    len: usize,
    write: bool,
) -> bool {
    let Some(agent) = agent else {
        return true;
    };
    match kind {
        RegionKind::Allocation { pool } => {
            agent.pools.get(pool).copied().unwrap_or(false) || agent.grants.contains(&base)
        }
        RegionKind::Mapping { .. } => view.agent_may(agent.index, address, len as u64, write),
        RegionKind::CodeObject => true,
    }
}

fn lock_host<'g, 'a>(
    host: &'g SharedHost<'a>,
) -> MutexGuard<'g, &'a mut (dyn KernelMemory + Send)> {
    host.lock().unwrap_or_else(|p| p.into_inner())
}

/// One kernel thread's view of the node's memory: device memory through
/// the dispatch's [`MemoryView`], no lock of the node's taken.
pub(crate) struct SharedNodeMemory<'a, 'h> {
    pub(crate) view: &'a MemoryView,
    pub(crate) host: &'a SharedHost<'h>,
    /// The agent a dispatch runs on, held to what it may reach; `None`
    /// (HIP launches): every device region.
    pub(crate) agent: Option<&'a AgentReach>,
}

impl KernelMemory for SharedNodeMemory<'_, '_> {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if let Some(region) = self.view.region_of(address) {
            if !reaches(self.view, self.agent, region, address, out.len(), false) {
                return Err(OutOfBounds);
            }
            return self.view.read(address, out).map_err(|_| OutOfBounds);
        }
        lock_host(self.host).read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        if let Some(region) = self.view.region_of(address) {
            if !reaches(self.view, self.agent, region, address, data.len(), true) {
                return Err(OutOfBounds);
            }
            return self.view.write(address, data).map_err(|_| OutOfBounds);
        }
        lock_host(self.host).write(address, data)
    }

    fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        let (view, agent, host) = (self.view, self.agent, self.host);
        view.atomically(address, |view| match view.region_of(address) {
            Some(region) => device_read_modify_write(view, agent, region, address, len, modify),
            // The line's lock and the host's held across the read and the
            // write: atomic among every dispatch's threads.
            None => lock_host(host).read_modify_write(address, len, modify),
        })
    }
}

/// An atomic on device memory, its line's lock held: refused as a load
/// where the agent may not read the bytes, as a store where it may not
/// write them.
fn device_read_modify_write(
    view: &MemoryView,
    agent: Option<&AgentReach>,
    region: (u64, RegionKind),
    address: u64,
    len: usize,
    modify: &mut dyn FnMut(u64) -> u64,
) -> Result<u64, Access> {
    let mut buf = [0u8; 8];
    let bytes = buf.get_mut(..len).ok_or(Access::Load)?;
    if !reaches(view, agent, region, address, len, false) {
        return Err(Access::Load);
    }
    view.read(address, bytes).map_err(|_| Access::Load)?;
    let old = u64::from_le_bytes(buf);
    if !reaches(view, agent, region, address, len, true) {
        return Err(Access::Store);
    }
    let new = modify(old).to_le_bytes();
    let new = new.get(..len).ok_or(Access::Store)?;
    view.write(address, new).map_err(|_| Access::Store)?;
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
