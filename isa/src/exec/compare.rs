//! Comparisons: integer and float predicates, vector compares into a lane
//! mask (and EXEC for `v_cmpx`), and `v_cmp_class`.

use crate::arch::Chip;
use crate::exec::float::{f16_to_f32, modifiers32, modifiers64};
use crate::exec::lanes::{active, int16_width, sign_masks32, sources32};
use crate::inst::{EXEC, Inst, Operand};
use crate::op::{Cmp, Ty};
use crate::wave::{Wave, Width};

/// An integer comparison of `a` and `b` (sign-extended to 64 bits when `signed`).
pub(crate) fn integer(cmp: Cmp, a: u64, b: u64, signed: bool) -> bool {
    let ord = if signed {
        (a as i64).cmp(&(b as i64))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    match cmp {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => ord == Less,
        Cmp::Eq => ord == Equal,
        Cmp::Le => ord != Greater,
        Cmp::Gt => ord == Greater,
        Cmp::Ne => ord != Equal,
        Cmp::Ge => ord != Less,
        // The float-only predicates do not exist for integers.
        _ => false,
    }
}

/// A float comparison with IEEE unordered semantics.
pub(crate) fn float(cmp: Cmp, a: f64, b: f64) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    match cmp {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => a < b,
        Cmp::Eq => a == b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ne => !unordered && a != b,
        Cmp::Ge => a >= b,
        Cmp::O => !unordered,
        Cmp::U => unordered,
        // The negated predicates are true when unordered.
        Cmp::Nge => unordered || a < b,
        Cmp::Nlg => unordered || a == b,
        Cmp::Ngt => unordered || a <= b,
        Cmp::Nle => unordered || a > b,
        Cmp::Neq => a != b,
        Cmp::Nlt => unordered || a >= b,
    }
}

/// Source `i`'s 16-bit value: the low half, or the high one when `op_sel`
/// picks it.
fn half(wave: &Wave, inst: &Inst, i: usize, lane: usize, width: Width) -> u16 {
    let raw = wave.src32(inst.src.get(i).copied().unwrap_or_default(), lane, width);
    (if inst.op_sel >> i & 1 == 1 {
        raw >> 16
    } else {
        raw
    }) as u16
}

fn lane_result(wave: &Wave, inst: &Inst, chip: Chip, cmp: Cmp, ty: Ty, lane: usize) -> bool {
    let [s0, s1, ..] = inst.src;
    match ty {
        Ty::F32 => {
            let a = modifiers32(wave.src32(s0, lane, Width::B32), inst, 0);
            let b = modifiers32(wave.src32(s1, lane, Width::B32), inst, 1);
            float(cmp, f64::from(a), f64::from(b))
        }
        Ty::F64 => {
            let a = modifiers64(wave.src64(s0, lane, Width::F64), inst, 0);
            let b = modifiers64(wave.src64(s1, lane, Width::F64), inst, 1);
            float(cmp, a, b)
        }
        Ty::F16 => {
            let a = f16_to_f32(half(wave, inst, 0, lane, Width::F16));
            let b = f16_to_f32(half(wave, inst, 1, lane, Width::F16));
            let a = if inst.abs & 1 != 0 { a.abs() } else { a };
            let b = if inst.abs & 2 != 0 { b.abs() } else { b };
            let a = if inst.neg & 1 != 0 { -a } else { a };
            let b = if inst.neg & 2 != 0 { -b } else { b };
            float(cmp, f64::from(a), f64::from(b))
        }
        Ty::I32 | Ty::U32 => {
            let a = wave.src32(s0, lane, Width::B32);
            let b = wave.src32(s1, lane, Width::B32);
            if ty == Ty::I32 {
                integer(cmp, a as i32 as i64 as u64, b as i32 as i64 as u64, true)
            } else {
                integer(cmp, u64::from(a), u64::from(b), false)
            }
        }
        Ty::I16 | Ty::U16 => {
            let a = half(wave, inst, 0, lane, int16_width(chip));
            let b = half(wave, inst, 1, lane, int16_width(chip));
            if ty == Ty::I16 {
                integer(cmp, a as i16 as i64 as u64, b as i16 as i64 as u64, true)
            } else {
                integer(cmp, u64::from(a), u64::from(b), false)
            }
        }
        Ty::I64 | Ty::U64 => {
            let a = wave.src64(s0, lane, Width::B64);
            let b = wave.src64(s1, lane, Width::B64);
            integer(cmp, a, b, ty == Ty::I64)
        }
    }
}

fn write_mask(wave: &mut Wave, inst: &Inst, mask: u64, exec: bool) {
    if inst.dst[0] != Operand::None {
        wave.set_mask(inst.dst[0], mask);
    }
    if exec {
        wave.set_mask(Operand::Sreg(EXEC), mask);
    }
}

/// `v_cmp_*`/`v_cmpx_*`: one bit per active lane; inactive lanes are 0.
pub(crate) fn vector(wave: &mut Wave, inst: &Inst, cmp: Cmp, ty: Ty, exec: bool, chip: Chip) {
    let active_lanes = wave.exec();
    let mut mask = 0u64;
    let mut set = |lane: usize, result: bool| mask |= u64::from(result) << lane;
    match ty {
        Ty::F32 => {
            let [a, b] = sources32::<2>(wave, inst, Width::B32);
            let (ma, mb) = (sign_masks32(inst, 0), sign_masks32(inst, 1));
            for lane in active(active_lanes) {
                let x = f32::from_bits((a.at(&wave.v, lane) & ma.0) ^ ma.1);
                let y = f32::from_bits((b.at(&wave.v, lane) & mb.0) ^ mb.1);
                set(lane, float(cmp, f64::from(x), f64::from(y)));
            }
        }
        Ty::I32 | Ty::U32 => {
            let [a, b] = sources32::<2>(wave, inst, Width::B32);
            let signed = ty == Ty::I32;
            for lane in active(active_lanes) {
                let (x, y) = (a.at(&wave.v, lane), b.at(&wave.v, lane));
                let (x, y) = if signed {
                    (x as i32 as i64 as u64, y as i32 as i64 as u64)
                } else {
                    (u64::from(x), u64::from(y))
                };
                set(lane, integer(cmp, x, y, signed));
            }
        }
        _ => {
            for lane in active(active_lanes) {
                set(lane, lane_result(wave, inst, chip, cmp, ty, lane));
            }
        }
    }
    write_mask(wave, inst, mask, exec);
}

/// `v_cmp_class_*`: whether the first source is in one of the classes the
/// second source's bits name.
pub(crate) fn class(wave: &mut Wave, inst: &Inst, ty: Ty, exec: bool, _chip: Chip) {
    let active = wave.exec();
    let mut mask = 0u64;
    for lane in 0..wave.lanes {
        if active >> lane & 1 == 0 {
            continue;
        }
        let classes = wave.src32(inst.src[1], lane, Width::B32);
        let value = match ty {
            Ty::F64 => modifiers64(wave.src64(inst.src[0], lane, Width::F64), inst, 0),
            Ty::F16 => f64::from(f16_to_f32(half(wave, inst, 0, lane, Width::F16))),
            _ => f64::from(modifiers32(
                wave.src32(inst.src[0], lane, Width::B32),
                inst,
                0,
            )),
        };
        let quiet = match ty {
            Ty::F64 => value.to_bits() >> 51 & 1 == 1,
            Ty::F16 => half(wave, inst, 0, lane, Width::F16) >> 9 & 1 == 1,
            _ => wave.src32(inst.src[0], lane, Width::B32) >> 22 & 1 == 1,
        };
        let denormal = match ty {
            Ty::F64 => value.is_subnormal(),
            Ty::F16 => {
                let bits = half(wave, inst, 0, lane, Width::F16);
                bits & 0x7c00 == 0 && bits & 0x3ff != 0
            }
            _ => f32::from_bits(wave.src32(inst.src[0], lane, Width::B32)).is_subnormal(),
        };
        let negative = value.is_sign_negative();
        let bit = if value.is_nan() {
            if quiet { 1 } else { 0 }
        } else if value.is_infinite() {
            if negative { 2 } else { 9 }
        } else if value == 0.0 {
            if negative { 5 } else { 6 }
        } else if denormal {
            if negative { 4 } else { 7 }
        } else if negative {
            3
        } else {
            8
        };
        if classes >> bit & 1 == 1 {
            mask |= 1 << lane;
        }
    }
    write_mask(wave, inst, mask, exec);
}
