//! What a device learns when it joins a group: its index, self edge, peer
//! bitmaps and frontier identity.

use std::sync::{Arc, RwLock};

use super::frontier::{Axis, FrontierTracker};
use crate::topology::{DEVICE_ORDINAL_INVALID, DeviceBitmap, Edge, PeerBitmaps, Topology};

/// The frontier identity of a grouped device.
#[derive(Clone, Debug)]
pub struct FrontierInfo {
    /// The group's tracker.
    pub tracker: Arc<FrontierTracker>,
    /// The device's base axis (its queue 0).
    pub base_axis: Axis,
}

/// A device's place in a device group (IREE's `iree_hal_device_topology_info_t`).
#[derive(Clone, Debug)]
pub struct TopologyInfo {
    /// The device's index in the topology.
    pub topology_index: u32,
    /// The group's topology. Devices of one group share the same `Arc`.
    pub topology: Arc<Topology>,
    /// The scheduling word of the device's self edge.
    pub self_edge: u64,
    /// Peers this device can wait on.
    pub can_wait_from: DeviceBitmap,
    /// Peers that can observe this device's signals.
    pub can_signal_to: DeviceBitmap,
    /// Peers whose buffers this device can import.
    pub can_import_from: DeviceBitmap,
    /// Peers with peer-to-peer access.
    pub can_p2p_with: DeviceBitmap,
    /// The frontier identity.
    pub frontier: FrontierInfo,
}

impl TopologyInfo {
    /// The info of device `index` of `topology`, with bitmaps computed from
    /// the matrix and the base axis from `tracker`. `None` when `index` is
    /// out of range.
    pub fn for_device(
        topology: &Arc<Topology>,
        index: usize,
        tracker: &Arc<FrontierTracker>,
    ) -> Option<TopologyInfo> {
        let self_edge = topology.edge(index, index)?;
        let PeerBitmaps {
            can_wait_from,
            can_signal_to,
            can_import_from,
            can_p2p_with,
        } = topology.peer_bitmaps(index);
        Some(TopologyInfo {
            topology_index: u32::try_from(index).ok()?,
            topology: Arc::clone(topology),
            self_edge: self_edge.lo,
            can_wait_from,
            can_signal_to,
            can_import_from,
            can_p2p_with,
            frontier: FrontierInfo {
                tracker: Arc::clone(tracker),
                base_axis: tracker.base_axis(u8::try_from(index).ok()?),
            },
        })
    }

    /// The four bitmaps.
    pub fn peer_bitmaps(&self) -> PeerBitmaps {
        PeerBitmaps {
            can_wait_from: self.can_wait_from,
            can_signal_to: self.can_signal_to,
            can_import_from: self.can_import_from,
            can_p2p_with: self.can_p2p_with,
        }
    }

    /// The edge from this device to `dst`, when both are in the same topology.
    #[inline]
    pub fn edge_to(&self, dst: &TopologyInfo) -> Option<Edge> {
        if !Arc::ptr_eq(&self.topology, &dst.topology) {
            return None;
        }
        self.topology
            .edge(self.topology_index as usize, dst.topology_index as usize)
    }

    /// The origin stamp of resources this device creates.
    pub fn resource_origin(&self) -> ResourceOrigin {
        ResourceOrigin {
            self_edge: self.self_edge,
            topology_index: self.topology_index,
        }
    }
}

/// The edge between two devices given their topology infos (IREE's
/// `iree_hal_device_topology_query_edge`): `None` when either device is
/// standalone or the two belong to different topologies. (IREE returns the
/// all-zero edge there, which is also a valid edge; `None` is unambiguous.)
#[inline]
pub fn query_edge(src: Option<&TopologyInfo>, dst: Option<&TopologyInfo>) -> Option<Edge> {
    src?.edge_to(dst?)
}

/// Where a resource was created: its device's self edge and index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceOrigin {
    /// The scheduling word of the creating device's self edge.
    pub self_edge: u64,
    /// The creating device's topology index.
    pub topology_index: u32,
}

impl ResourceOrigin {
    /// The origin of a resource made outside any topology.
    pub const UNDEFINED: ResourceOrigin = ResourceOrigin {
        self_edge: 0,
        topology_index: DEVICE_ORDINAL_INVALID,
    };
}

/// A device's topology-info slot: what a [`HalDevice`](super::HalDevice)
/// implementation embeds to store its assignment.
#[derive(Debug, Default)]
pub struct TopologySlot {
    info: RwLock<Option<TopologyInfo>>,
}

impl TopologySlot {
    /// An empty (standalone) slot.
    pub fn new() -> TopologySlot {
        TopologySlot::default()
    }

    /// Stores `info` (`None` clears the slot).
    pub fn set(&self, info: Option<TopologyInfo>) {
        // A poisoned lock only means a panic elsewhere; the data is a plain value.
        *self
            .info
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = info;
    }

    /// A copy of the stored info.
    pub fn get(&self) -> Option<TopologyInfo> {
        self.info
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// True when an info is stored.
    pub fn is_assigned(&self) -> bool {
        self.info
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .is_some()
    }
}
