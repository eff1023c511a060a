//! Handle values of streams, events, graphs, graph nodes and graph
//! instances: non-null, never a host address the client could mistake for
//! memory, never reused.

use std::sync::atomic::{AtomicU64, Ordering};

/// The next handle value.
#[derive(Debug)]
pub(crate) struct Handles(AtomicU64);

impl Default for Handles {
    fn default() -> Handles {
        Handles(AtomicU64::new(0x5eed_0000_0000))
    }
}

impl Handles {
    /// A fresh handle value.
    pub(crate) fn next(&self) -> u64 {
        self.0.fetch_add(16, Ordering::Relaxed)
    }
}
