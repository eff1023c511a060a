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
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::mem::offset_of;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::thread::JoinHandle;

use amdgpu_sim::HsaCode;
use amdgpu_sys::hsa_types::{amd_queue_t, hsa_queue_t};
use amdgpu_sys::hsa_values::{
    AMD_QUEUE_INFO_AGENT, AMD_QUEUE_INFO_DOORBELL_ID, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
    AMD_QUEUE_PROPERTIES_IS_PTR64, PACKET_TYPE_INVALID, QUEUE_FEATURE_KERNEL_DISPATCH,
    QUEUE_TYPE_COOPERATIVE, QUEUE_TYPE_SINGLE,
};

use crate::abi::*;
use crate::host_memory::host_memory;
use crate::hsa::{Call, INVALID, put};
use crate::node::node;
use crate::ptr::c_exports;
use crate::signal;

/// `void (*callback)(hsa_status_t, hsa_queue_t*, void*)`: the queue's
/// error callback.
pub(crate) type QueueCallback = Option<extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>;

/// The largest private segment ROCr's `hsa_queue_create` accepts (bytes
/// per work-item).
pub const MAX_PRIVATE_SEGMENT_SIZE: u32 = 262_128;

/// One 64-byte AQL packet slot: the header (type, barrier bit, fence
/// scopes) and the setup word, then the body, each read and written as
/// atomics (the client writes the body, then the header with release).
#[repr(C, align(64))]
pub(crate) struct Slot {
    pub(crate) header: AtomicU16,
    pub(crate) setup: AtomicU16,
    pub(crate) body: [AtomicU32; 15],
}

const _: () = assert!(size_of::<Slot>() == 64 && align_of::<Slot>() == 64);

/// `amd_queue_t`'s layout with the fields other threads write as atomics
/// (the same bytes as the header's `volatile uint64_t`/`uint32_t`). The
/// fields this library does not read after creation are there for the
/// client's sake.
#[repr(C, align(64))]
#[allow(dead_code)]
pub(crate) struct AmdQueue {
    pub(crate) hsa_queue: hsa_queue_t,
    caps: u32,
    reserved1: [u32; 3],
    pub(crate) write_dispatch_id: AtomicU64,
    group_segment_aperture_base_hi: u32,
    private_segment_aperture_base_hi: u32,
    max_cu_id: u32,
    max_wave_id: u32,
    max_legacy_doorbell_dispatch_id_plus_1: AtomicU64,
    legacy_doorbell_lock: AtomicU32,
    reserved2: [u32; 9],
    pub(crate) read_dispatch_id: AtomicU64,
    read_dispatch_id_field_base_byte_offset: u32,
    compute_tmpring_size: u32,
    scratch_resource_descriptor: [u32; 4],
    scratch_backing_memory_location: u64,
    reserved3: [u32; 2],
    scratch_wave64_lane_byte_size: u32,
    pub(crate) queue_properties: AtomicU32,
    reserved4: [u32; 2],
    queue_inactive_signal: hsa_signal_t,
    reserved5: [u32; 14],
}

const _: () = {
    type A = amd_queue_t;
    assert!(size_of::<AmdQueue>() == size_of::<A>());
    assert!(align_of::<AmdQueue>() == align_of::<A>());
    assert!(offset_of!(AmdQueue, hsa_queue) == offset_of!(A, hsa_queue));
    assert!(offset_of!(AmdQueue, caps) == offset_of!(A, caps));
    assert!(offset_of!(AmdQueue, write_dispatch_id) == offset_of!(A, write_dispatch_id));
    assert!(offset_of!(AmdQueue, max_cu_id) == offset_of!(A, max_cu_id));
    assert!(offset_of!(AmdQueue, max_wave_id) == offset_of!(A, max_wave_id));
    assert!(
        offset_of!(AmdQueue, max_legacy_doorbell_dispatch_id_plus_1)
            == offset_of!(A, max_legacy_doorbell_dispatch_id_plus_1)
    );
    assert!(offset_of!(AmdQueue, legacy_doorbell_lock) == offset_of!(A, legacy_doorbell_lock));
    assert!(offset_of!(AmdQueue, read_dispatch_id) == offset_of!(A, read_dispatch_id));
    assert!(
        offset_of!(AmdQueue, scratch_backing_memory_location)
            == offset_of!(A, scratch_backing_memory_location)
    );
    assert!(offset_of!(AmdQueue, queue_properties) == offset_of!(A, queue_properties));
    assert!(offset_of!(AmdQueue, queue_inactive_signal) == offset_of!(A, queue_inactive_signal));
    assert!(offset_of!(AmdQueue, reserved5) == offset_of!(A, reserved5));
};

/// One live queue: its `amd_queue_t`, ring and doorbell, owned here and
/// released together when the queue is destroyed.
pub(crate) struct Queue {
    pub(crate) amd: Box<AmdQueue>,
    /// The ring the client writes through `base_address`.
    pub(crate) ring: Box<[Slot]>,
    pub(crate) doorbell: u64,
    pub(crate) doorbell_word: Arc<AtomicU64>,
    pub(crate) agent: u64,
    /// The agent's PM4 forms (`None`: it takes no PM4-IB packets).
    pub(crate) pm4: Option<amdgpu_sim::pm4::Generation>,
    /// The agent's clock counter rate (`crate::clock`).
    pub(crate) gpu_clock_hz: u64,
    /// The client's error callback and its data pointer (as an address).
    pub(crate) callback: QueueCallback,
    pub(crate) data: usize,
    /// Set when the queue is destroyed: the packet processor stops.
    stop: AtomicBool,
    /// The packet processor's thread, joined when the queue is destroyed.
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl Queue {
    /// The `hsa_queue_t*` clients hold: the address of the `amd_queue_t`.
    fn address(&self) -> u64 {
        std::ptr::from_ref::<AmdQueue>(&self.amd) as u64
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        let mut host = host_memory();
        host.forget_runtime(self.ring.as_ptr() as usize);
        host.forget_runtime(self.address() as usize);
        drop(host);
        signal::registry().destroy_doorbell(self.doorbell);
    }
}

/// The live queues by `hsa_queue_t*` address.
pub(crate) struct Registry {
    live: Mutex<HashMap<u64, Arc<Queue>>>,
}

pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry {
        live: Mutex::new(HashMap::new()),
    })
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Registry {
    /// The live queue at `address`, if it is one.
    pub(crate) fn get(&self, address: u64) -> Option<Arc<Queue>> {
        lock(&self.live).get(&address).cloned()
    }

    /// Takes the queue at `address` out of the registry.
    fn remove(&self, address: u64) -> Option<Arc<Queue>> {
        lock(&self.live).remove(&address)
    }

    /// Live queues.
    pub(crate) fn live(&self) -> usize {
        lock(&self.live).len()
    }
}

/// Stops a queue's packet processor and waits for it (unless called from
/// it, by its own error callback); the queue is released with the last
/// reference.
fn shut(queue: &Queue) {
    queue.stop.store(true, Ordering::Release);
    signal::registry().wake();
    let worker = lock(&queue.worker).take();
    if let Some(worker) = worker
        && worker.thread().id() != std::thread::current().id()
    {
        let _ = worker.join();
    }
}

impl Queue {
    /// Whether the queue was destroyed.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The queue's index mask (`size` - 1).
    pub(crate) fn mask(&self) -> u64 {
        u64::from(self.amd.hsa_queue.size) - 1
    }

    /// The queue as its client holds it.
    pub(crate) fn client_pointer(&self) -> *mut hsa_queue_t {
        self.address() as *mut hsa_queue_t
    }

    /// Whether dispatches record their start and end times in their
    /// completion signals (`AMD_QUEUE_PROPERTIES_ENABLE_PROFILING`).
    pub(crate) fn profiling(&self) -> bool {
        self.amd.queue_properties.load(Ordering::Acquire) & AMD_QUEUE_PROPERTIES_ENABLE_PROFILING
            != 0
    }
}

/// Process-unique queue ids (`hsa_queue_t.id`: unique over the lifetime of
/// the application).
fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Says once that a pointer was not a queue.
fn not_a_queue(op: &str, queue: u64) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "amdgpu-sim-ffi: {op} on {queue:#x}, which is not a live queue: ignored, read as 0 \
             (said once)"
        );
    }
}

/// Runs `body` on the queue at `queue`; `None` (said once) for a pointer
/// that is not one.
fn with<T>(op: &str, queue: *const hsa_queue_t, body: impl FnOnce(&Queue) -> T) -> Option<T> {
    match registry().get(queue as u64) {
        Some(q) => Some(body(&q)),
        None => {
            not_a_queue(op, queue as u64);
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
    agent: hsa_agent_t,
    size: u32,
    queue_type: u32,
    callback: QueueCallback,
    data: *mut c_void,
    private_segment_size: u32,
) -> Result<Queue, HsaCode> {
    let node = node().ok_or(HsaCode::NOT_INITIALIZED)?;
    if size == 0 || !size.is_power_of_two() || queue_type > QUEUE_TYPE_COOPERATIVE {
        return Err(INVALID);
    }
    let info = node
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
            id: next_id(),
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
    let mut host = host_memory();
    host.add_runtime(ring.as_ptr() as usize, std::mem::size_of_val(&*ring));
    host.add_runtime(address as usize, std::mem::size_of::<AmdQueue>());
    drop(host);
    let doorbell_word = Arc::new(AtomicU64::new(0));
    let doorbell = signal::registry().create_doorbell(Arc::clone(&doorbell_word), address);
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
    })
}

fn status(call: Call) -> hsa_status_t {
    match call {
        Ok(()) => HSA_STATUS_SUCCESS,
        Err(code) => code.0,
    }
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
        let Some(node) = node() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(node.sim.hsa_external(
            "hsa_queue_create",
            || format!("{:#x}, {size}, {queue_type}", agent.handle),
            || {
                if queue.is_null() {
                    return Err(INVALID);
                }
                let built = Arc::new(build(
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
                    .spawn(move || crate::aql::process(&worker))
                    .map_err(|_| HsaCode::OUT_OF_RESOURCES)?;
                *lock(&built.worker) = Some(spawned);
                lock(&registry().live).insert(address, Arc::clone(&built));
                // SAFETY: the caller's contract (above); checked non-NULL.
                if let Err(code) = unsafe { put(queue.cast(), address as usize) } {
                    shut(&registry().remove(address).unwrap_or(built));
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
        let Some(node) = node() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(node.sim.hsa_external(
            "hsa_queue_destroy",
            || format!("{:#x}", queue as u64),
            || {
                if queue.is_null() {
                    return Err(INVALID);
                }
                let removed = registry().remove(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
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
        let Some(node) = node() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(node.sim.hsa_external(
            "hsa_amd_queue_get_info",
            || format!("{:#x}, {attribute}", queue as u64),
            || {
                let q = registry().get(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
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
        let Some(node) = node() else { return HSA_STATUS_ERROR_NOT_INITIALIZED };
        status(node.sim.hsa_external(
            "hsa_amd_profiling_set_profiler_enabled",
            || format!("{:#x}, {enable}", queue as u64),
            || {
                let q = registry().get(queue as u64).ok_or(HsaCode::INVALID_QUEUE)?;
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
            with(stringify!($name), queue, |q| q.amd.$field.load(Ordering::$order)).unwrap_or(0)
        }
    )*} };
    (store $field:ident: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`.")]
        fn $name(queue: *const hsa_queue_t, value: u64) {
            with(stringify!($name), queue, |q| q.amd.$field.store(value, Ordering::$order));
            signal::registry().wake();
        }
    )*} };
    (add: $($name:ident => $order:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the write index before (0 for a pointer that is not a queue).")]
        fn $name(queue: *const hsa_queue_t, value: u64) -> u64 {
            with(stringify!($name), queue, |q| q.amd.write_dispatch_id.fetch_add(value, Ordering::$order))
                .unwrap_or(0)
        }
    )*} };
    (cas: $($name:ident => $order:ident, $failure:ident;)*) => { c_exports! {$(
        #[doc = concat!("`", stringify!($name), "`: the write index observed (0 for a pointer that is not a queue).")]
        fn $name(queue: *const hsa_queue_t, expected: u64, value: u64) -> u64 {
            with(stringify!($name), queue, |q| {
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
