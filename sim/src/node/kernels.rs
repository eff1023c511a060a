//! Kernel execution's calls: a HIP launch's kernel run over the node's
//! memory, the kernel mode, counts and injected kernel faults
//! (`kernel_exec` holds how a kernel runs).

use std::sync::Mutex;

use amdgpu_isa::{Dispatch, Fault, FidelityCounts, Memory as KernelMemory, run_dispatch_threads};

use super::Sim;
use crate::codes::HipCode;
use crate::faults::KernelFault;
use crate::kernel_exec::{
    DispatchStats, KernelCounts, KernelMode, KernelRun, KernelThreads, launch_dispatch,
    launch_fault,
};
use crate::kernel_memory::{AgentReach, SharedHost, SharedNodeMemory};
use crate::memory::MemoryView;

impl Sim {
    /// Executes a launch's kernel over the node's memory and `host`, the
    /// client's host memory. A fault (an access outside memory, a wave
    /// that never ends) is said on stderr with the kernel's name and is
    /// `hipErrorIllegalAddress`, as a device fault is reported at the next
    /// synchronization; what only execution shows the interpreter cannot
    /// run (an `s_setpc_b64` into other code) is `hipErrorLaunchFailure`.
    /// What ran is the dispatch's waves and instructions.
    ///
    /// The node's lock is not held while the kernel runs: other threads'
    /// calls go on meanwhile.
    pub fn hip_execute_kernel(
        &self,
        run: &KernelRun,
        host: &mut (dyn KernelMemory + Send),
    ) -> Result<DispatchStats, HipCode> {
        let dispatch = launch_dispatch(run);
        let view = self.lock().memory.view();
        self.run_kernel(run.kernel(), &dispatch, None, view, &Mutex::new(host))
            .map_err(|fault| launch_fault(run.kernel(), &fault))
    }

    /// Runs `dispatch` of kernel `name` over `view` of the node's memory
    /// (held to what `agent` reaches, when given) and `host`, its
    /// work-groups on the node's kernel threads, counting it executed or
    /// faulted and, when it ends, its instructions by fidelity class: what
    /// a HIP launch and an AQL or PM4 dispatch share. The node's lock is
    /// taken to start and to count the run, never while the kernel runs
    /// (its memory accesses go through the view); the view ends with the
    /// run, and what frees meanwhile left backed for it is dropped. A
    /// kernel an injected fault names faults before its first
    /// instruction.
    pub(crate) fn run_kernel(
        &self,
        name: &str,
        dispatch: &Dispatch<'_>,
        agent: Option<&AgentReach>,
        view: MemoryView,
        host: &SharedHost<'_>,
    ) -> Result<DispatchStats, Fault> {
        let threads = self.lock().kernels.start()?;
        let memories = (0..threads)
            .map(|_| SharedNodeMemory {
                view: &view,
                host,
                agent,
            })
            .collect();
        let result = run_dispatch_threads(dispatch, memories);
        drop(view);
        let mut state = self.lock();
        state.kernels.finish(name, &result);
        state.memory.reclaim();
        result
    }

    /// How many threads a dispatch's work-groups run on
    /// (`AMDGPU_SIM_THREADS`).
    pub fn set_kernel_threads(&self, threads: KernelThreads) {
        self.lock().kernels.threads = threads;
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
