//! The logical HIP device as a HAL device: what it reports for topology
//! derivation and how it refines edges to other HIP devices.
//!
//! IREE's HIP device reports zero capabilities and leaves edges as derived;
//! here the derivation gets the device's UUID, handle and memory kinds, and
//! every HIP→HIP edge is corrected from what HIP says about the link:
//!
//! - no peer access (`hipDeviceCanAccessPeer` or `hipDevP2PAttrAccessSupported`
//!   false for any pair of physical devices): buffers go through host copies
//!   (`COPY`), the link is host-staged, no P2P capabilities;
//! - peer access: buffers are `NATIVE` after a grant
//!   (`PEER_ACCESS_REQUIRES_GRANT`: HIP needs `hipDeviceEnablePeerAccess`);
//!   `ATOMIC_DEVICE` holds when every pair has native peer atomics; when
//!   they do *and* every pair has the best `hipDevP2PAttrPerformanceRank`
//!   (0) the link is Infinity Fabric (xGMI, ROCm ranks PCIe peers lower),
//!   otherwise PCIe; the worst rank is added to the copy cost and latency.
//!   Where the runtime knows the physical link ([`crate::backend::Hip::peer_link_class`]:
//!   NVML on NVIDIA, `nvidia-smi topo -m`'s NV#/PIX/PXB/PHB/NODE/SYS) that
//!   class is taken instead: NVLink `NVLINK_IF`, PCIe within one host bridge
//!   `PCIE_SAME_ROOT`, across host bridges or NUMA nodes `PCIE_CROSS_ROOT`
//!   (the worst class of every pair).
//!
//! HIP has no NUMA query: `numa_node` is the first physical device's node
//! when the driver was given one ([`HipDriver::with_numa_nodes`], e.g. from
//! the HSA agents of the same node), else 0.
//!
//! [`HipDriver::with_numa_nodes`]: super::HipDriver::with_numa_nodes

use std::num::NonZeroU64;

use crate::device::{HalDevice, TopologyInfo};
use crate::status::Result;
use crate::topology::{
    DeviceCapabilities, DeviceCapabilityFlags, Edge, HandleTypes, InteropMode, LinkClass,
    TopologyCapabilities,
};

use super::DRIVER_NAME;
use super::device::{HipLogicalDevice, PeerLink};

/// Copy cost and latency class of a peer link over Infinity Fabric, before
/// the performance rank is added.
pub const XGMI_COST: (u8, u8) = (3, 3);
/// Copy cost and latency class of a peer link over PCIe.
pub const PCIE_PEER_COST: (u8, u8) = (5, 5);
/// Copy cost and latency class of a peer link over PCIe across host
/// bridges (NODE/SYS in `nvidia-smi topo -m`), known only where the runtime
/// reports the physical link.
pub const PCIE_CROSS_ROOT_COST: (u8, u8) = (7, 7);
/// Copy cost and latency class of a link without peer access (host copies).
pub const HOST_STAGED_COST: (u8, u8) = (9, 8);

/// The combined facts of every physical pair `(src member, dst member)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkSummary {
    /// Every pair has peer access.
    pub peer: bool,
    /// Every pair has native peer atomics.
    pub native_atomics: bool,
    /// The worst (largest) performance rank.
    pub worst_rank: i32,
    /// The worst physical link class, when the runtime knows every pair's.
    pub link_class: Option<LinkClass>,
}

impl LinkSummary {
    /// Folds pair links; `None` when there are none.
    pub fn of(links: impl IntoIterator<Item = PeerLink>) -> Option<LinkSummary> {
        links.into_iter().fold(None, |acc, link| {
            let this = LinkSummary {
                peer: link.is_peer(),
                native_atomics: link.native_atomics,
                worst_rank: link.performance_rank,
                link_class: link.link_class,
            };
            Some(match acc {
                None => this,
                Some(a) => LinkSummary {
                    peer: a.peer && this.peer,
                    native_atomics: a.native_atomics && this.native_atomics,
                    worst_rank: a.worst_rank.max(this.worst_rank),
                    link_class: a.link_class.zip(this.link_class).map(|(x, y)| x.max(y)),
                },
            })
        })
    }

    /// Applies the summary to a derived same-driver edge (module docs).
    pub fn refine(&self, edge: &mut Edge) {
        let mut caps = edge.capabilities();
        let peer_caps = TopologyCapabilities::P2P_COPY
            | TopologyCapabilities::PEER_COHERENT
            | TopologyCapabilities::ATOMIC_DEVICE
            | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT;
        let (link, (copy, latency)) = if !self.peer {
            caps.remove(peer_caps);
            (LinkClass::HostStaged, HOST_STAGED_COST)
        } else {
            caps.insert(
                TopologyCapabilities::P2P_COPY | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT,
            );
            caps.set(TopologyCapabilities::ATOMIC_DEVICE, self.native_atomics);
            if let Some(class) = self.link_class {
                let cost = match class {
                    LinkClass::NvlinkIf => XGMI_COST,
                    LinkClass::PcieSameRoot => PCIE_PEER_COST,
                    _ => PCIE_CROSS_ROOT_COST,
                };
                (class, cost)
            } else if self.native_atomics && self.worst_rank == 0 {
                (LinkClass::NvlinkIf, XGMI_COST)
            } else {
                (LinkClass::PcieSameRoot, PCIE_PEER_COST)
            }
        };
        let mode = if self.peer {
            InteropMode::Native
        } else {
            InteropMode::Copy
        };
        let rank = u8::try_from(self.worst_rank.clamp(0, 15)).unwrap_or(15);
        edge.set_capabilities(caps)
            .set_buffer_read_mode_noncoherent(mode)
            .set_buffer_write_mode_noncoherent(mode)
            .set_link_class(link)
            .set_copy_cost(copy.saturating_add(rank))
            .set_latency_class(latency.saturating_add(rank));
        if !self.peer && !caps.contains(TopologyCapabilities::UNIFIED_MEMORY) {
            edge.set_buffer_read_mode_coherent(InteropMode::Copy)
                .set_buffer_write_mode_coherent(InteropMode::Copy);
        }
    }
}

impl HipLogicalDevice {
    /// The capabilities this device reports (see the module docs).
    pub fn capabilities(&self) -> DeviceCapabilities {
        let members = self.physical_devices();
        let all = |f: fn(&super::PhysicalDevice) -> bool| members.iter().all(f);
        let mut flags = DeviceCapabilityFlags::TIMELINE_SEMAPHORES
            | DeviceCapabilityFlags::CONCURRENT_SAFE
            | DeviceCapabilityFlags::ATOMIC_SCOPE_DEVICE
            | DeviceCapabilityFlags::P2P_COPY
            | DeviceCapabilityFlags::PEER_ADDRESSABLE;
        if all(|p| p.managed_memory) {
            flags |= DeviceCapabilityFlags::SHARED_VIRTUAL_ADDRESS;
        }
        if all(|p| p.integrated) {
            flags |= DeviceCapabilityFlags::UNIFIED_MEMORY
                | DeviceCapabilityFlags::HOST_COHERENT
                | DeviceCapabilityFlags::HOST_ZERO_COPY_OK;
        }
        let single = match members {
            [only] => Some(only),
            _ => None,
        };
        DeviceCapabilities {
            flags,
            semaphore_export_types: HandleTypes::NATIVE,
            semaphore_import_types: HandleTypes::NATIVE,
            buffer_export_types: HandleTypes::NATIVE,
            buffer_import_types: HandleTypes::NATIVE,
            numa_node: members.first().and_then(|p| p.numa_node).unwrap_or(0),
            physical_device_uuid: single.map(|p| p.uuid.0),
            driver_device_handle: single
                .and_then(|p| u64::try_from(p.device.raw()).ok())
                .and_then(|raw| NonZeroU64::new(raw + 1)),
            device_group_index: None,
        }
    }

    /// The links `dst` would use to reach this device's memory: for every
    /// member `s` of `self` and `d` of `dst` (distinct), HIP's view of `d`
    /// accessing `s`. Pairs naming the same physical device are skipped.
    pub fn links_to(&self, dst: &HipLogicalDevice) -> Result<Vec<PeerLink>> {
        let hip = self.hip().as_ref();
        let mut links = Vec::new();
        for s in self.physical_devices() {
            for d in dst.physical_devices() {
                if s.device != d.device {
                    links.push(PeerLink::query(hip, d.device, s.device)?);
                }
            }
        }
        Ok(links)
    }
}

impl HalDevice for HipLogicalDevice {
    fn id(&self) -> &str {
        DRIVER_NAME
    }

    fn query_capabilities(&self) -> Result<DeviceCapabilities> {
        Ok(self.capabilities())
    }

    fn refine_topology_edge(&self, dst: &dyn HalDevice, edge: &mut Edge) -> Result<()> {
        let Some(dst) = (dst as &dyn std::any::Any).downcast_ref::<HipLogicalDevice>() else {
            return Ok(());
        };
        if *edge == Edge::SELF {
            return Ok(());
        }
        if let Some(summary) = LinkSummary::of(self.links_to(dst)?) {
            summary.refine(edge);
        }
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

impl super::HipDriver {
    /// A device group of every HIP device, each its own single-device
    /// logical device, in enumeration order (what `topology --backend hip`
    /// shows).
    pub fn group_all_devices(
        &self,
        tracker: std::sync::Arc<crate::device::FrontierTracker>,
    ) -> Result<crate::group::DeviceGroup> {
        self.group_of_path("", tracker)
    }

    /// A device group with one single-device logical device per physical
    /// device `path` selects, in path order; the empty path means every
    /// device (not the default one). NUMA distances come from the SLIT set
    /// with [`with_numa_distances`](Self::with_numa_distances), else the host's.
    pub fn group_of_path(
        &self,
        path: &str,
        tracker: std::sync::Arc<crate::device::FrontierTracker>,
    ) -> Result<crate::group::DeviceGroup> {
        let devices = if path.is_empty() {
            self.query_available_devices()?
                .into_iter()
                .map(|info| info.device)
                .collect()
        } else {
            self.resolve_path(path)?
        };
        let mut builder = crate::group::DeviceGroupBuilder::new(tracker);
        if let Some(numa) = self.numa_distances() {
            builder = builder.with_numa_distances(std::sync::Arc::clone(numa));
        }
        for device in devices {
            let logical = self.create_logical(vec![device], &[])?;
            builder.add_device(std::sync::Arc::new(logical))?;
        }
        builder.finalize()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(class: Option<LinkClass>) -> PeerLink {
        PeerLink {
            can_access_peer: true,
            access_supported: true,
            native_atomics: false,
            performance_rank: 0,
            link_class: class,
        }
    }

    #[test]
    fn a_known_class_is_the_worst_of_every_pair_and_sets_its_cost() {
        let both = [
            link(Some(LinkClass::NvlinkIf)),
            link(Some(LinkClass::PcieCrossRoot)),
        ];
        let summary = LinkSummary::of(both).unwrap();
        assert_eq!(summary.link_class, Some(LinkClass::PcieCrossRoot));
        let mut edge = Edge::default();
        summary.refine(&mut edge);
        assert_eq!(edge.link_class(), LinkClass::PcieCrossRoot);
        assert_eq!(edge.copy_cost(), PCIE_CROSS_ROOT_COST.0);
        // One pair without a class: HIP's attribute rule decides (no
        // atomics: PCIe).
        let mixed = LinkSummary::of([link(Some(LinkClass::NvlinkIf)), link(None)]).unwrap();
        assert_eq!(mixed.link_class, None);
        let mut edge = Edge::default();
        mixed.refine(&mut edge);
        assert_eq!(edge.link_class(), LinkClass::PcieSameRoot);
    }
}
