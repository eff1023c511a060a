//! The C library's stream semantics and HIP graphs, called through their C
//! symbols as a client calls them: what HIP and CUDA document about copies
//! from and into pageable host memory, fills of it, work on an idle
//! stream, and graphs replayed on a stream (what IREE's HAL conformance
//! tests found missing; docs/IREE-CTS.md).

use std::ffi::{c_int, c_uint, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use amdgpu_sys::hip_error::*;
use amdgpu_sys::hip_types::dim3;

// Links the library's exports into this test binary.
use amdgpu_sim_ffi as _;

type Handle = *mut c_void;
type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

/// `hipMemcpyDeviceToHost`.
const D2H: c_int = 2;
/// `hipMemoryTypeHost`, `hipMemoryTypeDevice` as ROCm 6 numbers them.
const MEMORY_HOST: u32 = 1;
const MEMORY_DEVICE: u32 = 2;

#[repr(C)]
struct MemsetParams {
    dst: *mut c_void,
    element_size: c_uint,
    height: usize,
    pitch: usize,
    value: c_uint,
    width: usize,
}

#[repr(C)]
#[derive(Default)]
struct Memcpy3d {
    src_x: usize,
    src_y: usize,
    src_z: usize,
    src_lod: usize,
    src_type: u32,
    src_host: usize,
    src_device: usize,
    src_array: usize,
    src_pitch: usize,
    src_height: usize,
    dst_x: usize,
    dst_y: usize,
    dst_z: usize,
    dst_lod: usize,
    dst_type: u32,
    dst_host: usize,
    dst_device: usize,
    dst_array: usize,
    dst_pitch: usize,
    dst_height: usize,
    width: usize,
    height: usize,
    depth: usize,
}

#[repr(C)]
struct KernelParams {
    block: dim3,
    extra: *mut *mut c_void,
    func: *mut c_void,
    grid: dim3,
    params: *mut *mut c_void,
    shared: c_uint,
}

unsafe extern "C" {
    fn hipSetDevice(device: c_int) -> hipError_t;
    fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipFree(ptr: *mut c_void) -> hipError_t;
    fn hipHostMalloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> hipError_t;
    fn hipHostFree(ptr: *mut c_void) -> hipError_t;
    fn hipStreamCreateWithFlags(stream: *mut Handle, flags: c_uint) -> hipError_t;
    fn hipStreamDestroy(stream: Handle) -> hipError_t;
    fn hipStreamSynchronize(stream: Handle) -> hipError_t;
    fn hipLaunchHostFunc(stream: Handle, f: HostFn, data: *mut c_void) -> hipError_t;
    fn hipMemcpyAsync(
        dst: *mut c_void,
        src: *const c_void,
        size: usize,
        kind: c_int,
        stream: Handle,
    ) -> hipError_t;
    fn hipMemcpyHtoDAsync(
        dst: *mut c_void,
        src: *mut c_void,
        size: usize,
        stream: Handle,
    ) -> hipError_t;
    fn hipMemsetAsync(dst: *mut c_void, value: c_int, size: usize, stream: Handle) -> hipError_t;
    fn hipEventCreate(event: *mut Handle) -> hipError_t;
    fn hipEventDestroy(event: Handle) -> hipError_t;
    fn hipEventRecord(event: Handle, stream: Handle) -> hipError_t;
    fn hipEventQuery(event: Handle) -> hipError_t;
    fn hipGraphCreate(graph: *mut Handle, flags: c_uint) -> hipError_t;
    fn hipGraphDestroy(graph: Handle) -> hipError_t;
    fn hipGraphAddEmptyNode(
        node: *mut Handle,
        graph: Handle,
        deps: *const Handle,
        n: usize,
    ) -> hipError_t;
    fn hipGraphAddMemsetNode(
        node: *mut Handle,
        graph: Handle,
        deps: *const Handle,
        n: usize,
        p: *const MemsetParams,
    ) -> hipError_t;
    fn hipDrvGraphAddMemcpyNode(
        node: *mut Handle,
        graph: Handle,
        deps: *const Handle,
        n: usize,
        p: *const Memcpy3d,
        ctx: Handle,
    ) -> hipError_t;
    fn hipGraphAddKernelNode(
        node: *mut Handle,
        graph: Handle,
        deps: *const Handle,
        n: usize,
        p: *const KernelParams,
    ) -> hipError_t;
    fn hipGraphAddEventRecordNode(
        node: *mut Handle,
        graph: Handle,
        deps: *const Handle,
        n: usize,
        event: Handle,
    ) -> hipError_t;
    fn hipGraphInstantiate(
        exec: *mut Handle,
        graph: Handle,
        error_node: *mut Handle,
        log: *mut i8,
        size: usize,
    ) -> hipError_t;
    fn hipGraphLaunch(exec: Handle, stream: Handle) -> hipError_t;
    fn hipGraphExecDestroy(exec: Handle) -> hipError_t;
}

/// Chooses the node before any call reads the environment.
pub(crate) fn setup() {
    crate::node_environment();
    // SAFETY: plain C call.
    assert_eq!(unsafe { hipSetDevice(0) }, hipSuccess);
}

fn ok(code: hipError_t) {
    assert_eq!(code, hipSuccess, "HIP call failed");
}

fn device_alloc(size: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hipMalloc(&mut p, size) });
    p
}

fn stream() -> Handle {
    let mut s = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut s, 0) });
    s
}

fn read_back(device: *mut c_void, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    let s = stream();
    // SAFETY: `out` holds `len` bytes; the stream is synchronized before it is read.
    unsafe {
        ok(hipMemcpyAsync(out.as_mut_ptr().cast(), device, len, D2H, s));
        ok(hipStreamSynchronize(s));
        ok(hipStreamDestroy(s));
    }
    out
}

/// Holds a stream until `RELEASE` is set (a device still busy).
static RELEASE: AtomicBool = AtomicBool::new(false);
unsafe extern "C" fn hold(_: *mut c_void) {
    while !RELEASE.load(Ordering::Acquire) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
/// Sleeps 50 ms on the stream's worker.
unsafe extern "C" fn pause(_: *mut c_void) {
    std::thread::sleep(Duration::from_millis(50));
}

#[test]
fn a_pageable_source_is_consumed_before_the_copy_returns() {
    setup();
    let device = device_alloc(64);
    let s = stream();
    let mut staging = vec![7u8; 64];
    // SAFETY: `staging` outlives the calls; the hold is released before the sync.
    unsafe {
        RELEASE.store(false, Ordering::Release);
        ok(hipLaunchHostFunc(s, Some(hold), std::ptr::null_mut()));
        ok(hipMemcpyHtoDAsync(
            device,
            staging.as_mut_ptr().cast(),
            64,
            s,
        ));
        // The caller reuses its staging memory as soon as the call returns.
        staging.fill(9);
        RELEASE.store(true, Ordering::Release);
        ok(hipStreamSynchronize(s));
        ok(hipStreamDestroy(s));
    }
    assert_eq!(read_back(device, 64), vec![7u8; 64]);
    // SAFETY: an allocation of this test's.
    ok(unsafe { hipFree(device) });
}

#[test]
fn a_copy_into_pageable_memory_has_completed_when_it_returns() {
    setup();
    let device = device_alloc(32);
    let s = stream();
    let mut out = vec![0u8; 32];
    // SAFETY: `out` outlives the calls.
    unsafe {
        ok(hipLaunchHostFunc(s, Some(pause), std::ptr::null_mut()));
        ok(hipMemsetAsync(device, 0x5a, 32, s));
        ok(hipMemcpyAsync(out.as_mut_ptr().cast(), device, 32, D2H, s));
    }
    // No synchronization: the copy waited for the stream's earlier work.
    assert_eq!(out, vec![0x5au8; 32]);
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipStreamDestroy(s));
        ok(hipFree(device));
    }
}

#[test]
fn a_fill_of_pageable_memory_is_refused() {
    setup();
    let mut host = vec![0u8; 16];
    let s = stream();
    // SAFETY: `host` is 16 bytes.
    let code = unsafe { hipMemsetAsync(host.as_mut_ptr().cast(), 1, 16, s) };
    assert_eq!(code, hipErrorInvalidValue);
    // SAFETY: a stream of this test's.
    ok(unsafe { hipStreamDestroy(s) });
}

#[test]
fn work_on_an_idle_stream_has_run_when_the_call_returns() {
    setup();
    let device = device_alloc(16);
    let mut pinned = std::ptr::null_mut();
    let mut event = std::ptr::null_mut();
    let s = stream();
    // SAFETY: valid out-pointers; `pinned` holds 16 bytes.
    unsafe {
        ok(hipHostMalloc(&mut pinned, 16, 0));
        ok(hipEventCreate(&mut event));
        ok(hipMemsetAsync(device, 0x33, 16, s));
        ok(hipMemcpyAsync(pinned, device, 16, D2H, s));
        ok(hipEventRecord(event, s));
        // Nothing waited: the idle stream ran each operation as it came.
        assert_eq!(hipEventQuery(event), hipSuccess);
        assert_eq!(
            std::slice::from_raw_parts(pinned.cast::<u8>(), 16),
            &[0x33u8; 16]
        );
        ok(hipEventDestroy(event));
        ok(hipHostFree(pinned));
        ok(hipStreamDestroy(s));
        ok(hipFree(device));
    }
}

#[test]
fn a_graph_runs_its_nodes_in_dependency_order_on_the_stream() {
    setup();
    let device = device_alloc(64);
    let mut host = vec![0u8; 64];
    let update = [0xabu8; 16];
    let mut graph = std::ptr::null_mut();
    let mut exec = std::ptr::null_mut();
    let s = stream();
    // SAFETY: valid out-pointers and parameter structs; `host` and
    // `update` outlive the launch, which is synchronized.
    unsafe {
        ok(hipGraphCreate(&mut graph, 0));
        // Fill 64 bytes with 0x01020304 (4-byte elements) ...
        let mut fill = std::ptr::null_mut();
        let memset = MemsetParams {
            dst: device,
            element_size: 4,
            height: 1,
            pitch: 0,
            value: 0x0102_0304,
            width: 16,
        };
        ok(hipGraphAddMemsetNode(
            &mut fill,
            graph,
            std::ptr::null(),
            0,
            &memset,
        ));
        // ... then copy 16 host bytes over bytes 8..24 ...
        let mut upload = std::ptr::null_mut();
        let copy_in = Memcpy3d {
            src_type: MEMORY_HOST,
            src_host: update.as_ptr() as usize,
            dst_type: MEMORY_DEVICE,
            dst_device: device as usize,
            dst_x: 8,
            width: 16,
            height: 1,
            depth: 1,
            ..Memcpy3d::default()
        };
        let ctx = 1usize as Handle;
        ok(hipDrvGraphAddMemcpyNode(
            &mut upload,
            graph,
            &fill,
            1,
            &copy_in,
            ctx,
        ));
        let mut join = std::ptr::null_mut();
        ok(hipGraphAddEmptyNode(&mut join, graph, &upload, 1));
        // ... then read all 64 back into host memory.
        let mut download = std::ptr::null_mut();
        let copy_out = Memcpy3d {
            src_type: MEMORY_DEVICE,
            src_device: device as usize,
            dst_type: MEMORY_HOST,
            dst_host: host.as_mut_ptr() as usize,
            width: 64,
            height: 1,
            depth: 1,
            ..Memcpy3d::default()
        };
        ok(hipDrvGraphAddMemcpyNode(
            &mut download,
            graph,
            &join,
            1,
            &copy_out,
            ctx,
        ));
        ok(hipGraphInstantiate(
            &mut exec,
            graph,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        ));
        // The instance does not need its graph.
        ok(hipGraphDestroy(graph));
        ok(hipGraphLaunch(exec, s));
        ok(hipStreamSynchronize(s));
    }
    let mut expected: Vec<u8> = [4u8, 3, 2, 1].repeat(16);
    expected[8..24].copy_from_slice(&[0xab; 16]);
    assert_eq!(host, expected);
    // A second launch runs the same nodes again.
    host.fill(0);
    // SAFETY: as above.
    unsafe {
        ok(hipGraphLaunch(exec, s));
        ok(hipStreamSynchronize(s));
    }
    assert_eq!(host, expected);
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipGraphExecDestroy(exec));
        ok(hipStreamDestroy(s));
        ok(hipFree(device));
    }
}

#[test]
fn graph_misuse_gets_hips_errors() {
    setup();
    let device = device_alloc(16);
    let null = std::ptr::null_mut::<c_void>();
    let (mut a, mut b, mut node, mut exec) = (null, null, null, null);
    // SAFETY: valid out-pointers and parameter structs, and handles that
    // are deliberately wrong but never dereferenced by the library.
    unsafe {
        assert_eq!(hipGraphCreate(&mut a, 1), hipErrorInvalidValue);
        assert_eq!(
            hipGraphCreate(std::ptr::null_mut(), 0),
            hipErrorInvalidValue
        );
        ok(hipGraphCreate(&mut a, 0));
        ok(hipGraphCreate(&mut b, 0));
        let mut in_b = null;
        ok(hipGraphAddEmptyNode(&mut in_b, b, std::ptr::null(), 0));
        // A dependency of another graph, twice the same one, or none given.
        assert_eq!(
            hipGraphAddEmptyNode(&mut node, a, &in_b, 1),
            hipErrorInvalidValue
        );
        let mut in_a = null;
        ok(hipGraphAddEmptyNode(&mut in_a, a, std::ptr::null(), 0));
        let twice = [in_a, in_a];
        assert_eq!(
            hipGraphAddEmptyNode(&mut node, a, twice.as_ptr(), 2),
            hipErrorInvalidValue
        );
        assert_eq!(
            hipGraphAddEmptyNode(&mut node, a, std::ptr::null(), 1),
            hipErrorInvalidValue
        );
        // A memset of 3-byte elements, of no width, or into pageable memory.
        let mut bad = MemsetParams {
            dst: device,
            element_size: 3,
            height: 1,
            pitch: 0,
            value: 0,
            width: 4,
        };
        assert_eq!(
            hipGraphAddMemsetNode(&mut node, a, std::ptr::null(), 0, &bad),
            hipErrorInvalidValue
        );
        bad.element_size = 1;
        bad.width = 0;
        assert_eq!(
            hipGraphAddMemsetNode(&mut node, a, std::ptr::null(), 0, &bad),
            hipErrorInvalidValue
        );
        let mut pageable = vec![0u8; 4];
        bad.width = 4;
        bad.dst = pageable.as_mut_ptr().cast();
        assert_eq!(
            hipGraphAddMemsetNode(&mut node, a, std::ptr::null(), 0, &bad),
            hipErrorInvalidValue
        );
        // A copy past its allocation, or without a context.
        let past = Memcpy3d {
            src_type: MEMORY_DEVICE,
            src_device: device as usize,
            dst_type: MEMORY_HOST,
            dst_host: pageable.as_mut_ptr() as usize,
            src_x: 8,
            width: 16,
            height: 1,
            depth: 1,
            ..Memcpy3d::default()
        };
        assert_eq!(
            hipDrvGraphAddMemcpyNode(&mut node, a, std::ptr::null(), 0, &past, 1usize as Handle),
            hipErrorInvalidValue
        );
        assert_eq!(
            hipDrvGraphAddMemcpyNode(&mut node, a, std::ptr::null(), 0, &past, null),
            hipErrorInvalidValue
        );
        // A kernel node of no function, and an event record of no event.
        let kernel = KernelParams {
            block: dim3 { x: 1, y: 1, z: 1 },
            extra: std::ptr::null_mut(),
            func: null,
            grid: dim3 { x: 1, y: 1, z: 1 },
            params: std::ptr::null_mut(),
            shared: 0,
        };
        assert_eq!(
            hipGraphAddKernelNode(&mut node, a, std::ptr::null(), 0, &kernel),
            hipErrorInvalidValue
        );
        assert_eq!(
            hipGraphAddEventRecordNode(&mut node, a, std::ptr::null(), 0, null),
            hipErrorInvalidValue
        );
        // An empty graph instantiates; a stream that is not one is refused.
        ok(hipGraphInstantiate(
            &mut exec,
            b,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        ));
        assert_eq!(
            hipGraphLaunch(exec, 0x10usize as Handle),
            hipErrorContextIsDestroyed
        );
        assert_eq!(hipGraphLaunch(null, null), hipErrorInvalidValue);
        ok(hipGraphLaunch(exec, null));
        ok(hipGraphExecDestroy(exec));
        assert_eq!(hipGraphExecDestroy(exec), hipErrorInvalidValue);
        ok(hipGraphDestroy(a));
        assert_eq!(hipGraphDestroy(a), hipErrorIllegalState);
        ok(hipGraphDestroy(b));
        ok(hipFree(device));
    }
}
