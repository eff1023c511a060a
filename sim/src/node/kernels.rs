//! Kernel execution's calls: a HIP launch's kernel run over the node's
//! memory, the kernel mode, counts and injected kernel faults
//! (`kernel_exec` holds how a kernel runs).

use amdgpu_isa::{FidelityCounts, Memory as KernelMemory};

use super::Sim;
use crate::codes::HipCode;
use crate::faults::KernelFault;
use crate::kernel_exec::{
    DispatchStats, KernelCounts, KernelMode, KernelRun, launch_dispatch, launch_fault,
};

impl Sim {
    /// Executes a launch's kernel over the node's memory and `host`, the
    /// client's host memory. A fault (an access outside memory, a wave
    /// that never ends) is said on stderr with the kernel's name and is
    /// `hipErrorIllegalAddress`, as a device fault is reported at the next
    /// synchronization; what only execution shows the interpreter cannot
    /// run (an `s_setpc_b64` into other code) is `hipErrorLaunchFailure`.
    /// What ran is the dispatch's waves and instructions.
    pub fn hip_execute_kernel(
        &self,
        run: &KernelRun,
        host: &mut dyn KernelMemory,
    ) -> Result<DispatchStats, HipCode> {
        let dispatch = launch_dispatch(run);
        let result = {
            let mut state = self.lock();
            let (mut memory, kernels) = state.kernel_memory(None, host);
            kernels.run(run.kernel(), &dispatch, &mut memory)
        };
        result.map_err(|fault| launch_fault(run.kernel(), &fault))
    }

    /// Whether launches execute their kernels (`AMDGPU_SIM_KERNELS`).
    pub fn set_kernel_mode(&self, mode: KernelMode) {
        self.lock().kernels.mode = mode;
    }

    /// Launches executed, skipped and faulted so far.
    pub fn kernel_counts(&self) -> KernelCounts {
        self.lock().kernels.counts
    }

    /// Wave-instructions executed so far, by kernel name (sorted) and by
    /// how faithfully each was executed ([`amdgpu_isa::Fidelity`]): HIP
    /// launches and queue dispatches whose kernel ran to the end (a
    /// faulted run is not counted).
    pub fn kernel_fidelity(&self) -> Vec<(String, FidelityCounts)> {
        self.lock()
            .kernels
            .fidelity
            .iter()
            .map(|(name, counts)| (name.clone(), *counts))
            .collect()
    }

    /// Makes kernels fault ([`KernelFault`]).
    pub fn inject_kernel_fault(&self, fault: KernelFault) {
        self.lock().kernels.faults.push(fault);
    }
}
