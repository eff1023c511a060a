//! GFX12's scalar f16 ALU and the scalar conversions between f16 and f32.
//! RDNA4's guide (6.8, "SALU Floating Point") defines them as producing the
//! VALU counterparts' results, with no operand modifiers: each f16 source is
//! the low 16 bits of its SGPR (an inline constant its f16 value, a literal
//! its low half), and an f16 result clears the destination's high 16 bits.
//! They compute as `exec::vector`'s f16 forms do: in f32, which holds every
//! f16 sum, difference and product exactly or within half an f16 ulp's
//! reach (24 bits >= 2 * 11 + 2, so rounding again to f16 is the single
//! correct rounding), rounded to nearest even, denormals kept (the MODE
//! register's denormal bits are not modelled, docs/ISA.md).

use crate::exec::float::{
    f16_to_f32, f32_to_f16, fma16, max32, maximum32, min32, minimum32, odd32,
};
use crate::exec::vector::f32_to_f16_rtz;
use crate::inst::Inst;
use crate::op::Salu;
use crate::wave::{Wave, Width};

/// The 32-bit result of `op` if it is one of the f16 operations and
/// conversions of [`Salu`] (`AddF16` to `RndneF16`, `CvtPkRtzF16F32`).
pub(crate) fn alu(wave: &Wave, inst: &Inst, op: Salu) -> Option<u32> {
    use Salu::*;
    let half = |i: usize| f16_to_f32(wave.scalar32(inst.src[i], Width::F16) as u16);
    let single = |i: usize| f32::from_bits(wave.scalar32(inst.src[i], Width::B32));
    let f16 = |value: f32| u32::from(f32_to_f16(value));
    Some(match op {
        // s_add_f16, s_sub_f16, s_mul_f16
        AddF16 => f16(half(0) + half(1)),
        SubF16 => f16(half(0) - half(1)),
        MulF16 => f16(half(0) * half(1)),
        // s_fmac_f16: the destination's low half is the addend; rounded
        // once (`fma16`), as `v_fmac_f16`.
        FmacF16 => {
            let d = f16_to_f32(wave.scalar32(inst.dst[0], Width::F16) as u16);
            u32::from(fma16(half(0), half(1), d))
        }
        // s_min_num_f16, s_max_num_f16, s_minimum_f16, s_maximum_f16: the
        // result is one of the operands (or a NaN), exact in either width.
        MinNumF16 => f16(min32(half(0), half(1))),
        MaxNumF16 => f16(max32(half(0), half(1))),
        MinimumF16 => f16(minimum32(half(0), half(1))),
        MaximumF16 => f16(maximum32(half(0), half(1))),
        // s_cvt_f16_f32: nearest even; s_cvt_f32_f16 and
        // s_cvt_hi_f32_f16 (the source's high half): exact.
        CvtF16F32 => f16(single(0)),
        CvtF32F16 => half(0).to_bits(),
        CvtHiF32F16 => f16_to_f32((wave.scalar32(inst.src[0], Width::B32) >> 16) as u16).to_bits(),
        // s_cvt_pk_rtz_f16_f32: {S1, S0} rounded toward zero, as
        // `v_cvt_pk_rtz_f16_f32`.
        CvtPkRtzF16F32 => {
            u32::from(f32_to_f16_rtz(single(0))) | u32::from(f32_to_f16_rtz(single(1))) << 16
        }
        // s_ceil_f16, s_floor_f16, s_trunc_f16, s_rndne_f16: an integer
        // value of an f16 is an f16.
        CeilF16 => f16(half(0).ceil()),
        FloorF16 => f16(half(0).floor()),
        TruncF16 => f16(half(0).trunc()),
        RndneF16 => f16(half(0).round_ties_even()),
        // v_s_rcp_f16, v_s_rsq_f16, v_s_sqrt_f16, v_s_exp_f16, v_s_log_f16:
        // as `exec::vector`'s `v_rcp_f16` and the rest (f64 rounded to odd
        // into f32, then to f16: one rounding).
        RcpF16 => f16(1.0 / half(0)),
        RsqF16 => f16(odd32(1.0 / f64::from(half(0)).sqrt())),
        SqrtF16 => f16(half(0).sqrt()),
        ExpF16 => f16(odd32(f64::from(half(0)).exp2())),
        LogF16 => f16(odd32(f64::from(half(0)).log2())),
        _ => return None,
    })
}
