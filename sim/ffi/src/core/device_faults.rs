//! The first kernel failure of each device (HIP ordinal): what every
//! synchronizing call on the device answers once one of its kernels has
//! failed (HIP's "sticky" errors, `crate::device_fault`).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use amdgpu_sim::HipCode;

/// Each device's kept failure, and how many launches were refused (a
/// kernel the node cannot run: the report's `launches_refused`, which a
/// launch that ran and failed, counted in `launches_faulted`, is not). A
/// lock of its own: streams record into it while holding their queue,
/// which holders of the stream registry also take.
#[derive(Debug, Default)]
pub(crate) struct DeviceFaults {
    kept: Mutex<BTreeMap<i32, HipCode>>,
    refused: AtomicUsize,
}

impl DeviceFaults {
    /// A launch on device `ordinal` refused (`hipErrorLaunchFailure`, kept
    /// on the device) and counted.
    pub(crate) fn refuse_launch(&self, ordinal: i32) {
        self.refused.fetch_add(1, Ordering::Relaxed);
        self.record(ordinal, HipCode::LAUNCH_FAILURE);
    }

    /// The launches refused so far.
    pub(crate) fn refused_launches(&self) -> usize {
        self.refused.load(Ordering::Relaxed)
    }

    /// Keeps `code` on device `ordinal` (the first failure stays).
    pub(crate) fn record(&self, ordinal: i32, code: HipCode) {
        self.kept
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ordinal)
            .or_insert(code);
    }

    /// The error a kernel of device `ordinal` failed with, if one has.
    pub(crate) fn check(&self, ordinal: i32) -> Result<(), HipCode> {
        self.kept
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&ordinal)
            .map_or(Ok(()), |&code| Err(code))
    }
}
