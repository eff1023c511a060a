//! IREE's built-in blit kernels on the packet processor: IREE's AMDGPU
//! driver does `queue_fill` and `queue_copy` by dispatching kernels of its
//! prebuilt device library (`fixtures/iree/device/`, the code objects the
//! driver embeds for each simulated chip), with packets and kernargs its
//! `device/blit.c` writes. Here the library is loaded through HSA as the
//! driver loads it (`util/device_library.c`), `iree_blits.c` (IREE's own
//! `blit.c`, compiled from IREE's source) writes the packet and kernargs of
//! each transfer — choosing the kernel by alignment and length, the grid by
//! the agent's wavefront size and compute units as the driver does — and
//! the test commits it to a queue. Every kernel of the fill and copy
//! families runs: aligned blocks, unaligned bytes, small tails (partial
//! work-groups), grid-stride loops. The oracle of the result is what a fill
//! and a copy mean: the pattern's little-endian bytes repeated over the
//! range, the source's bytes at the target, nothing else touched.
//!
//! gfx1100 (w7900) runs in this process; gfx942 (mi300x-8), gfx90a
//! (mi250x-4) and gfx1201 (r9700-4) in child processes. IREE's source comes from
//! `IREE_SOURCE_DIR` or the shared archive (see `iree_packets`); without
//! it, or without a C compiler, the tests say what they skip.

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use amdgpu_sys::hsa_info::{AgentInfo, ExecutableSymbolInfo};
use amdgpu_sys::hsa_status::*;
use amdgpu_sys::hsa_types::*;
use amdgpu_sys::hsa_values::*;

use crate::aql::{allocate, ok, read_index, signal, wait_zero};
use crate::iree_packets::iree_source;
use crate::queues::{agents, create, destroy};
use crate::rocminfo::skip;
use crate::signals::setup;
use crate::vendor_packets::{peek, poke, pool_with, release, submit};

unsafe extern "C" {
    fn hsa_init() -> hsa_status_t;
    fn hsa_shut_down() -> hsa_status_t;
    fn hsa_signal_store_screlease(signal: hsa_signal_t, value: i64);
    fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t;
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
    fn hsa_executable_symbol_get_info(
        symbol: hsa_executable_symbol_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t;
}

const WHAT: &str = "IREE's blit kernels on the packet processor";
/// The built oracle's path, handed to child processes.
const ORACLE_ENV: &str = "AMDGPU_SIM_IREE_BLITS";
/// Set in a child process: the chip it runs.
const CHILD_CHIP_ENV: &str = "AMDGPU_SIM_IREE_BLITS_CHIP";
// hsa.h: the header IREE's queue commits over a blit packet (a kernel
// dispatch with the barrier bit and system-scope acquire and release).
const HEADER: u32 = 2 | 1 << 8 | 2 << 9 | 2 << 11;
/// Bytes of device memory the transfers work in.
const ARENA: usize = 64 << 10;
/// Where copies write, from the arena's start.
const COPY_TARGET: u64 = 32 << 10;
/// What the arena holds around each transfer (never a fill pattern byte).
const BACKGROUND: u8 = 0xEE;

/// IREE's device library code object for `chip` (its target map).
fn device_library(chip: &str) -> PathBuf {
    let target = match chip {
        "gfx942" => "gfx9-4-generic",
        "gfx90a" => "gfx90a",
        "gfx1100" => "gfx11-generic",
        "gfx1201" => "gfx12-generic",
        other => panic!("no device library for {other}"),
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../fixtures/iree/device/amdgcn-amd-amdhsa--{target}.so"
    ))
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
            let program = Path::new(env!("CARGO_TARGET_TMPDIR")).join("iree_blits");
            let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
            let output = Command::new(&compiler)
                .args(["-std=gnu11", "-D_GNU_SOURCE", "-w", "-I"])
                .arg(source.join("runtime/src"))
                .arg("-I")
                .arg(&source)
                .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/iree_blits.c"))
                .arg(source.join("runtime/src/iree/hal/drivers/amdgpu/device/blit.c"))
                .arg("-o")
                .arg(&program)
                .output()
                .map_err(|e| {
                    format!("cannot run {compiler} ({e}); needs a C compiler (CC or cc)")
                })?;
            if !output.status.success() {
                return Err(format!(
                    "IREE's blit.c does not compile:\n{}",
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            Ok(program)
        })
        .as_deref()
        .map_err(Clone::clone)
}

fn run_oracle(args: &[String]) -> String {
    let program = oracle().expect("the oracle was built before the scenario ran");
    let output = Command::new(program)
        .args(args)
        .output()
        .expect("run the oracle");
    assert!(
        output.status.success(),
        "iree_blits {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("text")
}

/// The device library loaded on `gpu`, and the kernel table words the
/// oracle takes (`NAME=OBJECT,KERNARG_SIZE,KERNARG_ALIGNMENT,PRIVATE,GROUP`).
struct Library {
    reader: hsa_code_object_reader_t,
    executable: hsa_executable_t,
    kernels: Vec<String>,
}

fn symbol_u32(symbol: hsa_executable_symbol_t, info: ExecutableSymbolInfo) -> u32 {
    let mut value = 0u32;
    // SAFETY: the attribute is a uint32_t.
    ok(unsafe { hsa_executable_symbol_get_info(symbol, info.raw(), (&raw mut value).cast()) });
    value
}

fn load_library(gpu: hsa_agent_t, chip: &str) -> Library {
    let image = std::fs::read(device_library(chip)).expect("the device library fixture");
    let mut library = Library {
        reader: hsa_code_object_reader_t { handle: 0 },
        executable: hsa_executable_t { handle: 0 },
        kernels: Vec::new(),
    };
    // SAFETY: valid pointers; `image` outlives the reader.
    unsafe {
        ok(hsa_code_object_reader_create_from_memory(
            image.as_ptr().cast(),
            image.len(),
            &mut library.reader,
        ));
        ok(hsa_executable_create_alt(
            0,
            0,
            std::ptr::null(),
            &mut library.executable,
        ));
        ok(hsa_executable_load_agent_code_object(
            library.executable,
            gpu,
            library.reader,
            std::ptr::null(),
            std::ptr::null_mut(),
        ));
        ok(hsa_executable_freeze(library.executable, std::ptr::null()));
    }
    for name in run_oracle(&["names".into()]).lines() {
        let symbol_name = format!("{name}.kd\0");
        let mut symbol = hsa_executable_symbol_t { handle: 0 };
        // SAFETY: a NUL-terminated name and a valid out-pointer.
        ok(unsafe {
            hsa_executable_get_symbol_by_name(
                library.executable,
                symbol_name.as_ptr().cast(),
                &gpu,
                &mut symbol,
            )
        });
        let mut object = 0u64;
        // SAFETY: KERNEL_OBJECT is a uint64_t.
        ok(unsafe {
            hsa_executable_symbol_get_info(
                symbol,
                ExecutableSymbolInfo::KernelObject.raw(),
                (&raw mut object).cast(),
            )
        });
        library.kernels.push(format!(
            "{name}={object:#x},{},{},{},{}",
            symbol_u32(symbol, ExecutableSymbolInfo::KernargSegmentSize),
            symbol_u32(symbol, ExecutableSymbolInfo::KernargSegmentAlignment),
            symbol_u32(symbol, ExecutableSymbolInfo::PrivateSegmentSize),
            symbol_u32(symbol, ExecutableSymbolInfo::GroupSegmentSize),
        ));
    }
    library
}

fn agent_u32(agent: hsa_agent_t, info: AgentInfo) -> u32 {
    let mut value = 0u32;
    // SAFETY: the attribute is a uint32_t.
    ok(unsafe { hsa_agent_get_info(agent, info.raw(), (&raw mut value).cast()) });
    value
}

/// One transfer, in the arena: a fill of `length` bytes at `offset` past
/// [`COPY_TARGET`] with `pattern` of `width` bytes, or a copy of `length`
/// bytes from `offset` to `target` past [`COPY_TARGET`].
#[derive(Clone, Copy, Debug)]
enum Transfer {
    Fill {
        offset: u64,
        length: u64,
        pattern: u64,
        width: u8,
    },
    Copy {
        offset: u64,
        target: u64,
        length: u64,
    },
}

/// Transfers that reach every fill and copy kernel of the table (the
/// kernel `blit.c` picks for each is asserted below).
const TRANSFERS: &[(Transfer, &str)] = &[
    (
        Transfer::Fill {
            offset: 0,
            length: 4096,
            pattern: 0x1122_3344,
            width: 4,
        },
        "fill_block_x16",
    ),
    (
        Transfer::Fill {
            offset: 4,
            length: 100,
            pattern: 0xA5,
            width: 1,
        },
        "fill_x4",
    ),
    (
        Transfer::Fill {
            offset: 3,
            length: 301,
            pattern: 0x5A,
            width: 1,
        },
        "fill_block_unaligned_x16",
    ),
    (
        Transfer::Fill {
            offset: 5,
            length: 7,
            pattern: 0x3C,
            width: 1,
        },
        "fill_x1",
    ),
    (
        Transfer::Fill {
            offset: 2,
            length: 6,
            pattern: 0xBEEF,
            width: 2,
        },
        "fill_x2",
    ),
    (
        Transfer::Fill {
            offset: 8,
            length: 24,
            pattern: 0x0102_0304_0506_0708,
            width: 8,
        },
        "fill_x8",
    ),
    // Far more blocks than one work-item each: a grid-stride loop.
    (
        Transfer::Fill {
            offset: 0,
            length: 24 << 10,
            pattern: 0x7788,
            width: 2,
        },
        "fill_block_x16",
    ),
    (
        Transfer::Copy {
            offset: 0,
            target: 0,
            length: 4096,
        },
        "copy_block_x16",
    ),
    (
        Transfer::Copy {
            offset: 8,
            target: 24,
            length: 200,
        },
        "copy_block_x8",
    ),
    (
        Transfer::Copy {
            offset: 4,
            target: 12,
            length: 52,
        },
        "copy_block_x4",
    ),
    (
        Transfer::Copy {
            offset: 1,
            target: 6,
            length: 1000,
        },
        "copy_block_unaligned_x16",
    ),
    (
        Transfer::Copy {
            offset: 3,
            target: 5,
            length: 13,
        },
        "copy_x1",
    ),
    (
        Transfer::Copy {
            offset: 0,
            target: 0,
            length: 24 << 10,
        },
        "copy_block_x16",
    ),
];

/// The arena after `transfer` over `before`: what a fill and a copy mean.
fn expected(before: &[u8], transfer: Transfer) -> Vec<u8> {
    let mut after = before.to_vec();
    match transfer {
        Transfer::Fill {
            offset,
            length,
            pattern,
            width,
        } => {
            let (bytes, at) = (pattern.to_le_bytes(), (COPY_TARGET + offset) as usize);
            for i in 0..length as usize {
                after[at + i] = bytes[i % usize::from(width)];
            }
        }
        Transfer::Copy {
            offset,
            target,
            length,
        } => {
            let (from, to) = (offset as usize, (COPY_TARGET + target) as usize);
            after[to..to + length as usize].copy_from_slice(&before[from..from + length as usize]);
        }
    }
    after
}

/// Every transfer of [`TRANSFERS`] on this process's node (`chip`'s).
fn scenario(chip: &str) {
    let (cpu, gpu) = agents();
    let wavefront = agent_u32(gpu, AgentInfo::WavefrontSize);
    let cus = agent_u32(gpu, AgentInfo::ComputeUnitCount);
    let library = load_library(gpu, chip);
    let arena = allocate(
        pool_with(gpu, GLOBAL_FLAG_COARSE_GRAINED),
        &vec![0u8; ARENA],
    );
    let kernargs = allocate(pool_with(cpu, GLOBAL_FLAG_KERNARG_INIT), &[0u8; 64]);
    let (base, kernarg_address) = (arena as u64, kernargs as u64);
    let queue = create(gpu, 64);
    let done = signal(1);
    let mut packets = 0;
    // A source of distinct bytes (period 251, prime: a misplaced byte shows).
    let mut before: Vec<u8> = (0..ARENA).map(|i| (i % 251) as u8).collect();
    before[COPY_TARGET as usize..].fill(BACKGROUND);
    for &(transfer, kernel) in TRANSFERS {
        let mut args: Vec<String> = match transfer {
            Transfer::Fill {
                offset,
                length,
                pattern,
                width,
            } => vec![
                "fill".into(),
                format!("{:#x}", base + COPY_TARGET + offset),
                length.to_string(),
                format!("{pattern:#x}"),
                width.to_string(),
            ],
            Transfer::Copy {
                offset,
                target,
                length,
            } => vec![
                "copy".into(),
                format!("{:#x}", base + offset),
                format!("{:#x}", base + COPY_TARGET + target),
                length.to_string(),
            ],
        };
        args.extend([
            format!("{kernarg_address:#x}"),
            wavefront.to_string(),
            cus.to_string(),
            "--".into(),
        ]);
        args.extend(library.kernels.iter().cloned());
        let text = run_oracle(&args);
        let words = |tag: &str| -> Vec<String> {
            text.lines()
                .find_map(|l| l.strip_prefix(tag))
                .map(|rest| rest.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_else(|| panic!("{chip}: {transfer:?}: IREE emits no {tag}: {text}"))
        };
        let mut packet: [u32; 16] = words("packet ")
            .iter()
            .map(|w| u32::from_str_radix(w, 16).expect("a hex dword"))
            .collect::<Vec<_>>()
            .try_into()
            .expect("16 packet dwords");
        let kernarg_bytes: Vec<u8> = words("kernargs ")
            .iter()
            .map(|w| u8::from_str_radix(w, 16).expect("a hex byte"))
            .collect();
        let object = u64::from(packet[8]) | u64::from(packet[9]) << 32;
        let chosen = library
            .kernels
            .iter()
            .find(|k| {
                k.split_once(",")
                    .unwrap()
                    .0
                    .ends_with(&format!("={object:#x}"))
            })
            .expect("the packet names a kernel of the table");
        assert!(
            chosen.starts_with(&format!("iree_hal_amdgpu_device_buffer_{kernel}=")),
            "{chip}: {transfer:?}: IREE picks {chosen}"
        );
        // The arena as the transfer finds it; the queue commits the header
        // and the completion signal, as IREE's host queue does.
        let region = &mut before[COPY_TARGET as usize..];
        region.fill(BACKGROUND);
        poke(base, &before);
        poke(kernarg_address, &kernarg_bytes);
        packet[0] |= HEADER;
        packet[14] = done.handle as u32;
        packet[15] = (done.handle >> 32) as u32;
        // SAFETY: plain C call on a live signal.
        unsafe { hsa_signal_store_screlease(done, 1) };
        submit(queue, packet);
        packets += 1;
        assert_eq!(wait_zero(done), 0, "{chip}: {transfer:?} completes");
        assert_eq!(read_index(queue), packets, "{chip}: {transfer:?} consumed");
        let after = peek(base, ARENA);
        let want = expected(&before, transfer);
        if let Some(at) = (0..ARENA).find(|&i| after[i] != want[i]) {
            panic!(
                "{chip}: {transfer:?} ({kernel}): byte {at:#x} is {:#04x}, expected {:#04x}",
                after[at], want[at]
            );
        }
    }
    destroy(queue);
    release(&[done], &[arena, kernargs]);
    // SAFETY: this scenario's own executable and reader, released once.
    unsafe {
        ok(hsa_executable_destroy(library.executable));
        ok(hsa_code_object_reader_destroy(library.reader));
    }
}

#[test]
fn iree_blits_on_gfx1100() {
    if let Err(reason) = oracle() {
        return skip(WHAT, &reason);
    }
    setup();
    scenario("gfx1100");
}

/// Runs [`scenario`] in a child process on `machine`.
fn in_child(machine: &str, chip: &str) {
    let program = match oracle() {
        Ok(program) => program,
        Err(reason) => return skip(WHAT, &reason),
    };
    let output = crate::child::command("iree_blits::child")
        .env(ORACLE_ENV, program)
        .env(CHILD_CHIP_ENV, chip)
        .env("AMDGPU_SIM_MACHINE", machine)
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, machine);
}

#[test]
fn iree_blits_on_gfx942() {
    in_child("mi300x-8", "gfx942");
}

#[test]
fn iree_blits_on_gfx90a() {
    in_child("mi250x-4", "gfx90a");
}

#[test]
fn iree_blits_on_gfx1201() {
    in_child("r9700-4", "gfx1201");
}

/// The scenario on the child's machine (see `in_child`).
#[test]
#[ignore = "a child of iree_blits_on_gfx942, _gfx90a and _gfx1201"]
fn child() {
    let Ok(chip) = std::env::var(CHILD_CHIP_ENV) else {
        return;
    };
    // SAFETY (below): plain C calls.
    assert_eq!(unsafe { hsa_init() }, HSA_STATUS_SUCCESS);
    scenario(&chip);
    assert_eq!(unsafe { hsa_shut_down() }, HSA_STATUS_SUCCESS);
}
