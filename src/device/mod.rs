//! The HAL device as the topology layer sees it: an id (driver name), its
//! capabilities, same-driver edge refinement, and the topology-info slot a
//! device group fills in.
//!
//! Devices are shared as `Arc<dyn HalDevice>`: a group holds one reference
//! per member, so `Arc::strong_count` shows exactly who holds a device. A
//! device stores its assignment itself (interior mutability, usually a
//! [`TopologySlot`]), because the group and other holders reach it through
//! shared references.

use std::any::Any;

use crate::status::Result;
use crate::topology::{DeviceCapabilities, Edge};

pub mod frontier;
pub mod info;
pub mod testing;

pub use frontier::{Axis, CausalDomain, FrontierTracker, FrontierTrackerOptions};
pub use info::{FrontierInfo, ResourceOrigin, TopologyInfo, TopologySlot, query_edge};

/// A device that can join a device group.
///
/// `Any` lets [`refine_topology_edge`](HalDevice::refine_topology_edge)
/// downcast its same-driver peer to the concrete type (`&dyn HalDevice`
/// upcasts to `&dyn Any`).
pub trait HalDevice: Any + Send + Sync {
    /// The driver name (IREE's device id), e.g. `"amdgpu"`, `"hip"`. Two
    /// devices are "of the same driver" when these are byte-equal.
    fn id(&self) -> &str;

    /// What the device reports for topology derivation.
    fn query_capabilities(&self) -> Result<DeviceCapabilities>;

    /// Improves the derived edge `self -> dst` with driver knowledge (link
    /// type, hop count...). Called only when `dst.id() == self.id()`. The
    /// default keeps the edge as derived.
    fn refine_topology_edge(&self, dst: &dyn HalDevice, edge: &mut Edge) -> Result<()> {
        let _ = (dst, edge);
        Ok(())
    }

    /// Stores the device's place in a group; `None` clears it (the group's
    /// rollback calls this on every device it had assigned).
    fn assign_topology_info(&self, info: Option<TopologyInfo>) -> Result<()>;

    /// The stored place in a group, `None` when standalone.
    fn topology_info(&self) -> Option<TopologyInfo>;
}
