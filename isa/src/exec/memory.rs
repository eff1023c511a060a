//! Vector memory: buffer, global and flat loads, stores and atomics, lane
//! by lane through the dispatch's memory. A buffer access outside its
//! resource's range reads 0 and writes nothing, as on hardware, each dword
//! of a multi-dword access of a raw buffer judged on its own; any other
//! address the memory does not hold is a memory fault.

use crate::exec::Context;
use crate::exec::error::{Access, ExecError};
use crate::inst::{Inst, Operand, flags};
use crate::op::{Atomic, Mem, Segment};
#[cfg(test)]
mod oracle;

use crate::wave::{LANES, SCRATCH_APERTURE, SCRATCH_APERTURE_BYTES, Wave, Width};

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Target {
    /// A device address.
    Address(u64),
    /// A byte offset in a lane's private (scratch) memory: the accessing
    /// lane's own, but for a swizzled private segment buffer access whose
    /// unswizzled offset lands in another lane's dwords.
    Scratch(usize, u64),
    /// A multi-dword raw buffer access across the end of the resource's
    /// range: its first `dwords` dwords are inside (read and written at
    /// the address), the rest outside (read 0, writes dropped).
    Clipped(u64, u8),
    /// Outside the buffer resource's range: reads 0, writes dropped.
    OutOfRange,
}

/// The lane mask of `lanes`.
fn lane_bits(lanes: &std::ops::Range<usize>) -> u64 {
    let ones = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    ones(lanes.end) & !ones(lanes.start)
}

fn active(wave: &Wave) -> Vec<usize> {
    let exec = wave.exec();
    (0..wave.lanes).filter(|l| exec >> l & 1 == 1).collect()
}

/// How an instruction's lanes find their addresses: its scalar parts (a
/// buffer's descriptor and SOFFSET, a global access's SGPR base, the
/// address registers' place in the vector file) read once per
/// instruction, so that each lane reads only its own VGPRs. Decoding the
/// descriptor for every lane was about a tenth of a matmul's instructions.
/// `exec::memory::oracle` keeps the lane-by-lane form as it was, and a
/// property test holds this one to its targets.
#[derive(Clone, Copy)]
pub(super) enum Addressing {
    /// A buffer access through a resource in SGPRs.
    Buffer {
        base: u64,
        stride: u64,
        records: u64,
        soffset: u64,
        /// The instruction's offset, as 32-bit arithmetic.
        offset: u32,
        idxen: bool,
        offen: bool,
        bytes: u64,
        /// VADDR's first and second registers in the vector file.
        vaddr: [Option<usize>; 2],
        /// The base plus SOFFSET in the wave's private segment, when the
        /// resource is the private segment buffer.
        private: Option<u64>,
    },
    /// A buffer access whose resource is not in SGPRs: every lane out of
    /// range.
    NoResource,
    /// A global or flat access: an SGPR base plus a 32-bit VGPR offset, or
    /// a 64-bit VGPR address (`base` then a constant when the address is
    /// not in VGPRs), plus the instruction's offset.
    Global {
        base: Option<u64>,
        offset: u64,
        vaddr: [Option<usize>; 2],
        constant: Option<u64>,
    },
    /// A scratch access: the instruction's offset, a VGPR offset and an
    /// SGPR offset.
    Scratch {
        at: u64,
        /// VADDR's register, when the instruction has one.
        vaddr: Option<Option<usize>>,
    },
}

impl Addressing {
    /// The addressing of `inst`'s `bytes`-byte accesses in `segment`.
    pub(super) fn new(wave: &Wave, inst: &Inst, segment: Segment, bytes: u64) -> Addressing {
        let offset = i64::from(inst.imm);
        let vaddr = |i: usize| wave.vbase(inst.src[0], i);
        match segment {
            Segment::Buffer => {
                let Operand::Sreg(r) = inst.src[3] else {
                    return Addressing::NoResource;
                };
                let r = r as usize;
                let d0 = u64::from(wave.sreg(r));
                let d1 = u64::from(wave.sreg(r + 1));
                let base = d0 | (d1 & 0xffff) << 32;
                let soffset = u64::from(wave.scalar32(inst.src[2], Width::B32));
                let private = base
                    .checked_sub(SCRATCH_APERTURE)
                    .filter(|&private| private < SCRATCH_APERTURE_BYTES)
                    .map(|private| private.wrapping_add(soffset));
                Addressing::Buffer {
                    base,
                    stride: (d1 >> 16) & 0x3fff,
                    records: u64::from(wave.sreg(r + 2)),
                    soffset,
                    offset: offset as u32,
                    idxen: inst.has(flags::IDXEN),
                    offen: inst.has(flags::OFFEN),
                    bytes,
                    vaddr: [vaddr(0), vaddr(1)],
                    private,
                }
            }
            Segment::Global | Segment::Flat => match inst.src[3] {
                Operand::Sreg(_) => Addressing::Global {
                    base: Some(wave.scalar64(inst.src[3], Width::B64)),
                    offset: offset as u64,
                    vaddr: [vaddr(0), None],
                    constant: None,
                },
                _ => {
                    let constant = match inst.src[0] {
                        Operand::Vgpr(_) | Operand::Agpr(_) => None,
                        other => Some(wave.scalar64(other, Width::B64)),
                    };
                    Addressing::Global {
                        base: None,
                        offset: offset as u64,
                        vaddr: [vaddr(0), vaddr(1)],
                        constant,
                    }
                }
            },
            Segment::Scratch => {
                let mut at = offset as u64;
                if let Operand::Sreg(_) = inst.src[3] {
                    at = at.wrapping_add(u64::from(wave.scalar32(inst.src[3], Width::B32)));
                }
                Addressing::Scratch {
                    at,
                    vaddr: inst.has(flags::SCRATCH_VADDR).then(|| vaddr(0)),
                }
            }
        }
    }

    /// Where `lane`'s access goes.
    pub(super) fn at(&self, wave: &Wave, lane: usize) -> Target {
        // A lane of a register outside the file reads 0, as `Wave::vreg`.
        let lane_of = |base: Option<usize>| -> u64 {
            base.and_then(|base| wave.v.get(base.wrapping_add(lane)))
                .map_or(0, |&v| u64::from(v))
        };
        match *self {
            Addressing::Buffer {
                base,
                stride,
                records,
                soffset,
                offset,
                idxen,
                offen,
                bytes,
                vaddr,
                private,
            } => {
                let (index, voffset) = match (idxen, offen) {
                    (true, true) => (lane_of(vaddr[0]), lane_of(vaddr[1])),
                    (true, false) => (lane_of(vaddr[0]), 0),
                    (false, true) => (0, lane_of(vaddr[0])),
                    (false, false) => (0, 0),
                };
                // The offset is 32-bit arithmetic: a negative VGPR offset
                // plus the instruction's offset wraps to the byte it names.
                let within = u64::from((voffset as u32).wrapping_add(offset));
                // Dwords of the access inside the range. A raw buffer
                // (stride 0) judges each dword of a multi-dword access on
                // its own, dword `i` inside when `within + 4 * i + 4 <=
                // records`, so those inside are a prefix; a shorter access
                // is judged whole. LLVM relies on it unless told otherwise
                // (its `relaxed-buffer-oob-mode` feature, off by default, is
                // what lets an access be judged with its neighbours), and so
                // do MLIR's amdgpu dialect and IREE for vector loads at a
                // tensor's edge. An access that indexes a buffer with a
                // stride (IDXEN) judges the whole record, its index against
                // the records and its offset against the stride; one that
                // does not is judged as a raw buffer's, whatever the stride
                // (gfx942's cache-swizzled resources carry a cache stride
                // there and are read by offset: isa/tests/buffer_stride.rs).
                let dwords = bytes.div_ceil(4);
                let inside = if stride == 0 || !idxen {
                    if bytes > 4 {
                        (records.saturating_sub(within) / 4).min(dwords)
                    } else if within.saturating_add(bytes) <= records {
                        dwords
                    } else {
                        0
                    }
                } else if index < records && within < stride {
                    dwords
                } else {
                    0
                };
                if let Some(private) = private {
                    let (owner, offset) = swizzled_scratch(private, within, lane, wave.lanes);
                    return Target::Scratch(owner, offset);
                }
                let address = base
                    .wrapping_add(soffset)
                    .wrapping_add(within)
                    .wrapping_add(stride.wrapping_mul(index));
                if inside == dwords {
                    Target::Address(address)
                } else if inside == 0 {
                    Target::OutOfRange
                } else {
                    Target::Clipped(address, inside as u8)
                }
            }
            Addressing::NoResource => Target::OutOfRange,
            Addressing::Global {
                base,
                offset,
                vaddr,
                constant,
            } => {
                let address = match (base, constant) {
                    (Some(base), _) => base.wrapping_add(lane_of(vaddr[0])),
                    (None, Some(constant)) => constant,
                    (None, None) => lane_of(vaddr[0]) | lane_of(vaddr[1]) << 32,
                };
                Target::Address(address.wrapping_add(offset))
            }
            Addressing::Scratch { at, vaddr } => {
                let at = match vaddr {
                    Some(base) => at.wrapping_add(lane_of(base)),
                    None => at,
                };
                Target::Scratch(lane, at & 0xffff_ffff)
            }
        }
    }

    /// The device address of each lane's access (`out[lane]`) when every
    /// lane's whole access is at one (true), as [`Addressing::at`] gives
    /// it; false, with `out` unspecified, when some lane's is not. An
    /// unindexed buffer access outside the private segment (IREE's tiles)
    /// is one loop over the offsets: each lane's access is whole inside the
    /// range when its offset plus its bytes are within the records (every
    /// dword inside for a raw buffer; the stride is not involved).
    pub(super) fn addresses(&self, wave: &Wave, out: &mut [u64]) -> bool {
        if let Addressing::Buffer {
            base,
            records,
            soffset,
            offset,
            idxen: false,
            offen,
            bytes,
            vaddr,
            private: None,
            ..
        } = *self
        {
            let start = base.wrapping_add(soffset);
            // A multi-dword access is whole when its last dword is inside.
            let need = if bytes > 4 {
                4 * bytes.div_ceil(4)
            } else {
                bytes
            };
            match (offen, vaddr[0]) {
                (true, Some(first)) => {
                    if let Some(offsets) = wave.v.get(first..first + out.len()) {
                        let mut inside = true;
                        for (slot, &voffset) in out.iter_mut().zip(offsets) {
                            let within = u64::from(voffset.wrapping_add(offset));
                            inside &= within + need <= records;
                            *slot = start.wrapping_add(within);
                        }
                        return inside;
                    }
                }
                // No offset register (or one outside the file, which reads
                // 0): every lane's offset is the instruction's.
                _ => {
                    let within = u64::from(offset);
                    out.fill(start.wrapping_add(within));
                    return within + need <= records;
                }
            }
        }
        for (lane, slot) in out.iter_mut().enumerate() {
            let Target::Address(address) = self.at(wave, lane) else {
                return false;
            };
            *slot = address;
        }
        true
    }
}

/// Where a MUBUF access through the private segment buffer lands: the lane
/// and the byte offset in that lane's private memory.
///
/// The private segment buffer is swizzled (AMDGPUUsage, "Memory Spaces":
/// buffer instructions with the scratch descriptor access it interleaved;
/// the descriptor sets ADD_TID_ENABLE, element size 4, index stride the
/// wave size, as LLVM's `SIInstrInfo::getScratchRsrcWords23` writes it),
/// so a wave's scratch holds dword `k` of lane `l`'s private memory at
/// byte `(k * lanes + l) * 4`.
/// The buffer's base and SOFFSET address that wave-wide space as it lies
/// (unswizzled: the wave's offset, and LLVM's frame offsets past the 12-bit
/// immediate, which it scales by the wave size), while VADDR's offset and
/// the instruction's address the lane's own memory, swizzled:
/// `wave + (within / 4) * 4 * lanes + lane * 4 + within % 4`, which is
/// lane `l` at private offset `wave / lanes + within` when `wave` is a
/// multiple of `4 * lanes`. Reading SOFFSET as a per-lane offset put
/// gfx90a's frame objects past 4 KiB (SOFFSET 0x40100 for offset 4,100)
/// 64 times too far.
fn swizzled_scratch(wave: u64, within: u64, lane: usize, lanes: usize) -> (usize, u64) {
    let lanes = lanes.max(1) as u64;
    let at = (wave & 0xffff_ffff)
        .wrapping_add((within / 4) * 4 * lanes)
        .wrapping_add(lane as u64 * 4)
        .wrapping_add(within % 4);
    let owner = ((at / 4) % lanes) as usize;
    (owner, (at / (4 * lanes)) * 4 + at % 4)
}

fn fault(access: Access, bytes: u64, address: u64, lane: usize) -> ExecError {
    ExecError::Memory {
        access,
        bytes,
        address,
        lane,
    }
}

fn scratch_fault(
    access: Access,
    bytes: usize,
    offset: u64,
    lane: usize,
    per_lane: usize,
) -> ExecError {
    ExecError::Scratch {
        access,
        bytes,
        offset,
        lane,
        per_lane,
    }
}

/// Reads `out.len()` bytes for `lane` at `target` (an out-of-range buffer
/// access, or dword of one, reads zeros).
pub(super) fn read(
    wave: &Wave,
    cx: &mut Context,
    target: Target,
    lane: usize,
    out: &mut [u8],
) -> Result<(), ExecError> {
    match target {
        Target::Address(address) => cx
            .memory
            .read(address, out)
            .map_err(|_| fault(Access::Load, out.len() as u64, address, lane)),
        Target::Scratch(owner, offset) => {
            let bytes = wave
                .scratch_range(owner, offset, out.len())
                .and_then(|range| wave.scratch.get(range))
                .ok_or_else(|| {
                    scratch_fault(
                        Access::Load,
                        out.len(),
                        offset,
                        owner,
                        wave.scratch_per_lane,
                    )
                })?;
            out.copy_from_slice(bytes);
            Ok(())
        }
        Target::Clipped(address, dwords) => {
            let (inside, outside) = out.split_at_mut((4 * usize::from(dwords)).min(out.len()));
            outside.fill(0);
            cx.memory
                .read(address, inside)
                .map_err(|_| fault(Access::Load, inside.len() as u64, address, lane))
        }
        Target::OutOfRange => {
            out.fill(0);
            Ok(())
        }
    }
}

/// Writes `data` for `lane` at `target` (an out-of-range buffer access,
/// or dword of one, writes nothing).
fn write(
    wave: &mut Wave,
    cx: &mut Context,
    target: Target,
    lane: usize,
    data: &[u8],
) -> Result<(), ExecError> {
    match target {
        Target::Address(address) => cx
            .memory
            .write(address, data)
            .map_err(|_| fault(Access::Store, data.len() as u64, address, lane)),
        Target::Scratch(owner, offset) => {
            let per_lane = wave.scratch_per_lane;
            let range = wave.scratch_range(owner, offset, data.len());
            let bytes = range
                .and_then(|range| wave.scratch.get_mut(range))
                .ok_or_else(|| scratch_fault(Access::Store, data.len(), offset, owner, per_lane))?;
            bytes.copy_from_slice(data);
            Ok(())
        }
        Target::Clipped(address, dwords) => {
            let inside = data.get(..4 * usize::from(dwords)).unwrap_or(data);
            cx.memory
                .write(address, inside)
                .map_err(|_| fault(Access::Store, inside.len() as u64, address, lane))
        }
        Target::OutOfRange => Ok(()),
    }
}

/// Most bytes one coalesced access moves: 64 lanes of 16 bytes.
const MAX_RUN_BYTES: usize = LANES * 16;

/// Lanes whose accesses are one run of memory: consecutive active lanes,
/// each lane's `bytes` (whole dwords) at a device address `bytes` past the
/// previous lane's, none of it in the kernarg segment or the dispatch
/// packet.
#[derive(Clone, Copy, Default)]
struct Run {
    address: u64,
    start: usize,
    end: usize,
}

impl Run {
    fn lanes(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// A wave's runs, in place (at most one a lane): a `Vec` of them was an
/// allocation for every load and store.
struct Runs {
    list: [Run; LANES],
    len: usize,
}

impl Runs {
    fn as_slice(&self) -> &[Run] {
        self.list.get(..self.len).unwrap_or_default()
    }
}

/// The lanes of `mask`, lowest first.
fn lanes_of(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let lane = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (lane < 64).then_some(lane)
    })
}

/// The wave's access split into runs of consecutive lanes, in lane order,
/// when every lane is active and each lane's access is whole dwords at a
/// device address (`None` otherwise: the access goes lane by lane). A run
/// is read or written as one access, which reads and writes what its
/// lanes' accesses would (a [`Memory`] access that fails touches nothing:
/// that run then goes lane by lane, so that the fault names the lane, after
/// the runs before it, as lane by lane). Lane by lane, each access is a
/// call through the memory's trait object and its address lookup; IREE's
/// tiles are runs of 16 to 64 lanes.
///
/// [`Memory`]: crate::memory::Memory
fn runs(wave: &Wave, inst: &Inst, mem: Mem, cx: &Context) -> Result<Option<Runs>, ExecError> {
    let bytes = u64::from(mem.bytes);
    if mem.bytes < 4
        || !mem.bytes.is_multiple_of(4)
        || mem.d16_hi
        || wave.exec() != wave.lane_mask()
    {
        return Ok(None);
    }
    let addressing = Addressing::new(wave, inst, mem.segment, bytes);
    let mut addresses = [0u64; LANES];
    let addresses = addresses.get_mut(..wave.lanes).unwrap_or_default();
    if !addressing.addresses(wave, addresses) {
        return Ok(None);
    }
    let mut runs = Runs {
        list: [Run::default(); LANES],
        len: 0,
    };
    // The address the current run's next lane would have.
    let mut next = None;
    for (lane, &address) in addresses.iter().enumerate() {
        let end = address.checked_add(bytes);
        match runs
            .len
            .checked_sub(1)
            .and_then(|last| runs.list.get_mut(last))
        {
            Some(run) if next == Some(address) && end.is_some() => run.end = lane + 1,
            _ => {
                if let Some(slot) = runs.list.get_mut(runs.len) {
                    *slot = Run {
                        address,
                        start: lane,
                        end: lane + 1,
                    };
                    runs.len += 1;
                }
            }
        }
        next = end;
    }
    let plain = runs.as_slice().iter().all(|run| {
        cx.memory
            .plain(run.address, run.lanes().len() * usize::from(mem.bytes))
    });
    Ok(plain.then_some(runs))
}

pub(crate) fn load(
    wave: &mut Wave,
    inst: &Inst,
    mem: Mem,
    cx: &mut Context,
) -> Result<(), ExecError> {
    let bytes = u64::from(mem.bytes);
    let runs = runs(wave, inst, mem, cx)?;
    let addressing = Addressing::new(wave, inst, mem.segment, bytes);
    let mut lanes_left = wave.exec();
    let mut buf = [0u8; MAX_RUN_BYTES];
    for run in runs.as_ref().map(Runs::as_slice).unwrap_or_default() {
        let len = run.lanes().len() * usize::from(mem.bytes);
        let data = buf.get_mut(..len).unwrap_or_default();
        if cx.memory.read(run.address, data).is_err() {
            break;
        }
        let dwords = usize::from(mem.bytes) / 4;
        for i in 0..dwords {
            let Some(base) = wave.vbase(inst.dst[0], i) else {
                continue;
            };
            let words = data.chunks_exact(4).skip(i).step_by(dwords);
            for (lane, word) in run.lanes().zip(words) {
                if let Some(slot) = wave.v.get_mut(base + lane) {
                    let mut le = [0u8; 4];
                    le.copy_from_slice(word);
                    *slot = u32::from_le_bytes(le);
                }
            }
        }
        lanes_left &= !lane_bits(&run.lanes());
    }
    for lane in lanes_of(lanes_left) {
        let mut buf = [0u8; 16];
        let out = buf.get_mut(..mem.bytes as usize).unwrap_or_default();
        let at = addressing.at(wave, lane);
        read(wave, cx, at, lane, out)?;
        let dst = inst.dst[0];
        if mem.bytes >= 4 {
            for (i, chunk) in out.chunks_exact(4).enumerate() {
                let mut word = [0u8; 4];
                word.copy_from_slice(chunk);
                wave.set_vreg(dst, i, lane, u32::from_le_bytes(word));
            }
            continue;
        }
        let raw = if mem.bytes == 1 {
            let b = buf[0];
            if mem.signed {
                b as i8 as i32 as u32
            } else {
                u32::from(b)
            }
        } else {
            let h = u16::from_le_bytes([buf[0], buf[1]]);
            if mem.signed {
                h as i16 as i32 as u32
            } else {
                u32::from(h)
            }
        };
        let value = if mem.d16_hi {
            (wave.vreg(dst, 0, lane) & 0xffff) | raw << 16
        } else if mem.d16 {
            (wave.vreg(dst, 0, lane) & 0xffff_0000) | (raw & 0xffff)
        } else {
            raw
        };
        wave.set_vreg(dst, 0, lane, value);
    }
    Ok(())
}

pub(crate) fn store(
    wave: &mut Wave,
    inst: &Inst,
    mem: Mem,
    cx: &mut Context,
) -> Result<(), ExecError> {
    let bytes = u64::from(mem.bytes);
    let runs = runs(wave, inst, mem, cx)?;
    let addressing = Addressing::new(wave, inst, mem.segment, bytes);
    let mut lanes_left = wave.exec();
    let mut buf = [0u8; MAX_RUN_BYTES];
    for run in runs.as_ref().map(Runs::as_slice).unwrap_or_default() {
        let len = run.lanes().len() * usize::from(mem.bytes);
        let data = buf.get_mut(..len).unwrap_or_default();
        let dwords = usize::from(mem.bytes) / 4;
        for i in 0..dwords {
            let base = wave.vbase(inst.src[1], i);
            let words = data.chunks_exact_mut(4).skip(i).step_by(dwords);
            for (lane, word) in run.lanes().zip(words) {
                let value = base
                    .and_then(|base| wave.v.get(base + lane))
                    .copied()
                    .unwrap_or(0);
                word.copy_from_slice(&value.to_le_bytes());
            }
        }
        if cx.memory.write(run.address, data).is_err() {
            break;
        }
        lanes_left &= !lane_bits(&run.lanes());
    }
    for lane in lanes_of(lanes_left) {
        let at = addressing.at(wave, lane);
        let mut buf = [0u8; 16];
        for i in 0..(mem.bytes as usize).div_ceil(4) {
            let mut word = wave.vreg(inst.src[1], i, lane);
            if mem.d16_hi {
                word >>= 16;
            }
            if let Some(slot) = buf.get_mut(4 * i..4 * i + 4) {
                slot.copy_from_slice(&word.to_le_bytes());
            }
        }
        let data = buf.get(..mem.bytes as usize).unwrap_or_default();
        write(wave, cx, at, lane, data)?;
    }
    Ok(())
}

/// One read-modify-write: the new value from the old, the data and (for
/// compare-and-swap) the comparand.
pub(crate) fn combine(op: Atomic, old: u64, data: u64, cmp: u64, wide: bool) -> u64 {
    let signed = |v: u64| {
        if wide {
            v as i64
        } else {
            v as u32 as i32 as i64
        }
    };
    let mask = if wide { u64::MAX } else { 0xffff_ffff };
    let f32v = |v: u64| f32::from_bits(v as u32);
    (match op {
        Atomic::Swap => data,
        Atomic::CmpSwap => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        Atomic::Add => old.wrapping_add(data),
        Atomic::Sub => old.wrapping_sub(data),
        Atomic::MinI => signed(old).min(signed(data)) as u64,
        Atomic::MaxI => signed(old).max(signed(data)) as u64,
        Atomic::MinU => old.min(data),
        Atomic::MaxU => old.max(data),
        Atomic::And => old & data,
        Atomic::Or => old | data,
        Atomic::Xor => old ^ data,
        Atomic::Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        Atomic::Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        Atomic::AddF32 => u64::from((f32v(old) + f32v(data)).to_bits()),
        Atomic::MinF32 => u64::from(f32v(old).min(f32v(data)).to_bits()),
        Atomic::MaxF32 => u64::from(f32v(old).max(f32v(data)).to_bits()),
    }) & mask
}

pub(crate) fn atomic(
    wave: &mut Wave,
    inst: &Inst,
    segment: Segment,
    op: Atomic,
    bytes: u8,
    cx: &mut Context,
) -> Result<(), ExecError> {
    let wide = bytes == 8;
    let regs = if wide { 2 } else { 1 };
    let len = u64::from(bytes);
    let addressing = Addressing::new(wave, inst, segment, len);
    for lane in active(wave) {
        let register = |i: usize| -> u64 {
            let lo = u64::from(wave.vreg(inst.src[1], i, lane));
            if wide {
                lo | u64::from(wave.vreg(inst.src[1], i + 1, lane)) << 32
            } else {
                lo
            }
        };
        let (data, cmp) = (register(0), register(regs));
        let at = addressing.at(wave, lane);
        // An atomic is judged whole, a 64-bit one included.
        if let Target::OutOfRange | Target::Clipped(..) = at {
            continue;
        }
        let old = if let Target::Address(address) = at {
            // Memory work-groups on other threads share: one indivisible
            // access.
            cx.memory
                .read_modify_write(address, bytes as usize, &mut |old| {
                    combine(op, old, data, cmp, wide)
                })
                .map_err(|access| fault(access, len, address, lane))?
        } else {
            let mut buf = [0u8; 8];
            read(
                wave,
                cx,
                at,
                lane,
                buf.get_mut(..bytes as usize).unwrap_or_default(),
            )?;
            let old = u64::from_le_bytes(buf);
            let new = combine(op, old, data, cmp, wide).to_le_bytes();
            write(
                wave,
                cx,
                at,
                lane,
                new.get(..bytes as usize).unwrap_or_default(),
            )?;
            old
        };
        if inst.has(flags::GLC) {
            wave.set_vreg(inst.dst[0], 0, lane, old as u32);
            if wide {
                wave.set_vreg(inst.dst[0], 1, lane, (old >> 32) as u32);
            }
        }
    }
    Ok(())
}
