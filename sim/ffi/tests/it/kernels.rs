//! Kernels execute: a launch through the C symbols runs the kernel's code
//! on the ISA interpreter in stream order; a kernel with an instruction the
//! interpreter lacks fails its launch; a kernel that reads outside memory
//! is reported at the next synchronization, as a device fault is.
//!
//! The kernel is IREE's `elementwise` fixture for gfx1100 (the w7900 preset
//! these tests run on): `c = a * b + a` over 4096 f32, 32 work-items per
//! work-group, 4 elements per work-item.

use std::ffi::{c_int, c_uint, c_void};

use amdgpu_sys::hip_error::*;

use super::hip_streams::setup;

type Handle = *mut c_void;

unsafe extern "C" {
    fn hipModuleLoadData(module: *mut Handle, image: *const c_void) -> hipError_t;
    fn hipModuleUnload(module: Handle) -> hipError_t;
    fn hipModuleGetFunction(f: *mut Handle, module: Handle, name: *const i8) -> hipError_t;
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
    fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    fn hipFree(ptr: *mut c_void) -> hipError_t;
    fn hipMemcpy(dst: *mut c_void, src: *const c_void, size: usize, kind: c_int) -> hipError_t;
    fn hipStreamCreateWithFlags(stream: *mut Handle, flags: c_uint) -> hipError_t;
    fn hipStreamDestroy(stream: Handle) -> hipError_t;
    fn hipStreamSynchronize(stream: Handle) -> hipError_t;
}

/// `hipMemcpyHostToDevice`, `hipMemcpyDeviceToHost`.
const H2D: c_int = 1;
const D2H: c_int = 2;

const KERNEL: &[u8] = b"elementwise_dispatch_0_elementwise_4096_f32\0";
const N: usize = 4096;
/// File offset of the kernel's first instruction (`.text` at 0x700).
const ENTRY: usize = 0x700;

fn fixture() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/iree/elementwise.gfx1100.hsaco"
    );
    std::fs::read(path).expect("fixtures/iree/elementwise.gfx1100.hsaco")
}

fn ok(code: hipError_t) {
    assert_eq!(code, hipSuccess, "HIP call failed");
}

struct Loaded {
    module: Handle,
    function: Handle,
}

/// `image` loaded and its kernel found (the image must outlive nothing:
/// HIP copies it).
fn load(image: &[u8]) -> Loaded {
    let mut module = std::ptr::null_mut();
    let mut function = std::ptr::null_mut();
    // SAFETY: a code object of its own extent; valid out-pointers; a
    // NUL-terminated name.
    unsafe {
        ok(hipModuleLoadData(&mut module, image.as_ptr().cast()));
        ok(hipModuleGetFunction(
            &mut function,
            module,
            KERNEL.as_ptr().cast(),
        ));
    }
    Loaded { module, function }
}

fn device_buffer(values: &[f32]) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer; `values` holds the bytes copied.
    unsafe {
        ok(hipMalloc(&mut p, size_of_val(values)));
        ok(hipMemcpy(
            p,
            values.as_ptr().cast(),
            size_of_val(values),
            H2D,
        ));
    }
    p
}

/// Launches the kernel on `stream` with three buffer arguments.
fn launch(f: Handle, stream: Handle, buffers: [*mut c_void; 3]) -> hipError_t {
    let mut args = buffers;
    let mut params: Vec<*mut c_void> = args
        .iter_mut()
        .map(|a| (a as *mut *mut c_void).cast())
        .collect();
    // SAFETY: one pointer per explicit argument (three 8-byte buffers).
    unsafe {
        hipModuleLaunchKernel(
            f,
            32,
            1,
            1,
            32,
            1,
            1,
            0,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
}

#[test]
fn a_launched_kernel_computes_its_outputs() {
    setup();
    let k = load(&fixture());
    let a: Vec<f32> = (0..N).map(|i| (i % 251) as f32 - 100.0).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 7) as f32 + 0.5).collect();
    let (da, db, dc) = (
        device_buffer(&a),
        device_buffer(&b),
        device_buffer(&vec![0.0; N]),
    );
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    ok(launch(k.function, stream, [da, db, dc]));
    ok(unsafe { hipStreamSynchronize(stream) });
    let mut c = vec![0f32; N];
    // SAFETY: `c` holds N floats.
    ok(unsafe { hipMemcpy(c.as_mut_ptr().cast(), dc, N * 4, D2H) });
    // The inputs are small integers and halves: a * b + a is exact in f32
    // whether the kernel rounds once (fma) or twice.
    for i in 0..N {
        assert_eq!(c[i], a[i] * b[i] + a[i], "element {i}");
    }
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipStreamDestroy(stream));
        for p in [da, db, dc] {
            ok(hipFree(p));
        }
        ok(hipModuleUnload(k.module));
    }
}

#[test]
fn a_kernel_with_an_instruction_the_interpreter_lacks_fails_its_launch() {
    setup();
    let mut image = fixture();
    // `v_sad_u32 v0, v1, v2, v3` for gfx1100 (llvm-mc-19 -show-encoding):
    // valid code the interpreter does not implement.
    image[ENTRY..ENTRY + 8].copy_from_slice(&[0x00, 0x00, 0x25, 0xd6, 0x01, 0x05, 0x0e, 0x04]);
    let k = load(&image);
    let dc = device_buffer(&[0.0; 16]);
    assert_eq!(
        launch(k.function, std::ptr::null_mut(), [dc, dc, dc]),
        hipErrorLaunchFailure
    );
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}

#[test]
fn a_kernel_reading_outside_memory_faults_at_the_next_synchronization() {
    setup();
    let k = load(&fixture());
    let dc = device_buffer(&vec![0.0; N]);
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    // Inputs at an address no allocation holds.
    let bad = 0x10usize as *mut c_void;
    ok(launch(k.function, stream, [bad, bad, dc]));
    assert_eq!(
        unsafe { hipStreamSynchronize(stream) },
        hipErrorIllegalAddress
    );
    // SAFETY: handles of this test's.
    unsafe {
        ok(hipStreamDestroy(stream));
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}
