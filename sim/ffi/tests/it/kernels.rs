//! Kernels execute: a launch through the C symbols runs the kernel's code
//! on the ISA interpreter in stream order; a kernel with an instruction the
//! interpreter lacks fails its launch, and so does one that jumps outside
//! its code when it runs; a kernel that reads outside memory
//! is reported at the next synchronization, as a device fault is, and by
//! every synchronizing call on its device after that (HIP's sticky
//! `hipErrorIllegalAddress`), while releases still succeed.
//!
//! The kernel is IREE's `elementwise` fixture for gfx1100 (the w7900 preset
//! these tests run on): `c = a * b + a` over 4096 f32, 32 work-items per
//! work-group, 4 elements per work-item.

use std::ffi::{c_int, c_uint, c_void};

use amdgpu_sys::hip_error::*;

use super::hip_streams::setup;

pub(crate) type Handle = *mut c_void;

// The HIP calls these tests make; the other kernel tests call them too.
unsafe extern "C" {
    pub(crate) fn hipModuleLoadData(module: *mut Handle, image: *const c_void) -> hipError_t;
    pub(crate) fn hipModuleUnload(module: Handle) -> hipError_t;
    pub(crate) fn hipModuleGetFunction(
        f: *mut Handle,
        module: Handle,
        name: *const i8,
    ) -> hipError_t;
    pub(crate) fn hipModuleLaunchKernel(
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
    pub(crate) fn hipMalloc(ptr: *mut *mut c_void, size: usize) -> hipError_t;
    pub(crate) fn hipFree(ptr: *mut c_void) -> hipError_t;
    pub(crate) fn hipMemcpy(
        dst: *mut c_void,
        src: *const c_void,
        size: usize,
        kind: c_int,
    ) -> hipError_t;
    pub(crate) fn hipStreamCreateWithFlags(stream: *mut Handle, flags: c_uint) -> hipError_t;
    pub(crate) fn hipStreamDestroy(stream: Handle) -> hipError_t;
    pub(crate) fn hipStreamSynchronize(stream: Handle) -> hipError_t;
    fn hipStreamQuery(stream: Handle) -> hipError_t;
    fn hipDeviceSynchronize() -> hipError_t;
    pub(crate) fn hipSetDevice(device: c_int) -> hipError_t;
    fn hipEventCreate(event: *mut Handle) -> hipError_t;
    fn hipEventDestroy(event: Handle) -> hipError_t;
    fn hipEventRecord(event: Handle, stream: Handle) -> hipError_t;
    fn hipEventQuery(event: Handle) -> hipError_t;
    fn hipEventSynchronize(event: Handle) -> hipError_t;
}

/// `hipMemcpyHostToDevice`, `hipMemcpyDeviceToHost`.
const H2D: c_int = 1;
pub(crate) const D2H: c_int = 2;

pub(crate) const KERNEL: &[u8] = b"elementwise_dispatch_0_elementwise_4096_f32\0";
pub(crate) const N: usize = 4096;
/// File offset of the kernel's first instruction (`.text` at 0x700).
const ENTRY: usize = 0x700;

pub(crate) fn fixture() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/iree/elementwise.gfx1100.hsaco"
    );
    std::fs::read(path).expect("fixtures/iree/elementwise.gfx1100.hsaco")
}

pub(crate) fn ok(code: hipError_t) {
    assert_eq!(code, hipSuccess, "HIP call failed");
}

pub(crate) struct Loaded {
    pub(crate) module: Handle,
    pub(crate) function: Handle,
}

/// `image` loaded and its kernel found (the image must outlive nothing:
/// HIP copies it).
pub(crate) fn load(image: &[u8]) -> Loaded {
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

pub(crate) fn device_buffer(values: &[f32]) -> *mut c_void {
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
pub(crate) fn launch(f: Handle, stream: Handle, buffers: [*mut c_void; 3]) -> hipError_t {
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
    in_child("unsupported_instruction_child", "");
}

#[test]
#[ignore = "run by a_kernel_with_an_instruction_the_interpreter_lacks_fails_its_launch, in a child"]
fn unsupported_instruction_child() {
    setup();
    let mut image = fixture();
    // `v_lerp_u8 v0, v1, v2, v3` for gfx1100 (llvm-mc-19 -show-encoding):
    // valid code the interpreter does not implement.
    image[ENTRY..ENTRY + 8].copy_from_slice(&[0x00, 0x00, 0x15, 0xd6, 0x01, 0x05, 0x0e, 0x04]);
    let k = load(&image);
    let dc = device_buffer(&[0.0; 16]);
    assert_eq!(
        launch(k.function, std::ptr::null_mut(), [dc, dc, dc]),
        hipErrorLaunchFailure
    );
    // The device keeps the failure: nothing it was to compute is there.
    // SAFETY: plain C calls; handles of this test's.
    unsafe {
        assert_eq!(hipDeviceSynchronize(), hipErrorLaunchFailure);
        assert_eq!(
            hipStreamSynchronize(std::ptr::null_mut()),
            hipErrorLaunchFailure
        );
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}

#[test]
fn a_kernel_jumping_outside_its_code_fails_as_a_launch_the_interpreter_cannot_run() {
    in_child("jump_outside_code_child", "");
}

#[test]
#[ignore = "run by a_kernel_jumping_outside_its_code_fails_as_a_launch_the_interpreter_cannot_run, in a child"]
fn jump_outside_code_child() {
    setup();
    let mut image = fixture();
    // `s_setpc_b64 s[0:1]; s_nop 0` for gfx1100 (llvm-mc-19
    // -show-encoding), over the first 8-byte instruction: it decodes, but
    // its target (a kernarg pointer, not code) is known only when it runs,
    // and a call into other code is something the interpreter does not
    // do: a launch failure, not a device fault.
    image[ENTRY..ENTRY + 8].copy_from_slice(&[0x00, 0x48, 0x80, 0xbe, 0x00, 0x00, 0x80, 0xbf]);
    let k = load(&image);
    let dc = device_buffer(&[0.0; 16]);
    // The null stream runs the kernel before the launch returns.
    assert_eq!(
        launch(k.function, std::ptr::null_mut(), [dc, dc, dc]),
        hipErrorLaunchFailure
    );
    // SAFETY: plain C calls; handles of this test's.
    unsafe {
        assert_eq!(hipDeviceSynchronize(), hipErrorLaunchFailure);
        assert_eq!(
            hipStreamSynchronize(std::ptr::null_mut()),
            hipErrorLaunchFailure
        );
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}

/// Runs the ignored test `kernels::NAME` in a child with `faults` armed:
/// a faulted device stays faulted for the rest of its process, which must
/// not be this binary's.
fn in_child(name: &str, faults: &str) {
    let output = crate::child::command(&format!("kernels::{name}"))
        .env("AMDGPU_SIM_FAULTS", faults)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, name);
}

/// Runs the ignored test `kernels::NAME` in a child under the default
/// policy (`abort`), with a report file; asserts that it ended with
/// `SIGABRT` (what ROCr's fault handler ends a process with) after saying
/// each of `says` on stderr; the report it wrote.
fn aborted_child(name: &str, says: &[&str]) -> String {
    use std::os::unix::process::ExitStatusExt;
    let report = std::env::temp_dir().join(format!("amdgpu-abort-{name}-{}", std::process::id()));
    // `--nocapture`: what the library says before the abort would
    // otherwise die with the test harness's capture.
    let output = crate::child::command(&format!("kernels::{name}"))
        .arg("--nocapture")
        .env("AMDGPU_SIM_MACHINE", "w7900")
        .env("AMDGPU_SIM_REPORT", &report)
        .env_remove("AMDGPU_SIM_ON_FAULT")
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run the child");
    let written = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = std::fs::remove_file(&report);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.signal(),
        Some(6),
        "{:?}: {stderr}",
        output.status
    );
    for words in says {
        assert!(stderr.contains(words), "{words}: {stderr}");
    }
    written
}

#[test]
fn a_kernel_the_interpreter_cannot_run_aborts_the_process_at_its_launch() {
    let report = aborted_child(
        "unrunnable_child",
        &[
            "instruction `v_lerp_u8` is not supported by the interpreter",
            "a kernel the node cannot run aborts the process",
        ],
    );
    assert!(report.contains("launches_executed 0\n"), "{report}");
}

#[test]
#[ignore = "run by a_kernel_the_interpreter_cannot_run_aborts_the_process_at_its_launch, in a child"]
fn unrunnable_child() {
    // No `setup`: the parent chose the environment (no `report` policy).
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let mut image = fixture();
    // `v_lerp_u8 v0, v1, v2, v3`, as in the launch-failure test.
    image[ENTRY..ENTRY + 8].copy_from_slice(&[0x00, 0x00, 0x15, 0xd6, 0x01, 0x05, 0x0e, 0x04]);
    let k = load(&image);
    let dc = device_buffer(&[0.0; 16]);
    launch(k.function, std::ptr::null_mut(), [dc, dc, dc]);
    unreachable!("a kernel the node cannot run ends the process at its launch");
}

#[test]
fn a_faulting_kernel_aborts_the_process_by_default_as_rocm_does() {
    let report = aborted_child(
        "aborting_child",
        &[
            "faulted: memory access fault: load of",
            "aborts the process, as on ROCm",
        ],
    );
    // The report is written before the process ends.
    assert!(report.contains("launches_faulted 1\n"), "{report}");
}

#[test]
#[ignore = "run by a_faulting_kernel_aborts_the_process_by_default_as_rocm_does, in a child"]
fn aborting_child() {
    // No `setup`: the parent chose the environment (no `report` policy).
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let k = load(&fixture());
    let bad = 0x10usize as *mut c_void;
    let dc = device_buffer(&vec![0.0; N]);
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    ok(launch(k.function, stream, [bad, bad, dc]));
    // SAFETY: a live stream; the fault has ended the process before the
    // stream's work is done, so this never returns.
    unsafe { hipStreamSynchronize(stream) };
    unreachable!("a faulting kernel ends the process");
}

#[test]
fn a_kernel_reading_outside_memory_faults_every_later_synchronization() {
    in_child("faulted_device_child", "");
}

#[test]
fn an_injected_kernel_fault_is_a_fault_like_any_other() {
    in_child("injected_fault_child", "kernel@2");
}

#[test]
#[ignore = "run by a_kernel_reading_outside_memory_faults_every_later_synchronization, in a child"]
fn faulted_device_child() {
    setup();
    let k = load(&fixture());
    // Inputs at an address no allocation holds.
    let bad = 0x10usize as *mut c_void;
    let dc = device_buffer(&vec![0.0; N]);
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    ok(launch(k.function, stream, [bad, bad, dc]));
    the_device_stays_faulted(k, stream, dc);
}

#[test]
#[ignore = "run by an_injected_kernel_fault_is_a_fault_like_any_other, in a child"]
fn injected_fault_child() {
    setup();
    let k = load(&fixture());
    let (da, dc) = (device_buffer(&vec![1.0; N]), device_buffer(&vec![0.0; N]));
    let mut stream = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    ok(unsafe { hipStreamCreateWithFlags(&mut stream, 0) });
    // `kernel@2`: the first kernel computes, the second faults.
    ok(launch(k.function, stream, [da, da, dc]));
    ok(unsafe { hipStreamSynchronize(stream) });
    ok(launch(k.function, stream, [da, da, dc]));
    the_device_stays_faulted(k, stream, dc);
    // SAFETY: a buffer of this test's.
    ok(unsafe { hipFree(da) });
}

/// After a kernel on `stream` faulted: every synchronizing call on the
/// device answers `hipErrorIllegalAddress`, however often and on whichever
/// stream or event; releases succeed; the test's objects are released.
fn the_device_stays_faulted(k: Loaded, stream: Handle, dc: *mut c_void) {
    let faulted = |call: &str, code: hipError_t| {
        assert_eq!(code, hipErrorIllegalAddress, "{call}");
    };
    // SAFETY: live handles of this test's; out-pointers valid.
    unsafe {
        faulted("hipStreamSynchronize", hipStreamSynchronize(stream));
        faulted("hipStreamSynchronize again", hipStreamSynchronize(stream));
        faulted("hipStreamQuery", hipStreamQuery(stream));
        faulted("hipDeviceSynchronize", hipDeviceSynchronize());
        faulted(
            "hipStreamSynchronize of the null stream",
            hipStreamSynchronize(std::ptr::null_mut()),
        );
        let mut event = std::ptr::null_mut();
        ok(hipEventCreate(&mut event));
        ok(hipEventRecord(event, stream));
        faulted("hipEventSynchronize", hipEventSynchronize(event));
        faulted("hipEventQuery", hipEventQuery(event));
        // A stream created after the fault runs on the same device.
        let mut later = std::ptr::null_mut();
        ok(hipStreamCreateWithFlags(&mut later, 0));
        faulted("a later stream's synchronize", hipStreamSynchronize(later));
        // A copy that waits for the device.
        let mut c = vec![0f32; N];
        faulted(
            "hipMemcpy to the host",
            hipMemcpy(c.as_mut_ptr().cast(), dc, N * 4, D2H),
        );
        ok(hipEventDestroy(event));
        ok(hipStreamDestroy(later));
        ok(hipStreamDestroy(stream));
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}

/// A straight-line program for gfx1100 (`llvm-mc-19 -show-encoding`),
/// each instruction with the class docs/ISA.md's fidelity table gives it.
const STRAIGHT_LINE: &[(&str, &[u8], &str)] = &[
    ("v_mov_b32 v1, 1.0", &[0xf2, 0x02, 0x02, 0x7e], "exact"),
    // A transcendental: correctly rounded here, approximated by hardware.
    ("v_exp_f32 v2, v1", &[0x01, 0x4b, 0x04, 0x7e], "approximate"),
    ("v_add_f32 v3, v1, v2", &[0x01, 0x05, 0x06, 0x06], "exact"),
    // A cache invalidation: there are no caches here.
    (
        "buffer_gl0_inv",
        &[0x00, 0x00, 0xac, 0xe0, 0x00, 0x00, 0x00, 0x00],
        "unmodelled",
    ),
    ("s_endpgm", &[0x00, 0x00, 0xb0, 0xbf], "exact"),
];

#[test]
fn the_report_counts_each_kernels_instructions_by_fidelity() {
    let report = std::env::temp_dir().join(format!("amdgpu-fidelity-{}", std::process::id()));
    let output = crate::child::command("kernels::fidelity_child")
        .env("AMDGPU_SIM_MACHINE", "w7900")
        .env("AMDGPU_SIM_REPORT", &report)
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run the child");
    let written = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = std::fs::remove_file(&report);
    crate::child::assert_passed(&output, "fidelity_child");
    // 32 blocks of 32 work-items: one wave each, wave32 or wave64.
    let waves = 32;
    let count = |class: &str| waves * STRAIGHT_LINE.iter().filter(|(_, _, c)| *c == class).count();
    let (exact, approximate, unmodelled) =
        (count("exact"), count("approximate"), count("unmodelled"));
    let total = waves * STRAIGHT_LINE.len();
    assert_eq!((exact, approximate, unmodelled), (96, 32, 32));
    let name = std::str::from_utf8(&KERNEL[..KERNEL.len() - 1]).expect("ASCII");
    let tail = format!(
        "instructions {total}\ninstructions_exact {exact}\ninstructions_approximate {approximate}\n\
         instructions_unmodelled {unmodelled}\n\
         kernel {name} instructions {total} exact {exact} approximate {approximate} unmodelled {unmodelled}\n"
    );
    assert!(written.ends_with(&tail), "{written}");
    // The account follows every line the report held before it.
    assert!(
        written.contains("hip_calls ")
            && written.find("hip_calls ") < written.find("instructions "),
        "{written}"
    );
}

#[test]
#[ignore = "run by the_report_counts_each_kernels_instructions_by_fidelity, in a child"]
fn fidelity_child() {
    setup();
    let mut image = fixture();
    let mut at = ENTRY;
    for (_, bytes, _) in STRAIGHT_LINE {
        image[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    }
    let k = load(&image);
    let dc = device_buffer(&[0.0; 16]);
    ok(launch(k.function, std::ptr::null_mut(), [dc, dc, dc]));
    // SAFETY: plain C calls; handles of this test's.
    unsafe {
        ok(hipDeviceSynchronize());
        ok(hipFree(dc));
        ok(hipModuleUnload(k.module));
    }
}
