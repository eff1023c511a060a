//! The device group builder: collects devices, then derives the topology and
//! assigns every member its topology info.

use std::sync::Arc;

use super::DeviceGroup;
use crate::device::{FrontierTracker, HalDevice};
use crate::status::{Result, ResultExt, Status};
use crate::topology::{
    MAX_DEVICE_COUNT, NumaDistances, TopologyBuilder, edge_from_capabilities, numa,
};

/// Collects up to 32 devices for a [`DeviceGroup`].
pub struct DeviceGroupBuilder {
    tracker: Arc<FrontierTracker>,
    numa: Arc<dyn NumaDistances>,
    devices: Vec<Arc<dyn HalDevice>>,
}

impl DeviceGroupBuilder {
    /// An empty builder whose group will use `tracker`, with the platform's
    /// SLIT ([`numa::platform_numa_distances`]) for NUMA distances.
    pub fn new(tracker: Arc<FrontierTracker>) -> DeviceGroupBuilder {
        DeviceGroupBuilder {
            tracker,
            numa: Arc::from(numa::platform_numa_distances()),
            devices: Vec::with_capacity(MAX_DEVICE_COUNT),
        }
    }

    /// Uses `numa` instead of the platform's SLIT (simulated machines, tests).
    #[must_use]
    pub fn with_numa_distances(mut self, numa: Arc<dyn NumaDistances>) -> Self {
        self.numa = numa;
        self
    }

    /// The number of devices added so far.
    pub fn len(&self) -> usize {
        self.devices.len()
    }

    /// True when no device was added (or after `finalize`).
    pub fn is_empty(&self) -> bool {
        self.devices.is_empty()
    }

    /// Adds `device` as the next member (its index is the current count).
    ///
    /// `RESOURCE_EXHAUSTED` "device group builder at max capacity (32)" for a
    /// 33rd device; `ALREADY_EXISTS` when `device` is already a member (see
    /// the [module docs](super) on duplicates).
    pub fn add_device(&mut self, device: Arc<dyn HalDevice>) -> Result<()> {
        if self.devices.len() >= MAX_DEVICE_COUNT {
            return Err(Status::resource_exhausted(format!(
                "device group builder at max capacity ({MAX_DEVICE_COUNT})"
            )));
        }
        if let Some(index) = position_of(&self.devices, &device) {
            return Err(Status::already_exists(format!(
                "device is already in the device group builder at index {index}"
            )));
        }
        self.devices.push(device);
        Ok(())
    }

    /// Builds the group: queries every device's capabilities, derives every
    /// edge (refined by same-driver devices), checks and freezes the
    /// topology, then assigns each device its info.
    ///
    /// The builder is emptied whatever happens. `INVALID_ARGUMENT` "device
    /// group builder has no devices" when empty; any device failure is
    /// returned annotated, after the rollback described in the [module
    /// docs](super).
    pub fn finalize(&mut self) -> Result<DeviceGroup> {
        let devices = std::mem::take(&mut self.devices);
        let _span = tracing::info_span!("group_create", devices = devices.len()).entered();
        if devices.is_empty() {
            return Err(Status::invalid_argument(
                "device group builder has no devices",
            ));
        }
        let driver_names: Vec<String> = devices
            .iter()
            .map(|device| device.id().to_owned())
            .collect();
        let capabilities = devices
            .iter()
            .enumerate()
            .map(|(index, device)| {
                device
                    .query_capabilities()
                    .annotate_with(|| format!("querying capabilities of device {index}"))
            })
            .collect::<Result<Vec<_>>>()?;

        let mut topology = TopologyBuilder::new(devices.len())?;
        for (i, ((src, src_caps), src_name)) in devices
            .iter()
            .zip(&capabilities)
            .zip(&driver_names)
            .enumerate()
        {
            for (j, ((dst, dst_caps), dst_name)) in devices
                .iter()
                .zip(&capabilities)
                .zip(&driver_names)
                .enumerate()
            {
                if i == j {
                    continue;
                }
                let mut edge =
                    edge_from_capabilities(src_caps, dst_caps, src_name, dst_name, &*self.numa);
                if src_name == dst_name {
                    src.refine_topology_edge(&**dst, &mut edge)
                        .annotate_with(|| format!("refining edge [{i},{j}]"))?;
                }
                topology.set_edge(i, j, edge)?;
            }
            topology.set_numa_node(i, src_caps.numa_node)?;
        }
        let group = DeviceGroup {
            topology: Arc::new(topology.finalize()?),
            devices,
            driver_names,
            tracker: Arc::clone(&self.tracker),
        };
        group.assign_all()?;
        Ok(group)
    }
}

/// The index of `device` in `devices` by allocation identity.
pub(super) fn position_of(
    devices: &[Arc<dyn HalDevice>],
    device: &Arc<dyn HalDevice>,
) -> Option<usize> {
    let wanted = Arc::as_ptr(device).cast::<()>();
    devices
        .iter()
        .position(|member| Arc::as_ptr(member).cast::<()>() == wanted)
}
