//! Kernels run as on a GPU, beside everything else: the node's lock is not
//! held while a kernel runs, so other threads' HIP and HSA calls complete
//! meanwhile; and a kernel's work-groups run on `AMDGPU_SIM_THREADS`
//! threads, its atomics atomic across them.
//!
//! The kernels are `fixtures/hsaco/concurrency/concurrency.cl` for gfx1100
//! (the w7900 preset). `wait_for_flag` marks that it started, then spins
//! until a non-zero value reaches its flag: it can only end after the
//! host stored that value, so every call the host made before that store
//! completed while the kernel ran — deterministically, whatever the
//! threads' timing (held behind the kernel, the calls would never return,
//! and the kernel would end as hung after 2^28 instructions).
//! `take_tickets` has every work-item take a ticket from one counter by an
//! atomic add.
//!
//! Kernels reach device memory without the node's lock (through a view of
//! it taken when the dispatch starts): a free on another thread while a
//! kernel runs returns at once, and the freed bytes stay backed for the
//! kernel until it ends; atomics stay atomic across threads and across
//! dispatches of several client threads, on device and host memory.

use std::ffi::{c_int, c_uint, c_void};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use amdgpu_sys::hip_error::*;
use amdgpu_sys::hip_types::hipDeviceProp_tR0000;

use super::kernels::{
    D2H, Handle, hipFree, hipMalloc, hipMemcpy, hipModuleGetFunction, hipModuleLaunchKernel,
    hipModuleLoadData, hipModuleUnload, hipSetDevice, hipStreamCreateWithFlags, hipStreamDestroy,
    hipStreamSynchronize, ok,
};

unsafe extern "C" {
    fn hipGetDeviceProperties(prop: *mut hipDeviceProp_tR0000, device: c_int) -> hipError_t;
    fn hsa_init() -> u32;
    fn hsa_shut_down() -> u32;
    fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> u32;
    fn hipHostMalloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> hipError_t;
    fn hipHostFree(ptr: *mut c_void) -> hipError_t;
}

/// `hipMemcpyHostToDevice`.
const H2D: c_int = 1;
/// `hipStreamNonBlocking`.
const NON_BLOCKING: c_uint = 1;
/// `HSA_SYSTEM_INFO_VERSION_MAJOR`.
const HSA_VERSION_MAJOR: u32 = 0;
/// How long the host waits for the kernel to say it started.
const START_WAIT: Duration = Duration::from_secs(60);
/// `take_tickets`' work-groups (64 work-items each).
const TICKET_GROUPS: u32 = 256;

fn fixture() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/hsaco/concurrency/concurrency.gfx1100.cov5.hsaco"
    );
    std::fs::read(path).expect("fixtures/hsaco/concurrency/concurrency.gfx1100.cov5.hsaco")
}

/// The module of [`fixture`] and its kernel `name` (NUL-terminated).
fn kernel(name: &[u8]) -> (Handle, Handle) {
    let image = fixture();
    let (mut module, mut function) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: a code object of its own extent; valid out-pointers; a
    // NUL-terminated name.
    unsafe {
        ok(hipModuleLoadData(&mut module, image.as_ptr().cast()));
        ok(hipModuleGetFunction(
            &mut function,
            module,
            name.as_ptr().cast(),
        ));
    }
    (module, function)
}

/// A device buffer of `words` zeroed words.
fn zeroed(words: usize) -> *mut c_void {
    let zeros = vec![0u32; words];
    let mut p = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `zeros` holds the bytes copied.
    unsafe {
        ok(hipMalloc(&mut p, words * 4));
        ok(hipMemcpy(p, zeros.as_ptr().cast(), words * 4, H2D));
    }
    p
}

fn read_words(device: *mut c_void, words: usize) -> Vec<u32> {
    let mut out = vec![0u32; words];
    // SAFETY: `out` has room for the bytes copied; `device` holds them.
    ok(unsafe { hipMemcpy(out.as_mut_ptr().cast(), device, words * 4, D2H) });
    out
}

/// Launches `f` over `groups` work-groups of `block` work-items on
/// `stream` with pointer arguments `buffers`.
fn launch(f: Handle, stream: Handle, groups: u32, block: u32, buffers: &[usize]) -> hipError_t {
    let mut args: Vec<*mut c_void> = buffers.iter().map(|&b| b as *mut c_void).collect();
    let mut params: Vec<*mut c_void> = args
        .iter_mut()
        .map(|a| (a as *mut *mut c_void).cast())
        .collect();
    // SAFETY: one pointer per explicit argument (8-byte buffers each).
    unsafe {
        hipModuleLaunchKernel(
            f,
            groups,
            1,
            1,
            block,
            1,
            1,
            0,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
}

/// Runs the ignored test `concurrent_kernels::NAME` in a child on the
/// w7900 preset with `threads` kernel threads.
fn in_child(name: &str, threads: &str) {
    let output = crate::child::command(&format!("concurrent_kernels::{name}"))
        .env("AMDGPU_SIM_MACHINE", "w7900")
        .env("AMDGPU_SIM_THREADS", threads)
        .env_remove("AMDGPU_SIM_FAULTS")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, &format!("{name}, AMDGPU_SIM_THREADS={threads}"));
}

#[test]
fn other_threads_calls_complete_while_a_kernel_runs() {
    for threads in ["1", "2"] {
        in_child("calls_while_a_kernel_runs_child", threads);
    }
}

/// `wait_for_flag` launched from a thread of its own on a stream of its
/// own, seen running.
struct Waiting {
    module: Handle,
    stream: Handle,
    flag: *mut c_void,
    started: *mut c_void,
    out: *mut c_void,
    finished: Arc<AtomicBool>,
    launcher: std::thread::JoinHandle<(hipError_t, hipError_t)>,
}

impl Waiting {
    /// Launches the kernel and waits until its own store says it runs.
    fn start() -> Waiting {
        let (module, f) = kernel(b"wait_for_flag\0");
        let (flag, started, out) = (zeroed(1), zeroed(1), zeroed(1));
        let mut stream = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        ok(unsafe { hipStreamCreateWithFlags(&mut stream, NON_BLOCKING) });
        let finished = Arc::new(AtomicBool::new(false));
        let launcher = {
            let finished = Arc::clone(&finished);
            let (stream, f) = (stream as usize, f as usize);
            let buffers = [flag as usize, started as usize, out as usize];
            std::thread::spawn(move || {
                let stream = stream as Handle;
                let launched = launch(f as Handle, stream, 1, 1, &buffers);
                // SAFETY: a live stream.
                let synchronized = unsafe { hipStreamSynchronize(stream) };
                finished.store(true, Ordering::SeqCst);
                (launched, synchronized)
            })
        };
        let since = Instant::now();
        while read_words(started, 1) != [1] {
            assert!(since.elapsed() < START_WAIT, "the kernel never started");
            std::thread::sleep(Duration::from_millis(1));
        }
        Waiting {
            module,
            stream,
            flag,
            started,
            out,
            finished,
            launcher,
        }
    }

    /// Whether the kernel has ended.
    fn finished(&self) -> bool {
        self.finished.load(Ordering::SeqCst)
    }

    /// Lets the kernel end by storing `value` to its flag; the launch's
    /// and the synchronization's results.
    fn release(self, value: u32) -> (Released, (hipError_t, hipError_t)) {
        // SAFETY: one word from `value` to the flag's buffer.
        ok(unsafe { hipMemcpy(self.flag, (&value as *const u32).cast(), 4, H2D) });
        let results = self.launcher.join().expect("the launching thread");
        let rest = Released {
            module: self.module,
            stream: self.stream,
            flag: self.flag,
            started: self.started,
            out: self.out,
        };
        (rest, results)
    }
}

/// What [`Waiting::release`] leaves to free.
struct Released {
    module: Handle,
    stream: Handle,
    flag: *mut c_void,
    started: *mut c_void,
    out: *mut c_void,
}

impl Released {
    /// Frees the stream, the module and `buffers`.
    fn free(self, buffers: &[*mut c_void]) {
        // SAFETY: HIP's own stream, allocations and module.
        unsafe {
            ok(hipStreamDestroy(self.stream));
            for &p in buffers {
                ok(hipFree(p));
            }
            ok(hipModuleUnload(self.module));
        }
    }
}

#[test]
#[ignore = "run by other_threads_calls_complete_while_a_kernel_runs, in a child"]
fn calls_while_a_kernel_runs_child() {
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    // The kernel's own store says it runs: each read here is a call made
    // while it does.
    let waiting = Waiting::start();
    // Allocation, copies both ways, device properties, HSA's system info.
    let scratch = zeroed(1024);
    let values: Vec<u32> = (0..1024u32).map(|i| i * 3 + 1).collect();
    // SAFETY: `values` holds the bytes copied; `scratch` has room.
    ok(unsafe { hipMemcpy(scratch, values.as_ptr().cast(), 4096, H2D) });
    assert_eq!(read_words(scratch, 1024), values);
    // SAFETY: an allocation of HIP's.
    ok(unsafe { hipFree(scratch) });
    // SAFETY: zeroed bytes are a valid struct of integers and arrays.
    let mut props: hipDeviceProp_tR0000 = unsafe { std::mem::zeroed() };
    // SAFETY: a valid out-pointer of HIP 5's struct.
    ok(unsafe { hipGetDeviceProperties(&mut props, 0) });
    let arch: Vec<u8> = props.gcnArchName.iter().map(|&c| c as u8).collect();
    assert!(
        arch.starts_with(b"gfx1100"),
        "{:?}",
        String::from_utf8_lossy(&arch)
    );
    // SAFETY: plain C calls; a u16 out-value.
    unsafe {
        assert_eq!(hsa_init(), 0);
        let mut major = 0u16;
        assert_eq!(
            hsa_system_get_info(HSA_VERSION_MAJOR, (&mut major as *mut u16).cast()),
            0
        );
        assert_eq!(major, 1);
        assert_eq!(hsa_shut_down(), 0);
    }
    assert!(
        !waiting.finished(),
        "the kernel ended before its flag was set"
    );

    // Now let it end: the value it saw is the one stored.
    let (rest, (launched, synchronized)) = waiting.release(7);
    assert_eq!(launched, hipSuccess);
    assert_eq!(synchronized, hipSuccess);
    assert_eq!(read_words(rest.out, 1), [7]);
    let buffers = [rest.flag, rest.started, rest.out];
    rest.free(&buffers);
}

#[test]
fn a_free_on_another_thread_while_a_kernel_runs_returns_and_the_kernel_ends_normally() {
    for threads in ["1", "2"] {
        in_child("free_during_a_kernel_child", threads);
    }
}

#[test]
#[ignore = "run by a_free_on_another_thread_while_a_kernel_runs_returns_and_the_kernel_ends_normally, in a child"]
fn free_during_a_kernel_child() {
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let waiting = Waiting::start();
    // The buffer the kernel will store to is freed under it: the free
    // returns while the kernel runs, and a new allocation is elsewhere
    // (the freed bytes stay backed for the kernel until it ends).
    let freed = waiting.out;
    // SAFETY: an allocation of HIP's, freed once.
    ok(unsafe { hipFree(freed) });
    let fresh = zeroed(1);
    assert_ne!(fresh, freed);
    assert!(
        !waiting.finished(),
        "the kernel ended before its flag was set"
    );
    // Its store into the freed buffer is no fault: it ends normally, and
    // nothing of it reaches the new allocation.
    let (rest, (launched, synchronized)) = waiting.release(9);
    assert_eq!(launched, hipSuccess);
    assert_eq!(synchronized, hipSuccess);
    assert_eq!(read_words(fresh, 1), [0]);
    // The freed address is no allocation any more.
    // SAFETY: a pointer HIP no longer knows: refused, nothing freed.
    assert_eq!(unsafe { hipFree(freed) }, hipErrorInvalidValue);
    let buffers = [rest.flag, rest.started, fresh];
    rest.free(&buffers);
}

#[test]
fn atomics_from_work_groups_on_several_threads_stay_atomic() {
    for threads in ["1", "2", "4"] {
        in_child("tickets_child", threads);
    }
}

#[test]
#[ignore = "run by atomics_from_work_groups_on_several_threads_stay_atomic, in a child"]
fn tickets_child() {
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let (module, f) = kernel(b"take_tickets\0");
    let count = (TICKET_GROUPS * 64) as usize;
    let (counter, tickets) = (zeroed(1), zeroed(count));
    ok(launch(
        f,
        std::ptr::null_mut(),
        TICKET_GROUPS,
        64,
        &[counter as usize, tickets as usize],
    ));
    // Each ticket below the count exactly once: an update lost between two
    // threads would repeat one.
    assert_eq!(read_words(counter, 1), [count as u32]);
    let mut taken = read_words(tickets, count);
    taken.sort_unstable();
    assert_eq!(taken, (0..count as u32).collect::<Vec<_>>());
    // SAFETY: HIP's own allocations and module.
    unsafe {
        ok(hipFree(counter));
        ok(hipFree(tickets));
        ok(hipModuleUnload(module));
    }
}

#[test]
fn atomics_on_host_memory_from_several_threads_stay_atomic() {
    for threads in ["1", "4"] {
        in_child("host_tickets_child", threads);
    }
}

#[test]
#[ignore = "run by atomics_on_host_memory_from_several_threads_stay_atomic, in a child"]
fn host_tickets_child() {
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let (module, f) = kernel(b"take_tickets\0");
    let count = (TICKET_GROUPS * 64) as usize;
    let mut counter = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; the counter is zeroed through the
    // pointer hipHostMalloc returned.
    unsafe {
        ok(hipHostMalloc(&mut counter, 4, 0));
        counter.cast::<u32>().write(0);
    }
    let tickets = zeroed(count);
    ok(launch(
        f,
        std::ptr::null_mut(),
        TICKET_GROUPS,
        64,
        &[counter as usize, tickets as usize],
    ));
    // SAFETY: the pinned word, written by the kernel that has ended.
    assert_eq!(unsafe { counter.cast::<u32>().read() }, count as u32);
    let mut taken = read_words(tickets, count);
    taken.sort_unstable();
    assert_eq!(taken, (0..count as u32).collect::<Vec<_>>());
    // SAFETY: HIP's own allocations and module.
    unsafe {
        ok(hipHostFree(counter));
        ok(hipFree(tickets));
        ok(hipModuleUnload(module));
    }
}

#[test]
fn atomics_of_two_client_threads_kernels_on_one_counter_stay_atomic() {
    for threads in ["1", "2", "4"] {
        in_child("two_clients_tickets_child", threads);
    }
}

#[test]
#[ignore = "run by atomics_of_two_client_threads_kernels_on_one_counter_stay_atomic, in a child"]
fn two_clients_tickets_child() {
    // SAFETY: plain C call.
    ok(unsafe { hipSetDevice(0) });
    let (module, f) = kernel(b"take_tickets\0");
    let count = (TICKET_GROUPS * 64) as usize;
    let counter = zeroed(1);
    let tickets = [zeroed(count), zeroed(count)];
    // Two client threads, each launching on a stream of its own at once,
    // every ticket from the one counter.
    let clients: Vec<_> = tickets
        .iter()
        .map(|&t| {
            let (f, counter, t) = (f as usize, counter as usize, t as usize);
            std::thread::spawn(move || {
                // SAFETY: plain C call (the device is per thread).
                ok(unsafe { hipSetDevice(0) });
                let mut stream = std::ptr::null_mut();
                // SAFETY: a valid out-pointer.
                ok(unsafe { hipStreamCreateWithFlags(&mut stream, NON_BLOCKING) });
                let launched = launch(f as Handle, stream, TICKET_GROUPS, 64, &[counter, t]);
                // SAFETY: a live stream, destroyed once.
                let synchronized = unsafe { hipStreamSynchronize(stream) };
                // SAFETY: as above.
                ok(unsafe { hipStreamDestroy(stream) });
                (launched, synchronized)
            })
        })
        .collect();
    for client in clients {
        assert_eq!(client.join().expect("a client"), (hipSuccess, hipSuccess));
    }
    assert_eq!(read_words(counter, 1), [2 * count as u32]);
    let mut taken: Vec<u32> = tickets.iter().flat_map(|&t| read_words(t, count)).collect();
    taken.sort_unstable();
    assert_eq!(taken, (0..2 * count as u32).collect::<Vec<_>>());
    // SAFETY: HIP's own allocations and module.
    unsafe {
        ok(hipFree(counter));
        for t in tickets {
            ok(hipFree(t));
        }
        ok(hipModuleUnload(module));
    }
}

#[test]
fn a_thread_count_outside_one_to_256_leaves_no_runtime() {
    for bad in ["0", "257", "many"] {
        // `--nocapture`: the library's line on stderr would otherwise go
        // to the child's test harness's capture.
        let output = crate::child::command("concurrent_kernels::no_runtime_child")
            .arg("--nocapture")
            .env("AMDGPU_SIM_MACHINE", "w7900")
            .env("AMDGPU_SIM_THREADS", bad)
            .output()
            .expect("run the child");
        crate::child::assert_passed(&output, bad);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "AMDGPU_SIM_THREADS: `{bad}` is not a thread count from 1 to 256"
            )),
            "{stderr}"
        );
    }
}

#[test]
#[ignore = "run by a_thread_count_outside_one_to_256_leaves_no_runtime, in a child"]
fn no_runtime_child() {
    // SAFETY: plain C call.
    assert_eq!(unsafe { hipSetDevice(0) }, hipErrorInvalidDevice);
}
