//! The packet processor, driven as IREE's AMDGPU driver drives a queue
//! (`util/aql_ring.h`): reserve slots by an atomic add on
//! `write_dispatch_id`, write the packet's body, publish its header and
//! setup with one 32-bit release store, write the packet id through the
//! doorbell signal's `hardware_doorbell_ptr`, then wait on the completion
//! signal. Layouts and values from `hsa.h` (`hsa_kernel_dispatch_packet_t`,
//! `hsa_barrier_and_packet_t`, `hsa_packet_type_t`,
//! `hsa_packet_header_t`); the kernel is IREE's `elementwise` fixture for
//! gfx1100 (w7900), `c = a * b + a` over 4096 f32, 32 × 32 work-items.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;

use crate::queues::{agents, create, destroy};
use crate::signals::setup;

unsafe extern "C" {
    fn hsa_amd_signal_create(
        initial: i64,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        attributes: u64,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t;
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> i64;
    fn hsa_signal_wait_scacquire(s: hsa_signal_t, c: u32, v: i64, t: u64, h: u32) -> i64;
    fn hsa_queue_add_write_index_screlease(queue: *const hsa_queue_t, value: u64) -> u64;
    fn hsa_queue_load_read_index_scacquire(queue: *const hsa_queue_t) -> u64;
    fn hsa_queue_create(
        agent: hsa_agent_t,
        size: u32,
        queue_type: u32,
        callback: Option<extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>,
        data: *mut c_void,
        private_segment_size: u32,
        group_segment_size: u32,
        queue: *mut *mut hsa_queue_t,
    ) -> hsa_status_t;
    fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Option<extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_allocate(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t;
    fn hsa_code_object_reader_create_from_memory(
        code: *const c_void,
        size: usize,
        reader: *mut hsa_code_object_reader_t,
    ) -> hsa_status_t;
    fn hsa_code_object_reader_destroy(reader: hsa_code_object_reader_t) -> hsa_status_t;
    fn hsa_executable_create_alt(
        profile: u32,
        rounding: u32,
        options: *const i8,
        executable: *mut hsa_executable_t,
    ) -> hsa_status_t;
    fn hsa_executable_load_agent_code_object(
        executable: hsa_executable_t,
        agent: hsa_agent_t,
        reader: hsa_code_object_reader_t,
        options: *const i8,
        loaded: *mut hsa_loaded_code_object_t,
    ) -> hsa_status_t;
    fn hsa_executable_freeze(executable: hsa_executable_t, options: *const i8) -> hsa_status_t;
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t;
    fn hsa_executable_get_symbol_by_name(
        executable: hsa_executable_t,
        name: *const i8,
        agent: *const hsa_agent_t,
        symbol: *mut hsa_executable_symbol_t,
    ) -> hsa_status_t;
    fn hsa_amd_profiling_set_profiler_enabled(queue: *mut hsa_queue_t, enable: i32)
    -> hsa_status_t;
    fn hsa_executable_symbol_get_info(
        symbol: hsa_executable_symbol_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
}

// hsa.h: hsa_packet_type_t and hsa_packet_header_t.
const TYPE_INVALID: u16 = 1;
pub(crate) const TYPE_KERNEL_DISPATCH: u16 = 2;
const TYPE_BARRIER_AND: u16 = 3;
const TYPE_BARRIER_OR: u16 = 5;
const HEADER_BARRIER: u16 = 8;
const HEADER_SCACQUIRE_FENCE_SCOPE: u16 = 9;
const HEADER_SCRELEASE_FENCE_SCOPE: u16 = 11;
/// HSA_FENCE_SCOPE_SYSTEM.
const SCOPE_SYSTEM: u16 = 2;
// hsa_signal_condition_t, hsa_wait_state_t.
const EQ: u32 = 0;
const BLOCKED: u32 = 0;
/// Ten seconds in 1 GHz system-timestamp ticks.
const TEN_SECONDS: u64 = 10_000_000_000;
// hsa_executable_symbol_info_t.
const KERNEL_OBJECT: u32 = 22;
const KERNARG_SEGMENT_SIZE: u32 = 11;

pub(crate) const KERNEL: &[u8] = b"elementwise_dispatch_0_elementwise_4096_f32.kd\0";
pub(crate) const N: usize = 4096;

pub(crate) fn ok(status: hsa_status_t) {
    assert_eq!(status, HSA_STATUS_SUCCESS);
}

pub(crate) fn signal(initial: i64) -> hsa_signal_t {
    let mut s = hsa_signal_t { handle: 0 };
    // SAFETY: a valid out-pointer; no consumers.
    ok(unsafe { hsa_amd_signal_create(initial, 0, std::ptr::null(), 0, &mut s) });
    s
}

fn header(kind: u16) -> u16 {
    kind | 1 << HEADER_BARRIER
        | SCOPE_SYSTEM << HEADER_SCACQUIRE_FENCE_SCOPE
        | SCOPE_SYSTEM << HEADER_SCRELEASE_FENCE_SCOPE
}

/// Writes one packet as IREE does: reserve, body, header+setup last, doorbell.
/// `body` is the packet's bytes 4..64.
pub(crate) fn submit(queue: *mut hsa_queue_t, kind: u16, setup: u16, body: &[u8; 60]) -> u64 {
    // SAFETY: the live queue's hsa_queue_t; its ring holds `size` 64-byte
    // slots at `base_address`; its doorbell signal is an amd_signal_t whose
    // hardware_doorbell_ptr (offset 8) is the doorbell word.
    unsafe {
        let q = *queue;
        let id = hsa_queue_add_write_index_screlease(queue, 1);
        let slot = (q.base_address as *mut u8).add(64 * (id & u64::from(q.size - 1)) as usize);
        std::ptr::copy_nonoverlapping(body.as_ptr(), slot.add(4), 60);
        let word = u32::from(header(kind)) | u32::from(setup) << 16;
        (*slot.cast::<AtomicU32>()).store(word, Ordering::Release);
        let doorbell = *(q.doorbell_signal.handle as *const u64).add(1);
        (*(doorbell as *const AtomicI64)).store(id as i64, Ordering::Release);
        id
    }
}

pub(crate) fn put(body: &mut [u8; 60], offset: usize, bytes: &[u8]) {
    body[offset - 4..offset - 4 + bytes.len()].copy_from_slice(bytes);
}

fn barrier_body(deps: &[hsa_signal_t], completion: hsa_signal_t) -> [u8; 60] {
    let mut body = [0u8; 60];
    for (i, d) in deps.iter().enumerate() {
        put(&mut body, 8 + 8 * i, &d.handle.to_le_bytes());
    }
    put(&mut body, 56, &completion.handle.to_le_bytes());
    body
}

pub(crate) fn read_index(queue: *mut hsa_queue_t) -> u64 {
    // SAFETY: plain C call on a live queue.
    unsafe { hsa_queue_load_read_index_scacquire(queue) }
}

pub(crate) fn wait_zero(s: hsa_signal_t) -> i64 {
    // SAFETY: plain C call on a live signal.
    unsafe { hsa_signal_wait_scacquire(s, EQ, 0, TEN_SECONDS, BLOCKED) }
}

#[test]
fn barrier_packets_wait_for_their_signals() {
    setup();
    let (_, gpu) = agents();
    let queue = create(gpu, 64);
    let (dep, other, done) = (signal(1), signal(1), signal(1));
    let id = submit(
        queue,
        TYPE_BARRIER_AND,
        0,
        &barrier_body(&[dep, other], done),
    );
    assert_eq!(id, 0);
    std::thread::sleep(Duration::from_millis(30));
    // SAFETY (below): plain C calls on live signals.
    assert_eq!(
        unsafe { hsa_signal_load_scacquire(done) },
        1,
        "AND waits for both"
    );
    assert_eq!(read_index(queue), 0);
    unsafe { hsa_signal_store_screlease(dep, 0) };
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(unsafe { hsa_signal_load_scacquire(done) }, 1, "one of two");
    unsafe { hsa_signal_store_screlease(other, 0) };
    assert_eq!(wait_zero(done), 0);
    assert_eq!(read_index(queue), 1);
    // SAFETY: slot 0's header of the live ring.
    let header0 = unsafe { *((*queue).base_address as *const u16) };
    assert_eq!(header0, TYPE_INVALID, "a processed slot is invalid again");
    // Barrier-OR: either dependency completes it.
    let (a, b) = (signal(1), signal(1));
    unsafe { hsa_signal_store_screlease(done, 1) };
    submit(queue, TYPE_BARRIER_OR, 0, &barrier_body(&[a, b], done));
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(unsafe { hsa_signal_load_scacquire(done) }, 1);
    unsafe { hsa_signal_store_screlease(b, 0) };
    assert_eq!(wait_zero(done), 0);
    assert_eq!(read_index(queue), 2);
    // A barrier waiting when the queue is destroyed: the processor stops.
    submit(queue, TYPE_BARRIER_AND, 0, &barrier_body(&[a], done));
    destroy(queue);
    for s in [dep, other, done, a, b] {
        // SAFETY: plain C call.
        ok(unsafe { hsa_signal_destroy(s) });
    }
}

extern "C" fn push_pool(pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the caller's Vec.
    unsafe { (*data.cast::<Vec<hsa_amd_memory_pool_t>>()).push(pool) };
    HSA_STATUS_SUCCESS
}

pub(crate) fn pools(agent: hsa_agent_t) -> Vec<hsa_amd_memory_pool_t> {
    let mut out: Vec<hsa_amd_memory_pool_t> = Vec::new();
    // SAFETY: the callback pushes onto `out`.
    ok(unsafe {
        hsa_amd_agent_iterate_memory_pools(agent, Some(push_pool), (&raw mut out).cast())
    });
    out
}

pub(crate) fn allocate(pool: hsa_amd_memory_pool_t, bytes: &[u8]) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `bytes` is the source of the copy.
    unsafe {
        ok(hsa_amd_memory_pool_allocate(pool, bytes.len(), 0, &mut p));
        ok(hsa_memory_copy(p, bytes.as_ptr().cast(), bytes.len()));
    }
    p
}

pub(crate) fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(crate) struct Kernel {
    pub(crate) reader: hsa_code_object_reader_t,
    pub(crate) executable: hsa_executable_t,
    pub(crate) object: u64,
    pub(crate) kernarg_size: u32,
}

pub(crate) fn load(gpu: hsa_agent_t) -> Kernel {
    load_fixture(gpu, "elementwise.gfx1100.hsaco")
}

/// The path of `fixtures/iree/NAME`.
pub(crate) fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/iree")
        .join(name)
}

/// Loads IREE's `elementwise` kernel from `fixtures/iree/NAME` on `gpu`.
pub(crate) fn load_fixture(gpu: hsa_agent_t, name: &str) -> Kernel {
    load_kernel(gpu, &fixture(name), KERNEL)
}

/// Loads the kernel whose descriptor symbol is `symbol` (NUL-terminated)
/// from the code object at `path` on `gpu`.
pub(crate) fn load_kernel(gpu: hsa_agent_t, path: &std::path::Path, symbol_name: &[u8]) -> Kernel {
    let image = std::fs::read(path).expect("fixture");
    let mut k = Kernel {
        reader: hsa_code_object_reader_t { handle: 0 },
        executable: hsa_executable_t { handle: 0 },
        object: 0,
        kernarg_size: 0,
    };
    let mut symbol = hsa_executable_symbol_t { handle: 0 };
    // SAFETY: valid pointers; a NUL-terminated name.
    unsafe {
        ok(hsa_code_object_reader_create_from_memory(
            image.as_ptr().cast(),
            image.len(),
            &mut k.reader,
        ));
        ok(hsa_executable_create_alt(
            0,
            0,
            std::ptr::null(),
            &mut k.executable,
        ));
        ok(hsa_executable_load_agent_code_object(
            k.executable,
            gpu,
            k.reader,
            std::ptr::null(),
            std::ptr::null_mut(),
        ));
        ok(hsa_executable_freeze(k.executable, std::ptr::null()));
        ok(hsa_executable_get_symbol_by_name(
            k.executable,
            symbol_name.as_ptr().cast(),
            &gpu,
            &mut symbol,
        ));
        ok(hsa_executable_symbol_get_info(
            symbol,
            KERNEL_OBJECT,
            (&raw mut k.object).cast(),
        ));
        ok(hsa_executable_symbol_get_info(
            symbol,
            KERNARG_SEGMENT_SIZE,
            (&raw mut k.kernarg_size).cast(),
        ));
    }
    k
}

pub(crate) fn dispatch_body(
    object: u64,
    kernargs: *mut c_void,
    completion: hsa_signal_t,
) -> [u8; 60] {
    let mut body = [0u8; 60];
    put(&mut body, 4, &32u16.to_le_bytes()); // workgroup_size_x
    put(&mut body, 6, &1u16.to_le_bytes());
    put(&mut body, 8, &1u16.to_le_bytes());
    put(&mut body, 12, &1024u32.to_le_bytes()); // grid_size_x (work-items)
    put(&mut body, 16, &1u32.to_le_bytes());
    put(&mut body, 20, &1u32.to_le_bytes());
    put(&mut body, 32, &object.to_le_bytes());
    put(&mut body, 40, &(kernargs as u64).to_le_bytes());
    put(&mut body, 56, &completion.handle.to_le_bytes());
    body
}

#[test]
fn a_dispatch_packet_runs_its_kernel() {
    setup();
    let (cpu, gpu) = agents();
    let k = load(gpu);
    let (gpu_pools, cpu_pools) = (pools(gpu), pools(cpu));
    // w7900.toml: the GPU's coarse pool first; the CPU's kernarg pool third.
    let (vram, kernarg_pool) = (gpu_pools[0], cpu_pools[2]);
    let a: Vec<f32> = (0..N).map(|i| (i % 251) as f32 - 100.0).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 7) as f32 + 0.5).collect();
    let (da, db, dc) = (
        allocate(vram, &f32_bytes(&a)),
        allocate(vram, &f32_bytes(&b)),
        allocate(vram, &vec![0u8; N * 4]),
    );
    let mut args = vec![0u8; k.kernarg_size as usize];
    for (i, p) in [da, db, dc].iter().enumerate() {
        args[8 * i..8 * i + 8].copy_from_slice(&(*p as u64).to_le_bytes());
    }
    let kernargs = allocate(kernarg_pool, &args);
    let queue = create(gpu, 64);
    let done = signal(1);
    let start = Instant::now();
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernargs, done),
    );
    assert_eq!(wait_zero(done), 0, "completed within {:?}", start.elapsed());
    assert_eq!(read_index(queue), 1);
    let mut c = vec![0u8; N * 4];
    // SAFETY: `c` holds N floats.
    ok(unsafe { hsa_memory_copy(c.as_mut_ptr().cast(), dc, N * 4) });
    for i in 0..N {
        let got = f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(got, a[i] * b[i] + a[i], "element {i}");
    }
    destroy(queue);
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_signal_destroy(done));
        for p in [da, db, dc, kernargs] {
            ok(hsa_amd_memory_pool_free(p));
        }
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}

/// `amd_signal_t.start_ts` and `end_ts` (`amd_hsa_signal.h`: offsets 32, 40).
fn signal_times(s: hsa_signal_t) -> (u64, u64) {
    // SAFETY: a live signal's handle is the address of its amd_signal_t.
    unsafe {
        let base = s.handle as *const u64;
        (base.add(4).read_volatile(), base.add(5).read_volatile())
    }
}

#[test]
fn a_profiling_queue_times_its_dispatches() {
    setup();
    let (cpu, gpu) = agents();
    let k = load(gpu);
    let (vram, kernarg_pool) = (pools(gpu)[0], pools(cpu)[2]);
    let buffers: Vec<*mut c_void> = (0..3).map(|_| allocate(vram, &vec![0u8; N * 4])).collect();
    let mut args = vec![0u8; k.kernarg_size as usize];
    for (i, p) in buffers.iter().enumerate() {
        args[8 * i..8 * i + 8].copy_from_slice(&(*p as u64).to_le_bytes());
    }
    let kernargs = allocate(kernarg_pool, &args);
    let queue = create(gpu, 64);
    // amd_queue_t.queue_properties (offset 180): AMD_QUEUE_PROPERTIES_ENABLE_PROFILING is bit 3.
    let properties = || {
        // SAFETY: the live queue's amd_queue_t.
        unsafe { queue.cast::<u8>().add(180).cast::<u32>().read_volatile() }
    };
    assert_eq!(properties() & 1 << 3, 0);
    let (untimed, timed) = (signal(1), signal(1));
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernargs, untimed),
    );
    assert_eq!(wait_zero(untimed), 0);
    assert_eq!(signal_times(untimed), (0, 0), "profiling is off");
    // SAFETY (below): plain C calls.
    ok(unsafe { hsa_amd_profiling_set_profiler_enabled(queue, 1) });
    assert_eq!(properties() & 1 << 3, 1 << 3);
    let before = crate::vendor_packets::gpu_clock_now();
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernargs, timed),
    );
    assert_eq!(wait_zero(timed), 0);
    let after = crate::vendor_packets::gpu_clock_now();
    let (start, end) = signal_times(timed);
    assert!(
        before <= start && start <= end && end <= after,
        "dispatch times {start}..{end} outside {before}..={after}"
    );
    // IREE's profiling completion signals: amd_signal_t records in its own
    // memory, value -1 (host_queue_profile_events.c).
    let record = allocate(vram, &[0u8; 64]) as u64;
    let mut amd_signal = [0u8; 64];
    amd_signal[..8].copy_from_slice(&1i64.to_le_bytes()); // AMD_SIGNAL_KIND_USER
    amd_signal[8..16].copy_from_slice(&(-1i64).to_le_bytes());
    crate::vendor_packets::poke(record, &amd_signal);
    let record_signal = hsa_signal_t { handle: record };
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernargs, record_signal),
    );
    let deadline = Instant::now() + std::time::Duration::from_secs(10);
    while read_index(queue) < 3 && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert_eq!(read_index(queue), 3);
    let peek = |offset: u64| crate::vendor_packets::peek_u64(record + offset);
    let (start, end) = (peek(32), peek(40));
    assert!(end <= crate::vendor_packets::gpu_clock_now() && after <= start && start <= end);
    assert_eq!(peek(8) as i64, -2);
    ok(unsafe { hsa_amd_profiling_set_profiler_enabled(queue, 0) });
    assert_eq!(properties() & 1 << 3, 0);
    let not_a_queue = 0x1000 as *mut hsa_queue_t;
    assert_eq!(
        unsafe { hsa_amd_profiling_set_profiler_enabled(not_a_queue, 1) },
        HSA_STATUS_ERROR_INVALID_QUEUE
    );
    assert_eq!(
        unsafe { hsa_amd_profiling_set_profiler_enabled(std::ptr::null_mut(), 1) },
        HSA_STATUS_ERROR_INVALID_QUEUE
    );
    destroy(queue);
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_signal_destroy(untimed));
        ok(hsa_signal_destroy(timed));
        for p in buffers.into_iter().chain([kernargs, record as *mut c_void]) {
            ok(hsa_amd_memory_pool_free(p));
        }
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}

/// What the error callback saw: the status and the queue.
static CALLBACK: AtomicU64 = AtomicU64::new(0);
static CALLBACK_QUEUE: AtomicU64 = AtomicU64::new(0);

extern "C" fn on_error(status: hsa_status_t, queue: *mut hsa_queue_t, data: *mut c_void) {
    assert_eq!(data as usize, 0x5eed);
    CALLBACK_QUEUE.store(queue as u64, Ordering::SeqCst);
    CALLBACK.store(u64::from(status), Ordering::SeqCst);
}

#[test]
fn a_dispatch_of_nothing_loaded_stops_the_queue_with_its_callback() {
    setup();
    let (_, gpu) = agents();
    let mut queue: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `on_error` reads only the data pointer.
    ok(unsafe {
        hsa_queue_create(
            gpu,
            64,
            0,
            Some(on_error),
            0x5eed as *mut c_void,
            0,
            0,
            &mut queue,
        )
    });
    let done = signal(1);
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(0x1234, std::ptr::null_mut(), done),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while CALLBACK.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        CALLBACK.load(Ordering::SeqCst),
        u64::from(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)
    );
    assert_eq!(CALLBACK_QUEUE.load(Ordering::SeqCst), queue as u64);
    // The packet was not completed: the queue stopped at it.
    // SAFETY: plain C call on a live signal.
    assert_eq!(unsafe { hsa_signal_load_scacquire(done) }, 1);
    assert_eq!(read_index(queue), 0);
    destroy(queue);
    // SAFETY: plain C call.
    ok(unsafe { hsa_signal_destroy(done) });
}

/// What the error callback of the queue in
/// `a_kernel_jumping_outside_its_code_stops_the_queue_as_an_illegal_instruction`
/// saw.
static JUMP_CALLBACK: AtomicU64 = AtomicU64::new(0);

extern "C" fn on_jump_error(status: hsa_status_t, _queue: *mut hsa_queue_t, _data: *mut c_void) {
    JUMP_CALLBACK.store(u64::from(status), Ordering::SeqCst);
}

/// A kernel whose `s_setpc_b64` leaves its code when it runs asks for what
/// the interpreter does not do: the queue stops with
/// `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION`, as for a kernel refused when
/// decoded, not with a memory fault's status.
#[test]
fn a_kernel_jumping_outside_its_code_stops_the_queue_as_an_illegal_instruction() {
    setup();
    let (cpu, gpu) = agents();
    let mut image = std::fs::read(fixture("elementwise.gfx1100.hsaco")).expect("fixture");
    // `s_setpc_b64 s[0:1]; s_nop 0` for gfx1100 (llvm-mc-19
    // -show-encoding) over the kernel's first 8-byte instruction (`.text`
    // at 0x700): it decodes, and jumps to an address that is no code.
    image[0x700..0x708].copy_from_slice(&[0x00, 0x48, 0x80, 0xbe, 0x00, 0x00, 0x80, 0xbf]);
    let path = std::env::temp_dir().join(format!("amdgpu-aql-setpc-{}.hsaco", std::process::id()));
    std::fs::write(&path, &image).expect("write the patched code object");
    let k = load_kernel(gpu, &path, KERNEL);
    std::fs::remove_file(&path).expect("remove the patched code object");
    let kernargs = allocate(pools(cpu)[2], &vec![0u8; k.kernarg_size as usize]);
    let mut queue: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `on_jump_error` reads nothing through
    // its pointers.
    ok(unsafe {
        hsa_queue_create(
            gpu,
            64,
            0,
            Some(on_jump_error),
            std::ptr::null_mut(),
            0,
            0,
            &mut queue,
        )
    });
    let done = signal(1);
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernargs, done),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while JUMP_CALLBACK.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        JUMP_CALLBACK.load(Ordering::SeqCst),
        u64::from(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)
    );
    // The packet was not completed: the queue stopped at it.
    // SAFETY: plain C call on a live signal.
    assert_eq!(unsafe { hsa_signal_load_scacquire(done) }, 1);
    destroy(queue);
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_signal_destroy(done));
        ok(hsa_amd_memory_pool_free(kernargs));
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}
