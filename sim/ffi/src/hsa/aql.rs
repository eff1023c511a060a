//! The packet processor of each queue (a thread per queue, started by
//! `hsa_queue_create`, stopped and joined by `hsa_queue_destroy`): it
//! takes the packet at `read_dispatch_id` once its header's type is no
//! longer `HSA_PACKET_TYPE_INVALID` (producers write the header last, with
//! release), runs it to completion, completes its completion signal (when
//! not the zero handle: decremented by 1), writes `HSA_PACKET_TYPE_INVALID`
//! back into the header and advances `read_dispatch_id`. Packets complete
//! one at a time in queue order, so a packet's barrier bit (wait for every
//! earlier packet to complete) always holds; the acquire and release fence
//! scopes are the process's own coherence.
//!
//! - `HSA_PACKET_TYPE_KERNEL_DISPATCH`: executed by `amdgpu_sim`'s
//!   `aql_dispatch` (the kernel object a kernel the node loaded on the
//!   queue's agent, kernargs in the node's memory or the client's host
//!   memory HIP knows), or not executed under `AMDGPU_SIM_KERNELS=skip`. On
//!   a queue with profiling on (`hsa_amd_profiling_set_profiler_enabled`)
//!   its start and end GPU clock go into the completion signal's
//!   `start_ts`/`end_ts` first.
//! - `HSA_PACKET_TYPE_BARRIER_AND` / `_OR`: wait until every / any non-zero
//!   dependent signal reads 0 (handles that are not live signals read 0,
//!   as `hsa_amd_signal_wait_all` treats them; an OR with no dependent
//!   signal completes at once).
//! - `HSA_PACKET_TYPE_VENDOR_SPECIFIC`: AMD's packets, by their format
//!   (`super::vendor`): `BARRIER_VALUE` waits for a signal's value,
//!   `PM4_IB` runs an indirect buffer of PM4 (memory writes, copies, waits,
//!   GPU timestamps, compute registers and dispatches from them: the
//!   queue's register file lives here, and an AQL kernel dispatch leaves
//!   it unknown, as the command processor's firmware reprograms it).
//! - A completion signal is a live signal of this library or, as the
//!   command processor sees every handle, the `amd_signal_t` in memory it
//!   names (IREE's profiling signals).
//! - Any other type (agent dispatch) and malformed packets stop the queue:
//!   its error callback (when given) receives
//!   `HSA_STATUS_ERROR_INVALID_PACKET_FORMAT`; a kernel that faults or whose
//!   kernel object is no loaded kernel, or memory a packet names that is
//!   nowhere, `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION`; a kernel the
//!   interpreter cannot run `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION` — each
//!   said on stderr. The packet stays unprocessed, as on a queue ROCr has
//!   made inactive after an error.

use std::sync::atomic::Ordering;

use amdgpu_sim::aql::AqlDispatch;
use amdgpu_sim::pm4::ComputeRegisters;
use amdgpu_sys::hsa_values::{
    PACKET_HEADER_WIDTH_TYPE, PACKET_TYPE_BARRIER_AND, PACKET_TYPE_BARRIER_OR, PACKET_TYPE_INVALID,
    PACKET_TYPE_KERNEL_DISPATCH, PACKET_TYPE_VENDOR_SPECIFIC,
};

use super::packet::{dispatch_status, u32_at, u64_at};
use super::vendor::{self, Outcome};
use crate::abi::*;
use crate::core::clock;
use crate::core::host_memory::KnownHostMemory;
use crate::core::queues::{Queue, Slot};
use crate::core::runtime::Runtime;
use crate::core::timeline::{Arg, Track, WorkSpan};

/// The packet's type (the header's low `HSA_PACKET_HEADER_WIDTH_TYPE` bits).
fn packet_type(header: u16) -> u16 {
    header & ((1 << PACKET_HEADER_WIDTH_TYPE) - 1)
}

/// `hsa_kernel_dispatch_packet_t` (`hsa.h`): setup at 2, work-group sizes at
/// 4/6/8, grid sizes at 12/16/20, segment sizes at 24/28, kernel object at
/// 32, kernarg address at 40.
fn dispatch_packet(slot: &Slot) -> AqlDispatch {
    let halves = |offset: usize| {
        let word = u32_at(slot, offset);
        [word as u16, (word >> 16) as u16]
    };
    let [x, y] = halves(4);
    let [z, _] = halves(8);
    AqlDispatch {
        setup: slot.setup.load(Ordering::Relaxed),
        workgroup_size: [x, y, z],
        grid_size: [u32_at(slot, 12), u32_at(slot, 16), u32_at(slot, 20)],
        private_segment_size: u32_at(slot, 24),
        group_segment_size: u32_at(slot, 28),
        kernel_object: u64_at(slot, 32),
        kernarg_address: u64_at(slot, 40),
        packet_address: std::ptr::from_ref(slot) as u64,
    }
}

/// The completion signal, at byte 56 of every packet type.
const COMPLETION_SIGNAL: usize = 56;
/// A barrier packet's five dependent signals, from byte 8.
const DEP_SIGNALS: usize = 8;

/// Waits until the dependent signals of a barrier packet allow it to
/// complete; `false` when the queue was destroyed meanwhile.
fn barrier(rt: &Runtime, queue: &Queue, slot: &Slot, any: bool) -> bool {
    let deps: Vec<u64> = (0..5)
        .map(|i| u64_at(slot, DEP_SIGNALS + 8 * i))
        .filter(|&h| h != 0)
        .collect();
    if any && deps.is_empty() {
        return true;
    }
    let zero = |h: &u64| {
        rt.signals
            .get(*h)
            .is_none_or(|s| s.load(Ordering::Acquire) == 0)
    };
    rt.signals
        .wait_until(None, || {
            if queue.stopped() {
                return Some(false);
            }
            let done = if any {
                deps.iter().any(zero)
            } else {
                deps.iter().all(zero)
            };
            done.then_some(true)
        })
        .unwrap_or(false)
}

/// Tells the client the queue stopped on an error at packet `packet`.
fn fail(queue: &Queue, packet: u64, status: hsa_status_t, what: &str) {
    eprintln!(
        "amdgpu-sim-ffi: queue {} stopped at packet {packet}: {what}",
        queue.amd.hsa_queue.id
    );
    if let Some(callback) = queue.callback {
        callback(status, queue.client_pointer(), queue.data as *mut _);
    }
}

/// A dispatch packet's slice on its queue's track of the timeline, named
/// by its kernel once it ran ([`name_dispatch`]).
fn dispatch_slice<'a>(
    rt: &'a Runtime,
    queue: &Queue,
    packet: &AqlDispatch,
    index: u64,
) -> WorkSpan<'a> {
    WorkSpan::begin(
        rt.timeline,
        Track::Queue(queue.address()),
        "queue",
        || "dispatch".into(),
        || {
            vec![
                ("packet", Arg::Number(index)),
                ("grid_size", Arg::Dims(packet.grid_size)),
                (
                    "workgroup_size",
                    Arg::Dims(packet.workgroup_size.map(u32::from)),
                ),
            ]
        },
    )
}

/// Runs one queue's packets until it is destroyed or a packet fails.
pub(crate) fn process(rt: &Runtime, queue: &Queue) {
    let mut registers = ComputeRegisters::default();
    loop {
        let read = queue.amd.read_dispatch_id.load(Ordering::Acquire);
        let index = usize::try_from(read & queue.mask()).unwrap_or(0);
        let Some(slot) = queue.ring.get(index) else {
            return;
        };
        let header = rt.signals.wait_until(None, || {
            if queue.stopped() {
                return Some(None);
            }
            let header = slot.header.load(Ordering::Acquire);
            (packet_type(header) != PACKET_TYPE_INVALID).then_some(Some(header))
        });
        let Some(Some(header)) = header else { return };
        // A profiled dispatch's start and end GPU timestamps.
        let mut times = None;
        match packet_type(header) {
            PACKET_TYPE_KERNEL_DISPATCH => {
                let packet = dispatch_packet(slot);
                let _slice = dispatch_slice(rt, queue, &packet, read);
                let start = clock::gpu_clock(queue.gpu_clock_hz);
                let result = rt.sim.aql_dispatch(
                    queue.agent,
                    &packet,
                    &mut KnownHostMemory(&rt.host_memory),
                );
                // The command processor reprograms the compute registers
                // for an AQL dispatch.
                registers.forget();
                match result {
                    Ok(ran) => {
                        if let Some(timeline) = rt.timeline {
                            timeline.name_dispatch(ran);
                        }
                    }
                    Err(error) => {
                        fail(queue, read, dispatch_status(rt, &error), &error.to_string());
                        return;
                    }
                }
                if queue.profiling() {
                    times = Some((start, clock::gpu_clock(queue.gpu_clock_hz)));
                }
            }
            kind @ (PACKET_TYPE_BARRIER_AND | PACKET_TYPE_BARRIER_OR) => {
                if !barrier(rt, queue, slot, kind == PACKET_TYPE_BARRIER_OR) {
                    return;
                }
            }
            PACKET_TYPE_VENDOR_SPECIFIC => match vendor::run(rt, queue, slot, &mut registers) {
                Outcome::Complete => {}
                Outcome::Stopped => return,
                Outcome::Failed(status, what) => {
                    fail(queue, read, status, &what);
                    return;
                }
            },
            other => {
                fail(
                    queue,
                    read,
                    HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                    &format!("packet type {other} is not processed"),
                );
                return;
            }
        }
        // The packet is consumed before its completion signal changes, as
        // a packet processor fetches packets ahead of their completion: a
        // client that sees the signal finds the slot free and the read
        // index past it.
        let completion = u64_at(slot, COMPLETION_SIGNAL);
        slot.header.store(PACKET_TYPE_INVALID, Ordering::Release);
        queue
            .amd
            .read_dispatch_id
            .store(read.wrapping_add(1), Ordering::Release);
        if completion != 0
            && let Err(outcome) = vendor::complete(rt, completion, times)
        {
            if let Outcome::Failed(status, what) = outcome {
                fail(queue, read, status, &what);
            }
            return;
        }
        rt.signals.wake();
    }
}
