//! Kernels executing in stream order: the client's host memory a kernel
//! may address (pinned `hipHostMalloc` memory and registered ranges), and
//! the stream operation that runs a launch.

use amdgpu_isa::{Memory, OutOfBounds};
use amdgpu_sim::HipCode;
use amdgpu_sim::kernel_exec::KernelRun;

use crate::host_memory::host_memory;
use crate::node::node;
use crate::ptr;

/// The host memory HIP knows (allocations and registrations), which a
/// kernel reaches through the same addresses as the host; any other host
/// address is a fault, never a dereference.
pub(crate) struct KnownHostMemory;

impl Memory for KnownHostMemory {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        let at = usize::try_from(address).map_err(|_| OutOfBounds)?;
        if !host_memory().is_known_range(at, out.len()) {
            return Err(OutOfBounds);
        }
        // SAFETY: `out.len()` bytes at `at` lie in one live allocation or
        // registration of the client's (checked just above); the bytes are
        // copied out before returning.
        let bytes = unsafe { ptr::read_bytes(at as *const _, out.len()) }.ok_or(OutOfBounds)?;
        out.copy_from_slice(&bytes);
        Ok(())
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        let at = usize::try_from(address).map_err(|_| OutOfBounds)?;
        if !host_memory().is_known_range(at, data.len()) {
            return Err(OutOfBounds);
        }
        // SAFETY: as in `read`: the range is the client's live, writable
        // host memory that HIP allocated or registered.
        unsafe { ptr::write_bytes(at as *mut _, data) }
            .then_some(())
            .ok_or(OutOfBounds)
    }
}

/// Executes a launch's kernel on the node (a fault aborts the process
/// unless `AMDGPU_SIM_ON_FAULT=report`: `crate::device_fault`).
pub(crate) fn execute(run: &KernelRun) -> Result<(), HipCode> {
    let Some(node) = node() else {
        return Err(HipCode::INVALID_VALUE);
    };
    let result = node.sim.hip_execute_kernel(run, &mut KnownHostMemory);
    match result {
        Err(HipCode::ILLEGAL_ADDRESS) => crate::device_fault::kernel_faulted(run.kernel(), None),
        Err(HipCode::LAUNCH_FAILURE) => crate::device_fault::kernel_unrunnable(None),
        _ => {}
    }
    result
}
