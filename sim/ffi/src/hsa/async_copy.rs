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

use amdgpu_sim::HsaCode;

use super::memory::CallerMemory;
use crate::abi::*;
use crate::core::copies::Pending;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{INVALID, on_runtime};
use crate::core::ptr;
use crate::core::runtime::Runtime;
use crate::core::timeline::{Arg, Track, WorkSpan};

/// Most dependent signals one copy may name.
pub const MAX_DEP_SIGNALS: u32 = 1 << 12;

fn ready(rt: &Runtime, copy: &Pending) -> bool {
    copy.deps.iter().all(|&h| {
        rt.signals
            .get(h)
            .is_none_or(|s| s.load(Ordering::Acquire) == 0)
    })
}

/// The engine: runs ready copies until none is pending.
fn engine(rt: &Runtime) {
    loop {
        let next = rt.signals.wait_until(None, || {
            let mut q = rt.copies.lock();
            if q.pending.is_empty() {
                q.running = false;
                return Some(None);
            }
            let i = q.pending.iter().position(|copy| ready(rt, copy))?;
            Some(Some(q.pending.remove(i)))
        });
        let Some(Some(copy)) = next else { return };
        run(rt, &copy);
    }
}

fn run(rt: &Runtime, copy: &Pending) {
    let _slice = WorkSpan::begin(
        rt.timeline,
        Track::CopyEngine,
        "copy",
        || "async copy".into(),
        || {
            vec![
                ("bytes", Arg::Number(copy.size)),
                ("src", Arg::Text(format!("{:#x}", copy.src))),
                ("dst", Arg::Text(format!("{:#x}", copy.dst))),
            ]
        },
    );
    match rt.sim.engine_copy(
        copy.dst,
        copy.src,
        copy.size,
        &mut CallerMemory(&rt.read_back),
    ) {
        Ok(()) => {
            if let Some(s) = rt.signals.get(copy.completion) {
                s.subtract(1);
            }
            rt.signals.wake();
        }
        Err(code) => eprintln!(
            "amdgpu-sim-ffi: async copy of {} bytes from {:#x} to {:#x} failed ({code}); \
             its completion signal is not decremented",
            copy.size, copy.src, copy.dst
        ),
    }
}

fn submit(rt: &'static Runtime, copy: Pending) -> Result<(), HsaCode> {
    let start = {
        let mut q = rt.copies.lock();
        q.pending.push(copy);
        !std::mem::replace(&mut q.running, true)
    };
    if start {
        let spawned = std::thread::Builder::new()
            .name("amdgpu-sim-copy".into())
            .spawn(move || engine(rt));
        if spawned.is_err() {
            let mut q = rt.copies.lock();
            q.pending.pop();
            q.running = false;
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
    }
    rt.signals.wake();
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
        on_runtime(|rt| {
            rt.sim.hsa_external(
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
                        if !rt.sim.is_agent(agent.handle) {
                            return Err(HsaCode::INVALID_AGENT);
                        }
                    }
                    // SAFETY: the caller's contract (above).
                    let deps = unsafe { ptr::read_array(dep_signals, num_dep_signals as usize) }
                        .ok_or(INVALID)?;
                    let live = |s: &hsa_signal_t| rt.signals.get(s.handle).is_some();
                    if !deps.iter().all(live) || !live(&completion_signal) {
                        return Err(HsaCode::INVALID_SIGNAL);
                    }
                    if size == 0 {
                        return Ok(());
                    }
                    let size = u64::try_from(size).map_err(|_| INVALID)?;
                    rt.sim.check_copy(dst as u64, src as u64, size)?;
                    submit(rt, Pending {
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
