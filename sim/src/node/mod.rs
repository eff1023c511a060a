//! The simulated node: [`Sim`] holds the node's [`Topology`] (read without
//! a lock) and its mutable [`State`] behind one mutex, so it is
//! `Send + Sync` and every call is atomic. Its calls are thin, in the
//! public module of each family (`hsa`, `loader`, `hsa_memory`, `vmem`,
//! `hip`, `hip_memory`, `hip_module`, `get_info`, `aql`) and here
//! (`controls`, `kernels`): each locks the state, counts and logs the call
//! ([`Sim::hsa`], [`Sim::hip`]) and hands the work to the sub-state that
//! owns it.

use std::fmt::Debug;
use std::sync::{Mutex, MutexGuard};

use crate::codes::{HipCode, HsaCode};
use crate::handles::agent_handle;
use crate::memory::{ByteStore, SparseStore};
use crate::state::State;
use crate::topology::Topology;
use crate::validate::Machine;

mod controls;
mod kernels;

/// A simulated ROCm node.
pub struct Sim {
    pub(crate) topology: Topology,
    state: Mutex<State>,
}

impl Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sim")
            .field("machine", &self.topology.machine.name)
            .finish_non_exhaustive()
    }
}

impl Sim {
    /// A node running `machine`, HSA not yet initialized, its memory in
    /// the simulator's own pages.
    pub fn new(machine: Machine) -> Sim {
        Sim::with_store(machine, Box::new(SparseStore::new()))
    }

    /// A node running `machine` whose memory's bytes `store` holds (the C
    /// library's store makes them process memory at the simulated
    /// addresses).
    pub fn with_store(machine: Machine, store: Box<dyn ByteStore>) -> Sim {
        let topology = Topology::new(machine);
        let state = State::new(
            topology.machine.agents.len(),
            topology.tables.pools.len(),
            store,
        );
        Sim {
            topology,
            state: Mutex::new(state),
        }
    }

    /// The machine this node runs.
    pub fn machine(&self) -> &Machine {
        &self.topology.machine
    }

    /// The handle of agent `index` (HSA order).
    pub fn agent_handle(index: usize) -> u64 {
        agent_handle(index)
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the state half-updated in a way that
        // matters more than losing the simulator: keep going.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs one HSA call: counts it, applies faults and the init check, logs
    /// it (`args` renders its arguments, only when the call is logged).
    pub(crate) fn hsa<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce(&Topology, &mut State) -> Result<T, HsaCode>,
    ) -> Result<T, HsaCode> {
        let mut state = self.lock();
        if let Some(code) = state.calls.hsa_fault(op) {
            state.calls.record_refusal(op, args, code, true);
            return Err(code);
        }
        let result = if op != "hsa_init" && !state.calls.initialized() {
            Err(HsaCode::NOT_INITIALIZED)
        } else {
            body(&self.topology, &mut state)
        };
        state.calls.record_outcome(op, args, &result);
        result
    }

    /// Runs one HSA call the C library models itself (signals): counted,
    /// faulted and refused before `hsa_init` like any other, then `body`
    /// runs without the node locked, and its outcome is logged.
    pub fn hsa_external<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce() -> Result<T, HsaCode>,
    ) -> Result<T, HsaCode> {
        {
            let mut state = self.lock();
            let refused = match state.calls.hsa_fault(op) {
                Some(code) => Some((code, true)),
                None if !state.calls.initialized() => Some((HsaCode::NOT_INITIALIZED, false)),
                None => None,
            };
            if let Some((code, injected)) = refused {
                state.calls.record_refusal(op, args, code, injected);
                return Err(code);
            }
        }
        let result = body();
        self.lock().calls.record_outcome(op, args, &result);
        result
    }

    /// Runs one HIP call: counts it, applies faults, logs it.
    pub(crate) fn hip<T: Debug>(
        &self,
        op: &'static str,
        args: impl FnOnce() -> String,
        body: impl FnOnce(&Topology, &mut State) -> Result<T, HipCode>,
    ) -> Result<T, HipCode> {
        let mut state = self.lock();
        if let Some(code) = state.calls.hip_fault(op) {
            state.calls.record_refusal(op, args, code, true);
            return Err(code);
        }
        let result = body(&self.topology, &mut state);
        state.calls.record_outcome(op, args, &result);
        result
    }

    /// Counts a HIP call and applies its faults; the outcome is logged by
    /// [`Sim::hip_log`] once the caller has run it.
    pub(crate) fn hip_faulted(&self, op: &'static str) -> Result<(), HipCode> {
        let mut state = self.lock();
        if let Some(code) = state.calls.hip_fault(op) {
            state.calls.record_refusal(op, String::new, code, true);
            return Err(code);
        }
        Ok(())
    }

    /// Logs the outcome of a call counted by [`Sim::hip_faulted`].
    pub(crate) fn hip_log<T: Debug>(&self, op: &'static str, result: &Result<T, HipCode>) {
        self.lock().calls.record_outcome(op, String::new, result);
    }
}
