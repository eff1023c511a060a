//! Reads and writes through the pointers C callers hand to the exported
//! functions, and the host memory the library hands out (the export
//! macro is `super::exports`'s).
//!
//! The helpers that dereference a caller's pointer are `unsafe fn`: each
//! states the C contract it relies on (an out-parameter points at writable
//! storage of the documented C type, an input buffer holds `len` readable
//! bytes, a string is NUL-terminated), and each caller, an export that is
//! itself `unsafe extern "C"` or code running an operation such an export
//! queued, says why the contract holds. NULL is checked (and refused)
//! before any access. This crate is the second FFI boundary of the project
//! (the first is `amdgpu-hal`'s `backend::dylib`).

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::Arc;

/// Writes `value` to the C out-parameter `out` (any alignment); `false`
/// when `out` is NULL.
///
/// # Safety
/// `out` is NULL or points at writable storage of `T`'s C type (of at
/// least `size_of::<T>()` bytes, any alignment).
pub(crate) unsafe fn write<T: Copy>(out: *mut c_void, value: T) -> bool {
    if out.is_null() {
        return false;
    }
    // SAFETY: non-NULL, and the caller promises storage of `T`'s size; the
    // write is unaligned because C does not promise Rust's alignment.
    unsafe { out.cast::<T>().write_unaligned(value) };
    true
}

/// Copies `bytes` to the C buffer `out`; `false` when `out` is NULL.
///
/// # Safety
/// `out` is NULL or points at `bytes.len()` writable bytes.
pub(crate) unsafe fn write_bytes(out: *mut c_void, bytes: &[u8]) -> bool {
    if out.is_null() {
        return false;
    }
    // SAFETY: non-NULL with room for `bytes` (the caller's promise); a
    // caller's buffer cannot overlap the library's own `bytes`.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.cast::<u8>(), bytes.len()) };
    true
}

/// A copy of `len` bytes of C memory at `src`; `None` when `src` is NULL
/// and `len` is not zero.
///
/// # Safety
/// `src` is NULL or holds `len` readable bytes until this returns.
pub(crate) unsafe fn read_bytes(src: *const c_void, len: usize) -> Option<Vec<u8>> {
    if len == 0 {
        return Some(Vec::new());
    }
    if src.is_null() {
        return None;
    }
    // SAFETY: non-NULL and `len` readable bytes (the caller's promise);
    // they are copied out before returning.
    Some(unsafe { std::slice::from_raw_parts(src.cast::<u8>(), len) }.to_vec())
}

/// [`read_bytes`] into shared storage: one copy, which the simulator keeps
/// (a reader's or a module's bytes) without copying it again.
///
/// # Safety
/// `src` is NULL or holds `len` readable bytes until this returns.
pub(crate) unsafe fn read_shared(src: *const c_void, len: usize) -> Option<Arc<[u8]>> {
    if len == 0 {
        return Some(Arc::from(&[][..]));
    }
    if src.is_null() {
        return None;
    }
    // SAFETY: non-NULL and `len` readable bytes (the caller's promise);
    // they are copied out before returning.
    Some(Arc::from(unsafe {
        std::slice::from_raw_parts(src.cast::<u8>(), len)
    }))
}

/// A copy of the C array `src[0..count]`; `None` when `src` is NULL and
/// `count` is not zero.
///
/// # Safety
/// `src` is NULL or points at `count` initialized elements of `T`'s C type.
pub(crate) unsafe fn read_array<T: Copy>(src: *const T, count: usize) -> Option<Vec<T>> {
    if count == 0 {
        return Some(Vec::new());
    }
    if src.is_null() {
        return None;
    }
    Some(
        (0..count)
            // SAFETY: `i < count` elements the caller promises; each is
            // read unaligned and copied.
            .map(|i| unsafe { src.add(i).read_unaligned() })
            .collect(),
    )
}

/// The NUL-terminated C string at `text` (lossy UTF-8); `None` for NULL.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string valid until this returns.
pub(crate) unsafe fn read_c_str(text: *const c_char) -> Option<String> {
    if text.is_null() {
        return None;
    }
    // SAFETY: non-NULL and NUL-terminated (the caller's promise); copied
    // into an owned string.
    Some(
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// `hipHostFn_t`: a host function a stream runs in order.
pub(crate) type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;

/// Alignment of host allocations (a page, as `hipHostMalloc` gives).
const HOST_ALIGNMENT: usize = 4096;

/// `size` zeroed bytes of host memory the client may read and write;
/// `None` when the system refuses.
///
/// The memory is an anonymous private mapping: the kernel hands out zero
/// pages as they are first touched, so a large pinned staging buffer a
/// client reserves and barely uses (IREE's HIP driver takes 128 MiB at
/// device creation) costs only the pages it uses, as on ROCm.
pub(crate) fn host_alloc(size: usize) -> Option<usize> {
    let len = mapping_len(size)?;
    // SAFETY: a fresh anonymous mapping at an address of the kernel's
    // choosing; nothing else is touched. MAP_FAILED is handled.
    let ptr = unsafe {
        mmap(
            std::ptr::null_mut(),
            len,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    (ptr as isize != -1 && !ptr.is_null()).then_some(ptr as usize)
}

/// Frees what [`host_alloc`] returned for the same `size`.
pub(crate) fn host_free(address: usize, size: usize) {
    if let Some(len) = mapping_len(size) {
        // SAFETY: `address` came from `host_alloc(size)`, a mapping of `len`
        // bytes, and the caller removed it from its table, so it is
        // unmapped once.
        unsafe { munmap(address as *mut c_void, len) };
    }
}

/// The mapping length for `size` bytes: whole pages, at least one.
fn mapping_len(size: usize) -> Option<usize> {
    size.max(1).checked_next_multiple_of(HOST_ALIGNMENT)
}

const PROT_READ: c_int = 1;
const PROT_WRITE: c_int = 2;
const MAP_PRIVATE: c_int = 0x02;
const MAP_ANONYMOUS: c_int = 0x20;

unsafe extern "C" {
    fn mmap(
        addr: *mut c_void,
        len: usize,
        prot: c_int,
        flags: c_int,
        fd: c_int,
        offset: i64,
    ) -> *mut c_void;
    fn munmap(addr: *mut c_void, len: usize) -> c_int;
}

/// Copies `len` bytes between host addresses the client handed to a copy
/// (they may overlap, as `memmove` allows).
///
/// # Safety
/// Both ranges are `len` bytes of the client's host memory, `src` readable
/// and `dst` writable, live until this returns.
pub(crate) unsafe fn host_copy(dst: usize, src: usize, len: usize) {
    if len == 0 {
        return;
    }
    // SAFETY: the caller's promise (both ranges live host memory).
    unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, len) };
}

/// Runs a client's host function with its user data.
///
/// # Safety
/// `function` is `None` or a host function taking `data`, callable from
/// this thread (`hipLaunchHostFunc`'s contract).
pub(crate) unsafe fn call_host_fn(function: HostFn, data: usize) {
    if let Some(function) = function {
        // SAFETY: the caller's promise.
        unsafe { function(data as *mut c_void) };
    }
}

unsafe extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

/// Registers `callback` to run when the process exits.
pub(crate) fn at_exit(callback: extern "C" fn()) {
    // SAFETY: `atexit` takes any `extern "C" fn()`; the callback lives in
    // this library, which is linked `-z nodelete` so it stays mapped.
    unsafe { atexit(callback) };
}

/// The calling thread's Linux id (what `/proc/PID/task` lists).
pub(crate) fn thread_id() -> u64 {
    // SAFETY: `gettid` takes nothing and cannot fail.
    let tid = unsafe { libc::gettid() };
    u64::try_from(tid).unwrap_or(0)
}
