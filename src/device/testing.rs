//! A scriptable [`HalDevice`] for tests and benchmarks (IREE's mock device):
//! fixed capabilities, an optional refinement, and failures on demand.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{HalDevice, TopologyInfo, TopologySlot};
use crate::status::{Result, Status};
use crate::topology::{DeviceCapabilities, Edge};

/// A refinement hook: `(src, dst, edge)`.
pub type RefineFn = dyn Fn(&MockDevice, &MockDevice, &mut Edge) -> Result<()> + Send + Sync;

/// A device whose behaviour is set by its fields.
pub struct MockDevice {
    id: String,
    capabilities: DeviceCapabilities,
    query_error: Option<Status>,
    assign_error: Option<Status>,
    clear_error: Option<Status>,
    refine: Option<Arc<RefineFn>>,
    slot: TopologySlot,
    assign_calls: AtomicUsize,
    clear_calls: AtomicUsize,
}

impl MockDevice {
    /// A device of driver `id` with zero capabilities that never fails.
    pub fn new(id: impl Into<String>) -> MockDevice {
        MockDevice {
            id: id.into(),
            capabilities: DeviceCapabilities::default(),
            query_error: None,
            assign_error: None,
            clear_error: None,
            refine: None,
            slot: TopologySlot::new(),
            assign_calls: AtomicUsize::new(0),
            clear_calls: AtomicUsize::new(0),
        }
    }

    /// Reports `capabilities`.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: DeviceCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Fails `query_capabilities` with `status`.
    #[must_use]
    pub fn failing_query(mut self, status: Status) -> Self {
        self.query_error = Some(status);
        self
    }

    /// Fails every assignment (not clearing) with `status`, storing nothing.
    #[must_use]
    pub fn failing_assign(mut self, status: Status) -> Self {
        self.assign_error = Some(status);
        self
    }

    /// Fails clearing with `status` (the slot is still cleared).
    #[must_use]
    pub fn failing_clear(mut self, status: Status) -> Self {
        self.clear_error = Some(status);
        self
    }

    /// Refines same-driver edges toward other mock devices with `refine`.
    #[must_use]
    pub fn with_refine(mut self, refine: Arc<RefineFn>) -> Self {
        self.refine = Some(refine);
        self
    }

    /// This device shared, as groups take it.
    pub fn into_dyn(self) -> Arc<dyn HalDevice> {
        Arc::new(self)
    }

    /// The capabilities this device reports.
    pub fn capabilities(&self) -> &DeviceCapabilities {
        &self.capabilities
    }

    /// How many times a non-`None` info was offered.
    pub fn assign_calls(&self) -> usize {
        self.assign_calls.load(Ordering::Relaxed)
    }

    /// How many times the info was cleared.
    pub fn clear_calls(&self) -> usize {
        self.clear_calls.load(Ordering::Relaxed)
    }
}

impl HalDevice for MockDevice {
    fn id(&self) -> &str {
        &self.id
    }

    fn query_capabilities(&self) -> Result<DeviceCapabilities> {
        match &self.query_error {
            Some(status) => Err(status.clone()),
            None => Ok(self.capabilities),
        }
    }

    fn refine_topology_edge(&self, dst: &dyn HalDevice, edge: &mut Edge) -> Result<()> {
        let (Some(refine), Some(dst)) = (
            &self.refine,
            (dst as &dyn std::any::Any).downcast_ref::<MockDevice>(),
        ) else {
            return Ok(());
        };
        refine(self, dst, edge)
    }

    fn assign_topology_info(&self, info: Option<TopologyInfo>) -> Result<()> {
        match info {
            Some(info) => {
                self.assign_calls.fetch_add(1, Ordering::Relaxed);
                if let Some(status) = &self.assign_error {
                    return Err(status.clone());
                }
                self.slot.set(Some(info));
                Ok(())
            }
            None => {
                self.clear_calls.fetch_add(1, Ordering::Relaxed);
                self.slot.set(None);
                match &self.clear_error {
                    Some(status) => Err(status.clone()),
                    None => Ok(()),
                }
            }
        }
    }

    fn topology_info(&self) -> Option<TopologyInfo> {
        self.slot.get()
    }
}
