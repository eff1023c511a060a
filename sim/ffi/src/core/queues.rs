//! HSA queues as state: ROCr's `amd_queue_t` (`amd_hsa_queue.h`, 64-byte
//! aligned) in host memory, its ring of AQL packet slots and doorbell,
//! and the live queues by the `hsa_queue_t*` clients hold. The exports
//! and the packet processor are `crate::hsa`'s (`queue`, `aql`).

use std::collections::HashMap;
use std::ffi::c_void;
use std::mem::offset_of;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use amdgpu_sys::hsa_types::{amd_queue_t, hsa_queue_t};
use amdgpu_sys::hsa_values::AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;

use super::host_memory::{self, HostMemory};
use super::signals;
use crate::abi::*;

/// `void (*callback)(hsa_status_t, hsa_queue_t*, void*)`: the queue's
/// error callback.
pub(crate) type QueueCallback = Option<extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>;

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
    pub(crate) caps: u32,
    pub(crate) reserved1: [u32; 3],
    pub(crate) write_dispatch_id: AtomicU64,
    pub(crate) group_segment_aperture_base_hi: u32,
    pub(crate) private_segment_aperture_base_hi: u32,
    pub(crate) max_cu_id: u32,
    pub(crate) max_wave_id: u32,
    pub(crate) max_legacy_doorbell_dispatch_id_plus_1: AtomicU64,
    pub(crate) legacy_doorbell_lock: AtomicU32,
    pub(crate) reserved2: [u32; 9],
    pub(crate) read_dispatch_id: AtomicU64,
    pub(crate) read_dispatch_id_field_base_byte_offset: u32,
    pub(crate) compute_tmpring_size: u32,
    pub(crate) scratch_resource_descriptor: [u32; 4],
    pub(crate) scratch_backing_memory_location: u64,
    pub(crate) reserved3: [u32; 2],
    pub(crate) scratch_wave64_lane_byte_size: u32,
    pub(crate) queue_properties: AtomicU32,
    pub(crate) reserved4: [u32; 2],
    pub(crate) queue_inactive_signal: hsa_signal_t,
    pub(crate) reserved5: [u32; 14],
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
    /// The agent's clock counter rate (`super::clock`).
    pub(crate) gpu_clock_hz: u64,
    /// The client's error callback and its data pointer (as an address).
    pub(crate) callback: QueueCallback,
    pub(crate) data: usize,
    /// Set when the queue is destroyed: the packet processor stops.
    pub(crate) stop: AtomicBool,
    /// The packet processor's thread, joined when the queue is destroyed.
    pub(crate) worker: Mutex<Option<JoinHandle<()>>>,
    /// Where the queue's ring and `amd_queue_t` are known as the runtime's
    /// host memory, until the queue is released.
    pub(crate) host: &'static Mutex<HostMemory>,
    /// Where its doorbell signal lives, until the queue is released.
    pub(crate) signals: &'static signals::Registry,
}

impl Queue {
    /// The `hsa_queue_t*` clients hold: the address of the `amd_queue_t`.
    pub(crate) fn address(&self) -> u64 {
        std::ptr::from_ref::<AmdQueue>(&self.amd) as u64
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        let mut host = host_memory::lock(self.host);
        host.forget_runtime(self.ring.as_ptr() as usize);
        host.forget_runtime(self.address() as usize);
        drop(host);
        self.signals.destroy_doorbell(self.doorbell);
    }
}

/// The live queues by `hsa_queue_t*` address.
#[derive(Default)]
pub(crate) struct Registry {
    live: Mutex<HashMap<u64, Arc<Queue>>>,
    /// The next `hsa_queue_t.id`: unique over the lifetime of the
    /// application.
    next_id: AtomicU64,
    /// Whether a pointer that is not a queue was said on stderr.
    said_not_a_queue: AtomicBool,
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

    /// Adds a created queue at its address.
    pub(crate) fn insert(&self, queue: Arc<Queue>) {
        lock(&self.live).insert(queue.address(), queue);
    }

    /// Takes the queue at `address` out of the registry.
    pub(crate) fn remove(&self, address: u64) -> Option<Arc<Queue>> {
        lock(&self.live).remove(&address)
    }

    /// Live queues.
    pub(crate) fn live(&self) -> usize {
        lock(&self.live).len()
    }

    /// A fresh queue id.
    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Says once that `queue`, given to `op`, was not a live queue.
    pub(crate) fn not_a_queue(&self, op: &str, queue: u64) {
        if !self.said_not_a_queue.swap(true, Ordering::Relaxed) {
            eprintln!(
                "amdgpu-sim-ffi: {op} on {queue:#x}, which is not a live queue: ignored, read as 0 \
                 (said once)"
            );
        }
    }
}

/// Stops a queue's packet processor and waits for it (unless called from
/// it, by its own error callback); the queue is released with the last
/// reference.
pub(crate) fn shut(queue: &Queue) {
    queue.stop.store(true, Ordering::Release);
    queue.signals.wake();
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
