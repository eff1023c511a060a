//! HSA queues with ROCr's ABI: the `hsa_queue_t*` `hsa_queue_create`
//! returns is the first member of an `amd_queue_t` (`amd_hsa_queue.h`,
//! 64-byte aligned) in host memory, whose `write_dispatch_id` and
//! `read_dispatch_id` a client advances and reads with its own atomics, as
//! IREE's AMDGPU driver does; `base_address` is a ring of `size` 64-byte
//! AQL packet slots in host memory, each header `HSA_PACKET_TYPE_INVALID`
//! until a producer writes it (as ROCr leaves them); `doorbell_signal` is an
//! `amd_signal_t` of kind `AMD_SIGNAL_KIND_DOORBELL` whose
//! `hardware_doorbell_ptr` is the queue's doorbell word, rung by
//! `hsa_signal_store_*` on that signal or by a write through the pointer.
//!
//! - `hsa_queue_create` checks what ROCr checks, in its order: a NULL
//!   output, a size that is 0 or not a power of two, a type past
//!   `HSA_QUEUE_TYPE_COOPERATIVE` are `INVALID_ARGUMENT`; then an agent
//!   that is none `INVALID_AGENT`; a CPU agent `HSA_STATUS_ERROR` (no packet
//!   processor); cooperative queues (ROCr's GWS queue, not modelled)
//!   `INVALID_QUEUE_CREATION`; more packets than
//!   `HSA_AGENT_INFO_QUEUE_MAX_SIZE` or a private segment past 262128
//!   bytes `OUT_OF_RESOURCES`; fewer than `QUEUE_MIN_SIZE`
//!   `INVALID_ARGUMENT`.
//! - Creation, `hsa_queue_destroy` and `hsa_amd_queue_get_info` are
//!   counted HSA calls (faulted by `AMDGPU_SIM_FAULTS`, refused before
//!   `hsa_init`); live queues are `hsa_queues` in the report.
//! - The index operations (`hsa_queue_{load,store,add,cas}_write_index_*`,
//!   `hsa_queue_{load,store}_read_index_*`) are the atomic alone, as in
//!   ROCr, where they are inline: not counted, never faulted. A pointer that
//!   is not a live queue of this library (ROCr's behaviour is undefined) is
//!   ignored — loads read 0, nothing is stored — said once on stderr.

use std::alloc::Layout;
use std::ffi::{c_int, c_void};
use std::mem::offset_of;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use amdgpu_sim::HsaCode;
use amdgpu_sys::hsa_types::hsa_queue_t;
use amdgpu_sys::hsa_values::{
    AMD_QUEUE_INFO_AGENT, AMD_QUEUE_INFO_DOORBELL_ID, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
    AMD_QUEUE_PROPERTIES_IS_PTR64, PACKET_TYPE_INVALID, QUEUE_FEATURE_KERNEL_DISPATCH,
    QUEUE_TYPE_COOPERATIVE, QUEUE_TYPE_SINGLE,
};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{INVALID, put, status};
use crate::core::queues::{AmdQueue, Queue, QueueCallback, Registry, Slot, shut};
use crate::core::runtime::{Runtime, runtime};

/// The largest private segment ROCr's `hsa_queue_create` accepts (bytes
/// per work-item).
pub const MAX_PRIVATE_SEGMENT_SIZE: u32 = 262_128;
/// Runs `body` on the queue at `queue`; `None` (said once) for a pointer
/// that is not one.
fn with<T>(
    queues: &Registry,
    op: &str,
    queue: *const hsa_queue_t,
    body: impl FnOnce(&Queue) -> T,
) -> Option<T> {
    match queues.get(queue as u64) {
        Some(q) => Some(body(&q)),
        None => {
            queues.not_a_queue(op, queue as u64);
            None
        }
    }
}

/// A ring of `slots` packets whose headers say INVALID, as ROCr hands one
/// out. Made from zeroed memory, so that IREE's rings of 64 K packets a
/// queue cost little to create, in unoptimized builds too.
fn invalid_ring(slots: usize) -> Result<Box<[Slot]>, HsaCode> {
    let layout = Layout::array::<Slot>(slots).map_err(|_| HsaCode::OUT_OF_RESOURCES)?;
    if layout.size() == 0 {
        return Err(INVALID);
    }
    // SAFETY: the layout's size is not zero (checked above).
    let memory = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Slot>();
    if memory.is_null() {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    // SAFETY: `memory` holds `slots` zeroed `Slot`s, allocated by the
    // global allocator with `Slot`'s array layout, as a boxed slice is; a
    // `Slot` is atomics alone, for which all-zero bytes are a valid value.
    let ring = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(memory, slots)) };
    for slot in &ring {
        slot.header.store(PACKET_TYPE_INVALID, Ordering::Relaxed);
    }
    Ok(ring)
}

/// Builds a queue after ROCr's checks; `Err` is the status returned.
fn build(
    rt: &'static Runtime,
    agent: hsa_agent_t,
    size: u32,
    queue_type: u32,
    callback: QueueCallback,
    data: *mut c_void,
    private_segment_size: u32,
) -> Result<Queue, HsaCode> {
    if size == 0 || !size.is_power_of_two() || queue_type > QUEUE_TYPE_COOPERATIVE {
        return Err(INVALID);
    }
    let info = rt
        .sim
        .queue_agent(agent.handle)
        .ok_or(HsaCode::INVALID_AGENT)?;
    if info.queue_type == QUEUE_TYPE_SINGLE && queue_type != QUEUE_TYPE_SINGLE {
        return Err(HsaCode::INVALID_QUEUE_CREATION);
    }
    if !info.gpu {
        return Err(HsaCode::ERROR);
    }
    if queue_type == QUEUE_TYPE_COOPERATIVE {
        return Err(HsaCode::INVALID_QUEUE_CREATION);
    }
    if size > info.max_size {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    if size < info.min_size {
        return Err(INVALID);
    }
    if private_segment_size != u32::MAX && private_segment_size > MAX_PRIVATE_SEGMENT_SIZE {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    let slots = usize::try_from(size).map_err(|_| INVALID)?;
    let ring = invalid_ring(slots)?;
    let mut amd = Box::new(AmdQueue {
        hsa_queue: hsa_queue_t {
            type_: queue_type,
            features: QUEUE_FEATURE_KERNEL_DISPATCH,
            base_address: ring.as_ptr() as u64,
            doorbell_signal: hsa_signal_t { handle: 0 },
            size,
            reserved1: 0,
            id: rt.queues.next_id(),
        },
        caps: 0,
        reserved1: [0; 3],
        write_dispatch_id: AtomicU64::new(0),
        group_segment_aperture_base_hi: 0,
        private_segment_aperture_base_hi: 0,
        max_cu_id: info.compute_units.saturating_sub(1),
        max_wave_id: info.max_waves_per_cu.saturating_sub(1),
        max_legacy_doorbell_dispatch_id_plus_1: AtomicU64::new(0),
        legacy_doorbell_lock: AtomicU32::new(0),
        reserved2: [0; 9],
        read_dispatch_id: AtomicU64::new(0),
        read_dispatch_id_field_base_byte_offset: offset_of!(AmdQueue, read_dispatch_id) as u32,
        compute_tmpring_size: 0,
        scratch_resource_descriptor: [0; 4],
        scratch_backing_memory_location: 0,
        reserved3: [0; 2],
        scratch_wave64_lane_byte_size: 0,
        queue_properties: AtomicU32::new(AMD_QUEUE_PROPERTIES_IS_PTR64),
        reserved4: [0; 2],
        queue_inactive_signal: hsa_signal_t { handle: 0 },
        reserved5: [0; 14],
    });
    let address = std::ptr::from_ref::<AmdQueue>(&amd) as u64;
    // The command processor reads the ring and kernels may write it (IREE's
    // indirect-dispatch patch kernel fills in the next packet's grid).
    let mut host = rt.host_memory();
    host.add_runtime(ring.as_ptr() as usize, std::mem::size_of_val(&*ring));
    host.add_runtime(address as usize, std::mem::size_of::<AmdQueue>());
    drop(host);
    let doorbell_word = Arc::new(AtomicU64::new(0));
    let doorbell = rt
        .signals
        .create_doorbell(Arc::clone(&doorbell_word), address);
    amd.hsa_queue.doorbell_signal = hsa_signal_t { handle: doorbell };
    Ok(Queue {
        amd,
        ring,
        doorbell,
        doorbell_word,
        agent: agent.handle,
        pm4: info.pm4,
        gpu_clock_hz: info.gpu_clock_hz,
        callback,
        data: data as usize,
        stop: AtomicBool::new(false),
        worker: Mutex::new(None),
        host: &rt.host_memory,
        signals: &rt.signals,
    })
}

c_exports! {
    /// `hsa_queue_create`: an AQL queue on a GPU agent (ROCr's checks:
    /// module docs). `group_segment_size` is not read (ROCr ignores it too).
    ///
    /// # Safety
    /// `queue` is NULL or points at a writable `hsa_queue_t*`.
    unsafe fn hsa_queue_create(
        agent: hsa_agent_t,
        size: u32,
        queue_type: u32,
        callback: QueueCallback,
        data: *mut c_void,
        private_segment_size: u32,
        group_segment_size: u32,
        queue: *mut *mut hsa_queue_t,
    ) -> hsa_status_t {
        let _ = group_segment_size;
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(rt.sim.hsa_external(
            "hsa_queue_create",
            || format!("{:#x}, {size}, {queue_type}", agent.handle),
            || {
                if queue.is_null() {
                    return Err(INVALID);
                }
                let built = Arc::new(build(
                    rt,
                    agent,
                    size,
                    queue_type,
                    callback,
                    data,
                    private_segment_size,
                )?);
                let address = built.address();
                let worker = Arc::clone(&built);
                let spawned = std::thread::Builder::new()
                    .name(format!("aql-queue-{}", built.amd.hsa_queue.id))
                    .spawn(move || super::aql::process(rt, &worker))
                    .map_err(|_| HsaCode::OUT_OF_RESOURCES)?;
                *built.worker.lock().unwrap_or_else(|p| p.into_inner()) = Some(spawned);
                rt.queues.insert(Arc::clone(&built));
                // SAFETY: the caller's contract (above); checked non-NULL.
                if let Err(code) = unsafe { put(queue.cast(), address as usize) } {
                    shut(&rt.queues.remove(address).unwrap_or(built));
                    return Err(code);
                }
                Ok(())
            },
        ))
    }

    /// `hsa_queue_destroy`: NULL is `INVALID_ARGUMENT`, a pointer that is
    /// not a live queue `INVALID_QUEUE`. The ring, the `amd_queue_t` and the
    /// doorbell signal go with it.
    fn hsa_queue_destroy(queue: *mut hsa_queue_t) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(rt.sim.hsa_external(
            "hsa_queue_destroy",
            || format!("{:#x}", queue as u64),
            || {
                if queue.is_null() {
                    return Err(INVALID);
                }
                let removed = rt.queues.remove(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
                shut(&removed);
                Ok(())
            },
        ))
    }

    /// `hsa_amd_queue_get_info`: `HSA_AMD_QUEUE_INFO_AGENT` (the agent's
    /// handle) and `HSA_AMD_QUEUE_INFO_DOORBELL_ID` (the doorbell's
    /// address, ROCr's answer); any other attribute or a NULL `value` is
    /// `INVALID_ARGUMENT`, a pointer that is not a live queue `INVALID_QUEUE`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_amd_queue_get_info(
        queue: *mut hsa_queue_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(rt.sim.hsa_external(
            "hsa_amd_queue_get_info",
            || format!("{:#x}, {attribute}", queue as u64),
            || {
                let q = rt.queues.get(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
                let answer = match attribute {
                    AMD_QUEUE_INFO_AGENT => q.agent,
                    AMD_QUEUE_INFO_DOORBELL_ID => Arc::as_ptr(&q.doorbell_word) as u64,
                    _ => return Err(INVALID),
                };
                // SAFETY: the caller's contract (above); both attributes
                // are 8 bytes (`hsa_agent_t`, `uint64_t`).
                unsafe { put(value, answer) }
            },
        ))
    }
}

c_exports! {
    /// `hsa_amd_profiling_set_profiler_enabled`: from now on the packet
    /// processor writes each kernel dispatch's start and end GPU clock
    /// (`amd_signal_t.start_ts`/`end_ts`) into its completion signal
    /// (`enable` non-zero), or stops; ROCr's `AqlQueue::SetProfiling`
    /// flips `AMD_QUEUE_PROPERTIES_ENABLE_PROFILING` the same way. A
    /// pointer that is not a live queue (NULL included) is
    /// `INVALID_QUEUE`, as ROCr's `IS_VALID` answers.
    fn hsa_amd_profiling_set_profiler_enabled(queue: *mut hsa_queue_t, enable: c_int) -> hsa_status_t {
        let Some(rt) = runtime() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(rt.sim.hsa_external(
            "hsa_amd_profiling_set_profiler_enabled",
            || format!("{:#x}, {enable}", queue as u64),
            || {
                let q = rt.queues.get(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
                if enable != 0 {
                    q.amd.queue_properties.fetch_or(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, Ordering::AcqRel);
                } else {
                    q.amd.queue_properties.fetch_and(!AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, Ordering::AcqRel);
                }
                Ok(())
            },
        ))
    }
}

/// Exports one index operation per (name, memory order).
macro_rules! index_ops {
    (load $field:ident: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the index (0 for a pointer that is not a queue).")]
        fn $name(queue: *const hsa_queue_t) -> u64 {
            let Some(rt) = runtime() else { return 0 };
            with(&rt.queues, stringify!($name), queue, |q| q.amd.$field.load(Ordering::$order)).unwrap_or(0)
        }
    )*} };
    (store $field:ident: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        fn $name(queue: *const hsa_queue_t, value: u64) {
            let Some(rt) = runtime() else { return };
            with(&rt.queues, stringify!($name), queue, |q| q.amd.$field.store(value, Ordering::$order));
            rt.signals.wake();
        }
    )*} };
    (add: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the write index before (0 for a pointer that is not a queue).")]
        fn $name(queue: *const hsa_queue_t, value: u64) -> u64 {
            let Some(rt) = runtime() else { return 0 };
            with(&rt.queues, stringify!($name), queue, |q| q.amd.write_dispatch_id.fetch_add(value, Ordering::$order))
                .unwrap_or(0)
        }
    )*} };
    (cas: $($name:ident => $order:ident, $failure:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the write index observed (0 for a pointer that is not a queue).")]
        fn $name(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64 {
            let Some(rt) = runtime() else { return 0 };
            with(&rt.queues, stringify!($name), queue, |q| {
                match q.amd.write_dispatch_id.compare_exchange(
                    expected, value, Ordering::$order, Ordering::$failure,
                ) {
                    Ok(old) | Err(old) => old,
                }
            })
            .unwrap_or(0)
        }
    )*} };
}

index_ops! { load read_dispatch_id:
    hsa_queue_load_read_index_relaxed => Relaxed;
    hsa_queue_load_read_index_scacquire => Acquire;
}
index_ops! { load write_dispatch_id:
    hsa_queue_load_write_index_relaxed => Relaxed;
    hsa_queue_load_write_index_scacquire => Acquire;
}
index_ops! { store read_dispatch_id:
    hsa_queue_store_read_index_relaxed => Relaxed;
    hsa_queue_store_read_index_screlease => Release;
}
index_ops! { store write_dispatch_id:
    hsa_queue_store_write_index_relaxed => Relaxed;
    hsa_queue_store_write_index_screlease => Release;
}
index_ops! { add:
    hsa_queue_add_write_index_relaxed => Relaxed;
    hsa_queue_add_write_index_scacquire => Acquire;
    hsa_queue_add_write_index_screlease => Release;
    hsa_queue_add_write_index_scacq_screl => AcqRel;
}
index_ops! { cas:
    hsa_queue_cas_write_index_relaxed => Relaxed, Relaxed;
    hsa_queue_cas_write_index_scacquire => Acquire, Acquire;
    hsa_queue_cas_write_index_screlease => Release, Relaxed;
    hsa_queue_cas_write_index_scacq_screl => AcqRel, Acquire;
}
