//! LDS (local data share): the work-group's shared memory, as allocated
//! (whole granules, `dispatch.rs`). An address past its end reads 0 and
//! writes nothing, as on hardware.

use crate::arch::{Chip, Family};
use crate::exec::lanes::active;
use crate::exec::memory::combine;
use crate::inst::{Inst, Operand};
use crate::op::Lds;
use crate::wave::{LANES, Wave};

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
            let bases = lane_values(wave, inst.src[0]);
            let dst = Registers::new(wave, inst.dst[0]);
            for lane in active(exec & wave.lane_mask()) {
                let base = bases[lane];
                let addresses: &[u64] = if two {
                    &[
                        address(base, offset0 * scale),
                        address(base, offset1 * scale),
                    ]
                } else {
                    &[address(base, single)]
                };
                let mut reg = 0;
                for &address in addresses {
                    let mut buf = [0u8; 16];
                    let out = buf.get_mut(..bytes as usize).unwrap_or_default();
                    read(lds, address, out);
                    if bytes < 4 {
                        let v = match (bytes, signed) {
                            (1, true) => buf[0] as i8 as i32 as u32,
                            (1, false) => u32::from(buf[0]),
                            (_, true) => i16::from_le_bytes([buf[0], buf[1]]) as i32 as u32,
                            _ => u32::from(u16::from_le_bytes([buf[0], buf[1]])),
                        };
                        let old = dst.get(&wave.v, reg, lane);
                        let v = match half {
                            0 => (old & 0xffff_0000) | (v & 0xffff),
                            1 => (old & 0xffff) | v << 16,
                            _ => v,
                        };
                        dst.set(&mut wave.v, reg, lane, v);
                        reg += 1;
                        continue;
                    }
                    for chunk in out.chunks_exact(4) {
                        let mut word = [0u8; 4];
                        word.copy_from_slice(chunk);
                        dst.set(&mut wave.v, reg, lane, u32::from_le_bytes(word));
                        reg += 1;
                    }
                }
            }
        }
        Lds::Store {
            bytes,
            two,
            st64,
            high,
        } => {
            let scale = u64::from(bytes) * if st64 { 64 } else { 1 };
            let bases = lane_values(wave, inst.src[0]);
            let data = [
                Registers::new(wave, inst.src[1]),
                Registers::new(wave, inst.src[2]),
            ];
            for lane in active(exec & wave.lane_mask()) {
                let base = bases[lane];
                let pairs: &[(u64, usize)] = if two {
                    &[
                        (address(base, offset0 * scale), 1),
                        (address(base, offset1 * scale), 2),
                    ]
                } else {
                    &[(address(base, single), 1)]
                };
                for &(address, src) in pairs {
                    let mut buf = [0u8; 16];
                    for i in 0..(bytes as usize).div_ceil(4) {
                        let word = data[src - 1].get(&wave.v, i, lane);
                        let word = if high { word >> 16 } else { word };
                        if let Some(slot) = buf.get_mut(4 * i..4 * i + 4) {
                            slot.copy_from_slice(&word.to_le_bytes());
                        }
                    }
                    write(lds, address, buf.get(..bytes as usize).unwrap_or_default());
                }
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
