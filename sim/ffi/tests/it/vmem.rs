//! The virtual-memory API (`hsa_amd_vmem_*`) through the C symbols, held
//! to ROCr: `hsa_ext_amd.h`'s documentation and the checks and statuses of
//! `runtime.cpp`'s `VMemory*` (with `hsa_ext_amd.cpp`'s argument checks
//! and libhsakmt's `hsaKmtAllocMemoryAlign` behind reservations).
//!
//! - IREE's ring buffer (`util/vmem.c`): one handle mapped at three
//!   consecutive addresses aliases, for the host and for a kernel alike;
//!   the host may touch a mapping only once a CPU agent has access (ROCr
//!   maps it for the CPU then), and a kernel only once its GPU has;
//! - misuse gets ROCr's statuses;
//! - in child processes, a failure injected into each creation call of the
//!   ring buffer leaves nothing alive after IREE's cleanup, and a failed
//!   release shows in the report;
//! - IREE's own `util/vmem_test` on three presets;
//! - the API at its edges (`edges`): statuses at each limit, the host's
//!   access, placement in the window, a node without the API.

use std::ffi::{c_int, c_void};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;

use crate::aql::{
    N, TYPE_KERNEL_DISPATCH, dispatch_body, f32_bytes, load, ok, pools, signal, submit, wait_zero,
};
use crate::iree_built::{iree_amdgpu_test, sim_lib_dir};
use crate::pool_memory::raw_allocate;
use crate::queues::{agents, destroy};
use crate::signals::setup;

mod edges;

unsafe extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_amd_vmem_address_reserve_align(
        va: *mut *mut c_void,
        size: usize,
        address: u64,
        alignment: u64,
        flags: u64,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_address_reserve(
        va: *mut *mut c_void,
        size: usize,
        address: u64,
        flags: u64,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_address_free(va: *mut c_void, size: usize) -> hsa_status_t;
    fn hsa_amd_vmem_handle_create(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        memory_type: u32,
        flags: u64,
        handle: *mut hsa_amd_vmem_alloc_handle_t,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_handle_release(handle: hsa_amd_vmem_alloc_handle_t) -> hsa_status_t;
    fn hsa_amd_vmem_map(
        va: *mut c_void,
        size: usize,
        in_offset: usize,
        handle: hsa_amd_vmem_alloc_handle_t,
        flags: u64,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_unmap(va: *mut c_void, size: usize) -> hsa_status_t;
    fn hsa_amd_vmem_set_access(
        va: *mut c_void,
        size: usize,
        desc: *const hsa_amd_memory_access_desc_t,
        desc_cnt: usize,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_get_access(
        va: *mut c_void,
        perms: *mut u32,
        agent: hsa_agent_t,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_retain_alloc_handle(
        handle: *mut hsa_amd_vmem_alloc_handle_t,
        addr: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_get_alloc_properties_from_handle(
        handle: hsa_amd_vmem_alloc_handle_t,
        pool: *mut hsa_amd_memory_pool_t,
        memory_type: *mut u32,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_export_shareable_handle(
        dmabuf_fd: *mut c_int,
        handle: hsa_amd_vmem_alloc_handle_t,
        flags: u64,
    ) -> hsa_status_t;
    fn hsa_amd_vmem_import_shareable_handle(
        dmabuf_fd: c_int,
        handle: *mut hsa_amd_vmem_alloc_handle_t,
    ) -> hsa_status_t;
    fn hsa_amd_agents_allow_access(
        num_agents: u32,
        agents: *const hsa_agent_t,
        flags: *const u32,
        ptr: *const c_void,
    ) -> hsa_status_t;
    fn hsa_amd_pointer_info(
        ptr: *const c_void,
        info: *mut hsa_amd_pointer_info_t,
        alloc: Option<extern "C" fn(usize) -> *mut c_void>,
        num_agents_accessible: *mut u32,
        accessible: *mut *mut hsa_agent_t,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> i64;
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t;
    fn hsa_code_object_reader_destroy(reader: hsa_code_object_reader_t) -> hsa_status_t;
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
    fn hsa_iterate_agents(
        callback: Option<extern "C" fn(hsa_agent_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t;
    fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Option<extern "C" fn(hsa_amd_memory_pool_t, *mut c_void) -> hsa_status_t>,
        data: *mut c_void,
    ) -> hsa_status_t;
}

// hsa_access_permission_t, hsa_amd_memory_type_t, HSA_EXT_POINTER_TYPE_RESERVED_ADDR.
const NONE: u32 = 0;
const RO: u32 = 1;
const RW: u32 = 3;
const MEMORY_TYPE_NONE: u32 = 0;
const RESERVED_ADDR: u32 = 5;
/// IREE's ring buffers round to the pool's recommended granule (2 MiB on
/// the presets' GPU pools).
const GRANULE: usize = 2 << 20;

fn reserve(size: usize, align: u64) -> *mut u8 {
    let mut va = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hsa_amd_vmem_address_reserve_align(&mut va, size, 0, align, 0) });
    va.cast()
}

fn handle(pool: hsa_amd_memory_pool_t, size: usize) -> hsa_amd_vmem_alloc_handle_t {
    let mut h = hsa_amd_vmem_alloc_handle_t::default();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hsa_amd_vmem_handle_create(pool, size, MEMORY_TYPE_NONE, 0, &mut h) });
    h
}

fn access(agent: hsa_agent_t, permissions: u32) -> hsa_amd_memory_access_desc_t {
    hsa_amd_memory_access_desc_t {
        permissions,
        agent_handle: agent,
    }
}

fn set_access(va: *mut u8, size: usize, descs: &[hsa_amd_memory_access_desc_t]) -> hsa_status_t {
    // SAFETY: `descs` holds `descs.len()` descriptors.
    unsafe { hsa_amd_vmem_set_access(va.cast(), size, descs.as_ptr(), descs.len()) }
}

/// The permissions `/proc/self/maps` shows at `address` (`"rw-s"`, ...).
fn host_permissions(address: *const u8) -> String {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let at = address as u64;
    maps.lines()
        .find_map(|line| {
            let (range, rest) = line.split_once(' ')?;
            let (start, end) = range.split_once('-')?;
            let (start, end) = (
                u64::from_str_radix(start, 16).ok()?,
                u64::from_str_radix(end, 16).ok()?,
            );
            (start <= at && at < end).then(|| rest[..4].to_string())
        })
        .unwrap_or_default()
}

/// IREE's ring buffer of `capacity` bytes on `pool`: three consecutive
/// mappings of one handle, with `descs` set on each.
struct Ring {
    va: *mut u8,
    handle: hsa_amd_vmem_alloc_handle_t,
    capacity: usize,
}

impl Ring {
    fn new(
        pool: hsa_amd_memory_pool_t,
        capacity: usize,
        descs: &[hsa_amd_memory_access_desc_t],
    ) -> Ring {
        let va = reserve(3 * capacity, capacity as u64);
        let handle = handle(pool, capacity);
        for i in 0..3 {
            // SAFETY: inside the reservation.
            ok(unsafe { hsa_amd_vmem_map(va.add(i * capacity).cast(), capacity, 0, handle, 0) });
        }
        for i in 0..3 {
            // SAFETY: inside the reservation.
            ok(set_access(unsafe { va.add(i * capacity) }, capacity, descs));
        }
        Ring {
            va,
            handle,
            capacity,
        }
    }

    fn view(&self, i: usize) -> *mut u8 {
        self.va.wrapping_add(i * self.capacity)
    }
}

impl Drop for Ring {
    fn drop(&mut self) {
        // SAFETY: plain C calls on this ring's objects.
        unsafe {
            for i in 0..3 {
                ok(hsa_amd_vmem_unmap(self.view(i).cast(), self.capacity));
            }
            ok(hsa_amd_vmem_handle_release(self.handle));
            ok(hsa_amd_vmem_address_free(self.va.cast(), 3 * self.capacity));
        }
    }
}

#[test]
fn one_handle_mapped_three_times_aliases_for_the_host() {
    setup();
    let (cpu, gpu) = agents();
    // w7900.toml: the GPU's extended-scope fine-grained pool (IREE's
    // ring buffers take a fine-grained pool).
    let fine = pools(gpu)[1];
    let va = reserve(3 * GRANULE, GRANULE as u64);
    assert_eq!(va as usize % GRANULE, 0, "aligned as asked");
    let h = handle(fine, GRANULE);
    for i in 0..3 {
        // SAFETY: inside the reservation.
        ok(unsafe { hsa_amd_vmem_map(va.add(i * GRANULE).cast(), GRANULE, 0, h, 0) });
    }
    // Mapped, but no agent has access yet: the host's view is PROT_NONE.
    assert_eq!(&host_permissions(va)[..3], "---");
    let mut perms = 7u32;
    // SAFETY: a valid out-pointer.
    ok(unsafe { hsa_amd_vmem_get_access(va.cast(), &mut perms, gpu) });
    assert_eq!(perms, NONE);
    for i in 0..3 {
        ok(set_access(
            va.wrapping_add(i * GRANULE),
            GRANULE,
            &[access(cpu, RW), access(gpu, RW)],
        ));
    }
    assert_eq!(host_permissions(va), "rw-s");
    // SAFETY: three read-write mappings of one handle, each GRANULE bytes.
    unsafe {
        let ring = va.add(GRANULE).cast::<u32>();
        let words = GRANULE / 4;
        for i in 0..words {
            ring.add(i).write_volatile(i as u32);
        }
        // IREE's RingbufferWrap: before and after the base alias its ends.
        assert_eq!(ring.read_volatile(), ring.add(words).read_volatile());
        assert_eq!(
            ring.sub(1).read_volatile(),
            ring.add(words - 1).read_volatile()
        );
        assert_eq!(
            ring.add(1).read_volatile(),
            ring.add(words + 1).read_volatile()
        );
        // A write through the third mapping shows through the first.
        va.add(2 * GRANULE + 100).write_volatile(0xab);
        assert_eq!(va.add(100).read_volatile(), 0xab);
        ok(hsa_amd_vmem_get_access(
            va.add(GRANULE).cast(),
            &mut perms,
            gpu,
        ));
        assert_eq!(perms, RW);
        // Only a GPU is asked about (ROCr).
        assert_eq!(
            hsa_amd_vmem_get_access(va.cast(), &mut perms, cpu),
            HSA_STATUS_ERROR_INVALID_AGENT
        );
        // The handle mapped at an address, with one more reference.
        let mut retained = hsa_amd_vmem_alloc_handle_t::default();
        ok(hsa_amd_vmem_retain_alloc_handle(
            &mut retained,
            va.add(GRANULE).cast(),
        ));
        assert_eq!(retained, h);
        let (mut pool, mut kind) = (hsa_amd_memory_pool_t::default(), 9u32);
        ok(hsa_amd_vmem_get_alloc_properties_from_handle(
            h, &mut pool, &mut kind,
        ));
        assert_eq!((pool, kind), (fine, MEMORY_TYPE_NONE));
        // Pointer info: ROCr reports the reservation (an address-only
        // allocation of the driver).
        let mut info = hsa_amd_pointer_info_t {
            size: size_of::<hsa_amd_pointer_info_t>() as u32,
            ..Default::default()
        };
        let null = std::ptr::null_mut();
        ok(hsa_amd_pointer_info(
            va.add(GRANULE + 8).cast(),
            &mut info,
            None,
            null,
            null.cast(),
        ));
        assert_eq!(
            (info.type_, info.agent_base_address, info.size_in_bytes),
            (RESERVED_ADDR, va as u64, 3 * GRANULE as u64)
        );
        // Released while mapped: the memory stays until the last unmap.
        ok(hsa_amd_vmem_handle_release(retained));
        ok(hsa_amd_vmem_handle_release(h));
        assert_eq!(va.add(GRANULE + 100).read_volatile(), 0xab);
        assert_eq!(
            hsa_amd_vmem_handle_release(h),
            HSA_STATUS_ERROR_INVALID_ALLOCATION,
            "no reference is left"
        );
        for i in 0..3 {
            ok(hsa_amd_vmem_unmap(va.add(i * GRANULE).cast(), GRANULE));
        }
        assert_eq!(
            &host_permissions(va)[..3],
            "---",
            "a bare reservation again"
        );
        let mut kind = 0;
        assert_eq!(
            hsa_amd_vmem_get_alloc_properties_from_handle(h, &mut pool, &mut kind),
            HSA_STATUS_ERROR_INVALID_ALLOCATION,
            "the handle is gone with its last mapping"
        );
        ok(hsa_amd_vmem_address_free(va.cast(), 3 * GRANULE));
    }
    assert_eq!(host_permissions(va), "", "the addresses are given back");
}

/// What the queue's error callback saw.
static FAULT: AtomicU64 = AtomicU64::new(0);

extern "C" fn on_error(status: hsa_status_t, _: *mut hsa_queue_t, _: *mut c_void) {
    FAULT.store(u64::from(status), Ordering::SeqCst);
}

#[test]
fn a_kernel_sees_the_aliases_and_needs_access() {
    setup();
    let (cpu, gpu) = agents();
    let k = load(gpu);
    let ring = Ring::new(pools(gpu)[1], GRANULE, &[access(cpu, RW), access(gpu, RW)]);
    let a: Vec<f32> = (0..N).map(|i| (i % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 3) as f32 + 1.5).collect();
    let (at_b, at_c) = (N * 4, 2 * N * 4);
    // SAFETY: the ring's mappings are read-write for the host; a and b
    // (and c, after the kernel) lie inside one GRANULE-byte view.
    unsafe {
        std::ptr::copy_nonoverlapping(f32_bytes(&a).as_ptr(), ring.view(1), N * 4);
        std::ptr::copy_nonoverlapping(f32_bytes(&b).as_ptr(), ring.view(1).add(at_b), N * 4);
    }
    // The kernel reads a through the first view, b through the second and
    // writes c through the third: one physical buffer.
    let kernarg = raw_allocate(pools(cpu)[2], k.kernarg_size as usize);
    let args = [
        ring.view(0) as u64,
        ring.view(1) as u64 + at_b as u64,
        ring.view(2) as u64 + at_c as u64,
    ];
    // SAFETY: `kernarg` holds the kernel's kernarg segment (>= 24 bytes).
    unsafe {
        for (i, p) in args.iter().enumerate() {
            kernarg.add(8 * i).cast::<u64>().write_unaligned(*p);
        }
    }
    let mut queue: *mut hsa_queue_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; `on_error` only stores the status.
    ok(unsafe {
        hsa_queue_create(
            gpu,
            64,
            0,
            Some(on_error),
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
        &dispatch_body(k.object, kernarg.cast(), done),
    );
    assert_eq!(wait_zero(done), 0);
    // SAFETY: c lies in the middle view at `at_c`.
    let c = unsafe { std::slice::from_raw_parts(ring.view(1).add(at_c).cast::<f32>(), N) };
    for i in 0..N {
        assert_eq!(c[i], a[i] * b[i] + a[i], "element {i}");
    }
    // Without the GPU's access the same dispatch faults (the queue stops
    // with ROCr's memory aperture violation).
    ok(set_access(ring.view(0), 3 * GRANULE, &[access(gpu, RO)]));
    FAULT.store(0, Ordering::SeqCst);
    let failed = signal(1);
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(k.object, kernarg.cast(), failed),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while FAULT.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        FAULT.load(Ordering::SeqCst),
        u64::from(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
        "a store into a read-only mapping"
    );
    // SAFETY: plain C calls on this test's objects.
    unsafe {
        assert_eq!(hsa_signal_load_scacquire(failed), 1);
        destroy(queue);
        ok(hsa_signal_destroy(done));
        ok(hsa_signal_destroy(failed));
        ok(hsa_amd_memory_pool_free(kernarg.cast()));
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
    // hsa_amd_agents_allow_access on a mapping gives read and write to
    // it and the mappings after it.
    // SAFETY: a valid agent array.
    ok(unsafe { hsa_amd_agents_allow_access(1, &gpu, std::ptr::null(), ring.view(1).cast()) });
    let mut perms = 0;
    // SAFETY: valid out-pointers.
    unsafe {
        ok(hsa_amd_vmem_get_access(
            ring.view(0).cast(),
            &mut perms,
            gpu,
        ));
        assert_eq!(perms, RO, "the mapping before is left alone");
        ok(hsa_amd_vmem_get_access(
            ring.view(2).cast(),
            &mut perms,
            gpu,
        ));
        assert_eq!(perms, RW);
    }
}

#[test]
fn misuse_gets_rocrs_statuses() {
    setup();
    let (cpu, gpu) = agents();
    let (fine, group) = (pools(gpu)[1], pools(gpu)[2]);
    let page = 4096;
    let null = std::ptr::null_mut();
    let mut va: *mut c_void = null;
    let mut h = hsa_amd_vmem_alloc_handle_t::default();
    // SAFETY: valid out-pointers throughout; addresses are this test's
    // reservations or bogus ones the calls must refuse.
    unsafe {
        // Reservations: size 0 is the API's INVALID_ARGUMENT; the driver's
        // refusals (a size or alignment that is no page multiple / power of
        // two) come back as OUT_OF_RESOURCES.
        for (size, align, expected) in [
            (0, 0, HSA_STATUS_ERROR_INVALID_ARGUMENT),
            (page + 1, 0, HSA_STATUS_ERROR_OUT_OF_RESOURCES),
            (page, 3 * page as u64, HSA_STATUS_ERROR_OUT_OF_RESOURCES),
            (page, 1024, HSA_STATUS_ERROR_OUT_OF_RESOURCES),
        ] {
            assert_eq!(
                hsa_amd_vmem_address_reserve_align(&mut va, size, 0, align, 0),
                expected,
                "size {size}, alignment {align}"
            );
        }
        // A free address asked for is the one given; a taken one is not.
        ok(hsa_amd_vmem_address_reserve(&mut va, 4 * page, 0, 0));
        let mut again = null;
        ok(hsa_amd_vmem_address_reserve(&mut again, page, va as u64, 0));
        assert_ne!(again, va);
        let wanted = again as u64 + (64 << 20);
        let mut exact = null;
        ok(hsa_amd_vmem_address_reserve(&mut exact, page, wanted, 0));
        assert_eq!(exact as u64, wanted);
        for p in [again, exact] {
            ok(hsa_amd_vmem_address_free(p, page));
        }
        // Handles.
        for (pool, size, kind, expected) in [
            (fine, 0, MEMORY_TYPE_NONE, HSA_STATUS_ERROR_INVALID_ARGUMENT),
            (fine, page, 2, HSA_STATUS_ERROR_INVALID_ARGUMENT),
            (
                hsa_amd_memory_pool_t { handle: 1 },
                page,
                0,
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
            ),
            (
                fine,
                100,
                MEMORY_TYPE_NONE,
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
            ),
            (
                group,
                page,
                MEMORY_TYPE_NONE,
                HSA_STATUS_ERROR_INVALID_ALLOCATION,
            ),
        ] {
            assert_eq!(
                hsa_amd_vmem_handle_create(pool, size, kind, 0, &mut h),
                expected
            );
        }
        // Physical memory counts against the pool's capacity (w7900's GPU
        // pools hold 45 GiB; nothing is touched, so nothing is spent).
        let big = 30usize << 30;
        let first = handle(fine, big);
        assert_eq!(
            hsa_amd_vmem_handle_create(fine, big, MEMORY_TYPE_NONE, 0, &mut h),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES
        );
        ok(hsa_amd_vmem_handle_release(first));
        let h = handle(fine, 2 * page);
        let va = va.cast::<u8>();
        // Mapping: outside a reservation, over a mapping, an unknown handle,
        // an unaligned address, more than the handle holds.
        let outside = 0x1000usize as *mut c_void;
        let bogus = hsa_amd_vmem_alloc_handle_t { handle: 0x42 };
        assert_eq!(
            hsa_amd_vmem_map(outside, page, 0, h, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_vmem_map(va.add(3 * page).cast(), 2 * page, 0, h, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "past the reservation's end"
        );
        ok(hsa_amd_vmem_map(va.cast(), 2 * page, 0, h, 0));
        assert_eq!(
            hsa_amd_vmem_map(va.add(page).cast(), page, 0, h, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "mapped twice"
        );
        assert_eq!(
            hsa_amd_vmem_map(va.add(2 * page).cast(), page, 0, bogus, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_vmem_map(va.add(2 * page + 16).cast(), page, 0, h, 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        let small = handle(fine, page);
        assert_eq!(
            hsa_amd_vmem_map(va.add(2 * page).cast(), 2 * page, 0, small, 0),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES,
            "more than the handle holds"
        );
        ok(hsa_amd_vmem_handle_release(small));
        // Access: descriptors, agents, the reserved range, mapped memory.
        let rw = [access(gpu, RW)];
        assert_eq!(
            hsa_amd_vmem_set_access(va.cast(), page, std::ptr::null(), 1),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_vmem_set_access(va.cast(), page, rw.as_ptr(), 0),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            set_access(va, page, &[access(hsa_agent_t { handle: 9 }, RW)]),
            HSA_STATUS_ERROR_INVALID_AGENT
        );
        assert_eq!(
            set_access(va, 8 * page, &rw),
            HSA_STATUS_ERROR_INVALID_ARGUMENT,
            "past the reservation"
        );
        assert_eq!(
            set_access(va, 3 * page, &rw),
            HSA_STATUS_ERROR_INVALID_ALLOCATION,
            "a page not mapped"
        );
        ok(set_access(va, 2 * page, &[access(cpu, RW)]));
        // Freeing a reservation: an unknown address, a wrong size, a mapping in it.
        assert_eq!(
            hsa_amd_vmem_address_free(outside, page),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        assert_eq!(
            hsa_amd_vmem_address_free(va.cast(), page),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_vmem_address_free(va.cast(), 4 * page),
            HSA_STATUS_ERROR_RESOURCE_FREE
        );
        // Unmapping: an address no mapping starts at, a wrong size.
        assert_eq!(
            hsa_amd_vmem_unmap(va.add(page).cast(), page),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        assert_eq!(
            hsa_amd_vmem_unmap(va.cast(), page),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        let mut retained = hsa_amd_vmem_alloc_handle_t::default();
        assert_eq!(
            hsa_amd_vmem_retain_alloc_handle(&mut retained, va.add(page).cast()),
            HSA_STATUS_ERROR_INVALID_ALLOCATION,
            "not a mapping's address"
        );
        // Sharing through dma-bufs is not modelled: ROCr's answers when
        // the driver cannot export, and for a descriptor it does not know.
        let mut fd = 5;
        assert_eq!(
            hsa_amd_vmem_export_shareable_handle(&mut fd, h, 0),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES
        );
        assert_eq!(fd, -1);
        assert_eq!(
            hsa_amd_vmem_export_shareable_handle(&mut fd, bogus, 0),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        assert_eq!(
            hsa_amd_vmem_import_shareable_handle(-1, &mut retained),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_vmem_import_shareable_handle(0, &mut retained),
            HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS
        );
        ok(hsa_amd_vmem_unmap(va.cast(), 2 * page));
        ok(hsa_amd_vmem_handle_release(h));
        assert_eq!(
            hsa_amd_vmem_handle_release(h),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        ok(hsa_amd_vmem_address_free(va.cast(), 4 * page));
        assert_eq!(
            hsa_amd_vmem_address_free(va.cast(), 4 * page),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
    }
}

const CHILD_ENV: &str = "AMDGPU_SIM_VMEM_CHILD";

extern "C" fn push_agent(agent: hsa_agent_t, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the caller's Vec.
    unsafe { (*data.cast::<Vec<hsa_agent_t>>()).push(agent) };
    HSA_STATUS_SUCCESS
}

extern "C" fn push_pool(pool: hsa_amd_memory_pool_t, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the caller's Vec.
    unsafe { (*data.cast::<Vec<hsa_amd_memory_pool_t>>()).push(pool) };
    HSA_STATUS_SUCCESS
}

/// IREE's `iree_hal_amdgpu_vmem_ringbuffer_initialize` then `_deinitialize`
/// (`util/vmem.c`), including its cleanup after a failed step: every
/// mapping is unmapped (whether or not it was made), the handle released,
/// the reservation freed; statuses of the cleanup are not checked.
#[test]
#[ignore = "a child of faults_leave_nothing_alive"]
fn child_ring_buffer() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    // SAFETY: plain C calls with valid pointers; the ring's addresses come
    // from the calls themselves.
    unsafe {
        ok(hsa_init());
        let mut agents: Vec<hsa_agent_t> = Vec::new();
        ok(hsa_iterate_agents(
            Some(push_agent),
            (&raw mut agents).cast(),
        ));
        let gpu = *agents
            .iter()
            .find(|&&a| {
                let mut device = 0u32;
                ok(hsa_agent_get_info(a, 17, (&raw mut device).cast()));
                device == 1
            })
            .unwrap();
        let mut pools: Vec<hsa_amd_memory_pool_t> = Vec::new();
        ok(hsa_amd_agent_iterate_memory_pools(
            gpu,
            Some(push_pool),
            (&raw mut pools).cast(),
        ));
        let descs: Vec<_> = agents.iter().map(|&a| access(a, RW)).collect();
        let capacity = GRANULE;
        let mut va: *mut c_void = std::ptr::null_mut();
        let mut status =
            hsa_amd_vmem_address_reserve_align(&mut va, 3 * capacity, 0, capacity as u64, 0);
        if status == HSA_STATUS_SUCCESS {
            let mut h = hsa_amd_vmem_alloc_handle_t::default();
            status = hsa_amd_vmem_handle_create(pools[0], capacity, MEMORY_TYPE_NONE, 0, &mut h);
            let view = |i: usize| va.cast::<u8>().add(i * capacity).cast::<c_void>();
            for i in 0..3 {
                if status == HSA_STATUS_SUCCESS {
                    status = hsa_amd_vmem_map(view(i), capacity, 0, h, 0);
                }
            }
            for i in 0..3 {
                if status == HSA_STATUS_SUCCESS {
                    status =
                        hsa_amd_vmem_set_access(view(i), capacity, descs.as_ptr(), descs.len());
                }
            }
            println!("ring buffer: {status:#x}");
            if h.handle != 0 {
                for i in 0..3 {
                    let _ = hsa_amd_vmem_unmap(view(i), capacity);
                }
                let _ = hsa_amd_vmem_handle_release(h);
            }
            let _ = hsa_amd_vmem_address_free(va, 3 * capacity);
        }
        ok(hsa_shut_down());
    }
}

/// Runs the child with `faults`; its report's lines.
fn child_report(faults: &str) -> Vec<String> {
    let name = faults.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    let report = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vmem-{name}.txt"));
    let _ = std::fs::remove_file(&report);
    let output = crate::child::command("vmem::child_ring_buffer")
        .env(CHILD_ENV, "1")
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .env("AMDGPU_SIM_FAULTS", faults)
        .env("AMDGPU_SIM_REPORT", &report)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, faults);
    let text = std::fs::read_to_string(&report).expect("the report");
    text.lines().map(str::to_string).collect()
}

fn value(lines: &[String], key: &str) -> u64 {
    lines
        .iter()
        .find_map(|l| l.strip_prefix(&format!("{key} "))?.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {lines:?}"))
}

#[test]
fn faults_leave_nothing_alive_and_leaks_show() {
    // Every creation call of the ring buffer fails in turn (transient and
    // persistent): IREE's cleanup leaves nothing behind.
    let creations = [
        "hsa_amd_vmem_address_reserve_align@1",
        "hsa_amd_vmem_handle_create@1",
        "hsa_amd_vmem_map@1",
        "hsa_amd_vmem_map@2",
        "hsa_amd_vmem_map@3",
        "hsa_amd_vmem_set_access@1",
        "hsa_amd_vmem_set_access@3+",
    ];
    for fault in creations {
        let spec = format!("{fault}=0x1008");
        let lines = child_report(&spec);
        let op = fault.split('@').next().unwrap();
        let injected = format!("injected {op} -> 0x1008 HSA_STATUS_ERROR_OUT_OF_RESOURCES");
        assert!(lines.contains(&injected), "{spec}: {lines:?}");
        for key in [
            "vmem_reservations",
            "vmem_handles",
            "vmem_mappings",
            "allocated_bytes",
        ] {
            assert_eq!(value(&lines, key), 0, "{spec}: {key}");
        }
    }
    // A release that fails leaves the handle alive, and the report says so.
    let lines = child_report("hsa_amd_vmem_handle_release=0x1000");
    assert_eq!(value(&lines, "vmem_handles"), 1);
    assert_eq!(value(&lines, "vmem_mappings"), 0);
    assert_eq!(value(&lines, "vmem_reservations"), 0);
    // So does a reservation whose free fails.
    let lines = child_report("hsa_amd_vmem_address_free=0x1000");
    assert_eq!(value(&lines, "vmem_reservations"), 1);
    assert_eq!(value(&lines, "vmem_handles"), 0);
    assert_eq!(value(&lines, "vmem_mappings"), 0);
}

/// IREE's own `util/vmem_test` (pool lookup, ring-buffer lifetime and
/// wrap) on three presets: all 4 tests run and pass, and nothing is left
/// alive.
#[test]
fn iree_vmem_test_passes() {
    let Some(test) = iree_amdgpu_test(
        "util/vmem_test",
        "IREE's util/vmem_test on the simulated node",
    ) else {
        return;
    };
    let libs = sim_lib_dir("vmem-sim-lib");
    for machine in ["mi300x-8", "mi250x-4", "w7900"] {
        let report =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vmem-test-{machine}.txt"));
        let output = Command::new(&test)
            .env("AMDGPU_SIM_MACHINE", machine)
            .env("IREE_HAL_AMDGPU_LIBHSA_PATH", &libs)
            .env("AMDGPU_SIM_REPORT", &report)
            .output()
            .expect("run IREE's vmem_test");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let log = format!(
            "{machine}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "{log}");
        assert!(stdout.contains("[  PASSED  ] 4 tests."), "{log}");
        assert!(!stdout.contains("SKIPPED"), "{log}");
        let lines: Vec<String> = std::fs::read_to_string(&report)
            .expect("the report")
            .lines()
            .map(str::to_string)
            .collect();
        for key in ["vmem_reservations", "vmem_handles", "vmem_mappings"] {
            assert_eq!(value(&lines, key), 0, "{machine}: {key}");
        }
    }
}
