//! Pool memory and loaded code as the host sees them through the C
//! symbols: the pointer `hsa_amd_memory_pool_allocate` returns is memory
//! the client writes through and a dispatched kernel reads (and the other
//! way round), as IREE's AMDGPU driver writes kernargs and staging data
//! into pool allocations; a kernel object is the host address of its
//! 64-byte descriptor (IREE's `executable.c` reads it there), whose bytes
//! are the `.kd` symbol's in the code object (read here from the fixture's
//! ELF by this test's own reader); and `hsa_memory_copy`,
//! `hsa_amd_memory_fill`, `hsa_amd_pointer_info`,
//! `hsa_amd_agents_allow_access`, `hsa_amd_memory_lock` and
//! `hsa_amd_memory_async_copy` answer as ROCr's `runtime.cpp` and
//! `hsa_ext_amd.cpp` do (the statuses and the pointer-info layout of
//! `hsa_ext_amd.h`).

use std::ffi::{c_int, c_void};
use std::time::Duration;

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;

use crate::aql::{
    KERNEL, N, TYPE_KERNEL_DISPATCH, dispatch_body, f32_bytes, fixture, load, ok, pools, signal,
    submit, wait_zero,
};
use crate::queues::{agents, create, destroy};
use crate::signals::setup;

unsafe extern "C" {
    fn hsa_amd_memory_pool_allocate(
        pool: hsa_amd_memory_pool_t,
        size: usize,
        flags: u32,
        ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t;
    fn hsa_amd_memory_fill(ptr: *mut c_void, value: u32, count: usize) -> hsa_status_t;
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
    fn hsa_amd_memory_lock(
        host_ptr: *mut c_void,
        size: usize,
        agents: *mut hsa_agent_t,
        num_agent: c_int,
        agent_ptr: *mut *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_unlock(host_ptr: *mut c_void) -> hsa_status_t;
    fn hsa_amd_memory_async_copy(
        dst: *mut c_void,
        dst_agent: hsa_agent_t,
        src: *const c_void,
        src_agent: hsa_agent_t,
        size: usize,
        num_dep_signals: u32,
        dep_signals: *const hsa_signal_t,
        completion_signal: hsa_signal_t,
    ) -> hsa_status_t;
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> i64;
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t;
    fn hsa_code_object_reader_destroy(reader: hsa_code_object_reader_t) -> hsa_status_t;
}

// hsa_amd_memory_pool_global_flag_t and hsa_amd_pointer_type_t (hsa_ext_amd.h).
const KERNARG_INIT: u32 = 1;
const FINE_GRAINED: u32 = 2;
const COARSE_GRAINED: u32 = 4;
const TYPE_UNKNOWN: u32 = 0;
const TYPE_HSA: u32 = 1;
const TYPE_LOCKED: u32 = 2;

/// A pool allocation of `size` bytes (nothing written).
pub(crate) fn raw_allocate(pool: hsa_amd_memory_pool_t, size: usize) -> *mut u8 {
    let mut p = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    ok(unsafe { hsa_amd_memory_pool_allocate(pool, size, 0, &mut p) });
    p.cast()
}

fn free(p: *mut u8) {
    // SAFETY: plain C call.
    ok(unsafe { hsa_amd_memory_pool_free(p.cast()) });
}

extern "C" fn c_alloc(size: usize) -> *mut c_void {
    // SAFETY: libc's allocator; freed by `info` below.
    unsafe { libc::malloc(size.max(1)) }
}

/// `hsa_amd_pointer_info` with room for the whole struct, and the
/// accessible agents.
fn info(ptr: *const c_void) -> (hsa_amd_pointer_info_t, Vec<u64>) {
    let mut info = hsa_amd_pointer_info_t {
        size: size_of::<hsa_amd_pointer_info_t>() as u32,
        ..Default::default()
    };
    let (mut count, mut list) = (0u32, std::ptr::null_mut::<hsa_agent_t>());
    // SAFETY: valid out-pointers; the list comes from `c_alloc` and is
    // freed once, after it is read.
    unsafe {
        ok(hsa_amd_pointer_info(
            ptr,
            &mut info,
            Some(c_alloc),
            &mut count,
            &mut list,
        ));
        let agents = (0..count as usize).map(|i| (*list.add(i)).handle).collect();
        libc::free(list.cast());
        (info, agents)
    }
}

/// The elementwise kernel (`c = a * b + a`, fixtures/iree/src/elementwise.mlir)
/// over `a`, `b`, `c` through a queue on `gpu`; the kernargs go in `kernarg`
/// memory, written through its pointer.
fn run_elementwise(
    gpu: hsa_agent_t,
    kernarg: *mut u8,
    kernarg_size: u32,
    object: u64,
    abc: [u64; 3],
) {
    // SAFETY: `kernarg` holds `kernarg_size` (>= 24) writable bytes.
    unsafe {
        std::ptr::write_bytes(kernarg, 0, kernarg_size as usize);
        for (i, p) in abc.iter().enumerate() {
            kernarg.add(8 * i).cast::<u64>().write_unaligned(*p);
        }
    }
    let queue = create(gpu, 64);
    let done = signal(1);
    submit(
        queue,
        TYPE_KERNEL_DISPATCH,
        1,
        &dispatch_body(object, kernarg.cast(), done),
    );
    assert_eq!(wait_zero(done), 0);
    destroy(queue);
    // SAFETY: plain C call.
    ok(unsafe { hsa_signal_destroy(done) });
}

#[test]
fn host_writes_reach_kernels_and_kernel_writes_reach_the_host() {
    setup();
    let (cpu, gpu) = agents();
    let k = load(gpu);
    // w7900.toml: the GPU's coarse pool first; the CPU's kernarg pool third.
    let (vram, kernarg_pool) = (pools(gpu)[0], pools(cpu)[2]);
    let a: Vec<f32> = (0..N).map(|i| (i % 97) as f32 - 40.0).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 5) as f32 * 0.25).collect();
    let [da, db, dc] = [0; 3].map(|_| raw_allocate(vram, N * 4));
    // SAFETY: each allocation holds N floats of process memory.
    unsafe {
        for (dst, src) in [(da, &a), (db, &b)] {
            std::ptr::copy_nonoverlapping(f32_bytes(src).as_ptr(), dst, N * 4);
        }
        std::ptr::write_bytes(dc, 0xff, N * 4);
    }
    let kernarg = raw_allocate(kernarg_pool, k.kernarg_size as usize);
    run_elementwise(
        gpu,
        kernarg,
        k.kernarg_size,
        k.object,
        [da, db, dc].map(|p| p as u64),
    );
    // SAFETY: `dc` holds N floats.
    let c = unsafe { std::slice::from_raw_parts(dc.cast::<f32>(), N) };
    for i in 0..N {
        assert_eq!(c[i], a[i] * b[i] + a[i], "element {i}");
    }
    for p in [da, db, dc, kernarg] {
        free(p);
    }
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}

/// The bytes of symbol `name` in the ELF64 `elf` (its `st_value` mapped to
/// the file through the `PT_LOAD` segment holding it): the oracle for what
/// the loader must show at the kernel object.
fn symbol_bytes(elf: &[u8], name: &str, len: usize) -> Vec<u8> {
    let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(elf[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap()) as usize;
    let (phoff, shoff) = (u64_at(0x20), u64_at(0x28));
    let (phnum, shentsize, shnum) = (u16_at(0x38), u16_at(0x3a), u16_at(0x3c));
    let section = |i: usize| shoff + i * shentsize;
    // SHT_DYNSYM (11): its entries, and its string table (sh_link).
    let dynsym = (0..shnum)
        .map(section)
        .find(|&s| u32_at(s + 4) == 11)
        .unwrap();
    let (sym_off, sym_size) = (u64_at(dynsym + 0x18), u64_at(dynsym + 0x20));
    let strtab = u64_at(section(u32_at(dynsym + 0x28)) + 0x18);
    let value = (sym_off..sym_off + sym_size)
        .step_by(24)
        .find(|&sym| {
            let at = strtab + u32_at(sym);
            let end = at + elf[at..].iter().position(|&b| b == 0).unwrap();
            &elf[at..end] == name.as_bytes()
        })
        .map(|sym| u64_at(sym + 8))
        .expect("the symbol");
    let offset = (0..phnum)
        .map(|i| phoff + i * 56)
        .filter(|&ph| u32_at(ph) == 1) // PT_LOAD
        .find_map(|ph| {
            let (off, vaddr, filesz) = (u64_at(ph + 8), u64_at(ph + 16), u64_at(ph + 32));
            (vaddr..vaddr + filesz)
                .contains(&value)
                .then(|| off + value - vaddr)
        })
        .expect("a segment holds the symbol");
    elf[offset..offset + len].to_vec()
}

#[test]
fn the_kernel_descriptor_is_readable_at_the_kernel_object() {
    setup();
    let (_, gpu) = agents();
    let k = load(gpu);
    let elf = std::fs::read(fixture("elementwise.gfx1100.hsaco")).unwrap();
    let name = std::str::from_utf8(&KERNEL[..KERNEL.len() - 1]).unwrap();
    let expected = symbol_bytes(&elf, name, 64);
    // SAFETY: the kernel object is the host address of the loaded 64-byte
    // descriptor (what this test checks; IREE dereferences it the same way).
    let seen = unsafe { std::slice::from_raw_parts(k.object as *const u8, 64) };
    assert_eq!(seen, &expected[..]);
    // Loaded code is an HSA allocation of the agent it is loaded on.
    let (i, agents) = info(k.object as *const c_void);
    assert_eq!(i.type_, TYPE_HSA);
    assert_eq!(i.agent_owner, gpu);
    assert!(i.agent_base_address <= k.object && k.object < i.agent_base_address + i.size_in_bytes);
    assert_eq!(agents, [gpu.handle]);
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}

#[test]
fn copies_and_fills_move_the_bytes() {
    setup();
    let (cpu, gpu) = agents();
    let (vram, fine) = (pools(gpu)[0], pools(cpu)[0]);
    let (d1, d2) = (raw_allocate(vram, 4096), raw_allocate(fine, 4096));
    let src: Vec<u8> = (0..4096u32).map(|i| (i * 7) as u8).collect();
    let mut back = vec![0u8; 4096];
    // SAFETY: every pointer holds 4096 bytes (allocations or this test's vectors).
    unsafe {
        ok(hsa_memory_copy(d1.cast(), src.as_ptr().cast(), 4096));
        assert_eq!(std::slice::from_raw_parts(d1, 4096), &src[..]);
        ok(hsa_memory_copy(d2.cast(), d1.cast(), 4096));
        ok(hsa_memory_copy(back.as_mut_ptr().cast(), d2.cast(), 4096));
        assert_eq!(back, src);
        // Host to host: ROCr copies with memcpy.
        let mut other = vec![0u8; 16];
        ok(hsa_memory_copy(
            other.as_mut_ptr().cast(),
            src.as_ptr().cast(),
            16,
        ));
        assert_eq!(other[..], src[..16]);
        // Past an allocation's end, NULL: refused.
        assert_eq!(
            hsa_memory_copy(d1.add(4000).cast(), src.as_ptr().cast(), 200),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_memory_copy(std::ptr::null_mut(), src.as_ptr().cast(), 1),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        // Fills of 32-bit words (ROCr: a 4-aligned pointer, a count of words).
        ok(hsa_amd_memory_fill(d1.add(8).cast(), 0xa1b2_c3d4, 3));
        let words = std::slice::from_raw_parts(d1.add(4).cast::<u32>(), 5);
        let first = u32::from_le_bytes(src[4..8].try_into().unwrap());
        let last = u32::from_le_bytes(src[20..24].try_into().unwrap());
        assert_eq!(words, [first, 0xa1b2_c3d4, 0xa1b2_c3d4, 0xa1b2_c3d4, last]);
        assert_eq!(
            hsa_amd_memory_fill(d1.add(2).cast(), 0, 1),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(hsa_amd_memory_fill(d1.cast(), 0, 0), HSA_STATUS_SUCCESS);
        assert_eq!(
            hsa_amd_memory_fill(d1.add(4000).cast(), 0, 100),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        // Host memory the runtime does not know: ROCr's INVALID_ALLOCATION;
        // once locked, it fills.
        let mut host = vec![0u32; 8];
        assert_eq!(
            hsa_amd_memory_fill(host.as_mut_ptr().cast(), 7, 8),
            HSA_STATUS_ERROR_INVALID_ALLOCATION
        );
        let mut agent_ptr = std::ptr::null_mut();
        ok(hsa_amd_memory_lock(
            host.as_mut_ptr().cast(),
            32,
            std::ptr::null_mut(),
            0,
            &mut agent_ptr,
        ));
        assert_eq!(agent_ptr, host.as_mut_ptr().cast());
        ok(hsa_amd_memory_fill(host.as_mut_ptr().cast(), 7, 8));
        assert_eq!(host, [7; 8]);
        ok(hsa_amd_memory_unlock(host.as_mut_ptr().cast()));
    }
    free(d1);
    free(d2);
}

#[test]
fn pointer_info_answers_as_rocr() {
    setup();
    let (cpu, gpu) = agents();
    let (vram, fine, kernarg) = (pools(gpu)[0], pools(cpu)[0], pools(cpu)[2]);
    let (v, f, k) = (
        raw_allocate(vram, 100),
        raw_allocate(fine, 4096),
        raw_allocate(kernarg, 64),
    );
    // An interior pointer names its allocation: base, the size asked for,
    // the owner, coarse grain; only the owner reaches VRAM until access is
    // allowed.
    let (i, reach) = info(v.wrapping_add(10).cast());
    assert_eq!(
        (
            i.type_,
            i.agent_base_address,
            i.host_base_address,
            i.size_in_bytes
        ),
        (TYPE_HSA, v as u64, v as u64, 100)
    );
    assert_eq!((i.agent_owner, i.global_flags), (gpu, COARSE_GRAINED));
    assert_eq!(reach, [gpu.handle]);
    // SAFETY: one valid agent.
    ok(unsafe { hsa_amd_agents_allow_access(1, &cpu, std::ptr::null(), v.cast()) });
    assert_eq!(info(v.cast()).1, [cpu.handle, gpu.handle]);
    // The CPU's pools are accessible by all; the kernarg pool is reported
    // uncached (kernarg).
    let (i, reach) = info(f.cast());
    assert_eq!((i.agent_owner, i.global_flags), (cpu, FINE_GRAINED));
    assert_eq!(reach, [cpu.handle, gpu.handle]);
    assert_eq!(info(k.cast()).0.global_flags, FINE_GRAINED | KERNARG_INIT);
    // Memory the runtime does not know: UNKNOWN, every other field zero.
    let local = 5u64;
    let (i, reach) = info((&raw const local).cast());
    assert_eq!(
        i,
        hsa_amd_pointer_info_t {
            size: size_of::<hsa_amd_pointer_info_t>() as u32,
            type_: TYPE_UNKNOWN,
            ..Default::default()
        }
    );
    assert!(reach.is_empty());
    // A smaller struct gets only its own bytes; size 0 and NULLs are refused.
    let mut short = [0xaau8; 32];
    short[..4].copy_from_slice(&16u32.to_le_bytes());
    // SAFETY: 32 writable bytes, of which the call may write 16.
    unsafe {
        ok(hsa_amd_pointer_info(
            v.cast(),
            short.as_mut_ptr().cast(),
            None,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        ));
        assert_eq!(u32::from_le_bytes(short[..4].try_into().unwrap()), 16);
        assert_eq!(
            u32::from_le_bytes(short[4..8].try_into().unwrap()),
            TYPE_HSA
        );
        assert_eq!(
            u64::from_le_bytes(short[8..16].try_into().unwrap()),
            v as u64
        );
        assert!(
            short[16..].iter().all(|&b| b == 0xaa),
            "nothing past `size`"
        );
        let mut zero = hsa_amd_pointer_info_t::default();
        let null = std::ptr::null_mut();
        assert_eq!(
            hsa_amd_pointer_info(v.cast(), &mut zero, None, null, null.cast()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_pointer_info(std::ptr::null(), &mut zero, None, null, null.cast()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
    }
    // Locked host memory.
    let mut host = vec![0u8; 256];
    let mut agent_ptr = std::ptr::null_mut();
    let mut gpus = [gpu];
    // SAFETY: the vector outlives the lock; one valid agent.
    ok(unsafe {
        hsa_amd_memory_lock(
            host.as_mut_ptr().cast(),
            256,
            gpus.as_mut_ptr(),
            1,
            &mut agent_ptr,
        )
    });
    let (i, reach) = info(host.as_ptr().wrapping_add(8).cast());
    assert_eq!(
        (i.type_, i.agent_base_address, i.size_in_bytes),
        (TYPE_LOCKED, host.as_ptr() as u64, 256)
    );
    assert_eq!(i.agent_owner, cpu);
    assert_eq!(reach, [cpu.handle, gpu.handle]);
    // SAFETY: plain C call.
    ok(unsafe { hsa_amd_memory_unlock(host.as_mut_ptr().cast()) });
    assert_eq!(info(host.as_ptr().cast()).0.type_, TYPE_UNKNOWN);
    for p in [v, f, k] {
        free(p);
    }
}

#[test]
fn allow_access_takes_an_allocation_base_as_rocr() {
    setup();
    let (cpu, gpu) = agents();
    let v = raw_allocate(pools(gpu)[0], 4096);
    let local = 0u8;
    let bogus = hsa_agent_t { handle: 0x1234 };
    // SAFETY: plain C calls with valid agent arrays.
    unsafe {
        ok(hsa_amd_agents_allow_access(
            1,
            &cpu,
            std::ptr::null(),
            v.cast(),
        ));
        for (ptr, expected) in [
            (
                v.wrapping_add(64).cast_const().cast::<c_void>(),
                HSA_STATUS_ERROR_INVALID_ALLOCATION,
            ),
            (
                (&raw const local).cast(),
                HSA_STATUS_ERROR_INVALID_ALLOCATION,
            ),
            (std::ptr::null(), HSA_STATUS_ERROR_INVALID_ARGUMENT),
        ] {
            assert_eq!(
                hsa_amd_agents_allow_access(1, &cpu, std::ptr::null(), ptr),
                expected
            );
        }
        let flags = 0u32;
        assert_eq!(
            hsa_amd_agents_allow_access(1, &cpu, &flags, v.cast()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_agents_allow_access(0, &cpu, std::ptr::null(), v.cast()),
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        );
        assert_eq!(
            hsa_amd_agents_allow_access(1, &bogus, std::ptr::null(), v.cast()),
            HSA_STATUS_ERROR_INVALID_AGENT
        );
    }
    free(v);
}

#[test]
fn async_copies_wait_for_their_dependencies() {
    setup();
    let (cpu, gpu) = agents();
    let dst = raw_allocate(pools(gpu)[0], 4096);
    let src: Vec<u8> = (0..4096u32).map(|i| (i ^ 0x5a) as u8).collect();
    let (dep, done) = (signal(1), signal(1));
    // SAFETY: valid pointers (the vector lives until the copy completed);
    // `dep` and `done` are live signals.
    unsafe {
        ok(hsa_amd_memory_async_copy(
            dst.cast(),
            gpu,
            src.as_ptr().cast(),
            cpu,
            4096,
            1,
            &dep,
            done,
        ));
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(
            hsa_signal_load_scacquire(done),
            1,
            "waits for its dependency"
        );
        assert_eq!(*dst, 0, "nothing copied yet");
        // A second copy with no dependency is not held back by the first.
        let (other, other_done) = (raw_allocate(pools(gpu)[0], 64), signal(1));
        ok(hsa_amd_memory_async_copy(
            other.cast(),
            gpu,
            src.as_ptr().cast(),
            cpu,
            64,
            0,
            std::ptr::null(),
            other_done,
        ));
        assert_eq!(wait_zero(other_done), 0);
        assert_eq!(std::slice::from_raw_parts(other, 64), &src[..64]);
        hsa_signal_store_screlease(dep, 0);
        assert_eq!(wait_zero(done), 0);
        assert_eq!(std::slice::from_raw_parts(dst, 4096), &src[..]);
        // ROCr's checks, in its order; size 0 succeeds and signals nothing.
        let bogus = hsa_agent_t { handle: 0x1234 };
        let dead = hsa_signal_t { handle: 0x40 };
        hsa_signal_store_screlease(done, 1);
        for (status, expected) in [
            (
                hsa_amd_memory_async_copy(
                    std::ptr::null_mut(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    1,
                    0,
                    std::ptr::null(),
                    done,
                ),
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.cast(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    1,
                    1,
                    std::ptr::null(),
                    done,
                ),
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.cast(),
                    bogus,
                    src.as_ptr().cast(),
                    cpu,
                    1,
                    0,
                    std::ptr::null(),
                    done,
                ),
                HSA_STATUS_ERROR_INVALID_AGENT,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.cast(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    1,
                    1,
                    &dead,
                    done,
                ),
                HSA_STATUS_ERROR_INVALID_SIGNAL,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.cast(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    1,
                    0,
                    std::ptr::null(),
                    dead,
                ),
                HSA_STATUS_ERROR_INVALID_SIGNAL,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.add(4000).cast(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    200,
                    0,
                    std::ptr::null(),
                    done,
                ),
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
            ),
            (
                hsa_amd_memory_async_copy(
                    dst.cast(),
                    gpu,
                    src.as_ptr().cast(),
                    cpu,
                    0,
                    0,
                    std::ptr::null(),
                    done,
                ),
                HSA_STATUS_SUCCESS,
            ),
        ] {
            assert_eq!(status, expected);
        }
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(hsa_signal_load_scacquire(done), 1, "nothing was copied");
        for s in [dep, done, other_done] {
            ok(hsa_signal_destroy(s));
        }
        free(other);
    }
    free(dst);
}

#[test]
fn kernels_reach_locked_host_memory() {
    setup();
    let (cpu, gpu) = agents();
    let k = load(gpu);
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let mut host = f32_bytes(&a);
    let mut agent_ptr = std::ptr::null_mut();
    // SAFETY: the vector outlives the lock.
    ok(unsafe {
        hsa_amd_memory_lock(
            host.as_mut_ptr().cast(),
            host.len(),
            std::ptr::null_mut(),
            0,
            &mut agent_ptr,
        )
    });
    let out = raw_allocate(pools(gpu)[0], N * 4);
    let kernarg = raw_allocate(pools(cpu)[2], k.kernarg_size as usize);
    // a and b both the locked host buffer: c = a * a + a.
    let host_ptr = agent_ptr as u64;
    run_elementwise(
        gpu,
        kernarg,
        k.kernarg_size,
        k.object,
        [host_ptr, host_ptr, out as u64],
    );
    // SAFETY: `out` holds N floats.
    let c = unsafe { std::slice::from_raw_parts(out.cast::<f32>(), N) };
    assert!((0..N).all(|i| c[i] == a[i] * a[i] + a[i]));
    // SAFETY: plain C call.
    ok(unsafe { hsa_amd_memory_unlock(host.as_mut_ptr().cast()) });
    for p in [out, kernarg] {
        free(p);
    }
    // SAFETY: this test's objects.
    unsafe {
        ok(hsa_executable_destroy(k.executable));
        ok(hsa_code_object_reader_destroy(k.reader));
    }
}

#[test]
fn freeing_takes_an_allocation_base_or_null_as_rocr() {
    setup();
    let (_, gpu) = agents();
    let v = raw_allocate(pools(gpu)[0], 4096);
    let local = 0u8;
    // SAFETY: plain C calls; none of these pointers is dereferenced.
    unsafe {
        // ROCr's hsa_memory_free (hsa.cpp): NULL succeeds, freeing nothing;
        // Runtime::FreeMemory: an address not in its allocation map is
        // INVALID_ALLOCATION.
        ok(hsa_amd_memory_pool_free(std::ptr::null_mut()));
        for ptr in [
            v.wrapping_add(64).cast(),
            (&raw const local).cast_mut().cast(),
        ] {
            assert_eq!(
                hsa_amd_memory_pool_free(ptr),
                HSA_STATUS_ERROR_INVALID_ALLOCATION
            );
        }
    }
    free(v);
    // SAFETY: as above; `v` was freed.
    assert_eq!(
        unsafe { hsa_amd_memory_pool_free(v.cast()) },
        HSA_STATUS_ERROR_INVALID_ALLOCATION,
        "freed twice"
    );
}
