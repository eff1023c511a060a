//! HSA signals as a client sees them through the C symbols: ROCr's
//! `amd_signal_t` behind the handle (`amd_hsa_signal.h`: 64-byte aligned,
//! `kind` at 0, `value` at 8), every value operation in every memory order
//! of `hsa.h`, the waits with their conditions and timeouts
//! (`hsa_ext_amd.h`'s rules for `hsa_amd_signal_wait_any`/`_all`), the
//! statuses `hsa_amd_signal_create`/`hsa_signal_destroy` document, and, in
//! a child process, fault injection and the leak report.

use std::time::{Duration, Instant};

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::{hsa_agent_t, hsa_signal_t};

// Links the library's exports into this test binary.
use amdgpu_sim_ffi as _;

type Value = i64;

unsafe extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_signal_create(
        initial: Value,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t;
    fn hsa_amd_signal_create(
        initial: Value,
        num_consumers: u32,
        consumers: *const hsa_agent_t,
        attributes: u64,
        signal: *mut hsa_signal_t,
    ) -> hsa_status_t;
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_amd_signal_wait_any(
        count: u32,
        signals: *mut hsa_signal_t,
        conds: *mut u32,
        values: *mut Value,
        timeout: u64,
        hint: u32,
        satisfying: *mut Value,
    ) -> u32;
    fn hsa_amd_signal_wait_all(
        count: u32,
        signals: *mut hsa_signal_t,
        conds: *mut u32,
        values: *mut Value,
        timeout: u64,
        hint: u32,
        satisfying: *mut Value,
    ) -> u32;
    fn hsa_iterate_agents(
        callback: Option<extern "C" fn(hsa_agent_t, *mut std::ffi::c_void) -> hsa_status_t>,
        data: *mut std::ffi::c_void,
    ) -> hsa_status_t;
}

/// Declares the value operations and lists them by family: the C
/// parameters, then the function-pointer type's.
macro_rules! ops {
    ($($family:ident: $params:tt $types:tt -> $ret:ty, [$($name:ident),*];)*) => {$(
        unsafe extern "C" { $(fn $name $params -> $ret;)* }
        #[allow(non_upper_case_globals)]
        const $family: &[(&str, unsafe extern "C" fn $types -> $ret)] =
            &[$((stringify!($name), $name)),*];
    )*};
}

ops! {
    LOADS: (s: hsa_signal_t) (hsa_signal_t) -> Value,
        [hsa_signal_load_relaxed, hsa_signal_load_scacquire, hsa_signal_load_acquire];
    STORES: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_store_relaxed, hsa_signal_store_screlease, hsa_signal_store_release,
        hsa_signal_silent_store_relaxed, hsa_signal_silent_store_screlease];
    EXCHANGES: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> Value,
        [hsa_signal_exchange_relaxed, hsa_signal_exchange_scacquire,
        hsa_signal_exchange_screlease, hsa_signal_exchange_scacq_screl, hsa_signal_exchange_acquire,
        hsa_signal_exchange_release, hsa_signal_exchange_acq_rel];
    CASES: (s: hsa_signal_t, e: Value, v: Value) (hsa_signal_t, Value, Value) -> Value,
        [hsa_signal_cas_relaxed, hsa_signal_cas_scacquire,
        hsa_signal_cas_screlease, hsa_signal_cas_scacq_screl, hsa_signal_cas_acquire,
        hsa_signal_cas_release, hsa_signal_cas_acq_rel];
    ADDS: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_add_relaxed, hsa_signal_add_scacquire, hsa_signal_add_screlease,
        hsa_signal_add_scacq_screl, hsa_signal_add_acquire, hsa_signal_add_release,
        hsa_signal_add_acq_rel];
    SUBTRACTS: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_subtract_relaxed, hsa_signal_subtract_scacquire,
        hsa_signal_subtract_screlease, hsa_signal_subtract_scacq_screl, hsa_signal_subtract_acquire,
        hsa_signal_subtract_release, hsa_signal_subtract_acq_rel];
    ANDS: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_and_relaxed, hsa_signal_and_scacquire, hsa_signal_and_screlease,
        hsa_signal_and_scacq_screl, hsa_signal_and_acquire, hsa_signal_and_release,
        hsa_signal_and_acq_rel];
    ORS: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_or_relaxed, hsa_signal_or_scacquire, hsa_signal_or_screlease,
        hsa_signal_or_scacq_screl, hsa_signal_or_acquire, hsa_signal_or_release,
        hsa_signal_or_acq_rel];
    XORS: (s: hsa_signal_t, v: Value) (hsa_signal_t, Value) -> (),
        [hsa_signal_xor_relaxed, hsa_signal_xor_scacquire, hsa_signal_xor_screlease,
        hsa_signal_xor_scacq_screl, hsa_signal_xor_acquire, hsa_signal_xor_release,
        hsa_signal_xor_acq_rel];
    WAITS: (s: hsa_signal_t, c: u32, v: Value, t: u64, h: u32) (hsa_signal_t, u32, Value, u64, u32)
        -> Value, [hsa_signal_wait_relaxed, hsa_signal_wait_scacquire, hsa_signal_wait_acquire];
}

/// One family of read-modify-write operations, by name.
type Family = &'static [(&'static str, unsafe extern "C" fn(hsa_signal_t, Value))];

// `hsa_signal_condition_t` and `hsa_wait_state_t` (hsa.h).
const EQ: u32 = 0;
const NE: u32 = 1;
const LT: u32 = 2;
const GTE: u32 = 3;
const BLOCKED: u32 = 0;
/// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY` is 1 GHz: a tick is a nanosecond.
const MS: u64 = 1_000_000;
/// `HSA_AMD_SIGNAL_AMD_GPU_ONLY`, `HSA_AMD_SIGNAL_IPC` (hsa_ext_amd.h).
const GPU_ONLY: u64 = 1;
const IPC: u64 = 2;

pub(crate) fn setup() {
    crate::node_environment();
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
}

fn create(initial: Value) -> hsa_signal_t {
    let mut signal = hsa_signal_t { handle: 0 };
    // SAFETY: a valid out-pointer; no consumers.
    let status = unsafe { hsa_amd_signal_create(initial, 0, std::ptr::null(), 0, &mut signal) };
    assert_eq!(status, HSA_STATUS_SUCCESS);
    signal
}

fn destroy(signal: hsa_signal_t) {
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_signal_destroy(signal) }, HSA_STATUS_SUCCESS);
}

/// `amd_signal_t.value` read straight from the signal's memory.
fn raw_value(signal: hsa_signal_t) -> Value {
    // SAFETY: a live signal's handle is the address of its amd_signal_t;
    // `value` is the int64_t at offset 8, read as an atomic as IREE does.
    unsafe {
        (*((signal.handle as *const std::sync::atomic::AtomicI64).add(1)))
            .load(std::sync::atomic::Ordering::Acquire)
    }
}

#[test]
fn the_handle_is_an_amd_signal_t() {
    setup();
    let signal = create(7);
    assert_eq!(signal.handle % 64, 0, "AMD_SIGNAL_ALIGN_BYTES");
    // SAFETY: `kind` is the int64_t at offset 0 of the live signal.
    let kind = unsafe { *(signal.handle as *const i64) };
    assert_eq!(kind, 1, "AMD_SIGNAL_KIND_USER");
    assert_eq!(raw_value(signal), 7);
    // SAFETY: plain C calls on a live signal.
    unsafe { hsa_signal_store_screlease(signal, -3) };
    assert_eq!(raw_value(signal), -3);
    // A client's own atomic store is what the next load reads.
    // SAFETY: `value` at offset 8 of the live signal, written atomically.
    unsafe {
        (*((signal.handle as *const std::sync::atomic::AtomicI64).add(1)))
            .store(42, std::sync::atomic::Ordering::Release)
    };
    for &(name, load) in LOADS {
        // SAFETY: plain C call on a live signal.
        assert_eq!(unsafe { load(signal) }, 42, "{name}");
    }
    destroy(signal);
}

#[test]
fn every_memory_order_computes_the_operation() {
    setup();
    let signal = create(0);
    let load = || raw_value(signal);
    // SAFETY (all blocks below): C calls on a live signal.
    for &(name, store) in STORES {
        unsafe { store(signal, 11) };
        assert_eq!(load(), 11, "{name}");
        unsafe { store(signal, 0) };
    }
    for &(name, exchange) in EXCHANGES {
        unsafe { hsa_signal_store_relaxed(signal, 5) };
        assert_eq!(unsafe { exchange(signal, 9) }, 5, "{name}: the old value");
        assert_eq!(load(), 9, "{name}");
    }
    for &(name, cas) in CASES {
        unsafe { hsa_signal_store_relaxed(signal, 5) };
        assert_eq!(
            unsafe { cas(signal, 4, 8) },
            5,
            "{name}: no swap, observed 5"
        );
        assert_eq!(load(), 5, "{name}");
        assert_eq!(
            unsafe { cas(signal, 5, 8) },
            5,
            "{name}: swapped, observed 5"
        );
        assert_eq!(load(), 8, "{name}");
    }
    let rmw: [(Family, Value, Value, Value); 5] = [
        (ADDS, 10, 5, 15),
        (SUBTRACTS, 10, 3, 7),
        (ANDS, 0b1100, 0b1010, 0b1000),
        (ORS, 0b1100, 0b1010, 0b1110),
        (XORS, 0b1100, 0b1010, 0b0110),
    ];
    for (family, before, operand, after) in rmw {
        for &(name, op) in family {
            unsafe { hsa_signal_store_relaxed(signal, before) };
            unsafe { op(signal, operand) };
            assert_eq!(load(), after, "{name}");
        }
    }
    // Wrapping two's-complement, as the header's int64_t atomics.
    unsafe { hsa_signal_store_relaxed(signal, i64::MAX) };
    unsafe { hsa_signal_add_relaxed(signal, 1) };
    assert_eq!(load(), i64::MIN);
    destroy(signal);
}

#[test]
fn waits_honour_conditions_and_timeouts() {
    setup();
    let signal = create(1);
    for &(name, wait) in WAITS {
        // Satisfied at once: each condition against the value 1.
        for (condition, compare) in [(EQ, 1), (NE, 0), (LT, 2), (GTE, 1)] {
            // SAFETY: plain C call on a live signal.
            let value = unsafe { wait(signal, condition, compare, u64::MAX, BLOCKED) };
            assert_eq!(value, 1, "{name} {condition} {compare}");
        }
        // Never satisfied: returns the current value once the timeout passes.
        let start = Instant::now();
        // SAFETY: plain C call on a live signal.
        let value = unsafe { wait(signal, EQ, 0, 20 * MS, BLOCKED) };
        assert_eq!(value, 1, "{name}");
        assert!(
            start.elapsed() >= Duration::from_millis(20),
            "{name} returned early"
        );
    }
    // Woken by a store from another thread (no timeout).
    let handle = signal.handle;
    let storer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        // SAFETY: the signal outlives the thread (joined below).
        unsafe { hsa_signal_subtract_screlease(hsa_signal_t { handle }, 1) };
    });
    // SAFETY: plain C call on a live signal.
    let value = unsafe { hsa_signal_wait_scacquire(signal, LT, 1, u64::MAX, BLOCKED) };
    assert_eq!(value, 0);
    storer.join().unwrap();
    // Woken by a write into the signal's memory, which no call announces.
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        // SAFETY: `value` at offset 8 of the live signal, written atomically.
        unsafe {
            (*((handle as *const std::sync::atomic::AtomicI64).add(1)))
                .store(5, std::sync::atomic::Ordering::Release)
        };
    });
    // SAFETY: plain C call on a live signal.
    let value = unsafe { hsa_signal_wait_relaxed(signal, EQ, 5, 10_000 * MS, BLOCKED) };
    assert_eq!(value, 5);
    writer.join().unwrap();
    destroy(signal);
}

#[test]
fn wait_any_and_wait_all_follow_hsa_ext_amd_h() {
    setup();
    let (a, b) = (create(1), create(2));
    let null = hsa_signal_t { handle: 0 };
    let mut satisfying = -1;
    // SAFETY (all blocks below): arrays of `count` elements, live signals.
    let any = |signals: &mut [hsa_signal_t],
               conds: &mut [u32],
               values: &mut [Value],
               timeout,
               out: &mut Value| unsafe {
        hsa_amd_signal_wait_any(
            signals.len() as u32,
            signals.as_mut_ptr(),
            conds.as_mut_ptr(),
            values.as_mut_ptr(),
            timeout,
            BLOCKED,
            out,
        )
    };
    // The first satisfied pair, NULL signals ignored.
    let index = any(
        &mut [null, a, b],
        &mut [EQ, EQ, EQ],
        &mut [0, 0, 2],
        u64::MAX,
        &mut satisfying,
    );
    assert_eq!((index, satisfying), (2, 2));
    // Timeout: UINT32_MAX, nothing written.
    satisfying = -1;
    let index = any(
        &mut [a, b],
        &mut [EQ, EQ],
        &mut [0, 0],
        5 * MS,
        &mut satisfying,
    );
    assert_eq!((index, satisfying), (u32::MAX, -1));
    // No valid signal: UINT32_MAX at once.
    let start = Instant::now();
    let index = any(&mut [null], &mut [EQ], &mut [0], u64::MAX, &mut satisfying);
    assert_eq!(index, u32::MAX);
    assert!(start.elapsed() < Duration::from_secs(5));

    let all = |signals: &mut [hsa_signal_t],
               conds: &mut [u32],
               values: &mut [Value],
               timeout,
               out: &mut [Value]| unsafe {
        hsa_amd_signal_wait_all(
            signals.len() as u32,
            signals.as_mut_ptr(),
            conds.as_mut_ptr(),
            values.as_mut_ptr(),
            timeout,
            BLOCKED,
            out.as_mut_ptr(),
        )
    };
    // Every pair satisfied (a NULL signal counts as value 0, satisfied): 0.
    let mut out = [-1; 3];
    let done = all(
        &mut [a, null, b],
        &mut [GTE, EQ, NE],
        &mut [1, 7, 0],
        u64::MAX,
        &mut out,
    );
    assert_eq!((done, out), (0, [1, 0, 2]));
    // One pair never satisfied: -1 (UINT32_MAX) once the timeout passes.
    let done = all(&mut [a, b], &mut [EQ, EQ], &mut [1, 0], 5 * MS, &mut out);
    assert_eq!(done, u32::MAX);
    destroy(a);
    destroy(b);
}

extern "C" fn first_agent(agent: hsa_agent_t, data: *mut std::ffi::c_void) -> hsa_status_t {
    // SAFETY: `data` is the `hsa_agent_t` the caller passed.
    unsafe { *data.cast::<hsa_agent_t>() = agent };
    HSA_STATUS_INFO_BREAK
}

#[test]
fn creation_and_destruction_statuses() {
    setup();
    let mut signal = hsa_signal_t { handle: 0 };
    let mut agent = hsa_agent_t { handle: 0 };
    // SAFETY: plain C calls with valid pointers (or the NULLs under test).
    unsafe {
        assert_eq!(
            hsa_iterate_agents(Some(first_agent), (&raw mut agent).cast()),
            HSA_STATUS_INFO_BREAK
        );
        // NULL out-pointer; NULL consumers with a count; unknown attribute bits.
        assert_eq!(
            hsa_amd_signal_create(0, 0, std::ptr::null(), 0, std::ptr::null_mut()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_signal_create(0, 1, std::ptr::null(), &mut signal),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_signal_create(0, 0, std::ptr::null(), 4, &mut signal),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        // A consumer that is no agent.
        let bogus = hsa_agent_t { handle: 12345 };
        assert_eq!(
            hsa_signal_create(0, 1, &bogus, &mut signal),
            HSA_STATUS_ERROR_INVALID_AGENT
        );
        assert_eq!(signal.handle, 0, "nothing written on failure");
        // Valid: a real consumer, each documented attribute.
        for attributes in [0, GPU_ONLY, IPC, GPU_ONLY | IPC] {
            assert_eq!(
                hsa_amd_signal_create(3, 1, &agent, attributes, &mut signal),
                HSA_STATUS_SUCCESS
            );
            assert_eq!(hsa_signal_load_relaxed(signal), 3);
            assert_eq!(hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
            // Destroyed: not a signal any more.
            assert_eq!(hsa_signal_destroy(signal), HSA_STATUS_ERROR_INVALID_SIGNAL);
        }
        assert_eq!(
            hsa_signal_create(4, 0, std::ptr::null(), &mut signal),
            HSA_STATUS_SUCCESS
        );
        assert_eq!(hsa_signal_load_scacquire(signal), 4);
        assert_eq!(hsa_signal_destroy(signal), HSA_STATUS_SUCCESS);
        // The zero handle.
        assert_eq!(
            hsa_signal_destroy(hsa_signal_t { handle: 0 }),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
    }
}

const CHILD_ENV: &str = "AMDGPU_SIM_SIGNALS_CHILD";

/// Run in a child process with faults armed (see the test below).
#[test]
#[ignore = "a child of faults_and_the_leak_report"]
fn child_with_faults() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    // SAFETY: plain C calls with valid pointers.
    unsafe {
        assert_eq!(hsa_init(), HSA_STATUS_SUCCESS);
        let kept = create(1);
        // The second signal creation fails as injected, writing nothing.
        let mut signal = hsa_signal_t { handle: 0 };
        assert_eq!(
            hsa_amd_signal_create(0, 0, std::ptr::null(), 0, &mut signal),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES
        );
        assert_eq!(signal.handle, 0);
        // An injected wait returns at once, unsatisfied (a spurious return).
        let start = Instant::now();
        assert_eq!(hsa_signal_wait_scacquire(kept, EQ, 0, u64::MAX, BLOCKED), 1);
        assert!(start.elapsed() < Duration::from_secs(5));
        let freed = create(2);
        destroy(freed);
        // `kept` is left alive for the report.
        assert_eq!(hsa_shut_down(), HSA_STATUS_SUCCESS);
    }
}

#[test]
fn faults_and_the_leak_report() {
    let report = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("signals-report.txt");
    let _ = std::fs::remove_file(&report);
    let output = crate::child::command("signals::child_with_faults")
        .env(CHILD_ENV, "1")
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env(
            "AMDGPU_SIM_FAULTS",
            "hsa_amd_signal_create@2=0x1008;hsa_signal_wait_scacquire=0x1000",
        )
        .env("AMDGPU_SIM_REPORT", &report)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "the child with faults");
    let text = std::fs::read_to_string(&report).expect("the report");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"hsa_signals 1"), "{text}");
    let injected: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("injected"))
        .collect();
    assert_eq!(
        injected.len(),
        2,
        "one creation and one wait injected: {text}"
    );
    assert!(
        injected[0].starts_with("injected hsa_amd_signal_create -> "),
        "{text}"
    );
    assert!(
        injected[1].starts_with("injected hsa_signal_wait_scacquire -> "),
        "{text}"
    );
}

unsafe extern "C" {
    fn hsa_system_get_info(attribute: u32, value: *mut std::ffi::c_void) -> hsa_status_t;
}

/// The system attributes IREE's AMDGPU driver asks at device creation
/// (`util/info.c`), through the C symbol: `hsa.h`'s values, one `bool` each.
#[test]
fn the_system_attributes_iree_requires_are_answered() {
    setup();
    // (attribute, answer on w7900: its dump's ROCm 6.3 answers dmabuf and the
    // virtual-memory API, without MWAITX; gfx1100 has no XNACK)
    for (attribute, expected) in [
        (0x201, true),  // HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED
        (0x202, false), // HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT
        (0x203, false), // HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED
        (0x204, true),  // HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED
        (0x205, true),  // HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED
        (0x206, false), // HSA_AMD_SYSTEM_INFO_XNACK_ENABLED
    ] {
        let mut bytes = [0xAAu8; 2];
        // SAFETY: room for the bool and a canary byte after it.
        let status = unsafe { hsa_system_get_info(attribute, bytes.as_mut_ptr().cast()) };
        assert_eq!(status, HSA_STATUS_SUCCESS, "{attribute:#x}");
        assert_eq!(bytes, [u8::from(expected), 0xAA], "{attribute:#x}");
    }
}
