//! The copy engine's queue (`hsa_amd_memory_async_copy`): copies
//! submitted and not yet run, and whether the engine thread is running.
//! The engine itself is `crate::hsa::async_copy`'s.

use std::sync::{Mutex, MutexGuard};

/// One submitted copy.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) dst: u64,
    pub(crate) src: u64,
    pub(crate) size: u64,
    pub(crate) deps: Vec<u64>,
    pub(crate) completion: u64,
}

/// The pending copies.
#[derive(Debug, Default)]
pub(crate) struct CopyQueue {
    pub(crate) pending: Vec<Pending>,
    /// Whether the engine thread is running (it stops when nothing is pending).
    pub(crate) running: bool,
}

/// The copy queue behind its lock.
#[derive(Debug, Default)]
pub(crate) struct Copies(Mutex<CopyQueue>);

impl Copies {
    /// The queue, whatever a panicking holder left.
    pub(crate) fn lock(&self) -> MutexGuard<'_, CopyQueue> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Copies submitted and not yet run.
    pub(crate) fn pending(&self) -> usize {
        self.lock().pending.len()
    }
}
