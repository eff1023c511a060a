//! Mixed-precision multiply-add (VOP3P `v_fma_mix_f32`, `v_fma_mixlo_f16`,
//! `v_fma_mixhi_f16`; CDNA3 and RDNA3 ISA guides): each source is an f32
//! (its `op_sel_hi` bit clear) or the f16 half of its register that its
//! `op_sel` bit picks (`op_sel_hi` set), taken as is, negated (`neg_lo`)
//! or made absolute (`neg_hi`, decoded as `abs`); the fused multiply-add
//! is rounded once, to f32 or to f16 (`mixlo` writes the low half of the
//! destination, `mixhi` the high half, the other half kept). Clamp limits
//! the result to [0, 1].

use crate::exec::float::{clamp01, f16_to_f32, f32_to_f16, fma16, fma32};
use crate::exec::lanes::{active, half_source};
use crate::inst::Inst;
use crate::op::Valu;
use crate::wave::{Wave, Width};

/// Source `i` of `lane`, as f32 exactly.
fn source(wave: &Wave, inst: &Inst, i: usize, lane: usize) -> f32 {
    if inst.op_sel_hi >> i & 1 == 1 {
        half_source(wave, inst, i, lane)
    } else {
        let operand = inst.src.get(i).copied().unwrap_or_default();
        let (abs, neg) = (inst.abs >> i & 1 == 1, inst.neg >> i & 1 == 1);
        let mut bits = wave.src32(operand, lane, Width::B32);
        if abs {
            bits &= 0x7fff_ffff;
        }
        if neg {
            bits ^= 0x8000_0000;
        }
        f32::from_bits(bits)
    }
}

/// Executes `op`, one of the three.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, op: Valu) {
    for lane in active(wave.exec()) {
        let [a, b, c] = [0, 1, 2].map(|i| source(wave, inst, i, lane));
        let old = wave.vreg(inst.dst[0], 0, lane);
        let d = match op {
            Valu::FmaMixloF16 | Valu::FmaMixhiF16 => {
                let mut h = fma16(a, b, c);
                if inst.clamp {
                    // 0 and 1 are f16 values: clamping after rounding is
                    // clamping before.
                    h = f32_to_f16(clamp01(f16_to_f32(h)));
                }
                if op == Valu::FmaMixloF16 {
                    (old & 0xffff_0000) | u32::from(h)
                } else {
                    (old & 0xffff) | u32::from(h) << 16
                }
            }
            _ => {
                let d = fma32(a, b, c);
                if inst.clamp { clamp01(d) } else { d }.to_bits()
            }
        };
        wave.set_vreg(inst.dst[0], 0, lane, d);
    }
}
