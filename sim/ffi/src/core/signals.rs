//! HSA signals as state: an `hsa_signal_t` handle is the address of an
//! `amd_signal_t` (`amd_hsa_signal.h`) in host memory, 64-byte aligned,
//! whose `value` a client may read (and write) with its own atomics; the
//! live signals by handle, the queues' doorbell signals, and the wake-up
//! of everything waiting on a signal (waits, packet processors, the copy
//! engine). The exports are `crate::hsa::signal`'s.

use std::collections::HashMap;
use std::mem::offset_of;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use amdgpu_sys::hsa_types::{AMD_SIGNAL_ALIGN_BYTES, amd_signal_t};
use amdgpu_sys::hsa_values::{AMD_SIGNAL_KIND_DOORBELL, AMD_SIGNAL_KIND_USER};

/// Longest a wait sleeps before it looks at the signals' memory again
/// (values written without a call into this library).
pub const POLL_INTERVAL: Duration = Duration::from_millis(1);

/// Most signals one `hsa_amd_signal_wait_any`/`_all` call may name.
pub const MAX_WAIT_SIGNALS: u32 = 1 << 16;

/// One signal: `amd_signal_t`'s layout with the fields other threads write
/// as atomics (the same bytes as the header's `int64_t`/`uint64_t`). The
/// fields this library does not read are there for the client's sake.
#[repr(C, align(64))]
#[allow(dead_code)]
pub(crate) struct Signal {
    kind: i64,
    pub(crate) value: AtomicI64,
    event_mailbox_ptr: u64,
    event_id: u32,
    reserved1: u32,
    start_ts: AtomicU64,
    end_ts: AtomicU64,
    queue_ptr: AtomicU64,
    reserved3: [AtomicU32; 2],
}

const _: () = {
    type A = amd_signal_t;
    assert!(size_of::<Signal>() == size_of::<A>());
    assert!(align_of::<Signal>() == align_of::<A>());
    assert!(offset_of!(Signal, kind) == offset_of!(A, kind));
    assert!(offset_of!(Signal, value) == offset_of!(A, value));
    assert!(offset_of!(Signal, event_mailbox_ptr) == offset_of!(A, event_mailbox_ptr));
    assert!(offset_of!(Signal, event_id) == offset_of!(A, event_id));
    assert!(offset_of!(Signal, reserved1) == offset_of!(A, reserved1));
    assert!(offset_of!(Signal, start_ts) == offset_of!(A, start_ts));
    assert!(offset_of!(Signal, end_ts) == offset_of!(A, end_ts));
    assert!(offset_of!(Signal, queue_ptr) == offset_of!(A, queue_ptr));
    assert!(offset_of!(Signal, reserved3) == offset_of!(A, reserved3));
};

impl Signal {
    fn new(initial: i64) -> Signal {
        Signal {
            kind: AMD_SIGNAL_KIND_USER,
            value: AtomicI64::new(initial),
            event_mailbox_ptr: 0,
            event_id: 0,
            reserved1: 0,
            start_ts: AtomicU64::new(0),
            end_ts: AtomicU64::new(0),
            queue_ptr: AtomicU64::new(0),
            reserved3: [AtomicU32::new(0), AtomicU32::new(0)],
        }
    }

    /// A queue's doorbell: `AMD_SIGNAL_KIND_DOORBELL`, its
    /// `hardware_doorbell_ptr` (the union with `value`) the address of the
    /// doorbell word, `queue_ptr` the queue's `amd_queue_t`.
    fn doorbell(word: u64, queue: u64) -> Signal {
        Signal {
            kind: AMD_SIGNAL_KIND_DOORBELL,
            value: AtomicI64::new(word as i64),
            queue_ptr: AtomicU64::new(queue),
            ..Signal::new(0)
        }
    }

    /// The current value.
    pub(crate) fn load(&self, order: Ordering) -> i64 {
        self.value.load(order)
    }

    /// Subtracts `amount` with release (a packet's completion).
    pub(crate) fn subtract(&self, amount: i64) {
        self.value.fetch_sub(amount, Ordering::AcqRel);
    }

    /// Records a dispatch's start and end GPU timestamps (`start_ts`,
    /// `end_ts`), as a profiling queue's packet processor does.
    pub(crate) fn set_times(&self, start: u64, end: u64) {
        self.start_ts.store(start, Ordering::Relaxed);
        self.end_ts.store(end, Ordering::Release);
    }

    /// Replaces the value by `f` of it, atomically (a packet processor's
    /// write into part of it).
    pub(crate) fn update(&self, mut f: impl FnMut(i64) -> i64) {
        let _ = self
            .value
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| Some(f(v)));
    }
}

/// A queue's doorbell signal and the word its `hardware_doorbell_ptr`
/// points at.
type Doorbell = (Arc<Signal>, Arc<AtomicU64>);

/// The live signals by handle, the queues' doorbells (not clients'
/// signals: not destroyable by `hsa_signal_destroy`, not in the report's
/// count), and the wake-up of waiters.
pub(crate) struct Registry {
    live: Mutex<HashMap<u64, Arc<Signal>>>,
    doorbells: Mutex<HashMap<u64, Doorbell>>,
    generation: Mutex<u64>,
    changed: Condvar,
    /// Whether a handle that is not a signal was said on stderr.
    said_not_a_signal: AtomicBool,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry {
            live: Mutex::new(HashMap::new()),
            doorbells: Mutex::new(HashMap::new()),
            generation: Mutex::new(0),
            changed: Condvar::new(),
            said_not_a_signal: AtomicBool::new(false),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Registry {
    /// A new user signal of value `initial`; its handle.
    pub(crate) fn create(&self, initial: i64) -> u64 {
        let signal = Arc::new(Signal::new(initial));
        let handle = Arc::as_ptr(&signal) as u64;
        lock(&self.live).insert(handle, signal);
        handle
    }

    /// Destroys a live signal; `false` when `handle` is none.
    pub(crate) fn destroy(&self, handle: u64) -> bool {
        lock(&self.live).remove(&handle).is_some()
    }

    /// A doorbell signal for the queue at `queue` ringing `word`; its handle.
    pub(crate) fn create_doorbell(&self, word: Arc<AtomicU64>, queue: u64) -> u64 {
        let signal = Arc::new(Signal::doorbell(Arc::as_ptr(&word) as u64, queue));
        let handle = Arc::as_ptr(&signal) as u64;
        lock(&self.doorbells).insert(handle, (signal, word));
        handle
    }

    /// Removes a queue's doorbell signal.
    pub(crate) fn destroy_doorbell(&self, handle: u64) {
        lock(&self.doorbells).remove(&handle);
    }

    /// The doorbell word behind a doorbell signal's handle.
    pub(crate) fn doorbell_word(&self, handle: u64) -> Option<Arc<AtomicU64>> {
        lock(&self.doorbells)
            .get(&handle)
            .map(|(_, word)| Arc::clone(word))
    }

    /// The live signal behind `handle`, if it is one.
    pub(crate) fn get(&self, handle: u64) -> Option<Arc<Signal>> {
        lock(&self.live).get(&handle).cloned()
    }

    /// The live signal whose `value` holds the `len` bytes at `address`,
    /// and where in the value they start: a packet processor's memory
    /// access that lands on a signal (a PM4 wait polling it, a write into
    /// it) goes through the signal's atomics.
    pub(crate) fn value_at(&self, address: u64, len: usize) -> Option<(Arc<Signal>, usize)> {
        let handle = address & !(AMD_SIGNAL_ALIGN_BYTES as u64 - 1);
        let start = usize::try_from(address - handle).ok()?;
        let value = offset_of!(Signal, value);
        let inside = start.checked_sub(value)?;
        (inside + len <= size_of::<i64>())
            .then(|| self.get(handle).map(|s| (s, inside)))
            .flatten()
    }

    /// Live signals.
    pub(crate) fn live(&self) -> usize {
        lock(&self.live).len()
    }

    /// Wakes every waiter to look at its signals again.
    pub(crate) fn wake(&self) {
        *lock(&self.generation) += 1;
        self.changed.notify_all();
    }

    /// Waits until `done` answers `Some` or `deadline` passes (`None`: no
    /// deadline); `None` on timeout.
    pub(crate) fn wait_until<T>(
        &self,
        deadline: Option<Instant>,
        mut done: impl FnMut() -> Option<T>,
    ) -> Option<T> {
        loop {
            let seen = *lock(&self.generation);
            if let Some(answer) = done() {
                return Some(answer);
            }
            let mut sleep = POLL_INTERVAL;
            if let Some(deadline) = deadline {
                let now = Instant::now();
                if now >= deadline {
                    return None;
                }
                sleep = sleep.min(deadline - now);
            }
            let generation = lock(&self.generation);
            if *generation == seen {
                let _ = self
                    .changed
                    .wait_timeout(generation, sleep)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        }
    }

    /// Says once that `handle`, given to `op`, was not a live signal.
    pub(crate) fn not_a_signal(&self, op: &str, handle: u64) {
        if !self.said_not_a_signal.swap(true, Ordering::Relaxed) {
            eprintln!(
                "amdgpu-sim-ffi: {op} on {handle:#x}, which is not a live signal: ignored, read as 0 \
                 (said once)"
            );
        }
    }
}
