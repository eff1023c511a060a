//! `hsa_amd_memory_async_copy`: a copy engine. A submitted copy waits
//! until each of its dependent signals reads 0 (a handle that is no longer
//! a live signal reads 0, as the packet processor treats it), then copies
//! (each side simulated memory or the caller's host memory, as
//! `hsa_memory_copy`) and decrements its completion signal by 1. Copies
//! whose dependencies are met run in submission order, on one engine
//! thread that runs while copies are pending; a copy waiting on a signal
//! never holds back one that is ready.
//!
//! Submission is a counted HSA call with ROCr's checks, in ROCr's order
//! (`hsa_ext_amd.cpp`): NULL sides and a dependency list that disagrees
//! with its count `INVALID_ARGUMENT`, an agent that is none
//! `INVALID_AGENT`, a dependent or completion signal that is none
//! `INVALID_SIGNAL`; a size of 0 succeeds at once and leaves the
//! completion signal alone, as in ROCr. A side in simulated memory must
//! lie wholly inside it (`INVALID_ARGUMENT`). A copy that fails when it
//! runs (its memory freed meanwhile) is said on stderr and its completion
//! signal is left as it was, as a faulting engine never signals. Pending
//! copies are `hsa_async_copies` in the report.

use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, MutexGuard, OnceLock};

use amdgpu_sim::HsaCode;

use crate::abi::*;
use crate::hsa::{INVALID, on_node};
use crate::memory::CallerMemory;
use crate::node::node;
use crate::ptr::{self, c_exports};
use crate::signal;

/// Most dependent signals one copy may name.
pub const MAX_DEP_SIGNALS: u32 = 1 << 12;

/// One submitted copy.
#[derive(Debug)]
struct Pending {
    dst: u64,
    src: u64,
    size: u64,
    deps: Vec<u64>,
    completion: u64,
}

#[derive(Default)]
struct Queue {
    pending: Vec<Pending>,
    /// Whether the engine thread is running (it stops when nothing is pending).
    running: bool,
}

fn queue() -> MutexGuard<'static, Queue> {
    static QUEUE: OnceLock<Mutex<Queue>> = OnceLock::new();
    QUEUE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Copies submitted and not yet run.
pub(crate) fn pending() -> usize {
    queue().pending.len()
}

fn ready(copy: &Pending) -> bool {
    copy.deps.iter().all(|&h| {
        signal::registry()
            .get(h)
            .is_none_or(|s| s.load(Ordering::Acquire) == 0)
    })
}

/// The engine: runs ready copies until none is pending.
fn engine() {
    loop {
        let next = signal::registry().wait_until(None, || {
            let mut q = queue();
            if q.pending.is_empty() {
                q.running = false;
                return Some(None);
            }
            let i = q.pending.iter().position(ready)?;
            Some(Some(q.pending.remove(i)))
        });
        let Some(Some(copy)) = next else { return };
        run(&copy);
    }
}

fn run(copy: &Pending) {
    let Some(node) = node() else { return };
    match node
        .sim
        .engine_copy(copy.dst, copy.src, copy.size, &mut CallerMemory)
    {
        Ok(()) => {
            if let Some(s) = signal::registry().get(copy.completion) {
                s.subtract(1);
            }
            signal::registry().wake();
        }
        Err(code) => eprintln!(
            "amdgpu-sim-ffi: async copy of {} bytes from {:#x} to {:#x} failed ({code}); \
             its completion signal is not decremented",
            copy.size, copy.src, copy.dst
        ),
    }
}

fn submit(copy: Pending) -> Result<(), HsaCode> {
    let start = {
        let mut q = queue();
        q.pending.push(copy);
        !std::mem::replace(&mut q.running, true)
    };
    if start {
        let spawned = std::thread::Builder::new()
            .name("amdgpu-sim-copy".into())
            .spawn(engine);
        if spawned.is_err() {
            let mut q = queue();
            q.pending.pop();
            q.running = false;
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
    }
    signal::registry().wake();
    Ok(())
}

c_exports! {
    /// `hsa_amd_memory_async_copy`.
    ///
    /// # Safety
    /// `dep_signals` is NULL or points at `num_dep_signals` signals; a side
    /// that is not simulated memory is `size` bytes of the caller's host
    /// memory, live until the completion signal is decremented.
    unsafe fn hsa_amd_memory_async_copy(
        dst: *mut c_void,
        dst_agent: hsa_agent_t,
        src: *const c_void,
        src_agent: hsa_agent_t,
        size: usize,
        num_dep_signals: u32,
        dep_signals: *const hsa_signal_t,
        completion_signal: hsa_signal_t,
    ) -> hsa_status_t {
        on_node(|node| {
            node.sim.hsa_external(
                "hsa_amd_memory_async_copy",
                || format!("{dst:?}, {src:?}, {size:#x}, {num_dep_signals}"),
                || {
                    if dst.is_null() || src.is_null() {
                        return Err(INVALID);
                    }
                    if (num_dep_signals == 0) != dep_signals.is_null()
                        || num_dep_signals > MAX_DEP_SIGNALS
                    {
                        return Err(INVALID);
                    }
                    for agent in [dst_agent, src_agent] {
                        if !node.sim.is_agent(agent.handle) {
                            return Err(HsaCode::INVALID_AGENT);
                        }
                    }
                    // SAFETY: the caller's contract (above).
                    let deps = unsafe { ptr::read_array(dep_signals, num_dep_signals as usize) }
                        .ok_or(INVALID)?;
                    let live = |s: &hsa_signal_t| signal::registry().get(s.handle).is_some();
                    if !deps.iter().all(live) || !live(&completion_signal) {
                        return Err(HsaCode::INVALID_SIGNAL);
                    }
                    if size == 0 {
                        return Ok(());
                    }
                    let size = u64::try_from(size).map_err(|_| INVALID)?;
                    node.sim.check_copy(dst as u64, src as u64, size)?;
                    submit(Pending {
                        dst: dst as u64,
                        src: src as u64,
                        size,
                        deps: deps.iter().map(|s| s.handle).collect(),
                        completion: completion_signal.handle,
                    })
                },
            )
        })
    }
}
