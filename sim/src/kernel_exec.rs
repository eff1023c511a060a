//! Kernels that compute: a launch's kernel decoded once by the ISA
//! interpreter (`amdgpu-isa`) and executed over the node's memory, in the
//! order the launch's stream runs it.
//!
//! The runtime's part of a launch is done here as ROCclr does it: the
//! kernarg segment is the launch's explicit arguments followed by the
//! hidden arguments the kernel's metadata asks for (block counts, group
//! sizes, grid dimensions), and a dispatch packet describes the grid. The
//! kernel sees both at addresses of their own, outside every pool.
//!
//! `Kernels`, the node's kernel execution state (mode, threads, counts,
//! injected faults), counts every kernel the node executes, a HIP
//! launch's or a queue's dispatch; `Sim::run_kernel` runs it over the
//! node's memory (`kernel_memory`) without the node's lock held.

use std::collections::BTreeMap;
use std::sync::Arc;

use amdgpu_isa::{
    Chip, Dispatch, Fault, FaultKind, FidelityCounts, Inputs, KernelDescriptor, Program,
};

/// What a kernel's dispatch executed: its waves and wave-instructions
/// (the interpreter's count, a VOPD pair one instruction).
pub use amdgpu_isa::Stats as DispatchStats;

use crate::codes::HipCode;
use crate::elf::CodeObject;
use crate::faults::KernelFault;
use crate::kernel_meta::KernelLaunchInfo;
pub use crate::kernel_threads::{KernelThreads, THREADS_ENV};

/// The environment variable the C library reads for [`KernelMode`]:
/// `skip` skips execution.
pub const KERNELS_ENV: &str = "AMDGPU_SIM_KERNELS";

/// Where a kernel sees its kernarg segment (far above every pool's addresses).
pub const KERNARG_ADDRESS: u64 = 0x00ff_0000_0000_0000;
/// Most kernarg segment bytes a launch lays out (a kernel's metadata may
/// claim up to 4 GiB; ROCm's own limit is far below this).
pub const MAX_KERNARG_BYTES: u32 = 64 << 10;
/// Where a kernel sees its dispatch packet.
pub const PACKET_ADDRESS: u64 = 0x00fe_0000_0000_0000;

/// What a HIP launch's `hidden_hostcall_buffer` argument points at: the
/// hostcall buffer (device-side `printf` of ROCm 5 and clang's HIP
/// default), served by the host memory a launch runs with (the C
/// library's `hip::hostcall`); a host that serves none makes the kernel's
/// first hostcall a memory fault.
pub const HOSTCALL_BUFFER_ADDRESS: u64 = 0x00fd_0000_0000_0000;

/// Whether launches execute their kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KernelMode {
    /// Kernels execute (the default).
    #[default]
    Execute,
    /// Launches are checked and recorded, kernels do not run: faster, and
    /// results are not computed (said once on stderr).
    Skip,
}

/// Launch counts by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelCounts {
    /// Launches whose kernel ran to the end.
    pub executed: u64,
    /// Launches not executed ([`KernelMode::Skip`]).
    pub skipped: u64,
    /// Launches that ended in a fault.
    pub faulted: u64,
}

/// Everything a checked launch needs to execute.
#[derive(Clone)]
pub struct KernelRun {
    kernel: String,
    program: Arc<Program>,
    descriptor: KernelDescriptor,
    kernel_object: u64,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_lds: u32,
    kernargs: Vec<u8>,
}

/// What the call log and `AMDGPU_SIM_TRACE=1` print of a launch: the
/// kernel and its shape, the decoded program by its size only (its
/// instructions would be kilobytes a launch).
impl std::fmt::Debug for KernelRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Decimal whatever the caller's flags (the call log prints results
        // with `{:x?}`, where a grid in hex would mislead).
        f.debug_struct("KernelRun")
            .field("kernel", &self.kernel)
            .field("grid", &format_args!("{:?}", self.grid))
            .field("block", &format_args!("{:?}", self.block))
            .field("dynamic_lds", &format_args!("{}", self.dynamic_lds))
            .field("kernarg_bytes", &format_args!("{}", self.kernargs.len()))
            .field(
                "instructions",
                &format_args!("{}", self.program.instructions().len()),
            )
            .finish()
    }
}

impl KernelRun {
    /// The kernel's name.
    pub fn kernel(&self) -> &str {
        &self.kernel
    }

    /// Its grid, in blocks.
    pub fn grid(&self) -> [u32; 3] {
        self.grid
    }

    /// Its block, in work-items.
    pub fn block(&self) -> [u32; 3] {
        self.block
    }
}

/// What [`kernel_run`] needs of a function and its module.
pub(crate) struct KernelSource<'a> {
    pub(crate) info: &'a KernelLaunchInfo,
    pub(crate) program: Arc<Program>,
    pub(crate) descriptor: KernelDescriptor,
    pub(crate) kernel_object: u64,
}

/// The launch of `source` over `grid` × `block` with the launch's explicit
/// kernarg bytes.
pub(crate) fn kernel_run(
    source: KernelSource,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_lds: u32,
    explicit: &[u8],
) -> KernelRun {
    KernelRun {
        kernel: source.info.name.clone(),
        program: source.program,
        descriptor: source.descriptor,
        kernel_object: source.kernel_object,
        grid,
        block,
        dynamic_lds,
        kernargs: kernarg_segment(source.info, grid, block, dynamic_lds, explicit),
    }
}

/// The kernarg segment: the explicit bytes, then each hidden argument
/// filled as the HIP runtime fills it (AMDGPUUsage, "Code Object V5
/// Metadata"); hidden arguments the node has nothing for are zero.
fn kernarg_segment(
    info: &KernelLaunchInfo,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_lds: u32,
    explicit: &[u8],
) -> Vec<u8> {
    let mut segment = explicit.to_vec();
    segment.resize((info.kernarg_segment_size as usize).max(explicit.len()), 0);
    let dims = if grid[2] * block[2] > 1 {
        3u64
    } else if grid[1] * block[1] > 1 {
        2
    } else {
        1
    };
    for (offset, size, kind) in &info.hidden_args {
        let axis = |name: &str| match name.rsplit('_').next() {
            Some("y") => 1usize,
            Some("z") => 2,
            _ => 0,
        };
        let value: u64 = match kind.as_str() {
            k if k.starts_with("hidden_block_count_") => {
                grid.get(axis(k)).copied().map_or(0, u64::from)
            }
            k if k.starts_with("hidden_group_size_") => {
                block.get(axis(k)).copied().map_or(0, u64::from)
            }
            "hidden_grid_dims" => dims,
            "hidden_dynamic_lds_size" => u64::from(dynamic_lds),
            "hidden_hostcall_buffer" => HOSTCALL_BUFFER_ADDRESS,
            // Remainders (HIP grids are whole blocks), global offsets,
            // queue and completion pointers, the printf buffer.
            _ => 0,
        };
        let (start, len) = (*offset as usize, (*size as usize).min(8));
        let bytes = value.to_le_bytes();
        if let (Some(slot), Some(value)) = (
            start
                .checked_add(len)
                .and_then(|end| segment.get_mut(start..end)),
            bytes.get(..len),
        ) {
            slot.copy_from_slice(value);
        }
    }
    segment
}

/// The code of kernel `name` in `code`: its function symbol's size, and the
/// bytes after it to the end of the file image of the segment holding it
/// (the functions it may call: the device library's, which the linker
/// places after the kernels). `None` when no function symbol names it.
pub(crate) fn kernel_code_span(code: &CodeObject, name: &str) -> Option<(u64, u64)> {
    let &(_, start, size) = code.functions.iter().find(|(f, _, _)| f == name)?;
    let end = start.checked_add(size)?;
    let after = code
        .segments
        .iter()
        .filter(|s| s.vaddr <= start && end <= s.vaddr.saturating_add(s.filesz))
        .map(|s| s.vaddr.saturating_add(s.filesz) - end)
        .min()
        .unwrap_or(0);
    Some((size, after))
}

/// Decodes the kernel whose descriptor is at `kd_address` (read through
/// `read`) for `chip`; `code_size` is its function symbol's size and
/// `code_after` the bytes after its code in its segment, decoded as far as
/// they go so that its calls into them run ([`kernel_code_span`]).
pub(crate) fn decode_kernel(
    chip: Chip,
    descriptor: &KernelDescriptor,
    kd_address: u64,
    (code_size, code_after): (u64, u64),
    read: &mut dyn FnMut(u64, &mut [u8]) -> bool,
) -> Result<Program, String> {
    let entry = kd_address.wrapping_add(descriptor.kernel_code_entry_byte_offset as u64);
    let len = usize::try_from(code_size)
        .ok()
        .filter(|&n| n <= amdgpu_isa::MAX_CODE_BYTES)
        .ok_or_else(|| format!("kernel code of {code_size} bytes"))?;
    // The code after the kernel is read only as far as the program limit.
    let after = usize::try_from(code_after)
        .unwrap_or(usize::MAX)
        .min(amdgpu_isa::MAX_CODE_BYTES - len);
    let mut code = vec![0u8; len + after];
    if !read(entry, &mut code) {
        code.truncate(len);
        if !read(entry, &mut code) {
            return Err(format!(
                "kernel code at {entry:#x} is outside the loaded image"
            ));
        }
    }
    // The code runs where it was loaded: `s_getpc_b64` reads absolute
    // addresses, through which kernels reach their constant tables.
    Program::decode_with_callees(chip, &code, len)
        .map(|program| program.at(entry))
        .map_err(|e| e.to_string())
}

/// The node's kernel execution: whether kernels run, how many ran,
/// were skipped or faulted, and the kernels made to fault.
#[derive(Debug, Default)]
pub(crate) struct Kernels {
    /// Whether kernels run (`AMDGPU_SIM_KERNELS`).
    pub(crate) mode: KernelMode,
    /// Runs by outcome.
    pub(crate) counts: KernelCounts,
    /// Kernels made to fault (`Sim::inject_kernel_fault`).
    pub(crate) faults: Vec<KernelFault>,
    /// Wave-instructions executed by the runs that ended, by kernel name
    /// and fidelity class.
    pub(crate) fidelity: BTreeMap<String, FidelityCounts>,
    /// Threads a dispatch's work-groups run on (`AMDGPU_SIM_THREADS`).
    pub(crate) threads: KernelThreads,
    /// Runs started (what an injected fault counts).
    started: u64,
    skip_said: bool,
}

impl Kernels {
    /// Whether a HIP launch's kernel is skipped ([`KernelMode::Skip`]):
    /// counted skipped, and said once on stderr.
    pub(crate) fn skip_launch(&mut self) -> bool {
        if self.mode != KernelMode::Skip {
            return false;
        }
        self.counts.skipped += 1;
        if !self.skip_said {
            self.skip_said = true;
            eprintln!(
                "amdgpu-sim: kernels are not executed ({}=skip): results are not computed",
                KERNELS_ENV
            );
        }
        true
    }

    /// Whether a queue's dispatch is skipped ([`KernelMode::Skip`]):
    /// counted skipped.
    pub(crate) fn skip_dispatch(&mut self) -> bool {
        if self.mode != KernelMode::Skip {
            return false;
        }
        self.counts.skipped += 1;
        true
    }

    /// Starts a run (a HIP launch's or an AQL kernel dispatch's): the
    /// threads its work-groups run on, or the fault an injected fault
    /// names, before the kernel's first instruction (counted faulted).
    /// Runs are numbered as they start, so that runs on several threads
    /// at once are each counted once.
    pub(crate) fn start(&mut self) -> Result<usize, Fault> {
        self.started += 1;
        let nth = self.started;
        if self.faults.iter().any(|fault| fault.fires(nth)) {
            self.counts.faulted += 1;
            return Err(Fault {
                reason: format!("memory access fault injected (kernel {nth} to start on the node)"),
                kind: FaultKind::Device,
                offset: 0,
                workgroup: [0; 3],
            });
        }
        Ok(self.threads.get())
    }

    /// Counts a started run of kernel `name` that ended with `result`:
    /// executed or faulted, and, when it ran to its end, its instructions
    /// by fidelity class.
    pub(crate) fn finish(&mut self, name: &str, result: &Result<DispatchStats, Fault>) {
        match result {
            Ok(stats) => {
                self.counts.executed += 1;
                // Looked up before inserting: a kernel launched again (the
                // usual case) costs no allocation.
                match self.fidelity.get_mut(name) {
                    Some(total) => total.merge(&stats.fidelity),
                    None => {
                        self.fidelity.insert(name.to_owned(), stats.fidelity);
                    }
                }
            }
            Err(_) => self.counts.faulted += 1,
        }
    }
}

/// A HIP launch's kernel fault as the runtime reports it: said on stderr
/// with the kernel's name, then `hipErrorIllegalAddress` (a device fault,
/// reported at the next synchronization), or `hipErrorLaunchFailure` for
/// what only execution shows the interpreter cannot run (an `s_setpc_b64`
/// into other code).
pub(crate) fn launch_fault(kernel: &str, fault: &Fault) -> HipCode {
    eprintln!("amdgpu-sim: kernel `{kernel}` faulted: {fault}");
    match fault.kind {
        FaultKind::Device => HipCode::ILLEGAL_ADDRESS,
        FaultKind::Unsupported => HipCode::LAUNCH_FAILURE,
    }
}

/// The dispatch of a HIP launch's kernel run: its grid of whole blocks,
/// its kernarg segment and dispatch packet at their own addresses.
pub(crate) fn launch_dispatch(run: &KernelRun) -> Dispatch<'_> {
    Dispatch {
        program: &run.program,
        descriptor: run.descriptor,
        // HIP grids are whole blocks; the launch checks keep each
        // dimension's work-items within 32 bits.
        grid_size: {
            let [gx, gy, gz] = run.grid;
            let [bx, by, bz] = run.block;
            [
                gx.saturating_mul(bx),
                gy.saturating_mul(by),
                gz.saturating_mul(bz),
            ]
        },
        block: run.block,
        dynamic_lds: run.dynamic_lds,
        inputs: Inputs::Packet {
            kernel_object: run.kernel_object,
            kernarg_address: KERNARG_ADDRESS,
            kernargs: &run.kernargs,
            packet_address: PACKET_ADDRESS,
        },
        instruction_limit: amdgpu_isa::MAX_WAVE_INSTRUCTIONS,
    }
}
