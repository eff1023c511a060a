//! The `capture` document: a machine description (the simulator's TOML
//! format, `amdgpu_sim::machine`) of what a backend reports, so a node seen
//! once on real hardware replays in the simulator (`--machine FILE`).
//!
//! - HSA backends (`sim`, `hsa`): every agent through HSA (kind, names, UUID,
//!   node, limits, ISAs with their workgroup limits, memory pools), the
//!   links between agents from `LINK_INFO` (one entry per direction), and for
//!   GPUs the HIP properties of the same ordinal when HIP answers;
//! - HIP backends (`hip`, `cuda`): the GPUs as IREE's HIP driver sees them,
//!   with their HIP properties and peer links, plus the host CPU agents and
//!   NUMA distances that implies ([`super::capture_hip`] has the rules).
//!
//! The runtime versions (`hipDriverGetVersion`, `hipRuntimeGetVersion`,
//! RCCL/NCCL's `ncclGetVersion`) go in `[hip]`. Output is deterministic: the
//! same backend answers give the same bytes.

use super::agents::PoolBasics;
use super::capture_hip::{hip_props_desc, hip_uuid_desc};
use crate::backend::{
    Agent, Backend, CallResultExt, DeviceType, GlobalFlags, HipError, Hsa, HsaExt, HsaResult,
    HsaStatus, LinkType, Profile, RoundingMode, Segment,
};
use crate::status::{Result, Status};
use amdgpu_sim::machine::{
    AgentDesc, AgentHsaDesc, AgentIds, AgentKind, HipPropsDesc, HipRuntimeDesc, IsaDesc, LinkDesc,
    LinkTypeDesc, MachineDesc, PoolDesc, PoolFlag, ProfileDesc, RoundingDesc, SegmentDesc,
};

fn segment_desc(segment: Segment) -> SegmentDesc {
    match segment {
        Segment::Global => SegmentDesc::Global,
        Segment::Readonly => SegmentDesc::Readonly,
        Segment::Private => SegmentDesc::Private,
        Segment::Group => SegmentDesc::Group,
    }
}

fn flag_descs(flags: GlobalFlags) -> Vec<PoolFlag> {
    [
        (GlobalFlags::KERNARG_INIT, PoolFlag::KernargInit),
        (GlobalFlags::FINE_GRAINED, PoolFlag::FineGrained),
        (GlobalFlags::COARSE_GRAINED, PoolFlag::CoarseGrained),
        (
            GlobalFlags::EXTENDED_SCOPE_FINE_GRAINED,
            PoolFlag::ExtendedScopeFineGrained,
        ),
    ]
    .into_iter()
    .filter(|(flag, _)| flags.contains(*flag))
    .map(|(_, desc)| desc)
    .collect()
}

fn link_type_desc(link_type: LinkType) -> Option<LinkTypeDesc> {
    Some(match link_type {
        LinkType::HyperTransport => LinkTypeDesc::Hypertransport,
        LinkType::Qpi => LinkTypeDesc::Qpi,
        LinkType::Pcie => LinkTypeDesc::Pcie,
        LinkType::Infiniband => LinkTypeDesc::Infiniband,
        LinkType::Xgmi => LinkTypeDesc::Xgmi,
        LinkType::Other(_) => return None,
    })
}

/// One HSA agent; `gpu_ordinal` is its HIP ordinal (GPUs in HSA order).
/// One HSA agent; `gpu_ordinal` is its HIP ordinal (GPUs in HSA order).
fn hsa_agent(
    backend: &Backend,
    agent: Agent,
    id: String,
    gpu_ordinal: Option<i32>,
) -> Result<AgentDesc> {
    let hsa = backend.hsa()?;
    let kind = match hsa
        .agent_device_type(agent)
        .call_status("hsa_agent_get_info(DEVICE)")?
    {
        DeviceType::Cpu => AgentKind::Cpu,
        DeviceType::Gpu => AgentKind::Gpu,
        other => {
            return Err(Status::unimplemented(format!(
                "agent kind '{}' cannot be described",
                other.as_str()
            )));
        }
    };
    let mut isas = Vec::new();
    for isa in hsa
        .agent_iterate_isas(agent)
        .call_status("hsa_agent_iterate_isas")?
    {
        isas.push(IsaDesc {
            name: hsa
                .isa_name(isa)
                .call_status("hsa_isa_get_info_alt(NAME)")?,
            workgroup_max_size: hsa
                .isa_workgroup_max_size(isa)
                .call_status("hsa_isa_get_info_alt(WORKGROUP_MAX_SIZE)")?,
            workgroup_max_dim: hsa
                .isa_workgroup_max_dim(isa)
                .call_status("hsa_isa_get_info_alt(WORKGROUP_MAX_DIM)")?,
        });
    }
    let mut pools = Vec::new();
    for pool in hsa
        .agent_iterate_memory_pools(agent)
        .call_status("hsa_amd_agent_iterate_memory_pools")?
    {
        let basics = PoolBasics::query(hsa, pool)?;
        pools.push(PoolDesc {
            segment: segment_desc(basics.segment),
            flags: flag_descs(basics.flags),
            size: basics.size,
            alloc_allowed: Some(basics.alloc_allowed),
            granule: Some(
                hsa.memory_pool_alloc_granule(pool)
                    .call_status("hsa_amd_memory_pool_get_info(RUNTIME_ALLOC_GRANULE)")?,
            ),
            alignment: Some(
                hsa.memory_pool_alloc_alignment(pool)
                    .call_status("hsa_amd_memory_pool_get_info(RUNTIME_ALLOC_ALIGNMENT)")?,
            ),
            accessible_by_all: hsa
                .memory_pool_accessible_by_all(pool)
                .call_status("hsa_amd_memory_pool_get_info(ACCESSIBLE_BY_ALL)")?,
            alloc_max_size: Some(
                hsa.memory_pool_alloc_max_size(pool)
                    .call_status("hsa_amd_memory_pool_get_info(ALLOC_MAX_SIZE)")?,
            ),
            // Not captured, like `[agents.hsa]`: ROCr's default stands.
            rec_granule: None,
        });
    }
    let uuid = hsa
        .agent_uuid(agent)
        .call_status("hsa_agent_get_info(UUID)")?;
    let hip = match gpu_ordinal {
        Some(ordinal) => hip_desc(backend, ordinal, &uuid)?,
        None => None,
    };
    Ok(AgentDesc {
        id,
        kind,
        name: hsa
            .agent_name(agent)
            .call_status("hsa_agent_get_info(NAME)")?,
        product: Some(
            hsa.agent_product_name(agent)
                .call_status("hsa_agent_get_info(PRODUCT_NAME)")?,
        ),
        vendor: Some(
            hsa.agent_vendor_name(agent)
                .call_status("hsa_agent_get_info(VENDOR_NAME)")?,
        ),
        uuid,
        node: hsa
            .agent_node(agent)
            .call_status("hsa_agent_get_info(NODE)")?,
        numa_node: None,
        nearest_cpu: None,
        compute_units: hsa
            .agent_compute_unit_count(agent)
            .call_status("hsa_agent_get_info(COMPUTE_UNIT_COUNT)")?,
        wavefront_size: hsa
            .agent_wavefront_size(agent)
            .call_status("hsa_agent_get_info(WAVEFRONT_SIZE)")?,
        queues_max: hsa
            .agent_queues_max(agent)
            .call_status("hsa_agent_get_info(QUEUES_MAX)")?,
        chip_id: hsa
            .agent_chip_id(agent)
            .call_status("hsa_agent_get_info(CHIP_ID)")?,
        bdf_id: hsa
            .agent_bdf_id(agent)
            .call_status("hsa_agent_get_info(BDFID)")?,
        domain: hsa
            .agent_domain(agent)
            .call_status("hsa_agent_get_info(DOMAIN)")?,
        driver_uid: unknown_attribute_is_none(
            hsa.agent_driver_uid(agent),
            "hsa_agent_get_info(DRIVER_UID)",
        )?,
        profile: match hsa
            .agent_profile(agent)
            .call_status("hsa_agent_get_info(PROFILE)")?
        {
            Profile::Base => Some(ProfileDesc::Base),
            Profile::Full => Some(ProfileDesc::Full),
        },
        rounding_mode: match hsa
            .agent_default_float_rounding_mode(agent)
            .call_status("hsa_agent_get_info(DEFAULT_FLOAT_ROUNDING_MODE)")?
        {
            RoundingMode::Zero => Some(RoundingDesc::Zero),
            RoundingMode::Near => Some(RoundingDesc::Near),
            RoundingMode::Default => None,
        },
        isas,
        pools,
        hip,
        hsa: AgentHsaDesc::default(),
    })
}

/// `None` for an attribute the runtime does not know (ROCr answers
/// `HSA_STATUS_ERROR_INVALID_ARGUMENT` for one newer than itself, e.g.
/// `DRIVER_UID` or `NEAREST_CPU` before ROCm 6.2); every other failure is
/// the capture's failure, not a silently missing field.
fn unknown_attribute_is_none<T>(result: HsaResult<T>, call: &str) -> Result<Option<T>> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(HsaStatus::ErrorInvalidArgument) => Ok(None),
        Err(error) => Err(error.to_status(call)),
    }
}

/// The HIP properties of HIP device `ordinal` (the GPU agent's HIP twin):
/// `None` when HIP has no such device (fewer HIP than HSA GPUs, e.g. with
/// `HIP_VISIBLE_DEVICES`) or lacks the optional `hipGetDeviceProperties`;
/// any other HIP failure fails the capture.
fn hip_desc(backend: &Backend, ordinal: i32, agent_uuid: &str) -> Result<Option<HipPropsDesc>> {
    let hip = backend.hip();
    let device = match hip.device_get(ordinal) {
        Ok(device) => device,
        Err(HipError::InvalidDevice) => return Ok(None),
        Err(error) => return Err(error.to_status("hipDeviceGet")),
    };
    let hip_uuid = hip
        .device_get_uuid(device)
        .call_status("hipDeviceGetUuid")?;
    match hip.get_device_properties(ordinal) {
        Ok(props) => Ok(Some(hip_props_desc(
            &props,
            hip_uuid_desc(agent_uuid, hip_uuid.bytes()),
        ))),
        Err(HipError::NotSupported | HipError::SharedObjectSymbolNotFound) => Ok(None),
        Err(error) => Err(error.to_status("hipGetDeviceProperties")),
    }
}

/// Describes every agent and link an HSA backend reports; with `hip_usable`,
/// each GPU agent's HIP properties too.
fn capture_hsa(backend: &Backend, hip_usable: bool) -> Result<(Vec<AgentDesc>, Vec<LinkDesc>)> {
    let hsa: &dyn Hsa = backend.hsa()?;
    let handles = hsa.iterate_agents().call_status("hsa_iterate_agents")?;
    let mut agents = Vec::with_capacity(handles.len());
    let (mut cpus, mut gpus) = (0, 0);
    for (index, &agent) in handles.iter().enumerate() {
        let gpu = hsa
            .agent_device_type(agent)
            .call_status("hsa_agent_get_info(DEVICE)")?
            == DeviceType::Gpu;
        let (id, ordinal) = if gpu {
            gpus += 1;
            (format!("gpu{}", gpus - 1), Some(gpus - 1))
        } else {
            cpus += 1;
            (format!("cpu{}", cpus - 1), None)
        };
        agents.push(
            hsa_agent(backend, agent, id, ordinal.filter(|_| hip_usable))
                .map_err(|s| s.annotate(format!("agent {index}")))?,
        );
    }
    // Nearest CPUs, where the runtime knows them.
    for (index, &agent) in handles.iter().enumerate() {
        if agents.get(index).map(|a| a.kind) != Some(AgentKind::Gpu) {
            continue;
        }
        if let Some(cpu) = unknown_attribute_is_none(
            hsa.agent_nearest_cpu(agent),
            "hsa_agent_get_info(NEAREST_CPU)",
        )? && let Some(cpu_index) = handles.iter().position(|&h| h == cpu)
            && cpu_index != index
        {
            let id = agents.get(cpu_index).map(|a| a.id.clone());
            if let Some(desc) = agents.get_mut(index) {
                desc.nearest_cpu = id;
            }
        }
    }
    let mut links = Vec::new();
    for (a, &from) in handles.iter().enumerate() {
        for (b, &to) in handles.iter().enumerate() {
            if a == b {
                continue;
            }
            let pools = hsa
                .agent_iterate_memory_pools(to)
                .call_status("hsa_amd_agent_iterate_memory_pools")?;
            let mut global = None;
            for pool in pools {
                if hsa
                    .memory_pool_segment(pool)
                    .call_status("hsa_amd_memory_pool_get_info(SEGMENT)")?
                    == Segment::Global
                {
                    global = Some(pool);
                    break;
                }
            }
            let Some(pool) = global else { continue };
            let hops = hsa
                .agent_memory_pool_link_info(from, pool)
                .call_status("hsa_amd_agent_memory_pool_get_info(LINK_INFO)")?;
            let (Some(first), Some(link_type)) = (
                hops.first(),
                hops.first().and_then(|h| link_type_desc(h.link_type())),
            ) else {
                continue;
            };
            let (Some(from_id), Some(to_id)) = (agents.get(a), agents.get(b)) else {
                continue;
            };
            links.push(LinkDesc {
                from: AgentIds::One(from_id.id.clone()),
                to: AgentIds::One(to_id.id.clone()),
                link_type,
                hops: u32::try_from(hops.len()).unwrap_or(u32::MAX),
                numa_distance: first.numa_distance,
                min_latency: first.min_latency,
                max_latency: first.max_latency,
                min_bandwidth: first.min_bandwidth,
                max_bandwidth: first.max_bandwidth,
                atomic_32bit: first.atomic_support_32bit,
                atomic_64bit: first.atomic_support_64bit,
                coherent: first.coherent_support,
                bidirectional: false,
            });
        }
    }
    Ok((agents, links))
}

/// The description of what `backend` reports.
pub fn capture(backend: &Backend, name: &str, description: Option<&str>) -> Result<MachineDesc> {
    let hip = backend.hip();
    let hip_based = matches!(backend.name(), "hip" | "cuda");
    let (agents, links) = if hip_based {
        super::capture_hip::capture_hip(backend)?
    } else {
        let hsa = backend.hsa()?;
        hsa.init().call_status("hsa_init")?;
        // HIP may be unusable where HSA works (and the other way round):
        // then the agents are described without their HIP properties.
        let hip_usable = hip.init(0).is_ok();
        let walk = capture_hsa(backend, hip_usable);
        Status::join_results(walk, hsa.shut_down().call_status("hsa_shut_down"))?
    };
    // Without a HIP runtime (`--backend hsa` with ROCr alone) there are no
    // versions to read: the description keeps the simulator's defaults and
    // says so in its `description`.
    let runtime = if backend.hip_missing().is_some() {
        HipRuntimeDesc {
            rccl_version: backend.ccl().and_then(|ccl| ccl.get_version().ok()),
            ..HipRuntimeDesc::default()
        }
    } else {
        HipRuntimeDesc {
            driver_version: hip
                .driver_get_version()
                .call_status("hipDriverGetVersion")?,
            runtime_version: hip
                .runtime_get_version()
                .call_status("hipRuntimeGetVersion")?,
            rccl_version: backend.ccl().and_then(|ccl| ccl.get_version().ok()),
        }
    };
    let gpus = agents.iter().filter(|a| a.kind == AgentKind::Gpu).count();
    Ok(MachineDesc {
        name: name.to_string(),
        description: description.map_or_else(
            || {
                format!(
                    "captured from backend '{}' ({} agents, {gpus} GPU){}",
                    backend.name(),
                    agents.len(),
                    if backend.hip_missing().is_some() {
                        "; no HIP runtime: no HIP properties, [hip] versions are the simulator's defaults"
                    } else {
                        ""
                    }
                )
            },
            str::to_string,
        ),
        hip: runtime,
        // The system attributes are not captured, like `[agents.hsa]`.
        hsa: Default::default(),
        agents,
        links,
    })
}

/// The description as TOML.
pub fn to_toml(desc: &MachineDesc) -> Result<String> {
    toml::to_string_pretty(desc).map_err(|e| Status::internal(format!("TOML output: {e}")))
}
