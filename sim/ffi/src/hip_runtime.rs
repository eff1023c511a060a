//! The HIP runtime exports beyond enumeration: contexts, streams, events,
//! device/host/managed memory and stream-ordered pools, copies and fills,
//! host functions, modules, functions and kernel launches — the calls
//! IREE's HIP driver makes to run a program.
//!
//! Every export is counted and can fail by injection (`AMDGPU_SIM_FAULTS`)
//! before it does anything; a failure becomes `hipGetLastError`'s answer.

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void};

use amdgpu_sim::hip_module::LaunchRequest;
use amdgpu_sim::{HipCode, Sim};

use crate::abi::*;
use crate::device_fault::check as device_fault;
use crate::host_memory::{HostKind, host_memory};
use crate::image::read_image;
use crate::last_error::finish;
use crate::node::node;
use crate::ptr::{self, HostFn, c_exports};
use crate::stream::{
    EVENT_DISABLE_TIMING, Op, Place, Stream, execute, execute_on, registry, retire,
};
use std::sync::Arc;

type Call = Result<(), HipCode>;
/// HIP handles are pointers to opaque structs; here they are numbers.
#[allow(non_camel_case_types)]
type handle = *mut c_void;

/// `hipMemcpyKind` values HIP defines (`hipMemcpyHostToHost`..`hipMemcpyDefault`).
const MEMCPY_KINDS: std::ops::RangeInclusive<c_int> = 0..=4;
/// `HIP_LAUNCH_PARAM_BUFFER_POINTER`, `_SIZE`, `_END`.
const LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
const LAUNCH_PARAM_BUFFER_SIZE: usize = 2;
const LAUNCH_PARAM_END: usize = 3;
/// Most `extra` entries read before `HIP_LAUNCH_PARAM_END`.
const MAX_LAUNCH_EXTRA: usize = 16;

thread_local! {
    /// This thread's context stack (the top is current); empty means the
    /// device `hipSetDevice` chose (HIP's implicit primary context).
    static CONTEXTS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    /// `hipSetDevice`'s choice for this thread.
    static DEVICE: RefCell<i32> = const { RefCell::new(0) };
}

/// This thread's current device.
pub(crate) fn current_device(sim: &Sim) -> i32 {
    CONTEXTS
        .with(|c| c.borrow().last().copied())
        .and_then(|ctx| sim.hip_context_device(ctx).ok())
        .unwrap_or_else(|| DEVICE.with(|d| *d.borrow()))
}

/// Sets this thread's device (`hipSetDevice`).
pub(crate) fn set_current_device(ordinal: i32) {
    DEVICE.with(|d| *d.borrow_mut() = ordinal);
    CONTEXTS.with(|c| c.borrow_mut().clear());
}

/// Runs `body` after counting `op` (and applying its faults).
pub(crate) fn call(op: &'static str, body: impl FnOnce(&Sim) -> Call) -> hipError_t {
    call_with(op, String::new, body)
}

/// [`call`], with the arguments the call log shows.
pub(crate) fn call_with(
    op: &'static str,
    args: impl FnOnce() -> String,
    body: impl FnOnce(&Sim) -> Call,
) -> hipError_t {
    finish(match node() {
        None => hipErrorInvalidDevice,
        Some(node) => match node.sim.hip_gate(op, args).and_then(|()| body(&node.sim)) {
            Ok(()) => hipSuccess,
            Err(code) => code.0,
        },
    })
}

/// Runs `body`, which counts its own call through the simulator.
fn modelled(body: impl FnOnce(&Sim) -> Call) -> hipError_t {
    finish(match node() {
        None => hipErrorInvalidDevice,
        Some(node) => match body(&node.sim) {
            Ok(()) => hipSuccess,
            Err(code) => code.0,
        },
    })
}

/// Writes `value` to `out`, or `hipErrorInvalidValue` for NULL.
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type.
unsafe fn put<T: Copy>(out: *mut T, value: T) -> Call {
    // SAFETY: the caller's promise, passed on.
    unsafe { ptr::write(out.cast(), value) }
        .then_some(())
        .ok_or(HipCode::INVALID_VALUE)
}

fn as_handle(value: u64) -> handle {
    value as usize as handle
}

fn of_handle(value: handle) -> u64 {
    value as usize as u64
}

/// Where `len` bytes at `address` are: a device range must lie in one
/// allocation; anything else is the client's host memory.
fn place(sim: &Sim, address: usize, len: usize) -> Result<Place, HipCode> {
    if address == 0 {
        return Err(HipCode::INVALID_VALUE);
    }
    let a = address as u64;
    if sim.hip_is_device(a) {
        if !sim.hip_is_device_range(a, len as u64) {
            return Err(HipCode::INVALID_VALUE);
        }
        Ok(Place::Device(a))
    } else {
        Ok(Place::Host(address))
    }
}

/// Enqueues `op` on `stream`; the null stream runs it now, after the
/// device's blocking streams drain (HIP's legacy default stream).
///
/// # Safety
/// `op`'s host places are live host memory of their length, and its host
/// function is callable with its data, until the op has run (the contract
/// of the call that queues it).
unsafe fn enqueue(sim: &Sim, stream: handle, op: Op) -> Call {
    let (target, _) = resolve_stream(sim, stream)?;
    // SAFETY: the caller's promise for `op`.
    unsafe { target.enqueue_all(sim, vec![op]) }
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
    pub(crate) unsafe fn enqueue_all(&self, sim: &Sim, ops: Vec<Op>) -> Call {
        match self {
            Target::Null => {
                sync_null_stream(sim)?;
                let ordinal = current_device(sim);
                // SAFETY: the caller's promise for `ops`.
                ops.into_iter()
                    .try_for_each(|op| unsafe { execute_on(ordinal, op) })
            }
            Target::Stream(s) => {
                // SAFETY: the caller's promise for `ops`.
                unsafe { s.submit(ops) };
                Ok(())
            }
        }
    }

    /// Waits for the work enqueued so far (the null stream: the device's
    /// blocking streams), leaving failures for the next synchronization.
    fn wait_idle(&self, sim: &Sim) {
        match self {
            Target::Null => registry()
                .blocking_streams(current_device(sim))
                .iter()
                .for_each(|s| s.wait_idle()),
            Target::Stream(s) => s.wait_idle(),
        }
    }
}

/// The target of a stream handle and the device it runs on (the null
/// stream: the current device).
pub(crate) fn resolve_stream(sim: &Sim, stream: handle) -> Result<(Target, i32), HipCode> {
    match of_handle(stream) {
        0 => Ok((Target::Null, current_device(sim))),
        s => {
            let s = registry().stream(s)?;
            let ordinal = s.ordinal;
            Ok((Target::Stream(s), ordinal))
        }
    }
}

/// Waits for the current device's blocking streams; their first failure,
/// else a fault the device keeps.
fn sync_null_stream(sim: &Sim) -> Call {
    let ordinal = current_device(sim);
    let streams = registry().blocking_streams(ordinal);
    streams.iter().try_for_each(|s| s.synchronize())?;
    device_fault(ordinal)
}

/// The device a stream runs on (the null stream: the current device).
fn stream_device(sim: &Sim, stream: handle) -> Result<i32, HipCode> {
    resolve_stream(sim, stream).map(|(_, ordinal)| ordinal)
}

/// Whether `len` bytes at `place` are pageable host memory: host memory
/// HIP did not allocate or register.
fn pageable(place: Place, len: usize) -> bool {
    match place {
        Place::Host(a) => !host_memory().is_known_range(a, len),
        Place::Device(_) => false,
    }
}

/// `hipMemcpy*`: a copy between host memory and device memory in stream
/// order, with what HIP promises about pageable host memory (memory HIP
/// neither allocated nor registered): a pageable source is consumed before
/// the call returns (ROCm stages it into pinned memory in the calling
/// thread; CUDA: "the function will return once the pageable buffer has
/// been copied to the staging memory"), and a copy into pageable memory
/// has completed when the call returns (CUDA: "for transfers from device
/// memory to pageable host memory, the function will return only once the
/// copy has completed"; ROCm waits for such a copy). Copies between device,
/// pinned and registered memory stay asynchronous.
///
/// # Safety
/// A side outside the simulated device memory is `len` bytes of the
/// client's host memory; pinned or registered, it stays live until the
/// copy has run in stream order.
unsafe fn copy(
    sim: &Sim,
    dst: *mut c_void,
    src: *const c_void,
    len: usize,
    kind: c_int,
    stream: handle,
) -> Call {
    if !MEMCPY_KINDS.contains(&kind) {
        return Err(HipCode::INVALID_VALUE);
    }
    if len == 0 {
        return Ok(());
    }
    let dst = place(sim, dst as usize, len)?;
    let src = place(sim, src as usize, len)?;
    let (target, ordinal) = resolve_stream(sim, stream)?;
    let op = if pageable(dst, len) {
        // Done before returning: drain the stream, then copy here (a
        // device whose kernel faulted has nothing trustworthy to copy).
        target.wait_idle(sim);
        device_fault(ordinal)?;
        // SAFETY: host places of `len` bytes, live for this call.
        return unsafe { execute(Op::Copy { dst, src, len }) };
    } else if let (Place::Host(s), true) = (src, pageable(src, len)) {
        // SAFETY: a host place of `len` bytes, live for this call.
        let bytes =
            unsafe { ptr::read_bytes(s as *const c_void, len) }.ok_or(HipCode::INVALID_VALUE)?;
        Op::Write { dst, bytes }
    } else {
        Op::Copy { dst, src, len }
    };
    // SAFETY: pinned or registered host places of `len` bytes, the caller's promise.
    unsafe { target.enqueue_all(sim, vec![op]) }
}

/// `hipMemset*`: `count` copies of `pattern` in stream order, into device
/// memory or host memory HIP allocated or registered (pageable memory is
/// `hipErrorInvalidValue`, as ROCm's memset validation answers).
///
/// # Safety
/// `dst`, outside the simulated device memory, is `count * pattern.len()`
/// bytes of the client's host memory, live until the fill has run.
unsafe fn fill(sim: &Sim, dst: *mut c_void, pattern: &[u8], count: usize, stream: handle) -> Call {
    let len = count
        .checked_mul(pattern.len())
        .ok_or(HipCode::INVALID_VALUE)?;
    if len == 0 {
        return Ok(());
    }
    let dst = place(sim, dst as usize, len)?;
    if pageable(dst, len) {
        return Err(HipCode::INVALID_VALUE);
    }
    let op = Op::Fill {
        dst,
        pattern: pattern.to_vec(),
        count,
    };
    // SAFETY: a host place of `len` bytes, the caller's promise.
    unsafe { enqueue(sim, stream, op) }
}

/// The explicit kernargs of a launch, laid out from `kernelParams` (one
/// pointer per explicit argument of the kernel's metadata) or taken from
/// `extra`'s buffer.
///
/// # Safety
/// `hipModuleLaunchKernel`'s contract: `params` is NULL or holds a pointer
/// to each explicit argument's value; `extra` is NULL or a
/// `HIP_LAUNCH_PARAM_*` list ending in `HIP_LAUNCH_PARAM_END` whose buffer
/// and size entries point at the buffer pointer and its size.
pub(crate) unsafe fn kernargs(
    sim: &Sim,
    function: u64,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<Vec<u8>, HipCode> {
    let (args, _) = sim.hip_function_args(function)?;
    if !extra.is_null() {
        // Read key by key: the array ends at HIP_LAUNCH_PARAM_END, not at a known length.
        let entry = |i: usize| {
            // SAFETY: the caller's promise for `params` and `extra`.
            unsafe { ptr::read_array(extra.wrapping_add(i).cast_const(), 1) }
                .and_then(|v| v.first().copied())
                .ok_or(HipCode::INVALID_VALUE)
        };
        let (mut buffer, mut size) = (None, None);
        let mut i = 0;
        loop {
            if i >= MAX_LAUNCH_EXTRA * 2 {
                return Err(HipCode::INVALID_VALUE);
            }
            match entry(i)? as usize {
                LAUNCH_PARAM_END => break,
                LAUNCH_PARAM_BUFFER_POINTER => buffer = Some(entry(i + 1)?),
                LAUNCH_PARAM_BUFFER_SIZE => size = Some(entry(i + 1)?),
                _ => return Err(HipCode::INVALID_VALUE),
            }
            i += 2;
        }
        let (Some(buffer), Some(size)) = (buffer, size) else {
            return Err(HipCode::INVALID_VALUE);
        };
        // SAFETY: the caller's promise for `params` and `extra`.
        let size = unsafe { ptr::read_array(size.cast_const().cast::<usize>(), 1) }
            .and_then(|v| v.first().copied())
            .ok_or(HipCode::INVALID_VALUE)?;
        // SAFETY: the caller's promise for `params` and `extra`.
        let base = unsafe { ptr::read_array(buffer.cast_const().cast::<*const c_void>(), 1) }
            .and_then(|v| v.first().copied())
            .ok_or(HipCode::INVALID_VALUE)?;
        // SAFETY: the caller's promise for `params` and `extra`.
        return unsafe { ptr::read_bytes(base, size) }.ok_or(HipCode::INVALID_VALUE);
    }
    let end = args
        .iter()
        .map(|&(o, s)| o as usize + s as usize)
        .max()
        .unwrap_or(0);
    let mut out = vec![0u8; end];
    if args.is_empty() {
        return Ok(out);
    }
    let pointers =
        // SAFETY: the caller's promise for `params` and `extra`.
        unsafe { ptr::read_array(params.cast_const(), args.len()) }.ok_or(HipCode::INVALID_VALUE)?;
    for (&(offset, size), &pointer) in args.iter().zip(&pointers) {
        // SAFETY: the caller's promise for `params` and `extra`.
        let bytes =
            unsafe { ptr::read_bytes(pointer, size as usize) }.ok_or(HipCode::INVALID_VALUE)?;
        if let Some(slot) = out.get_mut(offset as usize..offset as usize + size as usize) {
            slot.copy_from_slice(&bytes);
        }
    }
    Ok(out)
}

c_exports! {
    /// `hipDevicePrimaryCtxRetain`.
    ///
    /// # Safety
    /// `pctx` is NULL or points at a writable context handle.
    unsafe fn hipDevicePrimaryCtxRetain(pctx: *mut handle, dev: c_int) -> hipError_t {
        modelled(|sim| {
            if pctx.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let ctx = sim.hip_primary_ctx_retain(dev)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(pctx, as_handle(ctx)) }
        })
    }

    /// `hipDevicePrimaryCtxRelease`.
    fn hipDevicePrimaryCtxRelease(dev: c_int) -> hipError_t {
        modelled(|sim| sim.hip_primary_ctx_release(dev))
    }

    /// `hipCtxSetCurrent`: replaces the top of this thread's stack (null clears it).
    fn hipCtxSetCurrent(ctx: handle) -> hipError_t {
        call("hipCtxSetCurrent", |sim| {
            let ctx = of_handle(ctx);
            if ctx != 0 {
                sim.hip_context_device(ctx)?;
            }
            CONTEXTS.with(|c| {
                let mut c = c.borrow_mut();
                c.pop();
                if ctx != 0 {
                    c.push(ctx);
                }
            });
            Ok(())
        })
    }

    /// `hipCtxGetCurrent`: null when this thread has none.
    ///
    /// # Safety
    /// `ctx` is NULL or points at a writable context handle.
    unsafe fn hipCtxGetCurrent(ctx: *mut handle) -> hipError_t {
        call("hipCtxGetCurrent", |_| {
            let top = CONTEXTS.with(|c| c.borrow().last().copied()).unwrap_or(0);
            // SAFETY: the caller's contract (above).
            unsafe { put(ctx, as_handle(top)) }
        })
    }

    /// `hipCtxPushCurrent`.
    fn hipCtxPushCurrent(ctx: handle) -> hipError_t {
        call("hipCtxPushCurrent", |sim| {
            let ctx = of_handle(ctx);
            sim.hip_context_device(ctx)?;
            CONTEXTS.with(|c| c.borrow_mut().push(ctx));
            Ok(())
        })
    }

    /// `hipCtxPopCurrent`: the popped context (optional out-parameter).
    ///
    /// # Safety
    /// `ctx` is NULL or points at a writable context handle.
    unsafe fn hipCtxPopCurrent(ctx: *mut handle) -> hipError_t {
        call("hipCtxPopCurrent", |_| {
            let top = CONTEXTS
                .with(|c| c.borrow_mut().pop())
                .ok_or(HipCode::INVALID_CONTEXT)?;
            if !ctx.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(ctx, as_handle(top)) }?;
            }
            Ok(())
        })
    }

    /// `hipStreamCreateWithFlags`: a stream on the current device.
    ///
    /// # Safety
    /// `stream` is NULL or points at a writable stream handle.
    unsafe fn hipStreamCreateWithFlags(stream: *mut handle, flags: u32) -> hipError_t {
        call("hipStreamCreateWithFlags", |sim| {
            if stream.is_null() || flags & !crate::stream::STREAM_NON_BLOCKING != 0 {
                return Err(HipCode::INVALID_VALUE);
            }
            let ordinal = current_device(sim);
            let s = registry().create_stream(ordinal, flags)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(stream, as_handle(s)) }
        })
    }

    /// `hipStreamDestroy`: queued work runs first.
    fn hipStreamDestroy(stream: handle) -> hipError_t {
        call_with("hipStreamDestroy", || format!("{stream:?}"), |_| {
            let s = registry().remove_stream(of_handle(stream))?;
            retire(s);
            Ok(())
        })
    }

    /// `hipStreamSynchronize`: waits for the stream's work; the first
    /// failure of an enqueued operation, if any.
    fn hipStreamSynchronize(stream: handle) -> hipError_t {
        call_with("hipStreamSynchronize", || format!("{stream:?}"), |sim| match of_handle(stream) {
            0 => sync_null_stream(sim),
            s => {
                let s = registry().stream(s)?;
                s.synchronize()
            }
        })
    }

    /// `hipStreamQuery`: `hipErrorNotReady` while the stream (the null
    /// stream: the device's blocking streams) has work left; a fault its
    /// device keeps.
    fn hipStreamQuery(stream: handle) -> hipError_t {
        call_with("hipStreamQuery", || format!("{stream:?}"), |sim| {
            let ordinal = stream_device(sim, stream)?;
            device_fault(ordinal)?;
            let streams = match resolve_stream(sim, stream)?.0 {
                Target::Null => registry().blocking_streams(ordinal),
                Target::Stream(s) => vec![s],
            };
            let idle = streams.iter().all(|s| s.is_idle());
            if idle { Ok(()) } else { Err(HipCode::NOT_READY) }
        })
    }

    /// `hipDeviceSynchronize`: waits for every stream of the current
    /// device; their first failure, else a fault the device keeps.
    fn hipDeviceSynchronize() -> hipError_t {
        call("hipDeviceSynchronize", |sim| {
            let ordinal = current_device(sim);
            let streams = registry().device_streams(ordinal);
            let results: Vec<Call> = streams.iter().map(|s| s.synchronize()).collect();
            results.into_iter().collect::<Call>()?;
            device_fault(ordinal)
        })
    }

    /// `hipStreamWaitEvent`: later work on the stream waits for the
    /// event's last record (none: no wait).
    fn hipStreamWaitEvent(stream: handle, event: handle, flags: u32) -> hipError_t {
        call_with("hipStreamWaitEvent", || format!("{stream:?}, {event:?}"), |sim| {
            if flags != 0 {
                return Err(HipCode::INVALID_VALUE);
            }
            let event = registry().event(of_handle(event))?;
            let generation = event.last_recorded();
            if generation == 0 {
                return Ok(());
            }
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(sim, stream, Op::Wait(event, generation)) }
        })
    }

    /// `hipLaunchHostFunc`: `function(data)` runs on the stream's worker
    /// after the work before it.
    ///
    /// # Safety
    /// `function` is a host function taking `data`, callable from the stream's worker thread.
    unsafe fn hipLaunchHostFunc(stream: handle, function: HostFn, data: *mut c_void) -> hipError_t {
        call_with("hipLaunchHostFunc", || format!("{stream:?}"), |sim| {
            if function.is_none() {
                return Err(HipCode::INVALID_VALUE);
            }
            if of_handle(stream) == 0 {
                sync_null_stream(sim)?;
                // SAFETY: the caller's contract (above).
                unsafe { ptr::call_host_fn(function, data as usize) };
                return Ok(());
            }
            registry().stream(of_handle(stream))?.push(Op::HostFn {
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
        call("hipEventCreate", |_| {
            if event.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let e = registry().create_event(0)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(event, as_handle(e)) }
        })
    }

    /// `hipEventCreateWithFlags`.
    ///
    /// # Safety
    /// `event` is NULL or points at a writable event handle.
    unsafe fn hipEventCreateWithFlags(event: *mut handle, flags: u32) -> hipError_t {
        call("hipEventCreateWithFlags", |_| {
            if event.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let e = registry().create_event(flags)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(event, as_handle(e)) }
        })
    }

    /// `hipEventDestroy`.
    fn hipEventDestroy(event: handle) -> hipError_t {
        call_with("hipEventDestroy", || format!("{event:?}"), |_| registry().destroy_event(of_handle(event)))
    }

    /// `hipEventRecord`: completes when the stream's earlier work has.
    fn hipEventRecord(event: handle, stream: handle) -> hipError_t {
        call_with("hipEventRecord", || format!("{event:?}, {stream:?}"), |sim| {
            let event = registry().event(of_handle(event))?;
            let device = stream_device(sim, stream)?;
            let generation = event.begin_record(device);
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(sim, stream, Op::Record(event, generation)) }
        })
    }

    /// `hipEventQuery`: `hipErrorNotReady` until the last record completes;
    /// a fault its device keeps, whatever the record.
    fn hipEventQuery(event: handle) -> hipError_t {
        call_with("hipEventQuery", || format!("{event:?}"), |sim| {
            let event = registry().event(of_handle(event))?;
            event.device_fault()?;
            let (recorded, completed) = event.generations();
            sim.trace_note(|| format!("event {:#x}: #{recorded} recorded, #{completed} completed", event.handle));
            if completed >= recorded { Ok(()) } else { Err(HipCode::NOT_READY) }
        })
    }

    /// `hipEventSynchronize`: waits for the last record; then a fault its
    /// device keeps.
    fn hipEventSynchronize(event: handle) -> hipError_t {
        call_with("hipEventSynchronize", || format!("{event:?}"), |sim| {
            let event = registry().event(of_handle(event))?;
            let generation = event.last_recorded();
            sim.trace_note(|| format!("waits for event {:#x} #{generation}", event.handle));
            event.wait_for(generation);
            event.device_fault()
        })
    }

    /// `hipEventElapsedTime` in milliseconds between two completed records.
    ///
    /// # Safety
    /// `ms` is NULL or points at a writable `float`.
    unsafe fn hipEventElapsedTime(ms: *mut f32, start: handle, stop: handle) -> hipError_t {
        call("hipEventElapsedTime", |_| {
            if ms.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let (start, stop) = {
                let r = registry();
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

    /// `hipMalloc` on the current device.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMalloc(ptr_out: *mut *mut c_void, size: usize) -> hipError_t {
        modelled(|sim| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let address = sim.hip_malloc("hipMalloc", current_device(sim), size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocAsync`: allocated at once (earlier than stream order needs).
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocAsync(ptr_out: *mut *mut c_void, size: usize, stream: handle) -> hipError_t {
        modelled(|sim| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let ordinal = stream_device(sim, stream)?;
            let address = sim.hip_malloc("hipMallocAsync", ordinal, size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocFromPoolAsync`.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocFromPoolAsync(ptr_out: *mut *mut c_void, size: usize, pool: handle, stream: handle) -> hipError_t {
        modelled(|sim| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            if of_handle(stream) != 0 {
                registry().stream(of_handle(stream))?;
            }
            let address = sim.hip_malloc_from_pool(of_handle(pool), size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocManaged`: host memory both sides reach.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocManaged(ptr_out: *mut *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipMallocManaged", |_| {
            // hipMemAttachGlobal (1) or hipMemAttachHost (2).
            if ptr_out.is_null() || size == 0 || !(1..=2).contains(&flags) {
                return Err(HipCode::INVALID_VALUE);
            }
            let address = host_memory().allocate(size, HostKind::Managed)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as *mut c_void) }
        })
    }

    /// `hipFree`: a device or managed allocation; waits for the device as HIP does.
    fn hipFree(address: *mut c_void) -> hipError_t {
        modelled(|sim| {
            let a = address as usize;
            if a != 0 && host_memory().is_managed(a) {
                return sim.hip_external("hipFree", || host_memory().free(a, HostKind::Managed));
            }
            sim.hip_free("hipFree", a as u64)
        })
    }

    /// `hipFreeAsync`: freed in stream order.
    fn hipFreeAsync(address: *mut c_void, stream: handle) -> hipError_t {
        call_with("hipFreeAsync", || format!("{address:?}, {stream:?}"), |sim| {
            let a = address as u64;
            if a == 0 {
                return Ok(());
            }
            if !sim.hip_is_allocation(a) {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(sim, stream, Op::Free(a)) }
        })
    }

    /// `hipHostMalloc`: pinned host memory (real host memory here).
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipHostMalloc(ptr_out: *mut *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipHostMalloc", |_| {
            let _ = flags;
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            if size == 0 {
                // SAFETY: the caller's contract (above).
                return unsafe { put(ptr_out, std::ptr::null_mut()) };
            }
            let address = host_memory().allocate(size, HostKind::Pinned)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as *mut c_void) }
        })
    }

    /// `hipHostFree`.
    fn hipHostFree(address: *mut c_void) -> hipError_t {
        call("hipHostFree", |_| match address as usize {
            0 => Ok(()),
            a => host_memory().free(a, HostKind::Pinned),
        })
    }

    /// `hipHostGetDevicePointer`: pinned and registered memory is reached
    /// at its host address (one address space, as on ROCm).
    ///
    /// # Safety
    /// `dev_ptr` is NULL or points at a writable `void*`.
    unsafe fn hipHostGetDevicePointer(dev_ptr: *mut *mut c_void, host_ptr: *mut c_void, flags: u32) -> hipError_t {
        call("hipHostGetDevicePointer", |_| {
            if flags != 0 || dev_ptr.is_null() || !host_memory().is_known(host_ptr as usize) {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(dev_ptr, host_ptr) }
        })
    }

    /// `hipHostRegister`.
    fn hipHostRegister(host_ptr: *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipHostRegister", |_| {
            let _ = flags;
            host_memory().register(host_ptr as usize, size)
        })
    }

    /// `hipHostUnregister`.
    fn hipHostUnregister(host_ptr: *mut c_void) -> hipError_t {
        call("hipHostUnregister", |_| host_memory().unregister(host_ptr as usize))
    }

    /// `hipMemPrefetchAsync`: managed memory stays where it is.
    fn hipMemPrefetchAsync(address: *const c_void, count: usize, device: c_int, stream: handle) -> hipError_t {
        call("hipMemPrefetchAsync", |sim| {
            let _ = count;
            if !host_memory().is_known(address as usize) {
                return Err(HipCode::INVALID_VALUE);
            }
            // hipCpuDeviceId (-1) or a GPU.
            if device != -1 {
                sim.hip_device_get_attribute(amdgpu_sys::hip_types::HipDeviceAttribute::WarpSize.raw(), device)
                    .map_err(|_| HipCode::INVALID_DEVICE)?;
            }
            stream_device(sim, stream).map(|_| ())
        })
    }

    /// `hipMemPoolCreate` at the props' device location.
    ///
    /// # Safety
    /// `pool` is NULL or points at a writable pool handle; `props` is NULL or points at a `hipMemPoolProps`.
    unsafe fn hipMemPoolCreate(pool: *mut handle, props: *const c_void) -> hipError_t {
        modelled(|sim| {
            // hipMemPoolProps: allocType, handleTypes, location { type, id }.
            // SAFETY: the caller's contract (above).
            let fields = unsafe { ptr::read_array(props.cast::<i32>(), 4) }.ok_or(HipCode::INVALID_VALUE)?;
            let (location_type, id) = match fields.as_slice() {
                [_, _, t, id] => (*t, *id),
                _ => return Err(HipCode::INVALID_VALUE),
            };
            if pool.is_null() || location_type != 1 {
                return Err(HipCode::INVALID_VALUE);
            }
            let p = sim.hip_mem_pool_create(id)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(pool, as_handle(p)) }
        })
    }

    /// `hipMemPoolDestroy`.
    fn hipMemPoolDestroy(pool: handle) -> hipError_t {
        modelled(|sim| sim.hip_mem_pool_destroy(of_handle(pool)))
    }

    /// `hipMemPoolTrimTo`.
    fn hipMemPoolTrimTo(pool: handle, keep: usize) -> hipError_t {
        modelled(|sim| sim.hip_mem_pool_trim_to(of_handle(pool), keep as u64))
    }

    /// `hipMemPoolGetAttribute`: `int` for the reuse flags, `uint64_t` otherwise.
    ///
    /// # Safety
    /// `value` is NULL or points at the attribute's C type (`int` or `uint64_t`).
    unsafe fn hipMemPoolGetAttribute(pool: handle, attr: c_int, value: *mut c_void) -> hipError_t {
        modelled(|sim| {
            let v = sim.hip_mem_pool_get_attribute(of_handle(pool), attr)?;
            if attr <= amdgpu_sim::hip_memory::pool_attribute::REUSE_ALLOW_INTERNAL_DEPENDENCIES {
                // SAFETY: the caller's contract (above).
                unsafe { put(value.cast::<i32>(), v as i32) }
            } else {
                // SAFETY: the caller's contract (above).
                unsafe { put(value.cast::<u64>(), v) }
            }
        })
    }

    /// `hipMemPoolSetAttribute`.
    ///
    /// # Safety
    /// `value` is NULL or points at the attribute's C type (`int` or `uint64_t`).
    unsafe fn hipMemPoolSetAttribute(pool: handle, attr: c_int, value: *mut c_void) -> hipError_t {
        modelled(|sim| {
            let v = if attr <= amdgpu_sim::hip_memory::pool_attribute::REUSE_ALLOW_INTERNAL_DEPENDENCIES {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_array(value.cast_const().cast::<i32>(), 1) }
                    .and_then(|v| v.first().map(|&x| x as u64))
            } else {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_array(value.cast_const().cast::<u64>(), 1) }.and_then(|v| v.first().copied())
            };
            let v = v.ok_or(HipCode::INVALID_VALUE)?;
            sim.hip_mem_pool_set_attribute(of_handle(pool), attr, v)
        })
    }

    /// `hipMemcpy`: synchronous, on the null stream.
    ///
    /// # Safety
    /// A side outside device memory is `size` bytes of the caller's host memory (readable `src`, writable `dst`).
    unsafe fn hipMemcpy(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemcpy", |sim| unsafe { copy(sim, dst, src, size, kind, std::ptr::null_mut()) })
    }

    /// `hipMemcpyAsync`.
    ///
    /// # Safety
    /// A side outside device memory is `size` bytes of the caller's host memory, live until the copy has run in stream order.
    unsafe fn hipMemcpyAsync(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyAsync", || format!("{dst:?}, {src:?}, {size}, {kind}, {stream:?}"), |sim| unsafe { copy(sim, dst, src, size, kind, stream) })
    }

    /// `hipMemcpyHtoDAsync`.
    ///
    /// # Safety
    /// `src` is `size` bytes of the caller's host memory, live until the copy has run in stream order.
    unsafe fn hipMemcpyHtoDAsync(dst: *mut c_void, src: *mut c_void, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyHtoDAsync", || format!("{dst:?}, {src:?}, {size}, {stream:?}"), |sim| unsafe { copy(sim, dst, src, size, 1, stream) })
    }

    /// `hipMemset`: synchronous byte fill.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `size` writable bytes of the caller's host memory.
    unsafe fn hipMemset(dst: *mut c_void, value: c_int, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemset", |sim| unsafe { fill(sim, dst, &[value as u8], size, std::ptr::null_mut()) })
    }

    /// `hipMemsetAsync`: byte fill.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `size` bytes of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetAsync(dst: *mut c_void, value: c_int, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemsetAsync", |sim| unsafe { fill(sim, dst, &[value as u8], size, stream) })
    }

    /// `hipMemsetD8Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` bytes of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD8Async(dst: *mut c_void, value: u8, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD8Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |sim| unsafe { fill(sim, dst, &[value], count, stream) })
    }

    /// `hipMemsetD16Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 16-bit values of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD16Async(dst: *mut c_void, value: u16, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD16Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |sim| unsafe { fill(sim, dst, &value.to_le_bytes(), count, stream) })
    }

    /// `hipMemsetD32Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 32-bit values of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD32Async(dst: *mut c_void, value: c_int, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD32Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |sim| unsafe { fill(sim, dst, &value.to_le_bytes(), count, stream) })
    }

    /// `hipModuleLoadData`: a code object (or offload bundle) on the current device.
    ///
    /// # Safety
    /// `module` is NULL or points at a writable module handle; `image` is NULL or a code object or offload bundle whose headers describe its extent.
    unsafe fn hipModuleLoadData(module: *mut handle, image: *const c_void) -> hipError_t {
        // SAFETY: the caller's contract (above).
        modelled(|sim| unsafe { load_module(sim, "hipModuleLoadData", module, image) })
    }

    /// `hipModuleLoadDataEx`: the JIT options do not apply to code objects.
    ///
    /// # Safety
    /// `module` is NULL or points at a writable module handle; `image` is NULL or a code object or offload bundle whose headers describe its extent.
    unsafe fn hipModuleLoadDataEx(module: *mut handle, image: *const c_void, num_options: u32,
        options: *mut c_int, option_values: *mut *mut c_void) -> hipError_t {
        let _ = (num_options, options, option_values);
        // SAFETY: the caller's contract (above).
        modelled(|sim| unsafe { load_module(sim, "hipModuleLoadDataEx", module, image) })
    }

    /// `hipModuleUnload`.
    fn hipModuleUnload(module: handle) -> hipError_t {
        modelled(|sim| sim.hip_module_unload(of_handle(module)))
    }

    /// `hipModuleGetFunction`.
    ///
    /// # Safety
    /// `function` is NULL or points at a writable function handle; `name` is NULL or NUL-terminated.
    unsafe fn hipModuleGetFunction(function: *mut handle, module: handle, name: *const c_char) -> hipError_t {
        modelled(|sim| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(name) }.ok_or(HipCode::INVALID_VALUE)?;
            if function.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let f = sim.hip_module_get_function(of_handle(module), &name)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(function, as_handle(f)) }
        })
    }

    /// `hipModuleGetGlobal`: either out-parameter may be null.
    ///
    /// # Safety
    /// `dptr` and `bytes` are NULL or point at a writable `void*` and `size_t`; `name` is NULL or NUL-terminated.
    unsafe fn hipModuleGetGlobal(dptr: *mut *mut c_void, bytes: *mut usize, module: handle, name: *const c_char) -> hipError_t {
        modelled(|sim| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(name) }.ok_or(HipCode::INVALID_VALUE)?;
            let (address, size) = sim.hip_module_get_global(of_handle(module), &name)?;
            if !dptr.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(dptr, address as usize as *mut c_void) }?;
            }
            if !bytes.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(bytes, size as usize) }?;
            }
            Ok(())
        })
    }

    /// `hipFuncGetAttribute(&value, attribute, function)`.
    ///
    /// # Safety
    /// `value` is NULL or points at a writable `int`.
    unsafe fn hipFuncGetAttribute(value: *mut c_int, attribute: c_int, function: handle) -> hipError_t {
        modelled(|sim| {
            if value.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(value, sim.hip_func_get_attribute(of_handle(function), attribute)?) }
        })
    }

    /// `hipFuncSetAttribute(function, attribute, value)`.
    fn hipFuncSetAttribute(function: *const c_void, attribute: c_int, value: c_int) -> hipError_t {
        modelled(|sim| sim.hip_func_set_attribute(function as usize as u64, attribute, value))
    }

    /// `hipModuleLaunchKernel`: checked and recorded now; the kernel runs in
    /// stream order.
    ///
    /// # Safety
    /// `kernel_params` is NULL or holds a pointer to each explicit argument's value; `extra` is NULL or a `HIP_LAUNCH_PARAM_*` list ending in `HIP_LAUNCH_PARAM_END`.
    unsafe fn hipModuleLaunchKernel(f: handle, grid_dim_x: u32, grid_dim_y: u32, grid_dim_z: u32,
        block_dim_x: u32, block_dim_y: u32, block_dim_z: u32, shared_mem_bytes: u32,
        stream: handle, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) -> hipError_t {
        modelled(|sim| {
            let ordinal = stream_device(sim, stream)?;
            let function = of_handle(f);
            // SAFETY: the caller's contract (above).
            let kernargs = unsafe { kernargs(sim, function, kernel_params, extra) }?;
            let request = LaunchRequest {
                function,
                ordinal,
                grid: [grid_dim_x, grid_dim_y, grid_dim_z],
                block: [block_dim_x, block_dim_y, block_dim_z],
                shared_bytes: shared_mem_bytes,
            };
            match sim.hip_module_launch_kernel(&request, kernargs).inspect_err(|&code| {
                // A kernel the node cannot run (said on stderr) ends the
                // process, or leaves its device failed.
                if code == HipCode::LAUNCH_FAILURE {
                    crate::device_fault::kernel_unrunnable(None);
                    crate::device_fault::record(ordinal, code);
                }
            })? {
                // SAFETY: a kernel op touches no memory of the caller's
                // beyond what HIP allocated or registered.
                Some(run) => unsafe { enqueue(sim, stream, Op::Kernel(Box::new(run))) },
                None => Ok(()),
            }
        })
    }
}

/// `hipModuleLoadData*`.
///
/// # Safety
/// `module` is NULL or points at a writable handle; `image` is NULL or a
/// code object or offload bundle whose headers describe its own extent.
unsafe fn load_module(
    sim: &Sim,
    op: &'static str,
    module: *mut handle,
    image: *const c_void,
) -> Call {
    if module.is_null() || image.is_null() {
        return Err(HipCode::INVALID_VALUE);
    }
    let ordinal = current_device(sim);
    // SAFETY: the caller's promise for `image` and `module`.
    let bytes = unsafe { read_image(sim, ordinal, image) }?;
    let m = sim.hip_module_load_shared(op, ordinal, bytes)?;
    // SAFETY: the caller's promise for `image` and `module`.
    unsafe { put(module, as_handle(m)) }
}
