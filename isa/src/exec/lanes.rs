//! Sources and destinations resolved once per instruction, so that the
//! per-lane loops of the vector ALU index the register file directly.

use crate::arch::Chip;
use crate::inst::{Inst, Operand};
use crate::wave::{Wave, Width};

/// Source `i` of `lane` as the f16 half of its register that `op_sel` bit
/// `i` picks, its `abs` and `neg` bits applied, widened to f32 (exactly).
pub(crate) fn half_source(wave: &Wave, inst: &Inst, i: usize, lane: usize) -> f32 {
    let operand = inst.src.get(i).copied().unwrap_or_default();
    let raw = wave.src32(operand, lane, Width::F16);
    let half = if inst.op_sel >> i & 1 == 1 {
        raw >> 16
    } else {
        raw
    } as u16;
    crate::exec::float::modifiers16(half, inst.abs >> i & 1 == 1, inst.neg >> i & 1 == 1)
}

/// How a 16-bit integer operand reads an inline float constant (0.5, 1.0,
/// ..., 1/(2 pi)): GFX9 gives the f32 constant, whose low 16 bits the
/// operation takes (0x0000 for 0.5), GFX11 the f16 constant (0x3800).
/// LLVM: `isInlinableLiteralI16` (AMDGPUBaseInfo.cpp) accepts only the
/// 32-bit bit patterns, and the assembler truncates a float to an i16
/// operand from its f32 bits ("OPF_INV2PI_16", llvm/llvm-project pull
/// request 84106); its AMDGPU maintainer's measurement (pull request
/// 198005, 2026): inline 1.0 "will materialize 0x0000 on gfx8/gfx9, 0x3c00
/// on gfx10-gfx12". Compilers never emit these (LLVM keeps float inline
/// constants off 16-bit integer operands); hand-written code may.
pub(crate) fn int16_width(chip: Chip) -> Width {
    if chip.family().rdna() {
        Width::F16
    } else {
        Width::B32
    }
}

/// A 32-bit source: a vector register (its first lane's index in the
/// file) or one value for every lane.
#[derive(Clone, Copy)]
pub(crate) enum Src32 {
    Reg(usize),
    Value(u32),
}

impl Src32 {
    pub(crate) fn new(wave: &Wave, operand: Operand, width: Width) -> Src32 {
        match operand {
            Operand::Vgpr(_) | Operand::Agpr(_) => {
                wave.vbase(operand, 0).map_or(Src32::Value(0), Src32::Reg)
            }
            other => Src32::Value(wave.scalar32(other, width)),
        }
    }

    #[inline(always)]
    pub(crate) fn at(self, v: &[u32], lane: usize) -> u32 {
        match self {
            Src32::Reg(base) => v.get(base + lane).copied().unwrap_or(0),
            Src32::Value(x) => x,
        }
    }

    /// Every lane's value, into `out` (one entry per lane of the wave).
    #[inline(always)]
    pub(crate) fn gather(self, v: &[u32], out: &mut [u32]) {
        match self {
            Src32::Reg(base) => match v.get(base..base + out.len()) {
                Some(lanes) => out.copy_from_slice(lanes),
                None => out.fill(0),
            },
            Src32::Value(x) => out.fill(x),
        }
    }
}

/// Writes `values` (one per lane) to the lanes of `exec` of the register
/// whose lane 0 is at `dst`: all at once when every lane is active.
#[inline(always)]
pub(crate) fn scatter(v: &mut [u32], dst: usize, exec: u64, values: &[u32]) {
    let Some(lanes) = v.get_mut(dst..dst + values.len()) else {
        return;
    };
    let all = if values.len() == 64 {
        u64::MAX
    } else {
        (1u64 << values.len()) - 1
    };
    if exec & all == all {
        lanes.copy_from_slice(values);
        return;
    }
    for lane in active(exec & all) {
        if let (Some(slot), Some(&value)) = (lanes.get_mut(lane), values.get(lane)) {
            *slot = value;
        }
    }
}

/// A 64-bit source: a register pair (each register's first-lane index) or
/// one value for every lane.
#[derive(Clone, Copy)]
pub(crate) enum Src64 {
    Pair(usize, usize),
    Value(u64),
}

impl Src64 {
    pub(crate) fn new(wave: &Wave, operand: Operand, width: Width) -> Src64 {
        match operand {
            Operand::Vgpr(_) | Operand::Agpr(_) => {
                match (wave.vbase(operand, 0), wave.vbase(operand, 1)) {
                    (Some(lo), Some(hi)) => Src64::Pair(lo, hi),
                    _ => Src64::Value(0),
                }
            }
            other => Src64::Value(wave.scalar64(other, width)),
        }
    }

    #[inline(always)]
    pub(crate) fn at(self, v: &[u32], lane: usize) -> u64 {
        match self {
            Src64::Pair(lo, hi) => {
                let lo = v.get(lo + lane).copied().unwrap_or(0);
                let hi = v.get(hi + lane).copied().unwrap_or(0);
                u64::from(lo) | u64::from(hi) << 32
            }
            Src64::Value(x) => x,
        }
    }
}

/// The first `N` sources of `inst`, resolved.
pub(crate) fn sources32<const N: usize>(wave: &Wave, inst: &Inst, width: Width) -> [Src32; N] {
    std::array::from_fn(|i| Src32::new(wave, inst.src.get(i).copied().unwrap_or_default(), width))
}

/// The first `N` 64-bit sources of `inst`, resolved.
pub(crate) fn sources64<const N: usize>(wave: &Wave, inst: &Inst, width: Width) -> [Src64; N] {
    std::array::from_fn(|i| Src64::new(wave, inst.src.get(i).copied().unwrap_or_default(), width))
}

/// Source `i`'s VOP3 `abs` and `neg` as masks on its sign bit: `(bits &
/// keep) ^ flip`.
pub(crate) fn sign_masks32(inst: &Inst, i: usize) -> (u32, u32) {
    let keep = if inst.abs >> i & 1 == 1 {
        0x7fff_ffff
    } else {
        u32::MAX
    };
    let flip = if inst.neg >> i & 1 == 1 {
        0x8000_0000
    } else {
        0
    };
    (keep, flip)
}

/// The active lanes of `exec`, lowest first.
#[inline(always)]
pub(crate) fn active(exec: u64) -> impl Iterator<Item = usize> {
    let mut mask = exec;
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let lane = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(lane)
    })
}

/// Packed 16-bit: two halves of one register, an inline constant read as
/// `width` says: `Width::F16` for the packed f16 operations (the f16 bits
/// in the low half, 0 in the high), `Width::B32` for the integer ones (a
/// float constant's f32 bits, on GFX9 and GFX11: LLVM's
/// `getInlineEncodingV216`, `isa/tests/pk_int16_inline_float.rs`).
pub(crate) fn pk_16<const N: usize>(
    wave: &mut Wave,
    inst: &Inst,
    width: Width,
    f: impl Fn(usize, [u16; N]) -> u16,
) {
    for lane in active(wave.exec()) {
        let mut out = [0u16; 2];
        for (half, slot) in out.iter_mut().enumerate() {
            let sel = if half == 0 {
                inst.op_sel
            } else {
                inst.op_sel_hi
            };
            let mut args = [0u16; N];
            for (i, arg) in args.iter_mut().enumerate() {
                let operand = inst.src.get(i).copied().unwrap_or_default();
                let raw = wave.src32(operand, lane, width);
                *arg = if sel >> i & 1 == 1 { raw >> 16 } else { raw } as u16;
            }
            *slot = f(half, args);
        }
        wave.set_vreg(
            inst.dst[0],
            0,
            lane,
            u32::from(out[0]) | u32::from(out[1]) << 16,
        );
    }
}

/// Writes a 16-bit result to the half `op_sel[3]` picks. GFX11 keeps the
/// other half; GFX9 zeroes the high half under a low-half result (GFX8's
/// rule, which its VOP1/VOP2 16-bit operations kept) unless `gfx9_keeps`:
/// the operations GFX9 gave op_sel keep it.
pub(crate) fn write16_keeping(
    wave: &mut Wave,
    inst: &Inst,
    chip: Chip,
    gfx9_keeps: bool,
    lane: usize,
    value: u16,
) {
    let old = wave.vreg(inst.dst[0], 0, lane);
    let high = inst.op_sel >> 3 & 1 == 1;
    let keep = if chip.family().rdna() || high || gfx9_keeps {
        old
    } else {
        0
    };
    let d = if high {
        (keep & 0xffff) | u32::from(value) << 16
    } else {
        (keep & 0xffff_0000) | u32::from(value)
    };
    wave.set_vreg(inst.dst[0], 0, lane, d);
}
