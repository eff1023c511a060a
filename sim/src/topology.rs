//! The node's fixed shape: the validated [`Machine`] and the lookup tables
//! flattened from it (pools by global index, distinct ISAs, HIP ordinals),
//! and every query of agents, ISAs, pools, links and HIP devices by
//! handle or ordinal. Nothing here changes after the node is made, so it
//! is read without the node's lock.

use std::collections::HashMap;
use std::sync::Arc;

use amdgpu_sys::hip_types::HipDeviceProps;

use crate::codes::{HipCode, HsaCode};
use crate::handles::{TAG_AGENT, TAG_ISA, TAG_POOL, index};
use crate::isa::Target;
use crate::machine::AgentKind;
use crate::pm4::Generation;
use crate::validate::{Agent, HipProps, Isa, Link, Machine, Pool};

/// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED`.
const COARSE_GRAINED: u32 = 4;
/// `HSA_AMD_SEGMENT_GLOBAL`.
const SEGMENT_GLOBAL: u32 = 0;
/// Bytes of LDS a work-group may use on every AMD GPU the presets model
/// (`hipDeviceAttributeMaxSharedMemoryPerBlock` where the description gives none).
const DEFAULT_LDS_BYTES: u64 = 64 * 1024;

/// An agent's queue attributes (`Sim::queue_agent`): ROCr's
/// `hsa_queue_create` checks and what its `amd_queue_t` records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueAgent {
    /// A GPU (a CPU agent has no AQL packet processor).
    pub gpu: bool,
    /// `HSA_AGENT_INFO_QUEUE_TYPE`.
    pub queue_type: u32,
    /// `HSA_AGENT_INFO_QUEUE_MIN_SIZE` (packets).
    pub min_size: u32,
    /// `HSA_AGENT_INFO_QUEUE_MAX_SIZE` (packets).
    pub max_size: u32,
    /// `HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT`.
    pub compute_units: u32,
    /// `HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU`.
    pub max_waves_per_cu: u32,
    /// The command processor generation of its first ISA, which decides the
    /// PM4 forms its vendor packets take; `None` where the agent has no
    /// AQL PM4-IB packets (a CPU, a GPU before gfx9).
    pub pm4: Option<Generation>,
    /// Ticks per second of its clock counter (`crate::clock`): the node's
    /// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY`, which the `/dev/kfd` stand-in
    /// reports the GPU counter at too.
    pub gpu_clock_hz: u64,
}

/// The flattened, immutable lookup tables of a machine.
pub(crate) struct Tables {
    /// (agent, pool index within the agent) of each global pool index.
    pub(crate) pools: Vec<(usize, usize)>,
    /// First global pool index of each agent.
    pub(crate) pool_start: Vec<usize>,
    /// Distinct ISAs machine-wide (ROCr shares an ISA handle between agents).
    pub(crate) isas: Vec<Isa>,
    /// ISA ids of each agent, in priority order.
    pub(crate) agent_isas: Vec<Vec<usize>>,
    /// HIP ordinal → agent index.
    pub(crate) gpus: Vec<usize>,
}

/// A machine and its lookup tables.
pub(crate) struct Topology {
    /// The validated description.
    pub(crate) machine: Arc<Machine>,
    /// Its lookup tables.
    pub(crate) tables: Tables,
}

impl Topology {
    /// The tables of `machine`.
    pub(crate) fn new(machine: Machine) -> Topology {
        let mut pools = Vec::new();
        let mut pool_start = Vec::with_capacity(machine.agents.len());
        let mut isas: Vec<Isa> = Vec::new();
        let mut isa_ids: HashMap<&Isa, usize> = HashMap::new();
        let mut agent_isas = Vec::with_capacity(machine.agents.len());
        for (a, agent) in machine.agents.iter().enumerate() {
            pool_start.push(pools.len());
            pools.extend((0..agent.pools.len()).map(|p| (a, p)));
            // A map, not a scan: 128 agents of 64 distinct ISAs each would
            // make a scan 33M comparisons.
            let ids = agent
                .isas
                .iter()
                .map(|isa| {
                    *isa_ids.entry(isa).or_insert_with(|| {
                        isas.push(isa.clone());
                        isas.len() - 1
                    })
                })
                .collect();
            agent_isas.push(ids);
        }
        let gpus = machine.gpu_indices();
        Topology {
            machine: Arc::new(machine),
            tables: Tables {
                pools,
                pool_start,
                isas,
                agent_isas,
                gpus,
            },
        }
    }

    // --- HSA: agents, ISAs, pools and links by handle -----------------

    /// The index (HSA order) of agent handle `agent`.
    pub(crate) fn agent_index(&self, agent: u64) -> Result<usize, HsaCode> {
        index(agent, TAG_AGENT)
            .filter(|&i| i < self.machine.agents.len())
            .ok_or(HsaCode::INVALID_AGENT)
    }

    /// The agent of handle `agent`.
    pub(crate) fn agent(&self, agent: u64) -> Result<&Agent, HsaCode> {
        let i = self.agent_index(agent)?;
        self.machine.agents.get(i).ok_or(HsaCode::INVALID_AGENT)
    }

    /// The ISA of handle `isa`.
    pub(crate) fn isa(&self, isa: u64) -> Result<&Isa, HsaCode> {
        index(isa, TAG_ISA)
            .and_then(|i| self.tables.isas.get(i))
            .ok_or(HsaCode::INVALID_ISA)
    }

    /// The global index of pool handle `pool`.
    pub(crate) fn pool_index(&self, pool: u64) -> Result<usize, HsaCode> {
        index(pool, TAG_POOL)
            .filter(|&i| i < self.tables.pools.len())
            .ok_or(HsaCode::INVALID_MEMORY_POOL)
    }

    /// The owning agent's index and the pool.
    pub(crate) fn pool(&self, pool: u64) -> Result<(usize, &Pool), HsaCode> {
        let i = self.pool_index(pool)?;
        let &(agent, p) = self
            .tables
            .pools
            .get(i)
            .ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        let pool = self
            .machine
            .agents
            .get(agent)
            .and_then(|a| a.pools.get(p))
            .ok_or(HsaCode::INVALID_MEMORY_POOL)?;
        Ok((agent, pool))
    }

    /// How `agent` reaches `pool`: its index, the pool's owner, the pool,
    /// and the link between them (`None` for its own pool).
    pub(crate) fn path(
        &self,
        agent: u64,
        pool: u64,
    ) -> Result<(usize, usize, &Pool, Option<&Link>), HsaCode> {
        let from = self.agent_index(agent)?;
        let (owner, info) = self.pool(pool)?;
        Ok((
            from,
            owner,
            info,
            if from == owner {
                None
            } else {
                self.machine.link(from, owner)
            },
        ))
    }

    /// What `hsa_queue_create` checks and records for `agent`; `None` for
    /// a handle that is not an agent.
    pub(crate) fn queue_agent(&self, agent: u64) -> Option<QueueAgent> {
        let a = self.agent(agent).ok()?;
        Some(QueueAgent {
            gpu: a.kind == AgentKind::Gpu,
            queue_type: a.hsa.queue_type,
            min_size: a.hsa.queue_min_size,
            max_size: a.hsa.queue_max_size,
            compute_units: a.compute_units,
            max_waves_per_cu: a.hsa.max_waves_per_cu,
            pm4: a
                .isas
                .first()
                .and_then(|isa| Target::parse(&isa.name))
                .and_then(|t| Generation::of_processor(&t.processor)),
            gpu_clock_hz: self.machine.system.timestamp_frequency,
        })
    }

    /// Whether a code object for `target` runs on one of agent
    /// `agent_index`'s ISAs.
    pub(crate) fn runs_on(&self, agent_index: usize, target: &Target) -> bool {
        self.machine.agents.get(agent_index).is_some_and(|a| {
            a.isas
                .iter()
                .filter_map(|isa| Target::parse(&isa.name))
                .any(|isa| target.runs_on(&isa))
        })
    }

    /// Per global pool index: whether agent `agent`'s kernels reach it
    /// without `hsa_amd_agents_allow_access` (its own pools, and those
    /// accessible by all: `HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT`).
    pub(crate) fn pools_reached_by(&self, agent: usize) -> Vec<bool> {
        self.tables
            .pools
            .iter()
            .map(|&(owner, p)| {
                owner == agent
                    || self
                        .machine
                        .agents
                        .get(owner)
                        .and_then(|a| a.pools.get(p))
                        .is_some_and(|pool| pool.accessible_by_all)
            })
            .collect()
    }

    // --- HIP: devices by ordinal ----------------------------------------

    /// The GPU agent of ordinal `ordinal`.
    pub(crate) fn gpu_agent(&self, ordinal: i32) -> Result<usize, HipCode> {
        usize::try_from(ordinal)
            .ok()
            .and_then(|o| self.tables.gpus.get(o).copied())
            .ok_or(HipCode::INVALID_DEVICE)
    }

    /// Global pool index of the coarse-grained global pool of `ordinal`'s
    /// agent, where HIP device allocations come from.
    pub(crate) fn device_pool(&self, ordinal: i32) -> Result<(usize, &Pool), HipCode> {
        let agent = self.gpu_agent(ordinal)?;
        let start = self.tables.pool_start.get(agent).copied().unwrap_or(0);
        self.machine
            .agents
            .get(agent)
            .into_iter()
            .flat_map(|a| a.pools.iter().enumerate())
            .find(|(_, p)| {
                p.segment == SEGMENT_GLOBAL && p.flags & COARSE_GRAINED != 0 && p.alloc_allowed
            })
            .map(|(i, p)| (start + i, p))
            .ok_or(HipCode::OUT_OF_MEMORY)
    }

    /// The HIP description of device `ordinal`.
    pub(crate) fn hip_props(&self, ordinal: i32) -> Result<&HipProps, HipCode> {
        let agent = usize::try_from(ordinal)
            .ok()
            .and_then(|o| self.tables.gpus.get(o))
            .ok_or(HipCode::INVALID_DEVICE)?;
        self.machine
            .agents
            .get(*agent)
            .and_then(|a| a.hip.as_ref())
            .ok_or(HipCode::INVALID_DEVICE)
    }

    /// The link from device `src` to device `dst`, if any.
    pub(crate) fn gpu_link(&self, src: i32, dst: i32) -> Result<Option<&Link>, HipCode> {
        let agent = |o: i32| {
            usize::try_from(o)
                .ok()
                .and_then(|o| self.tables.gpus.get(o).copied())
        };
        let (a, b) = (
            agent(src).ok_or(HipCode::INVALID_DEVICE)?,
            agent(dst).ok_or(HipCode::INVALID_DEVICE)?,
        );
        Ok(self.machine.link(a, b))
    }

    /// The properties of `ordinal` (what `hipGetDeviceProperties` answers).
    pub(crate) fn device_properties(&self, ordinal: i32) -> Result<HipDeviceProps, HipCode> {
        Ok(self.hip_props(ordinal)?.device.clone())
    }

    /// The ISAs of `ordinal`'s agent, parsed.
    pub(crate) fn device_isas(&self, ordinal: i32) -> Result<Vec<Target>, HipCode> {
        let agent = self.gpu_agent(ordinal)?;
        Ok(self
            .machine
            .agents
            .get(agent)
            .map(|a| {
                a.isas
                    .iter()
                    .filter_map(|i| Target::parse(&i.name))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// LDS bytes one work-group may use on `ordinal`.
    pub(crate) fn lds_limit(&self, ordinal: i32) -> u64 {
        self.hip_props(ordinal)
            .ok()
            .map(|p| p.device.shared_mem_per_block)
            .filter(|&b| b > 0)
            .unwrap_or(DEFAULT_LDS_BYTES)
    }
}
