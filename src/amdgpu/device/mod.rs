//! The AMDGPU HAL device: one GPU agent of an HSA runtime (real or
//! simulated) as a member of a device group.
//!
//! Capabilities (from agent and pool info):
//!
//! | field | from |
//! |---|---|
//! | `physical_device_uuid` | `HSA_AMD_AGENT_INFO_UUID` `GPU-<16 hex>` (8 bytes, zero padded); none for `GPU-XX` |
//! | `driver_device_handle` | the agent handle (two devices over one agent alias to a self edge) |
//! | `numa_node` | the NUMA node (`HSA_AGENT_INFO_NODE`) of the nearest CPU agent: `HSA_AMD_AGENT_INFO_NEAREST_CPU`, or on runtimes without it, among the CPU agents whose first global pool the GPU has a path to, the smallest worst-hop NUMA distance, then fewest hops, then the first; 0 when none is reachable |
//! | flags | `TIMELINE_SEMAPHORES`, `HOST_COHERENT`, `ATOMIC_SCOPE_DEVICE`, `ATOMIC_SCOPE_SYSTEM`, `P2P_COPY` (as IREE: peer specifics are the refinement's job) |
//! | semaphore handles | *ours:* export/import `NATIVE`: HSA signals are process-wide, so an amdgpu queue waits on another amdgpu device's signal directly (IREE reports none, which derives COPY waits between its own GPUs) |
//!
//! Same-driver edges are refined from the pools and link hops, see [`link`].
//! The edge `src -> dst` describes how `dst` uses `src`'s resources, so the
//! refinement asks how the *destination* agent reaches the *source* agent's
//! global pools (IREE's driver asks the opposite, which disagrees with its
//! own bitmap semantics; on symmetric machines the two agree).

pub mod link;

use std::num::NonZeroU64;
use std::sync::Arc;

use crate::backend::{
    Agent, CallResultExt, DeviceType, GlobalFlags, Hsa, HsaExt, HsaStatus, MemoryPool, Segment,
};
use crate::device::{FrontierTracker, HalDevice, TopologyInfo, TopologySlot};
use crate::group::{DeviceGroup, DeviceGroupBuilder};
use crate::status::{Result, ResultExt, Status};
use crate::topology::numa::SLIT_LOCAL;
use crate::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, Edge, HandleTypes, MAX_DEVICE_COUNT, SlitTable,
};

use link::PeerMemoryPath;

/// The driver name (device id) of AMDGPU devices.
pub const AMDGPU_DRIVER_ID: &str = "amdgpu";

/// One GPU agent as a HAL device.
pub struct AmdgpuDevice {
    hsa: Arc<dyn Hsa>,
    agent: Agent,
    ordinal: usize,
    slot: TopologySlot,
}

impl std::fmt::Debug for AmdgpuDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AmdgpuDevice")
            .field("agent", &self.agent)
            .field("ordinal", &self.ordinal)
            .finish_non_exhaustive()
    }
}

impl AmdgpuDevice {
    /// The device over GPU agent `agent`, the `ordinal`-th GPU agent.
    /// `INVALID_ARGUMENT` when the agent is not a GPU.
    pub fn new(hsa: Arc<dyn Hsa>, agent: Agent, ordinal: usize) -> Result<AmdgpuDevice> {
        let kind = hsa
            .agent_device_type(agent)
            .call_status("hsa_agent_get_info(HSA_AGENT_INFO_DEVICE)")?;
        if kind != DeviceType::Gpu {
            return Err(Status::invalid_argument(format!(
                "agent 0x{:x} is not a GPU agent ({kind:?})",
                agent.handle()
            )));
        }
        Ok(AmdgpuDevice {
            hsa,
            agent,
            ordinal,
            slot: TopologySlot::new(),
        })
    }

    /// One device per GPU agent, in the runtime's agent order.
    /// `RESOURCE_EXHAUSTED` above 32 GPU agents (a group's limit).
    pub fn enumerate(hsa: &Arc<dyn Hsa>) -> Result<Vec<Arc<AmdgpuDevice>>> {
        let mut devices = Vec::new();
        for agent in gpu_agents(hsa.as_ref())? {
            if devices.len() >= MAX_DEVICE_COUNT {
                return Err(Status::resource_exhausted(format!(
                    "more than {MAX_DEVICE_COUNT} GPU agents; a device group holds at most {MAX_DEVICE_COUNT}"
                )));
            }
            let ordinal = devices.len();
            devices.push(Arc::new(AmdgpuDevice::new(
                Arc::clone(hsa),
                agent,
                ordinal,
            )?));
        }
        Ok(devices)
    }

    /// The GPU agent.
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// The index of the agent among the runtime's GPU agents.
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// The NUMA node of the nearest CPU agent (0 when there is none):
    /// `HSA_AMD_AGENT_INFO_NEAREST_CPU` where the runtime has it, else the
    /// CPU agent the GPU reaches over the shortest path (see the module docs).
    pub fn host_numa_node(&self) -> Result<u32> {
        let hsa = self.hsa.as_ref();
        match hsa.agent_nearest_cpu(self.agent) {
            Ok(cpu) => {
                return hsa
                    .agent_node(cpu)
                    .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NODE)");
            }
            // Runtimes before ROCm 6.2 do not know the attribute.
            Err(HsaStatus::ErrorInvalidArgument) => {}
            Err(status) => {
                return Err(status.to_status("hsa_agent_get_info(HSA_AMD_AGENT_INFO_NEAREST_CPU)"));
            }
        }
        self.host_numa_node_by_links()
    }

    /// The fallback of [`host_numa_node`](Self::host_numa_node): the node of
    /// the CPU agent whose first global pool this GPU reaches with the
    /// smallest worst-hop NUMA distance, then the fewest hops, then the first.
    pub fn host_numa_node_by_links(&self) -> Result<u32> {
        let hsa = self.hsa.as_ref();
        let mut best: Option<((u32, usize), u32)> = None;
        for cpu in hsa.iterate_agents().call_status("hsa_iterate_agents")? {
            if hsa
                .agent_device_type(cpu)
                .call_status("hsa_agent_get_info(HSA_AGENT_INFO_DEVICE)")?
                != DeviceType::Cpu
            {
                continue;
            }
            let Some(pool) = global_pools(hsa, cpu)?.into_iter().next() else {
                continue;
            };
            let hops = hsa
                .agent_memory_pool_link_info(self.agent, pool)
                .call_status("hsa_amd_agent_memory_pool_get_info(LINK_INFO)")?;
            // No hops: HSA reports no path to that CPU's memory at all.
            let Some(distance) = hops.iter().map(|hop| hop.numa_distance).max() else {
                continue;
            };
            let key = (distance, hops.len());
            if best.is_none_or(|(best_key, _)| key < best_key) {
                let node = hsa
                    .agent_node(cpu)
                    .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NODE)")?;
                best = Some((key, node));
            }
        }
        Ok(best.map_or(0, |(_, node)| node))
    }

    /// How this device's agent reaches `owner`'s global memory.
    fn path_to(&self, owner: Agent) -> Result<PeerMemoryPath> {
        let hsa = self.hsa.as_ref();
        let (coarse, fine) = granular_pools(hsa, owner)?;
        let access = |pool: Option<MemoryPool>| -> Result<_> {
            pool.map(|pool| {
                hsa.agent_memory_pool_access(self.agent, pool)
                    .call_status("hsa_amd_agent_memory_pool_get_info(ACCESS)")
            })
            .transpose()
        };
        let hops = match coarse.or(fine) {
            Some(pool) => hsa
                .agent_memory_pool_link_info(self.agent, pool)
                .call_status("hsa_amd_agent_memory_pool_get_info(LINK_INFO)")?,
            None => Vec::new(),
        };
        Ok(PeerMemoryPath {
            coarse: access(coarse)?,
            fine: access(fine)?,
            hops,
        })
    }
}

/// A device group of one [`AmdgpuDevice`] per GPU agent of `hsa`, in agent
/// order, with NUMA distances from [`hsa_numa_distances`]. The runtime must
/// be initialized (`Hsa::init`) while the group is used.
pub fn create_gpu_agent_group(
    hsa: &Arc<dyn Hsa>,
    tracker: Arc<FrontierTracker>,
) -> Result<DeviceGroup> {
    let numa = hsa_numa_distances(hsa.as_ref())?;
    let mut builder = DeviceGroupBuilder::new(tracker).with_numa_distances(Arc::new(numa));
    for device in AmdgpuDevice::enumerate(hsa)? {
        builder.add_device(device)?;
    }
    builder.finalize()
}

/// The SLIT of the CPU agents as HSA reports it, for
/// [`DeviceGroupBuilder::with_numa_distances`](crate::group::DeviceGroupBuilder::with_numa_distances):
/// entry `[a][b]` is the worst hop NUMA distance on the path from the CPU
/// agent of node `a` to the first global pool of the CPU agent of node `b`,
/// 10 on the diagonal, unknown where HSA reports no path. Unlike the host's
/// sysfs this describes the machine the backend runs on (the simulated one
/// too), so results stay deterministic.
pub fn hsa_numa_distances(hsa: &dyn Hsa) -> Result<SlitTable> {
    let mut cpus = Vec::new();
    for agent in hsa.iterate_agents().call_status("hsa_iterate_agents")? {
        if hsa
            .agent_device_type(agent)
            .call_status("hsa_agent_get_info(HSA_AGENT_INFO_DEVICE)")?
            == DeviceType::Cpu
        {
            let node = hsa
                .agent_node(agent)
                .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NODE)")?;
            if let Ok(node) = u8::try_from(node) {
                cpus.push((
                    agent,
                    usize::from(node),
                    global_pools(hsa, agent)?.into_iter().next(),
                ));
            }
        }
    }
    let nodes = cpus.iter().map(|(_, node, _)| node + 1).max().unwrap_or(0);
    let mut rows = vec![vec![0u8; nodes]; nodes];
    let mut known = vec![vec![false; nodes]; nodes];
    for &(from, a, _) in &cpus {
        for &(_, b, pool) in &cpus {
            let distance = if a == b {
                Some(SLIT_LOCAL)
            } else if let Some(pool) = pool {
                let hops = hsa
                    .agent_memory_pool_link_info(from, pool)
                    .call_status("hsa_amd_agent_memory_pool_get_info(LINK_INFO)")?;
                hops.iter()
                    .map(|hop| u8::try_from(hop.numa_distance).unwrap_or(u8::MAX))
                    .max()
            } else {
                None
            };
            let cell = rows.get_mut(a).and_then(|row| row.get_mut(b));
            let seen = known.get_mut(a).and_then(|row| row.get_mut(b));
            if let (Some(distance), Some(cell), Some(seen)) = (distance, cell, seen) {
                *cell = distance;
                *seen = true;
            }
        }
    }
    Ok(SlitTable::with_unknown(rows, known))
}

fn gpu_agents(hsa: &dyn Hsa) -> Result<Vec<Agent>> {
    let mut gpus = Vec::new();
    for agent in hsa.iterate_agents().call_status("hsa_iterate_agents")? {
        if hsa
            .agent_device_type(agent)
            .call_status("hsa_agent_get_info(HSA_AGENT_INFO_DEVICE)")?
            == DeviceType::Gpu
        {
            gpus.push(agent);
        }
    }
    Ok(gpus)
}

fn global_pools(hsa: &dyn Hsa, agent: Agent) -> Result<Vec<MemoryPool>> {
    let mut pools = Vec::new();
    for pool in hsa
        .agent_iterate_memory_pools(agent)
        .call_status("hsa_amd_agent_iterate_memory_pools")?
    {
        if hsa
            .memory_pool_segment(pool)
            .call_status("hsa_amd_memory_pool_get_info(SEGMENT)")?
            == Segment::Global
        {
            pools.push(pool);
        }
    }
    Ok(pools)
}

/// The first coarse-grained and the first fine-grained global pool.
fn granular_pools(hsa: &dyn Hsa, agent: Agent) -> Result<(Option<MemoryPool>, Option<MemoryPool>)> {
    let (mut coarse, mut fine) = (None, None);
    for pool in global_pools(hsa, agent)? {
        let flags = hsa
            .memory_pool_global_flags(pool)
            .call_status("hsa_amd_memory_pool_get_info(GLOBAL_FLAGS)")?;
        if coarse.is_none() && flags.contains(GlobalFlags::COARSE_GRAINED) {
            coarse = Some(pool);
        }
        if fine.is_none()
            && flags
                .intersects(GlobalFlags::FINE_GRAINED | GlobalFlags::EXTENDED_SCOPE_FINE_GRAINED)
        {
            fine = Some(pool);
        }
    }
    Ok((coarse, fine))
}

/// The 8 bytes of a `GPU-<16 hex digits>` UUID, zero padded to 16.
pub fn parse_agent_uuid(uuid: &str) -> Option<[u8; 16]> {
    let hex = uuid.strip_prefix("GPU-")?;
    if hex.len() != 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let value = u64::from_str_radix(hex, 16).ok()?;
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&value.to_be_bytes());
    Some(bytes)
}

impl HalDevice for AmdgpuDevice {
    fn id(&self) -> &str {
        AMDGPU_DRIVER_ID
    }

    fn query_capabilities(&self) -> Result<DeviceCapabilities> {
        let uuid = self
            .hsa
            .agent_uuid(self.agent)
            .call_status("hsa_agent_get_info(HSA_AMD_AGENT_INFO_UUID)")?;
        let numa_node = self.host_numa_node()?;
        Ok(DeviceCapabilities {
            flags: DeviceCapabilityFlags::TIMELINE_SEMAPHORES
                | DeviceCapabilityFlags::HOST_COHERENT
                | DeviceCapabilityFlags::ATOMIC_SCOPE_DEVICE
                | DeviceCapabilityFlags::ATOMIC_SCOPE_SYSTEM
                | DeviceCapabilityFlags::P2P_COPY,
            semaphore_export_types: HandleTypes::NATIVE,
            semaphore_import_types: HandleTypes::NATIVE,
            buffer_export_types: HandleTypes::empty(),
            buffer_import_types: HandleTypes::empty(),
            // Nodes above 255 do not fit IREE's u8; 0 is its "unknown".
            numa_node: u8::try_from(numa_node).unwrap_or(0),
            physical_device_uuid: parse_agent_uuid(&uuid),
            driver_device_handle: NonZeroU64::new(self.agent.handle()),
            device_group_index: None,
        })
    }

    fn refine_topology_edge(&self, dst: &dyn HalDevice, edge: &mut Edge) -> Result<()> {
        let Some(dst) = (dst as &dyn std::any::Any).downcast_ref::<AmdgpuDevice>() else {
            return Ok(());
        };
        // Agents of different runtimes share nothing the links could tell.
        if !Arc::ptr_eq(&self.hsa, &dst.hsa) || self.agent == dst.agent {
            return Ok(());
        }
        let forward = link::physical_link(&dst.path_to(self.agent)?).annotate_with(|| {
            format!(
                "GPU agent {} reaching GPU agent {}",
                dst.ordinal, self.ordinal
            )
        })?;
        let reverse = link::physical_link(&self.path_to(dst.agent)?).annotate_with(|| {
            format!(
                "GPU agent {} reaching GPU agent {}",
                self.ordinal, dst.ordinal
            )
        })?;
        let cross_numa = self.host_numa_node()? != dst.host_numa_node()?;
        link::apply(edge, &forward, &reverse, cross_numa);
        Ok(())
    }

    fn assign_topology_info(&self, info: Option<TopologyInfo>) -> Result<()> {
        self.slot.set(info);
        Ok(())
    }

    fn topology_info(&self) -> Option<TopologyInfo> {
        self.slot.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_parsing() {
        let uuid = parse_agent_uuid("GPU-124d13ccd7b050e5").unwrap();
        assert_eq!(
            &uuid[..8],
            &[0x12, 0x4d, 0x13, 0xcc, 0xd7, 0xb0, 0x50, 0xe5]
        );
        assert_eq!(&uuid[8..], &[0; 8]);
        for bad in [
            "GPU-XX",
            "CPU-XX",
            "GPU-124d13ccd7b050e",
            "GPU-124d13ccd7b050e5f",
            "GPU-+24d13ccd7b050e5",
            "",
        ] {
            assert_eq!(parse_agent_uuid(bad), None, "{bad}");
        }
    }
}
