//! HIP streams and events: where work for a stream handle goes (the null
//! stream runs it at once, after the device's blocking streams; a created
//! stream's worker runs it in order, through `super::operation`), and the
//! stream and event calls.

use std::ffi::c_void;
use std::sync::Arc;

use amdgpu_sim::HipCode;

use super::context::current_device;
use super::operation::execute_on;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, as_handle, call, call_with, handle, of_handle, put};
use crate::core::ptr::{self, HostFn};
use crate::core::runtime::Runtime;
use crate::core::streams::{EVENT_DISABLE_TIMING, Op, STREAM_NON_BLOCKING, Stream};

/// Enqueues `op` on `stream`; the null stream runs it now, after the
/// device's blocking streams drain (HIP's legacy default stream).
///
/// # Safety
/// `op`'s host places are live host memory of their length, and its host
/// function is callable with its data, until the op has run (the contract
/// of the call that queues it).
pub(crate) unsafe fn enqueue(rt: &Runtime, stream: handle, op: Op) -> Call {
    let (target, _) = resolve_stream(rt, stream)?;
    // SAFETY: the caller's promise for `op`.
    unsafe { target.enqueue_all(rt, vec![op]) }
}

/// Where work for a stream handle goes.
pub(crate) enum Target {
    /// The null stream: run at once, after the device's blocking streams.
    Null,
    /// A created stream's worker.
    Stream(Arc<Stream>),
}

impl Target {
    /// Enqueues `ops` in order, as one run.
    ///
    /// # Safety
    /// As [`enqueue`], for every op.
    pub(crate) unsafe fn enqueue_all(&self, rt: &Runtime, ops: Vec<Op>) -> Call {
        match self {
            Target::Null => {
                sync_null_stream(rt)?;
                let ordinal = current_device(&rt.sim);
                // SAFETY: the caller's promise for `ops`.
                ops.into_iter()
                    .try_for_each(|op| unsafe { execute_on(rt, 0, ordinal, op) })
            }
            Target::Stream(s) => {
                // SAFETY: the caller's promise for `ops`, which `run_on` relies on.
                unsafe { s.submit(ops, rt.settings.eager_streams, &mut |op| run_on(rt, s, op)) };
                Ok(())
            }
        }
    }

    /// Waits for the work enqueued so far (the null stream: the device's
    /// blocking streams), leaving failures for the next synchronization.
    pub(crate) fn wait_idle(&self, rt: &Runtime) {
        match self {
            Target::Null => rt
                .streams()
                .blocking_streams(current_device(&rt.sim))
                .iter()
                .for_each(|s| s.wait_idle()),
            Target::Stream(s) => s.wait_idle(),
        }
    }
}

/// The target of a stream handle and the device it runs on (the null
/// stream: the current device).
pub(crate) fn resolve_stream(rt: &Runtime, stream: handle) -> Result<(Target, i32), HipCode> {
    match of_handle(stream) {
        0 => Ok((Target::Null, current_device(&rt.sim))),
        s => {
            let s = rt.streams().stream(s)?;
            let ordinal = s.ordinal;
            Ok((Target::Stream(s), ordinal))
        }
    }
}

/// Waits for the current device's blocking streams; their first failure,
/// else a fault the device keeps.
fn sync_null_stream(rt: &Runtime) -> Call {
    let ordinal = current_device(&rt.sim);
    let streams = rt.streams().blocking_streams(ordinal);
    streams.iter().try_for_each(|s| synchronize(rt, s))?;
    rt.device_faults.check(ordinal)
}

/// The device a stream runs on (the null stream: the current device).
pub(crate) fn stream_device(rt: &Runtime, stream: handle) -> Result<i32, HipCode> {
    resolve_stream(rt, stream).map(|(_, ordinal)| ordinal)
}

/// Waits for `stream`'s work; its first failure, else a fault its device
/// keeps.
fn synchronize(rt: &Runtime, stream: &Stream) -> Call {
    stream.synchronize()?;
    rt.device_faults.check(stream.ordinal)
}

/// A failure left on the device of the stream that last recorded `event`
/// (never recorded, none).
fn event_device_fault(rt: &Runtime, event: &crate::core::streams::Event) -> Call {
    event
        .device()
        .map_or(Ok(()), |device| rt.device_faults.check(device))
}

/// Creates a stream on `ordinal` whose worker runs its operations on `rt`.
fn create_stream(rt: &'static Runtime, ordinal: i32, flags: u32) -> Result<u64, HipCode> {
    rt.streams()
        .create_stream(&rt.handles, ordinal, flags, |stream| {
            std::thread::Builder::new()
                .name(format!("sim-stream-{ordinal}"))
                .spawn(move || {
                    // SAFETY: queued by `enqueue`, whose caller promised the
                    // op's memory and host function stay valid until it runs.
                    stream.serve(&mut |op| unsafe { run_on(rt, &stream, op) })
                })
        })
}

/// Runs one of `stream`'s operations (traced).
///
/// # Safety
/// As `super::operation::execute`: the op was queued by [`enqueue`] or
/// [`Target::enqueue_all`], whose callers promise its memory.
unsafe fn run_on(rt: &Runtime, stream: &Stream, op: Op) -> Call {
    rt.sim
        .trace_note(|| format!("stream {:#x} runs {}", stream.handle, op.describe()));
    // SAFETY: the caller's promise, passed on.
    unsafe { execute_on(rt, stream.handle, stream.ordinal, op) }
}

c_exports! {
    /// `hipStreamCreateWithFlags`: a stream on the current device.
    ///
    /// # Safety
    /// `stream` is NULL or points at a writable stream handle.
    unsafe fn hipStreamCreateWithFlags(stream: *mut handle, flags: u32) -> hipError_t {
        call("hipStreamCreateWithFlags", |rt| {
            if stream.is_null() || flags & !STREAM_NON_BLOCKING != 0 {
                return Err(HipCode::INVALID_VALUE);
            }
            let ordinal = current_device(&rt.sim);
            let s = create_stream(rt, ordinal, flags)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(stream, as_handle(s)) }
        })
    }

    /// `hipStreamCreate`: `hipStreamCreateWithFlags` with `hipStreamDefault`.
    ///
    /// # Safety
    /// `stream` is NULL or points at a writable stream handle.
    unsafe fn hipStreamCreate(stream: *mut handle) -> hipError_t {
        call("hipStreamCreate", |rt| {
            if stream.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let s = create_stream(rt, current_device(&rt.sim), 0)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(stream, as_handle(s)) }
        })
    }

    /// `hipStreamDestroy`: queued work runs first.
    fn hipStreamDestroy(stream: handle) -> hipError_t {
        call_with("hipStreamDestroy", || format!("{stream:?}"), |rt| {
            let s = rt.streams().remove_stream(of_handle(stream))?;
            s.stop();
            Ok(())
        })
    }

    /// `hipStreamSynchronize`: waits for the stream's work; the first
    /// failure of an enqueued operation, if any.
    fn hipStreamSynchronize(stream: handle) -> hipError_t {
        call_with("hipStreamSynchronize", || format!("{stream:?}"), |rt| match of_handle(stream) {
            0 => sync_null_stream(rt),
            s => {
                let s = rt.streams().stream(s)?;
                synchronize(rt, &s)
            }
        })
    }

    /// `hipStreamQuery`: `hipErrorNotReady` while the stream (the null
    /// stream: the device's blocking streams) has work left; a fault its
    /// device keeps.
    fn hipStreamQuery(stream: handle) -> hipError_t {
        call_with("hipStreamQuery", || format!("{stream:?}"), |rt| {
            let ordinal = stream_device(rt, stream)?;
            rt.device_faults.check(ordinal)?;
            let streams = match resolve_stream(rt, stream)?.0 {
                Target::Null => rt.streams().blocking_streams(ordinal),
                Target::Stream(s) => vec![s],
            };
            let idle = streams.iter().all(|s| s.is_idle());
            if idle { Ok(()) } else { Err(HipCode::NOT_READY) }
        })
    }

    /// `hipDeviceSynchronize`: waits for every stream of the current
    /// device; their first failure, else a fault the device keeps.
    fn hipDeviceSynchronize() -> hipError_t {
        call("hipDeviceSynchronize", |rt| {
            let ordinal = current_device(&rt.sim);
            let streams = rt.streams().device_streams(ordinal);
            let results: Vec<Call> = streams.iter().map(|s| synchronize(rt, s)).collect();
            results.into_iter().collect::<Call>()?;
            rt.device_faults.check(ordinal)
        })
    }

    /// `hipStreamWaitEvent`: later work on the stream waits for the
    /// event's last record (none: no wait).
    fn hipStreamWaitEvent(stream: handle, event: handle, flags: u32) -> hipError_t {
        call_with("hipStreamWaitEvent", || format!("{stream:?}, {event:?}"), |rt| {
            if flags != 0 {
                return Err(HipCode::INVALID_VALUE);
            }
            let event = rt.streams().event(of_handle(event))?;
            let generation = event.last_recorded();
            if generation == 0 {
                return Ok(());
            }
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(rt, stream, Op::Wait(event, generation)) }
        })
    }

    /// `hipLaunchHostFunc`: `function(data)` runs on the stream's worker
    /// after the work before it.
    ///
    /// # Safety
    /// `function` is a host function taking `data`, callable from the stream's worker thread.
    unsafe fn hipLaunchHostFunc(stream: handle, function: HostFn, data: *mut c_void) -> hipError_t {
        call_with("hipLaunchHostFunc", || format!("{stream:?}"), |rt| {
            if function.is_none() {
                return Err(HipCode::INVALID_VALUE);
            }
            if of_handle(stream) == 0 {
                sync_null_stream(rt)?;
                // SAFETY: the caller's contract (above).
                unsafe { ptr::call_host_fn(function, data as usize) };
                return Ok(());
            }
            rt.streams().stream(of_handle(stream))?.push(Op::HostFn {
                function,
                data: data as usize,
            });
            Ok(())
        })
    }

    /// `hipEventCreate`.
    ///
    /// # Safety
    /// `event` is NULL or points at a writable event handle.
    unsafe fn hipEventCreate(event: *mut handle) -> hipError_t {
        call("hipEventCreate", |rt| {
            if event.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let e = rt.streams().create_event(&rt.handles, 0)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(event, as_handle(e)) }
        })
    }

    /// `hipEventCreateWithFlags`.
    ///
    /// # Safety
    /// `event` is NULL or points at a writable event handle.
    unsafe fn hipEventCreateWithFlags(event: *mut handle, flags: u32) -> hipError_t {
        call("hipEventCreateWithFlags", |rt| {
            if event.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let e = rt.streams().create_event(&rt.handles, flags)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(event, as_handle(e)) }
        })
    }

    /// `hipEventDestroy`.
    fn hipEventDestroy(event: handle) -> hipError_t {
        call_with("hipEventDestroy", || format!("{event:?}"), |rt| rt.streams().destroy_event(of_handle(event)))
    }

    /// `hipEventRecord`: completes when the stream's earlier work has.
    fn hipEventRecord(event: handle, stream: handle) -> hipError_t {
        call_with("hipEventRecord", || format!("{event:?}, {stream:?}"), |rt| {
            let event = rt.streams().event(of_handle(event))?;
            let device = stream_device(rt, stream)?;
            let generation = event.begin_record(device);
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(rt, stream, Op::Record(event, generation)) }
        })
    }

    /// `hipEventQuery`: `hipErrorNotReady` until the last record completes;
    /// a fault its device keeps, whatever the record.
    fn hipEventQuery(event: handle) -> hipError_t {
        call_with("hipEventQuery", || format!("{event:?}"), |rt| {
            let event = rt.streams().event(of_handle(event))?;
            event_device_fault(rt, &event)?;
            let (recorded, completed) = event.generations();
            rt.sim.trace_note(|| format!("event {:#x}: #{recorded} recorded, #{completed} completed", event.handle));
            if completed >= recorded { Ok(()) } else { Err(HipCode::NOT_READY) }
        })
    }

    /// `hipEventSynchronize`: waits for the last record; then a fault its
    /// device keeps.
    fn hipEventSynchronize(event: handle) -> hipError_t {
        call_with("hipEventSynchronize", || format!("{event:?}"), |rt| {
            let event = rt.streams().event(of_handle(event))?;
            let generation = event.last_recorded();
            rt.sim.trace_note(|| format!("waits for event {:#x} #{generation}", event.handle));
            event.wait_for(generation);
            event_device_fault(rt, &event)
        })
    }

    /// `hipEventElapsedTime` in milliseconds between two completed records.
    ///
    /// # Safety
    /// `ms` is NULL or points at a writable `float`.
    unsafe fn hipEventElapsedTime(ms: *mut f32, start: handle, stop: handle) -> hipError_t {
        call("hipEventElapsedTime", |rt| {
            if ms.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let (start, stop) = {
                let r = rt.streams();
                (r.event(of_handle(start))?, r.event(of_handle(stop))?)
            };
            if (start.flags | stop.flags) & EVENT_DISABLE_TIMING != 0 {
                return Err(HipCode::INVALID_RESOURCE_HANDLE);
            }
            let (Some(a), Some(b)) = (start.completed_at(), stop.completed_at()) else {
                return Err(HipCode::NOT_READY);
            };
            let elapsed = if b >= a { (b - a).as_secs_f64() } else { -(a - b).as_secs_f64() };
            // SAFETY: the caller's contract (above).
            unsafe { put(ms, (elapsed * 1000.0) as f32) }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::place::Place;
    use crate::core::settings::Settings;
    use amdgpu_sim::Sim;
    use amdgpu_sim::presets::load_machine;

    /// A runtime of the test's own, not the process's (leaked, as a
    /// stream's worker holds its runtime for as long as it runs).
    fn own_runtime(eager_streams: bool) -> &'static Runtime {
        let sim = Sim::new(load_machine("w7900").expect("preset"));
        sim.hip_init(0).expect("hipInit");
        let settings = Settings {
            eager_streams,
            ..Settings::default()
        };
        Box::leak(Box::new(Runtime::new(sim, settings)))
    }

    /// A stream of a runtime of one's own runs its work in order, on the
    /// submitting thread or its worker, and answers its own device's
    /// failures only.
    #[test]
    fn a_stream_runs_in_order_on_its_own_runtime() {
        for eager in [true, false] {
            let rt = own_runtime(eager);
            let other = own_runtime(eager);
            let device = rt.sim.hip_malloc("hipMalloc", 0, 16).expect("allocation");
            let handle = create_stream(rt, 0, 0).expect("stream");
            let stream = rt.streams().stream(handle).expect("live");
            let ops = vec![
                Op::Fill {
                    dst: Place::Device(device),
                    pattern: vec![0xab],
                    count: 16,
                },
                Op::Fill {
                    dst: Place::Device(device + 4),
                    pattern: vec![1, 2],
                    count: 2,
                },
            ];
            // SAFETY: the ops touch device memory alone.
            unsafe { Target::Stream(Arc::clone(&stream)).enqueue_all(rt, ops) }.expect("queued");
            synchronize(rt, &stream).expect("ran");
            let mut bytes = [0u8; 8];
            rt.sim.hip_read(device, &mut bytes).expect("read back");
            assert_eq!(
                bytes,
                [0xab, 0xab, 0xab, 0xab, 1, 2, 1, 2],
                "eager: {eager}"
            );
            assert_eq!((rt.census().streams, other.census().streams), (1, 0));

            rt.device_faults.record(0, HipCode::ILLEGAL_ADDRESS);
            assert_eq!(synchronize(rt, &stream), Err(HipCode::ILLEGAL_ADDRESS));
            assert_eq!(other.device_faults.check(0), Ok(()));

            rt.streams().remove_stream(handle).expect("live").stop();
            assert_eq!(rt.census().streams, 0);
        }
    }
}
