//! GFX9 encodings (gfx90a, gfx942): the field positions the opcode tables'
//! comments give, checked against LLVM's disassembler.

use super::{Literal, Opcode, Undecodable, Words, bits, lookup, operation, sdst, source};
use crate::arch::Chip;
use crate::arch::Family;
use crate::inst::{EXEC, Encoding, Inst, Operand, VCC, flags, modifiers};
use crate::op::{MatrixType, Mfma, Narrow, Op, Segment, Valu};
use crate::tables::gfx9 as t;
use crate::tables::gfx950;

const F: Family = Family::Gfx9;

pub(super) fn decode(words: &Words, out: &mut Vec<Inst>) -> Result<(), Undecodable> {
    let w = words.get(0)?;
    let inst = if w >> 23 == 0b1_0111_1101 {
        super::scalar::sop1(words, F, table(words, t::SOP1, "SOP1", bits(w, 15, 8))?, w)?
    } else if w >> 23 == 0b1_0111_1110 {
        super::scalar::sopc(words, F, table(words, t::SOPC, "SOPC", bits(w, 22, 16))?, w)?
    } else if w >> 23 == 0b1_0111_1111 {
        super::scalar::sopp(words, table(words, t::SOPP, "SOPP", bits(w, 22, 16))?, w)?
    } else if w >> 28 == 0b1011 {
        super::scalar::sopk(words, F, table(words, t::SOPK, "SOPK", bits(w, 27, 23))?, w)?
    } else if w >> 30 == 0b10 {
        super::scalar::sop2(words, F, table(words, t::SOP2, "SOP2", bits(w, 29, 23))?, w)?
    } else if w >> 25 == 0b011_1111 {
        vop1(words, w)?
    } else if w >> 25 == 0b011_1110 {
        vopc(words, w)?
    } else if w >> 31 == 0 {
        vop2(words, w)?
    } else if w >> 23 == 0b1_1010_0111 {
        vop3p(words, w)?
    } else {
        match w >> 26 {
            0b11_0000 => smem(words, w)?,
            0b11_0100 => vop3(words, w)?,
            0b11_0110 => ds(words, w)?,
            0b11_0111 => flat(words, w)?,
            0b11_1000 => mubuf(words, w)?,
            0b11_1010 => return mtbuf(words, w),
            _ => return Err(Undecodable::Invalid("encoding", (w >> 23) as u16)),
        }
    };
    out.push(inst);
    Ok(())
}

fn smem(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::SMEM, "SMEM", bits(w, 25, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Smem;
    inst.dst[0] = Operand::Sreg(bits(w, 12, 6) as u8);
    inst.src[0] = Operand::Sreg((bits(w, 5, 0) * 2) as u8);
    let imm = bits(w, 17, 17) == 1;
    let soe = bits(w, 14, 14) == 1;
    if bits(w, 16, 16) == 1 {
        inst.syntax.modifiers |= modifiers::GLC;
    }
    if imm {
        inst.syntax.modifiers |= modifiers::IMM_OFFSET;
        // A 21-bit signed byte offset.
        inst.imm = ((bits(w1, 20, 0) << 11) as i32) >> 11;
        if soe {
            inst.flags |= flags::SOFFSET_SGPR;
            inst.imm2 = bits(w1, 31, 25) as i32;
        }
    } else {
        // No immediate: the offset is an SGPR, in `soffset` when `soe` is
        // set (as LLVM decodes it), else in the offset field.
        inst.flags |= flags::SOFFSET_SGPR;
        inst.imm2 = if soe {
            bits(w1, 31, 25)
        } else {
            bits(w1, 6, 0)
        } as i32;
    }
    Ok(inst)
}

fn vop2(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::VOP2, "VOP2", bits(w, 30, 25))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(words, &mut inst, Encoding::Vop2, 0x100 + bits(w, 30, 25));
    inst.src[1] = Operand::Vgpr(bits(w, 16, 9) as u16);
    extended_src0(words, src0, &mut inst, &mut lit, Shape::Vop2)?;
    let vdst = Operand::Vgpr(bits(w, 24, 17) as u16);
    inst.dst[0] = vdst;
    if matches!(
        op,
        Op::V(Valu::FmamkF32 | Valu::FmaakF32 | Valu::MadmkF32 | Valu::MadakF32)
    ) {
        inst.src[2] = Operand::Literal(lit.take_forced()?);
    }
    super::vop2_implicit(&mut inst, vdst);
    inst.len += lit.extra();
    Ok(inst)
}

fn vop1(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::VOP1, "VOP1", bits(w, 16, 9))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(words, &mut inst, Encoding::Vop1, 0x140 + bits(w, 16, 9));
    extended_src0(words, src0, &mut inst, &mut lit, Shape::Vop1)?;
    let vdst = bits(w, 24, 17);
    inst.dst[0] = if op == Op::V(Valu::Readfirstlane) {
        sdst(F, vdst)?
    } else if op == Op::V(Valu::AccvgprMov) {
        // Both operands AGPRs.
        if let Operand::Vgpr(r) = inst.src[0] {
            inst.src[0] = Operand::Agpr(r);
        }
        Operand::Agpr(vdst as u16)
    } else {
        Operand::Vgpr(vdst as u16)
    };
    inst.len += lit.extra();
    Ok(inst)
}

fn vopc(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::VOPC, "VOPC", bits(w, 24, 17))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(words, &mut inst, Encoding::Vopc, bits(w, 24, 17));
    inst.src[1] = Operand::Vgpr(bits(w, 16, 9) as u16);
    inst.dst[0] = Operand::Sreg(VCC);
    extended_src0(words, src0, &mut inst, &mut lit, Shape::Vopc)?;
    if matches!(op, Op::VCmp(_, _, true) | Op::VCmpClass(_, true)) {
        inst.dst[1] = Operand::Sreg(EXEC);
    }
    inst.len += lit.extra();
    Ok(inst)
}

fn vop3(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let opcode = bits(w, 25, 16);
    let row = table(words, t::VOP3, "VOP3", opcode)?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut none = Literal::None;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Vop3;
    // VOPC, VOP2 and VOP1 operations at their VOP3 opcodes (the table's
    // comment): their 32-bit twin, if that encoding has the same operation.
    let short = match opcode {
        0..=0xff => Some((t::VOPC, "VOPC", Encoding::Vopc, opcode)),
        0x100..=0x13f => Some((t::VOP2, "VOP2", Encoding::Vop2, opcode - 0x100)),
        0x140..=0x1bf => Some((t::VOP1, "VOP1", Encoding::Vop1, opcode - 0x140)),
        _ => None,
    };
    if let Some((short, name, encoding, op32)) = short
        && table(words, short, name, op32).map(|o| o.mnemonic) == Ok(mnemonic)
    {
        inst.syntax.twin = Some(encoding);
    }
    for (i, lo) in [0u32, 9, 18].into_iter().enumerate() {
        if let Some(slot) = inst.src.get_mut(i) {
            *slot = source(F, bits(w1, lo + 8, lo), &mut none)?;
        }
    }
    inst.neg = bits(w1, 31, 29) as u8;
    inst.omod = bits(w1, 28, 27) as u8;
    inst.clamp = bits(w, 15, 15) == 1;
    let vdst = bits(w, 7, 0);
    if super::is_vop3b(op) {
        inst.dst[0] = Operand::Vgpr(vdst as u16);
        inst.dst[1] = sdst(F, bits(w, 14, 8))?;
    } else {
        inst.abs = bits(w, 10, 8) as u8;
        inst.op_sel = bits(w, 14, 11) as u8;
        inst.dst[0] = match op {
            Op::VCmp(..) | Op::VCmpClass(..) | Op::V(Valu::Readlane | Valu::Readfirstlane) => {
                sdst(F, vdst)?
            }
            _ => Operand::Vgpr(vdst as u16),
        };
        if matches!(op, Op::VCmp(_, _, true) | Op::VCmpClass(_, true)) {
            inst.dst[1] = Operand::Sreg(EXEC);
        }
        if matches!(op, Op::V(v) if v.accumulates()) {
            inst.src[2] = inst.dst[0];
        }
    }
    if matches!(op, Op::V(Valu::Bitop3B32 | Valu::Bitop3B16)) {
        // gfx950's truth table spread over the modifier fields (see
        // `exec::gfx950`): neg holds bits 2:0, abs 5:3, omod 7:6.
        inst.imm = i32::from(inst.neg | inst.abs << 3 | inst.omod << 6);
        (inst.neg, inst.abs, inst.omod) = (0, 0, 0);
    }
    super::dot_modifiers(&inst)?;
    super::fp8_modifiers(&inst)?;
    super::scaled_cvt_modifiers(&inst)?;
    Ok(inst)
}

fn vop3p(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::VOP3P, "VOP3P", bits(w, 22, 16))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut none = Literal::None;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Vop3p;
    for (i, lo) in [0u32, 9, 18].into_iter().enumerate() {
        if let Some(slot) = inst.src.get_mut(i) {
            *slot = source(F, bits(w1, lo + 8, lo), &mut none)?;
        }
    }
    let vdst = bits(w, 7, 0) as u16;
    // `v_mfma_ld_scale_b32` writes no register (its scales go to the MFMA
    // after it; LLVM 22 names no destination).
    inst.dst[0] = if op == Op::MfmaLdScale {
        Operand::None
    } else {
        Operand::Vgpr(vdst)
    };
    if let Op::Mfma(shape) = op {
        // MAI: bit 15 (`acc_cd`) puts C and D in AGPRs; bits 28:27 of the
        // second dword put A and B in AGPRs; CBSZ (10:8), ABID (14:11) and
        // BLGP (second dword 31:29) as `mfma_modifiers` says.
        let (cbsz, abid, blgp) = (bits(w, 10, 8), bits(w, 14, 11), bits(w1, 31, 29));
        if shape.a == MatrixType::F8f6f4 {
            inst.op = Op::Mfma(f8f6f4_shape(shape, inst.mnemonic, cbsz, blgp)?);
            inst.imm = scale_enable(inst.mnemonic, abid)?;
        } else if shape.sparse {
            smfmac_modifiers(shape, inst.mnemonic, cbsz, abid, blgp, &mut inst)?;
        } else {
            let chip = words.chip();
            mfma_modifiers(chip, shape, inst.mnemonic, cbsz, abid, blgp, &mut inst)?;
        }
        let acc = bits(w1, 28, 27);
        for (i, bit) in [(0usize, 1u32), (1, 2)] {
            if acc & bit != 0
                && let Some(Operand::Vgpr(r)) = inst.src.get(i).copied()
                && let Some(slot) = inst.src.get_mut(i)
            {
                *slot = Operand::Agpr(r);
            }
        }
        if bits(w, 15, 15) == 1 {
            inst.dst[0] = Operand::Agpr(vdst);
            // A sparse MFMA's third source is its index VGPR, never an
            // AGPR (AMD's matrix instruction calculator: "must be stored
            // in architected VGPRs").
            if let Operand::Vgpr(r) = inst.src[2]
                && !shape.sparse
            {
                inst.src[2] = Operand::Agpr(r);
            }
        } else {
            inst.flags |= flags::VGPR_CD;
        }
        return Ok(inst);
    }
    // The AGPR operands of the moves to and from AGPRs.
    match op {
        Op::V(Valu::AccvgprWrite) => inst.dst[0] = Operand::Agpr(vdst),
        Op::V(Valu::AccvgprRead) => {
            if let Operand::Vgpr(r) = inst.src[0] {
                inst.src[0] = Operand::Agpr(r);
            }
        }
        _ => {}
    }
    inst.clamp = bits(w, 15, 15) == 1;
    inst.op_sel = bits(w, 13, 11) as u8;
    inst.op_sel_hi = (bits(w1, 28, 27) | bits(w, 14, 14) << 2) as u8;
    inst.neg_hi = bits(w, 10, 8) as u8;
    inst.neg = bits(w1, 31, 29) as u8;
    super::mix_modifiers(&mut inst);
    super::dot_modifiers(&inst)?;
    Ok(inst)
}

/// gfx950's `f8f6f4` MFMA: CBSZ is A's format and BLGP B's (0 fp8, 1 bf8,
/// 2 fp6, 3 bf6, 4 fp4; LLVM 22 gives A and B 8, 8, 6, 6 or 4 registers by
/// them; fp8 and bf8 are OCP's E4M3FN and E5M2). Values past 4 (LLVM
/// rejects them) fail to decode, naming them.
fn f8f6f4_shape(shape: Mfma, mnemonic: &str, cbsz: u32, blgp: u32) -> Result<Mfma, Undecodable> {
    let format = |code: u32| match code {
        0 => Some(MatrixType::OcpFp8),
        1 => Some(MatrixType::OcpBf8),
        2 => Some(MatrixType::Mx(Narrow::Fp6)),
        3 => Some(MatrixType::Mx(Narrow::Bf6)),
        4 => Some(MatrixType::Mx(Narrow::Fp4)),
        _ => None,
    };
    match (format(cbsz), format(blgp)) {
        (Some(a), Some(b)) => Ok(Mfma { a, b, ..shape }),
        _ => Err(Undecodable::Feature(
            "f8f6f4 MFMA format",
            format!("{mnemonic} cbsz:{cbsz} blgp:{blgp}"),
        )),
    }
}

/// The `f8f6f4` MFMA's bit 11 (ABID's low bit elsewhere): set when
/// `v_mfma_ld_scale_b32` precedes it (`llvm-mc-22` sets it in the
/// `v_mfma_scale_*` pair and clears it alone); kept in `inst.imm`. Other
/// ABID bits fail to decode.
fn scale_enable(mnemonic: &str, abid: u32) -> Result<i32, Undecodable> {
    if abid > 1 {
        return Err(Undecodable::Feature(
            "f8f6f4 MFMA ABID",
            format!("{mnemonic} abid:{abid}"),
        ));
    }
    Ok(abid as i32)
}

/// An MFMA's broadcast controls, where AMD's matrix instruction
/// calculator (ROCm/amd_matrix_instruction_calculator, its per-instruction
/// `cbsz_abid` and `blgp` flags for CDNA2 and CDNA3) says the instruction
/// has them: CBSZ and ABID on the multi-block shapes (not f64), CBSZ at
/// most log2(blocks) (and 4) and ABID below 2^CBSZ; BLGP on every gfx90a
/// shape but f64, and on gfx942's f32 and multi-block shapes; on gfx942's
/// f64 shapes the three BLGP bits negate A, B and C (LLVM's `neg:[a,b,c]`).
/// They are kept in `inst.imm` (CBSZ bits 2:0, ABID 6:3, BLGP 9:7) or, for
/// the f64 negations, `inst.neg`. Anything else the calculator does not
/// define fails to decode, naming the modifier.
fn mfma_modifiers(
    chip: Chip,
    shape: Mfma,
    mnemonic: &str,
    cbsz: u32,
    abid: u32,
    blgp: u32,
    inst: &mut Inst,
) -> Result<(), Undecodable> {
    let f64 = shape.a == MatrixType::F64;
    let multi = shape.blocks > 1;
    if cbsz != 0 || abid != 0 {
        let max_cbsz = u32::from(shape.blocks).max(1).ilog2().min(4);
        if !multi || f64 || cbsz > max_cbsz || abid >= 1 << cbsz {
            return Err(Undecodable::Feature(
                "MFMA CBSZ/ABID broadcast",
                format!("{mnemonic} cbsz:{cbsz} abid:{abid}"),
            ));
        }
    }
    if blgp != 0 {
        if f64 && chip.gfx940_or_later() {
            inst.neg = blgp as u8;
            return Ok(());
        }
        let supported = match chip {
            Chip::Gfx90a => !f64,
            _ => multi || shape.a == MatrixType::F32,
        };
        if !supported {
            return Err(Undecodable::Feature(
                "MFMA BLGP",
                format!("{mnemonic} blgp:{blgp}"),
            ));
        }
    }
    inst.imm = (cbsz | abid << 3 | blgp << 7) as i32;
    Ok(())
}

/// A sparse MFMA's (`v_smfmac_*`) controls, as AMD's matrix instruction
/// calculator defines them (README, "Example of Printing Compression Index
/// Information for a Sparse Matrix Instruction"): with CBSZ 0, ABID picks
/// which set of indices of the index VGPR is read (8 bits a set for 16-bit
/// inputs, so 0-3; 16 bits for 8-bit inputs, so 0-1); with CBSZ non-zero
/// ABID is ignored and the first set read. There is no A broadcast and no
/// BLGP. Kept as for the dense forms (`inst.imm`: CBSZ bits 2:0, ABID
/// 6:3); an ABID past the sets or a BLGP fails to decode, naming it.
fn smfmac_modifiers(
    shape: Mfma,
    mnemonic: &str,
    cbsz: u32,
    abid: u32,
    blgp: u32,
    inst: &mut Inst,
) -> Result<(), Undecodable> {
    // Two index bits per A element a lane holds.
    let elements = shape.a_regs() as u32 * 32 / u32::from(shape.a.bits());
    let sets = 32 / (2 * elements);
    if blgp != 0 {
        return Err(Undecodable::Feature(
            "SMFMAC BLGP",
            format!("{mnemonic} blgp:{blgp}"),
        ));
    }
    if cbsz == 0 && abid >= sets {
        return Err(Undecodable::Feature(
            "SMFMAC ABID",
            format!("{mnemonic} abid:{abid}"),
        ));
    }
    inst.imm = (cbsz | abid << 3) as i32;
    Ok(())
}

fn ds(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::DS, "DS", bits(w, 24, 17))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Ds;
    if bits(w, 16, 16) == 1 {
        return Err(Undecodable::Feature("GDS", format!("{op:?}")));
    }
    let acc = bits(w, 25, 25) == 1;
    let reg = |r: u32| {
        if acc {
            Operand::Agpr(r as u16)
        } else {
            Operand::Vgpr(r as u16)
        }
    };
    inst.imm = bits(w, 7, 0) as i32;
    inst.imm2 = bits(w, 15, 8) as i32;
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = reg(bits(w1, 15, 8));
    inst.src[2] = reg(bits(w1, 23, 16));
    inst.dst[0] = reg(bits(w1, 31, 24));
    Ok(inst)
}

fn mubuf(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = table(words, t::MUBUF, "MUBUF", bits(w, 24, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Mubuf;
    for (bit, modifier) in [
        (14, modifiers::GLC),
        (15, modifiers::SCC),
        (17, modifiers::SLC),
    ] {
        if bits(w, bit, bit) == 1 {
            inst.syntax.modifiers |= modifier;
        }
    }
    if bits(w, 16, 16) == 1 {
        // Loads of whole dwords into LDS run (`exec::lds_load`); narrower
        // ones, whose LDS layout was not checked, do not.
        if !matches!(op, Op::Load(m) if m.bytes >= 4) {
            return Err(Undecodable::Feature(
                "MUBUF load to LDS",
                mnemonic.to_string(),
            ));
        }
        inst.flags |= flags::LDS;
    }
    inst.imm = bits(w, 11, 0) as i32;
    for (bit, flag) in [(12, flags::OFFEN), (13, flags::IDXEN), (14, flags::GLC)] {
        if bits(w, bit, bit) == 1 {
            inst.flags |= flag;
        }
    }
    let acc = bits(w1, 23, 23) == 1;
    let data = bits(w1, 15, 8) as u16;
    let data = if acc {
        Operand::Agpr(data)
    } else {
        Operand::Vgpr(data)
    };
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = data;
    inst.dst[0] = data;
    inst.src[3] = Operand::Sreg((bits(w1, 20, 16) * 4) as u8);
    let mut none = Literal::None;
    inst.src[2] = source(F, bits(w1, 31, 24), &mut none)?;
    Ok(inst)
}

fn flat(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let (table_, name) = match bits(w, 15, 14) {
        0 => (t::FLAT, "FLAT"),
        1 => (t::SCRATCH, "SCRATCH"),
        2 => (t::GLOBAL, "GLOBAL"),
        _ => return Err(Undecodable::Invalid("FLAT segment", 3)),
    };
    let row = table(words, table_, name, bits(w, 24, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Flat;
    let scratch = bits(w, 15, 14) == 1;
    // Bit 13 is gfx942's `sve` on scratch accesses, a load to LDS elsewhere.
    let sve = scratch && words.chip().gfx940_or_later() && bits(w, 13, 13) == 1;
    if bits(w, 13, 13) == 1 && !sve {
        return Err(Undecodable::Feature("FLAT load to LDS", format!("{op:?}")));
    }
    for (bit, modifier) in [
        (16, modifiers::GLC),
        (17, modifiers::SLC),
        (25, modifiers::SCC),
    ] {
        if bits(w, bit, bit) == 1 {
            inst.syntax.modifiers |= modifier;
        }
    }
    // A scratch access has a VGPR address when gfx942's `sve` (bit 13) is
    // set or, on gfx90a, when it has no SGPR address.
    if sve || (scratch && words.chip() == Chip::Gfx90a && bits(w1, 22, 16) == 0x7f) {
        inst.flags |= flags::SCRATCH_VADDR;
    }
    // 13-bit signed offset for global and scratch, 12-bit unsigned for flat.
    inst.imm = if bits(w, 15, 14) == 0 {
        bits(w, 11, 0) as i32
    } else {
        ((bits(w, 12, 0) << 19) as i32) >> 19
    };
    if bits(w, 16, 16) == 1 {
        inst.flags |= flags::GLC;
    }
    let acc = bits(w1, 23, 23) == 1;
    let reg = |r: u32| {
        if acc {
            Operand::Agpr(r as u16)
        } else {
            Operand::Vgpr(r as u16)
        }
    };
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = reg(bits(w1, 15, 8));
    inst.dst[0] = reg(bits(w1, 31, 24));
    // `global_load_lds_dword*` (gfx942, gfx950): a load into LDS
    // (`exec::lds_load`), no VGPR written.
    if matches!(op, Op::Load(_)) && mnemonic.starts_with("global_load_lds_") {
        inst.flags |= flags::LDS;
        inst.dst[0] = Operand::None;
    }
    let saddr = bits(w1, 22, 16);
    inst.src[3] = if saddr == 0x7f
        || matches!(op, Op::Load(m) | Op::Store(m) if m.segment == Segment::Flat)
    {
        Operand::None
    } else {
        Operand::Sreg(saddr as u8)
    };
    Ok(inst)
}

/// `opcode`'s row in encoding `name`: gfx942's table, with gfx90a's
/// differences applied on gfx90a and gfx950's on gfx950.
fn table(
    words: &Words,
    base: &'static [(u16, &'static str, Option<Op>)],
    name: &'static str,
    opcode: u32,
) -> Result<Opcode, Undecodable> {
    if words.chip() == Chip::Gfx90a {
        let op = u16::try_from(opcode).unwrap_or(u16::MAX);
        if let Some(&(_, _, mnemonic, op)) = t::GFX90A_OVERRIDES
            .iter()
            .find(|&&(encoding, o, _, _)| encoding == name && o == op)
        {
            return Ok(Opcode { mnemonic, op });
        }
        if t::GFX942_ONLY
            .iter()
            .any(|&(encoding, o, _)| encoding == name && o == op)
        {
            return Err(Undecodable::Invalid(name, op));
        }
    }
    if words.chip() == Chip::Gfx950 {
        let row = gfx950_row(name, opcode, base)?;
        return Ok(Opcode {
            mnemonic: row.mnemonic,
            op: crate::tables::on_gfx950(row.op),
        });
    }
    lookup(base, name, opcode)
}

/// `opcode`'s row in encoding `name` on gfx950: its override, else
/// gfx942's row unless gfx950 lacks it.
fn gfx950_row(
    name: &'static str,
    opcode: u32,
    base: &'static [(u16, &'static str, Option<Op>)],
) -> Result<Opcode, Undecodable> {
    let op = u16::try_from(opcode).unwrap_or(u16::MAX);
    if let Some(&(_, _, mnemonic, op)) = gfx950::GFX950_OVERRIDES
        .iter()
        .find(|&&(encoding, o, _, _)| encoding == name && o == op)
    {
        return Ok(Opcode { mnemonic, op });
    }
    if gfx950::GFX950_REMOVED
        .iter()
        .any(|&(encoding, o, _)| encoding == name && o == op)
    {
        return Err(Undecodable::Invalid(name, op));
    }
    lookup(base, name, opcode)
}

/// The syntax of a VOP1/VOP2/VOPC instruction: its encoding, and whether
/// VOP3 encodes the same operation at `vop3_opcode` (LLVM then prints the
/// `_e32` suffix).
fn short_syntax(words: &Words, inst: &mut Inst, encoding: Encoding, vop3_opcode: u32) {
    inst.syntax.encoding = encoding;
    if table(words, t::VOP3, "VOP3", vop3_opcode).map(|o| o.mnemonic) == Ok(inst.mnemonic) {
        inst.syntax.twin = Some(Encoding::Vop3);
    }
}

/// Which 32-bit VALU encoding an SDWA or DPP word extends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Vop1,
    Vop2,
    Vopc,
}

/// The first source of a VOP1/VOP2/VOPC instruction: a plain source, or
/// (codes 0xF9 and 0xFA) an SDWA or DPP word after the instruction that
/// names the real source and how to read it.
fn extended_src0(
    words: &Words,
    src0: u32,
    inst: &mut Inst,
    lit: &mut Literal,
    shape: Shape,
) -> Result<(), Undecodable> {
    match src0 {
        0xfa => {
            let d = words.get(1)?;
            super::dpp16_word(d, inst);
            Ok(())
        }
        0xf9 => sdwa(words.get(1)?, inst, shape),
        _ => {
            inst.src[0] = source(F, src0, lit)?;
            Ok(())
        }
    }
}

/// The SDWA word: operand byte/word selects, sign extension, modifiers,
/// and the destination select (or, for a compare, its mask destination).
fn sdwa(d: u32, inst: &mut Inst, shape: Shape) -> Result<(), Undecodable> {
    inst.len += 4;
    inst.flags |= flags::SDWA;
    let reg = |code: u32, scalar: bool| {
        if scalar {
            sdst(F, code)
        } else {
            Ok(Operand::Vgpr(code as u16))
        }
    };
    inst.src[0] = reg(bits(d, 7, 0), bits(d, 23, 23) == 1)?;
    if shape != Shape::Vop1
        && bits(d, 31, 31) == 1
        && let Operand::Vgpr(r) = inst.src[1]
    {
        inst.src[1] = sdst(F, u32::from(r))?;
    }
    let mut selects =
        bits(d, 18, 16) | bits(d, 19, 19) << 3 | bits(d, 26, 24) << 4 | bits(d, 27, 27) << 7;
    inst.neg |= (bits(d, 20, 20) | bits(d, 28, 28) << 1) as u8;
    inst.abs |= (bits(d, 21, 21) | bits(d, 29, 29) << 1) as u8;
    if shape == Shape::Vopc {
        if bits(d, 15, 15) == 1 {
            inst.dst[0] = sdst(F, bits(d, 14, 8))?;
        }
    } else {
        selects |= bits(d, 10, 8) << 8 | bits(d, 12, 11) << 11;
        inst.clamp = bits(d, 13, 13) == 1;
        inst.omod = bits(d, 15, 14) as u8;
    }
    inst.imm = selects as i32;
    Ok(())
}

/// MTBUF (typed buffer access with a data format): named, not executed.
fn mtbuf(words: &Words, w: u32) -> Result<(), Undecodable> {
    let mnemonic = table(words, t::MTBUF, "MTBUF", bits(w, 18, 15))?.mnemonic;
    Err(Undecodable::Unsupported(mnemonic.to_string()))
}
