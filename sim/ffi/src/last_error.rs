//! The error `hipGetLastError` returns: every failing HIP call records
//! itself here (HIP keeps it per thread; one node is one process here, and
//! the driver code under test is single-threaded per call).

use std::sync::atomic::{AtomicI32, Ordering};

use crate::abi::{hipError_t, hipSuccess};

static LAST_ERROR: AtomicI32 = AtomicI32::new(hipSuccess);

/// Records a failure as the last error and returns it.
pub(crate) fn finish(error: hipError_t) -> hipError_t {
    if error != hipSuccess {
        LAST_ERROR.store(error, Ordering::Relaxed);
    }
    error
}

/// The last failure, leaving `hipSuccess` in its place.
pub(crate) fn take() -> hipError_t {
    LAST_ERROR.swap(hipSuccess, Ordering::Relaxed)
}
