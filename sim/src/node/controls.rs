//! What tests and the C library ask of the node outside any counted call:
//! tracing, faults, the call log, live objects, image and pool usage, and
//! an agent's queue attributes.

use super::Sim;
use crate::codes::{HipCode, HsaCode};
use crate::faults::{CallRecord, Fault};
use crate::handles::{TAG_POOL, index};
use crate::memory::{ImageUsage, PoolUsage};
use crate::state::LiveObjects;
use crate::state::calls::CallSink;
use crate::topology::QueueAgent;

impl Sim {
    /// Prints every call, as it is logged, on stderr (`AMDGPU_SIM_TRACE`).
    pub fn set_trace(&self, enabled: bool) {
        let mut state = self.lock();
        let threads = state.calls.trace_threads();
        state.calls.set_trace(enabled, threads);
    }

    /// Prints every call with the calling thread's id, and the notes of
    /// [`Sim::trace_note`] (`AMDGPU_SIM_TRACE=threads`): for ordering
    /// questions between a client's threads and the node's stream workers.
    pub fn set_trace_threads(&self, enabled: bool) {
        self.lock().calls.set_trace(enabled, enabled);
    }

    /// Hands every call's record to `sink` as it is logged, whether or not
    /// the log keeps it (`None`: to nothing). The C library's timeline
    /// (`AMDGPU_SIM_TRACE=chrome:FILE`) gives each call its arguments and
    /// outcome this way.
    pub fn set_call_sink(&self, sink: Option<CallSink>) {
        self.lock().calls.set_sink(sink);
    }

    /// Prints `note()` after the calling thread's id when threads are
    /// traced: work the node does outside any call (a stream worker running
    /// an operation).
    pub fn trace_note(&self, note: impl FnOnce() -> String) {
        // The note is rendered and printed after the lock is released.
        let threads = self.lock().calls.trace_threads();
        if threads {
            eprintln!("amdgpu-sim: [{:?}] {}", std::thread::current().id(), note());
        }
    }

    /// Arms an HSA fault.
    pub fn inject_hsa(&self, fault: Fault<HsaCode>) {
        self.lock().calls.arm_hsa(fault);
    }

    /// Arms a HIP fault.
    pub fn inject_hip(&self, fault: Fault<HipCode>) {
        self.lock().calls.arm_hip(fault);
    }

    /// Disarms every fault.
    pub fn clear_faults(&self) {
        let mut state = self.lock();
        state.calls.clear_faults();
        state.kernels.faults.clear();
    }

    /// HSA calls made so far (what `Trigger::NthCall` counts).
    pub fn hsa_call_count(&self) -> u64 {
        self.lock().calls.hsa_calls()
    }

    /// HIP calls made so far.
    pub fn hip_call_count(&self) -> u64 {
        self.lock().calls.hip_calls()
    }

    /// Turns the call log on (the default) or off. Off, calls are still
    /// counted and faults still fire, but nothing is rendered or kept: for
    /// runs that never read the log (the CLI, benchmarks of the HAL).
    pub fn set_call_log(&self, enabled: bool) {
        self.lock().calls.set_log(enabled);
    }

    /// The call log so far (and how many calls fell off its end).
    pub fn call_log(&self) -> (Vec<CallRecord>, u64) {
        self.lock().calls.log()
    }

    /// Objects live right now.
    pub fn live_objects(&self) -> LiveObjects {
        self.lock().live_objects(self.topology.tables.pools.len())
    }

    /// What the mapped code-object images hold: mappings, the shared images
    /// behind them (each counted once) and the pages writes copied into
    /// mappings. Not an object count: an image lives exactly as long as a
    /// loaded code object or HIP module maps it.
    pub fn image_usage(&self) -> ImageUsage {
        self.lock().image_usage()
    }

    /// Usage of a pool (by its handle), for tests.
    pub fn pool_usage(&self, pool: u64) -> Option<PoolUsage> {
        let index = index(pool, TAG_POOL)?;
        (index < self.topology.tables.pools.len()).then(|| self.lock().memory.usage(index))
    }

    /// What `hsa_queue_create` checks and records for `agent` (asked by the
    /// C library's own queue code, inside its counted call; not an HSA
    /// call); `None` for a handle that is not an agent.
    pub fn queue_agent(&self, agent: u64) -> Option<QueueAgent> {
        self.topology.queue_agent(agent)
    }

    /// Whether `agent` is one of this node's agent handles (asked by the
    /// C library's own calls, e.g. a signal's consumers; not an HSA call).
    pub fn is_agent(&self, agent: u64) -> bool {
        self.topology.agent_index(agent).is_ok()
    }
}
