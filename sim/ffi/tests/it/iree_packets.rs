//! IREE's AMDGPU driver's own vendor packets on the packet processor, for
//! each simulated target: `iree_packets.c`, compiled against IREE's source,
//! writes the AQL packets and PM4 indirect buffers with IREE's emitters
//! (`util/aql_emitter.h`, `util/pm4_emitter.h`, `util/pm4_barrier.h`) as
//! IREE's queue code chooses them for the gfx IP (its
//! `physical_device_capabilities.c`, compiled in): the epoch wait of
//! `host_queue_waits.c` (BARRIER_VALUE on gfx90a and gfx942, PM4
//! `WAIT_REG_MEM64` on gfx1100), the profiling timestamp range, the PM4
//! fill and copy of `host_queue_blit.c`, the PM4 command-buffer barrier,
//! a counter readback, which the node refuses, and a PM4 command buffer's
//! kernel dispatch (`util/pm4_dispatch.c`, compiled in: compute registers
//! and `DISPATCH_DIRECT`) of IREE's `elementwise` kernel, whose results
//! are checked. gfx1100 runs in this process (w7900); gfx942 (mi300x-8)
//! and gfx90a (mi250x-4) in child processes.
//!
//! IREE's source comes from `IREE_SOURCE_DIR` or the shared archive
//! `../shared/iree/iree-b48a5955-src.tar.gz`; without it, or without a C
//! compiler, the tests say what they skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;
use amdgpu_sys::hsa_values::*;

use crate::aql::{allocate, read_index, signal, wait_zero};
use crate::queues::{agents, create, destroy};
use crate::rocminfo::skip;
use crate::signals::setup;
use crate::vendor_packets::{
    dword_bytes, gpu_clock_now, load, peek, peek_u64, poke, pool_with, release, stopped_with,
    submit, watched_queue,
};

unsafe extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_signal_subtract_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
}

/// The built oracle's path, handed to child processes.
const ORACLE_ENV: &str = "AMDGPU_SIM_IREE_PACKETS";
/// Set in a child process: the gfx IP it runs (`9.4.2`).
const CHILD_GFX_ENV: &str = "AMDGPU_SIM_IREE_PACKETS_GFX";
/// `util/notification_ring.h`'s `IREE_HAL_AMDGPU_EPOCH_INITIAL_VALUE`.
const EPOCH_INITIAL_VALUE: i64 = i64::MAX / 2;
const SETTLE: Duration = Duration::from_millis(30);
const WHAT: &str = "IREE's AMDGPU packet emitters on the packet processor";

/// IREE's source tree: `IREE_SOURCE_DIR`, or the headers and sources the
/// oracle needs unpacked from the shared archive.
pub(crate) fn iree_source() -> Result<PathBuf, String> {
    const EMITTER: &str = "runtime/src/iree/hal/drivers/amdgpu/util/pm4_emitter.h";
    if let Some(dir) = std::env::var_os("IREE_SOURCE_DIR") {
        let dir = PathBuf::from(dir);
        return if dir.join(EMITTER).is_file() {
            Ok(dir)
        } else {
            Err(format!("IREE_SOURCE_DIR has no {EMITTER}"))
        };
    }
    let archive =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/iree/iree-b48a5955-src.tar.gz");
    if !archive.is_file() {
        return Err(
            "needs IREE's source: IREE_SOURCE_DIR, or ../shared/iree/iree-b48a5955-src.tar.gz"
                .into(),
        );
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("iree-packets-source");
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&out)
        .arg("--wildcards")
        .args(["base", "async", "hal", "io"].map(|d| format!("*/runtime/src/iree/{d}/*")))
        .arg("*/third_party/hsa-runtime-headers/include/*")
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not unpack {}", archive.display()));
    }
    std::fs::read_dir(&out)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|top| top.join(EMITTER).is_file())
        .ok_or_else(|| "the archive holds no AMDGPU driver".into())
}

/// The oracle program, built once (or a parent's, in a child process).
fn oracle() -> Result<&'static Path, String> {
    static ORACLE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    ORACLE
        .get_or_init(|| {
            if let Some(path) = std::env::var_os(ORACLE_ENV) {
                return Ok(PathBuf::from(path));
            }
            let source = iree_source()?;
            let program = Path::new(env!("CARGO_TARGET_TMPDIR")).join("iree_packets");
            let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
            let output = Command::new(&compiler)
                .args(["-std=gnu11", "-D_GNU_SOURCE", "-w", "-I"])
                .arg(source.join("runtime/src"))
                .arg("-I")
                .arg(&source)
                .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/iree_packets.c"))
                .arg(
                    source
                        .join("runtime/src/iree/hal/drivers/amdgpu/physical_device_capabilities.c"),
                )
                .arg(source.join("runtime/src/iree/hal/drivers/amdgpu/util/pm4_dispatch.c"))
                .arg("-o")
                .arg(&program)
                .output()
                .map_err(|e| {
                    format!("cannot run {compiler} ({e}); needs a C compiler (CC or cc)")
                })?;
            if !output.status.success() {
                return Err(format!(
                    "IREE's emitters do not compile:\n{}",
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            Ok(program)
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// What IREE wrote: the AQL packet and its indirect buffer.
pub(crate) struct Emitted {
    pub(crate) packet: [u32; 16],
    pub(crate) ib: Vec<u32>,
}

/// Runs the oracle; `None` when IREE would not emit this for `gfx`.
pub(crate) fn emit(gfx: &str, args: &[&str]) -> Option<Emitted> {
    let text = run_oracle(gfx, args);
    if text.trim() == "unsupported" {
        return None;
    }
    let words = |tag: &str| -> Vec<u32> {
        text.lines()
            .find_map(|l| l.strip_prefix(tag))
            .map(|rest| {
                rest.split_whitespace()
                    .map(|w| u32::from_str_radix(w, 16).expect("a hex dword"))
                    .collect()
            })
            .unwrap_or_default()
    };
    Some(Emitted {
        packet: words("packet ").try_into().expect("16 packet dwords"),
        ib: words("ib "),
    })
}

fn run_oracle(gfx: &str, args: &[&str]) -> String {
    let program = oracle().expect("the oracle was built before the scenario ran");
    let output = Command::new(program)
        .arg(gfx)
        .args(args)
        .output()
        .expect("run the oracle");
    assert!(output.status.success(), "iree_packets {gfx} {args:?}");
    String::from_utf8(output.stdout).expect("text")
}

pub(crate) fn hex(value: u64) -> String {
    format!("{value:#x}")
}

/// Places an emitted IB (if any) and submits its packet.
pub(crate) fn place_and_submit(queue: *mut hsa_queue_t, ib: u64, emitted: &Emitted) {
    if !emitted.ib.is_empty() {
        poke(ib, &dword_bytes(&emitted.ib));
    }
    submit(queue, emitted.packet);
}

/// The vendor format of an emitted packet (the byte after the header).
fn format_of(packet: &[u32; 16]) -> u8 {
    (packet[0] >> 16) as u8
}

/// Every packet IREE writes for `gfx`, run on this process's node.
fn scenario(gfx: &str) {
    let gfx1100 = gfx == "11.0.0";
    let gfx90a = gfx == "9.0.10";
    let (cpu, gpu) = agents();
    // IREE's PM4 IB slots live in the host's fine-grained pool
    // (host_queue.c); the data in device memory.
    let ib_memory = allocate(pool_with(cpu, GLOBAL_FLAG_FINE_GRAINED), &[0u8; 4096]);
    let data_memory = allocate(pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED), &[0u8; 4096]);
    let (ib, data) = (ib_memory as u64, data_memory as u64);
    let queue = create(gpu, 64);
    let mut next = 0u64;

    // A cross-queue epoch wait: complete once the epoch signal has been
    // decremented twice from its initial value (epoch 2).
    let (epoch, done) = (signal(EPOCH_INITIAL_VALUE), signal(1));
    let wait = emit(
        gfx,
        &["wait", &hex(epoch.handle), "2", &hex(ib), &hex(done.handle)],
    )
    .expect("IREE waits on the device on every simulated target");
    let expected = if gfx1100 {
        AMD_AQL_FORMAT_PM4_IB
    } else {
        AMD_PACKET_TYPE_BARRIER_VALUE
    };
    assert_eq!(format_of(&wait.packet), expected, "{gfx}'s wait strategy");
    place_and_submit(queue, ib, &wait);
    next += 1;
    for _ in 0..2 {
        std::thread::sleep(SETTLE);
        assert_eq!(load(done), 1, "{gfx}: the wait completed early");
        // SAFETY: plain C call on a live signal.
        unsafe { hsa_signal_subtract_screlease(epoch, 1) };
    }
    assert_eq!(wait_zero(done), 0, "{gfx}: epoch 2 reached");
    assert_eq!(read_index(queue), next);

    // A profiling timestamp range, in GPU clock ticks.
    let (start, end) = (data, data + 8);
    let done = signal(1);
    let range = emit(
        gfx,
        &[
            "timestamps",
            &hex(start),
            &hex(end),
            &hex(ib),
            &hex(done.handle),
        ],
    )
    .expect("IREE times queue work on every simulated target");
    let before = gpu_clock_now();
    place_and_submit(queue, ib, &range);
    next += 1;
    assert_eq!(wait_zero(done), 0);
    let after = gpu_clock_now();
    let (t0, t1) = (peek_u64(start), peek_u64(end));
    assert!(
        before <= t0 && t0 <= t1 && t1 <= after,
        "{gfx}: timestamps {t0}, {t1} outside {before}..={after}"
    );

    // queue_fill / queue_update and queue_copy of 4 and 8 bytes: PM4
    // WRITE_DATA and COPY_DATA where IREE validated them (gfx1100), blit
    // kernels elsewhere.
    let target = data + 64;
    let done = signal(1);
    for (bytes, value) in [("4", 0x1122_3344u64), ("8", 0x5566_7788_99aa_bbcc)] {
        let fill = emit(
            gfx,
            &[
                "fill",
                &hex(target),
                &hex(value),
                bytes,
                &hex(ib),
                &hex(done.handle),
            ],
        );
        assert_eq!(fill.is_some(), gfx1100, "{gfx}: PM4 fill");
        let copy = emit(
            gfx,
            &[
                "copy",
                &hex(target),
                &hex(target + 8),
                bytes,
                &hex(ib),
                &hex(done.handle),
            ],
        );
        assert_eq!(copy.is_some(), gfx1100, "{gfx}: PM4 copy");
        let (Some(fill), Some(copy)) = (fill, copy) else {
            continue;
        };
        poke(target, &[0xEE; 16]);
        for packet in [fill, copy] {
            // SAFETY: plain C call on a live signal.
            unsafe { hsa_signal_store_screlease(done, 1) };
            place_and_submit(queue, ib, &packet);
            next += 1;
            assert_eq!(wait_zero(done), 0);
        }
        let n = bytes.parse::<usize>().unwrap();
        let written = &value.to_le_bytes()[..n];
        let memory = peek(target, 16);
        assert_eq!(&memory[..n], written, "{gfx}: filled");
        assert_eq!(&memory[8..8 + n], written, "{gfx}: copied");
        assert!(
            memory[n..8].iter().all(|&b| b == 0xEE),
            "{gfx}: only {n} bytes"
        );
    }

    // The execution barrier of IREE's PM4 command buffers: EVENT_WRITE
    // CS_PARTIAL_FLUSH and ACQUIRE_MEM in the gfx9 or gfx10 form.
    let barrier = emit(gfx, &["barrier", &hex(ib), &hex(done.handle)]);
    assert_eq!(barrier.is_some(), !gfx90a, "{gfx}: PM4 barrier");
    if let Some(barrier) = barrier {
        // SAFETY: plain C call on a live signal.
        unsafe { hsa_signal_store_screlease(done, 1) };
        place_and_submit(queue, ib, &barrier);
        next += 1;
        assert_eq!(wait_zero(done), 0);
    }
    assert_eq!(read_index(queue), next);
    destroy(queue);

    // What the node refuses: a counter readback.
    let refused = emit(
        gfx,
        &[
            "perfcounter",
            "0x3400",
            &hex(target),
            &hex(ib),
            &hex(done.handle),
        ],
    )
    .expect("IREE's builders write it on every target");
    let (queue, cell) = watched_queue(gpu);
    place_and_submit(queue, ib, &refused);
    assert_eq!(
        stopped_with(cell),
        HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
        "{gfx}: perfcounter"
    );
    assert_eq!(read_index(queue), 0);
    destroy(queue);
    release(&[epoch, done], &[]);
    crate::iree_pm4_dispatch::scenarios(gfx, gpu, ib_memory, data_memory);
}

#[test]
fn the_layouts_are_iree_s() {
    if let Err(reason) = oracle() {
        return skip(WHAT, &reason);
    }
    let text = run_oracle("11.0.0", &["layout"]);
    type P = amd_aql_pm4_ib_packet_t;
    type H = hsa_amd_vendor_packet_header_t;
    use std::mem::offset_of;
    let expected = [
        format!(
            "pm4_ib {} {} {} {} {} {}",
            size_of::<P>(),
            offset_of!(P, header),
            offset_of!(P, ib_jump_cmd),
            offset_of!(P, dw_cnt_remain),
            offset_of!(P, reserved),
            offset_of!(P, completion_signal)
        ),
        format!(
            "vendor_header {} {} {}",
            size_of::<H>(),
            offset_of!(H, amd_format),
            offset_of!(H, reserved)
        ),
        format!("formats {AMD_AQL_FORMAT_PM4_IB} {AMD_PACKET_TYPE_BARRIER_VALUE}"),
    ];
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn iree_s_selection_for_the_simulated_targets() {
    if let Err(reason) = oracle() {
        return skip(WHAT, &reason);
    }
    // (gfx IP, capability bits, timestamp strategy, wait strategy) as
    // docs/SIMULATOR.md's table describes them: gfx90a PM4-IB and
    // BARRIER_VALUE; gfx942 also EVENT_WRITE, SET_SH_REG, ACQUIRE_MEM (gfx9
    // form), DISPATCH_DIRECT; gfx1100 WAIT_REG_MEM64, WRITE_DATA,
    // COPY_DATA, register and counter readbacks, ACQUIRE_MEM (gfx10 form).
    for (gfx, line) in [
        ("9.0.10", "caps 0x3 timestamps 1 waits 1"),
        ("9.4.2", "caps 0x581b timestamps 1 waits 1"),
        ("11.0.0", "caps 0x9ffd timestamps 2 waits 2"),
    ] {
        assert_eq!(run_oracle(gfx, &["select"]).trim(), line, "{gfx}");
    }
}

#[test]
fn iree_packets_on_gfx1100() {
    if let Err(reason) = oracle() {
        return skip(WHAT, &reason);
    }
    setup();
    scenario("11.0.0");
}

/// Runs [`scenario`] in a child process on `machine`.
fn in_child(machine: &str, gfx: &str) {
    let program = match oracle() {
        Ok(program) => program,
        Err(reason) => return skip(WHAT, &reason),
    };
    let output = crate::child::command("iree_packets::child")
        .env(ORACLE_ENV, program)
        .env(CHILD_GFX_ENV, gfx)
        .env("AMDGPU_SIM_MACHINE", machine)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, machine);
}

#[test]
fn iree_packets_on_gfx942() {
    in_child("mi300x-8", "9.4.2");
}

#[test]
fn iree_packets_on_gfx90a() {
    in_child("mi250x-4", "9.0.10");
}

/// The scenario on the child's machine (see `in_child`).
#[test]
#[ignore = "a child of iree_packets_on_gfx942 and _gfx90a"]
fn child() {
    let Ok(gfx) = std::env::var(CHILD_GFX_ENV) else {
        return;
    };
    // SAFETY (below): plain C calls.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
    scenario(&gfx);
    assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
}
