//! Device groups: a fixed set of 1..=32 devices, the immutable topology
//! between them, and each member's topology info (IREE's `device_group.c`).
//!
//! Creation is all-or-nothing. A group is built by
//! [`DeviceGroupBuilder::finalize`], [`DeviceGroup::create_from_device`] or
//! [`DeviceGroup::create_with_replacements`]; when any step fails after
//! assignment began, every device that may hold the new topology is cleared
//! again (`assign_topology_info(None)`), the clearing failures are joined
//! into the returned status, and every reference the attempt took is
//! dropped. No device is left pointing at a topology that was never returned.
//!
//! ## Duplicate devices
//!
//! IREE accepts the same device twice in one builder; it then derives a
//! self-edge between the two "members" (driver-handle aliasing) and assigns
//! the device twice, so the first index is silently overwritten and the
//! matrix has a member no device answers to. Here a device is a member at
//! most once: adding it again is `ALREADY_EXISTS`, and so is a replacement
//! callback returning one device for two indices. Identity is the `Arc`'s
//! allocation. (Two distinct device objects over the same hardware are still
//! allowed; the aliasing rule then gives them a self edge, as in IREE.)

mod builder;
pub mod report;

use std::sync::Arc;

pub use builder::DeviceGroupBuilder;

use crate::device::{FrontierTracker, HalDevice, TopologyInfo};
use crate::status::{Result, Status};
use crate::topology::Topology;

/// The callback of [`DeviceGroup::create_with_replacements`]: given the
/// source group, an index and the source device there, returns the device
/// that takes its place (`Ok(None)` is an error: a replacement is required).
pub type ReplacementFn<'a> =
    dyn FnMut(&DeviceGroup, usize, &Arc<dyn HalDevice>) -> Result<Option<Arc<dyn HalDevice>>> + 'a;

/// An immutable group of devices and their topology.
pub struct DeviceGroup {
    devices: Vec<Arc<dyn HalDevice>>,
    driver_names: Vec<String>,
    topology: Arc<Topology>,
    tracker: Arc<FrontierTracker>,
}

impl std::fmt::Debug for DeviceGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceGroup")
            .field("driver_names", &self.driver_names)
            .field("topology", &self.topology)
            .finish_non_exhaustive()
    }
}

impl DeviceGroup {
    /// A group of the one device `device`.
    pub fn create_from_device(
        device: Arc<dyn HalDevice>,
        tracker: Arc<FrontierTracker>,
    ) -> Result<DeviceGroup> {
        let mut builder = DeviceGroupBuilder::new(tracker);
        builder.add_device(device)?;
        builder.finalize()
    }

    /// The number of devices (1..=32).
    pub fn device_count(&self) -> usize {
        self.devices.len()
    }

    /// Device `index`, or `None` when out of range.
    pub fn device_at(&self, index: usize) -> Option<&Arc<dyn HalDevice>> {
        self.devices.get(index)
    }

    /// Every device, in topology order.
    pub fn devices(&self) -> &[Arc<dyn HalDevice>] {
        &self.devices
    }

    /// The driver name recorded for device `index` when the topology was built.
    pub fn driver_name(&self, index: usize) -> Option<&str> {
        self.driver_names.get(index).map(String::as_str)
    }

    /// The group's topology.
    pub fn topology(&self) -> &Arc<Topology> {
        &self.topology
    }

    /// The group's frontier tracker.
    pub fn frontier_tracker(&self) -> &Arc<FrontierTracker> {
        &self.tracker
    }

    /// A new group with the same topology, in which `replace` supplies the
    /// device for every index (in order). The topology is not re-derived: it
    /// is copied, and the new group's devices point at the copy.
    ///
    /// `INVALID_ARGUMENT` without a callback ("device group replacement
    /// callback function is required") or when it returns `None` for an
    /// index ("replacement device i must not be NULL"); a callback error is
    /// returned as is. Either way nothing stays assigned and every
    /// replacement already returned is dropped.
    pub fn create_with_replacements(
        &self,
        replace: Option<&mut ReplacementFn<'_>>,
    ) -> Result<DeviceGroup> {
        let Some(replace) = replace else {
            return Err(Status::invalid_argument(
                "device group replacement callback function is required",
            ));
        };
        let mut devices: Vec<Arc<dyn HalDevice>> = Vec::with_capacity(self.devices.len());
        for (index, source) in self.devices.iter().enumerate() {
            let replacement = replace(self, index, source)?.ok_or_else(|| {
                Status::invalid_argument(format!("replacement device {index} must not be NULL"))
            })?;
            if let Some(existing) = builder::position_of(&devices, &replacement) {
                return Err(Status::already_exists(format!(
                    "replacement device {index} is already the replacement of device {existing}"
                )));
            }
            devices.push(replacement);
        }
        let group = DeviceGroup {
            devices,
            driver_names: self.driver_names.clone(),
            topology: Arc::new(Topology::clone(&self.topology)),
            tracker: Arc::clone(&self.tracker),
        };
        group.assign_all()?;
        Ok(group)
    }

    /// Offers every member its topology info, in order; on the first failure
    /// clears every member up to and including the failing one and returns
    /// that failure with the clearing failures joined.
    fn assign_all(&self) -> Result<()> {
        for (index, device) in self.devices.iter().enumerate() {
            let result = TopologyInfo::for_device(&self.topology, index, &self.tracker)
                .ok_or_else(|| Status::internal(format!("device {index} is outside the topology")))
                .and_then(|info| device.assign_topology_info(Some(info)));
            if let Err(status) = result {
                let status = status.annotate(format!("assigning topology info to device {index}"));
                return Err(clear_assigned(
                    self.devices.get(..=index).unwrap_or(&self.devices),
                    status,
                ));
            }
        }
        Ok(())
    }
}

fn clear_assigned(devices: &[Arc<dyn HalDevice>], mut status: Status) -> Status {
    for (index, device) in devices.iter().enumerate() {
        if let Err(clear) = device.assign_topology_info(None) {
            status =
                status.join(clear.annotate(format!("clearing topology info of device {index}")));
        }
    }
    status
}
