//! The agents of a machine, enumerated through the backend traits exactly
//! as the HAL enumerates them (init, iterate agents, per-agent info, ISAs in
//! priority order, memory pools, shut down): the HSA half of `devices`.

use serde::Serialize;

use crate::backend::{
    Agent, Backend, CallResultExt, DeviceType, GlobalFlags, Hsa, HsaExt, MemoryPool, Segment,
};
use crate::status::{Result, Status};

/// One agent.
#[derive(Debug, Serialize)]
pub struct AgentJson {
    /// Position in HSA order.
    pub index: usize,
    /// `gpu` or `cpu`.
    pub kind: &'static str,
    /// `HSA_AGENT_INFO_NAME`.
    pub name: String,
    /// `HSA_AMD_AGENT_INFO_UUID`.
    pub uuid: String,
    /// ISA names in priority order.
    pub isas: Vec<String>,
    /// The host NUMA node.
    pub numa_node: u32,
    /// `HSA_AMD_AGENT_INFO_PRODUCT_NAME`.
    pub product: String,
    /// `HSA_AGENT_INFO_NODE` (the KFD node).
    pub node: u32,
    /// Memory pools in HSA order.
    pub pools: Vec<PoolJson>,
    /// A GPU's position among the GPUs: `GPU<k>` of `topology`, `GPU agent[k]`
    /// of the loader's messages, the HIP ordinal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_index: Option<usize>,
    /// IREE's device id (HIP device + 1) of a GPU, where HIP answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_id: Option<i32>,
    /// IREE's device path of a GPU (`GPU-` + the HIP UUID, 8-4-4-4-12),
    /// where HIP answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// One memory pool.
#[derive(Debug, Serialize)]
pub struct PoolJson {
    /// `global`, `readonly`, `private` or `group`.
    pub segment: &'static str,
    /// Global flags.
    pub flags: Vec<&'static str>,
    /// Bytes.
    pub size: u64,
    /// Runtime allocation allowed.
    pub alloc_allowed: bool,
}

fn segment_name(segment: Segment) -> &'static str {
    match segment {
        Segment::Global => "global",
        Segment::Readonly => "readonly",
        Segment::Private => "private",
        Segment::Group => "group",
    }
}

fn flag_names(flags: GlobalFlags) -> Vec<&'static str> {
    [
        (GlobalFlags::KERNARG_INIT, "kernarg_init"),
        (GlobalFlags::FINE_GRAINED, "fine_grained"),
        (GlobalFlags::COARSE_GRAINED, "coarse_grained"),
        (
            GlobalFlags::EXTENDED_SCOPE_FINE_GRAINED,
            "extended_scope_fine_grained",
        ),
    ]
    .into_iter()
    .filter(|(flag, _)| flags.contains(*flag))
    .map(|(_, name)| name)
    .collect()
}

fn describe_agent(hsa: &dyn Hsa, index: usize, agent: Agent) -> Result<AgentJson> {
    let kind = hsa
        .agent_device_type(agent)
        .call_status("hsa_agent_get_info(HSA_AGENT_INFO_DEVICE)")?;
    let name = hsa
        .agent_name(agent)
        .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NAME)")?;
    let uuid = hsa
        .agent_uuid(agent)
        .call_status("hsa_agent_get_info(HSA_AMD_AGENT_INFO_UUID)")?;
    let product = hsa
        .agent_product_name(agent)
        .call_status("hsa_agent_get_info(HSA_AMD_AGENT_INFO_PRODUCT_NAME)")?;
    let node = hsa
        .agent_node(agent)
        .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NODE)")?;
    let numa_node = match kind {
        DeviceType::Cpu => node,
        _ => {
            let cpu = hsa
                .agent_nearest_cpu(agent)
                .call_status("hsa_agent_get_info(HSA_AMD_AGENT_INFO_NEAREST_CPU)")?;
            hsa.agent_node(cpu)
                .call_status("hsa_agent_get_info(HSA_AGENT_INFO_NODE)")?
        }
    };
    let mut isas = Vec::new();
    for isa in hsa
        .agent_iterate_isas(agent)
        .call_status("hsa_agent_iterate_isas")?
    {
        isas.push(
            hsa.isa_name(isa)
                .call_status("hsa_isa_get_info_alt(HSA_ISA_INFO_NAME)")?,
        );
    }
    let mut pools = Vec::new();
    for pool in hsa
        .agent_iterate_memory_pools(agent)
        .call_status("hsa_amd_agent_iterate_memory_pools")?
    {
        let basics = PoolBasics::query(hsa, pool)?;
        pools.push(PoolJson {
            segment: segment_name(basics.segment),
            flags: flag_names(basics.flags),
            size: basics.size,
            alloc_allowed: basics.alloc_allowed,
        });
    }
    Ok(AgentJson {
        index,
        kind: kind.as_str(),
        name,
        uuid,
        isas,
        numa_node,
        product,
        node,
        pools,
        gpu_index: None,
        device_id: None,
        path: None,
    })
}

/// Every agent of `backend` through its HSA trait, whatever the backend's
/// name; HSA is initialized for the walk and shut down after it (also on
/// failure).
pub fn list_hsa_agents(backend: &Backend) -> Result<Vec<AgentJson>> {
    let hsa = backend.hsa()?;
    hsa.init().call_status("hsa_init")?;
    let walk = (|| {
        let mut agents = Vec::new();
        for (index, agent) in hsa
            .iterate_agents()
            .call_status("hsa_iterate_agents")?
            .into_iter()
            .enumerate()
        {
            agents.push(
                describe_agent(hsa, index, agent)
                    .map_err(|s| s.annotate(format!("agent {index}")))?,
            );
        }
        Ok(agents)
    })();
    Status::join_results(walk, hsa.shut_down().call_status("hsa_shut_down"))
}

/// What both `devices` and `capture` ask of every memory pool.
pub(super) struct PoolBasics {
    pub segment: Segment,
    /// Global-segment flags (empty for other segments, which have none).
    pub flags: GlobalFlags,
    pub size: u64,
    pub alloc_allowed: bool,
}

impl PoolBasics {
    /// Queries `pool`'s segment, flags, size and whether the runtime may
    /// allocate from it.
    pub(super) fn query(hsa: &dyn Hsa, pool: MemoryPool) -> Result<PoolBasics> {
        let segment = hsa
            .memory_pool_segment(pool)
            .call_status("hsa_amd_memory_pool_get_info(SEGMENT)")?;
        let flags = if segment == Segment::Global {
            hsa.memory_pool_global_flags(pool)
                .call_status("hsa_amd_memory_pool_get_info(GLOBAL_FLAGS)")?
        } else {
            GlobalFlags::empty()
        };
        Ok(PoolBasics {
            segment,
            flags,
            size: hsa
                .memory_pool_size(pool)
                .call_status("hsa_amd_memory_pool_get_info(SIZE)")?,
            alloc_allowed: hsa
                .memory_pool_alloc_allowed(pool)
                .call_status("hsa_amd_memory_pool_get_info(RUNTIME_ALLOC_ALLOWED)")?,
        })
    }
}
