//! HIP graphs: the entry points IREE's HIP driver loads for its graph
//! command buffers (`--hip_use_streams=false`): create a graph, add empty,
//! kernel, memset, memcpy and event-record nodes after their dependencies,
//! instantiate it, launch the instance on a stream, destroy both.
//!
//! A node can only depend on nodes added before it (no entry point here
//! adds an edge later), so the order nodes were added in is a topological
//! order of the graph; an instance keeps a copy of the nodes in that order,
//! and a launch enqueues them on the stream as one run of stream
//! operations. Running them one after another honours every dependency
//! (and orders more than the graph asks, which a client cannot tell from
//! the results). The instance is independent of its graph: destroying the
//! graph after instantiating it leaves the instance launchable, as in HIP
//! and CUDA.
//!
//! Errors are ROCm's (clr `hipamd/src/hip_graph.cpp` and the validators of
//! `hip_memory.cpp` it calls), with two differences where clr has none to
//! give: a graph, event or instance handle that is not live is
//! `hipErrorInvalidValue` here (clr dereferences it), and a node whose
//! dependencies are refused is not added (clr adds it, then fails).
//! Kernel nodes are checked against the function and device as
//! `hipModuleLaunchKernel` is, when added, and recorded as launches when the
//! graph runs; each kernel then executes in its place among the nodes (see
//! `crate::hip::stream`).

use std::ffi::{c_uint, c_void};
use std::sync::Arc;

use amdgpu_sim::HipCode;
use amdgpu_sim::hip_module::LaunchRequest;

use super::context::current_device;
use super::module::kernargs;
use super::stream::resolve_stream;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::graphs::{MAX_GRAPH_NODES, NodeRun, Rows, Side, Work};
use crate::core::hip_call::{Call, call, handle};
use crate::core::place::Place;
use crate::core::ptr;
use crate::core::runtime::Runtime;
use crate::core::streams::Op;
use crate::device_fault;

/// `hipMemoryType` as ROCm 6 numbers it (`hip_runtime_api.h`; the HIP 5
/// headers Debian ships number them from 0). `HIP_MEMCPY3D` names its two
/// sides with these.
pub(crate) mod memory_type {
    /// `hipMemoryTypeHost`: the `*Host` field names the memory.
    pub const HOST: u32 = 1;
    /// `hipMemoryTypeDevice`: the `*Device` field.
    pub const DEVICE: u32 = 2;
    /// `hipMemoryTypeUnified`: the `*Device` field, host or device memory.
    pub const UNIFIED: u32 = 11;
}

/// `hipMemsetParams` (`hip_runtime_api.h`, the same in HIP 5 and 6).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
#[allow(non_snake_case)]
pub struct hipMemsetParams {
    /// Destination.
    pub dst: *mut c_void,
    /// 1, 2 or 4 bytes per element.
    pub elementSize: c_uint,
    /// Rows.
    pub height: usize,
    /// Bytes from one row to the next.
    pub pitch: usize,
    /// The value (its low `elementSize` bytes).
    pub value: c_uint,
    /// Elements per row.
    pub width: usize,
}
const _: () = assert!(size_of::<hipMemsetParams>() == 48);

/// `HIP_MEMCPY3D` as ROCm 6 lays it out (`driver_types.h`; IREE's HIP
/// driver is built against it): offsets, pitches and sizes are `size_t`
/// (HIP 5's header, Debian's, has `unsigned int` there).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
#[allow(non_snake_case)]
pub struct HIP_MEMCPY3D {
    /// Source byte offset within a row.
    pub srcXInBytes: usize,
    /// Source first row.
    pub srcY: usize,
    /// Source first slice.
    pub srcZ: usize,
    /// Source mipmap level (arrays only).
    pub srcLOD: usize,
    /// `hipMemoryType` of the source.
    pub srcMemoryType: u32,
    /// Source host pointer.
    pub srcHost: *const c_void,
    /// Source device pointer.
    pub srcDevice: *mut c_void,
    /// Source array.
    pub srcArray: *mut c_void,
    /// Source bytes per row.
    pub srcPitch: usize,
    /// Source rows per slice.
    pub srcHeight: usize,
    /// Destination byte offset within a row.
    pub dstXInBytes: usize,
    /// Destination first row.
    pub dstY: usize,
    /// Destination first slice.
    pub dstZ: usize,
    /// Destination mipmap level (arrays only).
    pub dstLOD: usize,
    /// `hipMemoryType` of the destination.
    pub dstMemoryType: u32,
    /// Destination host pointer.
    pub dstHost: *mut c_void,
    /// Destination device pointer.
    pub dstDevice: *mut c_void,
    /// Destination array.
    pub dstArray: *mut c_void,
    /// Destination bytes per row.
    pub dstPitch: usize,
    /// Destination rows per slice.
    pub dstHeight: usize,
    /// Bytes per row.
    pub WidthInBytes: usize,
    /// Rows per slice.
    pub Height: usize,
    /// Slices.
    pub Depth: usize,
}
const _: () = assert!(size_of::<HIP_MEMCPY3D>() == 184);

/// `hipKernelNodeParams` (`hip_runtime_api.h`, the same in HIP 5 and 6).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
#[allow(non_snake_case)]
pub struct hipKernelNodeParams {
    /// Work-items per work-group.
    pub blockDim: dim3,
    /// `HIP_LAUNCH_PARAM_*` list, or NULL.
    pub extra: *mut *mut c_void,
    /// The `hipFunction_t`.
    pub func: *mut c_void,
    /// Work-groups.
    pub gridDim: dim3,
    /// One pointer per explicit argument, or NULL.
    pub kernelParams: *mut *mut c_void,
    /// Dynamic LDS bytes.
    pub sharedMemBytes: c_uint,
}
const _: () = assert!(size_of::<hipKernelNodeParams>() == 64);

/// A copy of the parameter struct at `params`; NULL is `hipErrorInvalidValue`.
///
/// # Safety
/// `params` is NULL or points at an initialized `T`.
unsafe fn read_params<T: Copy>(params: *const T) -> Result<T, HipCode> {
    // SAFETY: the caller's promise.
    unsafe { ptr::read_array(params, 1) }
        .and_then(|v| v.first().copied())
        .ok_or(HipCode::INVALID_VALUE)
}

/// The dependency list `pDependencies[0..count]`.
///
/// # Safety
/// `deps` is NULL or points at `count` node handles.
unsafe fn dependencies(deps: *const handle, count: usize) -> Result<Vec<u64>, HipCode> {
    if count > MAX_GRAPH_NODES {
        return Err(HipCode::INVALID_VALUE);
    }
    // SAFETY: the caller's promise.
    let list = unsafe { ptr::read_array(deps, count) }.ok_or(HipCode::INVALID_VALUE)?;
    Ok(list.into_iter().map(|d| d as usize as u64).collect())
}

/// The common part of every `hipGraphAdd*Node`: checks the out-parameter,
/// the graph and the dependencies, adds the node, writes its handle.
///
/// # Safety
/// `node_out` is NULL or points at a writable node handle; `deps` is NULL
/// or points at `count` node handles.
unsafe fn add_node(
    rt: &Runtime,
    node_out: *mut handle,
    graph: handle,
    deps: *const handle,
    count: usize,
    work: impl FnOnce() -> Result<Work, HipCode>,
) -> Call {
    if node_out.is_null() || graph.is_null() {
        return Err(HipCode::INVALID_VALUE);
    }
    // SAFETY: the caller's promise.
    let deps = unsafe { dependencies(deps, count) }?;
    let work = work()?;
    let node = rt
        .graphs()
        .add(&rt.handles, graph as usize as u64, &deps, work)?;
    // SAFETY: the caller's promise.
    unsafe { ptr::write(node_out.cast(), node as usize as handle) }
        .then_some(())
        .ok_or(HipCode::INVALID_VALUE)
}

/// Where `len` bytes at `address` are, for a graph node: device memory
/// (one allocation), or host memory HIP knows (pinned, registered,
/// managed). Pageable memory is refused, as clr's memset and memcpy node
/// validators refuse an address they do not track.
fn tracked(rt: &Runtime, address: usize, len: usize) -> Result<Place, HipCode> {
    if address == 0 {
        return Err(HipCode::INVALID_VALUE);
    }
    if rt.sim.hip_is_device(address as u64) {
        return rt
            .sim
            .hip_is_device_range(address as u64, len as u64)
            .then_some(Place::Device(address as u64))
            .ok_or(HipCode::INVALID_VALUE);
    }
    rt.host_memory()
        .is_known_range(address, len)
        .then_some(Place::Host(address))
        .ok_or(HipCode::INVALID_VALUE)
}

/// The extent in bytes of `rows` rows of `width` bytes, `pitch` apart, in
/// `depth` slices of `slice_rows` rows, starting at row `y`, slice `z`,
/// byte `x`: where the last byte touched ends.
fn extent(
    x: usize,
    y: usize,
    z: usize,
    pitch: usize,
    slice_rows: usize,
    width: usize,
    rows: Rows,
) -> Option<usize> {
    let last_row = y.checked_add(rows.height - 1)?;
    let last_slice = z.checked_add(rows.depth - 1)?;
    let slice = pitch.checked_mul(slice_rows)?;
    last_slice
        .checked_mul(slice)?
        .checked_add(last_row.checked_mul(pitch)?)?
        .checked_add(x)?
        .checked_add(width)
}

/// One side of a `HIP_MEMCPY3D`, resolved as clr's `ihipCopyMemParamSet`
/// does: `Host` names the `*Host` pointer, `Device` the `*Device` pointer,
/// `Unified` the `*Device` pointer wherever it lies; any other type
/// (arrays, managed, unregistered) is refused.
#[allow(clippy::too_many_arguments)]
fn side(
    rt: &Runtime,
    memory_type: u32,
    host: usize,
    device: usize,
    (x, y, z, lod): (usize, usize, usize, usize),
    pitch: usize,
    slice_rows: usize,
    width: usize,
    rows: Rows,
) -> Result<Side, HipCode> {
    if lod != 0 {
        return Err(HipCode::INVALID_VALUE);
    }
    let multi_row = rows.height > 1 || rows.depth > 1;
    let pitch = if multi_row { pitch } else { pitch.max(width) };
    if pitch < width || (rows.depth > 1 && slice_rows < rows.height) {
        return Err(HipCode::INVALID_VALUE);
    }
    let end = extent(x, y, z, pitch, slice_rows, width, rows).ok_or(HipCode::INVALID_VALUE)?;
    let base = match memory_type {
        memory_type::HOST => host,
        memory_type::DEVICE | memory_type::UNIFIED => device,
        _ => return Err(HipCode::INVALID_VALUE),
    };
    if base == 0 {
        return Err(HipCode::INVALID_VALUE);
    }
    let start = base.checked_add(x).ok_or(HipCode::INVALID_VALUE)?;
    let place = match memory_type {
        // Pageable host memory is what a host side may be.
        memory_type::HOST if !rt.sim.hip_is_device(base as u64) => Place::Host(start),
        memory_type::UNIFIED if !rt.sim.hip_is_device(base as u64) => Place::Host(start),
        _ => {
            if !rt.sim.hip_is_device_range(base as u64, end as u64) {
                // A device side must be one allocation (or known host memory).
                tracked(rt, base, end)?;
                Place::Host(start)
            } else {
                Place::Device(start as u64)
            }
        }
    };
    Ok(Side {
        place,
        pitch,
        slice_rows,
    })
}

/// `width` copies of the low `element_size` bytes of `value`, as a pattern.
fn memset_pattern(value: u32, element_size: u32) -> Result<Vec<u8>, HipCode> {
    match element_size {
        1 | 2 | 4 => Ok(value.to_le_bytes()[..element_size as usize].to_vec()),
        _ => Err(HipCode::INVALID_VALUE),
    }
}

c_exports! {
    /// `hipGraphCreate`: an empty graph (`flags` must be 0).
    ///
    /// # Safety
    /// `graph` is NULL or points at a writable graph handle.
    unsafe fn hipGraphCreate(graph: *mut handle, flags: c_uint) -> hipError_t {
        call("hipGraphCreate", |rt| {
            if graph.is_null() || flags != 0 {
                return Err(HipCode::INVALID_VALUE);
            }
            let h = rt.graphs().create(&rt.handles)?;
            // SAFETY: the caller's contract (above).
            unsafe { ptr::write(graph.cast(), h as usize as handle) }
                .then_some(())
                .ok_or(HipCode::INVALID_VALUE)
        })
    }

    /// `hipGraphDestroy`: its instances live on. A graph already
    /// destroyed is `hipErrorIllegalState`, as clr answers.
    fn hipGraphDestroy(graph: handle) -> hipError_t {
        call("hipGraphDestroy", |rt| {
            if graph.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            rt.graphs().destroy(graph as usize as u64).ok_or(HipCode(hipErrorIllegalState))
        })
    }

    /// `hipGraphAddEmptyNode`.
    ///
    /// # Safety
    /// `node` is NULL or points at a writable node handle; `deps` is NULL or points at `count` node handles.
    unsafe fn hipGraphAddEmptyNode(node: *mut handle, graph: handle, deps: *const handle, count: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipGraphAddEmptyNode", |rt| unsafe { add_node(rt, node, graph, deps, count, || Ok(Work::Empty)) })
    }

    /// `hipGraphAddEventRecordNode`: records `event` when the graph runs.
    ///
    /// # Safety
    /// `node` is NULL or points at a writable node handle; `deps` is NULL or points at `count` node handles.
    unsafe fn hipGraphAddEventRecordNode(node: *mut handle, graph: handle, deps: *const handle, count: usize, event: handle) -> hipError_t {
        call("hipGraphAddEventRecordNode", |rt| {
            let work = || {
                let e = event as usize as u64;
                rt.streams().event(e).map_err(|_| HipCode::INVALID_VALUE)?;
                Ok(Work::EventRecord(e))
            };
            // SAFETY: the caller's contract (above).
            unsafe { add_node(rt, node, graph, deps, count, work) }
        })
    }

    /// `hipGraphAddKernelNode`: the launch is checked now, against the
    /// current device, as `hipModuleLaunchKernel` checks one (a zero grid
    /// or block dimension is `hipErrorInvalidValue` here, as clr's
    /// validator has it), and its kernargs are laid out now.
    ///
    /// # Safety
    /// `node` is NULL or points at a writable node handle; `deps` is NULL or points at `count` node handles; `params` is NULL or points at a `hipKernelNodeParams` whose `kernelParams`/`extra` follow `hipModuleLaunchKernel`'s contract.
    unsafe fn hipGraphAddKernelNode(node: *mut handle, graph: handle, deps: *const handle, count: usize, params: *const hipKernelNodeParams) -> hipError_t {
        call("hipGraphAddKernelNode", |rt| {
            let work = || {
                // SAFETY: the caller's contract (above).
                let p = unsafe { read_params(params) }?;
                if p.func.is_null() || (!p.kernelParams.is_null() && !p.extra.is_null()) {
                    return Err(HipCode::INVALID_VALUE);
                }
                let grid = [p.gridDim.x, p.gridDim.y, p.gridDim.z];
                let block = [p.blockDim.x, p.blockDim.y, p.blockDim.z];
                if grid.contains(&0) || block.contains(&0) {
                    return Err(HipCode::INVALID_VALUE);
                }
                let function = p.func as usize as u64;
                // SAFETY: the caller's contract (above).
                let kernargs = unsafe { kernargs(rt, function, p.kernelParams, p.extra) }
                    .map_err(|e| if e == HipCode::INVALID_RESOURCE_HANDLE { HipCode(hipErrorInvalidDeviceFunction) } else { e })?;
                let request = LaunchRequest {
                    function,
                    ordinal: current_device(&rt.sim),
                    grid,
                    block,
                    shared_bytes: p.sharedMemBytes,
                };
                rt.sim.hip_check_launch(&request, &kernargs)?;
                Ok(Work::Kernel { request, kernargs })
            };
            // SAFETY: the caller's contract (above).
            unsafe { add_node(rt, node, graph, deps, count, work) }
        })
    }

    /// `hipGraphAddMemsetNode`: `height` rows of `width` elements of
    /// `elementSize` (1, 2 or 4) bytes, `pitch` apart, in device or
    /// pinned memory.
    ///
    /// # Safety
    /// `node` is NULL or points at a writable node handle; `deps` is NULL or points at `count` node handles; `params` is NULL or points at a `hipMemsetParams`.
    unsafe fn hipGraphAddMemsetNode(node: *mut handle, graph: handle, deps: *const handle, count: usize, params: *const hipMemsetParams) -> hipError_t {
        call("hipGraphAddMemsetNode", |rt| {
            let work = || {
                // SAFETY: the caller's contract (above).
                let p = unsafe { read_params(params) }?;
                let pattern = memset_pattern(p.value, p.elementSize)?;
                if p.height == 0 || p.width == 0 {
                    return Err(HipCode::INVALID_VALUE);
                }
                let row = p.width.checked_mul(pattern.len()).ok_or(HipCode::INVALID_VALUE)?;
                let pitch = if p.height > 1 { p.pitch } else { row };
                if pitch < row {
                    return Err(HipCode::INVALID_VALUE);
                }
                let len = pitch
                    .checked_mul(p.height - 1)
                    .and_then(|n| n.checked_add(row))
                    .ok_or(HipCode::INVALID_VALUE)?;
                let dst = tracked(rt, p.dst as usize, len)?;
                Ok(Work::Memset { dst, pattern, width: p.width, pitch, rows: p.height })
            };
            // SAFETY: the caller's contract (above).
            unsafe { add_node(rt, node, graph, deps, count, work) }
        })
    }

    /// `hipDrvGraphAddMemcpyNode`: a `HIP_MEMCPY3D` between host and
    /// device memory (no arrays); a zero width, height or depth makes a
    /// node that copies nothing, as in clr.
    ///
    /// # Safety
    /// `node` is NULL or points at a writable node handle; `deps` is NULL or points at `count` node handles; `params` is NULL or points at a `HIP_MEMCPY3D` whose host sides stay valid while the graph runs.
    unsafe fn hipDrvGraphAddMemcpyNode(node: *mut handle, graph: handle, deps: *const handle, count: usize, params: *const HIP_MEMCPY3D, ctx: handle) -> hipError_t {
        call("hipDrvGraphAddMemcpyNode", |rt| {
            if ctx.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let work = || {
                // SAFETY: the caller's contract (above).
                let p = unsafe { read_params(params) }?;
                if p.WidthInBytes == 0 || p.Height == 0 || p.Depth == 0 {
                    return Ok(Work::Empty);
                }
                let rows = Rows { height: p.Height, depth: p.Depth };
                let src = side(
                    rt, p.srcMemoryType, p.srcHost as usize, p.srcDevice as usize,
                    (p.srcXInBytes, p.srcY, p.srcZ, p.srcLOD), p.srcPitch, p.srcHeight,
                    p.WidthInBytes, rows,
                )?;
                let dst = side(
                    rt, p.dstMemoryType, p.dstHost as usize, p.dstDevice as usize,
                    (p.dstXInBytes, p.dstY, p.dstZ, p.dstLOD), p.dstPitch, p.dstHeight,
                    p.WidthInBytes, rows,
                )?;
                Ok(Work::Memcpy { dst, src, width: p.WidthInBytes, rows })
            };
            // SAFETY: the caller's contract (above).
            unsafe { add_node(rt, node, graph, deps, count, work) }
        })
    }

    /// `hipGraphInstantiate`: an instance of the graph as it is now (the
    /// error node and log are never written, as in clr).
    ///
    /// # Safety
    /// `exec` is NULL or points at a writable instance handle.
    unsafe fn hipGraphInstantiate(exec: *mut handle, graph: handle, error_node: *mut handle, log: *mut std::ffi::c_char, log_size: usize) -> hipError_t {
        let _ = (error_node, log, log_size);
        call("hipGraphInstantiate", |rt| {
            if exec.is_null() || graph.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let h = rt.graphs().instantiate(&rt.handles, graph as usize as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { ptr::write(exec.cast(), h as usize as handle) }
                .then_some(())
                .ok_or(HipCode::INVALID_VALUE)
        })
    }

    /// `hipGraphExecDestroy`: a launch in flight still completes.
    fn hipGraphExecDestroy(exec: handle) -> hipError_t {
        call("hipGraphExecDestroy", |rt| {
            rt.graphs()
                .destroy_exec(exec as usize as u64)
                .ok_or(HipCode::INVALID_VALUE)
        })
    }

    /// `hipGraphLaunch`: the instance's nodes in stream order on `stream`
    /// (a stream that is not live: `hipErrorContextIsDestroyed`, as clr).
    fn hipGraphLaunch(exec: handle, stream: handle) -> hipError_t {
        call("hipGraphLaunch", |rt| {
            let exec = rt.graphs().exec(exec as usize as u64).ok_or(HipCode::INVALID_VALUE)?;
            let (target, ordinal) =
                resolve_stream(rt, stream).map_err(|_| HipCode(hipErrorContextIsDestroyed))?;
            let mut ops = Vec::with_capacity(exec.work.len());
            for (index, work) in exec.work.iter().enumerate() {
                match work {
                    Work::Empty => {}
                    Work::Kernel { request, kernargs } => {
                        let request = LaunchRequest { ordinal, ..request.clone() };
                        let launch = rt.sim.hip_record_launch(&request, kernargs.clone());
                        if let Err(HipCode::LAUNCH_FAILURE) = launch {
                            // Counted first: the report an abort writes shows it.
                            rt.device_faults.refuse_launch(ordinal);
                            device_fault::kernel_unrunnable(rt, None);
                        }
                        if let Some(run) = launch? {
                            ops.push(Op::Kernel(Box::new(run)));
                        }
                    }
                    Work::EventRecord(e) => {
                        let event = rt.streams().event(*e).map_err(|_| HipCode::INVALID_VALUE)?;
                        let generation = event.begin_record(ordinal);
                        ops.push(Op::Record(event, generation));
                    }
                    Work::Memset { .. } | Work::Memcpy { .. } => {
                        ops.push(Op::Node(NodeRun::new(Arc::clone(&exec), index)));
                    }
                }
            }
            // SAFETY: the host memory a node names stays valid while the
            // graph runs: the contract of the call that added the node.
            unsafe { target.enqueue_all(rt, ops) }
        })
    }
}
