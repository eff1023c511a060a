//! What a kernel fault does to the process and to its device.
//!
//! A ROCm node answers a GPU memory fault by printing `Memory access fault
//! by GPU node-N ...` and aborting the process (ROCr's VM fault handler,
//! when no system event handler takes the fault), so on hardware no
//! program outlives a faulting kernel. [`ON_FAULT_ENV`] chooses what the
//! simulated node does:
//!
//! - `abort` (the default): the same, after the report file (and the
//!   timeline, `AMDGPU_SIM_TRACE=chrome:FILE`) is written: a
//!   faulting kernel always ends its client with `SIGABRT`, whatever the
//!   client's own error handling would have made of it. So does a kernel
//!   the interpreter cannot run (an instruction it lacks, a chip it does
//!   not model), when it is launched: nothing the client does after it can
//!   have the kernel's results.
//! - `report`: the process lives on and the failure stays on the device
//!   (HIP's "sticky" errors, kept in the runtime's device faults): a fault
//!   answers `hipErrorIllegalAddress`, a kernel that cannot run
//!   `hipErrorLaunchFailure` at its launch, and the device keeps it for
//!   every later synchronizing call; an HSA queue's error callback receives
//!   `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION` or
//!   `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION`. For clients that test their
//!   own failure handling.

use crate::core::runtime::Runtime;
pub use crate::core::settings::{ON_FAULT_ENV, OnFault};

/// A kernel faulted: under [`OnFault::Abort`], says `unsaid` (the fault,
/// when not already on stderr), writes the report and aborts the process.
pub(crate) fn kernel_faulted(rt: &Runtime, kernel: &str, unsaid: Option<&str>) {
    if let Some(timeline) = rt.timeline {
        timeline.fault(
            &format!("kernel fault: {kernel}"),
            unsaid.unwrap_or("a memory access fault (said on stderr)"),
        );
    }
    abort_for(
        rt,
        unsaid,
        &format!("the memory access fault of kernel `{kernel}` aborts the process, as on ROCm"),
    );
}

/// A kernel cannot run on the interpreter: under [`OnFault::Abort`], as
/// [`kernel_faulted`].
pub(crate) fn kernel_unrunnable(rt: &Runtime, unsaid: Option<&str>) {
    if let Some(timeline) = rt.timeline {
        timeline.fault(
            "kernel cannot run",
            unsaid.unwrap_or("the interpreter cannot run it (said on stderr)"),
        );
    }
    abort_for(
        rt,
        unsaid,
        "a kernel the node cannot run aborts the process: nothing after it has its results",
    );
}

fn abort_for(rt: &Runtime, unsaid: Option<&str>, why: &str) {
    if rt.settings.on_fault == OnFault::Abort {
        if let Some(text) = unsaid {
            eprintln!("amdgpu-sim: {text}");
        }
        rt.write_report();
        if let Some(timeline) = rt.timeline {
            timeline.write();
        }
        eprintln!(
            "amdgpu-sim: {why} ({ON_FAULT_ENV}=report keeps the process, the failure \
             answered by every later synchronization on the device)"
        );
        std::process::abort();
    }
}
