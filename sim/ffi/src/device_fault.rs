//! What a kernel fault does to the process and to its device.
//!
//! A ROCm node answers a GPU memory fault by printing `Memory access fault
//! by GPU node-N ...` and aborting the process (ROCr's VM fault handler,
//! when no system event handler takes the fault), so on hardware no
//! program outlives a faulting kernel. [`ON_FAULT_ENV`] chooses what the
//! simulated node does:
//!
//! - `abort` (the default): the same, after the report file is written: a
//!   faulting kernel always ends its client with `SIGABRT`, whatever the
//!   client's own error handling would have made of it. So does a kernel
//!   the interpreter cannot run (an instruction it lacks, a chip it does
//!   not model), when it is launched: nothing the client does after it can
//!   have the kernel's results.
//! - `report`: the process lives on and the failure stays on the device
//!   (HIP's "sticky" errors): a fault answers `hipErrorIllegalAddress`, a
//!   kernel that cannot run `hipErrorLaunchFailure` at its launch, and the
//!   device keeps it for every later synchronizing call; an HSA queue's
//!   error callback receives `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION`
//!   or `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION`. For clients that test their
//!   own failure handling.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use amdgpu_sim::HipCode;

/// Environment variable choosing [`OnFault`]: `abort` or `report`.
pub const ON_FAULT_ENV: &str = "AMDGPU_SIM_ON_FAULT";

/// What a kernel's memory fault does to the process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnFault {
    /// Abort the process, as ROCr does.
    #[default]
    Abort,
    /// Keep the process; the device reports the fault from then on.
    Report,
}

impl OnFault {
    /// The policy a value of [`ON_FAULT_ENV`] names (unset or empty: the
    /// default).
    pub fn parse(value: Option<&str>) -> Result<OnFault, String> {
        match value {
            None | Some("abort") => Ok(OnFault::Abort),
            Some("report") => Ok(OnFault::Report),
            Some(other) => Err(format!(
                "{ON_FAULT_ENV}: `{other}` is neither `abort` nor `report`"
            )),
        }
    }
}

/// The first kernel failure of each device (HIP ordinal). A lock of its
/// own: streams record into it while holding their queue, which holders
/// of the stream registry also take.
fn failures() -> &'static Mutex<BTreeMap<i32, HipCode>> {
    static FAILURES: OnceLock<Mutex<BTreeMap<i32, HipCode>>> = OnceLock::new();
    FAILURES.get_or_init(Default::default)
}

/// Keeps `code` on device `ordinal` (the first failure stays).
pub(crate) fn record(ordinal: i32, code: HipCode) {
    failures()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(ordinal)
        .or_insert(code);
}

/// The error a kernel of device `ordinal` failed with, if one has: what
/// every synchronizing call on the device answers from then on.
pub(crate) fn check(ordinal: i32) -> Result<(), HipCode> {
    failures()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&ordinal)
        .map_or(Ok(()), |&code| Err(code))
}

/// A kernel faulted: under [`OnFault::Abort`], says `unsaid` (the fault,
/// when not already on stderr), writes the report and aborts the process.
pub(crate) fn kernel_faulted(kernel: &str, unsaid: Option<&str>) {
    abort_for(
        unsaid,
        &format!("the memory access fault of kernel `{kernel}` aborts the process, as on ROCm"),
    );
}

/// A kernel cannot run on the interpreter: under [`OnFault::Abort`], as
/// [`kernel_faulted`].
pub(crate) fn kernel_unrunnable(unsaid: Option<&str>) {
    abort_for(
        unsaid,
        "a kernel the node cannot run aborts the process: nothing after it has its results",
    );
}

fn abort_for(unsaid: Option<&str>, why: &str) {
    let Some(node) = crate::node::node() else {
        return;
    };
    if node.on_fault == OnFault::Abort {
        if let Some(text) = unsaid {
            eprintln!("amdgpu-sim: {text}");
        }
        node.write_report();
        eprintln!(
            "amdgpu-sim: {why} ({ON_FAULT_ENV}=report keeps the process, the failure \
             answered by every later synchronization on the device)"
        );
        std::process::abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_by_name() {
        assert_eq!(OnFault::parse(None), Ok(OnFault::Abort));
        assert_eq!(OnFault::parse(Some("abort")), Ok(OnFault::Abort));
        assert_eq!(OnFault::parse(Some("report")), Ok(OnFault::Report));
        let e = OnFault::parse(Some("ignore")).unwrap_err();
        assert!(e.contains(ON_FAULT_ENV) && e.contains("`ignore`"), "{e}");
    }
}
