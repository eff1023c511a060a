//! HSA's runtime, agent, ISA and pool calls: `hsa_init`, the agents and
//! what each one's attributes read from the description, the ISAs, pools
//! and how an agent reaches a pool.

use std::fmt::Debug;

use amdgpu_sys::hsa_values::PoolAccess;

use crate::codes::HsaCode;
use crate::handles::{TAG_ISA, TAG_POOL, agent_handle, handle};
use crate::node::Sim;
use crate::validate::{Agent, Isa, Link, Pool};

impl Sim {
    // --- HSA: runtime and agents ------------------------------------------

    /// `hsa_init`.
    pub fn hsa_init(&self) -> Result<(), HsaCode> {
        self.hsa("hsa_init", String::new, |_, state| state.calls.init())
    }

    /// `hsa_shut_down`. Objects stay alive (and counted) so that leaks stay visible.
    pub fn hsa_shut_down(&self) -> Result<(), HsaCode> {
        self.hsa("hsa_shut_down", String::new, |_, state| {
            state.calls.shut_down();
            Ok(())
        })
    }

    /// `hsa_iterate_agents`.
    pub fn iterate_agents(&self) -> Result<Vec<u64>, HsaCode> {
        self.hsa("hsa_iterate_agents", String::new, |topology, _| {
            Ok((0..topology.machine.agents.len())
                .map(agent_handle)
                .collect())
        })
    }

    /// `hsa_agent_get_info` of one attribute, read from the validated agent.
    pub(crate) fn agent_info<T: Debug>(
        &self,
        agent: u64,
        attribute: &'static str,
        read: impl FnOnce(&Agent) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, {attribute}"),
            |topology, _| Ok(read(topology.agent(agent)?)),
        )
    }

    /// The index of the nearest CPU agent of a GPU agent, as its handle.
    pub(crate) fn agent_nearest_cpu(&self, agent: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, HSA_AMD_AGENT_INFO_NEAREST_CPU"),
            |topology, _| {
                let a = topology.agent(agent)?;
                match a.nearest_cpu {
                    Some(cpu) => Ok(agent_handle(cpu)),
                    None => Ok(agent),
                }
            },
        )
    }

    /// `HSA_AGENT_INFO_ISA`: the agent's first ISA, or handle 0 for an
    /// agent without one (ROCr's answer for a CPU).
    pub(crate) fn agent_isa(&self, agent: u64) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_agent_get_info",
            || format!("{agent:#x}, HSA_AGENT_INFO_ISA"),
            |topology, _| {
                let i = topology.agent_index(agent)?;
                Ok(topology
                    .tables
                    .agent_isas
                    .get(i)
                    .and_then(|ids| ids.first())
                    .map_or(0, |&id| handle(TAG_ISA, id as u64 + 1)))
            },
        )
    }

    /// `hsa_system_get_info` of one attribute (the machine's `[hsa]` table
    /// resolved, [`crate::hsa_info::SystemInfo::resolve`]).
    pub(crate) fn system_info<T: Debug>(
        &self,
        attribute: &'static str,
        read: impl FnOnce(&crate::hsa_info::SystemInfo) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_system_get_info",
            || attribute.to_string(),
            |topology, _| Ok(read(&topology.machine.system)),
        )
    }

    // --- HSA: ISAs --------------------------------------------------------

    /// `hsa_agent_iterate_isas`.
    pub fn agent_iterate_isas(&self, agent: u64) -> Result<Vec<u64>, HsaCode> {
        self.hsa(
            "hsa_agent_iterate_isas",
            || format!("{agent:#x}"),
            |topology, _| {
                let i = topology.agent_index(agent)?;
                let ids = topology
                    .tables
                    .agent_isas
                    .get(i)
                    .ok_or(HsaCode::INVALID_AGENT)?;
                Ok(ids
                    .iter()
                    .map(|&id| handle(TAG_ISA, id as u64 + 1))
                    .collect())
            },
        )
    }

    /// `hsa_isa_get_info_alt` of one attribute.
    pub(crate) fn isa_info<T: Debug>(
        &self,
        isa: u64,
        attribute: &'static str,
        read: impl FnOnce(&Isa) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_isa_get_info_alt",
            || format!("{isa:#x}, {attribute}"),
            |topology, _| Ok(read(topology.isa(isa)?)),
        )
    }

    // --- HSA: pools -------------------------------------------------------

    /// `hsa_amd_agent_iterate_memory_pools`.
    pub fn agent_iterate_memory_pools(&self, agent: u64) -> Result<Vec<u64>, HsaCode> {
        self.hsa(
            "hsa_amd_agent_iterate_memory_pools",
            || format!("{agent:#x}"),
            |topology, _| {
                let i = topology.agent_index(agent)?;
                let start = topology
                    .tables
                    .pool_start
                    .get(i)
                    .copied()
                    .ok_or(HsaCode::INVALID_AGENT)?;
                let count = topology.machine.agents.get(i).map_or(0, |a| a.pools.len());
                Ok((start..start + count)
                    .map(|p| handle(TAG_POOL, p as u64 + 1))
                    .collect())
            },
        )
    }

    /// `hsa_amd_memory_pool_get_info` of one attribute.
    pub(crate) fn pool_info<T: Debug>(
        &self,
        pool: u64,
        attribute: &'static str,
        read: impl FnOnce(&Pool) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_amd_memory_pool_get_info",
            || format!("{pool:#x}, {attribute}"),
            |topology, _| Ok(read(topology.pool(pool)?.1)),
        )
    }

    /// `hsa_amd_agent_memory_pool_get_info` of one attribute, read from
    /// how `agent` reaches `pool`: the access (the owner and pools marked
    /// accessible by all: allowed by default; reachable over a link:
    /// disallowed by default; otherwise never) and the link, `None` for the
    /// agent's own pool or an unreachable one.
    pub(crate) fn agent_pool_info<T: Debug>(
        &self,
        agent: u64,
        pool: u64,
        attribute: &'static str,
        read: impl FnOnce(PoolAccess, Option<&Link>) -> T,
    ) -> Result<T, HsaCode> {
        self.hsa(
            "hsa_amd_agent_memory_pool_get_info",
            || format!("{agent:#x}, {pool:#x}, {attribute}"),
            |topology, _| {
                let (from, owner, info, link) = topology.path(agent, pool)?;
                let access = if from == owner || info.accessible_by_all {
                    PoolAccess::AllowedByDefault
                } else if link.is_some() {
                    PoolAccess::DisallowedByDefault
                } else {
                    PoolAccess::NeverAllowed
                };
                Ok(read(access, link))
            },
        )
    }
}
