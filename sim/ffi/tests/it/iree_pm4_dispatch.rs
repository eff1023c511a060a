//! Kernel dispatches of IREE's PM4 command buffers on the packet processor:
//! the compute registers and `DISPATCH_DIRECT` that IREE's
//! `util/pm4_dispatch.c` writes (compiled into `iree_packets.c`, the
//! oracle of `iree_packets`), for the targets where IREE records PM4
//! command buffers (gfx942, gfx1100; on gfx90a it records none). Run from
//! `iree_packets`' scenario on each target.
//!
//! - IREE's `elementwise` kernel computes its results, and a second
//!   indirect buffer with only `DISPATCH_DIRECT` launches again from the
//!   registers the first set; a fresh queue, whose registers nothing has
//!   written, stops instead.
//! - A kernel with static LDS (`fixtures/isa/lds_reverse.cl`): IREE keeps
//!   the descriptor's `COMPUTE_PGM_RSRC2`, whose `LDS_SIZE` the compiler
//!   leaves 0 for the packet processor to fill, so the dispatch has no LDS
//!   and reads zeros back from its tile, as the hardware runs it
//!   (docs/IREE-DEFECTS.md, defect 9); with `LDS_SIZE` set as the packet
//!   processor sets it for an AQL dispatch, the same indirect buffer
//!   computes the reversal the AQL dispatch computes.

use std::ffi::c_void;
use std::path::Path;

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;
use amdgpu_sys::hsa_values::*;

use crate::aql::{
    Kernel, N, TYPE_KERNEL_DISPATCH, allocate, f32_bytes, load_fixture, load_kernel, put, signal,
    wait_zero,
};
use crate::iree_packets::{Emitted, emit, hex, place_and_submit};
use crate::queues::{create, destroy};
use crate::vendor_packets::{peek, poke, pool_with, release, stopped_with, watched_queue};

unsafe extern "C" {
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_executable_destroy(executable: hsa_executable_t) -> hsa_status_t;
    fn hsa_code_object_reader_destroy(reader: hsa_code_object_reader_t) -> hsa_status_t;
}

/// Both scenarios on the node of `gfx` (IREE's `major.minor.stepping`),
/// with an indirect buffer at `ib_memory` and device memory
/// `data_memory`, both freed here.
pub(crate) fn scenarios(
    gfx: &str,
    gpu: hsa_agent_t,
    ib_memory: *mut c_void,
    data_memory: *mut c_void,
) {
    let chip = match gfx {
        "11.0.0" => "gfx1100",
        "9.4.2" => "gfx942",
        _ => "gfx90a",
    };
    let ib = ib_memory as u64;
    elementwise(gfx, chip, gpu, ib);
    static_lds(gfx, chip, gpu, ib);
    release(&[], &[ib_memory, data_memory]);
}

/// Lowercase hex of `bytes`, as the oracle reads them.
fn hex_bytes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the oracle emits for a PM4 command buffer's dispatch of `k` in
/// groups of `block` (x), with `args` as its kernarg bytes at `kernargs`:
/// `dispatch` (setup, user data, `DISPATCH_DIRECT`) or `dispatch_alone`.
struct Pm4Dispatch<'a> {
    gfx: &'a str,
    k: &'a Kernel,
    block: u32,
    groups: u32,
    args: &'a [u8],
    kernargs: u64,
    ib: u64,
    done: hsa_signal_t,
}

impl Pm4Dispatch<'_> {
    fn emit(&self, command: &str) -> Option<Emitted> {
        emit(
            self.gfx,
            &[
                command,
                &hex_bytes(&peek(self.k.object, 64)),
                &hex_bytes(self.args),
                &hex(self.k.object),
                &self.block.to_string(),
                "1",
                "1",
                &self.groups.to_string(),
                "1",
                "1",
                &hex(self.kernargs),
                &hex(self.ib),
                &hex(self.done.handle),
            ],
        )
    }
}

/// Runs `packet` (its IB placed at `ib`) on `queue` to completion.
fn run(queue: *mut hsa_queue_t, ib: u64, done: hsa_signal_t, packet: &Emitted, what: &str) {
    // SAFETY: plain C call on a live signal.
    unsafe { hsa_signal_store_screlease(done, 1) };
    place_and_submit(queue, ib, packet);
    assert_eq!(wait_zero(done), 0, "{what}");
}

/// Device memory of `gpu` holding `bytes`.
fn device(gpu: hsa_agent_t, bytes: &[u8]) -> *mut c_void {
    allocate(pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED), bytes)
}

fn pointers(buffers: &[*mut c_void]) -> Vec<u8> {
    buffers
        .iter()
        .flat_map(|p| (*p as u64).to_le_bytes())
        .collect()
}

/// IREE's `elementwise` kernel (c = a * b + a over 4096 floats, 4 per
/// work-item) through IREE's PM4 dispatch.
fn elementwise(gfx: &str, chip: &str, gpu: hsa_agent_t, ib: u64) {
    let block = if chip == "gfx1100" { 32 } else { 64 };
    let k = load_fixture(gpu, &format!("elementwise.{chip}.hsaco"));
    let a: Vec<f32> = (0..N).map(|i| (i % 251) as f32 - 100.0).collect();
    let b: Vec<f32> = (0..N).map(|i| (i % 7) as f32 + 0.5).collect();
    let buffers = [
        device(gpu, &f32_bytes(&a)),
        device(gpu, &f32_bytes(&b)),
        device(gpu, &vec![0u8; N * 4]),
    ];
    let args = pointers(&buffers);
    let kernargs = device(gpu, &args);
    let done = signal(1);
    let dispatch = Pm4Dispatch {
        gfx,
        k: &k,
        block,
        groups: N as u32 / 4 / block,
        args: &args,
        kernargs: kernargs as u64,
        ib,
        done,
    };
    let Some(full) = dispatch.emit("dispatch") else {
        assert_eq!(chip, "gfx90a", "IREE records PM4 dispatches on {chip}");
        finish(k, done, &[&buffers[..], &[kernargs]].concat());
        return;
    };
    assert_ne!(chip, "gfx90a", "IREE records no PM4 dispatch on gfx90a");
    let alone = dispatch
        .emit("dispatch_alone")
        .expect("as the full dispatch");
    let queue = create(gpu, 64);
    for (what, packet) in [("setup and dispatch", &full), ("dispatch alone", &alone)] {
        run(queue, ib, done, packet, &format!("{gfx}: {what}"));
        let c = peek(buffers[2] as u64, N * 4);
        for i in 0..N {
            let got = f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(got, a[i] * b[i] + a[i], "{gfx} {what}: element {i}");
        }
        poke(buffers[2] as u64, &vec![0u8; N * 4]);
    }
    destroy(queue);
    let (queue, cell) = watched_queue(gpu);
    place_and_submit(queue, ib, &alone);
    assert_eq!(
        stopped_with(cell),
        HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
        "{gfx}: DISPATCH_DIRECT on a queue whose registers nothing wrote"
    );
    destroy(queue);
    finish(k, done, &[&buffers[..], &[kernargs]].concat());
}

/// `fixtures/isa/lds_reverse.cl`: 4 work-groups of 64 reverse their
/// values through a 256-byte LDS tile.
fn static_lds(gfx: &str, chip: &str, gpu: hsa_agent_t, ib: u64) {
    const GROUPS: usize = 4;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../fixtures/isa/lds_reverse.{chip}.hsaco"));
    let k = load_kernel(gpu, &path, b"lds_reverse.kd\0");
    let values: Vec<u32> = (0..64 * GROUPS as u32).map(|i| 3 * i + 1).collect();
    let input: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let reversed: Vec<u32> = values
        .chunks(64)
        .flat_map(|group| group.iter().rev().copied())
        .collect();
    let buffers = [device(gpu, &input), device(gpu, &vec![0u8; input.len()])];
    let args = pointers(&buffers);
    let kernargs = device(gpu, &args);
    let done = signal(1);
    let output = || -> Vec<u32> {
        let bytes = peek(buffers[1] as u64, input.len());
        poke(buffers[1] as u64, &vec![0u8; input.len()]);
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let queue = create(gpu, 64);

    // The AQL dispatch: the packet processor gives the work-group the
    // packet's group segment.
    let mut body = [0u8; 60];
    put(&mut body, 4, &64u16.to_le_bytes());
    put(&mut body, 6, &1u16.to_le_bytes());
    put(&mut body, 8, &1u16.to_le_bytes());
    put(&mut body, 12, &(64 * GROUPS as u32).to_le_bytes());
    put(&mut body, 16, &1u32.to_le_bytes());
    put(&mut body, 20, &1u32.to_le_bytes());
    put(&mut body, 28, &256u32.to_le_bytes());
    put(&mut body, 32, &k.object.to_le_bytes());
    put(&mut body, 40, &(kernargs as u64).to_le_bytes());
    put(&mut body, 56, &done.handle.to_le_bytes());
    // SAFETY: plain C call on a live signal.
    unsafe { hsa_signal_store_screlease(done, 1) };
    crate::aql::submit(queue, TYPE_KERNEL_DISPATCH, 1, &body);
    assert_eq!(wait_zero(done), 0, "{gfx}: the AQL dispatch");
    assert_eq!(output(), reversed, "{gfx}: the AQL dispatch reverses");

    let dispatch = Pm4Dispatch {
        gfx,
        k: &k,
        block: 64,
        groups: GROUPS as u32,
        args: &args,
        kernargs: kernargs as u64,
        ib,
        done,
    };
    if let Some(mut iree) = dispatch.emit("dispatch") {
        // The setup's second packet: SET_SH_REG COMPUTE_PGM_RSRC1 (0x2E12,
        // offset 0x212) with RSRC1 and RSRC2 (pm4_dispatch.c).
        assert_eq!(iree.ib[9], 0x212, "{gfx}: the RSRC1/RSRC2 write");
        let rsrc2 = iree.ib[11];
        assert_eq!(
            (rsrc2 >> 15) & 0x1FF,
            0,
            "{gfx}: IREE's COMPUTE_PGM_RSRC2 {rsrc2:#x} allocates LDS (defect 9 fixed?)"
        );
        run(
            queue,
            ib,
            done,
            &iree,
            &format!("{gfx}: IREE's PM4 dispatch"),
        );
        assert_eq!(
            output(),
            vec![0; values.len()],
            "{gfx}: without LDS the tile reads back zeros"
        );
        // LDS_SIZE as the packet processor sets it from the AQL packet's
        // group segment: 256 bytes in one 512-byte granule.
        iree.ib[11] = rsrc2 | 1 << 15;
        run(queue, ib, done, &iree, &format!("{gfx}: with LDS_SIZE"));
        assert_eq!(output(), reversed, "{gfx}: with LDS_SIZE 1");
    } else {
        assert_eq!(chip, "gfx90a", "IREE records PM4 dispatches on {chip}");
    }
    destroy(queue);
    finish(k, done, &[&buffers[..], &[kernargs]].concat());
}

/// Frees a scenario's kernel, signal and memory.
fn finish(k: Kernel, done: hsa_signal_t, memory: &[*mut c_void]) {
    release(&[done], memory);
    // SAFETY: the scenario's own objects, released once.
    unsafe {
        assert_eq!(hsa_executable_destroy(k.executable), HSA_STATUS_SUCCESS);
        assert_eq!(hsa_code_object_reader_destroy(k.reader), HSA_STATUS_SUCCESS);
    }
}
