//! The 8-bit float conversion instructions, in the chip's formats
//! (`Chip::ocp_fp8`): gfx942's FNUZ ones (`exec::fp8`, `mfma::fnuz8`),
//! gfx950's and GFX12's OCP ones (`exec::ocp8`). "fp8" is E4M3 and "bf8"
//! E5M2 in both.
//!
//! - `v_cvt_f32_fp8`/`_bf8 D, S`: one byte of S as f32 (exact); the byte
//!   is 0 but under GFX12's VOP3 `byte_sel` (`op_sel[0]` its high bit,
//!   `op_sel[1]` its low one: `llvm-mc-22 -show-encoding`) or gfx9's SDWA
//!   `src0_sel` (which `exec::sdwa` applies before). VOP3's clamp and omod
//!   apply to the result, abs and neg to its sign.
//! - `v_cvt_pk_f32_fp8`/`_bf8 D[0:1], S`: bytes 0 and 1 of S (of its high
//!   word under GFX12's `op_sel[0]` or gfx9's SDWA `WORD_1`) into D and
//!   D+1.
//! - `v_cvt_pk_fp8_f32`/`_bf8_f32 D, S0, S1`: S0 and S1 (f32, with abs and
//!   neg) to nearest even into bytes 0 and 1 of D's low or high word
//!   (`op_sel[3]`); `v_cvt_sr_fp8_f32`/`_bf8_f32 D, S0, S1`: S0 with S1's
//!   random bits into byte `op_sel[3:2]` (GFX12's `byte_sel`). The rest of
//!   D is kept (LLVM ties the destination to an input); clamp saturates
//!   (no compiler sets it: LLVM gives these forms no clamp operand).

use super::float::{modifiers32, output32};
use super::fp8::{Rounding, f32_to_fnuz8};
use super::lanes::active;
use super::ocp8::{Ocp8Format, f32_to_ocp8, ocp8_to_f32};
use crate::arch::{Chip, Family};
use crate::inst::Inst;
use crate::op::Valu;
use crate::wave::{Wave, Width};

/// Runs one of the conversions to or from the 8-bit floats.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) {
    use Valu::*;
    match op {
        CvtF32Fp8 | CvtF32Bf8 | CvtPkF32Fp8 | CvtPkF32Bf8 => {
            from_eight_bits(wave, inst, op, chip);
        }
        CvtPkFp8F32 | CvtPkBf8F32 | CvtSrFp8F32 | CvtSrBf8F32 => {
            to_eight_bits(wave, inst, op, chip)
        }
        _ => {}
    }
}

/// The chip's 8-bit float `byte` as f32: E4M3 (`fp8`) or E5M2.
pub(crate) fn eight_bit_to_f32(byte: u8, fp8: bool, chip: Chip) -> f32 {
    if chip.ocp_fp8() {
        ocp8_to_f32(byte, ocp_format(fp8))
    } else {
        crate::exec::mfma::fnuz8(byte, if fp8 { 4 } else { 5 }) as f32
    }
}

fn ocp_format(fp8: bool) -> Ocp8Format {
    if fp8 {
        Ocp8Format::E4m3fn
    } else {
        Ocp8Format::E5m2
    }
}

fn from_eight_bits(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) {
    let fp8 = matches!(op, Valu::CvtF32Fp8 | Valu::CvtPkF32Fp8);
    let pair = matches!(op, Valu::CvtPkF32Fp8 | Valu::CvtPkF32Bf8);
    // GFX12's VOP3 selects the byte (word, for the pairs) by op_sel; gfx9
    // selects through SDWA, and its VOP3 has no such field.
    let shift = match (chip.family(), pair) {
        (Family::Gfx12, false) => 8 * u32::from((inst.op_sel & 1) << 1 | inst.op_sel >> 1 & 1),
        (Family::Gfx12, true) => 16 * u32::from(inst.op_sel & 1),
        _ => 0,
    };
    // Exact in f32; a source modifier acts on the value's sign.
    let convert = |byte: u32| {
        let mut bits = eight_bit_to_f32(byte as u8, fp8, chip).to_bits();
        if inst.abs & 1 == 1 {
            bits &= 0x7fff_ffff;
        }
        if inst.neg & 1 == 1 {
            bits ^= 0x8000_0000;
        }
        output32(f32::from_bits(bits), inst).to_bits()
    };
    for lane in active(wave.exec()) {
        let a = wave.src32(inst.src[0], lane, Width::B32) >> shift;
        wave.set_vreg(inst.dst[0], 0, lane, convert(a & 0xff));
        if pair {
            wave.set_vreg(inst.dst[0], 1, lane, convert(a >> 8 & 0xff));
        }
    }
}

fn to_eight_bits(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) {
    let fp8 = matches!(op, Valu::CvtPkFp8F32 | Valu::CvtSrFp8F32);
    let stochastic = matches!(op, Valu::CvtSrFp8F32 | Valu::CvtSrBf8F32);
    let convert = |x: f32, rounding: Rounding| {
        u32::from(if chip.ocp_fp8() {
            f32_to_ocp8(x, ocp_format(fp8), rounding, inst.clamp)
        } else {
            f32_to_fnuz8(x, if fp8 { 4 } else { 5 }, rounding, inst.clamp)
        })
    };
    for lane in active(wave.exec()) {
        let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
        let old = wave.vreg(inst.dst[0], 0, lane);
        let d = if stochastic {
            let random = wave.src32(inst.src[1], lane, Width::B32);
            let byte = convert(a, Rounding::Stochastic(random));
            let at = 8 * u32::from(inst.op_sel >> 2 & 3);
            (old & !(0xff << at)) | byte << at
        } else {
            let b = modifiers32(wave.src32(inst.src[1], lane, Width::B32), inst, 1);
            let word = convert(a, Rounding::NearestEven) | convert(b, Rounding::NearestEven) << 8;
            if inst.op_sel & 8 != 0 {
                (old & 0xffff) | word << 16
            } else {
                (old & 0xffff_0000) | word
            }
        };
        wave.set_vreg(inst.dst[0], 0, lane, d);
    }
}
