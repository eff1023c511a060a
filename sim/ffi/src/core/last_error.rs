//! The error `hipGetLastError` returns: every failing HIP call records
//! itself here (HIP keeps it per thread; one node is one process here, and
//! the driver code under test is single-threaded per call).

use std::sync::atomic::{AtomicI32, Ordering};

use crate::abi::{hipError_t, hipSuccess};

/// The last failing HIP call's error.
#[derive(Debug)]
pub(crate) struct LastError(AtomicI32);

impl LastError {
    /// No failure yet.
    pub(crate) const fn new() -> LastError {
        LastError(AtomicI32::new(hipSuccess))
    }

    /// Records a failure as the last error and returns it.
    pub(crate) fn finish(&self, error: hipError_t) -> hipError_t {
        if error != hipSuccess {
            self.0.store(error, Ordering::Relaxed);
        }
        error
    }

    /// The last failure, left in place (`hipPeekAtLastError`).
    pub(crate) fn peek(&self) -> hipError_t {
        self.0.load(Ordering::Relaxed)
    }

    /// The last failure, leaving `hipSuccess` in its place.
    pub(crate) fn take(&self) -> hipError_t {
        self.0.swap(hipSuccess, Ordering::Relaxed)
    }
}
