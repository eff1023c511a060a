//! LDS (local data share): the work-group's shared memory, as allocated
//! (whole granules, `dispatch.rs`). An address past its end reads 0 and
//! writes nothing, as on hardware.

use crate::arch::{Chip, Family};
use crate::exec::lanes::active;
use crate::exec::memory::combine;
use crate::inst::{Inst, Operand};
use crate::op::Lds;
use crate::wave::{LANES, Wave};

#[cfg(test)]
mod oracle;

/// The LDS address of ADDR's value `base` plus an instruction offset: their
/// 32-bit sum, wrapping. LLVM folds a constant into the DS offset for every
/// chip since CI (`hasUsableDSOffset`) even when the base register holds a
/// "negative" 32-bit value (`base - c` with `offset:c`), as IREE's data-tiled
/// matmuls do (`v_add_u32 v, 0xffffe000, v` then `ds_write_b64 v, ...
/// offset:8192`); a 64-bit sum would put such an access 4 GiB past the end
/// of LDS, where a write is dropped and a read returns zeros.
fn address(base: u32, offset: u64) -> u64 {
    u64::from(base.wrapping_add(offset as u32))
}

fn read(lds: &[u8], address: u64, out: &mut [u8]) {
    let start = usize::try_from(address).unwrap_or(usize::MAX);
    match start
        .checked_add(out.len())
        .and_then(|end| lds.get(start..end))
    {
        Some(bytes) => out.copy_from_slice(bytes),
        None => out.fill(0),
    }
}

fn write(lds: &mut [u8], address: u64, data: &[u8]) {
    let start = usize::try_from(address).unwrap_or(usize::MAX);
    if let Some(bytes) = start
        .checked_add(data.len())
        .and_then(|end| lds.get_mut(start..end))
    {
        bytes.copy_from_slice(data);
    }
}

/// Lane by lane, the value of a register operand (0 for any other
/// operand, as [`Wave::vreg`] reads it).
fn lane_values(wave: &Wave, operand: Operand) -> [u32; LANES] {
    let mut values = [0u32; LANES];
    if let Some(base) = wave.vbase(operand, 0)
        && let Some(lanes) = wave.v.get(base..base + LANES)
    {
        values.copy_from_slice(lanes);
    }
    values
}

/// A multi-register operand resolved once per instruction, so that the
/// lane loops of loads and stores index the vector file directly (they
/// read and write as [`Wave::vreg`] and [`Wave::set_vreg`] do: 0 and
/// dropped past the file's end). Matching the operand for every lane and
/// register cost a tenth of a gfx942 f16 matmul's instructions.
struct Registers {
    /// Where lane 0 of each of the operand's first registers is.
    bases: [Option<usize>; MAX_REGISTERS],
}

/// Registers of the widest LDS access: two addresses of 16 bytes.
const MAX_REGISTERS: usize = 8;

impl Registers {
    fn new(wave: &Wave, operand: Operand) -> Registers {
        Registers {
            bases: std::array::from_fn(|i| wave.vbase(operand, i)),
        }
    }

    fn get(&self, v: &[u32], i: usize, lane: usize) -> u32 {
        self.bases
            .get(i)
            .copied()
            .flatten()
            .and_then(|base| v.get(base + lane))
            .copied()
            .unwrap_or(0)
    }

    /// The operand's first `count` registers as one run of the vector
    /// file (`count * LANES` words), when all of them are inside it.
    fn block<'v>(&self, v: &'v mut [u32], count: usize) -> Option<&'v mut [u32]> {
        let base = self.bases.first().copied().flatten()?;
        v.get_mut(base..base.checked_add(count.checked_mul(LANES)?)?)
    }

    fn set(&self, v: &mut [u32], i: usize, lane: usize, value: u32) {
        if let Some(slot) = self
            .bases
            .get(i)
            .copied()
            .flatten()
            .and_then(|base| v.get_mut(base + lane))
        {
            *slot = value;
        }
    }
}

/// `N` bytes of LDS from `address`, or zeros where any of them lies past
/// its end (as [`read`]).
#[inline(always)]
fn read_fixed<const N: usize>(lds: &[u8], address: u64) -> [u8; N] {
    usize::try_from(address)
        .ok()
        .and_then(|start| lds.get(start..start.checked_add(N)?))
        .and_then(|bytes| <[u8; N]>::try_from(bytes).ok())
        .unwrap_or([0; N])
}

/// `data` to LDS at `address`, or nothing where any byte lies past its end
/// (as [`write`]).
#[inline(always)]
fn write_fixed<const N: usize>(lds: &mut [u8], address: u64, data: [u8; N]) {
    if let Some(bytes) = usize::try_from(address)
        .ok()
        .and_then(|start| lds.get_mut(start..start.checked_add(N)?))
    {
        bytes.copy_from_slice(&data);
    }
}

/// A load or store's lanes: each active lane's ADDR value plus each offset
/// (one, or `read2`/`write2`'s two). Loads and stores of each width are a
/// loop of fixed-size copies (a copy of a run-time size is a call per lane
/// and address: a fifth of a gfx942 f16 matmul's instructions).
struct Access<'a> {
    bases: [u32; LANES],
    mask: u64,
    offsets: &'a [u64],
}

impl Access<'_> {
    /// Loads of 4 to 16 bytes: whole registers, from the destination's
    /// first on, in offset order.
    fn load<const N: usize>(&self, v: &mut [u32], lds: &[u8], dst: &Registers) {
        for lane in active(self.mask) {
            let base = self.bases[lane];
            let mut reg = 0;
            for &offset in self.offsets {
                let bytes = read_fixed::<N>(lds, address(base, offset));
                for word in bytes.as_chunks::<4>().0 {
                    dst.set(v, reg, lane, u32::from_le_bytes(*word));
                    reg += 1;
                }
            }
        }
    }

    /// Loads of 1 or 2 bytes, sign- or zero-extended, into the whole
    /// register or (`half` 0, 1) its low or high half.
    fn load_narrow<const N: usize>(
        &self,
        v: &mut [u32],
        lds: &[u8],
        dst: &Registers,
        signed: bool,
        half: u8,
    ) {
        match (signed, half) {
            (false, 0) => self.narrow::<N, false, 0>(v, lds, dst),
            (false, 1) => self.narrow::<N, false, 1>(v, lds, dst),
            (false, _) => self.narrow::<N, false, 2>(v, lds, dst),
            (true, 0) => self.narrow::<N, true, 0>(v, lds, dst),
            (true, 1) => self.narrow::<N, true, 1>(v, lds, dst),
            (true, _) => self.narrow::<N, true, 2>(v, lds, dst),
        }
    }

    /// [`Access::load_narrow`] for one width, extension and half (the
    /// matmuls' f16 tiles are read 2 bytes a lane, into halves).
    fn narrow<const N: usize, const SIGNED: bool, const HALF: u8>(
        &self,
        v: &mut [u32],
        lds: &[u8],
        dst: &Registers,
    ) {
        let value = |bytes: [u8; N], old: u32| {
            let value = match (N, SIGNED) {
                (1, true) => bytes[0] as i8 as i32 as u32,
                (1, false) => u32::from(bytes[0]),
                (_, true) => i16::from_le_bytes([bytes[0], bytes[N - 1]]) as i32 as u32,
                _ => u32::from(u16::from_le_bytes([bytes[0], bytes[N - 1]])),
            };
            match HALF {
                0 => (old & 0xffff_0000) | (value & 0xffff),
                1 => (old & 0xffff) | value << 16,
                _ => value,
            }
        };
        // Registers inside the file (all but at its very end): one run.
        if let Some(block) = dst.block(v, self.offsets.len()) {
            for (o, &offset) in self.offsets.iter().enumerate() {
                let Some(lanes) = block.get_mut(o * LANES..(o + 1) * LANES) else {
                    continue;
                };
                for lane in active(self.mask) {
                    let bytes = read_fixed::<N>(lds, address(self.bases[lane], offset));
                    if let Some(slot) = lanes.get_mut(lane) {
                        *slot = value(bytes, *slot);
                    }
                }
            }
            return;
        }
        for lane in active(self.mask) {
            let base = self.bases[lane];
            for (reg, &offset) in self.offsets.iter().enumerate() {
                let bytes = read_fixed::<N>(lds, address(base, offset));
                dst.set(v, reg, lane, value(bytes, dst.get(v, reg, lane)));
            }
        }
    }

    /// Stores of `N` bytes: from DATA0 at the first offset, DATA1 at the
    /// second; the low `N` bytes of the registers (of their high halves
    /// for `_d16_hi`).
    fn store<const N: usize>(&self, v: &[u32], lds: &mut [u8], data: &[Registers; 2], high: bool) {
        for lane in active(self.mask) {
            let base = self.bases[lane];
            for (registers, &offset) in data.iter().zip(self.offsets) {
                let mut bytes = [0u8; N];
                for (i, chunk) in bytes.chunks_mut(4).enumerate() {
                    let word = registers.get(v, i, lane);
                    let word = if high { word >> 16 } else { word };
                    chunk.copy_from_slice(&word.to_le_bytes()[..chunk.len()]);
                }
                write_fixed(lds, address(base, offset), bytes);
            }
        }
    }
}

pub(crate) fn run(wave: &mut Wave, inst: &Inst, op: Lds, lds: &mut [u8], chip: Chip) {
    let exec = wave.exec();
    let offset0 = inst.imm as u64;
    let offset1 = inst.imm2 as u64;
    let single = offset0 | offset1 << 8;
    match op {
        Lds::Load {
            bytes,
            two,
            st64,
            signed,
            half,
        } => {
            let scale = u64::from(bytes) * if st64 { 64 } else { 1 };
            let pair = [offset0 * scale, offset1 * scale];
            let offsets: &[u64] = if two {
                &pair
            } else {
                std::slice::from_ref(&single)
            };
            let access = Access {
                bases: lane_values(wave, inst.src[0]),
                mask: exec & wave.lane_mask(),
                offsets,
            };
            let dst = Registers::new(wave, inst.dst[0]);
            let v = &mut wave.v;
            match bytes {
                1 => access.load_narrow::<1>(v, lds, &dst, signed, half),
                2 => access.load_narrow::<2>(v, lds, &dst, signed, half),
                4 => access.load::<4>(v, lds, &dst),
                8 => access.load::<8>(v, lds, &dst),
                12 => access.load::<12>(v, lds, &dst),
                _ => access.load::<16>(v, lds, &dst),
            }
        }
        Lds::Store {
            bytes,
            two,
            st64,
            high,
        } => {
            let scale = u64::from(bytes) * if st64 { 64 } else { 1 };
            let pair = [offset0 * scale, offset1 * scale];
            let offsets: &[u64] = if two {
                &pair
            } else {
                std::slice::from_ref(&single)
            };
            let access = Access {
                bases: lane_values(wave, inst.src[0]),
                mask: exec & wave.lane_mask(),
                offsets,
            };
            let data = [
                Registers::new(wave, inst.src[1]),
                Registers::new(wave, inst.src[2]),
            ];
            let v = &wave.v;
            match bytes {
                1 => access.store::<1>(v, lds, &data, high),
                2 => access.store::<2>(v, lds, &data, high),
                4 => access.store::<4>(v, lds, &data, high),
                8 => access.store::<8>(v, lds, &data, high),
                12 => access.store::<12>(v, lds, &data, high),
                _ => access.store::<16>(v, lds, &data, high),
            }
        }
        Lds::Atomic { op, bytes, rtn } => {
            let wide = bytes == 8;
            for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
                let address = address(wave.vreg(inst.src[0], 0, lane), single);
                let value = |src: usize| {
                    let lo = u64::from(wave.vreg(inst.src[src], 0, lane));
                    if wide {
                        lo | u64::from(wave.vreg(inst.src[src], 1, lane)) << 32
                    } else {
                        lo
                    }
                };
                // The compare-and-store operands: GFX9 takes the comparand
                // first, GFX11 the new value first.
                let (data, cmp) = if chip.family() == Family::Gfx9 {
                    if op == crate::op::Atomic::CmpSwap {
                        (value(2), value(1))
                    } else {
                        (value(1), 0)
                    }
                } else {
                    (value(1), value(2))
                };
                let mut buf = [0u8; 8];
                read(
                    lds,
                    address,
                    buf.get_mut(..bytes as usize).unwrap_or_default(),
                );
                let old = u64::from_le_bytes(buf);
                let new = combine(op, old, data, cmp, wide).to_le_bytes();
                write(lds, address, new.get(..bytes as usize).unwrap_or_default());
                if rtn {
                    wave.set_vreg(inst.dst[0], 0, lane, old as u32);
                    if wide {
                        wave.set_vreg(inst.dst[0], 1, lane, (old >> 32) as u32);
                    }
                }
            }
        }
        Lds::Bpermute | Lds::Permute => {
            let source: Vec<u32> = (0..wave.lanes)
                .map(|l| wave.vreg(inst.src[1], 0, l))
                .collect();
            let mut out: Vec<Option<u32>> = vec![None; wave.lanes];
            for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
                let address = u64::from(wave.vreg(inst.src[0], 0, lane)).wrapping_add(single);
                let other = (address / 4) as usize % wave.lanes;
                if op == Lds::Bpermute {
                    out[lane] = source.get(other).copied();
                } else if let Some(slot) = out.get_mut(other) {
                    *slot = source.get(lane).copied();
                }
            }
            for (lane, value) in out.into_iter().enumerate() {
                if let Some(v) = value
                    && (op == Lds::Permute || exec >> lane & 1 == 1)
                {
                    wave.set_vreg(inst.dst[0], 0, lane, v);
                }
            }
        }
        Lds::LoadTransposed { bits } => {
            let bases = lane_values(wave, inst.src[0]);
            let addresses: Vec<u64> = bases[..wave.lanes]
                .iter()
                .map(|&base| address(base, single))
                .collect();
            let values = crate::exec::gfx950::transposed(bits, wave.lanes, &addresses, |at| {
                let mut bytes = [0u8; 8];
                read(lds, at, &mut bytes);
                bytes
            });
            let dst = Registers::new(wave, inst.dst[0]);
            for lane in active(exec & wave.lane_mask()) {
                for (reg, &value) in values[lane].iter().enumerate() {
                    dst.set(&mut wave.v, reg, lane, value);
                }
            }
        }
        Lds::Swizzle => {
            let pattern = single as u32;
            // The value swizzled is the ADDR field's register, not DATA0's:
            // `ds_swizzle_b32 vdst, vaddr` has no data operand (LLVM's
            // `DS_1A_RET` form, as the hardware reads it; DATA0 is 0).
            let source: Vec<u32> = (0..wave.lanes)
                .map(|l| wave.vreg(inst.src[0], 0, l))
                .collect();
            for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
                let from = if pattern & 0x8000 != 0 {
                    let sel = (pattern >> (2 * (lane % 4))) & 3;
                    (lane & !3) | sel as usize
                } else {
                    let and = (pattern & 0x1f) as usize;
                    let or = ((pattern >> 5) & 0x1f) as usize;
                    let xor = ((pattern >> 10) & 0x1f) as usize;
                    (lane & !0x1f) | (((lane & and) | or) ^ xor)
                };
                if let Some(&v) = source.get(from) {
                    wave.set_vreg(inst.dst[0], 0, lane, v);
                }
            }
        }
    }
}
