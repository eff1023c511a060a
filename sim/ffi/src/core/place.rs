//! Where a HIP copy or fill reads or writes.

/// Simulated device memory or the client's host memory.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// Simulated device memory.
    Device(u64),
    /// The client's host memory.
    Host(usize),
}
