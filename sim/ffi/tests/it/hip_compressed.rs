//! Compressed offload bundles (`CCOB`) where HIP takes a bundle: clang-19's
//! `--offload-compress` fat binary of `fixtures/hip/src/vector_add.hip`
//! (`fixtures/hip/compressed.hip_fatbin`, version 2, zstd) loaded by
//! `hipModuleLoad` from a file and by `hipModuleLoadData` from memory on
//! the w7900 (gfx1100, one of its two entries), its kernel run against the
//! host's sums; damaged copies are `hipErrorInvalidImage`. The program
//! built with it (`vector_add.compressed`) runs in `hip_programs`.

use std::ffi::{CString, c_char, c_int, c_uint, c_void};
use std::path::Path;

use amdgpu_sys::hip_error::*;

// Links the library's exports into this test binary.
use amdgpu_sim_ffi as _;

type Handle = *mut c_void;

unsafe extern "C" {
    fn hipSetDevice(device: c_int) -> hipError_t;
    fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipFree(ptr: *mut c_void) -> hipError_t;
    fn hipMemcpyHtoD(dst: *mut c_void, src: *mut c_void, size: usize) -> hipError_t;
    fn hipMemcpyDtoH(dst: *mut c_void, src: *mut c_void, size: usize) -> hipError_t;
    fn hipDeviceSynchronize() -> hipError_t;
    fn hipGetLastError() -> hipError_t;
    fn hipModuleLoad(module: *mut Handle, path: *const c_char) -> hipError_t;
    fn hipModuleLoadData(module: *mut Handle, image: *const c_void) -> hipError_t;
    fn hipModuleUnload(module: Handle) -> hipError_t;
    fn hipModuleGetFunction(f: *mut Handle, m: Handle, name: *const c_char) -> hipError_t;
    #[allow(clippy::too_many_arguments)]
    fn hipModuleLaunchKernel(
        f: Handle,
        gx: c_uint,
        gy: c_uint,
        gz: c_uint,
        bx: c_uint,
        by: c_uint,
        bz: c_uint,
        shared: c_uint,
        stream: Handle,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> hipError_t;
}

/// `vector_add(const float*, const float*, float*, int)`, mangled.
const KERNEL: &std::ffi::CStr = c"_Z10vector_addPKfS0_Pfi";

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/hip/compressed.hip_fatbin")
}

fn ok(code: hipError_t) {
    assert_eq!(code, hipSuccess, "HIP call failed");
}

/// Runs the module's `vector_add` over 1,000 floats; the host's sums.
fn check_vector_add(module: Handle) {
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 7.0 - i as f32).collect();
    let mut c = vec![0f32; n];
    let bytes = n * 4;
    let mut f = std::ptr::null_mut();
    let (mut da, mut db, mut dc) = (
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
    );
    // SAFETY: valid out-pointers, host buffers of `bytes`, params pointing
    // at each argument.
    unsafe {
        ok(hipModuleGetFunction(&mut f, module, KERNEL.as_ptr()));
        for p in [&mut da, &mut db, &mut dc] {
            ok(hipMalloc(p, bytes));
        }
        ok(hipMemcpyHtoD(da, a.as_ptr().cast_mut().cast(), bytes));
        ok(hipMemcpyHtoD(db, b.as_ptr().cast_mut().cast(), bytes));
        let mut count = n as c_int;
        let mut params: [*mut c_void; 4] = [
            (&raw mut da).cast(),
            (&raw mut db).cast(),
            (&raw mut dc).cast(),
            (&raw mut count).cast(),
        ];
        ok(hipModuleLaunchKernel(
            f,
            n.div_ceil(256) as c_uint,
            1,
            1,
            256,
            1,
            1,
            0,
            std::ptr::null_mut(),
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        ));
        ok(hipDeviceSynchronize());
        ok(hipMemcpyDtoH(c.as_mut_ptr().cast(), dc, bytes));
        for p in [da, db, dc] {
            ok(hipFree(p));
        }
    }
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(c, want);
}

#[test]
fn a_compressed_bundle_loads_from_a_file_and_from_memory() {
    crate::node_environment();
    let path = CString::new(fixture().to_str().unwrap()).unwrap();
    let bytes = std::fs::read(fixture()).unwrap();
    assert!(bytes.starts_with(b"CCOB"));
    let mut module = std::ptr::null_mut();
    // SAFETY: a valid out-pointer, a NUL-terminated path; `bytes` is the
    // bundle, live across the call.
    unsafe {
        ok(hipSetDevice(0));
        ok(hipModuleLoad(&mut module, path.as_ptr()));
        check_vector_add(module);
        ok(hipModuleUnload(module));
        ok(hipModuleLoadData(&mut module, bytes.as_ptr().cast()));
        check_vector_add(module);
        ok(hipModuleUnload(module));
    }
}

/// A change made to a copy of the bundle.
type Damage = fn(&mut Vec<u8>);

#[test]
fn a_damaged_compressed_bundle_is_an_invalid_image() {
    crate::node_environment();
    let bytes = std::fs::read(fixture()).unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hip-compressed");
    std::fs::create_dir_all(&dir).unwrap();
    let damage: [(&str, Damage); 4] = [
        ("version 7", |b| b[4] = 7),
        ("a size the data does not decompress to", |b| {
            b[12..16].copy_from_slice(&5u32.to_le_bytes())
        }),
        ("damaged zstd data", |b| {
            let mid = b.len() / 2;
            b[mid..mid + 16].fill(0xa5)
        }),
        ("a total size past the file", |b| {
            let total = b.len() as u32 + 100;
            b[8..12].copy_from_slice(&total.to_le_bytes())
        }),
    ];
    for (what, damage) in damage {
        let mut bad = bytes.clone();
        damage(&mut bad);
        let file = dir.join("bad.hip_fatbin");
        std::fs::write(&file, &bad).unwrap();
        let path = CString::new(file.to_str().unwrap()).unwrap();
        let mut module = std::ptr::null_mut();
        // SAFETY: a valid out-pointer and a NUL-terminated path.
        let code = unsafe { hipModuleLoad(&mut module, path.as_ptr()) };
        assert_eq!(code, hipErrorInvalidImage, "{what}");
        // SAFETY: plain C call.
        unsafe { hipGetLastError() };
        if what != "a total size past the file" {
            // From memory the header's total size is trusted, as HIP trusts
            // an image's headers; every other damage is found.
            // SAFETY: `bad` holds the whole bundle the header describes.
            let code = unsafe { hipModuleLoadData(&mut module, bad.as_ptr().cast()) };
            assert_eq!(code, hipErrorInvalidImage, "{what} (from memory)");
            // SAFETY: plain C call.
            unsafe { hipGetLastError() };
        }
    }
}
