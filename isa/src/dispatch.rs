//! A kernel dispatch: the grid's work-groups one after another, each
//! work-group's waves set up as the packet processor sets them up
//! (AMDGPUUsage, "Initial Kernel Execution State") and run in step, one
//! instruction each in turn, over the caller's memory.
//!
//! The grid is counted in work-items, as the AQL packet counts it: where
//! the work-group size does not divide it, the last work-group of that
//! dimension is partial (HSA's "partial work-groups") and holds only the
//! work-items inside the grid; its waves beyond them are not launched.

use std::fmt;

use crate::arch::{Chip, Family};
use crate::descriptor::KernelDescriptor;
use crate::exec::{Context, ExecError, Flow, pair, step};
use crate::fidelity::FidelityCounts;
use crate::inst::{EXEC, Encoding, VCC, flags};
use crate::memory::{AqlSegments, Memory, Segments};
use crate::program::Program;
use crate::wave::{AGPR_BASE, LANES, SCRATCH_APERTURE, Wave};

/// Most instructions one wave executes, by default, before the dispatch is
/// ended as hung (a kernel that never reaches `s_endpgm`, such as one
/// spinning on a flag another work-group would set): about half a minute
/// of interpretation.
pub const MAX_WAVE_INSTRUCTIONS: u64 = 1 << 28;
/// Index of `TTMP0`, the first trap temporary, in the scalar file.
const TTMP0: usize = 108;

/// Most LDS bytes a work-group may have (64 KiB on every chip modelled but
/// gfx950).
pub const MAX_LDS_BYTES: u32 = 64 * 1024;
/// gfx950's (CDNA4) most LDS bytes a work-group may have: 160 KiB (LLVM's
/// `FeatureAddressableLocalMemorySize163840` for gfx950; the CDNA4 white
/// paper's 160 KB of LDS per CU). IREE's mxfp4 matmuls use 153.5 KiB.
pub const MAX_LDS_BYTES_GFX950: u32 = 160 * 1024;

/// Most LDS bytes a work-group may have on `chip`.
pub fn max_lds_bytes(chip: Chip) -> u32 {
    match chip {
        Chip::Gfx950 => MAX_LDS_BYTES_GFX950,
        _ => MAX_LDS_BYTES,
    }
}
/// LDS bytes per allocation granule: a work-group's LDS is allocated in
/// blocks of 128 dwords on every chip modelled (gfx7 to gfx11; AMDGPUUsage,
/// `COMPUTE_PGM_RSRC2.LDS_SIZE`, which the packet processor sets to the
/// packet's group segment size rounded up to them). Compilers rely on it:
/// LLVM widens a load of an LDS object to its alignment (IREE's gfx1100
/// matmuls read a 14-byte row at 448 of a 462-byte segment with
/// `ds_load_b128`), which stays inside the allocation's last granule.
pub const LDS_GRANULE_BYTES: u32 = 512;
/// Most scratch bytes per work-item (a work-group of 1,024 items then
/// holds at most 128 MiB of private memory).
pub const MAX_SCRATCH_BYTES: u32 = 128 << 10;

/// What to run.
pub struct Dispatch<'a> {
    /// The decoded kernel.
    pub program: &'a Program,
    /// Its descriptor (for a PM4 dispatch, as the compute registers give
    /// it: the resource registers, wave32 and the LDS they allocate).
    pub descriptor: KernelDescriptor,
    /// Work-items per dimension (the dispatch packet's `grid_size`): a
    /// dimension `block` does not divide ends in a partial work-group.
    pub grid_size: [u32; 3],
    /// Work-items per work-group per dimension.
    pub block: [u32; 3],
    /// Dynamic LDS bytes, beyond the descriptor's static LDS.
    pub dynamic_lds: u32,
    /// What sets up the waves' user SGPRs.
    pub inputs: Inputs<'a>,
    /// Most instructions one wave may execute ([`MAX_WAVE_INSTRUCTIONS`]
    /// unless a caller needs a tighter bound).
    pub instruction_limit: u64,
}

/// What sets up a dispatch's user SGPRs, and where its kernel finds its
/// arguments.
#[derive(Clone, Copy, Debug)]
pub enum Inputs<'a> {
    /// An AQL kernel dispatch packet: the packet processor sets the user
    /// SGPRs the descriptor's code properties enable (AMDGPUUsage's
    /// order), and the kernel sees the kernarg segment and the packet at
    /// their addresses.
    Packet {
        /// The descriptor's address (the packet's `kernel_object`).
        kernel_object: u64,
        /// Where the kernarg segment is.
        kernarg_address: u64,
        /// Its bytes (explicit and hidden arguments laid out by the
        /// runtime).
        kernargs: &'a [u8],
        /// Where the dispatch packet is (read through the dispatch
        /// pointer).
        packet_address: u64,
    },
    /// A PM4 `DISPATCH_DIRECT`: the user SGPRs are the
    /// `COMPUTE_USER_DATA_*` registers the command stream wrote, one per
    /// SGPR of `COMPUTE_PGM_RSRC2.USER_SGPR_COUNT`; whatever they point at
    /// is read from memory.
    UserData(&'a [u32]),
}

/// Why a dispatch stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What happened.
    pub reason: String,
    /// Whether the kernel faulted or asked for what the interpreter does
    /// not do.
    pub kind: FaultKind,
    /// Byte offset of the instruction from the kernel's entry.
    pub offset: u32,
    /// The work-group it happened in.
    pub workgroup: [u32; 3],
}

/// What kind of stop a [`Fault`] is, which decides how a runtime reports
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A fault the kernel would take on a GPU too (an access outside
    /// memory, a wave that never ends, the illegal-instruction trap) or a
    /// dispatch outside the interpreter's limits: a device fault
    /// (`hipErrorIllegalAddress`).
    Device,
    /// Something only execution shows the interpreter does not do
    /// ([`ExecError::is_unsupported`]: an `s_setpc_b64` into other code, a
    /// rounding mode other than nearest even): a launch the interpreter
    /// cannot run (`hipErrorLaunchFailure`), as a kernel refused when
    /// decoded is.
    Unsupported,
}

impl From<&ExecError> for FaultKind {
    fn from(error: &ExecError) -> FaultKind {
        if error.is_unsupported() {
            FaultKind::Unsupported
        } else {
            FaultKind::Device
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(
            f,
            "{} at entry+{:#x} in work-group ({x}, {y}, {z})",
            self.reason, self.offset
        )
    }
}

impl std::error::Error for Fault {}

/// What a dispatch executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Waves run.
    pub waves: u64,
    /// Wave-instructions executed.
    pub instructions: u64,
    /// The same, by how faithfully each was executed (their total is
    /// `instructions`).
    pub fidelity: FidelityCounts,
}

/// `hsa_kernel_dispatch_packet_t` as the packet processor would read it.
fn packet(d: &Dispatch, kernel_object: u64, kernarg_address: u64) -> [u8; 64] {
    let mut p = [0u8; 64];
    let extent = |i: usize| d.grid_size[i];
    let dims = if extent(2) > 1 {
        3u16
    } else if extent(1) > 1 {
        2
    } else {
        1
    };
    let mut put = |at: usize, bytes: &[u8]| {
        if let Some(slot) = p.get_mut(at..at + bytes.len()) {
            slot.copy_from_slice(bytes);
        }
    };
    // HSA_PACKET_TYPE_KERNEL_DISPATCH with system-scope fences.
    put(0, &(2u16 | 1 << 8 | 2 << 9 | 2 << 11).to_le_bytes());
    put(2, &dims.to_le_bytes());
    for i in 0..3 {
        put(4 + 2 * i, &(d.block[i] as u16).to_le_bytes());
        put(12 + 4 * i, &d.grid_size[i].to_le_bytes());
    }
    put(24, &d.descriptor.private_segment_fixed_size.to_le_bytes());
    let lds = d.descriptor.group_segment_fixed_size + d.dynamic_lds;
    put(28, &lds.to_le_bytes());
    put(32, &kernel_object.to_le_bytes());
    put(40, &kernarg_address.to_le_bytes());
    p
}

/// Runs the dispatch to completion over `memory`, its work-groups one
/// after another in order (x fastest, then y, then z).
pub fn run_dispatch(d: &Dispatch, memory: &mut dyn Memory) -> Result<Stats, Fault> {
    let prepared = prepare(d)?;
    let mut segments = Segments {
        memory,
        aql: prepared.aql,
    };
    let mut groups = GroupRunner::new(&prepared);
    let result = (0..prepared.group_count())
        .try_for_each(|index| groups.run(d, prepared.group(index), &mut segments));
    groups.finish(result)
}

/// What every work-group of a checked dispatch shares.
pub(crate) struct Prepared<'a> {
    chip: Chip,
    lanes: usize,
    /// LDS bytes per work-group, whole granules.
    lds_bytes: u32,
    /// Waves per work-group.
    wave_count: usize,
    /// Work-groups per dimension.
    groups: [u32; 3],
    pub(crate) aql: Option<AqlSegments<'a>>,
}

impl Prepared<'_> {
    /// Work-groups in the grid.
    pub(crate) fn group_count(&self) -> u64 {
        self.groups.iter().map(|&n| u64::from(n)).product()
    }

    /// Work-group `index` of the grid in dispatch order (x fastest).
    pub(crate) fn group(&self, index: u64) -> [u32; 3] {
        let [gx, gy, _] = self.groups.map(u64::from);
        [
            (index % gx) as u32,
            ((index / gx) % gy) as u32,
            (index / (gx * gy)) as u32,
        ]
    }
}

/// Checks the dispatch against the interpreter's limits and lays out what
/// its work-groups share.
pub(crate) fn prepare<'a>(d: &Dispatch<'a>) -> Result<Prepared<'a>, Fault> {
    let chip = d.program.chip();
    let lanes = if d.descriptor.wave32() { 32 } else { 64 };
    let lds_bytes = d
        .descriptor
        .group_segment_fixed_size
        .saturating_add(d.dynamic_lds);
    let refuse = |reason: String| Fault {
        reason,
        kind: FaultKind::Device,
        offset: 0,
        workgroup: [0; 3],
    };
    let max_lds = max_lds_bytes(chip);
    if lds_bytes > max_lds {
        return Err(refuse(format!("{lds_bytes} LDS bytes (at most {max_lds})")));
    }
    // What the hardware allocates: whole granules (each chip's limit is a
    // multiple of one, so this stays within it).
    let lds_bytes = lds_bytes.div_ceil(LDS_GRANULE_BYTES) * LDS_GRANULE_BYTES;
    if d.descriptor.private_segment_fixed_size > MAX_SCRATCH_BYTES {
        return Err(refuse(format!(
            "{} scratch bytes per work-item (at most {MAX_SCRATCH_BYTES})",
            d.descriptor.private_segment_fixed_size
        )));
    }
    let items: u64 = d.block.iter().map(|&b| u64::from(b)).product();
    if items == 0 || items > 1024 {
        return Err(refuse(format!("{items} work-items per work-group")));
    }
    if d.grid_size.contains(&0) {
        return Err(refuse(format!("a grid of {:?} work-items", d.grid_size)));
    }
    let aql = match d.inputs {
        Inputs::Packet {
            kernel_object,
            kernarg_address,
            kernargs,
            packet_address,
        } => Some(AqlSegments {
            kernarg_address,
            kernargs,
            packet_address,
            packet: packet(d, kernel_object, kernarg_address),
        }),
        Inputs::UserData(values) => {
            if values.len() != d.descriptor.user_sgpr_count() as usize {
                return Err(refuse(format!(
                    "{} user data values for USER_SGPR_COUNT {}",
                    values.len(),
                    d.descriptor.user_sgpr_count()
                )));
            }
            None
        }
    };
    let wave_count = items.div_ceil(lanes as u64) as usize;
    Ok(Prepared {
        chip,
        lanes,
        lds_bytes,
        wave_count,
        groups: std::array::from_fn(|i| d.grid_size[i].div_ceil(d.block[i])),
        aql,
    })
}

/// What runs work-groups on one thread: its waves (taken from the
/// thread's spares) and LDS, and what they executed.
pub(crate) struct GroupRunner {
    chip: Chip,
    waves: Vec<Wave>,
    lds: Vec<u8>,
    stats: Stats,
}

impl GroupRunner {
    /// A runner for `prepared`'s work-groups on this thread.
    pub(crate) fn new(prepared: &Prepared) -> GroupRunner {
        GroupRunner {
            chip: prepared.chip,
            waves: take_waves(prepared.wave_count, prepared.lanes),
            lds: vec![0u8; prepared.lds_bytes as usize],
            stats: Stats::default(),
        }
    }

    /// Runs work-group `group` to its end over `segments`.
    pub(crate) fn run(
        &mut self,
        d: &Dispatch,
        group: [u32; 3],
        segments: &mut Segments,
    ) -> Result<(), Fault> {
        let chip = self.chip;
        // The work-items of this work-group inside the grid.
        let shape: [u32; 3] =
            std::array::from_fn(|i| d.block[i].min(d.grid_size[i] - group[i] * d.block[i]));
        let items: u64 = shape.iter().map(|&n| u64::from(n)).product();
        self.lds.fill(0);
        for wave in self.waves.iter_mut() {
            if u64::from(wave.index) * wave.lanes as u64 >= items {
                // Beyond a partial work-group's items: not launched.
                wave.done = true;
                continue;
            }
            set_up(wave, d, chip, group, shape, items);
        }
        let mut context = Context {
            memory: segments,
            lds: &mut self.lds,
            program: d.program,
            chip,
            instruction_limit: d.instruction_limit,
        };
        run_group(&mut self.waves, &mut context, &mut self.stats).map_err(|(error, offset)| Fault {
            reason: error.to_string(),
            kind: FaultKind::from(&error),
            offset,
            workgroup: group,
        })
    }

    /// Gives the waves back to the thread's spares; what ran, unless
    /// `result` is a fault.
    pub(crate) fn finish(self, result: Result<(), Fault>) -> Result<Stats, Fault> {
        return_waves(self.waves);
        result.map(|()| self.stats)
    }
}

thread_local! {
    /// Waves of earlier dispatches on this thread: a wave's register file
    /// is 130 KiB, and allocating fresh zeroed ones per dispatch (page
    /// faults included) costs more than a short kernel runs.
    static SPARE_WAVES: std::cell::RefCell<Vec<Wave>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Most waves kept for reuse per thread (a 1,024-item work-group in wave32).
const MAX_SPARE_WAVES: usize = 32;

/// `count` waves of `lanes` lanes, numbered from 0, reused where possible.
fn take_waves(count: usize, lanes: usize) -> Vec<Wave> {
    let mut spare = SPARE_WAVES.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let mut waves = Vec::with_capacity(count);
    for index in 0..count {
        let mut wave = spare.pop().unwrap_or_else(|| Wave::new(lanes, 0));
        wave.lanes = lanes;
        wave.index = index as u32;
        waves.push(wave);
    }
    SPARE_WAVES.with(|s| *s.borrow_mut() = spare);
    waves
}

fn return_waves(waves: Vec<Wave>) {
    SPARE_WAVES.with(|s| {
        let mut spare = s.borrow_mut();
        for wave in waves {
            if spare.len() < MAX_SPARE_WAVES {
                spare.push(wave);
            }
        }
    });
}

/// Sets a wave up for work-group `group`, of `items` work-items in a box of
/// `shape` (the block, or less in a partial work-group), as the packet
/// processor does.
fn set_up(wave: &mut Wave, d: &Dispatch, chip: Chip, group: [u32; 3], shape: [u32; 3], items: u64) {
    let kd = &d.descriptor;
    wave.s.fill(0);
    let private = kd.private_segment_fixed_size as usize;
    wave.scratch_per_lane = private;
    wave.scratch.clear();
    wave.scratch.resize(private * wave.lanes, 0);
    // The registers the kernel uses start at zero: its descriptor's VGPR
    // granules (8 registers each at most), on CDNA split at ACCUM_OFFSET
    // between VGPRs and AGPRs. Clearing the whole file per work-group would
    // cost more than a short kernel.
    let used = ((kd.compute_pgm_rsrc1 as usize & 0x3f) + 1) * 8;
    let (vgprs, agprs) = if chip.has_agprs() {
        let split = kd.accum_offset() as usize;
        (used.min(split), used.saturating_sub(split))
    } else {
        (used, 0)
    };
    for (base, count) in [(0, vgprs), (AGPR_BASE, agprs)] {
        let end = (base + count.min(256)) * LANES;
        if let Some(registers) = wave.v.get_mut(base * LANES..end) {
            registers.fill(0);
        }
    }
    wave.scc = false;
    wave.mode = crate::exec::initial_mode(kd.compute_pgm_rsrc1);
    wave.next = 0;
    wave.done = false;
    wave.at_barrier = false;
    wave.executed = 0;
    let first_item = u64::from(wave.index) * wave.lanes as u64;
    let active = items.saturating_sub(first_item).min(wave.lanes as u64);
    let exec = if active >= 64 {
        u64::MAX
    } else {
        (1u64 << active) - 1
    };
    wave.s[EXEC as usize] = exec as u32;
    wave.s[EXEC as usize + 1] = (exec >> 32) as u32;
    wave.s[VCC as usize] = 0;
    match d.inputs {
        Inputs::Packet {
            kernarg_address,
            packet_address,
            ..
        } => aql_user_sgprs(wave, kd, kernarg_address, packet_address),
        Inputs::UserData(values) => {
            for (i, &value) in values.iter().enumerate() {
                wave.set_sreg(i, value);
            }
        }
    }
    let mut next = kd.user_sgpr_count() as usize;
    if chip.family() == Family::Gfx12 {
        // Architected SGPRs (AMDGPUUsage, "Initial Kernel Execution State",
        // GFX12): the work-group IDs are in TTMP9 (X) and TTMP7 (Y in
        // bits 15:0, Z in 31:16), not after the user SGPRs.
        wave.set_sreg(TTMP0 + 9, group[0]);
        wave.set_sreg(TTMP0 + 7, (group[1] & 0xffff) | group[2] << 16);
    } else {
        for (dim, enabled) in kd.workgroup_id_enabled().into_iter().enumerate() {
            if enabled {
                wave.set_sreg(next, group[dim]);
                next += 1;
            }
        }
    }
    if kd.workgroup_info_enabled() {
        next += 1;
    }
    if kd.private_segment_enabled() {
        wave.set_sreg(next, 0);
    }
    // Work-item IDs: packed into v0 (10 bits each) on the chips modelled;
    // a partial work-group numbers its items within its own box.
    let [bx, by, _] = shape;
    for lane in 0..wave.lanes {
        let flat = first_item + lane as u64;
        let x = (flat % u64::from(bx)) as u32;
        let y = ((flat / u64::from(bx)) % u64::from(by)) as u32;
        let z = (flat / (u64::from(bx) * u64::from(by))) as u32;
        if chip.packed_workitem_ids() {
            let packed = x | (y << 10) | (z << 20);
            if let Some(slot) = wave.v.get_mut(lane) {
                *slot = packed;
            }
        } else {
            for (reg, value) in [x, y, z].into_iter().enumerate() {
                if let Some(slot) = wave.v.get_mut(reg * LANES + lane) {
                    *slot = value;
                }
            }
        }
    }
}

/// The user SGPRs an AQL packet processor sets, in AMDGPUUsage's order, as
/// the kernel code properties enable them.
fn aql_user_sgprs(
    wave: &mut Wave,
    kd: &KernelDescriptor,
    kernarg_address: u64,
    packet_address: u64,
) {
    let mut next = 0usize;
    let mut push = |wave: &mut Wave, value: u64, count: usize| {
        for i in 0..count {
            wave.set_sreg(
                next + i,
                value.checked_shr(32 * i as u32).unwrap_or(0) as u32,
            );
        }
        next += count;
    };
    if kd.property(0) {
        // The private segment buffer: a raw buffer resource whose base is
        // the scratch aperture, its range all of it.
        push(wave, SCRATCH_APERTURE, 2);
        push(wave, u64::from(u32::MAX), 1);
        push(wave, 0x0002_7000, 1);
    }
    if kd.property(1) {
        push(wave, packet_address, 2);
    }
    if kd.property(2) {
        push(wave, 0, 2);
    }
    if kd.property(3) {
        push(wave, kernarg_address, 2);
    }
    if kd.property(4) {
        push(wave, 0, 2);
    }
    if kd.property(5) {
        push(wave, 0, 2);
    }
    if kd.property(6) {
        push(wave, u64::from(kd.private_segment_fixed_size), 1);
    }
    // Preloaded kernargs (counted in USER_SGPR_COUNT) are left to the
    // kernel's own prologue, which loads them when execution starts at the
    // entry rather than 256 bytes after it.
}

/// Runs one work-group's waves in step, one instruction each in turn, as
/// a compute unit issues for waves that do the same work; a wave that
/// reaches a barrier waits there until every wave still running has
/// reached it. Running each wave to its barrier instead would order the
/// waves' memory accesses as no GPU does: a kernel whose waves race on
/// one location without a barrier would see each wave's whole
/// read-modify-write sequence after the previous wave's.
fn run_group(
    waves: &mut [Wave],
    context: &mut Context,
    stats: &mut Stats,
) -> Result<(), (ExecError, u32)> {
    stats.waves += waves.iter().filter(|w| !w.done).count() as u64;
    // A lone wave runs on without the turn-taking.
    let turn = if waves.len() == 1 { u64::MAX } else { 1 };
    loop {
        let mut progressed = false;
        for wave in waves.iter_mut() {
            if wave.done || wave.at_barrier {
                continue;
            }
            progressed = true;
            run_wave(wave, context, stats, turn)?;
        }
        if !progressed {
            if waves.iter().all(|w| w.done) {
                return Ok(());
            }
            for wave in waves.iter_mut() {
                wave.at_barrier = false;
            }
        }
    }
}

/// Runs a wave for at most `turn` instructions (a VOPD pair is one), until
/// it ends or waits at a barrier.
fn run_wave(
    wave: &mut Wave,
    context: &mut Context,
    stats: &mut Stats,
    turn: u64,
) -> Result<(), (ExecError, u32)> {
    let program = context.program;
    let mut issued = 0u64;
    while issued < turn {
        issued += 1;
        let Some(inst) = program.get(wave.next) else {
            let offset = context
                .program
                .instructions()
                .last()
                .map_or(0, |i| i.pc + u32::from(i.len));
            return Err((ExecError::PastEnd, offset));
        };
        wave.executed += 1;
        stats.instructions += 1;
        stats.fidelity.add(inst.fidelity);
        if wave.executed > context.instruction_limit {
            return Err((
                ExecError::Hung {
                    limit: context.instruction_limit,
                },
                inst.pc,
            ));
        }
        // A VOPD pair's halves are executed together (their reads before
        // their writes), then both are passed.
        let second = (inst.syntax.encoding == Encoding::Vopd)
            .then(|| program.get(wave.next + 1))
            .flatten()
            .filter(|y| y.has(flags::DUAL_Y));
        let flow = match second {
            Some(y) => {
                wave.next += 1;
                pair(wave, inst, y, context)
            }
            None => step(wave, inst, context),
        };
        match flow.map_err(|reason| (reason, inst.pc))? {
            Flow::Next => wave.next += 1,
            Flow::Jump(index) => wave.next = index,
            Flow::End => {
                wave.done = true;
                break;
            }
            Flow::Barrier => {
                wave.next += 1;
                wave.at_barrier = true;
                break;
            }
        }
    }
    Ok(())
}
