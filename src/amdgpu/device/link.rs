//! The pure part of AMDGPU edge refinement: from what HSA reports about one
//! agent reaching another agent's memory (pool access modes and the
//! `hsa_amd_memory_pool_link_info_t` hops) to edge fields.
//!
//! The mapping (IREE's AMDGPU driver, with the differences marked *ours*):
//!
//! | HSA fact | edge field |
//! |---|---|
//! | hop type xGMI | link `NVLINK_IF` |
//! | hop type PCIe | link `PCIE_SAME_ROOT`; *ours:* `PCIE_CROSS_ROOT` when the two GPUs hang off different host NUMA nodes |
//! | hop type HyperTransport / QPI (socket interconnect) | link `PCIE_CROSS_ROOT` |
//! | hop type InfiniBand | link `FABRIC` |
//! | other hop types | link `OTHER` |
//! | several hops | the worst (highest) class of any hop |
//! | neither pool reachable (`NEVER_ALLOWED`) | link `HOST_STAGED`, no peer capabilities |
//! | coarse pool `ALLOWED_BY_DEFAULT` / otherwise | non-coherent buffer modes `NATIVE` / `COPY` |
//! | fine pool `ALLOWED_BY_DEFAULT` / otherwise | coherent buffer modes `NATIVE` / `COPY` |
//! | a pool `DISALLOWED_BY_DEFAULT` | `PEER_ACCESS_REQUIRES_GRANT` (direct access needs `hsa_amd_agents_allow_access`) |
//! | some pool reachable | `P2P_COPY` |
//! | every hop coherent / 32-bit / 64-bit atomics | `PEER_COHERENT` / `ATOMIC_DEVICE` / `ATOMIC_SYSTEM` |
//! | hop NUMA distance (SLIT-like, 0 = unknown) | `(d - 10) / 2`, the worst hop, never below the derived edge's |
//!
//! Copy cost and latency class come from the link class (IREE's table:
//! xGMI 3/3, PCIe 7/7, cross-root 9/9, host-staged 13/11, fabric 15/14,
//! isolated 15/15, other 11/10). *Ours:* every hop beyond the first adds 1 to
//! both (a path through a switch or a second GPU is slower than a direct
//! link), counting the fabric hops behind one xGMI link too: the KFD
//! reports a GPU of the hive without a direct link as one io_link of weight
//! 15 (`KFD_CRAT_XGMI_WEIGHT`) times its xGMI hop count, with no bandwidth
//! (`kfd_crat.c`), so a weight of 30 is two hops. An xGMI path's copy cost
//! also follows its narrowest hop's bandwidth (≥ 128 GB/s: 2, < 64 GB/s: 4),
//! so an MI250X's in-package GCD pair is cheaper than a single-link pair
//! between packages, and that cheaper than a pair two hops apart.
//!
//! The link class must be the same in both directions (the topology builder
//! checks it), so the refinement takes the worse class of the two directions.

use crate::backend::{LinkInfo, LinkType, PoolAccess};
use crate::status::{Result, Status};
use crate::topology::{Edge, InteropMode, LinkClass, MAX_DEVICE_COUNT, TopologyCapabilities};

/// The most link hops accepted between two agents (IREE's limit).
pub const MAX_LINK_HOPS: usize = 16;

/// xGMI bandwidth (MB/s) at or above which the copy cost is lowered by one.
pub const XGMI_WIDE_BANDWIDTH_MBPS: u32 = 128_000;
/// xGMI bandwidth (MB/s) below which the copy cost is raised by one.
pub const XGMI_NARROW_BANDWIDTH_MBPS: u32 = 64_000;
/// The KFD's weight of one xGMI hop (`KFD_CRAT_XGMI_WEIGHT`, `kfd_crat.c`):
/// an xGMI io_link's weight, the NUMA distance HSA reports, is this times
/// the hops between the two GPUs.
pub const KFD_XGMI_HOP_WEIGHT: u32 = 15;

const _: () = assert!(MAX_DEVICE_COUNT <= 32);

/// What HSA says about one agent reaching another agent's global memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PeerMemoryPath {
    /// Access to the owner's coarse-grained global pool (`None`: no such pool).
    pub coarse: Option<PoolAccess>,
    /// Access to the owner's fine-grained global pool (`None`: no such pool).
    pub fine: Option<PoolAccess>,
    /// The hops of the path (from the coarse pool when there is one).
    pub hops: Vec<LinkInfo>,
}

/// The edge facts derived from one [`PeerMemoryPath`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhysicalLink {
    /// The worst link class of the path.
    pub link_class: LinkClass,
    /// Non-coherent (coarse pool) buffer mode.
    pub noncoherent: InteropMode,
    /// Coherent (fine pool) buffer mode.
    pub coherent: InteropMode,
    /// `P2P_COPY`, `PEER_COHERENT`, `ATOMIC_*` and `PEER_ACCESS_REQUIRES_GRANT` as they apply.
    pub capabilities: TopologyCapabilities,
    /// The worst scaled NUMA distance of any hop.
    pub numa_distance: u8,
    /// Number of hops, an xGMI link counting the fabric hops its weight
    /// says it spans ([`KFD_XGMI_HOP_WEIGHT`]).
    pub hop_count: usize,
    /// The narrowest `max_bandwidth` over the hops (MB/s), 0 when unknown.
    pub min_bandwidth: u32,
}

/// The capability bits a refinement owns (replaced, not merged).
pub const PHYSICAL_CAPABILITIES: TopologyCapabilities = TopologyCapabilities::P2P_COPY
    .union(TopologyCapabilities::PEER_COHERENT)
    .union(TopologyCapabilities::ATOMIC_DEVICE)
    .union(TopologyCapabilities::ATOMIC_SYSTEM)
    .union(TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT);

fn hop_link_class(link_type: LinkType) -> LinkClass {
    match link_type {
        LinkType::Xgmi => LinkClass::NvlinkIf,
        LinkType::Pcie => LinkClass::PcieSameRoot,
        LinkType::HyperTransport | LinkType::Qpi => LinkClass::PcieCrossRoot,
        LinkType::Infiniband => LinkClass::Fabric,
        LinkType::Other(_) => LinkClass::Other,
    }
}

fn access_mode(access: Option<PoolAccess>) -> InteropMode {
    match access {
        Some(PoolAccess::AllowedByDefault) => InteropMode::Native,
        _ => InteropMode::Copy,
    }
}

/// The scaled NUMA distance of an HSA hop distance (0 means "not reported").
pub fn scale_hop_numa_distance(distance: u32) -> u8 {
    let scaled = distance.saturating_sub(10) / 2;
    u8::try_from(scaled.min(15)).unwrap_or(15)
}

/// Derives the physical link facts of one direction.
///
/// `OUT_OF_RANGE` for more than [`MAX_LINK_HOPS`] hops; `UNAVAILABLE` when
/// the owner has neither a coarse nor a fine global pool.
pub fn physical_link(path: &PeerMemoryPath) -> Result<PhysicalLink> {
    if path.coarse.is_none() && path.fine.is_none() {
        return Err(Status::unavailable(
            "destination agent has neither coarse nor fine global memory pool",
        ));
    }
    if path.hops.len() > MAX_LINK_HOPS {
        return Err(Status::out_of_range(format!(
            "HSA reports {} link hops between GPU agents (max {MAX_LINK_HOPS})",
            path.hops.len()
        )));
    }
    let reachable =
        |access: Option<PoolAccess>| matches!(access, Some(a) if a != PoolAccess::NeverAllowed);
    let accessible = reachable(path.coarse) || reachable(path.fine);

    let mut link_class = LinkClass::SameDie;
    let mut numa_distance = 0;
    let mut min_bandwidth = 0u32;
    let (mut coherent, mut atomic32, mut atomic64) = (true, true, true);
    for hop in &path.hops {
        link_class = link_class.max(hop_link_class(hop.link_type()));
        numa_distance = numa_distance.max(scale_hop_numa_distance(hop.numa_distance));
        if hop.max_bandwidth != 0 && (min_bandwidth == 0 || hop.max_bandwidth < min_bandwidth) {
            min_bandwidth = hop.max_bandwidth;
        }
        coherent &= hop.coherent_support;
        atomic32 &= hop.atomic_support_32bit;
        atomic64 &= hop.atomic_support_64bit;
    }

    let mut capabilities = TopologyCapabilities::empty();
    if accessible {
        capabilities |= TopologyCapabilities::P2P_COPY;
        capabilities.set(TopologyCapabilities::PEER_COHERENT, coherent);
        capabilities.set(TopologyCapabilities::ATOMIC_DEVICE, atomic32);
        capabilities.set(TopologyCapabilities::ATOMIC_SYSTEM, atomic64);
    } else {
        link_class = LinkClass::HostStaged;
    }
    if path.coarse == Some(PoolAccess::DisallowedByDefault)
        || path.fine == Some(PoolAccess::DisallowedByDefault)
    {
        capabilities |= TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT;
    }
    Ok(PhysicalLink {
        link_class,
        noncoherent: access_mode(path.coarse),
        coherent: access_mode(path.fine),
        capabilities,
        numa_distance,
        hop_count: path.hops.iter().map(fabric_hops).sum(),
        min_bandwidth,
    })
}

/// The hops one HSA link hop stands for: an xGMI link of weight `15 k`
/// spans `k` fabric hops (one when the weight says nothing).
fn fabric_hops(hop: &LinkInfo) -> usize {
    if hop.link_type() == LinkType::Xgmi {
        (hop.numa_distance / KFD_XGMI_HOP_WEIGHT).max(1) as usize
    } else {
        1
    }
}

/// IREE's copy cost and latency class of a link class.
pub fn link_class_costs(class: LinkClass) -> (u8, u8) {
    match class {
        LinkClass::SameDie => (0, 0),
        LinkClass::NvlinkIf => (3, 3),
        LinkClass::PcieSameRoot => (7, 7),
        LinkClass::PcieCrossRoot => (9, 9),
        LinkClass::HostStaged => (13, 11),
        LinkClass::Fabric => (15, 14),
        LinkClass::Isolated => (15, 15),
        LinkClass::Other => (11, 10),
    }
}

/// Writes the refinement of the edge `src -> dst` into `edge`.
///
/// `forward` is `dst` reaching `src`'s memory (what the edge describes),
/// `reverse` is `src` reaching `dst`'s; `cross_numa` is true when the two
/// GPUs hang off different host NUMA nodes. Wait and signal fields are left
/// as derived.
pub fn apply(edge: &mut Edge, forward: &PhysicalLink, reverse: &PhysicalLink, cross_numa: bool) {
    let mut class = forward.link_class.max(reverse.link_class);
    if class == LinkClass::PcieSameRoot && cross_numa {
        class = LinkClass::PcieCrossRoot;
    }
    let (mut copy_cost, mut latency) = link_class_costs(class);
    if class == LinkClass::NvlinkIf && forward.min_bandwidth != 0 {
        if forward.min_bandwidth >= XGMI_WIDE_BANDWIDTH_MBPS {
            copy_cost -= 1;
        } else if forward.min_bandwidth < XGMI_NARROW_BANDWIDTH_MBPS {
            copy_cost += 1;
        }
    }
    let extra_hops = u8::try_from(forward.hop_count.saturating_sub(1)).unwrap_or(u8::MAX);
    copy_cost = copy_cost.saturating_add(extra_hops);
    latency = latency.saturating_add(extra_hops);

    let capabilities = (edge.capabilities() - PHYSICAL_CAPABILITIES)
        | (forward.capabilities & PHYSICAL_CAPABILITIES);
    let numa = edge.numa_distance().max(forward.numa_distance);
    edge.set_buffer_read_mode_noncoherent(forward.noncoherent)
        .set_buffer_write_mode_noncoherent(forward.noncoherent)
        .set_buffer_read_mode_coherent(forward.coherent)
        .set_buffer_write_mode_coherent(forward.coherent)
        .set_link_class(class)
        .set_copy_cost(copy_cost)
        .set_latency_class(latency)
        .set_numa_distance(numa)
        .set_capabilities(capabilities);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(link_type: LinkType, numa_distance: u32, max_bandwidth: u32) -> LinkInfo {
        LinkInfo {
            min_latency: 0,
            max_latency: 0,
            min_bandwidth: max_bandwidth,
            max_bandwidth,
            atomic_support_32bit: true,
            atomic_support_64bit: true,
            coherent_support: true,
            link_type: link_type.raw(),
            numa_distance,
        }
    }

    fn allowed(hops: Vec<LinkInfo>) -> PeerMemoryPath {
        PeerMemoryPath {
            coarse: Some(PoolAccess::AllowedByDefault),
            fine: Some(PoolAccess::AllowedByDefault),
            hops,
        }
    }

    fn refined(forward: &PeerMemoryPath, reverse: &PeerMemoryPath, cross_numa: bool) -> Edge {
        let mut edge = Edge::CROSS_DRIVER;
        apply(
            &mut edge,
            &physical_link(forward).unwrap(),
            &physical_link(reverse).unwrap(),
            cross_numa,
        );
        edge
    }

    #[test]
    fn an_xgmi_peer_without_a_direct_link_costs_its_fabric_hops() {
        // The KFD's io_link to a hive GPU two or three xGMI hops away: weight
        // 30 or 45, no bandwidth (an MI250X's GCD pairs across packages).
        let two = allowed(vec![hop(LinkType::Xgmi, 30, 0)]);
        let three = allowed(vec![hop(LinkType::Xgmi, 45, 0)]);
        let one_link = allowed(vec![hop(LinkType::Xgmi, 15, 50_000)]);
        let e = refined(&two, &two, false);
        assert_eq!((e.copy_cost(), e.latency_class()), (4, 4));
        let e = refined(&three, &three, false);
        assert_eq!((e.copy_cost(), e.latency_class()), (5, 5));
        // A direct narrow link costs what two hops cost, never more.
        assert_eq!(refined(&one_link, &one_link, false).copy_cost(), 4);
        assert_eq!(refined(&one_link, &one_link, false).latency_class(), 3);
        // A weight that is not a hop multiple (or unknown) is one hop.
        assert_eq!(fabric_hops(&hop(LinkType::Xgmi, 0, 0)), 1);
        assert_eq!(fabric_hops(&hop(LinkType::Pcie, 52, 0)), 1);
    }

    #[test]
    fn xgmi_is_nvlink_if_with_low_copy_cost() {
        let wide = allowed(vec![hop(LinkType::Xgmi, 15, 200_000)]);
        let mid = allowed(vec![hop(LinkType::Xgmi, 15, 100_000)]);
        let narrow = allowed(vec![hop(LinkType::Xgmi, 15, 50_000)]);
        let e = refined(&wide, &wide, false);
        assert_eq!(e.link_class(), LinkClass::NvlinkIf);
        assert_eq!(
            (e.copy_cost(), e.latency_class(), e.numa_distance()),
            (2, 3, 2)
        );
        assert_eq!(refined(&mid, &mid, false).copy_cost(), 3);
        assert_eq!(refined(&narrow, &narrow, false).copy_cost(), 4);
        assert_eq!(refined(&narrow, &narrow, false).numa_distance(), 2);
        assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::Native);
        assert_eq!(e.buffer_write_mode_coherent(), InteropMode::Native);
        let caps = e.capabilities();
        assert!(
            caps.contains(PHYSICAL_CAPABILITIES - TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT)
        );
        assert!(!caps.contains(TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT));
        // Wait/signal stay as derived.
        assert_eq!(e.wait_mode(), Edge::CROSS_DRIVER.wait_mode());
        assert_eq!(e.wait_cost(), Edge::CROSS_DRIVER.wait_cost());
    }

    #[test]
    fn pcie_same_and_cross_root_and_hops() {
        let one = allowed(vec![hop(LinkType::Pcie, 20, 32_000)]);
        let e = refined(&one, &one, false);
        assert_eq!(
            (e.link_class(), e.copy_cost(), e.latency_class()),
            (LinkClass::PcieSameRoot, 7, 7)
        );
        let e = refined(&one, &one, true);
        assert_eq!(
            (e.link_class(), e.copy_cost()),
            (LinkClass::PcieCrossRoot, 9)
        );
        let via_socket = allowed(vec![
            hop(LinkType::Pcie, 20, 32_000),
            hop(LinkType::HyperTransport, 32, 64_000),
            hop(LinkType::Pcie, 20, 32_000),
        ]);
        let e = refined(&via_socket, &via_socket, false);
        assert_eq!(
            (
                e.link_class(),
                e.copy_cost(),
                e.latency_class(),
                e.numa_distance()
            ),
            (LinkClass::PcieCrossRoot, 11, 11, 11)
        );
    }

    #[test]
    fn unreachable_pools_are_host_staged_and_grants_are_flagged() {
        let never = PeerMemoryPath {
            coarse: Some(PoolAccess::NeverAllowed),
            fine: Some(PoolAccess::NeverAllowed),
            hops: vec![hop(LinkType::Pcie, 20, 0)],
        };
        let e = refined(&never, &never, false);
        assert_eq!(
            (e.link_class(), e.copy_cost(), e.latency_class()),
            (LinkClass::HostStaged, 13, 11)
        );
        assert!(!e.capabilities().intersects(PHYSICAL_CAPABILITIES));
        assert_eq!(e.buffer_read_mode_coherent(), InteropMode::Copy);

        let grant = PeerMemoryPath {
            coarse: Some(PoolAccess::DisallowedByDefault),
            fine: None,
            hops: vec![hop(LinkType::Xgmi, 15, 0)],
        };
        let link = physical_link(&grant).unwrap();
        assert_eq!(link.noncoherent, InteropMode::Copy);
        assert!(link.capabilities.contains(
            TopologyCapabilities::P2P_COPY | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT
        ));
        // One side unreachable makes both directions host-staged (symmetric class).
        let e = refined(&grant, &never, false);
        assert_eq!(e.link_class(), LinkClass::HostStaged);
    }

    #[test]
    fn incoherent_or_atomicless_hops_drop_capabilities() {
        let mut h = hop(LinkType::Pcie, 0, 0);
        h.coherent_support = false;
        h.atomic_support_64bit = false;
        let link = physical_link(&allowed(vec![h])).unwrap();
        assert!(
            !link
                .capabilities
                .contains(TopologyCapabilities::PEER_COHERENT)
        );
        assert!(
            !link
                .capabilities
                .contains(TopologyCapabilities::ATOMIC_SYSTEM)
        );
        assert!(
            link.capabilities
                .contains(TopologyCapabilities::ATOMIC_DEVICE)
        );
        assert_eq!(link.numa_distance, 0);
        let other = physical_link(&allowed(vec![
            hop(LinkType::Other(9), 0, 0),
            hop(LinkType::Infiniband, 0, 0),
        ]))
        .unwrap();
        assert_eq!(other.link_class, LinkClass::Other);
    }

    #[test]
    fn limits_and_missing_pools() {
        let err = physical_link(&PeerMemoryPath::default()).unwrap_err();
        assert_eq!(err.code(), crate::StatusCode::Unavailable);
        assert!(err.message().contains("neither coarse nor fine"));
        let err = physical_link(&allowed(vec![
            hop(LinkType::Pcie, 20, 0);
            MAX_LINK_HOPS + 1
        ]))
        .unwrap_err();
        assert_eq!(err.code(), crate::StatusCode::OutOfRange);
        assert!(err.message().contains("17 link hops"));
        // Many hops saturate at 15.
        let long = allowed(vec![hop(LinkType::Pcie, 20, 0); MAX_LINK_HOPS]);
        assert_eq!(refined(&long, &long, false).copy_cost(), 15);
    }
}
