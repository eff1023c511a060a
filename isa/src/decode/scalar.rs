//! The scalar ALU and program-control encodings (SOP1, SOP2, SOPC, SOPK,
//! SOPP): the same fields on GFX9 and GFX11, only the opcode tables differ.

use super::{Literal, Undecodable, Words, bits, operation, sdst, source};
use crate::arch::Family;
use crate::inst::{Encoding, Inst};
use crate::op::Op;

pub(super) fn sop2(
    words: &Words,
    family: Family,
    mnemonic: &'static str,
    w: u32,
) -> Result<Inst, Undecodable> {
    let op = operation(mnemonic)?;
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sop2;
    inst.src[0] = source(family, bits(w, 7, 0), &mut lit)?;
    inst.src[1] = source(family, bits(w, 15, 8), &mut lit)?;
    inst.dst[0] = sdst(family, bits(w, 22, 16))?;
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn sopk(
    words: &Words,
    family: Family,
    mnemonic: &'static str,
    w: u32,
) -> Result<Inst, Undecodable> {
    let op = operation(mnemonic)?;
    let reg = sdst(family, bits(w, 22, 16))?;
    let mut inst = super::sopk(op, mnemonic, words.pc(), reg, bits(w, 15, 0));
    inst.syntax.encoding = Encoding::Sopk;
    Ok(inst)
}

pub(super) fn sop1(
    words: &Words,
    family: Family,
    mnemonic: &'static str,
    w: u32,
) -> Result<Inst, Undecodable> {
    let op = operation(mnemonic)?;
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
    mnemonic: &'static str,
    w: u32,
) -> Result<Inst, Undecodable> {
    let op = operation(mnemonic)?;
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sopc;
    inst.src[0] = source(family, bits(w, 7, 0), &mut lit)?;
    inst.src[1] = source(family, bits(w, 15, 8), &mut lit)?;
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn sopp(words: &Words, mnemonic: &'static str, w: u32) -> Result<Inst, Undecodable> {
    let op = operation(mnemonic)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    inst.syntax.encoding = Encoding::Sopp;
    inst.imm = bits(w, 15, 0) as u16 as i16 as i32;
    Ok(inst)
}
