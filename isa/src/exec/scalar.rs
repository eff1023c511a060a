//! Scalar ALU, compares and memory loads: one value for the whole wave.

use crate::exec::error::ExecError;
use crate::exec::float::{f16_to_f32, fma32, max32, maximum32, min32, minimum32};
use crate::exec::scalar_half;
use crate::inst::{EXEC, Inst, Operand, flags};
use crate::memory::Segments;
use crate::op::{Cmp, Salu, Ty};
use crate::wave::{Wave, Width};

pub(crate) fn alu(wave: &mut Wave, inst: &Inst, op: Salu, wide: bool) {
    if wide {
        alu64(wave, inst, op);
    } else {
        alu32(wave, inst, op);
    }
}

fn alu32(wave: &mut Wave, inst: &Inst, op: Salu) {
    use Salu::*;
    let a = wave.scalar32(inst.src[0], Width::B32);
    let b = wave.scalar32(inst.src[1], Width::B32);
    let scc = wave.scc;
    let (d, new_scc): (u32, Option<bool>) = match op {
        // s_mov_b32, s_movk_i32
        Mov => (a, None),
        // s_cmov_b32, s_cmovk_i32
        Cmov => {
            if scc {
                wave.set_scalar32(inst.dst[0], a);
            }
            return;
        }
        // s_not_b32
        Not => (!a, Some(!a != 0)),
        // s_add_u32
        AddU32 => {
            let (d, c) = a.overflowing_add(b);
            (d, Some(c))
        }
        // s_sub_u32
        SubU32 => (a.wrapping_sub(b), Some(b > a)),
        // s_addc_u32
        AddcU32 => {
            let wide = u64::from(a) + u64::from(b) + u64::from(scc);
            (wide as u32, Some(wide >> 32 != 0))
        }
        // s_subb_u32
        SubbU32 => {
            let need = u64::from(b) + u64::from(scc);
            (
                a.wrapping_sub(b).wrapping_sub(u32::from(scc)),
                Some(need > u64::from(a)),
            )
        }
        // s_add_i32, s_addk_i32
        AddI32 => {
            let (d, o) = (a as i32).overflowing_add(b as i32);
            (d as u32, Some(o))
        }
        // s_sub_i32
        SubI32 => {
            let (d, o) = (a as i32).overflowing_sub(b as i32);
            (d as u32, Some(o))
        }
        // s_mul_i32, s_mulk_i32
        MulI32 => ((a as i32).wrapping_mul(b as i32) as u32, None),
        // s_mul_hi_u32
        MulHiU32 => (((u64::from(a) * u64::from(b)) >> 32) as u32, None),
        // s_mul_hi_i32
        MulHiI32 => (
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
            None,
        ),
        // s_and_b32
        And => nz(a & b),
        // s_or_b32
        Or => nz(a | b),
        // s_xor_b32
        Xor => nz(a ^ b),
        // s_and_not1_b32, s_andn2_b32
        AndNot => nz(a & !b),
        // s_or_not1_b32, s_orn2_b32
        OrNot => nz(a | !b),
        // s_nand_b32
        Nand => nz(!(a & b)),
        // s_nor_b32
        Nor => nz(!(a | b)),
        // s_xnor_b32
        Xnor => nz(!(a ^ b)),
        // s_lshl_b32
        Lshl => nz(a << (b & 31)),
        // s_lshr_b32
        Lshr => nz(a >> (b & 31)),
        // s_ashr_i32
        Ashr => nz(((a as i32) >> (b & 31)) as u32),
        // s_bfe_u32
        BfeU => nz(bfe32(a, b, false)),
        // s_bfe_i32
        BfeI => nz(bfe32(a, b, true)),
        // s_bfm_b32
        Bfm => (mask32(a & 31) << (b & 31), None),
        // s_min_i32
        MinI32 => (
            (a as i32).min(b as i32) as u32,
            Some((a as i32) < (b as i32)),
        ),
        // s_min_u32
        MinU32 => (a.min(b), Some(a < b)),
        // s_max_i32
        MaxI32 => (
            (a as i32).max(b as i32) as u32,
            Some((a as i32) > (b as i32)),
        ),
        // s_max_u32
        MaxU32 => (a.max(b), Some(a > b)),
        // s_cselect_b32
        Cselect => (if scc { a } else { b }, None),
        // s_abs_i32
        AbsI32 => nz((a as i32).unsigned_abs()),
        // s_absdiff_i32
        Absdiff => nz((a as i32).abs_diff(b as i32)),
        // s_sext_i32_i8
        SextI8 => (a as u8 as i8 as i32 as u32, None),
        // s_sext_i32_i16
        SextI16 => (a as u16 as i16 as i32 as u32, None),
        // s_and_saveexec_b32, s_or_saveexec_b32, s_xor_saveexec_b32, s_and_not1_saveexec_b32
        // s_or_not1_saveexec_b32
        AndSaveexec | OrSaveexec | XorSaveexec | AndNotSaveexec | OrNotSaveexec => {
            let old = wave.sreg(EXEC as usize);
            let exec = saveexec(op, u64::from(a), u64::from(old)) as u32;
            wave.set_sreg(EXEC as usize, exec);
            wave.set_scalar32(inst.dst[0], old);
            wave.scc = exec != 0;
            return;
        }
        // s_lshl1_add_u32, s_lshl2_add_u32, s_lshl3_add_u32, s_lshl4_add_u32
        LshlAdd(n) => {
            let shifted = u64::from(a) << n;
            let sum = shifted + u64::from(b);
            (sum as u32, Some(sum >> 32 != 0))
        }
        // s_brev_b32
        Brev => (a.reverse_bits(), None),
        // s_bitset0_b32, s_bitset1_b32
        Bitset(one) => {
            let old = wave.scalar32(inst.dst[0], Width::B32);
            let bit = 1u32 << (a & 31);
            (if one { old | bit } else { old & !bit }, None)
        }
        // s_bcnt1_i32_b32
        Bcnt1 => nz(a.count_ones()),
        // s_ctz_i32_b32, s_ff1_i32_b32
        Ff1 => (if a == 0 { u32::MAX } else { a.trailing_zeros() }, None),
        // s_clz_i32_u32, s_flbit_i32_b32
        Flbit => (if a == 0 { u32::MAX } else { a.leading_zeros() }, None),
        // s_cls_i32, s_flbit_i32
        Cls => (cls(i64::from(a as i32), 32), None),
        // s_pack_ll_b32_b16
        PackLl => ((a & 0xffff) | (b << 16), None),
        // s_pack_lh_b32_b16
        PackLh => ((a & 0xffff) | (b & 0xffff_0000), None),
        // s_pack_hh_b32_b16
        PackHh => ((a >> 16) | (b & 0xffff_0000), None),
        // The 64-bit operations have no 32-bit form; read as one, they
        // compute on the low halves.
        AddNcU64 => (a.wrapping_add(b), None),
        SubNcU64 => (a.wrapping_sub(b), None),
        MulU64 => (a.wrapping_mul(b), None),
        // s_add_f32, s_sub_f32, s_mul_f32, s_min_num_f32, s_max_num_f32
        AddF32 => ((f32::from_bits(a) + f32::from_bits(b)).to_bits(), None),
        SubF32 => ((f32::from_bits(a) - f32::from_bits(b)).to_bits(), None),
        MulF32 => ((f32::from_bits(a) * f32::from_bits(b)).to_bits(), None),
        MinNumF32 => (min32(f32::from_bits(a), f32::from_bits(b)).to_bits(), None),
        MaxNumF32 => (max32(f32::from_bits(a), f32::from_bits(b)).to_bits(), None),
        // s_fmac_f32
        FmacF32 => {
            let d = f32::from_bits(wave.scalar32(inst.dst[0], Width::B32));
            (
                f32::from_bits(a).mul_add(f32::from_bits(b), d).to_bits(),
                None,
            )
        }
        // s_cvt_f32_i32, s_cvt_f32_u32, s_cvt_i32_f32, s_cvt_u32_f32
        // (Rust's casts: nearest even to f32; toward zero, saturating,
        // NaN 0 from it)
        CvtF32I32 => ((a as i32 as f32).to_bits(), None),
        CvtF32U32 => ((a as f32).to_bits(), None),
        CvtI32F32 => (f32::from_bits(a) as i32 as u32, None),
        CvtU32F32 => (f32::from_bits(a) as u32, None),
        // s_trunc_f32, s_floor_f32, s_ceil_f32, s_rndne_f32
        TruncF32 => (f32::from_bits(a).trunc().to_bits(), None),
        FloorF32 => (f32::from_bits(a).floor().to_bits(), None),
        CeilF32 => (f32::from_bits(a).ceil().to_bits(), None),
        RndneF32 => (f32::from_bits(a).round_ties_even().to_bits(), None),
        // v_s_rcp_f32, v_s_rsq_f32, v_s_sqrt_f32, v_s_exp_f32, v_s_log_f32
        // (as `exec::vector` computes their per-lane forms)
        RcpF32 => ((1.0 / f32::from_bits(a)).to_bits(), None),
        RsqF32 => ((1.0 / f32::from_bits(a).sqrt()).to_bits(), None),
        SqrtF32 => (f32::from_bits(a).sqrt().to_bits(), None),
        ExpF32 => (f32::from_bits(a).exp2().to_bits(), None),
        LogF32 => (f32::from_bits(a).log2().to_bits(), None),
        // s_fmaak_f32, s_fmamk_f32: K is source 2 (as `v_fmaak_f32`).
        FmaakF32 | FmamkF32 => {
            let k = f32::from_bits(wave.scalar32(inst.src[2], Width::B32));
            let (a, b) = (f32::from_bits(a), f32::from_bits(b));
            let d = if op == FmaakF32 {
                fma32(a, b, k)
            } else {
                fma32(a, k, b)
            };
            (d.to_bits(), None)
        }
        // s_minimum_f32, s_maximum_f32
        MinimumF32 => (
            minimum32(f32::from_bits(a), f32::from_bits(b)).to_bits(),
            None,
        ),
        MaximumF32 => (
            maximum32(f32::from_bits(a), f32::from_bits(b)).to_bits(),
            None,
        ),
        // s_pack_hl_b32_b16
        PackHl => ((a >> 16) | (b << 16), None),
        // The f16 forms and conversions (`exec::scalar_half`).
        AddF16 | SubF16 | MulF16 | FmacF16 | MinNumF16 | MaxNumF16 | MinimumF16 | MaximumF16
        | CvtF16F32 | CvtF32F16 | CvtHiF32F16 | CvtPkRtzF16F32 | CeilF16 | FloorF16 | TruncF16
        | RndneF16 | RcpF16 | RsqF16 | SqrtF16 | ExpF16 | LogF16 => {
            (scalar_half::alu(wave, inst, op).unwrap_or_default(), None)
        }
        // Run by `exec::relative` (they can fault), never here.
        Movrels | Movreld | Movrelsd2 => return,
    };
    wave.set_scalar32(inst.dst[0], d);
    if let Some(c) = new_scc {
        wave.scc = c;
    }
}

fn alu64(wave: &mut Wave, inst: &Inst, op: Salu) {
    use Salu::*;
    let a = wave.scalar64(inst.src[0], Width::B64);
    let b64 = wave.scalar64(inst.src[1], Width::B64);
    let b = b64 as u32;
    let scc = wave.scc;
    let nz64 = |v: u64| (v, Some(v != 0));
    let (d, new_scc): (u64, Option<bool>) = match op {
        // s_mov_b64
        Mov => (a, None),
        // s_cmov_b64
        Cmov => {
            if scc {
                wave.set_scalar64(inst.dst[0], a);
            }
            return;
        }
        // s_not_b64
        Not => nz64(!a),
        // s_and_b64
        And => nz64(a & b64),
        // s_or_b64
        Or => nz64(a | b64),
        // s_xor_b64
        Xor => nz64(a ^ b64),
        // s_and_not1_b64, s_andn2_b64
        AndNot => nz64(a & !b64),
        // s_or_not1_b64, s_orn2_b64
        OrNot => nz64(a | !b64),
        // s_nand_b64
        Nand => nz64(!(a & b64)),
        // s_nor_b64
        Nor => nz64(!(a | b64)),
        // s_xnor_b64
        Xnor => nz64(!(a ^ b64)),
        // s_lshl_b64
        Lshl => nz64(a << (b & 63)),
        // s_lshr_b64
        Lshr => nz64(a >> (b & 63)),
        // s_ashr_i64
        Ashr => nz64(((a as i64) >> (b & 63)) as u64),
        // s_bfe_u64, s_bfe_i64
        BfeU | BfeI => {
            let offset = b & 63;
            let width = (b >> 16) & 0x7f;
            let v = if width == 0 {
                0
            } else {
                let shifted = a >> offset;
                let field = if width >= 64 {
                    shifted
                } else {
                    shifted & ((1u64 << width) - 1)
                };
                if op == BfeI && width < 64 && field >> (width - 1) & 1 == 1 {
                    field | !((1u64 << width) - 1)
                } else {
                    field
                }
            };
            nz64(v)
        }
        // s_bfm_b64
        Bfm => {
            let width = (a as u32) & 63;
            let m = if width == 0 {
                0
            } else {
                u64::MAX >> (64 - width)
            };
            (m << (b & 63), None)
        }
        // s_cselect_b64
        Cselect => (if scc { a } else { b64 }, None),
        // s_add_nc_u64, s_sub_nc_u64, s_mul_u64
        AddNcU64 => (a.wrapping_add(b64), None),
        SubNcU64 => (a.wrapping_sub(b64), None),
        MulU64 => (a.wrapping_mul(b64), None),
        // s_and_saveexec_b64, s_or_saveexec_b64, s_xor_saveexec_b64, s_and_not1_saveexec_b64
        // s_andn2_saveexec_b64, s_or_not1_saveexec_b64, s_orn2_saveexec_b64
        AndSaveexec | OrSaveexec | XorSaveexec | AndNotSaveexec | OrNotSaveexec => {
            let old = wave.scalar64(Operand::Sreg(EXEC), Width::B64);
            let exec = saveexec(op, a, old);
            wave.set_scalar64(Operand::Sreg(EXEC), exec);
            wave.set_scalar64(inst.dst[0], old);
            wave.scc = exec & wave.lane_mask() != 0;
            return;
        }
        // s_brev_b64
        Brev => (a.reverse_bits(), None),
        // s_bitset0_b64, s_bitset1_b64
        Bitset(one) => {
            let old = wave.scalar64(inst.dst[0], Width::B64);
            let bit = 1u64 << (a & 63);
            (if one { old | bit } else { old & !bit }, None)
        }
        // s_bcnt1_i32_b64
        Bcnt1 => {
            let n = a.count_ones();
            wave.set_scalar32(inst.dst[0], n);
            wave.scc = n != 0;
            return;
        }
        // s_ctz_i32_b64, s_ff1_i32_b64
        Ff1 => {
            let n = if a == 0 { u32::MAX } else { a.trailing_zeros() };
            wave.set_scalar32(inst.dst[0], n);
            return;
        }
        // `s_flbit_i32_b64`/`s_clz_i32_u64` and `s_flbit_i32_i64`/
        // `s_cls_i32_i64`: a 32-bit count of a 64-bit source, SCC kept.
        Flbit => {
            let n = if a == 0 { u32::MAX } else { a.leading_zeros() };
            wave.set_scalar32(inst.dst[0], n);
            return;
        }
        // s_cls_i32_i64, s_flbit_i32_i64
        Cls => {
            wave.set_scalar32(inst.dst[0], cls(a as i64, 64));
            return;
        }
        // No 64-bit forms of the rest exist; treat them as their 32-bit form.
        _ => {
            alu32(wave, inst, op);
            return;
        }
    };
    wave.set_scalar64(inst.dst[0], d);
    if let Some(c) = new_scc {
        wave.scc = c;
    }
}

fn saveexec(op: Salu, a: u64, exec: u64) -> u64 {
    match op {
        Salu::AndSaveexec => a & exec,
        Salu::OrSaveexec => a | exec,
        Salu::XorSaveexec => a ^ exec,
        Salu::AndNotSaveexec => a & !exec,
        _ => a | !exec,
    }
}

/// `s_cls_i32` (GFX9: `s_flbit_i32`) and its 64-bit form: the position,
/// counted from the top bit as 0, of the first bit that differs from the
/// sign bit; -1 (all ones) when none does (0 and -1); `a` is the
/// `bits`-bit source sign-extended. RDNA3 ISA guide, S_CLS_I32: "D0.i32 =
/// -1; for i in 1 : 31 do if S0.u32[31 - i] != S0.u32[31] then D0.i32 = i".
fn cls(a: i64, bits: u32) -> u32 {
    if a == 0 || a == -1 {
        u32::MAX
    } else {
        (if a < 0 { !a } else { a }).leading_zeros() - (64 - bits)
    }
}

fn nz(v: u32) -> (u32, Option<bool>) {
    (v, Some(v != 0))
}

fn mask32(width: u32) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    }
}

/// `s_bfe`/`v_bfe`'s field: offset in `spec[4:0]`, width in `spec[22:16]`.
fn bfe32(a: u32, spec: u32, signed: bool) -> u32 {
    let offset = spec & 31;
    let width = (spec >> 16) & 0x7f;
    crate::exec::vector::bitfield(a, offset, width, signed)
}

pub(crate) fn compare(wave: &mut Wave, inst: &Inst, cmp: Cmp, ty: Ty) {
    wave.scc = match ty {
        Ty::U64 | Ty::I64 => {
            let a = wave.scalar64(inst.src[0], Width::B64);
            let b = wave.scalar64(inst.src[1], Width::B64);
            crate::exec::compare::integer(cmp, a, b, ty == Ty::I64)
        }
        // GFX12's `s_cmp_*_f32` and `s_cmp_*_f16`: as `v_cmp_*` compares.
        Ty::F32 => {
            let a = f32::from_bits(wave.scalar32(inst.src[0], Width::B32));
            let b = f32::from_bits(wave.scalar32(inst.src[1], Width::B32));
            crate::exec::compare::float(cmp, f64::from(a), f64::from(b))
        }
        Ty::F16 => {
            let a = f16_to_f32(wave.scalar32(inst.src[0], Width::F16) as u16);
            let b = f16_to_f32(wave.scalar32(inst.src[1], Width::F16) as u16);
            crate::exec::compare::float(cmp, f64::from(a), f64::from(b))
        }
        _ => {
            let a = wave.scalar32(inst.src[0], Width::B32);
            let b = wave.scalar32(inst.src[1], Width::B32);
            if ty == Ty::I32 {
                crate::exec::compare::integer(
                    cmp,
                    a as i32 as i64 as u64,
                    b as i32 as i64 as u64,
                    true,
                )
            } else {
                crate::exec::compare::integer(cmp, u64::from(a), u64::from(b), false)
            }
        }
    };
}

pub(crate) fn bitcmp(wave: &mut Wave, inst: &Inst, set: bool, wide: bool) {
    let b = wave.scalar32(inst.src[1], Width::B32);
    let bit = if wide {
        wave.scalar64(inst.src[0], Width::B64) >> (b & 63) & 1
    } else {
        u64::from(wave.scalar32(inst.src[0], Width::B32) >> (b & 31) & 1)
    };
    wave.scc = (bit == 1) == set;
}

/// `s_load_*` (a 64-bit base in an SGPR pair) and `s_buffer_load_*` (a
/// buffer resource in four SGPRs): `dwords` dwords into the destination.
pub(crate) fn load(
    wave: &mut Wave,
    inst: &Inst,
    dwords: u8,
    buffer: bool,
    memory: &mut Segments,
) -> Result<(), ExecError> {
    let mut offset = i64::from(inst.imm);
    if inst.has(flags::SOFFSET_SGPR) {
        offset += i64::from(wave.sreg(inst.imm2 as usize));
    }
    let base = wave.scalar64(inst.src[0], Width::B64);
    let base = if buffer {
        base & 0xffff_ffff_ffff
    } else {
        base
    };
    let address = base.wrapping_add(offset as u64) & !3;
    let len = usize::from(dwords) * 4;
    let mut bytes = [0u8; 64];
    let out = bytes.get_mut(..len).unwrap_or_default();
    let in_range = if buffer {
        // Bytes beyond the resource's NUM_RECORDS read 0.
        let records = u64::from(wave.sreg(match inst.src[0] {
            Operand::Sreg(i) => i as usize + 2,
            _ => 0,
        }));
        (offset.max(0) as u64).saturating_add(len as u64) <= records
    } else {
        true
    };
    if in_range {
        memory
            .read(address, out)
            .map_err(|_| ExecError::ScalarLoad {
                bytes: len,
                address,
            })?;
    }
    if let Operand::Sreg(first) = inst.dst[0] {
        for (i, chunk) in out.chunks_exact(4).enumerate() {
            let mut word = [0u8; 4];
            word.copy_from_slice(chunk);
            wave.set_sreg(first as usize + i, u32::from_le_bytes(word));
        }
    }
    Ok(())
}

/// GFX12's narrow scalar loads: `bytes` (1 or 2) at the naturally aligned
/// address, sign- or zero-extended into the destination SGPR; a buffer
/// load past the resource's NUM_RECORDS reads 0, as [`load`]'s do.
pub(crate) fn load_narrow(
    wave: &mut Wave,
    inst: &Inst,
    bytes: u8,
    signed: bool,
    buffer: bool,
    memory: &mut Segments,
) -> Result<(), ExecError> {
    let mut offset = i64::from(inst.imm);
    if inst.has(flags::SOFFSET_SGPR) {
        offset += i64::from(wave.sreg(inst.imm2 as usize));
    }
    let base = wave.scalar64(inst.src[0], Width::B64);
    let base = if buffer {
        base & 0xffff_ffff_ffff
    } else {
        base
    };
    let len = usize::from(bytes.clamp(1, 2));
    let address = base.wrapping_add(offset as u64) & !(len as u64 - 1);
    let mut raw = [0u8; 2];
    let out = raw.get_mut(..len).unwrap_or_default();
    let in_range = !buffer || {
        let records = u64::from(wave.sreg(match inst.src[0] {
            Operand::Sreg(i) => i as usize + 2,
            _ => 0,
        }));
        (offset.max(0) as u64).saturating_add(len as u64) <= records
    };
    if in_range {
        memory
            .read(address, out)
            .map_err(|_| ExecError::ScalarLoad {
                bytes: len,
                address,
            })?;
    }
    let value = match (len, signed) {
        (1, false) => u32::from(raw[0]),
        (1, true) => raw[0] as i8 as i32 as u32,
        (_, false) => u32::from(u16::from_le_bytes(raw)),
        (_, true) => i16::from_le_bytes(raw) as i32 as u32,
    };
    if let Operand::Sreg(first) = inst.dst[0] {
        wave.set_sreg(first as usize, value);
    }
    Ok(())
}
