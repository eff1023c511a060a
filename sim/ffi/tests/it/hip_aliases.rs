//! The other names HIP keeps for calls the library serves (`hip/aliases.rs`)
//! do what the calls they name do: pinned memory under its older names,
//! synchronous typed fills, a copy that waits on its stream, and queries
//! of the compute capability, the context's device and a stream's flags
//! and device; the device's cache and shared-memory configuration, which
//! ROCm validates and keeps fixed. Expected values: the W7900's gfx1100
//! (11.0), clr's answers, the host's own arithmetic.

use std::ffi::{c_int, c_uint, c_void};

use amdgpu_sys::hip_error::*;

// Links the library's exports into this test binary.
use amdgpu_sim_ffi as _;

type Handle = *mut c_void;

/// `hipMemcpyHostToDevice`, `hipMemcpyDeviceToHost`.
const H2D: c_int = 1;
const D2H: c_int = 2;
/// `hipStreamNonBlocking`.
const NON_BLOCKING: c_uint = 1;
/// `HIP_POINTER_ATTRIBUTE_MEMORY_TYPE`; `hipMemoryTypeHost` (ROCm 6).
const ATTR_MEMORY_TYPE: c_int = 2;
const MEMORY_HOST: c_uint = 1;

unsafe extern "C" {
    fn hipSetDevice(device: c_int) -> hipError_t;
    fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipFree(ptr: *mut c_void) -> hipError_t;
    fn hipMallocHost(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipMemAllocHost(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipHostAlloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> hipError_t;
    fn hipFreeHost(ptr: *mut c_void) -> hipError_t;
    fn hipMemsetD8(dst: *mut c_void, value: u8, count: usize) -> hipError_t;
    fn hipMemsetD16(dst: *mut c_void, value: u16, count: usize) -> hipError_t;
    fn hipMemsetD32(dst: *mut c_void, value: c_int, count: usize) -> hipError_t;
    fn hipMemcpyWithStream(
        dst: *mut c_void,
        src: *const c_void,
        size: usize,
        kind: c_int,
        stream: Handle,
    ) -> hipError_t;
    fn hipMemcpy(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int) -> hipError_t;
    fn hipDeviceComputeCapability(
        major: *mut c_int,
        minor: *mut c_int,
        device: c_int,
    ) -> hipError_t;
    fn hipCtxGetDevice(device: *mut c_int) -> hipError_t;
    fn hipCtxSynchronize() -> hipError_t;
    fn hipStreamCreateWithFlags(stream: *mut Handle, flags: c_uint) -> hipError_t;
    fn hipStreamDestroy(stream: Handle) -> hipError_t;
    fn hipStreamGetFlags(stream: Handle, flags: *mut c_uint) -> hipError_t;
    fn hipStreamGetDevice(stream: Handle, device: *mut c_int) -> hipError_t;
    fn hipPointerGetAttribute(data: *mut c_void, attr: c_int, ptr: *mut c_void) -> hipError_t;
    fn hipGetLastError() -> hipError_t;
    fn hipDeviceSetCacheConfig(config: c_int) -> hipError_t;
    fn hipDeviceGetCacheConfig(config: *mut c_int) -> hipError_t;
    fn hipDeviceSetSharedMemConfig(config: c_int) -> hipError_t;
    fn hipDeviceGetSharedMemConfig(config: *mut c_int) -> hipError_t;
}

fn ok(code: hipError_t) {
    assert_eq!(code, hipSuccess, "HIP call failed");
}

#[test]
fn older_names_do_what_the_calls_they_name_do() {
    crate::node_environment();
    let count = 1000usize;
    let (mut device, mut stream) = (std::ptr::null_mut(), std::ptr::null_mut());
    let mut pinned = [std::ptr::null_mut(); 3];
    let (mut major, mut minor, mut ordinal, mut flags) = (0, 0, -1, 99);
    let mut back = vec![0u32; count];
    // SAFETY: out-pointers and buffers of the sizes passed.
    unsafe {
        ok(hipSetDevice(0));
        ok(hipMallocHost(&mut pinned[0], 4096));
        ok(hipMemAllocHost(&mut pinned[1], 4096));
        ok(hipHostAlloc(&mut pinned[2], 4096, 0));
        for &p in &pinned {
            let mut kind: c_uint = 0;
            ok(hipPointerGetAttribute(
                (&raw mut kind).cast(),
                ATTR_MEMORY_TYPE,
                p,
            ));
            assert_eq!(kind, MEMORY_HOST);
        }
        ok(hipMalloc(&mut device, count * 4));
        // 32-bit, 16-bit and 8-bit fills over the same words, each done on return.
        ok(hipMemsetD32(device, 0x1122_3344, count));
        ok(hipMemsetD16(device, 0xaabb, 2));
        ok(hipMemsetD8(
            device.cast::<u8>().wrapping_add(4 * (count - 1)).cast(),
            0x5c,
            4,
        ));
        ok(hipStreamCreateWithFlags(&mut stream, NON_BLOCKING));
        ok(hipMemcpyWithStream(
            back.as_mut_ptr().cast(),
            device,
            count * 4,
            D2H,
            stream,
        ));
        ok(hipStreamGetFlags(stream, &mut flags));
        ok(hipStreamGetDevice(stream, &mut ordinal));
        assert_eq!((flags, ordinal), (NON_BLOCKING, 0));
        assert_eq!(
            hipStreamGetFlags(std::ptr::null_mut(), &mut flags),
            hipErrorInvalidValue
        );
        ok(hipDeviceComputeCapability(&mut major, &mut minor, 0));
        assert_eq!((major, minor), (11, 0));
        assert_eq!(
            hipDeviceComputeCapability(&mut major, &mut minor, 3),
            hipErrorInvalidDevice
        );
        ordinal = -1;
        ok(hipCtxGetDevice(&mut ordinal));
        assert_eq!(ordinal, 0);
        ok(hipCtxSynchronize());
        // A copy the other way through the same name.
        let word = [7u32; 1];
        ok(hipMemcpyWithStream(
            device,
            word.as_ptr().cast(),
            4,
            H2D,
            stream,
        ));
        let mut first = [0u32; 1];
        ok(hipMemcpy(first.as_mut_ptr().cast(), device, 4, D2H));
        assert_eq!(first, [7]);
        assert_eq!(
            hipStreamGetFlags(1usize as Handle, &mut flags),
            hipErrorInvalidHandle
        );
        hipGetLastError();
        ok(hipStreamDestroy(stream));
        ok(hipFree(device));
        for p in pinned {
            ok(hipFreeHost(p));
        }
    }
    let mut want = vec![0x1122_3344u32; count];
    want[0] = 0xaabb_aabb;
    want[count - 1] = 0x5c5c_5c5c;
    assert_eq!(back, want);
}

#[test]
fn cache_and_shared_memory_configuration_are_validated_and_fixed() {
    crate::node_environment();
    let mut config = -1;
    // SAFETY: valid out-pointers; the invalid values are refused before any write.
    unsafe {
        // hipFuncCachePreferShared (1), hipFuncCachePreferEqual (3): accepted;
        // ROCm keeps its configuration (hipFuncCachePreferNone, 0).
        ok(hipDeviceSetCacheConfig(1));
        ok(hipDeviceSetCacheConfig(3));
        ok(hipDeviceGetCacheConfig(&mut config));
        assert_eq!(config, 0);
        assert_eq!(hipDeviceSetCacheConfig(4), hipErrorInvalidValue);
        // hipSharedMemBankSizeEightByte (2) accepted; four-byte banks (1) stay.
        ok(hipDeviceSetSharedMemConfig(2));
        ok(hipDeviceGetSharedMemConfig(&mut config));
        assert_eq!(config, 1);
        assert_eq!(hipDeviceSetSharedMemConfig(3), hipErrorInvalidValue);
        assert_eq!(
            hipDeviceGetSharedMemConfig(std::ptr::null_mut()),
            hipErrorInvalidValue
        );
        hipGetLastError();
    }
}
