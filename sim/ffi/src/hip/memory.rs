//! HIP memory: device allocations, stream-ordered pools, host (pinned,
//! managed, registered) memory, and copies and fills between host and
//! device memory in stream order.

use std::ffi::{c_int, c_void};

use amdgpu_sim::HipCode;

use super::context::current_device;
use super::operation::execute_on;
use super::stream::{enqueue, resolve_stream, stream_device};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, as_handle, call, call_with, handle, modelled, of_handle, put};
use crate::core::host_memory::HostKind;
use crate::core::place::Place;
use crate::core::ptr;
use crate::core::runtime::Runtime;
use crate::core::streams::Op;

/// `hipMemcpyKind` values HIP defines (`hipMemcpyHostToHost`..`hipMemcpyDefault`).
pub(crate) const MEMCPY_KINDS: std::ops::RangeInclusive<c_int> = 0..=4;

/// Where `len` bytes at `address` are: a device range must lie in one
/// allocation; anything else is the client's host memory.
pub(crate) fn place(rt: &Runtime, address: usize, len: usize) -> Result<Place, HipCode> {
    if address == 0 {
        return Err(HipCode::INVALID_VALUE);
    }
    let a = address as u64;
    if rt.sim.hip_is_device(a) {
        if !rt.sim.hip_is_device_range(a, len as u64) {
            return Err(HipCode::INVALID_VALUE);
        }
        Ok(Place::Device(a))
    } else {
        Ok(Place::Host(address))
    }
}

/// Whether `len` bytes at `place` are pageable host memory: host memory
/// HIP did not allocate or register.
pub(crate) fn pageable(rt: &Runtime, place: Place, len: usize) -> bool {
    match place {
        Place::Host(a) => !rt.host_memory().is_known_range(a, len),
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
pub(crate) unsafe fn copy(
    rt: &Runtime,
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
    let dst = place(rt, dst as usize, len)?;
    let src = place(rt, src as usize, len)?;
    let (target, ordinal) = resolve_stream(rt, stream)?;
    let op = if pageable(rt, dst, len) {
        // Done before returning: drain the stream, then copy here (a
        // device whose kernel faulted has nothing trustworthy to copy).
        target.wait_idle(rt);
        rt.device_faults.check(ordinal)?;
        // SAFETY: host places of `len` bytes, live for this call.
        return unsafe { execute_on(rt, of_handle(stream), ordinal, Op::Copy { dst, src, len }) };
    } else if let (Place::Host(s), true) = (src, pageable(rt, src, len)) {
        // SAFETY: a host place of `len` bytes, live for this call.
        let bytes =
            unsafe { ptr::read_bytes(s as *const c_void, len) }.ok_or(HipCode::INVALID_VALUE)?;
        Op::Write { dst, bytes }
    } else {
        Op::Copy { dst, src, len }
    };
    // SAFETY: pinned or registered host places of `len` bytes, the caller's promise.
    unsafe { target.enqueue_all(rt, vec![op]) }
}

/// `hipMemset*`: `count` copies of `pattern` in stream order, into device
/// memory or host memory HIP allocated or registered (pageable memory is
/// `hipErrorInvalidValue`, as ROCm's memset validation answers).
///
/// # Safety
/// `dst`, outside the simulated device memory, is `count * pattern.len()`
/// bytes of the client's host memory, live until the fill has run.
unsafe fn fill(
    rt: &Runtime,
    dst: *mut c_void,
    pattern: &[u8],
    count: usize,
    stream: handle,
) -> Call {
    let len = count
        .checked_mul(pattern.len())
        .ok_or(HipCode::INVALID_VALUE)?;
    if len == 0 {
        return Ok(());
    }
    let dst = place(rt, dst as usize, len)?;
    if pageable(rt, dst, len) {
        return Err(HipCode::INVALID_VALUE);
    }
    let op = Op::Fill {
        dst,
        pattern: pattern.to_vec(),
        count,
    };
    // SAFETY: a host place of `len` bytes, the caller's promise.
    unsafe { enqueue(rt, stream, op) }
}

c_exports! {
    /// `hipMalloc` on the current device.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMalloc(ptr_out: *mut *mut c_void, size: usize) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let address = rt.sim.hip_malloc("hipMalloc", current_device(&rt.sim), size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocAsync`: allocated at once (earlier than stream order needs).
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocAsync(ptr_out: *mut *mut c_void, size: usize, stream: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let ordinal = stream_device(rt, stream)?;
            let address = rt.sim.hip_malloc("hipMallocAsync", ordinal, size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocFromPoolAsync`.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocFromPoolAsync(ptr_out: *mut *mut c_void, size: usize, pool: handle, stream: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            if of_handle(stream) != 0 {
                rt.streams().stream(of_handle(stream))?;
            }
            let address = rt.sim.hip_malloc_from_pool(of_handle(pool), size as u64)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as usize as *mut c_void) }
        })
    }

    /// `hipMallocManaged`: host memory both sides reach.
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipMallocManaged(ptr_out: *mut *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipMallocManaged", |rt| {
            // hipMemAttachGlobal (1) or hipMemAttachHost (2).
            if ptr_out.is_null() || size == 0 || !(1..=2).contains(&flags) {
                return Err(HipCode::INVALID_VALUE);
            }
            let address = rt.host_memory().allocate(size, HostKind::Managed)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as *mut c_void) }
        })
    }

    /// `hipFree`: a device or managed allocation; waits for the device as HIP does.
    fn hipFree(address: *mut c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            let a = address as usize;
            if a != 0 && rt.host_memory().is_managed(a) {
                return rt.sim.hip_external("hipFree", || rt.host_memory().free(a, HostKind::Managed));
            }
            rt.sim.hip_free("hipFree", a as u64)
        })
    }

    /// `hipFreeAsync`: freed in stream order.
    fn hipFreeAsync(address: *mut c_void, stream: handle) -> hipError_t {
        call_with("hipFreeAsync", || format!("{address:?}, {stream:?}"), |rt| {
            let a = address as u64;
            if a == 0 {
                return Ok(());
            }
            if !rt.sim.hip_is_allocation(a) {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the op holds no host memory.
            unsafe { enqueue(rt, stream, Op::Free(a)) }
        })
    }

    /// `hipHostMalloc`: pinned host memory (real host memory here).
    ///
    /// # Safety
    /// `ptr_out` is NULL or points at a writable `void*`.
    unsafe fn hipHostMalloc(ptr_out: *mut *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipHostMalloc", |rt| {
            let _ = flags;
            if ptr_out.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            if size == 0 {
                // SAFETY: the caller's contract (above).
                return unsafe { put(ptr_out, std::ptr::null_mut()) };
            }
            let address = rt.host_memory().allocate(size, HostKind::Pinned)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(ptr_out, address as *mut c_void) }
        })
    }

    /// `hipHostFree`.
    fn hipHostFree(address: *mut c_void) -> hipError_t {
        call("hipHostFree", |rt| match address as usize {
            0 => Ok(()),
            a => rt.host_memory().free(a, HostKind::Pinned),
        })
    }

    /// `hipHostGetDevicePointer`: pinned and registered memory is reached
    /// at its host address (one address space, as on ROCm).
    ///
    /// # Safety
    /// `dev_ptr` is NULL or points at a writable `void*`.
    unsafe fn hipHostGetDevicePointer(dev_ptr: *mut *mut c_void, host_ptr: *mut c_void, flags: u32) -> hipError_t {
        call("hipHostGetDevicePointer", |rt| {
            if flags != 0 || dev_ptr.is_null() || !rt.host_memory().is_known(host_ptr as usize) {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(dev_ptr, host_ptr) }
        })
    }

    /// `hipHostRegister`.
    fn hipHostRegister(host_ptr: *mut c_void, size: usize, flags: u32) -> hipError_t {
        call("hipHostRegister", |rt| {
            let _ = flags;
            rt.host_memory().register(host_ptr as usize, size)
        })
    }

    /// `hipHostUnregister`.
    fn hipHostUnregister(host_ptr: *mut c_void) -> hipError_t {
        call("hipHostUnregister", |rt| rt.host_memory().unregister(host_ptr as usize))
    }

    /// `hipMemPrefetchAsync`: managed memory stays where it is.
    fn hipMemPrefetchAsync(address: *const c_void, count: usize, device: c_int, stream: handle) -> hipError_t {
        call("hipMemPrefetchAsync", |rt| {
            let _ = count;
            if !rt.host_memory().is_known(address as usize) {
                return Err(HipCode::INVALID_VALUE);
            }
            // hipCpuDeviceId (-1) or a GPU.
            if device != -1 {
                rt.sim.hip_device_get_attribute(amdgpu_sys::hip_types::HipDeviceAttribute::WarpSize.raw(), device)
                    .map_err(|_| HipCode::INVALID_DEVICE)?;
            }
            stream_device(rt, stream).map(|_| ())
        })
    }

    /// `hipMemPoolCreate` at the props' device location.
    ///
    /// # Safety
    /// `pool` is NULL or points at a writable pool handle; `props` is NULL or points at a `hipMemPoolProps`.
    unsafe fn hipMemPoolCreate(pool: *mut handle, props: *const c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
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
            let p = rt.sim.hip_mem_pool_create(id)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(pool, as_handle(p)) }
        })
    }

    /// `hipMemPoolDestroy`.
    fn hipMemPoolDestroy(pool: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_mem_pool_destroy(of_handle(pool)))
    }

    /// `hipMemPoolTrimTo`.
    fn hipMemPoolTrimTo(pool: handle, keep: usize) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_mem_pool_trim_to(of_handle(pool), keep as u64))
    }

    /// `hipMemPoolGetAttribute`: `int` for the reuse flags, `uint64_t` otherwise.
    ///
    /// # Safety
    /// `value` is NULL or points at the attribute's C type (`int` or `uint64_t`).
    unsafe fn hipMemPoolGetAttribute(pool: handle, attr: c_int, value: *mut c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            let v = rt.sim.hip_mem_pool_get_attribute(of_handle(pool), attr)?;
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
        modelled(hipErrorInvalidDevice, |rt| {
            let v = if attr <= amdgpu_sim::hip_memory::pool_attribute::REUSE_ALLOW_INTERNAL_DEPENDENCIES {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_array(value.cast_const().cast::<i32>(), 1) }
                    .and_then(|v| v.first().map(|&x| x as u64))
            } else {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_array(value.cast_const().cast::<u64>(), 1) }.and_then(|v| v.first().copied())
            };
            let v = v.ok_or(HipCode::INVALID_VALUE)?;
            rt.sim.hip_mem_pool_set_attribute(of_handle(pool), attr, v)
        })
    }

    /// `hipMemcpy`: synchronous, on the null stream.
    ///
    /// # Safety
    /// A side outside device memory is `size` bytes of the caller's host memory (readable `src`, writable `dst`).
    unsafe fn hipMemcpy(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemcpy", |rt| unsafe { copy(rt, dst, src, size, kind, std::ptr::null_mut()) })
    }

    /// `hipMemcpyAsync`.
    ///
    /// # Safety
    /// A side outside device memory is `size` bytes of the caller's host memory, live until the copy has run in stream order.
    unsafe fn hipMemcpyAsync(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyAsync", || format!("{dst:?}, {src:?}, {size}, {kind}, {stream:?}"), |rt| unsafe { copy(rt, dst, src, size, kind, stream) })
    }

    /// `hipMemcpyHtoDAsync`.
    ///
    /// # Safety
    /// `src` is `size` bytes of the caller's host memory, live until the copy has run in stream order.
    unsafe fn hipMemcpyHtoDAsync(dst: *mut c_void, src: *mut c_void, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemcpyHtoDAsync", || format!("{dst:?}, {src:?}, {size}, {stream:?}"), |rt| unsafe { copy(rt, dst, src, size, 1, stream) })
    }

    /// `hipMemset`: synchronous byte fill.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `size` writable bytes of the caller's host memory.
    unsafe fn hipMemset(dst: *mut c_void, value: c_int, size: usize) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemset", |rt| unsafe { fill(rt, dst, &[value as u8], size, std::ptr::null_mut()) })
    }

    /// `hipMemsetAsync`: byte fill.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `size` bytes of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetAsync(dst: *mut c_void, value: c_int, size: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call("hipMemsetAsync", |rt| unsafe { fill(rt, dst, &[value as u8], size, stream) })
    }

    /// `hipMemsetD8Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` bytes of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD8Async(dst: *mut c_void, value: u8, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD8Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |rt| unsafe { fill(rt, dst, &[value], count, stream) })
    }

    /// `hipMemsetD16Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 16-bit values of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD16Async(dst: *mut c_void, value: u16, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD16Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |rt| unsafe { fill(rt, dst, &value.to_le_bytes(), count, stream) })
    }

    /// `hipMemsetD32Async`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is `count` 32-bit values of the caller's host memory, live until the fill has run.
    unsafe fn hipMemsetD32Async(dst: *mut c_void, value: c_int, count: usize, stream: handle) -> hipError_t {
        // SAFETY: the caller's contract (above).
        call_with("hipMemsetD32Async", || format!("{dst:?}, {value}, {count}, {stream:?}"), |rt| unsafe { fill(rt, dst, &value.to_le_bytes(), count, stream) })
    }
}
