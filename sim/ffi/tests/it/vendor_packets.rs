//! AMD vendor-specific AQL packets on the packet processor, through the C
//! symbols on w7900 (gfx1100). The packets are laid out from `amdgpu-sys`'s
//! `hsa_amd_barrier_value_packet_t` and `amd_aql_pm4_ib_packet_t` (the
//! former checked against `hsa_ext_amd.h` by `sys/tests/headers.rs`, the
//! latter against IREE's `abi/queue.h` by `iree_packets`); the PM4 inside
//! from the public encodings: Linux's `PACKET3(op, n)` and the
//! `WRITE_DATA`, `WAIT_REG_MEM`, `RELEASE_MEM` fields of `nvd.h`, Mesa's
//! `COPY_DATA` selects (`sid.h`), ROCr's `INDIRECT_BUFFER` dwords and
//! `dw_cnt_remain` (`amd_gpu_pm4.h`, `AqlQueue::ExecutePM4`). Expected
//! clock readings come from the test's own `CLOCK_MONOTONIC_RAW` at the
//! node's reported timestamp frequency, the domain the `/dev/kfd`
//! stand-in's GPU counter is specified in.

use std::ffi::c_void;
use std::mem::offset_of;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;
use amdgpu_sys::hsa_values::*;

use crate::aql::{allocate, ok, pools, read_index, signal, wait_zero};
use crate::queues::{agents, create, destroy};
use crate::signals::setup;

unsafe extern "C" {
    fn hsa_signal_destroy(signal: hsa_signal_t) -> hsa_status_t;
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_signal_load_scacquire(signal: hsa_signal_t) -> i64;
    fn hsa_queue_add_write_index_screlease(queue: *const hsa_queue_t, value: u64) -> u64;
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
    fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
    fn hsa_amd_memory_pool_free(ptr: *mut c_void) -> hsa_status_t;
    fn hsa_memory_copy(dst: *mut c_void, src: *const c_void, size: usize) -> hsa_status_t;
    fn clock_gettime(clock: i32, time: *mut [i64; 2]) -> i32;
    fn hsa_system_get_info(attribute: u32, value: *mut c_void) -> hsa_status_t;
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t;
}

/// `HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS` (`hsa_amd_memory_pool_info_t`).
const POOL_INFO_GLOBAL_FLAGS: u32 = 1;
/// `CLOCK_MONOTONIC_RAW` (Linux): the clock the KFD's CPU counter reads.
const CLOCK_MONOTONIC_RAW: i32 = 4;
/// `HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY` (`hsa_system_info_t`).
const SYSTEM_INFO_TIMESTAMP_FREQUENCY: u32 = 3;
/// How long a blocked packet is given to (wrongly) complete.
const SETTLE: Duration = Duration::from_millis(30);

/// The rate the node reports for its timestamps (Hz).
pub(crate) fn timestamp_frequency() -> u64 {
    let mut hz = 0u64;
    // SAFETY: the attribute is a uint64_t.
    ok(unsafe { hsa_system_get_info(SYSTEM_INFO_TIMESTAMP_FREQUENCY, (&raw mut hz).cast()) });
    hz
}

/// The GPU clock counter now, from the test's own clock: the raw
/// monotonic clock at the node's reported timestamp frequency, as the
/// `/dev/kfd` stand-in's `gpu_clock_counter` runs (docs/SIMULATOR.md).
pub(crate) fn gpu_clock_now() -> u64 {
    let mut time = [0i64; 2];
    // SAFETY: `time` has the layout of a 64-bit `struct timespec`.
    assert_eq!(unsafe { clock_gettime(CLOCK_MONOTONIC_RAW, &mut time) }, 0);
    let ns = time[0] as u128 * 1_000_000_000 + time[1] as u128;
    (ns * u128::from(timestamp_frequency()) / 1_000_000_000) as u64
}

/// Linux's `PACKET3(op, n)` for a packet of `dwords` dwords.
pub(crate) fn packet3(opcode: u32, dwords: u32) -> u32 {
    3 << 30 | opcode << 8 | (dwords - 2) << 16
}

/// The AQL header of a vendor packet: barrier bit, system-scope fences.
fn vendor_header() -> u16 {
    PACKET_TYPE_VENDOR_SPECIFIC << PACKET_HEADER_TYPE
        | 1 << PACKET_HEADER_BARRIER
        | 2 << PACKET_HEADER_SCACQUIRE_FENCE_SCOPE
        | 2 << PACKET_HEADER_SCRELEASE_FENCE_SCOPE
}

/// A 64-byte packet being laid out.
struct Bytes([u8; 64]);

impl Bytes {
    fn put(&mut self, offset: usize, bytes: &[u8]) -> &mut Self {
        self.0[offset..offset + bytes.len()].copy_from_slice(bytes);
        self
    }

    fn dwords(&self) -> [u32; 16] {
        std::array::from_fn(|i| u32::from_le_bytes(self.0[4 * i..4 * i + 4].try_into().unwrap()))
    }
}

/// An `hsa_amd_barrier_value_packet_t`.
fn barrier_value(
    signal: u64,
    cond: u32,
    value: i64,
    mask: i64,
    completion: hsa_signal_t,
) -> [u32; 16] {
    type B = hsa_amd_barrier_value_packet_t;
    type H = hsa_amd_vendor_packet_header_t;
    let mut p = Bytes([0; 64]);
    p.put(offset_of!(H, header), &vendor_header().to_le_bytes())
        .put(offset_of!(H, amd_format), &[AMD_PACKET_TYPE_BARRIER_VALUE])
        .put(offset_of!(B, signal), &signal.to_le_bytes())
        .put(offset_of!(B, value), &value.to_le_bytes())
        .put(offset_of!(B, mask), &mask.to_le_bytes())
        .put(offset_of!(B, cond), &cond.to_le_bytes())
        .put(
            offset_of!(B, completion_signal),
            &completion.handle.to_le_bytes(),
        );
    p.dwords()
}

/// An `amd_aql_pm4_ib_packet_t` running `dwords` dwords at `ib`, as ROCr
/// builds it: `INDIRECT_BUFFER` with `IB_BASE_LO` 31:2, `IB_BASE_HI` 15:0,
/// `IB_SIZE | IB_VALID (1 << 23)`, then `dw_cnt_remain` 10.
pub(crate) fn pm4_ib(ib: u64, dwords: u32, completion: hsa_signal_t) -> [u32; 16] {
    type P = amd_aql_pm4_ib_packet_t;
    type H = hsa_amd_vendor_packet_header_t;
    let jump = [
        packet3(0x3F, 4),
        ib as u32 & !3,
        (ib >> 32) as u32 & 0xFFFF,
        dwords | 1 << 23,
    ];
    let mut p = Bytes([0; 64]);
    p.put(offset_of!(H, header), &vendor_header().to_le_bytes())
        .put(offset_of!(H, amd_format), &[AMD_AQL_FORMAT_PM4_IB])
        .put(offset_of!(P, dw_cnt_remain), &0xAu32.to_le_bytes())
        .put(
            offset_of!(P, completion_signal),
            &completion.handle.to_le_bytes(),
        );
    for (i, word) in jump.iter().enumerate() {
        p.put(offset_of!(P, ib_jump_cmd) + 4 * i, &word.to_le_bytes());
    }
    p.dwords()
}

/// Publishes `packet` as IREE's `aql_ring` does: reserve a slot, write the
/// body, then dword 0 (header and setup) with release, then the doorbell.
pub(crate) fn submit(queue: *mut hsa_queue_t, packet: [u32; 16]) -> u64 {
    // SAFETY: the live queue's hsa_queue_t; its ring holds `size` 64-byte
    // slots at `base_address`; the doorbell signal is an amd_signal_t whose
    // hardware_doorbell_ptr (offset 8) is the doorbell word.
    unsafe {
        let q = *queue;
        let id = hsa_queue_add_write_index_screlease(queue, 1);
        let slot = (q.base_address as *mut u32).add(16 * (id & u64::from(q.size - 1)) as usize);
        std::ptr::copy_nonoverlapping(packet[1..].as_ptr(), slot.add(1), 15);
        (*slot.cast::<AtomicU32>()).store(packet[0], Ordering::Release);
        let doorbell = *(q.doorbell_signal.handle as *const u64).add(1);
        (*(doorbell as *const AtomicI64)).store(id as i64, Ordering::Release);
        id
    }
}

/// A pool of `agent` whose global flags include `flag`.
pub(crate) fn pool_with(agent: hsa_agent_t, flag: u32) -> hsa_amd_memory_pool_t {
    *pools(agent)
        .iter()
        .find(|&&p| {
            let mut flags = 0u32;
            // SAFETY: GLOBAL_FLAGS is a uint32_t.
            let status = unsafe {
                hsa_amd_memory_pool_get_info(p, POOL_INFO_GLOBAL_FLAGS, (&raw mut flags).cast())
            };
            status == HSA_STATUS_SUCCESS && flags & flag != 0
        })
        .expect("a pool with the flag")
}

/// Writes `bytes` at `address` (pool memory) through the library.
pub(crate) fn poke(address: u64, bytes: &[u8]) {
    // SAFETY: `bytes` is the source; the destination is live pool memory.
    ok(unsafe { hsa_memory_copy(address as *mut c_void, bytes.as_ptr().cast(), bytes.len()) });
}

/// The dwords at `address` (pool memory).
pub(crate) fn peek(address: u64, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    // SAFETY: `out` holds `bytes` bytes.
    ok(unsafe { hsa_memory_copy(out.as_mut_ptr().cast(), address as *const c_void, bytes) });
    out
}

pub(crate) fn peek_u64(address: u64) -> u64 {
    u64::from_le_bytes(peek(address, 8).try_into().unwrap())
}

pub(crate) fn dword_bytes(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

pub(crate) fn load(s: hsa_signal_t) -> i64 {
    // SAFETY: plain C call on a live signal.
    unsafe { hsa_signal_load_scacquire(s) }
}

pub(crate) fn release(signals: &[hsa_signal_t], memory: &[*mut c_void]) {
    // SAFETY: this test's own live objects, released once.
    unsafe {
        for &s in signals {
            ok(hsa_signal_destroy(s));
        }
        for &m in memory {
            ok(hsa_amd_memory_pool_free(m));
        }
    }
}

extern "C" fn record_error(status: hsa_status_t, _: *mut hsa_queue_t, data: *mut c_void) {
    // SAFETY: `data` is the leaked AtomicU32 of `watched_queue`.
    unsafe { (*data.cast::<AtomicU32>()).store(status, Ordering::SeqCst) };
}

/// A queue whose error callback records its status in the returned cell.
pub(crate) fn watched_queue(gpu: hsa_agent_t) -> (*mut hsa_queue_t, &'static AtomicU32) {
    let cell: &'static AtomicU32 = Box::leak(Box::new(AtomicU32::new(0)));
    let mut queue = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; the callback writes only the cell.
    ok(unsafe {
        hsa_queue_create(
            gpu,
            64,
            0,
            Some(record_error),
            std::ptr::from_ref(cell) as *mut c_void,
            u32::MAX,
            u32::MAX,
            &mut queue,
        )
    });
    (queue, cell)
}

/// The status a watched queue stopped with (0 if it has not within 10 s).
pub(crate) fn stopped_with(cell: &AtomicU32) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(10);
    while cell.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    cell.load(Ordering::SeqCst)
}

#[test]
fn barrier_value_waits_for_each_condition() {
    setup();
    let (_, gpu) = agents();
    let queue = create(gpu, 64);
    let (dep, done) = (signal(5), signal(1));
    // (cond, value, mask, a blocking value, the value that completes it):
    // hsa_signal_condition_t EQ, NE, LT, GTE on (signal & mask), signed.
    let cases: [(u32, i64, i64, i64, i64); 5] = [
        (0, 3, -1, 5, 3),
        (1, 3, -1, 3, 4),
        (2, 0, -1, 0, -1),
        (3, 10, -1, 9, 10),
        // The mask applies to the signal's value, not to `value`.
        (0, 0x05, 0xFF, 0x104, 0x7_0000_0105),
    ];
    for (i, &(cond, value, mask, blocking, completing)) in cases.iter().enumerate() {
        // SAFETY (below): plain C calls on live signals.
        unsafe { hsa_signal_store_screlease(dep, blocking) };
        unsafe { hsa_signal_store_screlease(done, 1) };
        submit(queue, barrier_value(dep.handle, cond, value, mask, done));
        std::thread::sleep(SETTLE);
        assert_eq!(load(done), 1, "case {i} completed at {blocking:#x}");
        assert_eq!(read_index(queue), i as u64);
        unsafe { hsa_signal_store_screlease(dep, completing) };
        assert_eq!(wait_zero(done), 0, "case {i} at {completing:#x}");
        assert_eq!(read_index(queue), i as u64 + 1);
    }
    // The zero signal is a satisfied dependency.
    unsafe { hsa_signal_store_screlease(done, 1) };
    submit(queue, barrier_value(0, 0, 1, -1, done));
    assert_eq!(wait_zero(done), 0);
    // A barrier-value packet waiting when the queue is destroyed.
    submit(queue, barrier_value(dep.handle, 0, 99, -1, done));
    destroy(queue);
    release(&[dep, done], &[]);
}

/// The PM4 encodings the next test runs (field values: module docs).
mod pm4 {
    use super::packet3;

    /// `WRITE_DATA` through L2 with write confirmation.
    pub fn write_data(address: u64, data: &[u32]) -> Vec<u32> {
        let mut p = vec![
            packet3(0x37, 4 + data.len() as u32),
            2 << 8 | 1 << 20,
            address as u32,
            (address >> 32) as u32,
        ];
        p.extend_from_slice(data);
        p
    }

    /// `COPY_DATA`: `SRC_SEL` and `DST_SEL` (L2 2, memory 5, immediate 5 as
    /// a source, the GPU clock 9), `COUNT_SEL` for 64 bits.
    pub fn copy_data(src_sel: u32, source: u64, destination: u64, wide: bool) -> Vec<u32> {
        vec![
            packet3(0x40, 6),
            src_sel | 2 << 8 | u32::from(wide) << 16,
            source as u32,
            (source >> 32) as u32,
            destination as u32,
            (destination >> 32) as u32,
        ]
    }

    /// `WAIT_REG_MEM` (`wide`: `WAIT_REG_MEM64`) on memory with `function`.
    pub fn wait(function: u32, address: u64, reference: u64, mask: u64, wide: bool) -> Vec<u32> {
        let mut p = vec![
            packet3(if wide { 0x93 } else { 0x3C }, if wide { 9 } else { 7 }),
            function | 1 << 4,
            address as u32,
            (address >> 32) as u32,
            reference as u32,
        ];
        if wide {
            p.extend([(reference >> 32) as u32, mask as u32, (mask >> 32) as u32]);
        } else {
            p.push(mask as u32);
        }
        p.push(10);
        p
    }

    /// `RELEASE_MEM` of a bottom-of-pipe event (`EVENT_INDEX` 5) writing
    /// `DATA_SEL` `data_sel` (2 the packet's 64 bits, 3 the GPU counter).
    pub fn release_mem(data_sel: u32, address: u64, data: u64) -> Vec<u32> {
        vec![
            packet3(0x49, 8),
            0x2F | 5 << 8,
            1 << 16 | data_sel << 29,
            address as u32,
            (address >> 32) as u32,
            data as u32,
            (data >> 32) as u32,
            0,
        ]
    }
}

#[test]
fn pm4_ib_writes_copies_waits_and_reads_the_clock() {
    setup();
    let (cpu, gpu) = agents();
    let fine = pool_with(cpu, GLOBAL_FLAG_FINE_GRAINED);
    let vram = pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED);
    let ib_memory = allocate(fine, &[0u8; 4096]);
    let data_memory = allocate(vram, &[0u8; 256]);
    let (ib, data) = (ib_memory as u64, data_memory as u64);
    let (gate, done) = (signal(0), signal(1));
    let gate_value = gate.handle + offset_of!(amd_signal_t, value) as u64;
    let mut stream = Vec::new();
    stream.extend(pm4::wait(3, gate_value, 7, u64::MAX, true));
    stream.extend(pm4::write_data(data, &[0x1111_1111, 0x2222_2222]));
    stream.extend(pm4::copy_data(2, data, data + 16, true));
    stream.extend(pm4::copy_data(9, 0, data + 24, true));
    stream.extend(pm4::copy_data(5, 0xabcd_ef01, data + 32, false));
    stream.extend(pm4::wait(5, data + 40, 3, 0xFF, false));
    stream.extend(pm4::release_mem(3, data + 48, 0));
    stream.extend(pm4::release_mem(2, data + 56, 0x0102_0304_0506_0708));
    stream.extend([packet3(0x10, 3), 0xdead, 0xbeef]); // NOP
    poke(ib, &dword_bytes(&stream));
    let queue = create(gpu, 64);
    let before = gpu_clock_now();
    submit(queue, pm4_ib(ib, stream.len() as u32, done));
    std::thread::sleep(SETTLE);
    // The first wait holds everything after it.
    assert_eq!(load(done), 1);
    assert_eq!(peek_u64(data), 0);
    // SAFETY: plain C call on a live signal.
    unsafe { hsa_signal_store_screlease(gate, 6) };
    std::thread::sleep(SETTLE);
    assert_eq!(peek_u64(data), 0, "6 is not 7");
    unsafe { hsa_signal_store_screlease(gate, 7) };
    std::thread::sleep(SETTLE);
    // Up to the 32-bit wait on data + 40 (>= 3 under 0xFF).
    assert_eq!(peek_u64(data), 0x2222_2222_1111_1111);
    assert_eq!(peek_u64(data + 16), 0x2222_2222_1111_1111);
    assert_eq!(peek(data + 32, 4), 0xabcd_ef01u32.to_le_bytes());
    assert_eq!(load(done), 1);
    poke(data + 40, &0x102u32.to_le_bytes());
    std::thread::sleep(SETTLE);
    assert_eq!(load(done), 1, "0x102 & 0xFF is 2");
    poke(data + 40, &3u32.to_le_bytes());
    assert_eq!(wait_zero(done), 0);
    let after = gpu_clock_now();
    let (copied, released) = (peek_u64(data + 24), peek_u64(data + 48));
    assert!(
        before <= copied && copied <= released && released <= after,
        "GPU clock readings {copied} and {released} outside {before}..={after}"
    );
    // The copied clock was read before the two 30 ms waits that followed.
    assert!(
        released - copied >= timestamp_frequency() / 20,
        "{copied} then {released}"
    );
    assert_eq!(peek_u64(data + 56), 0x0102_0304_0506_0708);
    assert_eq!(read_index(queue), 1);
    destroy(queue);
    release(&[gate, done], &[ib_memory, data_memory]);
}

#[test]
fn a_completion_signal_in_memory_is_decremented_there() {
    // IREE's profiling completion signals are amd_signal_t records in its
    // own memory (host_queue_profile_events.c), value -1.
    setup();
    let (_, gpu) = agents();
    let vram = pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED);
    let memory = allocate(vram, &[0u8; 256]);
    let (ib, record) = (memory as u64, memory as u64 + 64);
    let mut amd_signal = [0u8; 64];
    amd_signal[offset_of!(amd_signal_t, kind)..][..8].copy_from_slice(&1i64.to_le_bytes());
    amd_signal[offset_of!(amd_signal_t, value)..][..8].copy_from_slice(&(-1i64).to_le_bytes());
    poke(record, &amd_signal);
    poke(ib, &dword_bytes(&[packet3(0x10, 2), 0]));
    let queue = create(gpu, 64);
    let done = signal(1);
    submit(queue, pm4_ib(ib, 2, hsa_signal_t { handle: record }));
    submit(queue, barrier_value(0, 0, 0, 0, done));
    assert_eq!(wait_zero(done), 0);
    let value = peek_u64(record + offset_of!(amd_signal_t, value) as u64) as i64;
    assert_eq!(value, -2);
    destroy(queue);
    release(&[done], &[memory]);
}

#[test]
fn malformed_vendor_packets_stop_the_queue() {
    setup();
    let (_, gpu) = agents();
    let vram = pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED);
    let memory = allocate(vram, &[0u8; 256]);
    let ib = memory as u64;
    let done = signal(1);
    let invalid = HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
    let aperture = HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
    let nop = [packet3(0x10, 2), 0];
    let mut cases: Vec<(&str, [u32; 16], Vec<u32>, u32)> = Vec::new();
    // HSA_AMD_PACKET_TYPE_AIE_ERT (3): no GPU's packet.
    let mut aie = barrier_value(0, 0, 0, 0, done);
    aie[0] = aie[0] & 0xFFFF | 3 << 16;
    cases.push(("AIE ERT format", aie, vec![], invalid));
    let mut reserved_byte = barrier_value(0, 0, 0, 0, done);
    reserved_byte[0] |= 1 << 24;
    cases.push(("vendor reserved byte", reserved_byte, vec![], invalid));
    cases.push((
        "condition 4",
        barrier_value(0, 4, 0, 0, done),
        vec![],
        invalid,
    ));
    let mut reserved1 = barrier_value(0, 0, 0, 0, done);
    reserved1[offset_of!(hsa_amd_barrier_value_packet_t, reserved1) / 4] = 1;
    cases.push(("barrier-value reserved1", reserved1, vec![], invalid));
    let mut not_ib = pm4_ib(ib, 2, done);
    not_ib[offset_of!(amd_aql_pm4_ib_packet_t, ib_jump_cmd) / 4] = packet3(0x10, 4);
    cases.push((
        "a jump that is no INDIRECT_BUFFER",
        not_ib,
        nop.to_vec(),
        invalid,
    ));
    let mut remain = pm4_ib(ib, 2, done);
    remain[offset_of!(amd_aql_pm4_ib_packet_t, dw_cnt_remain) / 4] = 0;
    cases.push(("dw_cnt_remain 0", remain, nop.to_vec(), invalid));
    cases.push((
        "a packet past the IB's end",
        pm4_ib(ib, 4, done),
        pm4::write_data(ib + 128, &[1, 2]),
        invalid,
    ));
    cases.push((
        "DISPATCH_DIRECT before any compute register is written",
        pm4_ib(ib, 5, done),
        vec![packet3(0x15, 5), 1, 1, 1, 1],
        invalid,
    ));
    cases.push((
        "an IB in no memory",
        pm4_ib(0x10_0000, 2, done),
        nop.to_vec(),
        aperture,
    ));
    cases.push((
        "WRITE_DATA to no memory",
        pm4_ib(ib, 5, done),
        pm4::write_data(0x20_0000, &[1]),
        aperture,
    ));
    for (what, packet, stream, status) in cases {
        poke(ib, &dword_bytes(&stream));
        let (queue, cell) = watched_queue(gpu);
        submit(queue, packet);
        assert_eq!(stopped_with(cell), status, "{what}");
        assert_eq!(load(done), 1, "{what}: not completed");
        assert_eq!(read_index(queue), 0, "{what}: left unprocessed");
        destroy(queue);
    }
    release(&[done], &[memory]);
}

#[test]
fn waits_end_when_the_queue_is_destroyed() {
    setup();
    let (_, gpu) = agents();
    let vram = pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED);
    let memory = allocate(vram, &[0u8; 64]);
    let ib = memory as u64;
    // A wait for a word nothing writes.
    poke(ib, &dword_bytes(&pm4::wait(3, ib + 40, 1, u64::MAX, true)));
    let done = signal(1);
    let queue = create(gpu, 64);
    submit(queue, pm4_ib(ib, 9, done));
    std::thread::sleep(SETTLE);
    let start = Instant::now();
    destroy(queue);
    assert!(start.elapsed() < Duration::from_secs(1));
    assert_eq!(load(done), 1);
    release(&[done], &[memory]);
}

const KFD_CHILD_ENV: &str = "AMDGPU_SIM_VENDOR_PACKETS_KFD_CHILD";
/// `HSA_AMD_AGENT_INFO_DRIVER_UID`: the KFD's `gpu_id` of a GPU.
const AGENT_INFO_DRIVER_UID: u32 = 0xA112;

/// Under the `/dev/kfd` stand-in: a PM4 timestamp falls between two
/// `AMDKFD_IOC_GET_CLOCK_COUNTERS` readings of the GPU's counter, the
/// correlation IREE's profiling relies on.
#[test]
#[ignore = "a child of pm4_timestamps_are_the_kfd_s_gpu_clock"]
fn child_under_the_kfd() {
    if std::env::var_os(KFD_CHILD_ENV).is_none() {
        return;
    }
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
    let (_, gpu) = agents();
    let mut gpu_id = 0u32;
    // SAFETY: the attribute is a uint32_t.
    ok(unsafe { hsa_agent_get_info(gpu, AGENT_INFO_DRIVER_UID, (&raw mut gpu_id).cast()) });
    let memory = allocate(pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED), &[0u8; 64]);
    let (ib, stamp) = (memory as u64, memory as u64 + 32);
    poke(ib, &dword_bytes(&pm4::copy_data(9, 0, stamp, true)));
    let kfd = crate::kfd::open_kfd(libc::O_RDWR | libc::O_CLOEXEC);
    let done = signal(1);
    let queue = create(gpu, 64);
    let before = crate::kfd::clock_counters(kfd, gpu_id).gpu_clock_counter;
    submit(queue, pm4_ib(ib, 6, done));
    assert_eq!(wait_zero(done), 0);
    let after = crate::kfd::clock_counters(kfd, gpu_id).gpu_clock_counter;
    let t = peek_u64(stamp);
    assert!(
        before <= t && t <= after,
        "PM4 GPU clock {t} outside the KFD's {before}..={after}"
    );
    crate::kfd::close(kfd);
    destroy(queue);
    release(&[done], &[memory]);
    // SAFETY: plain C call.
    assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
}

#[test]
fn pm4_timestamps_are_the_kfd_s_gpu_clock() {
    let output = crate::child::command("vendor_packets::child_under_the_kfd")
        .env(KFD_CHILD_ENV, "1")
        .env("LD_PRELOAD", crate::kfd::preload())
        .env("AMDGPU_SIM_MACHINE", "mi300x-8")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "mi300x-8 under the /dev/kfd stand-in");
}
