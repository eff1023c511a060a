//! `capture` through a HIP backend (`--backend hip|cuda`): what IREE's HIP
//! driver sees, written as a machine description that also runs the HSA
//! subcommands (`topology`, `load`) when replayed.
//!
//! What HIP reports is written as reported: the GPUs in HIP ordinal order
//! ([`super::hip_devices`]: names, UUIDs, properties, ISA, one coarse-grained
//! pool of `totalGlobalMem`). What HIP does not report is inferred, and the
//! rules are these:
//!
//! - **NUMA node of each GPU**: the node [`super::hip_devices`] gives it (the
//!   HSA agent's where HSA answers, else the PCI device's sysfs node).
//! - **NUMA distances**: the SLIT the HIP driver uses for copy costs: HSA's
//!   CPU-to-CPU links where HSA answers (the simulator, ROCm), else the
//!   host's sysfs.
//! - **CPU agents**: HIP shows no host agent, but IREE's loader needs one
//!   (kernel arguments live in host memory). One CPU agent per NUMA node of
//!   the SLIT or of a GPU, as ROCm has one per node, `id = cpu<node>`, named
//!   [`INFERRED_CPU_NAME`], with ROCm's three host pools (fine-grained,
//!   kernarg, coarse-grained) of [`INFERRED_HOST_POOL_BYTES`]; each GPU's
//!   `nearest_cpu` is its node's.
//! - **Agent order and KFD nodes**: ROCm's: the CPU agents first, their KFD
//!   node = their NUMA node (what HSA's NUMA lookup reads), then the GPUs in
//!   HIP ordinal order numbered from one past the highest NUMA node. On a ROCm
//!   node this gives every GPU the agent index and node it had.
//! - **CPU-to-CPU links**: one per ordered pair of nodes with a known
//!   distance, HyperTransport (what ROCm reports between sockets), one hop,
//!   `numa_distance` = the SLIT entry.
//! - **GPU-to-GPU links**: one per ordered pair HIP calls peers
//!   (`hipDeviceCanAccessPeer` and `hipDevP2PAttrAccessSupported`): xGMI when
//!   `hipDevP2PAttrPerformanceRank` is 0 (the best link: xGMI on AMD, NVLink
//!   on NVIDIA), PCIe otherwise; 32- and 64-bit atomics =
//!   `hipDevP2PAttrNativeAtomicSupported`; one hop; no coherence, NUMA
//!   distance, latency or bandwidth (HIP reports none of them).

use amdgpu_sim::machine::{
    AgentDesc, AgentHsaDesc, AgentIds, AgentKind, HipPropsDesc, IsaDesc, LinkDesc, LinkTypeDesc,
    PoolDesc, PoolFlag, SegmentDesc, amd_hip_uuid, format_hip_uuid,
};

use super::hip_devices::{HipDeviceReport, list_hip_devices};
use crate::backend::{Backend, HipDevice, HipDeviceProps};
use crate::hip::device::PeerLink;
use crate::status::Result;
use crate::topology::numa::{NumaDistances, platform_numa_distances};

/// The name (and product name) of a CPU agent inferred from a HIP capture.
pub const INFERRED_CPU_NAME: &str = "host CPU (inferred from HIP)";

/// The size of each pool of an inferred CPU agent: HIP reports nothing of
/// host memory, and the HAL only needs room for kernel arguments there.
pub const INFERRED_HOST_POOL_BYTES: u64 = 64 << 30;

/// The `hip.uuid` to write: only when `hipDeviceGetUuid` is not ROCm's
/// ASCII of the agent UUID's digits (CUDA's 16 raw bytes), so AMD descriptions
/// stay as they were.
pub fn hip_uuid_desc(agent_uuid: &str, hip_uuid: &[u8; 16]) -> Option<String> {
    (amd_hip_uuid(agent_uuid) != *hip_uuid).then(|| format_hip_uuid(hip_uuid))
}

/// The `[agents.hip]` table of a GPU: every property the description keeps.
pub fn hip_props_desc(props: &HipDeviceProps, uuid: Option<String>) -> HipPropsDesc {
    HipPropsDesc {
        name: Some(props.name.clone()),
        gcn_arch_name: (!props.gcn_arch_name.is_empty()).then(|| props.gcn_arch_name.clone()),
        total_global_mem: Some(props.total_global_mem),
        shared_mem_per_block: Some(props.shared_mem_per_block),
        regs_per_block: Some(props.regs_per_block),
        max_grid_size: Some(props.max_grid_size),
        clock_rate: Some(props.clock_rate),
        memory_clock_rate: Some(props.memory_clock_rate),
        memory_bus_width: Some(props.memory_bus_width),
        total_const_mem: Some(props.total_const_mem),
        major: Some(props.major),
        minor: Some(props.minor),
        l2_cache_size: Some(props.l2_cache_size),
        max_threads_per_multi_processor: Some(props.max_threads_per_multi_processor),
        is_multi_gpu_board: Some(props.is_multi_gpu_board),
        integrated: Some(props.integrated),
        managed_memory: Some(props.managed_memory),
        ecc_enabled: Some(props.ecc_enabled),
        uuid,
    }
}

fn clamp_u16(v: i32) -> u16 {
    u16::try_from(v.max(1)).unwrap_or(u16::MAX)
}

fn bdf_id(props: &HipDeviceProps) -> u32 {
    let bus = u32::try_from(props.pci_bus_id).unwrap_or(0) & 0xff;
    let device = u32::try_from(props.pci_device_id).unwrap_or(0) & 0x1f;
    bus << 8 | device << 3
}

fn cpu_id(node: u32) -> String {
    format!("cpu{node}")
}

/// The description of a HIP device (a GPU agent) whose KFD node is
/// `first_node` + its ordinal.
fn hip_agent(report: &HipDeviceReport, first_node: u32) -> AgentDesc {
    let p = &report.props;
    let uuid = report.hsa_uuid();
    let hip_uuid = hip_uuid_desc(&uuid, report.uuid.bytes());
    AgentDesc {
        id: format!("gpu{}", report.ordinal),
        kind: AgentKind::Gpu,
        name: report.arch(),
        product: Some(report.name.clone()),
        vendor: Some(if report.is_amd() { "AMD" } else { "NVIDIA" }.to_string()),
        uuid,
        node: u32::try_from(report.ordinal)
            .unwrap_or(0)
            .saturating_add(first_node),
        numa_node: Some(report.numa_node),
        nearest_cpu: Some(cpu_id(report.numa_node)),
        compute_units: u32::try_from(p.multi_processor_count).unwrap_or(0),
        wavefront_size: u32::try_from(p.warp_size).unwrap_or(0),
        queues_max: 0,
        chip_id: 0,
        bdf_id: bdf_id(p),
        domain: u32::try_from(p.pci_domain_id).unwrap_or(0),
        driver_uid: None,
        profile: None,
        rounding_mode: None,
        isas: vec![IsaDesc {
            name: report.isa(),
            workgroup_max_size: u32::try_from(p.max_threads_per_block.max(1)).unwrap_or(1024),
            workgroup_max_dim: p.max_threads_dim.map(clamp_u16),
        }],
        pools: vec![PoolDesc {
            segment: SegmentDesc::Global,
            flags: vec![PoolFlag::CoarseGrained],
            size: p.total_global_mem,
            alloc_allowed: Some(true),
            granule: None,
            alignment: None,
            accessible_by_all: false,
            alloc_max_size: None,
            // Not captured, like `[agents.hsa]`: ROCr's default stands.
            rec_granule: None,
        }],
        hip: Some(hip_props_desc(p, hip_uuid)),
        // HIP answers none of `[agents.hsa]`: the simulator's defaults.
        hsa: AgentHsaDesc::default(),
    }
}

/// An inferred CPU agent of NUMA node `node` (module docs).
fn inferred_cpu(node: u32) -> AgentDesc {
    let pool = |flags: Vec<PoolFlag>| PoolDesc {
        segment: SegmentDesc::Global,
        flags,
        size: INFERRED_HOST_POOL_BYTES,
        alloc_allowed: Some(true),
        granule: None,
        alignment: None,
        accessible_by_all: true,
        alloc_max_size: None,
        // Not captured, like `[agents.hsa]`: ROCr's default stands.
        rec_granule: None,
    };
    AgentDesc {
        id: cpu_id(node),
        kind: AgentKind::Cpu,
        name: INFERRED_CPU_NAME.to_string(),
        product: None,
        vendor: None,
        uuid: "CPU-XX".to_string(),
        node,
        numa_node: Some(node),
        nearest_cpu: None,
        compute_units: 0,
        wavefront_size: 0,
        queues_max: 0,
        chip_id: 0,
        bdf_id: 0,
        domain: 0,
        driver_uid: None,
        profile: None,
        rounding_mode: None,
        isas: Vec::new(),
        pools: vec![
            pool(vec![PoolFlag::FineGrained]),
            pool(vec![PoolFlag::KernargInit, PoolFlag::FineGrained]),
            pool(vec![PoolFlag::CoarseGrained]),
        ],
        hip: None,
        // HIP answers none of `[agents.hsa]`: the simulator's defaults.
        hsa: AgentHsaDesc::default(),
    }
}

/// One directed link `from -> to` of `link_type` over one hop.
fn link(from: String, to: String, link_type: LinkTypeDesc) -> LinkDesc {
    LinkDesc {
        from: AgentIds::One(from),
        to: AgentIds::One(to),
        link_type,
        hops: 1,
        numa_distance: 0,
        min_latency: 0,
        max_latency: 0,
        min_bandwidth: 0,
        max_bandwidth: 0,
        atomic_32bit: false,
        atomic_64bit: false,
        coherent: false,
        bidirectional: false,
    }
}

/// The SLIT the HIP driver uses over `backend` (module docs).
fn numa_distances(backend: &Backend) -> Result<Box<dyn NumaDistances>> {
    let Ok(hsa) = backend.hsa() else {
        return Ok(platform_numa_distances());
    };
    if hsa.init().is_err() {
        return Ok(platform_numa_distances());
    }
    let slit = crate::amdgpu::device::hsa_numa_distances(hsa);
    let _ = hsa.shut_down();
    Ok(Box::new(slit?))
}

/// Describes the GPUs a HIP backend reports and what they imply (module docs).
pub fn capture_hip(backend: &Backend) -> Result<(Vec<AgentDesc>, Vec<LinkDesc>)> {
    let devices = list_hip_devices(backend)?;
    let slit = numa_distances(backend)?;
    let mut nodes: Vec<u32> = (0..=u8::MAX)
        .filter(|&n| slit.distance(n, n).is_some())
        .map(u32::from)
        .chain(devices.iter().map(|d| d.numa_node))
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    if nodes.is_empty() {
        nodes.push(0);
    }

    let first_gpu_node = nodes.last().map_or(0, |n| n.saturating_add(1));
    let mut agents: Vec<AgentDesc> = nodes.iter().map(|&node| inferred_cpu(node)).collect();
    agents.extend(devices.iter().map(|d| hip_agent(d, first_gpu_node)));

    let mut links = Vec::new();
    let hip = backend.hip();
    for src in &devices {
        for dst in &devices {
            if src.ordinal == dst.ordinal {
                continue;
            }
            let peer = PeerLink::query(hip, HipDevice(src.device), HipDevice(dst.device))?;
            if !peer.is_peer() {
                continue;
            }
            let link_type = if peer.performance_rank == 0 {
                LinkTypeDesc::Xgmi
            } else {
                LinkTypeDesc::Pcie
            };
            let mut desc = link(
                format!("gpu{}", src.ordinal),
                format!("gpu{}", dst.ordinal),
                link_type,
            );
            desc.atomic_32bit = peer.native_atomics;
            desc.atomic_64bit = peer.native_atomics;
            links.push(desc);
        }
    }
    for &a in &nodes {
        for &b in &nodes {
            let (Ok(na), Ok(nb)) = (u8::try_from(a), u8::try_from(b)) else {
                continue;
            };
            if a == b {
                continue;
            }
            if let Some(distance) = slit.distance(na, nb) {
                let mut desc = link(cpu_id(a), cpu_id(b), LinkTypeDesc::Hypertransport);
                desc.numa_distance = u32::from(distance);
                links.push(desc);
            }
        }
    }
    Ok((agents, links))
}
