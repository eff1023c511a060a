//! SDWA (sub-dword addressing, GFX9): sources read as one byte or word of
//! their register, zero- or sign-extended; the result written to one byte
//! or word of the destination, the rest padded with zeros, sign-extended or
//! kept.

use crate::exec::error::ExecError;
use crate::exec::{Context, Flow, step};
use crate::inst::{Inst, Operand, flags};
use crate::op::Op;
use crate::wave::{TEMP_DST, TEMP_SRC0, TEMP_SRC1, Wave, Width};

/// `value` read through select `sel` (0-3 a byte, 4-5 a word, 6 all).
fn extract(value: u32, sel: u32, sext: bool) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return value,
    };
    let field = (value >> shift) & ((1u32 << width) - 1);
    if sext && field >> (width - 1) & 1 == 1 {
        field | !((1u32 << width) - 1)
    } else {
        field
    }
}

/// `result` written through select `sel` into `old` (`unused`: 0 pad with
/// zeros, 1 sign-extend, 2 keep `old`'s other bits).
fn insert(result: u32, sel: u32, unused: u32, old: u32) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return result,
    };
    let mask = ((1u32 << width) - 1) << shift;
    let field = (result << shift) & mask;
    match unused {
        2 => (old & !mask) | field,
        1 => {
            let negative = field >> (shift + width - 1) & 1 == 1;
            // The bits above the field (none above BYTE_3 or WORD_1).
            let above = 1u32.checked_shl(shift + width).map_or(0, |bit| !(bit - 1));
            if negative { field | above } else { field }
        }
        _ => field,
    }
}

pub(crate) fn run(wave: &mut Wave, inst: &Inst, cx: &mut Context) -> Result<Flow, ExecError> {
    let selects = inst.imm as u32;
    let (sel0, sext0) = (selects & 7, selects >> 3 & 1 == 1);
    let (sel1, sext1) = (selects >> 4 & 7, selects >> 7 & 1 == 1);
    let (dst_sel, unused) = (selects >> 8 & 7, selects >> 11 & 3);
    let exec = wave.exec();
    let mut moved = *inst;
    moved.flags &= !flags::SDWA;
    for (i, temp, sel, sext) in [(0, TEMP_SRC0, sel0, sext0), (1, TEMP_SRC1, sel1, sext1)] {
        if inst.src[i] == Operand::None {
            continue;
        }
        for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
            let v = extract(wave.src32(inst.src[i], lane, Width::B32), sel, sext);
            wave.set_vreg(Operand::Vgpr(temp), 0, lane, v);
        }
        moved.src[i] = Operand::Vgpr(temp);
    }
    if matches!(inst.op, Op::VCmp(..) | Op::VCmpClass(..)) {
        return step(wave, &moved, cx);
    }
    let dst = inst.dst[0];
    moved.dst[0] = Operand::Vgpr(TEMP_DST);
    let flow = step(wave, &moved, cx)?;
    for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
        let result = wave.vreg(Operand::Vgpr(TEMP_DST), 0, lane);
        let old = wave.vreg(dst, 0, lane);
        wave.set_vreg(dst, 0, lane, insert(result, dst_sel, unused, old));
        // A pair's second dword (gfx942's v_cvt_pk_f32_fp8/bf8), whole.
        if matches!(
            inst.op,
            Op::V(crate::op::Valu::CvtPkF32Fp8 | crate::op::Valu::CvtPkF32Bf8)
        ) {
            let high = wave.vreg(Operand::Vgpr(TEMP_DST), 1, lane);
            wave.set_vreg(dst, 1, lane, high);
        }
    }
    Ok(flow)
}

#[cfg(test)]
mod tests {
    use super::insert;

    #[test]
    fn a_sign_extended_result_fills_only_the_bits_above_its_field() {
        // The ISA manuals' SDWA DST_UNUSED = UNUSED_SEXT: the result in the
        // DST_SEL field, its sign in every bit above, zeros below.
        // BYTE_1 (1): 0x80 at bits 15:8, negative.
        assert_eq!(insert(0x80, 1, 1, 0xFFFF_FFFF), 0xFFFF_8000);
        assert_eq!(insert(0x7F, 1, 1, 0xFFFF_FFFF), 0x0000_7F00);
        // BYTE_3 (3) and WORD_1 (5) end at bit 31: nothing above to fill.
        assert_eq!(insert(0x80, 3, 1, 0), 0x8000_0000);
        assert_eq!(insert(0x8000, 5, 1, 0), 0x8000_0000);
        // WORD_0 (4): 0x8001 at bits 15:0.
        assert_eq!(insert(0x8001, 4, 1, 0), 0xFFFF_8001);
        // UNUSED_PRESERVE (2) keeps the other bits; UNUSED_PAD (0) zeros them.
        assert_eq!(insert(0xAB, 2, 2, 0x1122_3344), 0x11AB_3344);
        assert_eq!(insert(0xAB, 2, 0, 0x1122_3344), 0x00AB_0000);
    }
}
