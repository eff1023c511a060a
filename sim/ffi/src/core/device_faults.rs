//! The first kernel failure of each device (HIP ordinal): what every
//! synchronizing call on the device answers once one of its kernels has
//! failed (HIP's "sticky" errors, `crate::device_fault`).

use std::collections::BTreeMap;
use std::sync::Mutex;

use amdgpu_sim::HipCode;

/// Each device's kept failure. A lock of its own: streams record into it
/// while holding their queue, which holders of the stream registry also
/// take.
#[derive(Debug, Default)]
pub(crate) struct DeviceFaults(Mutex<BTreeMap<i32, HipCode>>);

impl DeviceFaults {
    /// Keeps `code` on device `ordinal` (the first failure stays).
    pub(crate) fn record(&self, ordinal: i32, code: HipCode) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(ordinal)
            .or_insert(code);
    }

    /// The error a kernel of device `ordinal` failed with, if one has.
    pub(crate) fn check(&self, ordinal: i32) -> Result<(), HipCode> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&ordinal)
            .map_or(Ok(()), |&code| Err(code))
    }
}
