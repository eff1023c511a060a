//! What each stream operation does when it runs: copies and fills
//! between device memory and the client's host memory, host functions,
//! event records and waits, stream-ordered frees, a launched graph's copy
//! and fill nodes, and kernels.
//!
//! A kernel's hostcalls (device-side `printf`) are served by
//! `super::hostcall` while it runs.
//!
//! A launch is checked and recorded when it is enqueued (see
//! `amdgpu_sim::hip_module`); its kernel executes when the stream reaches
//! it, over device memory and the host memory HIP allocated or registered
//! (any other host address is a fault, never a dereference).

use amdgpu_sim::HipCode;
use amdgpu_sim::kernel_exec::KernelRun;

use crate::core::graphs::Work;
use crate::core::hip_call::Call;
use crate::core::host_memory::KnownHostMemory;
use crate::core::place::Place;
use crate::core::ptr;
use crate::core::runtime::Runtime;
use crate::core::streams::Op;
use crate::core::timeline::{self, Arg, Track, WorkSpan};
use crate::device_fault;

use super::hostcall::Hostcalls;

/// Runs one operation now (on a stream's worker, or inline for the null stream).
///
/// # Safety
/// The op's host places are live host memory of their length and its host
/// function is callable with its data: the contract of the call that
/// queued it (every op is queued through `super::stream`'s `enqueue` or
/// `Target::enqueue_all`, whose callers promise this).
pub(crate) unsafe fn execute(rt: &Runtime, op: Op) -> Call {
    let sim = &rt.sim;
    match op {
        Op::Copy { dst, src, len } => match (dst, src) {
            (Place::Host(d), Place::Host(s)) => {
                // SAFETY: both host places, the caller's promise for `op`.
                unsafe { ptr::host_copy(d, s, len) };
                Ok(())
            }
            (Place::Device(d), Place::Host(s)) => {
                // SAFETY: a host place of `len` bytes, the caller's promise.
                let bytes =
                    unsafe { ptr::read_bytes(s as *const _, len) }.ok_or(HipCode::INVALID_VALUE)?;
                sim.hip_write(d, &bytes)
            }
            (Place::Host(d), Place::Device(s)) => {
                let mut bytes = vec![0u8; len];
                sim.hip_read(s, &mut bytes)?;
                // SAFETY: a host place of `bytes.len()` bytes, the caller's promise.
                if !unsafe { ptr::write_bytes(d as *mut _, &bytes) } {
                    return Err(HipCode::INVALID_VALUE);
                }
                rt.read_back.record(&bytes);
                Ok(())
            }
            (Place::Device(d), Place::Device(s)) => {
                let mut bytes = vec![0u8; len];
                sim.hip_read(s, &mut bytes)?;
                sim.hip_write(d, &bytes)
            }
        },
        Op::Fill {
            dst,
            pattern,
            count,
        } => match dst {
            Place::Device(d) => sim.hip_fill(d, &pattern, count as u64),
            Place::Host(d) => {
                let bytes: Vec<u8> = pattern
                    .iter()
                    .copied()
                    .cycle()
                    .take(pattern.len().saturating_mul(count))
                    .collect();
                // SAFETY: a host place of `bytes.len()` bytes, the caller's promise.
                unsafe { ptr::write_bytes(d as *mut _, &bytes) }
                    .then_some(())
                    .ok_or(HipCode::INVALID_VALUE)
            }
        },
        Op::HostFn { function, data } => {
            // SAFETY: the host function and data, the caller's promise.
            unsafe { ptr::call_host_fn(function, data) };
            Ok(())
        }
        Op::Record(event, generation) => {
            event.complete(generation);
            Ok(())
        }
        Op::Wait(event, generation) => {
            event.wait_for(generation);
            Ok(())
        }
        Op::Free(address) => sim.hip_release(address),
        Op::Write { dst, bytes } => match dst {
            Place::Device(d) => sim.hip_write(d, &bytes),
            // SAFETY: a host place of `bytes.len()` bytes, the caller's promise.
            Place::Host(d) => unsafe { ptr::write_bytes(d as *mut _, &bytes) }
                .then_some(())
                .ok_or(HipCode::INVALID_VALUE),
        },
        Op::Node(node) => match node.work() {
            // SAFETY: the node's host memory, the caller's promise for `op`.
            Some(work) => unsafe { run_node(rt, work) },
            None => Ok(()),
        },
        Op::Kernel(run) => execute_kernel(rt, &run),
    }
}

/// [`execute`] for stream `stream` (0: the null stream) of device
/// `ordinal`, a slice on the stream's track of the timeline: a kernel that
/// fails leaves its error on the device (`crate::device_fault`).
///
/// # Safety
/// As [`execute`].
pub(crate) unsafe fn execute_on(rt: &Runtime, stream: u64, ordinal: i32, op: Op) -> Call {
    let kernel = matches!(op, Op::Kernel(_));
    let track = Track::Stream {
        handle: stream,
        device: ordinal,
    };
    let _slice = WorkSpan::begin(
        rt.timeline,
        track,
        "stream",
        || op_name(&op),
        || op_args(&op),
    );
    // SAFETY: the caller's promise, passed on.
    let result = unsafe { execute(rt, op) };
    if let (true, Err(code)) = (kernel, result) {
        rt.device_faults.record(ordinal, code);
    }
    result
}

/// An operation's slice name: a kernel's name, else what it does.
fn op_name(op: &Op) -> String {
    match op {
        Op::Copy { dst, src, .. } => format!("copy {}", direction(*src, *dst)),
        Op::Fill { .. } => "fill".into(),
        Op::HostFn { .. } => "host function".into(),
        Op::Record(..) => "record event".into(),
        Op::Wait(..) => "wait event".into(),
        Op::Free(_) => "free".into(),
        // A copy whose pageable source HIP took when the call was made.
        Op::Write { dst, .. } => format!("copy {}", direction(Place::Host(0), *dst)),
        Op::Node(_) => "graph node".into(),
        Op::Kernel(run) => run.kernel().to_string(),
    }
}

/// HIP's name of a copy's direction.
fn direction(src: Place, dst: Place) -> &'static str {
    match (src, dst) {
        (Place::Host(_), Place::Host(_)) => "HtoH",
        (Place::Host(_), Place::Device(_)) => "HtoD",
        (Place::Device(_), Place::Host(_)) => "DtoH",
        (Place::Device(_), Place::Device(_)) => "DtoD",
    }
}

/// An operation's slice arguments: a kernel's grid and block, a copy's
/// or fill's extent, and what the text trace says of it.
fn op_args(op: &Op) -> Vec<(&'static str, Arg)> {
    let mut args = match op {
        Op::Kernel(run) => vec![
            ("grid", Arg::Dims(run.grid())),
            ("block", Arg::Dims(run.block())),
        ],
        Op::Copy { len, .. } => vec![("bytes", Arg::Number(*len as u64))],
        Op::Fill { pattern, count, .. } => {
            vec![("bytes", Arg::Number((pattern.len() * count) as u64))]
        }
        Op::Write { bytes, .. } => vec![("bytes", Arg::Number(bytes.len() as u64))],
        _ => Vec::new(),
    };
    args.push(("what", Arg::Text(op.describe())));
    args
}

/// Runs a launched node's copy or fill (an [`Op::Node`] on a stream's worker).
///
/// # Safety
/// The node's host places are live host memory of their extent when it
/// runs: the contract of `hipGraphLaunch`'s caller (the memory a graph's
/// nodes name stays valid until the launch has completed).
unsafe fn run_node(rt: &Runtime, work: &Work) -> Call {
    match work {
        Work::Memset {
            dst,
            pattern,
            width,
            pitch,
            rows,
        } => {
            for row in 0..*rows {
                let at = match *dst {
                    Place::Device(a) => Place::Device(a + (row * pitch) as u64),
                    Place::Host(a) => Place::Host(a + row * pitch),
                };
                let op = Op::Fill {
                    dst: at,
                    pattern: pattern.clone(),
                    count: *width,
                };
                // SAFETY: the caller's promise for this node's memory.
                unsafe { execute(rt, op) }?;
            }
            Ok(())
        }
        Work::Memcpy {
            dst,
            src,
            width,
            rows,
        } => {
            for z in 0..rows.depth {
                for y in 0..rows.height {
                    let op = Op::Copy {
                        dst: dst.row(y, z),
                        src: src.row(y, z),
                        len: *width,
                    };
                    // SAFETY: the caller's promise for this node's memory.
                    unsafe { execute(rt, op) }?;
                }
            }
            Ok(())
        }
        Work::Empty | Work::Kernel { .. } | Work::EventRecord(_) => Ok(()),
    }
}

/// Executes a launch's kernel on the node (a fault aborts the process
/// unless `AMDGPU_SIM_ON_FAULT=report`: `crate::device_fault`).
fn execute_kernel(rt: &Runtime, run: &KernelRun) -> Call {
    // The kernel's host memory serves its hostcalls (device `printf`); what
    // it printed is written out when it ends, faulted or not.
    let mut host = Hostcalls::new(KnownHostMemory(&rt.host_memory));
    let result = rt.sim.hip_execute_kernel(run, &mut host);
    host.print();
    match result {
        Ok(stats) => {
            if let Some(timeline) = rt.timeline {
                timeline.annotate_work(None, timeline::executed(stats));
            }
        }
        Err(HipCode::ILLEGAL_ADDRESS) => device_fault::kernel_faulted(rt, run.kernel(), None),
        Err(HipCode::LAUNCH_FAILURE) => device_fault::kernel_unrunnable(rt, None),
        Err(_) => {}
    }
    result.map(drop)
}
