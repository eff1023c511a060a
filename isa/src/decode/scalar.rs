//! The scalar ALU and program-control encodings (SOP1, SOP2, SOPC, SOPK,
//! SOPP): the same fields on GFX9 and GFX11, only the opcode tables differ.

use super::{Literal, Opcode, Undecodable, Words, bits, operation, sdst, source};
use crate::arch::Family;
use crate::inst::{Encoding, Inst, Operand};
use crate::op::{Op, Salu};

pub(super) fn sop2(
    words: &Words,
    family: Family,
    opcode: Opcode,
    w: u32,
) -> Result<Inst, Undecodable> {
    let (mnemonic, op) = (opcode.mnemonic, operation(opcode)?);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sop2;
    inst.src[0] = source(family, bits(w, 7, 0), &mut lit)?;
    inst.src[1] = source(family, bits(w, 15, 8), &mut lit)?;
    inst.dst[0] = sdst(family, bits(w, 22, 16))?;
    // GFX12's `s_fmaak_f32`/`s_fmamk_f32` always carry their K as the
    // literal (one a literal source shares, as LLVM encodes it).
    if matches!(op, Op::S(Salu::FmaakF32 | Salu::FmamkF32, _)) {
        inst.src[2] = Operand::Literal(lit.take_forced()?);
    }
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn sopk(
    words: &Words,
    family: Family,
    opcode: Opcode,
    w: u32,
) -> Result<Inst, Undecodable> {
    let (mnemonic, op) = (opcode.mnemonic, operation(opcode)?);
    let reg = sdst(family, bits(w, 22, 16))?;
    if op == Op::Setreg {
        return setreg(words, mnemonic, reg, w);
    }
    let mut inst = super::sopk(op, mnemonic, words.pc(), reg, bits(w, 15, 0));
    inst.syntax.encoding = Encoding::Sopk;
    Ok(inst)
}

/// `hwreg` id of MODE.
pub(crate) const HW_REG_MODE: u32 = 1;

/// `s_setreg_b32` (the value in the SGPR of the destination field) and
/// `s_setreg_imm32_b32` (in a literal; the field unused). Only MODE
/// decodes: the other hardware registers (trap status, allocation,
/// apertures) are not modelled, and a kernel writing one is refused.
fn setreg(
    words: &Words,
    mnemonic: &'static str,
    reg: Operand,
    w: u32,
) -> Result<Inst, Undecodable> {
    let hwreg = bits(w, 15, 0);
    let id = hwreg & 0x3f;
    if id != HW_REG_MODE {
        return Err(Undecodable::Feature(
            "s_setreg of a hardware register other than MODE",
            format!("hardware register {id}"),
        ));
    }
    let mut inst = Inst::new(Op::Setreg, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sopk;
    inst.imm = hwreg as i32;
    if mnemonic.ends_with("_imm32_b32") {
        let value = words.get(1)?;
        inst.src[0] = Operand::Literal(value);
        inst.len = 8;
        let offset = hwreg >> 6 & 31;
        let size = (hwreg >> 11 & 31) + 1;
        let mask = (((1u64 << size) - 1) << offset) as u32;
        nearest_even(mnemonic, (value << offset) & mask)?;
    } else {
        inst.src[0] = reg;
    }
    Ok(inst)
}

pub(super) fn sop1(
    words: &Words,
    family: Family,
    opcode: Opcode,
    w: u32,
) -> Result<Inst, Undecodable> {
    let (mnemonic, op) = (opcode.mnemonic, operation(opcode)?);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sop1;
    // `s_getpc_b64` has no source: its source field is not a literal's.
    if op != Op::Getpc {
        inst.src[0] = source(family, bits(w, 7, 0), &mut lit)?;
    }
    inst.dst[0] = sdst(family, bits(w, 22, 16))?;
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn sopc(
    words: &Words,
    family: Family,
    opcode: Opcode,
    w: u32,
) -> Result<Inst, Undecodable> {
    let (mnemonic, op) = (opcode.mnemonic, operation(opcode)?);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sopc;
    inst.src[0] = source(family, bits(w, 7, 0), &mut lit)?;
    inst.src[1] = source(family, bits(w, 15, 8), &mut lit)?;
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn sopp(words: &Words, opcode: Opcode, w: u32) -> Result<Inst, Undecodable> {
    let (mnemonic, op) = (opcode.mnemonic, operation(opcode)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sopp;
    inst.imm = bits(w, 15, 0) as u16 as i16 as i32;
    if op == Op::RoundMode {
        nearest_even(mnemonic, bits(w, 3, 0))?;
    }
    Ok(inst)
}

/// MODE's FP_ROUND bits.
const FP_ROUND: u32 = 0xf;

/// A constant write of MODE whose bits under FP_ROUND are `bits`: the
/// interpreter rounds to nearest even only, so any other rounding mode a
/// kernel sets by its encoding alone is refused here (one set from a
/// register is a run-time error, `ExecError::RoundingMode`).
fn nearest_even(mnemonic: &str, bits: u32) -> Result<(), Undecodable> {
    let round = bits & FP_ROUND;
    if round == 0 {
        return Ok(());
    }
    Err(Undecodable::Feature(
        "a rounding mode other than to nearest even",
        format!("{mnemonic}: rounding mode {round:#x} (MODE.FP_ROUND)"),
    ))
}
