//! Vector ALU: each active lane computes on its own registers.

use crate::arch::Chip;
use crate::exec::error::ExecError;
use crate::exec::float::*;
use crate::exec::lanes::{
    Src32, active, half_source, int16_width, pk_16, scatter, sign_masks32, sources32, sources64,
    write16_keeping,
};
use crate::exec::saturate;
use crate::inst::{Inst, Operand};
use crate::op::Valu;
use crate::wave::{LANES, Wave, Width};

/// The active lanes of `wave`, lowest first.
fn lanes(wave: &Wave) -> impl Iterator<Item = usize> + use<> {
    active(wave.exec())
}

/// A bit field: `width` bits at `offset`, sign-extended when `signed`.
pub(crate) fn bitfield(a: u32, offset: u32, width: u32, signed: bool) -> u32 {
    if width == 0 {
        return 0;
    }
    let width = width.min(32);
    let shifted = if offset >= 32 { 0 } else { a >> offset };
    if width >= 32 {
        return shifted;
    }
    let field = shifted & ((1u32 << width) - 1);
    if signed && field >> (width - 1) & 1 == 1 {
        field | !((1u32 << width) - 1)
    } else {
        field
    }
}

/// Every lane of the wave computes (inactive lanes too: the operations are
/// pure, and whole-register loops are what the compiler vectorizes); only
/// the active lanes are written.
fn f32_op<const N: usize>(wave: &mut Wave, inst: &Inst, f: impl Fn([f32; N]) -> f32) {
    let sources = sources32::<N>(wave, inst, Width::B32);
    let Some(dst) = wave.vbase(inst.dst[0], 0) else {
        return;
    };
    let n = wave.lanes;
    let mut args = [[0u32; LANES]; N];
    for (i, lanes) in args.iter_mut().enumerate() {
        let (keep, flip) = sign_masks32(inst, i);
        let lanes = &mut lanes[..n];
        sources[i].gather(&wave.v, lanes);
        if keep != u32::MAX || flip != 0 {
            lanes.iter_mut().for_each(|x| *x = (*x & keep) ^ flip);
        }
    }
    let mut out = [0u32; LANES];
    let plain = inst.omod == 0 && !inst.clamp;
    for (lane, slot) in out[..n].iter_mut().enumerate() {
        let d = f(std::array::from_fn(|i| f32::from_bits(args[i][lane])));
        *slot = if plain { d } else { output32(d, inst) }.to_bits();
    }
    let exec = wave.exec();
    scatter(&mut wave.v, dst, exec, &out[..n]);
}

fn f64_op<const N: usize>(wave: &mut Wave, inst: &Inst, f: impl Fn([f64; N]) -> f64) {
    let sources = sources64::<N>(wave, inst, Width::F64);
    let (Some(lo), Some(hi)) = (wave.vbase(inst.dst[0], 0), wave.vbase(inst.dst[0], 1)) else {
        return;
    };
    for lane in active(wave.exec()) {
        let args: [f64; N] = std::array::from_fn(|i| {
            let mut bits = sources[i].at(&wave.v, lane);
            if inst.abs >> i & 1 == 1 {
                bits &= !(1 << 63);
            }
            if inst.neg >> i & 1 == 1 {
                bits ^= 1 << 63;
            }
            f64::from_bits(bits)
        });
        let d = output64(f(args), inst).to_bits();
        if let Some(slot) = wave.v.get_mut(lo + lane) {
            *slot = d as u32;
        }
        if let Some(slot) = wave.v.get_mut(hi + lane) {
            *slot = (d >> 32) as u32;
        }
    }
}

/// 16-bit float operations: `op_sel` picks each source's half and the
/// destination's; GFX9 zeroes the other half of the destination, GFX11
/// keeps it.
fn f16_op<const N: usize>(wave: &mut Wave, inst: &Inst, chip: Chip, f: impl Fn([f32; N]) -> f32) {
    f16_op_keeping(wave, inst, chip, false, f);
}

/// [`f16_op`], keeping the destination's other half on GFX9 too when
/// `gfx9_keeps`.
fn f16_op_keeping<const N: usize>(
    wave: &mut Wave,
    inst: &Inst,
    chip: Chip,
    gfx9_keeps: bool,
    f: impl Fn([f32; N]) -> f32,
) {
    for lane in lanes(wave) {
        let args: [f32; N] = std::array::from_fn(|i| half_source(wave, inst, i, lane));
        let mut d = f(args);
        if inst.clamp {
            d = clamp01(d);
        }
        write16_keeping(wave, inst, chip, gfx9_keeps, lane, f32_to_f16(d));
    }
}

fn write16(wave: &mut Wave, inst: &Inst, chip: Chip, lane: usize, value: u16) {
    write16_keeping(wave, inst, chip, false, lane, value);
}

fn u16_op(wave: &mut Wave, inst: &Inst, chip: Chip, f: impl Fn(u16, u16) -> u16) {
    for lane in lanes(wave) {
        let half = |i: usize| {
            let raw = wave.src32(inst.src[i], lane, int16_width(chip));
            (if inst.op_sel >> i & 1 == 1 {
                raw >> 16
            } else {
                raw
            }) as u16
        };
        let d = f(half(0), half(1));
        write16(wave, inst, chip, lane, d);
    }
}

fn u32_op<const N: usize>(wave: &mut Wave, inst: &Inst, f: impl Fn([u32; N]) -> u32) {
    let sources = sources32::<N>(wave, inst, Width::B32);
    let Some(dst) = wave.vbase(inst.dst[0], 0) else {
        return;
    };
    let n = wave.lanes;
    let mut args = [[0u32; LANES]; N];
    for (source, lanes) in sources.iter().zip(args.iter_mut()) {
        source.gather(&wave.v, &mut lanes[..n]);
    }
    let mut out = [0u32; LANES];
    for (lane, slot) in out[..n].iter_mut().enumerate() {
        *slot = f(std::array::from_fn(|i| args[i][lane]));
    }
    let exec = wave.exec();
    scatter(&mut wave.v, dst, exec, &out[..n]);
}

/// `v_mbcnt_lo/hi_u32_b32`: per lane, the set bits of the first source
/// that stand for lanes below this one among lanes 0-31 (`high`: 32-63),
/// plus the second source.
fn mbcnt(wave: &mut Wave, inst: &Inst, high: bool) {
    let sources = sources32::<2>(wave, inst, Width::B32);
    let Some(dst) = wave.vbase(inst.dst[0], 0) else {
        return;
    };
    let n = wave.lanes;
    let mut args = [[0u32; LANES]; 2];
    for (source, lanes) in sources.iter().zip(args.iter_mut()) {
        source.gather(&wave.v, &mut lanes[..n]);
    }
    let mut out = [0u32; LANES];
    for (lane, slot) in out[..n].iter_mut().enumerate() {
        let below = (1u64 << lane) - 1;
        let mask = if high {
            below >> 32
        } else {
            below & 0xffff_ffff
        } as u32;
        *slot = (args[0][lane] & mask)
            .count_ones()
            .wrapping_add(args[1][lane]);
    }
    let exec = wave.exec();
    scatter(&mut wave.v, dst, exec, &out[..n]);
}

/// 32-bit integer add/sub with a carry (or borrow) out per lane in `dst[1]`
/// and, for the `c`/`b` forms, a carry in from `src[2]`. Under `clamp` a
/// lane that carries (or borrows) gets `saturated` (the unsigned maximum
/// for an add, 0 for a subtraction); the carry out is written either way.
fn carry_op(
    wave: &mut Wave,
    inst: &Inst,
    carry_in: bool,
    saturated: u32,
    f: impl Fn(u64, u64, u64) -> (u32, bool),
) {
    let mask_in = if carry_in { wave.mask(inst.src[2]) } else { 0 };
    let mut mask_out = 0u64;
    for lane in lanes(wave) {
        let a = u64::from(wave.src32(inst.src[0], lane, Width::B32));
        let b = u64::from(wave.src32(inst.src[1], lane, Width::B32));
        let (d, carry) = f(a, b, mask_in >> lane & 1);
        let d = if carry && inst.clamp { saturated } else { d };
        wave.set_vreg(inst.dst[0], 0, lane, d);
        if carry {
            mask_out |= 1 << lane;
        }
    }
    wave.set_mask(inst.dst[1], mask_out);
}

/// Packed f32 (`v_pk_*_f32`): two f32 lanes in a register pair; `op_sel`
/// picks each source's dword for the low result, `op_sel_hi` for the high.
/// An SGPR source is a pair too (`s[n:n+1]`: s_n low, s_n+1 high); a
/// constant feeds both dwords.
fn pk_f32<const N: usize>(wave: &mut Wave, inst: &Inst, f: impl Fn([f32; N]) -> f32) {
    let n = wave.lanes;
    // Each source's two dwords, lane by lane (a scalar constant feeds both).
    let mut dwords = [[[0u32; LANES]; 2]; N];
    for (i, pair) in dwords.iter_mut().enumerate() {
        let operand = inst.src.get(i).copied().unwrap_or_default();
        for (half, lanes) in pair.iter_mut().enumerate() {
            let source = match operand {
                Operand::Vgpr(_) | Operand::Agpr(_) => wave
                    .vbase(operand, half)
                    .map_or(Src32::Value(0), Src32::Reg),
                Operand::Sreg(i) => Src32::Value(wave.sreg(i as usize + half)),
                _ => Src32::Value(wave.scalar32(operand, Width::B32)),
            };
            source.gather(&wave.v, &mut lanes[..n]);
        }
    }
    let (Some(lo), Some(hi)) = (wave.vbase(inst.dst[0], 0), wave.vbase(inst.dst[0], 1)) else {
        return;
    };
    let mut out = [[0u32; LANES]; 2];
    for (half, results) in out.iter_mut().enumerate() {
        let (sel, neg) = if half == 0 {
            (inst.op_sel, inst.neg)
        } else {
            (inst.op_sel_hi, inst.neg_hi)
        };
        // Each source's dword for this half, and its sign flip, chosen once.
        let inputs: [&[u32; LANES]; N] =
            std::array::from_fn(|i| &dwords[i][usize::from(sel >> i & 1)]);
        let flips: [u32; N] =
            std::array::from_fn(|i| if neg >> i & 1 == 1 { 0x8000_0000 } else { 0 });
        for (lane, slot) in results[..n].iter_mut().enumerate() {
            let d = f(std::array::from_fn(|i| {
                f32::from_bits(inputs[i][lane] ^ flips[i])
            }));
            *slot = if inst.clamp { clamp01(d) } else { d }.to_bits();
        }
    }
    let exec = wave.exec();
    scatter(&mut wave.v, lo, exec, &out[0][..n]);
    scatter(&mut wave.v, hi, exec, &out[1][..n]);
}

fn pk_f16<const N: usize>(wave: &mut Wave, inst: &Inst, f: impl Fn([f32; N]) -> f32) {
    // neg_lo/neg_hi per source apply per half.
    let (neg, neg_hi, clamp) = (inst.neg, inst.neg_hi, inst.clamp);
    pk_16::<N>(wave, inst, Width::F16, |half, args| {
        let negs = if half == 0 { neg } else { neg_hi };
        let mut x = [0f32; N];
        for (i, v) in x.iter_mut().enumerate() {
            *v = modifiers16(args.get(i).copied().unwrap_or(0), false, negs >> i & 1 == 1);
        }
        let d = f(x);
        f32_to_f16(if clamp { clamp01(d) } else { d })
    });
}

/// `v_dot2_f32_f16` and `v_dot2c_f32_f16`: `a.lo * b.lo + a.hi * b.hi + c`
/// (c: the third source, or the destination), the f16 products exact in
/// f64, their sum with c formed in f64 and rounded once to f32 (to nearest
/// even; exact before that rounding unless the terms lie more than 2^29
/// apart in scale), clamped to [0, 1] under clamp. The halves are read as
/// the packed f16 operations read them (an inline constant's high half is
/// zero).
fn dot2_f32_f16(wave: &mut Wave, inst: &Inst) {
    for lane in lanes(wave) {
        let a = wave.src32(inst.src[0], lane, Width::F16);
        let b = wave.src32(inst.src[1], lane, Width::F16);
        let c = f32::from_bits(wave.src32(inst.src[2], lane, Width::B32));
        let half = |x: u32, hi: bool| f64::from(f16_to_f32(if hi { x >> 16 } else { x } as u16));
        let sum = half(a, false) * half(b, false) + half(a, true) * half(b, true) + f64::from(c);
        let d = sum as f32;
        let d = if inst.clamp { clamp01(d) } else { d };
        wave.set_vreg(inst.dst[0], 0, lane, d.to_bits());
    }
}

/// The four-byte dot products: `v_dot4_i32_i8` and `v_dot4c_i32_i8` (signed
/// bytes), `v_dot4_u32_u8` (unsigned), GFX11's `v_dot4_i32_iu8` (each
/// source signed where its `neg_lo` bit is set), plus the third source (or
/// the destination), summed exactly; the result wraps to 32 bits, or under
/// clamp saturates to the signed (`_u32_u8`: unsigned) range.
fn dot4(wave: &mut Wave, inst: &Inst, op: Valu) {
    let (signed_a, signed_b) = match op {
        Valu::Dot4U32U8 => (false, false),
        Valu::Dot4I32Iu8 => (inst.neg & 1 != 0, inst.neg & 2 != 0),
        _ => (true, true),
    };
    let byte = |x: u32, i: u32, signed: bool| {
        let b = (x >> (8 * i)) as u8;
        if signed {
            i64::from(b as i8)
        } else {
            i64::from(b)
        }
    };
    for lane in lanes(wave) {
        let a = wave.src32(inst.src[0], lane, Width::B32);
        let b = wave.src32(inst.src[1], lane, Width::B32);
        let c = wave.src32(inst.src[2], lane, Width::B32);
        let mut sum = if op == Valu::Dot4U32U8 {
            i64::from(c)
        } else {
            i64::from(c as i32)
        };
        for i in 0..4 {
            sum += byte(a, i, signed_a) * byte(b, i, signed_b);
        }
        let d = match (inst.clamp, op) {
            (true, Valu::Dot4U32U8) => sum.clamp(0, i64::from(u32::MAX)) as u32,
            (true, _) => sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32,
            _ => sum as u32,
        };
        wave.set_vreg(inst.dst[0], 0, lane, d);
    }
}

/// CDNA's `v_dot2_i32_i16` and `v_dot2c_i32_i16` (signed halves, signed
/// accumulator) and `v_dot2_u32_u16` (unsigned): `a.lo * b.lo + a.hi *
/// b.hi + c` (c: the third source, or the destination) summed exactly,
/// wrapping to 32 bits or, under clamp, saturating to the result's signed
/// (unsigned) range, as the four-byte forms do. The halves are read as the
/// packed integer operations read them.
fn dot2_int16(wave: &mut Wave, inst: &Inst, op: Valu) {
    let unsigned = op == Valu::Dot2U32U16;
    let half = |x: u32, hi: bool| {
        let h = if hi { x >> 16 } else { x } as u16;
        if unsigned {
            i64::from(h)
        } else {
            i64::from(h as i16)
        }
    };
    for lane in lanes(wave) {
        let a = wave.src32(inst.src[0], lane, Width::B32);
        let b = wave.src32(inst.src[1], lane, Width::B32);
        let c = wave.src32(inst.src[2], lane, Width::B32);
        let c = if unsigned {
            i64::from(c)
        } else {
            i64::from(c as i32)
        };
        let sum = half(a, false) * half(b, false) + half(a, true) * half(b, true) + c;
        let d = if unsigned {
            saturate::unsigned(i128::from(sum), 32, inst.clamp)
        } else {
            saturate::signed(i128::from(sum), 32, inst.clamp)
        };
        wave.set_vreg(inst.dst[0], 0, lane, d as u32);
    }
}

pub(crate) fn alu(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) -> Result<(), ExecError> {
    use Valu::*;
    // Integer operations that take VOP3's clamp saturate under it.
    let clamp = inst.clamp;
    match op {
        // v_mov_b32, v_accvgpr_write_b32, v_accvgpr_read_b32, v_accvgpr_mov_b32
        Mov32 | AccvgprWrite | AccvgprRead | AccvgprMov => u32_op::<1>(wave, inst, |[a]| a),
        // v_movrels_b32, v_movreld_b32, v_movrelsd_b32, v_movrelsd_2_b32
        Movrels | Movreld | Movrelsd | Movrelsd2 => super::relative::vector(wave, inst, op)?,
        // v_cvt_f32_fp8, v_cvt_f32_bf8, v_cvt_pk_f32_fp8, v_cvt_pk_f32_bf8,
        // v_cvt_pk_fp8_f32, v_cvt_pk_bf8_f32, v_cvt_sr_fp8_f32, v_cvt_sr_bf8_f32
        CvtF32Fp8 | CvtF32Bf8 | CvtPkF32Fp8 | CvtPkF32Bf8 | CvtPkFp8F32 | CvtPkBf8F32
        | CvtSrFp8F32 | CvtSrBf8F32 => super::cvt8::run(wave, inst, op, chip),
        // v_dot2_f32_f16, v_dot2acc_f32_f16, v_dot2c_f32_f16
        Dot2F32F16 | Dot2cF32F16 => dot2_f32_f16(wave, inst),
        // v_dot2_i32_i16, v_dot2_u32_u16, v_dot2c_i32_i16
        Dot2I32I16 | Dot2U32U16 | Dot2cI32I16 => dot2_int16(wave, inst, op),
        // v_dot4_i32_i8, v_dot4_u32_u8, v_dot4c_i32_i8, v_dot4_i32_iu8
        Dot4I32I8 | Dot4U32U8 | Dot4cI32I8 | Dot4I32Iu8 => dot4(wave, inst, op),
        // v_mov_b64
        Mov64 => {
            for lane in lanes(wave) {
                let v = wave.src64(inst.src[0], lane, Width::B64);
                wave.set_v64(inst.dst[0], lane, v);
            }
        }
        // v_pk_mov_b32
        PkMov32 => {
            for lane in lanes(wave) {
                let a = wave.src64(inst.src[0], lane, Width::B32);
                let b = wave.src64(inst.src[1], lane, Width::B32);
                let lo = if inst.op_sel & 1 == 1 { a >> 32 } else { a } & 0xffff_ffff;
                let hi = if inst.op_sel & 2 == 2 { b >> 32 } else { b } & 0xffff_ffff;
                wave.set_v64(inst.dst[0], lane, lo | hi << 32);
            }
        }
        // v_cndmask_b32
        Cndmask => {
            let mask = wave.mask(inst.src[2]);
            let [a, b] = sources32::<2>(wave, inst, Width::B32);
            let Some(dst) = wave.vbase(inst.dst[0], 0) else {
                return Ok(());
            };
            let n = wave.lanes;
            let (mut x, mut y) = ([0u32; LANES], [0u32; LANES]);
            a.gather(&wave.v, &mut x[..n]);
            b.gather(&wave.v, &mut y[..n]);
            // Float modifiers act on the sign bit of whichever is picked.
            let ((ka, fa), (kb, fb)) = (sign_masks32(inst, 0), sign_masks32(inst, 1));
            let mut out = [0u32; LANES];
            for (lane, slot) in out[..n].iter_mut().enumerate() {
                *slot = if mask >> lane & 1 == 1 {
                    (y[lane] & kb) ^ fb
                } else {
                    (x[lane] & ka) ^ fa
                };
            }
            let exec = wave.exec();
            scatter(&mut wave.v, dst, exec, &out[..n]);
        }
        // v_cndmask_b16
        CndmaskB16 => {
            let mask = wave.mask(inst.src[2]);
            for lane in lanes(wave) {
                // Source 1 where the mask is set, else source 0, its half
                // by op_sel, the float modifiers on its sign bit.
                let i = usize::from(mask >> lane & 1 == 1);
                let raw = wave.src32(inst.src[i], lane, Width::F16);
                let mut h = if inst.op_sel >> i & 1 == 1 {
                    raw >> 16
                } else {
                    raw
                } as u16;
                if inst.abs >> i & 1 == 1 {
                    h &= 0x7fff;
                }
                if inst.neg >> i & 1 == 1 {
                    h ^= 0x8000;
                }
                write16(wave, inst, chip, lane, h);
            }
        }
        // v_add_f32
        AddF32 => f32_op::<2>(wave, inst, |[a, b]| a + b),
        // v_sub_f32
        SubF32 => f32_op::<2>(wave, inst, |[a, b]| a - b),
        // v_subrev_f32
        SubrevF32 => f32_op::<2>(wave, inst, |[a, b]| b - a),
        // v_mul_f32
        MulF32 => f32_op::<2>(wave, inst, |[a, b]| a * b),
        // v_mul_dx9_zero_f32, v_mul_legacy_f32
        MulLegacyF32 => f32_op::<2>(
            wave,
            inst,
            |[a, b]| {
                if a == 0.0 || b == 0.0 { 0.0 } else { a * b }
            },
        ),
        // v_fma_f32, v_fmac_f32
        FmaF32 | FmacF32 => f32_op::<3>(wave, inst, |[a, b, c]| fma32(a, b, c)),
        // v_mac_f32, v_mad_f32, v_mad_legacy_f32
        MacF32 | MadF32 => f32_op::<3>(wave, inst, |[a, b, c]| a * b + c),
        // v_fmamk_f32
        FmamkF32 => f32_op::<3>(wave, inst, |[a, b, k]| fma32(a, k, b)),
        // v_fmaak_f32
        FmaakF32 => f32_op::<3>(wave, inst, |[a, b, k]| fma32(a, b, k)),
        // v_fmamk_f16, v_fmaak_f16: one rounding to f16 (exact back in f32).
        FmamkF16 => f16_op::<3>(wave, inst, chip, |[a, b, k]| f16_to_f32(fma16(a, k, b))),
        // v_fmaak_f16
        FmaakF16 => f16_op::<3>(wave, inst, chip, |[a, b, k]| f16_to_f32(fma16(a, b, k))),
        // v_madmk_f32
        MadmkF32 => f32_op::<3>(wave, inst, |[a, b, k]| a * k + b),
        // v_madak_f32
        MadakF32 => f32_op::<3>(wave, inst, |[a, b, k]| a * b + k),
        // v_min_f32
        MinF32 => f32_op::<2>(wave, inst, |[a, b]| min32(a, b)),
        // v_max_f32
        MaxF32 => f32_op::<2>(wave, inst, |[a, b]| max32(a, b)),
        // v_min3_f32
        Min3F32 => f32_op::<3>(wave, inst, |[a, b, c]| min32(min32(a, b), c)),
        // v_max3_f32
        Max3F32 => f32_op::<3>(wave, inst, |[a, b, c]| max32(max32(a, b), c)),
        // v_med3_f32
        Med3F32 => f32_op::<3>(wave, inst, |[a, b, c]| med3_32(a, b, c)),
        // v_exp_f32
        ExpF32 => f32_op::<1>(wave, inst, |[a]| a.exp2()),
        // v_log_f32
        LogF32 => f32_op::<1>(wave, inst, |[a]| a.log2()),
        // v_rcp_f32, v_rcp_iflag_f32
        RcpF32 | RcpIflagF32 => f32_op::<1>(wave, inst, |[a]| 1.0 / a),
        // v_rsq_f32
        RsqF32 => f32_op::<1>(wave, inst, |[a]| 1.0 / a.sqrt()),
        // v_sqrt_f32
        SqrtF32 => f32_op::<1>(wave, inst, |[a]| a.sqrt()),
        // v_sin_f32
        SinF32 => f32_op::<1>(wave, inst, |[a]| {
            (f64::from(a) * std::f64::consts::TAU).sin() as f32
        }),
        // v_cos_f32
        CosF32 => f32_op::<1>(wave, inst, |[a]| {
            (f64::from(a) * std::f64::consts::TAU).cos() as f32
        }),
        // v_rndne_f32
        RndneF32 => f32_op::<1>(wave, inst, |[a]| a.round_ties_even()),
        // v_floor_f32
        FloorF32 => f32_op::<1>(wave, inst, |[a]| a.floor()),
        // v_ceil_f32
        CeilF32 => f32_op::<1>(wave, inst, |[a]| a.ceil()),
        // v_trunc_f32
        TruncF32 => f32_op::<1>(wave, inst, |[a]| a.trunc()),
        // v_fract_f32
        FractF32 => f32_op::<1>(wave, inst, |[a]| fract32(a)),
        // f16 inputs: rounding to an integer, fract, sqrt and 1/x are exact
        // or correctly rounded in f32 then f16 (f32's 24 bits are at least
        // 2 * 11 + 2); the others computed in f64, rounded to odd in f32,
        // then to nearest in f16: one rounding.
        // v_ceil_f16
        CeilF16 => f16_op::<1>(wave, inst, chip, |[a]| a.ceil()),
        // v_floor_f16
        FloorF16 => f16_op::<1>(wave, inst, chip, |[a]| a.floor()),
        // v_trunc_f16
        TruncF16 => f16_op::<1>(wave, inst, chip, |[a]| a.trunc()),
        // v_rndne_f16
        RndneF16 => f16_op::<1>(wave, inst, chip, |[a]| a.round_ties_even()),
        // v_fract_f16
        FractF16 => f16_op::<1>(wave, inst, chip, |[a]| fract16(a)),
        // v_sqrt_f16
        SqrtF16 => f16_op::<1>(wave, inst, chip, |[a]| a.sqrt()),
        // v_rcp_f16
        RcpF16 => f16_op::<1>(wave, inst, chip, |[a]| 1.0 / a),
        // v_rsq_f16
        RsqF16 => f16_op::<1>(wave, inst, chip, |[a]| odd32(1.0 / f64::from(a).sqrt())),
        // v_exp_f16
        ExpF16 => f16_op::<1>(wave, inst, chip, |[a]| odd32(f64::from(a).exp2())),
        // v_log_f16
        LogF16 => f16_op::<1>(wave, inst, chip, |[a]| odd32(f64::from(a).log2())),
        // v_sin_f16
        SinF16 => f16_op::<1>(wave, inst, chip, |[a]| {
            odd32((f64::from(a) * std::f64::consts::TAU).sin())
        }),
        // v_cos_f16
        CosF16 => f16_op::<1>(wave, inst, chip, |[a]| {
            odd32((f64::from(a) * std::f64::consts::TAU).cos())
        }),
        // v_ldexp_f32
        LdexpF32 => {
            for lane in lanes(wave) {
                let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
                let e = wave.src32(inst.src[1], lane, Width::B32) as i32;
                let d = output32(ldexp32(a, e), inst);
                wave.set_vreg(inst.dst[0], 0, lane, d.to_bits());
            }
        }
        // v_frexp_mant_f32
        FrexpMantF32 => f32_op::<1>(wave, inst, |[a]| frexp_mant32(a)),
        // v_frexp_exp_i32_f32
        FrexpExpF32 => {
            for lane in lanes(wave) {
                let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
                wave.set_vreg(inst.dst[0], 0, lane, frexp_exp32(a) as u32);
            }
        }
        // v_frexp_mant_f64
        FrexpMantF64 => f64_op::<1>(wave, inst, |[a]| frexp_mant64(a)),
        // v_frexp_exp_i32_f64
        FrexpExpF64 => {
            for lane in lanes(wave) {
                let a = modifiers64(wave.src64(inst.src[0], lane, Width::F64), inst, 0);
                wave.set_vreg(inst.dst[0], 0, lane, frexp_exp64(a) as u32);
            }
        }
        // v_div_scale_f32
        DivScaleF32 => {
            // No scaling: the operands are used as they are (VCC clear), and
            // v_div_fixup_f32 returns the IEEE quotient.
            f32_op::<1>(wave, inst, |[a]| a);
            wave.set_mask(inst.dst[1], 0);
        }
        // v_div_fmas_f32
        DivFmasF32 => f32_op::<3>(wave, inst, |[a, b, c]| fma32(a, b, c)),
        // v_div_fixup_f32
        DivFixupF32 => f32_op::<3>(wave, inst, |[q, d, n]| div_fixup32(q, d, n)),
        // v_add_f64
        AddF64 => f64_op::<2>(wave, inst, |[a, b]| a + b),
        // v_mul_f64
        MulF64 => f64_op::<2>(wave, inst, |[a, b]| a * b),
        // v_fma_f64, v_fmac_f64
        FmaF64 | FmacF64 => f64_op::<3>(wave, inst, |[a, b, c]| a.mul_add(b, c)),
        // v_min_f64
        MinF64 => f64_op::<2>(wave, inst, |[a, b]| min64(a, b)),
        // v_max_f64
        MaxF64 => f64_op::<2>(wave, inst, |[a, b]| max64(a, b)),
        // v_rcp_f64
        RcpF64 => f64_op::<1>(wave, inst, |[a]| 1.0 / a),
        // v_rsq_f64
        RsqF64 => f64_op::<1>(wave, inst, |[a]| 1.0 / a.sqrt()),
        // v_sqrt_f64
        SqrtF64 => f64_op::<1>(wave, inst, |[a]| a.sqrt()),
        // v_fract_f64
        FractF64 => f64_op::<1>(wave, inst, |[a]| fract64(a)),
        // v_rndne_f64
        RndneF64 => f64_op::<1>(wave, inst, |[a]| a.round_ties_even()),
        // v_floor_f64
        FloorF64 => f64_op::<1>(wave, inst, |[a]| a.floor()),
        // v_ceil_f64
        CeilF64 => f64_op::<1>(wave, inst, |[a]| a.ceil()),
        // v_trunc_f64
        TruncF64 => f64_op::<1>(wave, inst, |[a]| a.trunc()),
        // v_ldexp_f64
        LdexpF64 => {
            for lane in lanes(wave) {
                let a = modifiers64(wave.src64(inst.src[0], lane, Width::F64), inst, 0);
                let e = wave.src32(inst.src[1], lane, Width::B32) as i32;
                let d = output64(ldexp64(a, e), inst);
                wave.set_v64(inst.dst[0], lane, d.to_bits());
            }
        }
        // v_div_scale_f64
        DivScaleF64 => {
            f64_op::<1>(wave, inst, |[a]| a);
            wave.set_mask(inst.dst[1], 0);
        }
        // v_div_fmas_f64
        DivFmasF64 => f64_op::<3>(wave, inst, |[a, b, c]| a.mul_add(b, c)),
        // v_div_fixup_f64
        DivFixupF64 => f64_op::<3>(wave, inst, |[q, d, n]| div_fixup64(q, d, n)),
        // v_add_f16
        AddF16 => f16_op::<2>(wave, inst, chip, |[a, b]| a + b),
        // v_sub_f16
        SubF16 => f16_op::<2>(wave, inst, chip, |[a, b]| a - b),
        // v_subrev_f16
        SubrevF16 => f16_op::<2>(wave, inst, chip, |[a, b]| b - a),
        // v_mul_f16
        MulF16 => f16_op::<2>(wave, inst, chip, |[a, b]| a * b),
        // GFX9's `v_fma_f16` (VOP3 0x206, which came with op_sel) keeps the
        // destination's other half: the CDNA2/CDNA3 guides' V_FMA_F16 ("hi
        // 16 bits are preserved" under op_sel[3] = 0), and LLVM's
        // `GCNSubtarget::zeroesHigh16BitsOfDest`, which lists only GFX8's
        // opcode (GFX9's `v_fma_legacy_f16`) as zeroing there. GFX11's
        // `v_fmac_f16` keeps it as everything there does. Fused: rounded
        // once to f16 (`fma16`; an f32 FMA rounded again to f16 differs at
        // f16 ties, `isa/tests/fma_f16_rounding.rs`), exact back in f32.
        FmaF16 | FmacF16 => f16_op_keeping::<3>(wave, inst, chip, true, |[a, b, c]| {
            f16_to_f32(fma16(a, b, c))
        }),
        // v_min_f16
        MinF16 => f16_op::<2>(wave, inst, chip, |[a, b]| min32(a, b)),
        // v_max_f16
        MaxF16 => f16_op::<2>(wave, inst, chip, |[a, b]| max32(a, b)),
        // v_pk_add_f32
        PkAddF32 => pk_f32::<2>(wave, inst, |[a, b]| a + b),
        // v_pk_mul_f32
        PkMulF32 => pk_f32::<2>(wave, inst, |[a, b]| a * b),
        // v_pk_fma_f32
        PkFmaF32 => pk_f32::<3>(wave, inst, |[a, b, c]| fma32(a, b, c)),
        // v_pk_add_f16
        PkAddF16 => pk_f16::<2>(wave, inst, |[a, b]| a + b),
        // v_pk_mul_f16
        PkMulF16 => pk_f16::<2>(wave, inst, |[a, b]| a * b),
        // Rounded once to f16, as `v_fma_f16`.
        PkFmaF16 => pk_f16::<3>(wave, inst, |[a, b, c]| f16_to_f32(fma16(a, b, c))),
        // v_fma_mix_f32, v_fma_mixlo_f16, v_fma_mixhi_f16
        FmaMixF32 | FmaMixloF16 | FmaMixhiF16 => super::mix::run(wave, inst, op),
        // v_pk_min_f16
        PkMinF16 => pk_f16::<2>(wave, inst, |[a, b]| min32(a, b)),
        // v_pk_max_f16
        PkMaxF16 => pk_f16::<2>(wave, inst, |[a, b]| max32(a, b)),
        // v_pk_add_u16
        PkAddU16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            u16_clamped(i32::from(a) + i32::from(b), clamp)
        }),
        // v_pk_sub_u16
        PkSubU16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            u16_clamped(i32::from(a) - i32::from(b), clamp)
        }),
        // v_pk_add_i16
        PkAddI16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            i16_clamped(i32::from(a as i16) + i32::from(b as i16), clamp)
        }),
        // v_pk_sub_i16
        PkSubI16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            i16_clamped(i32::from(a as i16) - i32::from(b as i16), clamp)
        }),
        // v_pk_mul_lo_u16
        PkMulLoU16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| a.wrapping_mul(b)),
        // v_pk_lshlrev_b16
        PkLshlrevB16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| b << (a & 15)),
        // v_pk_lshrrev_b16
        PkLshrrevB16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| b >> (a & 15)),
        // v_pk_ashrrev_i16
        PkAshrrevI16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            ((b as i16) >> (a & 15)) as u16
        }),
        // v_pk_min_i16
        PkMinI16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            (a as i16).min(b as i16) as u16
        }),
        // v_pk_max_i16
        PkMaxI16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| {
            (a as i16).max(b as i16) as u16
        }),
        // v_pk_min_u16
        PkMinU16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| a.min(b)),
        // v_pk_max_u16
        PkMaxU16 => pk_16::<2>(wave, inst, Width::B32, |_, [a, b]| a.max(b)),
        // v_pack_b32_f16
        PackB32F16 => {
            for lane in lanes(wave) {
                let half = |i: usize| {
                    let raw = wave.src32(inst.src[i], lane, Width::F16);
                    let h = if inst.op_sel >> i & 1 == 1 {
                        raw >> 16
                    } else {
                        raw
                    } as u16;
                    let h = if inst.abs >> i & 1 == 1 {
                        h & 0x7fff
                    } else {
                        h
                    };
                    if inst.neg >> i & 1 == 1 {
                        h ^ 0x8000
                    } else {
                        h
                    }
                };
                let d = u32::from(half(0)) | u32::from(half(1)) << 16;
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
        }
        // v_cvt_i32_f32
        CvtI32F32 => cvt_from_f32(wave, inst, |a| a as i32 as u32),
        // v_cvt_u32_f32
        CvtU32F32 => cvt_from_f32(wave, inst, |a| a as u32),
        // v_cvt_floor_i32_f32, v_cvt_flr_i32_f32
        CvtFlrI32F32 => cvt_from_f32(wave, inst, |a| a.floor() as i32 as u32),
        // v_cvt_nearest_i32_f32, v_cvt_rpi_i32_f32
        CvtRpiI32F32 => cvt_from_f32(wave, inst, |a| (a + 0.5).floor() as i32 as u32),
        // v_cvt_f32_i32
        CvtF32I32 => u32_op::<1>(wave, inst, |[a]| (a as i32 as f32).to_bits()),
        // v_cvt_f32_u32
        CvtF32U32 => u32_op::<1>(wave, inst, |[a]| (a as f32).to_bits()),
        // v_cvt_f16_f32
        CvtF16F32 => {
            for lane in lanes(wave) {
                let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
                let a = if inst.clamp { clamp01(a) } else { a };
                write16(wave, inst, chip, lane, f32_to_f16(a));
            }
        }
        // v_cvt_f32_f16
        CvtF32F16 => {
            for lane in lanes(wave) {
                let raw = wave.src32(inst.src[0], lane, Width::F16);
                let half = if inst.op_sel & 1 == 1 { raw >> 16 } else { raw } as u16;
                let a = modifiers16(half, inst.abs & 1 == 1, inst.neg & 1 == 1);
                wave.set_vreg(inst.dst[0], 0, lane, output32(a, inst).to_bits());
            }
        }
        // v_cvt_f64_f32
        CvtF64F32 => {
            for lane in lanes(wave) {
                let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
                wave.set_v64(inst.dst[0], lane, output64(f64::from(a), inst).to_bits());
            }
        }
        // v_cvt_f32_f64
        CvtF32F64 => {
            for lane in lanes(wave) {
                let a = modifiers64(wave.src64(inst.src[0], lane, Width::F64), inst, 0);
                wave.set_vreg(inst.dst[0], 0, lane, output32(a as f32, inst).to_bits());
            }
        }
        // v_cvt_i32_f64, v_cvt_u32_f64
        CvtI32F64 | CvtU32F64 => {
            for lane in lanes(wave) {
                let a = modifiers64(wave.src64(inst.src[0], lane, Width::F64), inst, 0);
                let d = if op == CvtI32F64 {
                    a as i32 as u32
                } else {
                    a as u32
                };
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
        }
        // v_cvt_f64_i32, v_cvt_f64_u32
        CvtF64I32 | CvtF64U32 => {
            for lane in lanes(wave) {
                let a = wave.src32(inst.src[0], lane, Width::B32);
                let d = if op == CvtF64I32 {
                    f64::from(a as i32)
                } else {
                    f64::from(a)
                };
                wave.set_v64(inst.dst[0], lane, d.to_bits());
            }
        }
        // gfx950's v_cvt_pk_f16_f32, v_cvt_pk_bf16_f32, v_bitop3_b32/_b16
        CvtPkF16F32 | CvtPkBf16F32 | Bitop3B32 | Bitop3B16 | Permlane16Swap | Permlane32Swap => {
            super::gfx950::alu(wave, inst, op, chip)
        }
        ScaledCvt(cvt) => super::scaled_convert::run(wave, inst, cvt),
        // v_cvt_pk_rtz_f16_f32, v_cvt_pkrtz_f16_f32
        CvtPkrtzF16F32 => {
            for lane in lanes(wave) {
                let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
                let b = modifiers32(wave.src32(inst.src[1], lane, Width::B32), inst, 1);
                let d = u32::from(f32_to_f16_rtz(a)) | u32::from(f32_to_f16_rtz(b)) << 16;
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
        }
        // v_cvt_f32_ubyte0, v_cvt_f32_ubyte1, v_cvt_f32_ubyte2, v_cvt_f32_ubyte3
        CvtF32Ubyte(n) => u32_op::<1>(wave, inst, |[a]| f32::from((a >> (8 * n)) as u8).to_bits()),
        // The f16 source is the half `op_sel[0]` picks (GFX11's true16
        // `v1.h`, which register pressure puts a value in), with abs/neg.
        CvtI16F16 | CvtU16F16 => {
            for lane in lanes(wave) {
                let a = half_source(wave, inst, 0, lane);
                let d = if op == CvtI16F16 {
                    a as i16 as u16
                } else {
                    a as u16
                };
                write16(wave, inst, chip, lane, d);
            }
        }
        // v_cvt_u32_u16, v_cvt_i32_i16
        CvtU32U16 | CvtI32I16 => {
            for lane in lanes(wave) {
                let raw = wave.src32(inst.src[0], lane, Width::B32);
                let h = if inst.op_sel & 1 == 1 { raw >> 16 } else { raw } as u16;
                let d = if op == CvtI32I16 {
                    h as i16 as i32 as u32
                } else {
                    u32::from(h)
                };
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
        }
        // The 16-bit integer source is the half `op_sel[0]` picks (true16's
        // `v1.h`); an inline float constant as `int16_width` says.
        CvtF16I16 | CvtF16U16 => {
            for lane in lanes(wave) {
                let raw = wave.src32(inst.src[0], lane, int16_width(chip));
                let a = if inst.op_sel & 1 == 1 { raw >> 16 } else { raw } as u16;
                let f = if op == CvtF16I16 {
                    f32::from(a as i16)
                } else {
                    f32::from(a)
                };
                write16(wave, inst, chip, lane, f32_to_f16(f));
            }
        }
        // v_add_nc_u32, v_add_u32
        AddU32 if clamp => u32_op::<2>(wave, inst, |[a, b]| a.saturating_add(b)),
        // v_sub_nc_u32, v_sub_u32
        SubU32 if clamp => u32_op::<2>(wave, inst, |[a, b]| a.saturating_sub(b)),
        // v_subrev_nc_u32, v_subrev_u32
        SubrevU32 if clamp => u32_op::<2>(wave, inst, |[a, b]| b.saturating_sub(a)),
        // v_add_i32, v_add_nc_i32
        AddI32 if clamp => u32_op::<2>(wave, inst, |[a, b]| {
            (a as i32).saturating_add(b as i32) as u32
        }),
        // v_sub_i32, v_sub_nc_i32
        SubI32 if clamp => u32_op::<2>(wave, inst, |[a, b]| {
            (a as i32).saturating_sub(b as i32) as u32
        }),
        // v_add_nc_u32, v_add_u32, v_add_i32, v_add_nc_i32
        AddU32 | AddI32 => u32_op::<2>(wave, inst, |[a, b]| a.wrapping_add(b)),
        // v_sub_nc_u32, v_sub_u32, v_sub_i32, v_sub_nc_i32
        SubU32 | SubI32 => u32_op::<2>(wave, inst, |[a, b]| a.wrapping_sub(b)),
        // v_subrev_nc_u32, v_subrev_u32
        SubrevU32 => u32_op::<2>(wave, inst, |[a, b]| b.wrapping_sub(a)),
        // v_add_co_u32
        AddCoU32 => carry_op(wave, inst, false, u32::MAX, |a, b, _| {
            let s = a + b;
            (s as u32, s >> 32 != 0)
        }),
        // v_add_co_ci_u32, v_addc_co_u32
        AddcCoU32 => carry_op(wave, inst, true, u32::MAX, |a, b, c| {
            let s = a + b + c;
            (s as u32, s >> 32 != 0)
        }),
        // v_sub_co_u32
        SubCoU32 => carry_op(wave, inst, false, 0, |a, b, _| {
            (a.wrapping_sub(b) as u32, b > a)
        }),
        // v_subrev_co_u32
        SubrevCoU32 => carry_op(wave, inst, false, 0, |a, b, _| {
            (b.wrapping_sub(a) as u32, a > b)
        }),
        // v_sub_co_ci_u32, v_subb_co_u32
        SubbCoU32 => carry_op(wave, inst, true, 0, |a, b, c| {
            (a.wrapping_sub(b).wrapping_sub(c) as u32, b + c > a)
        }),
        // v_subbrev_co_u32, v_subrev_co_ci_u32
        SubbrevCoU32 => carry_op(wave, inst, true, 0, |a, b, c| {
            (b.wrapping_sub(a).wrapping_sub(c) as u32, a + c > b)
        }),
        // v_mul_lo_u32
        MulLoU32 => u32_op::<2>(wave, inst, |[a, b]| a.wrapping_mul(b)),
        // v_mul_hi_u32
        MulHiU32 => u32_op::<2>(wave, inst, |[a, b]| {
            ((u64::from(a) * u64::from(b)) >> 32) as u32
        }),
        // v_mul_hi_i32
        MulHiI32 => u32_op::<2>(wave, inst, |[a, b]| {
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
        }),
        // v_mul_u32_u24
        MulU32U24 => u32_op::<2>(wave, inst, |[a, b]| {
            (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
        }),
        // v_mul_i32_i24
        MulI32I24 => u32_op::<2>(wave, inst, |[a, b]| (i24(a).wrapping_mul(i24(b))) as u32),
        // v_mul_hi_u32_u24
        MulHiU32U24 => u32_op::<2>(wave, inst, |[a, b]| {
            ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32
        }),
        // v_mul_hi_i32_i24
        MulHiI32I24 => u32_op::<2>(wave, inst, |[a, b]| {
            ((i64::from(i24(a)) * i64::from(i24(b))) >> 32) as u32
        }),
        // v_mad_u32_u24
        MadU32U24 => u32_op::<3>(wave, inst, |[a, b, c]| {
            let exact = i128::from(a & 0xff_ffff) * i128::from(b & 0xff_ffff) + i128::from(c);
            saturate::unsigned(exact, 32, clamp) as u32
        }),
        // v_mad_i32_i24
        MadI32I24 => u32_op::<3>(wave, inst, |[a, b, c]| {
            let exact = i128::from(i24(a)) * i128::from(i24(b)) + i128::from(c as i32);
            saturate::signed(exact, 32, clamp) as u32
        }),
        // v_mad_u64_u32, v_mad_i64_i32
        MadU64U32 | MadI64I32 => {
            let mut carry = 0u64;
            for lane in lanes(wave) {
                let a = wave.src32(inst.src[0], lane, Width::B32);
                let b = wave.src32(inst.src[1], lane, Width::B32);
                let c = wave.src64(inst.src[2], lane, Width::B64);
                let (d, overflow) = if op == MadU64U32 {
                    let product = u64::from(a) * u64::from(b);
                    let (_, o) = product.overflowing_add(c);
                    let exact = i128::from(product) + i128::from(c);
                    (saturate::unsigned(exact, 64, clamp), o)
                } else {
                    let product = i64::from(a as i32) * i64::from(b as i32);
                    let (_, o) = product.overflowing_add(c as i64);
                    let exact = i128::from(product) + i128::from(c as i64);
                    (saturate::signed(exact, 64, clamp), o)
                };
                wave.set_v64(inst.dst[0], lane, d);
                if overflow {
                    carry |= 1 << lane;
                }
            }
            wave.set_mask(inst.dst[1], carry);
        }
        // v_lshlrev_b32
        LshlrevB32 => u32_op::<2>(wave, inst, |[a, b]| b << (a & 31)),
        // v_lshrrev_b32
        LshrrevB32 => u32_op::<2>(wave, inst, |[a, b]| b >> (a & 31)),
        // v_ashrrev_i32
        AshrrevI32 => u32_op::<2>(wave, inst, |[a, b]| ((b as i32) >> (a & 31)) as u32),
        // v_and_b32
        AndB32 => u32_op::<2>(wave, inst, |[a, b]| a & b),
        // v_or_b32
        OrB32 => u32_op::<2>(wave, inst, |[a, b]| a | b),
        // v_xor_b32
        XorB32 => u32_op::<2>(wave, inst, |[a, b]| a ^ b),
        // v_xnor_b32
        XnorB32 => u32_op::<2>(wave, inst, |[a, b]| !(a ^ b)),
        // v_not_b32
        NotB32 => u32_op::<1>(wave, inst, |[a]| !a),
        // v_bfe_u32
        BfeU32 => u32_op::<3>(wave, inst, |[a, o, w]| bitfield(a, o & 31, w & 31, false)),
        // v_bfe_i32
        BfeI32 => u32_op::<3>(wave, inst, |[a, o, w]| bitfield(a, o & 31, w & 31, true)),
        // v_bfi_b32
        BfiB32 => u32_op::<3>(wave, inst, |[m, a, b]| (m & a) | (!m & b)),
        // v_bfm_b32
        BfmB32 => u32_op::<2>(wave, inst, |[w, o]| {
            let w = w & 31;
            (if w == 0 { 0 } else { u32::MAX >> (32 - w) }) << (o & 31)
        }),
        // v_lshl_add_u32
        LshlAddU32 => u32_op::<3>(wave, inst, |[a, s, c]| (a << (s & 31)).wrapping_add(c)),
        // v_lshl_or_b32
        LshlOrB32 => u32_op::<3>(wave, inst, |[a, s, c]| (a << (s & 31)) | c),
        // v_add_lshl_u32
        AddLshlU32 => u32_op::<3>(wave, inst, |[a, b, s]| a.wrapping_add(b) << (s & 31)),
        // v_and_or_b32
        AndOrB32 => u32_op::<3>(wave, inst, |[a, b, c]| (a & b) | c),
        // v_or3_b32
        Or3B32 => u32_op::<3>(wave, inst, |[a, b, c]| a | b | c),
        // v_xor3_b32
        Xor3B32 => u32_op::<3>(wave, inst, |[a, b, c]| a ^ b ^ c),
        // v_add3_u32
        Add3U32 => u32_op::<3>(wave, inst, |[a, b, c]| a.wrapping_add(b).wrapping_add(c)),
        // v_xad_u32
        XadU32 => u32_op::<3>(wave, inst, |[a, b, c]| (a ^ b).wrapping_add(c)),
        // v_min_i32
        MinI32 => u32_op::<2>(wave, inst, |[a, b]| (a as i32).min(b as i32) as u32),
        // v_max_i32
        MaxI32 => u32_op::<2>(wave, inst, |[a, b]| (a as i32).max(b as i32) as u32),
        // v_min_u32
        MinU32 => u32_op::<2>(wave, inst, |[a, b]| a.min(b)),
        // v_max_u32
        MaxU32 => u32_op::<2>(wave, inst, |[a, b]| a.max(b)),
        // v_min3_i32
        Min3I32 => u32_op::<3>(wave, inst, |[a, b, c]| {
            (a as i32).min(b as i32).min(c as i32) as u32
        }),
        // v_max3_i32
        Max3I32 => u32_op::<3>(wave, inst, |[a, b, c]| {
            (a as i32).max(b as i32).max(c as i32) as u32
        }),
        // v_med3_i32
        Med3I32 => u32_op::<3>(wave, inst, |[a, b, c]| {
            let (a, b, c) = (a as i32, b as i32, c as i32);
            a.max(b).min(a.min(b).max(c)) as u32
        }),
        // v_min3_u32
        Min3U32 => u32_op::<3>(wave, inst, |[a, b, c]| a.min(b).min(c)),
        // v_max3_u32
        Max3U32 => u32_op::<3>(wave, inst, |[a, b, c]| a.max(b).max(c)),
        // v_med3_u32
        Med3U32 => u32_op::<3>(wave, inst, |[a, b, c]| a.max(b).min(a.min(b).max(c))),
        // v_maxmin_i32
        MaxminI32 => u32_op::<3>(wave, inst, |[a, b, c]| {
            (a as i32).max(b as i32).min(c as i32) as u32
        }),
        // v_minmax_i32
        MinmaxI32 => u32_op::<3>(wave, inst, |[a, b, c]| {
            (a as i32).min(b as i32).max(c as i32) as u32
        }),
        // v_maxmin_u32
        MaxminU32 => u32_op::<3>(wave, inst, |[a, b, c]| a.max(b).min(c)),
        // v_minmax_u32
        MinmaxU32 => u32_op::<3>(wave, inst, |[a, b, c]| a.min(b).max(c)),
        // v_maxmin_f32
        MaxminF32 => f32_op::<3>(wave, inst, |[a, b, c]| min32(max32(a, b), c)),
        // v_minmax_f32
        MinmaxF32 => f32_op::<3>(wave, inst, |[a, b, c]| max32(min32(a, b), c)),
        // v_maxmin_f16
        MaxminF16 => f16_op::<3>(wave, inst, chip, |[a, b, c]| min32(max32(a, b), c)),
        // v_minmax_f16
        MinmaxF16 => f16_op::<3>(wave, inst, chip, |[a, b, c]| max32(min32(a, b), c)),
        // v_alignbit_b32
        AlignbitB32 => u32_op::<3>(wave, inst, |[a, b, s]| {
            ((u64::from(a) << 32 | u64::from(b)) >> (s & 31)) as u32
        }),
        // v_alignbyte_b32
        AlignbyteB32 => u32_op::<3>(wave, inst, |[a, b, s]| {
            ((u64::from(a) << 32 | u64::from(b)) >> (8 * (s & 3))) as u32
        }),
        // v_perm_b32
        PermB32 => u32_op::<3>(wave, inst, |[a, b, sel]| perm(a, b, sel)),
        // v_bcnt_u32_b32
        BcntU32 => u32_op::<2>(wave, inst, |[a, b]| a.count_ones().wrapping_add(b)),
        // v_mbcnt_hi_u32_b32, v_mbcnt_lo_u32_b32
        Mbcnt(high) => mbcnt(wave, inst, high),
        // v_clz_i32_u32, v_ffbh_u32
        FfbhU32 => u32_op::<1>(wave, inst, |[a]| {
            if a == 0 { u32::MAX } else { a.leading_zeros() }
        }),
        // v_ctz_i32_b32, v_ffbl_b32
        FfblB32 => u32_op::<1>(wave, inst, |[a]| {
            if a == 0 { u32::MAX } else { a.trailing_zeros() }
        }),
        // v_cls_i32, v_ffbh_i32
        FfbhI32 => u32_op::<1>(wave, inst, |[a]| {
            let a = a as i32;
            if a == 0 || a == -1 {
                u32::MAX
            } else {
                (if a < 0 { !a } else { a }).leading_zeros()
            }
        }),
        // v_bfrev_b32
        BfrevB32 => u32_op::<1>(wave, inst, |[a]| a.reverse_bits()),
        // v_mov_b16
        MovB16 => u16_op(wave, inst, chip, |a, _| a),
        // v_not_b16
        NotB16 => u16_op(wave, inst, chip, |a, _| !a),
        // v_and_b16
        AndB16 => u16_op(wave, inst, chip, |a, b| a & b),
        // v_or_b16
        OrB16 => u16_op(wave, inst, chip, |a, b| a | b),
        // v_xor_b16
        XorB16 => u16_op(wave, inst, chip, |a, b| a ^ b),
        // v_add_nc_u16, v_add_u16
        AddU16 => u16_op(wave, inst, chip, |a, b| {
            u16_clamped(i32::from(a) + i32::from(b), clamp)
        }),
        // v_sub_nc_u16, v_sub_u16
        SubU16 => u16_op(wave, inst, chip, |a, b| {
            u16_clamped(i32::from(a) - i32::from(b), clamp)
        }),
        // v_subrev_u16
        SubrevU16 => u16_op(wave, inst, chip, |a, b| {
            u16_clamped(i32::from(b) - i32::from(a), clamp)
        }),
        // v_add_i16, v_add_nc_i16
        AddI16 => u16_op(wave, inst, chip, |a, b| {
            i16_clamped(i32::from(a as i16) + i32::from(b as i16), clamp)
        }),
        // v_sub_i16, v_sub_nc_i16
        SubI16 => u16_op(wave, inst, chip, |a, b| {
            i16_clamped(i32::from(a as i16) - i32::from(b as i16), clamp)
        }),
        // v_mul_lo_u16
        MulLoU16 => u16_op(wave, inst, chip, |a, b| a.wrapping_mul(b)),
        // v_lshlrev_b16
        LshlrevB16 => u16_op(wave, inst, chip, |a, b| b << (a & 15)),
        // v_lshrrev_b16
        LshrrevB16 => u16_op(wave, inst, chip, |a, b| b >> (a & 15)),
        // v_ashrrev_i16
        AshrrevI16 => u16_op(wave, inst, chip, |a, b| ((b as i16) >> (a & 15)) as u16),
        // v_min_i16
        MinI16 => u16_op(wave, inst, chip, |a, b| (a as i16).min(b as i16) as u16),
        // v_max_i16
        MaxI16 => u16_op(wave, inst, chip, |a, b| (a as i16).max(b as i16) as u16),
        // v_min_u16
        MinU16 => u16_op(wave, inst, chip, |a, b| a.min(b)),
        // v_max_u16
        MaxU16 => u16_op(wave, inst, chip, |a, b| a.max(b)),
        // v_mad_u16, v_mad_i16, v_mad_legacy_u16, v_mad_legacy_i16, v_mad_u32_u16, v_mad_i32_i16
        // v_min3_u16, v_min3_i16, v_min3_f16, v_max3_u16, v_max3_i16, v_max3_f16, v_med3_u16
        // v_med3_i16, v_med3_f16, v_div_fixup_f16, v_div_fixup_legacy_f16, v_pk_fmac_f16
        // v_pk_mad_u16, v_pk_mad_i16, v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8
        MadU16 | MadI16 | MadLegacyU16 | MadLegacyI16 | MadU32U16 | MadI32I16 | Min3U16
        // v_min3_i16, v_min3_f16, v_max3_u16, v_max3_i16, v_max3_f16, v_med3_u16, v_med3_i16
        // v_med3_f16, v_div_fixup_f16, v_div_fixup_legacy_f16, v_pk_fmac_f16, v_pk_mad_u16
        // v_pk_mad_i16, v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8
        | Min3I16 | Min3F16 | Max3U16 | Max3I16 | Max3F16 | Med3U16 | Med3I16 | Med3F16
        // v_div_fixup_f16, v_div_fixup_legacy_f16, v_pk_fmac_f16, v_pk_mad_u16, v_pk_mad_i16
        // v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8
        | DivFixupF16 | DivFixupLegacyF16 | PkFmacF16 | PkMadU16 | PkMadI16 | SadU8 | SadHiU8
        // v_sad_u16, v_sad_u32, v_msad_u8
        | SadU16 | SadU32 | MsadU8 => super::sixteen::run(wave, inst, op, chip),
        // v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64
        LshlrevB64 | LshrrevB64 | AshrrevI64 => {
            for lane in lanes(wave) {
                let s = wave.src32(inst.src[0], lane, Width::B32) & 63;
                let v = wave.src64(inst.src[1], lane, Width::B64);
                let d = match op {
                    LshlrevB64 => v << s,
                    LshrrevB64 => v >> s,
                    _ => ((v as i64) >> s) as u64,
                };
                wave.set_v64(inst.dst[0], lane, d);
            }
        }
        // v_lshl_add_u64
        LshlAddU64 => {
            for lane in lanes(wave) {
                let a = wave.src64(inst.src[0], lane, Width::B64);
                let s = wave.src32(inst.src[1], lane, Width::B32) & 7;
                let c = wave.src64(inst.src[2], lane, Width::B64);
                wave.set_v64(inst.dst[0], lane, (a << s).wrapping_add(c));
            }
        }
        // v_readlane_b32
        Readlane => {
            let lane = (wave.scalar32(inst.src[1], Width::B32) as usize) % wave.lanes;
            let v = wave.src32(inst.src[0], lane, Width::B32);
            wave.set_scalar32(inst.dst[0], v);
        }
        // v_readfirstlane_b32
        Readfirstlane => {
            let exec = wave.exec();
            let lane = if exec == 0 {
                0
            } else {
                exec.trailing_zeros() as usize
            };
            let v = wave.src32(inst.src[0], lane, Width::B32);
            wave.set_scalar32(inst.dst[0], v);
        }
        // v_writelane_b32
        Writelane => {
            let v = wave.scalar32(inst.src[0], Width::B32);
            let lane = (wave.scalar32(inst.src[1], Width::B32) as usize) % wave.lanes;
            wave.set_vreg(inst.dst[0], 0, lane, v);
        }
        // v_permlanex16_b32, v_permlane16_b32
        Permlanex16 | Permlane16 => {
            let select = u64::from(wave.scalar32(inst.src[1], Width::B32))
                | u64::from(wave.scalar32(inst.src[2], Width::B32)) << 32;
            let source: Vec<u32> = (0..wave.lanes)
                .map(|l| wave.src32(inst.src[0], l, Width::B32))
                .collect();
            for lane in lanes(wave) {
                let within = lane % 16;
                let pick = (select >> (4 * within) & 15) as usize;
                let row = lane / 16;
                let from_row = if op == Permlanex16 { row ^ 1 } else { row };
                let from = from_row * 16 + pick;
                if let Some(&v) = source.get(from) {
                    wave.set_vreg(inst.dst[0], 0, lane, v);
                }
            }
        }
    }
    Ok(())
}

/// An exact 16-bit unsigned sum or difference, saturated under `clamp`.
fn u16_clamped(exact: i32, clamp: bool) -> u16 {
    saturate::unsigned(i128::from(exact), 16, clamp) as u16
}

/// An exact 16-bit signed sum or difference, saturated under `clamp`.
fn i16_clamped(exact: i32, clamp: bool) -> u16 {
    saturate::signed(i128::from(exact), 16, clamp) as u16
}

fn i24(a: u32) -> i32 {
    ((a << 8) as i32) >> 8
}

fn cvt_from_f32(wave: &mut Wave, inst: &Inst, f: impl Fn(f32) -> u32) {
    for lane in lanes(wave) {
        let a = modifiers32(wave.src32(inst.src[0], lane, Width::B32), inst, 0);
        wave.set_vreg(inst.dst[0], 0, lane, f(a));
    }
}

/// f32 to f16 rounding toward zero (`v_cvt_pkrtz_f16_f32`).
pub(crate) fn f32_to_f16_rtz(f: f32) -> u16 {
    let nearest = f32_to_f16(f);
    if f.is_nan() || f.is_infinite() {
        return nearest;
    }
    let back = f16_to_f32(nearest);
    if back.abs() > f.abs() {
        if nearest & 0x7fff == 0x7c00 {
            return (nearest & 0x8000) | 0x7bff;
        }
        nearest - 1
    } else {
        nearest
    }
}

/// `v_perm_b32`: each selector byte picks a byte of `{a, b}` or a constant.
fn perm(a: u32, b: u32, sel: u32) -> u32 {
    let bytes = (u64::from(a) << 32 | u64::from(b)).to_le_bytes();
    let mut out = 0u32;
    for i in 0..4 {
        let s = (sel >> (8 * i)) & 0xff;
        let byte = match s {
            0..=7 => u32::from(bytes.get(s as usize).copied().unwrap_or(0)),
            8..=11 => {
                // Sign of the 16-bit word: replicate bit 15 or 31 of a/b.
                let word = (u64::from(a) << 32 | u64::from(b)) >> (16 * (s - 8) + 15) & 1;
                if word == 1 { 0xff } else { 0 }
            }
            12 => 0,
            _ => 0xff,
        };
        out |= byte << (8 * i);
    }
    out
}
