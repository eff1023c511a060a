//! HIP streams and events as state: each stream is a FIFO of operations
//! run in order by a worker thread of its own (copies, fills, host
//! functions, event records, waits, stream-ordered frees), so that stream
//! order, cross-stream waits and host callbacks behave as on a device, and
//! a client that waits for completion really waits. What an operation does
//! is the caller's: `crate::hip::stream` hands each stream the function
//! that runs its operations.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

use amdgpu_sim::HipCode;

use super::graphs::NodeRun;
use super::handles::Handles;
use super::place::Place;
use super::ptr::HostFn;

/// `hipStreamNonBlocking`: no implicit synchronization with the null stream.
pub(crate) const STREAM_NON_BLOCKING: u32 = 0x1;
/// `hipEventDisableTiming`.
pub(crate) const EVENT_DISABLE_TIMING: u32 = 0x2;
/// Flags `hipEventCreateWithFlags` accepts (`hipEventDefault`,
/// `BlockingSync`, `DisableTiming`, `Interprocess`, and AMD's release-to-device/system bits).
pub(crate) const EVENT_FLAGS: u32 = 0x1 | 0x2 | 0x4 | 0x4000_0000 | 0x8000_0000;
/// Most streams or events alive at once.
pub const MAX_HANDLES: usize = 1 << 16;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// One queued operation.
pub(crate) enum Op {
    /// Copy `len` bytes.
    Copy { dst: Place, src: Place, len: usize },
    /// Write `pattern` `count` times.
    Fill {
        dst: Place,
        pattern: Vec<u8>,
        count: usize,
    },
    /// Run a host function.
    HostFn { function: HostFn, data: usize },
    /// Complete generation `generation` of an event.
    Record(Arc<Event>, u64),
    /// Wait until an event reaches `generation`.
    Wait(Arc<Event>, u64),
    /// Free a device allocation (`hipFreeAsync`).
    Free(u64),
    /// Write bytes taken from the client when the call was made (a copy
    /// whose pageable source HIP consumes before returning).
    Write { dst: Place, bytes: Vec<u8> },
    /// Run a copy or fill node of a launched graph.
    Node(NodeRun),
    /// Execute a launched kernel.
    Kernel(Box<amdgpu_sim::kernel_exec::KernelRun>),
}

/// What runs a stream's operations: the operation's outcome, kept for the
/// next synchronization when it fails.
pub(crate) type Runner<'a> = dyn FnMut(Op) -> Result<(), HipCode> + 'a;

/// A `hipEvent_t`.
#[derive(Debug)]
pub(crate) struct Event {
    /// Its handle (for the trace).
    pub(crate) handle: u64,
    pub(crate) flags: u32,
    state: Mutex<EventState>,
    done: Condvar,
}

#[derive(Debug, Default)]
struct EventState {
    recorded: u64,
    completed: u64,
    at: Option<Instant>,
    /// The device of the stream that last recorded it.
    device: Option<i32>,
}

impl Event {
    fn new(handle: u64, flags: u32) -> Event {
        Event {
            handle,
            flags,
            state: Mutex::new(EventState::default()),
            done: Condvar::new(),
        }
    }

    /// Starts a new record on a stream of device `device`; the generation
    /// the record completes.
    pub(crate) fn begin_record(&self, device: i32) -> u64 {
        let mut s = lock(&self.state);
        s.recorded += 1;
        s.device = Some(device);
        s.recorded
    }

    /// The device of the stream that last recorded the event (never
    /// recorded: none).
    pub(crate) fn device(&self) -> Option<i32> {
        lock(&self.state).device
    }

    /// The generation a wait issued now waits for (0: never recorded).
    pub(crate) fn last_recorded(&self) -> u64 {
        lock(&self.state).recorded
    }

    /// Completes generation `generation` (an [`Op::Record`] run).
    pub(crate) fn complete(&self, generation: u64) {
        let mut s = lock(&self.state);
        if generation > s.completed {
            s.completed = generation;
            s.at = Some(Instant::now());
        }
        self.done.notify_all();
    }

    /// The generation last recorded and the latest completed.
    pub(crate) fn generations(&self) -> (u64, u64) {
        let s = lock(&self.state);
        (s.recorded, s.completed)
    }

    /// Blocks until generation `generation` completes.
    pub(crate) fn wait_for(&self, generation: u64) {
        let mut s = lock(&self.state);
        while s.completed < generation {
            s = self.done.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// When the last record completed, if it has and timing is on.
    pub(crate) fn completed_at(&self) -> Option<Instant> {
        let s = lock(&self.state);
        (s.completed >= s.recorded && s.recorded > 0)
            .then_some(s.at)
            .flatten()
    }
}

/// A `hipStream_t`.
pub(crate) struct Stream {
    /// Its handle (for the trace).
    pub(crate) handle: u64,
    pub(crate) ordinal: i32,
    pub(crate) flags: u32,
    queue: Mutex<Queue>,
    changed: Condvar,
    worker: Mutex<Option<JoinHandle<()>>>,
}

#[derive(Default)]
struct Queue {
    ops: VecDeque<Op>,
    enqueued: u64,
    done: u64,
    error: Option<HipCode>,
    shutdown: bool,
}

impl Stream {
    /// Appends an operation for the worker.
    pub(crate) fn push(&self, op: Op) {
        let mut q = lock(&self.queue);
        q.ops.push_back(op);
        q.enqueued += 1;
        self.changed.notify_all();
    }

    /// Appends operations as one run (no other thread's between them).
    /// On an idle stream, when `eager` (the default, see
    /// [`STREAMS_ENV`](super::settings::STREAMS_ENV)), the leading
    /// operations that need not wait run at once on the calling thread
    /// through `run`, in stream order, as a device runs work on an idle
    /// queue before the host can look: what completes, and in which order,
    /// then follows from the calls alone, not from how the threads are
    /// scheduled. Host functions always run on the worker, as HIP runs them
    /// on a thread of its own; a failure is kept for the next
    /// synchronization either way.
    ///
    /// # Safety
    /// The ops' host places are live host memory of their length, and
    /// their host functions callable with their data, until each has run
    /// (`run` relies on it).
    pub(crate) unsafe fn submit(&self, ops: Vec<Op>, eager: bool, run: &mut Runner<'_>) {
        let mut q = lock(&self.queue);
        let mut ops = ops.into_iter().peekable();
        if eager && q.ops.is_empty() && q.done == q.enqueued {
            while let Some(op) = ops.next_if(Op::runs_at_once) {
                if let Err(code) = run(op) {
                    q.error.get_or_insert(code);
                }
                q.enqueued += 1;
                q.done += 1;
            }
        }
        for op in ops {
            q.ops.push_back(op);
            q.enqueued += 1;
        }
        self.changed.notify_all();
    }

    /// Waits for everything enqueued so far, leaving any failure for the
    /// next synchronization to report.
    pub(crate) fn wait_idle(&self) {
        let mut q = lock(&self.queue);
        let target = q.enqueued;
        while q.done < target {
            q = self.changed.wait(q).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Waits for everything enqueued so far; the first failure of an
    /// operation since the last synchronization, if any.
    pub(crate) fn synchronize(&self) -> Result<(), HipCode> {
        let mut q = lock(&self.queue);
        let target = q.enqueued;
        while q.done < target {
            q = self.changed.wait(q).unwrap_or_else(|p| p.into_inner());
        }
        q.error.take().map_or(Ok(()), Err)
    }

    /// Whether everything enqueued so far has run (`hipStreamQuery`).
    pub(crate) fn is_idle(&self) -> bool {
        let q = lock(&self.queue);
        q.done == q.enqueued
    }

    /// The worker: runs queued operations through `run` until the stream
    /// is stopped and its queue drained.
    pub(crate) fn serve(&self, run: &mut Runner<'_>) {
        loop {
            let op = {
                let mut q = lock(&self.queue);
                loop {
                    if let Some(op) = q.ops.pop_front() {
                        break op;
                    }
                    if q.shutdown {
                        return;
                    }
                    q = self.changed.wait(q).unwrap_or_else(|p| p.into_inner());
                }
            };
            let result = run(op);
            let mut q = lock(&self.queue);
            if let Err(code) = result {
                q.error.get_or_insert(code);
            }
            q.done += 1;
            self.changed.notify_all();
        }
    }

    /// Stops the worker once its queued work has run (`hipStreamDestroy`).
    pub(crate) fn stop(&self) {
        lock(&self.queue).shutdown = true;
        self.changed.notify_all();
        if let Some(worker) = lock(&self.worker).take() {
            let _ = worker.join();
        }
    }
}

impl Op {
    /// Whether the op can run on the thread that submits it: anything but
    /// a host function, or a wait for an event that has not completed.
    fn runs_at_once(&self) -> bool {
        match self {
            Op::HostFn { .. } => false,
            Op::Wait(event, generation) => event.generations().1 >= *generation,
            _ => true,
        }
    }

    /// What the operation is, for the trace.
    pub(crate) fn describe(&self) -> String {
        match self {
            Op::Copy { dst, src, len } => format!("copy {len} bytes {src:?} -> {dst:?}"),
            Op::Fill {
                dst,
                pattern,
                count,
            } => format!("fill {count} x {pattern:?} at {dst:?}"),
            Op::HostFn { data, .. } => format!("host function (data {data:#x})"),
            Op::Record(event, generation) => {
                format!("record event {:#x} #{generation}", event.handle)
            }
            Op::Wait(event, generation) => format!("wait event {:#x} #{generation}", event.handle),
            Op::Free(address) => format!("free {address:#x}"),
            Op::Write { dst, bytes } => format!("write {} bytes -> {dst:?}", bytes.len()),
            Op::Node(_) => "graph node".to_string(),
            Op::Kernel(run) => format!("kernel {}", run.kernel()),
        }
    }
}

/// The live streams and events.
#[derive(Default)]
pub(crate) struct Registry {
    streams: BTreeMap<u64, Arc<Stream>>,
    events: BTreeMap<u64, Arc<Event>>,
}

impl Registry {
    /// Creates a stream on `ordinal` with its worker thread, which
    /// `spawn` starts for the stream.
    pub(crate) fn create_stream(
        &mut self,
        handles: &Handles,
        ordinal: i32,
        flags: u32,
        spawn: impl FnOnce(Arc<Stream>) -> std::io::Result<JoinHandle<()>>,
    ) -> Result<u64, HipCode> {
        if self.streams.len() >= MAX_HANDLES {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let handle = handles.next();
        let stream = Arc::new(Stream {
            handle,
            ordinal,
            flags,
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
            worker: Mutex::new(None),
        });
        let worker = spawn(Arc::clone(&stream)).map_err(|_| HipCode::OUT_OF_MEMORY)?;
        *lock(&stream.worker) = Some(worker);
        self.streams.insert(handle, stream);
        Ok(handle)
    }

    /// The stream of handle `handle`.
    pub(crate) fn stream(&self, handle: u64) -> Result<Arc<Stream>, HipCode> {
        self.streams
            .get(&handle)
            .cloned()
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }

    /// Removes a stream (its worker is stopped by the caller, outside the registry lock).
    pub(crate) fn remove_stream(&mut self, handle: u64) -> Result<Arc<Stream>, HipCode> {
        self.streams
            .remove(&handle)
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }

    /// Every stream of `ordinal` (what `hipDeviceSynchronize` waits for).
    pub(crate) fn device_streams(&self, ordinal: i32) -> Vec<Arc<Stream>> {
        self.streams
            .values()
            .filter(|s| s.ordinal == ordinal)
            .cloned()
            .collect()
    }

    /// The blocking streams of `ordinal` (those the null stream waits for).
    pub(crate) fn blocking_streams(&self, ordinal: i32) -> Vec<Arc<Stream>> {
        self.streams
            .values()
            .filter(|s| s.ordinal == ordinal && s.flags & STREAM_NON_BLOCKING == 0)
            .cloned()
            .collect()
    }

    /// Creates an event.
    pub(crate) fn create_event(&mut self, handles: &Handles, flags: u32) -> Result<u64, HipCode> {
        if flags & !EVENT_FLAGS != 0 {
            return Err(HipCode::INVALID_VALUE);
        }
        if self.events.len() >= MAX_HANDLES {
            return Err(HipCode::OUT_OF_MEMORY);
        }
        let handle = handles.next();
        self.events
            .insert(handle, Arc::new(Event::new(handle, flags)));
        Ok(handle)
    }

    /// The event of handle `handle`.
    pub(crate) fn event(&self, handle: u64) -> Result<Arc<Event>, HipCode> {
        self.events
            .get(&handle)
            .cloned()
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }

    /// Destroys an event (a pending record still completes).
    pub(crate) fn destroy_event(&mut self, handle: u64) -> Result<(), HipCode> {
        self.events
            .remove(&handle)
            .map(|_| ())
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }

    /// Live streams and events.
    pub(crate) fn live(&self) -> (usize, usize) {
        (self.streams.len(), self.events.len())
    }
}
