//! HSA queues as a client sees them through the C symbols, on w7900:
//! ROCr's `amd_queue_t` behind the `hsa_queue_t*` (`amd_hsa_queue.h`:
//! 64-byte aligned, `write_dispatch_id` at 56, `read_dispatch_id` at 128,
//! `queue_properties` at 180), a ring of invalid AQL packets, a doorbell
//! `amd_signal_t` (`AMD_SIGNAL_KIND_DOORBELL`, `hardware_doorbell_ptr` at 8,
//! `queue_ptr` at 48), every index operation, the statuses ROCr's
//! `hsa_queue_create` returns, and, in a child process, fault injection and
//! the leak report.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicU16, AtomicU64, Ordering};

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::{hsa_agent_t, hsa_queue_t, hsa_signal_t};

use crate::signals::setup;

type Callback = Option<extern "C" fn(hsa_status_t, *mut hsa_queue_t, *mut c_void)>;

unsafe extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_iterate_agents(
        callback: Option<extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_queue_create(
        agent: hsa_agent_t,
        size: u32,
        queue_type: u32,
        callback: Callback,
        data: *mut c_void,
        private_segment_size: u32,
        group_segment_size: u32,
        queue: *mut *mut hsa_queue_t,
    ) -> hsa_status_t;
    fn hsa_queue_destroy(queue: *mut hsa_queue_t) -> hsa_status_t;
    fn hsa_amd_profiling_set_profiler_enabled(queue: *mut hsa_queue_t, enable: i32)
    -> hsa_status_t;
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t;
    fn hsa_amd_queue_get_info(
        queue: *mut hsa_queue_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_queue_load_read_index_relaxed(queue: *const hsa_queue_t) -> u64;
    fn hsa_queue_load_read_index_scacquire(queue: *const hsa_queue_t) -> u64;
    fn hsa_queue_load_write_index_relaxed(queue: *const hsa_queue_t) -> u64;
    fn hsa_queue_load_write_index_scacquire(queue: *const hsa_queue_t) -> u64;
    fn hsa_queue_store_read_index_relaxed(queue: *const hsa_queue_t, value: u64);
    fn hsa_queue_store_read_index_screlease(queue: *const hsa_queue_t, value: u64);
    fn hsa_queue_store_write_index_relaxed(queue: *const hsa_queue_t, value: u64);
    fn hsa_queue_store_write_index_screlease(queue: *const hsa_queue_t, value: u64);
    fn hsa_queue_add_write_index_relaxed(queue: *const hsa_queue_t, value: u64) -> u64;
    fn hsa_queue_add_write_index_scacquire(queue: *const hsa_queue_t, value: u64) -> u64;
    fn hsa_queue_add_write_index_screlease(queue: *const hsa_queue_t, value: u64) -> u64;
    fn hsa_queue_add_write_index_scacq_screl(queue: *const hsa_queue_t, value: u64) -> u64;
    fn hsa_queue_cas_write_index_relaxed(queue: *const hsa_queue_t, e: u64, v: u64) -> u64;
    fn hsa_queue_cas_write_index_scacquire(queue: *const hsa_queue_t, e: u64, v: u64) -> u64;
    fn hsa_queue_cas_write_index_screlease(queue: *const hsa_queue_t, e: u64, v: u64) -> u64;
    fn hsa_queue_cas_write_index_scacq_screl(queue: *const hsa_queue_t, e: u64, v: u64) -> u64;
}

// hsa.h: hsa_queue_type_t, hsa_queue_feature_t, hsa_packet_type_t.
const MULTI: u32 = 0;
const SINGLE: u32 = 1;
const COOPERATIVE: u32 = 2;
const FEATURE_KERNEL_DISPATCH: u32 = 1;
const PACKET_TYPE_INVALID: u16 = 1;
// amd_hsa_signal.h: AMD_SIGNAL_KIND_DOORBELL; amd_hsa_queue.h: IS_PTR64 (bit 1).
const KIND_DOORBELL: i64 = -1;
const IS_PTR64: u32 = 1 << 1;
// hsa_ext_amd.h: hsa_queue_info_attribute_t.
const INFO_AGENT: u32 = 0;
const INFO_DOORBELL_ID: u32 = 1;
// w7900.toml / ROCr: HSA_AGENT_INFO_QUEUE_MIN_SIZE 64, QUEUE_MAX_SIZE 131072.
const MIN: u32 = 64;
const MAX: u32 = 131_072;

extern "C" fn push(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the caller's `Vec<hsa_agent_t>`.
    unsafe { (*data.cast::<Vec<hsa_agent_t>>()).push(agent) };
    HSA_STATUS_SUCCESS
}

/// The node's first CPU and first GPU agents.
pub(crate) fn agents() -> (hsa_agent_t, hsa_agent_t) {
    let mut out: Vec<hsa_agent_t> = Vec::new();
    // SAFETY: the callback pushes onto `out`, which outlives the call.
    let status = unsafe { hsa_iterate_agents(Some(push), (&raw mut out).cast()) };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    let device = |agent: hsa_agent_t| {
        let mut device = u32::MAX;
        // SAFETY: HSA_AGENT_INFO_DEVICE (17) is a hsa_device_type_t.
        let status = unsafe { hsa_agent_get_info(agent, 17, (&raw mut device).cast()) };
        assert_eq!(status, HSA_STATUS_SUCCESS);
        device
    };
    // hsa_device_type_t: HSA_DEVICE_TYPE_CPU 0, HSA_DEVICE_TYPE_GPU 1.
    let first = |kind| *out.iter().find(|&&a| device(a) == kind).expect("agent");
    (first(0), first(1))
}

fn try_create(
    agent: hsa_agent_t,
    size: u32,
    queue_type: u32,
    private: u32,
) -> Result<*mut hsa_queue_t, hsa_status_t> {
    let mut queue: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; no callback.
    let status = unsafe {
        hsa_queue_create(
            agent,
            size,
            queue_type,
            None,
            std::ptr::null_mut(),
            private,
            u32::MAX,
            &mut queue,
        )
    };
    if status == HSA_STATUS_SUCCESS {
        assert!(!queue.is_null());
        Ok(queue)
    } else {
        assert!(queue.is_null(), "nothing written on failure");
        Err(status)
    }
}

pub(crate) fn create(agent: hsa_agent_t, size: u32) -> *mut hsa_queue_t {
    try_create(agent, size, MULTI, u32::MAX).expect("hsa_queue_create")
}

pub(crate) fn destroy(queue: *mut hsa_queue_t) {
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_queue_destroy(queue) }, HSA_STATUS_SUCCESS);
}

/// A `uint64_t` field of the queue's `amd_queue_t`, as an atomic.
fn field(queue: *mut hsa_queue_t, offset: usize) -> &'static AtomicU64 {
    // SAFETY: a live queue's `amd_queue_t` holds a naturally aligned
    // `uint64_t` at `offset` (56 or 128); the test destroys the queue only
    // after its last use of the field.
    unsafe { &*queue.cast::<u8>().add(offset).cast::<AtomicU64>() }
}

#[test]
fn the_pointer_is_an_amd_queue_t() {
    setup();
    let (_, gpu) = agents();
    let queue = create(gpu, 256);
    let other = create(gpu, MIN);
    assert_eq!(queue as usize % 64, 0, "AMD_QUEUE_ALIGN_BYTES");
    // SAFETY: the live queue's hsa_queue_t and amd_queue_t fields, read
    // while it lives.
    let q = unsafe { *queue };
    assert_eq!(q.type_, MULTI);
    assert_eq!(q.features, FEATURE_KERNEL_DISPATCH);
    assert_eq!(q.size, 256);
    assert_eq!(q.reserved1, 0);
    // SAFETY: as above.
    assert_ne!(q.id, unsafe { (*other).id }, "ids are unique");
    assert_eq!(q.base_address % 64, 0);
    // SAFETY: `queue_properties` is the uint32_t at 180 of the live amd_queue_t.
    let properties = unsafe { *queue.cast::<u8>().add(180).cast::<u32>() };
    assert_eq!(properties & IS_PTR64, IS_PTR64);
    // Every slot of the ring is an invalid packet until written.
    for i in 0..256 {
        // SAFETY: slot `i` of the live ring; its header is the uint16_t at 0.
        let header =
            unsafe { (*(q.base_address as *const AtomicU16).add(i * 32)).load(Ordering::Acquire) };
        assert_eq!(header, PACKET_TYPE_INVALID, "slot {i}");
    }
    // The doorbell: an amd_signal_t of the doorbell kind pointing at the
    // doorbell word, and back at the queue.
    let doorbell = q.doorbell_signal;
    // SAFETY: a live queue's doorbell signal is an amd_signal_t: kind at 0,
    // hardware_doorbell_ptr at 8, queue_ptr at 48.
    let (kind, word, queue_ptr) = unsafe {
        let base = doorbell.handle as *const u64;
        (*(base as *const i64), *base.add(1), *base.add(6))
    };
    assert_eq!(kind, KIND_DOORBELL);
    assert_eq!(queue_ptr, queue as u64);
    let mut id = 0u64;
    // SAFETY: room for the uint64_t.
    let status = unsafe { hsa_amd_queue_get_info(queue, INFO_DOORBELL_ID, (&raw mut id).cast()) };
    assert_eq!(
        (status, id),
        (HSA_STATUS_SUCCESS, word),
        "ROCr: the doorbell's address"
    );
    let mut agent = hsa_agent_t { handle: 0 };
    // SAFETY: room for the hsa_agent_t.
    let status = unsafe { hsa_amd_queue_get_info(queue, INFO_AGENT, (&raw mut agent).cast()) };
    assert_eq!((status, agent), (HSA_STATUS_SUCCESS, gpu));
    // SAFETY: as above.
    let status = unsafe { hsa_amd_queue_get_info(queue, 2, (&raw mut id).cast()) };
    assert_eq!(status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
    // SAFETY: NULL value.
    let status = unsafe { hsa_amd_queue_get_info(queue, INFO_AGENT, std::ptr::null_mut()) };
    assert_eq!(status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
    // Ringing through the signal writes the doorbell word (ROCr's doorbell
    // store), as a write through hardware_doorbell_ptr does.
    // SAFETY: plain C call on the doorbell signal.
    unsafe { hsa_signal_store_screlease(doorbell, 41) };
    // SAFETY: the doorbell word of the live queue.
    let rung = unsafe { (*(word as *const AtomicI64)).load(Ordering::Acquire) };
    assert_eq!(rung, 41);
    // The doorbell is the queue's, not the client's to destroy.
    // SAFETY: plain C call.
    assert_eq!(
        unsafe { hsa_signal_destroy(doorbell) },
        HSA_STATUS_ERROR_INVALID_SIGNAL
    );
    destroy(queue);
    destroy(other);
    // SAFETY: plain C calls on pointers that are no longer queues.
    unsafe {
        assert_eq!(hsa_queue_destroy(queue), HSA_STATUS_ERROR_INVALID_QUEUE);
        assert_eq!(
            hsa_queue_destroy(std::ptr::null_mut()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        let status = hsa_amd_queue_get_info(queue, INFO_AGENT, (&raw mut agent).cast());
        assert_eq!(status, HSA_STATUS_ERROR_INVALID_QUEUE);
    }
}

#[test]
fn every_index_operation() {
    setup();
    let (_, gpu) = agents();
    let queue = create(gpu, MIN);
    let (write, read) = (field(queue, 56), field(queue, 128));
    // SAFETY (all blocks below): C calls on a live queue.
    unsafe {
        assert_eq!(hsa_queue_add_write_index_relaxed(queue, 1), 0);
        assert_eq!(hsa_queue_add_write_index_scacquire(queue, 2), 1);
        assert_eq!(hsa_queue_add_write_index_screlease(queue, 3), 3);
        assert_eq!(hsa_queue_add_write_index_scacq_screl(queue, 4), 6);
        assert_eq!(write.load(Ordering::Acquire), 10);
        for (name, cas) in [
            (
                "relaxed",
                hsa_queue_cas_write_index_relaxed as unsafe extern "C" fn(_, _, _) -> _,
            ),
            ("scacquire", hsa_queue_cas_write_index_scacquire),
            ("screlease", hsa_queue_cas_write_index_screlease),
            ("scacq_screl", hsa_queue_cas_write_index_scacq_screl),
        ] {
            hsa_queue_store_write_index_relaxed(queue, 10);
            assert_eq!(cas(queue, 9, 20), 10, "{name}: a failed CAS observes");
            assert_eq!(write.load(Ordering::Acquire), 10, "{name}");
            assert_eq!(cas(queue, 10, 20), 10, "{name}");
            assert_eq!(write.load(Ordering::Acquire), 20, "{name}");
        }
        hsa_queue_store_write_index_screlease(queue, 7);
        assert_eq!(hsa_queue_load_write_index_relaxed(queue), 7);
        // A client's own atomic add on write_dispatch_id, as IREE reserves.
        write.fetch_add(5, Ordering::AcqRel);
        assert_eq!(hsa_queue_load_write_index_scacquire(queue), 12);
        hsa_queue_store_read_index_relaxed(queue, 3);
        assert_eq!(read.load(Ordering::Acquire), 3);
        hsa_queue_store_read_index_screlease(queue, 4);
        assert_eq!(hsa_queue_load_read_index_relaxed(queue), 4);
        assert_eq!(hsa_queue_load_read_index_scacquire(queue), 4);
    }
    destroy(queue);
    // A pointer that is not a queue: ignored, read as 0.
    // SAFETY: the library looks the pointer up and never dereferences it.
    unsafe {
        assert_eq!(hsa_queue_load_write_index_relaxed(queue), 0);
        assert_eq!(hsa_queue_add_write_index_relaxed(queue, 1), 0);
    }
}

#[test]
fn creation_refusals_are_rocrs() {
    setup();
    let (cpu, gpu) = agents();
    let big = MAX * 2;
    for (agent, size, queue_type, private, expected) in [
        (gpu, 0, MULTI, u32::MAX, HSA_STATUS_ERROR_INVALID_ARGUMENT),
        (gpu, 100, MULTI, u32::MAX, HSA_STATUS_ERROR_INVALID_ARGUMENT),
        (gpu, MIN, 3, u32::MAX, HSA_STATUS_ERROR_INVALID_ARGUMENT),
        (
            hsa_agent_t { handle: 0x5 },
            MIN,
            MULTI,
            u32::MAX,
            HSA_STATUS_ERROR_INVALID_AGENT,
        ),
        (cpu, MIN, MULTI, u32::MAX, HSA_STATUS_ERROR),
        (
            gpu,
            MIN,
            COOPERATIVE,
            u32::MAX,
            HSA_STATUS_ERROR_INVALID_QUEUE_CREATION,
        ),
        (gpu, big, MULTI, u32::MAX, HSA_STATUS_ERROR_OUT_OF_RESOURCES),
        (
            gpu,
            MIN / 2,
            MULTI,
            u32::MAX,
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
        ),
        (gpu, MIN, MULTI, 262_129, HSA_STATUS_ERROR_OUT_OF_RESOURCES),
    ] {
        assert_eq!(
            try_create(agent, size, queue_type, private),
            Err(expected),
            "{:#x} {size} {queue_type} {private}",
            agent.handle
        );
    }
    // The limits themselves, and a SINGLE queue on a MULTI agent.
    destroy(try_create(gpu, MAX, MULTI, 262_128).expect("the largest"));
    destroy(try_create(gpu, MIN, SINGLE, 0).expect("single"));
    // SAFETY: a NULL out-pointer is refused before any write.
    let status = unsafe {
        hsa_queue_create(
            gpu,
            MIN,
            MULTI,
            None,
            std::ptr::null_mut(),
            0,
            0,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

const CHILD_ENV: &str = "AMDGPU_SIM_QUEUES_CHILD";

/// Run in a child process with faults armed (see the test below).
#[test]
#[ignore = "a child of faults_and_the_leak_report"]
fn child_with_faults() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    // SAFETY: plain C calls.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
    let (_, gpu) = agents();
    let kept = create(gpu, MIN);
    // The second creation fails as injected, writing nothing.
    assert_eq!(
        try_create(gpu, MIN, MULTI, u32::MAX),
        Err(HSA_STATUS_ERROR_OUT_OF_RESOURCES)
    );
    let freed = create(gpu, MIN);
    destroy(freed);
    // The first profiling switch fails as injected, the second takes.
    // SAFETY (below): plain C calls on a live queue.
    assert_eq!(
        unsafe { hsa_amd_profiling_set_profiler_enabled(kept, 1) },
        HSA_STATUS_ERROR_OUT_OF_RESOURCES
    );
    assert_eq!(
        unsafe { hsa_amd_profiling_set_profiler_enabled(kept, 1) },
        HSA_STATUS_SUCCESS
    );
    let _ = kept; // left alive for the report
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
}

#[test]
fn faults_and_the_leak_report() {
    let report = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("queues-report.txt");
    let _ = std::fs::remove_file(&report);
    let output = crate::child::command("queues::child_with_faults")
        .env(CHILD_ENV, "1")
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env(
            "AMDGPU_SIM_FAULTS",
            "hsa_queue_create@2=0x1008;hsa_amd_profiling_set_profiler_enabled@1=0x1008",
        )
        .env("AMDGPU_SIM_REPORT", &report)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "the child with faults");
    let text = std::fs::read_to_string(&report).expect("the report");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"hsa_queues 1"), "{text}");
    // The doorbell is the queue's, not a client signal.
    assert!(lines.contains(&"hsa_signals 0"), "{text}");
    let injected: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("injected"))
        .collect();
    assert_eq!(
        injected,
        [
            "injected hsa_queue_create -> 0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES",
            "injected hsa_amd_profiling_set_profiler_enabled -> 0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES"
        ],
        "{text}"
    );
}
