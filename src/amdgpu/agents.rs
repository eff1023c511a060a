//! The AMDGPU topology: which HSA agents a logical device uses
//! (IREE's `util/topology.h`).
//!
//! GPU agents become HAL queues (`gpu_agent_queue_count` each, uniform); CPU
//! agents service them. Each GPU is assigned the CPU agent on its NUMA node
//! (the first CPU agent when none shares it). Both lists are capped at 64 so
//! that agent sets fit in a 64-bit mask, as in IREE.

use crate::backend::{
    Agent, CallResultExt, DeviceType, GlobalFlags, Hsa, HsaExt, MemoryPool, Segment,
};
use crate::status::{Result, Status};

use super::queue_affinity::{MAX_QUEUES, QueueAffinityDomain};

/// Most GPU agents a topology holds (`IREE_HAL_AMDGPU_MAX_GPU_AGENT`).
pub const MAX_GPU_AGENTS: usize = 64;
/// Most CPU agents a topology holds (`IREE_HAL_AMDGPU_MAX_CPU_AGENT`).
pub const MAX_CPU_AGENTS: usize = 64;
/// HAL queues per GPU agent by default (`IREE_HAL_AMDGPU_DEFAULT_GPU_AGENT_QUEUE_COUNT`).
pub const DEFAULT_GPU_AGENT_QUEUE_COUNT: usize = 2;
/// Most queues per GPU agent (the queue-axis encoding limit, `UINT8_MAX`).
pub const MAX_GPU_AGENT_QUEUE_COUNT: usize = u8::MAX as usize;

/// The agents of a logical AMDGPU device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentTopology {
    cpu_agents: Vec<Agent>,
    gpu_agents: Vec<Agent>,
    gpu_agent_queue_count: usize,
    gpu_cpu_map: Vec<usize>,
}

impl AgentTopology {
    /// A topology of these agents; `gpu_cpu_map[i]` is the CPU ordinal of GPU
    /// `i`. Only the capacity limits are checked here (`RESOURCE_EXHAUSTED`);
    /// [`AgentTopology::verify`] checks that it is usable.
    pub fn new(
        cpu_agents: Vec<Agent>,
        gpu_agents: Vec<Agent>,
        gpu_cpu_map: Vec<usize>,
        gpu_agent_queue_count: usize,
    ) -> Result<AgentTopology> {
        if cpu_agents.len() > MAX_CPU_AGENTS {
            return Err(crate::status!(
                ResourceExhausted,
                "max CPU agent count reached (limit {MAX_CPU_AGENTS})"
            ));
        }
        if gpu_agents.len() > MAX_GPU_AGENTS {
            return Err(crate::status!(
                ResourceExhausted,
                "max GPU agent count reached (limit {MAX_GPU_AGENTS})"
            ));
        }
        if gpu_cpu_map.len() != gpu_agents.len() {
            return Err(crate::status!(
                InvalidArgument,
                "topology gpu_cpu_map has {} entries for {} GPU agents",
                gpu_cpu_map.len(),
                gpu_agents.len()
            ));
        }
        Ok(AgentTopology {
            cpu_agents,
            gpu_agents,
            gpu_agent_queue_count,
            gpu_cpu_map,
        })
    }

    /// Every agent of the backend, GPUs in enumeration order, each assigned
    /// the CPU agent on its NUMA node; then [`AgentTopology::verify`].
    pub fn from_backend(hsa: &dyn Hsa, gpu_agent_queue_count: usize) -> Result<AgentTopology> {
        let agents = hsa.iterate_agents().call_status("hsa_iterate_agents")?;
        let mut cpus = Vec::new();
        let mut gpus = Vec::new();
        for agent in agents {
            let kind = hsa
                .agent_device_type(agent)
                .call_status("hsa_agent_get_info")?;
            match kind {
                DeviceType::Cpu => {
                    let node = hsa.agent_node(agent).call_status("hsa_agent_get_info")?;
                    cpus.push((agent, node));
                }
                DeviceType::Gpu => {
                    let node = hsa.agent_node(agent).call_status("hsa_agent_get_info")?;
                    gpus.push((agent, node));
                }
                _ => {}
            }
        }
        let gpu_cpu_map = gpus
            .iter()
            .map(|(_, node)| cpus.iter().position(|(_, n)| n == node).unwrap_or(0))
            .collect();
        let topology = AgentTopology::new(
            cpus.into_iter().map(|(a, _)| a).collect(),
            gpus.into_iter().map(|(a, _)| a).collect(),
            gpu_cpu_map,
            gpu_agent_queue_count,
        )?;
        topology.verify()?;
        Ok(topology)
    }

    /// Checks the topology is usable: at least one CPU and one GPU agent and
    /// one queue per GPU, the queue count within its encoding, all queues
    /// addressable by a 64-bit affinity, no duplicate agents, and every
    /// GPU's CPU ordinal valid.
    pub fn verify(&self) -> Result<()> {
        let (cpus, gpus, q) = (
            self.cpu_agents.len(),
            self.gpu_agents.len(),
            self.gpu_agent_queue_count,
        );
        if cpus == 0 || gpus == 0 || q == 0 {
            return Err(crate::status!(
                InvalidArgument,
                "topology is invalid; must have at least one CPU agent and one GPU agent with at \
                 least one queue, have cpu_agent_count={cpus}, gpu_agent_count={gpus}, \
                 gpu_agent_queue_count={q}"
            ));
        }
        if q > MAX_GPU_AGENT_QUEUE_COUNT {
            return Err(crate::status!(
                OutOfRange,
                "gpu_agent_queue_count={q} exceeds the queue-axis encoding limit ({MAX_GPU_AGENT_QUEUE_COUNT})"
            ));
        }
        if gpus.checked_mul(q).is_none_or(|total| total > MAX_QUEUES) {
            return Err(crate::status!(
                OutOfRange,
                "topology queue space does not fit in iree_hal_queue_affinity_t \
                 (gpu_agent_count={gpus}, gpu_agent_queue_count={q}, max_total_queues={MAX_QUEUES})"
            ));
        }
        for (name, list) in [
            ("cpu_agents", &self.cpu_agents),
            ("gpu_agents", &self.gpu_agents),
        ] {
            let mut seen = std::collections::HashMap::new();
            for (j, agent) in list.iter().enumerate() {
                if let Some(i) = seen.insert(*agent, j) {
                    return Err(crate::status!(
                        InvalidArgument,
                        "topology {name} contains duplicate agent handles at ordinals {i} and {j}"
                    ));
                }
            }
        }
        if let Some((i, cpu)) = self
            .gpu_cpu_map
            .iter()
            .enumerate()
            .find(|(_, c)| **c >= cpus)
        {
            return Err(crate::status!(
                InvalidArgument,
                "topology gpu_cpu_map[{i}]={cpu} exceeds cpu_agent_count={cpus}"
            ));
        }
        Ok(())
    }

    /// The GPU agents; the index is the physical device ordinal.
    pub fn gpu_agents(&self) -> &[Agent] {
        &self.gpu_agents
    }

    /// The CPU agents.
    pub fn cpu_agents(&self) -> &[Agent] {
        &self.cpu_agents
    }

    /// HAL queues per GPU agent.
    pub fn gpu_agent_queue_count(&self) -> usize {
        self.gpu_agent_queue_count
    }

    /// The CPU agent ordinal servicing GPU `gpu_ordinal`.
    pub fn cpu_for_gpu(&self, gpu_ordinal: usize) -> Option<usize> {
        self.gpu_cpu_map.get(gpu_ordinal).copied()
    }

    /// The queue-affinity domain of the topology: every queue of every GPU.
    pub fn queue_affinity_domain(&self) -> Result<QueueAffinityDomain> {
        QueueAffinityDomain::for_devices(self.gpu_agents.len(), self.gpu_agent_queue_count)
    }
}

/// The first global-segment pool of `agent` that allows runtime allocation
/// and is coarse-grained (IREE's `find_coarse_global_memory_pool`);
/// `NOT_FOUND` when there is none.
pub fn find_coarse_global_memory_pool(hsa: &dyn Hsa, agent: Agent) -> Result<MemoryPool> {
    const CALL: &str = "hsa_amd_memory_pool_get_info";
    let pools = hsa
        .agent_iterate_memory_pools(agent)
        .call_status("hsa_amd_agent_iterate_memory_pools")?;
    for pool in pools {
        if hsa.memory_pool_segment(pool).call_status(CALL)? != Segment::Global {
            continue;
        }
        if !hsa.memory_pool_alloc_allowed(pool).call_status(CALL)? {
            continue;
        }
        if hsa
            .memory_pool_global_flags(pool)
            .call_status(CALL)?
            .contains(GlobalFlags::COARSE_GRAINED)
        {
            return Ok(pool);
        }
    }
    Err(Status::not_found(format!(
        "no memory pool matching the required flags {}",
        GlobalFlags::COARSE_GRAINED.bits()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    fn agents(range: std::ops::Range<u64>) -> Vec<Agent> {
        range.map(Agent).collect()
    }

    #[test]
    fn capacity_limits_are_iree_s() {
        let err = AgentTopology::new(agents(0..1), agents(1..66), vec![0; 65], 1).unwrap_err();
        assert_eq!(err.code(), StatusCode::ResourceExhausted);
        assert!(err.mentions("max GPU agent count reached (limit 64)"));
        let err = AgentTopology::new(agents(100..165), agents(1..2), vec![0], 1).unwrap_err();
        assert_eq!(err.code(), StatusCode::ResourceExhausted);
    }

    #[test]
    fn verify_rules() {
        let ok = AgentTopology::new(agents(0..1), agents(1..9), vec![0; 8], 2).unwrap();
        ok.verify().unwrap();
        assert_eq!(
            ok.queue_affinity_domain().unwrap().supported_affinity,
            0xFFFF
        );
        let none = AgentTopology::new(agents(0..1), vec![], vec![], 2).unwrap();
        assert_eq!(
            none.verify().unwrap_err().code(),
            StatusCode::InvalidArgument
        );
        let wide = AgentTopology::new(agents(0..1), agents(1..9), vec![0; 8], 9).unwrap();
        assert_eq!(wide.verify().unwrap_err().code(), StatusCode::OutOfRange);
        let dup =
            AgentTopology::new(agents(0..1), vec![Agent(5), Agent(5)], vec![0, 0], 1).unwrap();
        assert!(
            dup.verify()
                .unwrap_err()
                .mentions("duplicate agent handles at ordinals 0 and 1")
        );
        let bad_map = AgentTopology::new(agents(0..1), agents(1..2), vec![3], 1).unwrap();
        assert_eq!(
            bad_map.verify().unwrap_err().code(),
            StatusCode::InvalidArgument
        );
    }
}
