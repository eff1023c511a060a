//! Pinned host memory (`hipHostMalloc`) as a client sees it: page-aligned,
//! zero-filled, writable, and costing only the pages the client touches.
//! IREE's HIP driver reserves a 128 MiB pinned staging buffer when it
//! creates a device and uses a few pages of it; a library that fills the
//! whole buffer up front makes every IREE process pay 128 MiB of memory and
//! the time to fault it in (docs/PERFORMANCE.md, "An IREE run's own cost").

use std::ffi::{c_uint, c_void};

use amdgpu_sys::hip_error::*;

use super::hip_streams::setup;

unsafe extern "C" {
    fn hipHostMalloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> hipError_t;
    fn hipHostFree(ptr: *mut c_void) -> hipError_t;
}

/// This process's resident memory in bytes (`/proc/self/statm`, second
/// field, in pages of 4 KiB on the machines CI runs on).
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

#[test]
fn a_large_pinned_buffer_costs_only_the_pages_touched() {
    setup();
    const SIZE: usize = 1 << 30;
    let before = resident_bytes();
    let mut ptr = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { hipHostMalloc(&mut ptr, SIZE, 0) }, hipSuccess);
    let grown = resident_bytes().saturating_sub(before);
    // Other tests of this binary run beside this one, but none allocates
    // anything near this bound; filling the buffer would add 1 GiB.
    assert!(
        grown < 256 << 20,
        "hipHostMalloc(1 GiB) made {grown} bytes resident"
    );
    assert_eq!(ptr as usize % 4096, 0, "not page-aligned");
    // SAFETY: `ptr` is SIZE bytes of host memory from hipHostMalloc, freed
    // only at the end of this block.
    unsafe {
        let bytes = ptr.cast::<u8>();
        for offset in [0, SIZE / 2, SIZE - 1] {
            assert_eq!(*bytes.add(offset), 0, "byte {offset} not zero");
            *bytes.add(offset) = 0xa5;
            assert_eq!(*bytes.add(offset), 0xa5);
        }
        assert_eq!(hipHostFree(ptr), hipSuccess);
    }
}
