//! GFX11 encodings (gfx1100): the field positions the opcode tables'
//! comments give, checked against LLVM's disassembler. SOP, VOP1, VOP2 and
//! VOPC share GFX9's layouts; SMEM, VOP3, VOP3P, DS, MUBUF and FLAT moved
//! fields; VOPD (two operations in one instruction) and DPP8 are new.

use super::{LITERAL, Literal, Undecodable, Words, bits, lookup, operation, sdst, source};
use crate::arch::Family;
use crate::inst::{EXEC, Encoding, Inst, Operand, VCC, flags, modifiers};
use crate::op::{Op, Segment, Ty, Valu};
use crate::tables::{Row, gfx11};

/// The opcode tables of the encodings GFX11 shares with GFX12 (whose
/// decoder, `gfx12.rs`, runs these functions with its own tables).
pub(super) struct Tables {
    pub(super) family: Family,
    pub(super) sop1: &'static [Row],
    pub(super) sopc: &'static [Row],
    pub(super) sopp: &'static [Row],
    pub(super) sopk: &'static [Row],
    pub(super) sop2: &'static [Row],
    pub(super) vop1: &'static [Row],
    pub(super) vop2: &'static [Row],
    pub(super) vopc: &'static [Row],
    pub(super) vop3: &'static [Row],
    pub(super) vop3_dpp: &'static [Row],
    pub(super) vop3p: &'static [Row],
    pub(super) vopd_x: &'static [Row],
    pub(super) vopd_y: &'static [Row],
    pub(super) ds: &'static [Row],
}

const GFX11: Tables = Tables {
    family: Family::Gfx11,
    sop1: gfx11::SOP1,
    sopc: gfx11::SOPC,
    sopp: gfx11::SOPP,
    sopk: gfx11::SOPK,
    sop2: gfx11::SOP2,
    vop1: gfx11::VOP1,
    vop2: gfx11::VOP2,
    vopc: gfx11::VOPC,
    vop3: gfx11::VOP3,
    vop3_dpp: gfx11::VOP3_DPP,
    vop3p: gfx11::VOP3P,
    vopd_x: gfx11::VOPD_X,
    vopd_y: gfx11::VOPD_Y,
    ds: gfx11::DS,
};

const F: Family = Family::Gfx11;
/// `src0` code of a DPP16 instruction.
const DPP16: u32 = 0xfa;
/// `src0` codes of a DPP8 instruction (without and with fetch-inactive).
const DPP8: u32 = 0xe9;
const DPP8_FI: u32 = 0xea;

pub(super) fn decode(words: &Words, out: &mut Vec<Inst>) -> Result<(), Undecodable> {
    let w = words.get(0)?;
    if let Some(inst) = shared(&GFX11, words, w)? {
        out.push(inst);
        return Ok(());
    }
    let inst = match w >> 26 {
        0b11_1101 => smem(words, w)?,
        0b11_0010 => return vopd(&GFX11, words, w, out),
        0b11_0111 => flat(words, w)?,
        0b11_1000 => mubuf(words, w)?,
        0b11_1010 => return mtbuf(words, w),
        _ => return Err(Undecodable::Invalid("encoding", (w >> 23) as u16)),
    };
    out.push(inst);
    Ok(())
}

/// The encodings GFX12 keeps as GFX11 has them: SOP*, VOP1, VOP2, VOPC,
/// VOP3, VOP3P and DS (VOPD, which pushes two instructions, apart).
/// `None`: another encoding.
pub(super) fn shared(t: &Tables, words: &Words, w: u32) -> Result<Option<Inst>, Undecodable> {
    let f = t.family;
    let inst = if w >> 23 == 0b1_0111_1101 {
        super::scalar::sop1(words, f, lookup(t.sop1, "SOP1", bits(w, 15, 8))?, w)?
    } else if w >> 23 == 0b1_0111_1110 {
        super::scalar::sopc(words, f, lookup(t.sopc, "SOPC", bits(w, 22, 16))?, w)?
    } else if w >> 23 == 0b1_0111_1111 {
        super::scalar::sopp(words, lookup(t.sopp, "SOPP", bits(w, 22, 16))?, w)?
    } else if w >> 28 == 0b1011 {
        super::scalar::sopk(words, f, lookup(t.sopk, "SOPK", bits(w, 27, 23))?, w)?
    } else if w >> 30 == 0b10 {
        super::scalar::sop2(words, f, lookup(t.sop2, "SOP2", bits(w, 29, 23))?, w)?
    } else if w >> 25 == 0b011_1111 {
        vop1(t, words, w)?
    } else if w >> 25 == 0b011_1110 {
        vopc(t, words, w)?
    } else if w >> 31 == 0 {
        vop2(t, words, w)?
    } else if w >> 24 == 0xcc {
        vop3p(t, words, w)?
    } else {
        match w >> 26 {
            0b11_0101 => vop3(t, words, w)?,
            0b11_0110 => ds(t, words, w)?,
            _ => return Ok(None),
        }
    };
    Ok(Some(inst))
}

fn smem(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(gfx11::SMEM, "SMEM", bits(w, 25, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Smem;
    for (bit, modifier) in [(14, modifiers::GLC), (13, modifiers::DLC)] {
        if bits(w, bit, bit) == 1 {
            inst.syntax.modifiers |= modifier;
        }
    }
    inst.dst[0] = Operand::Sreg(bits(w, 12, 6) as u8);
    inst.src[0] = Operand::Sreg((bits(w, 5, 0) * 2) as u8);
    inst.imm = ((bits(w1, 20, 0) << 11) as i32) >> 11;
    let soffset = bits(w1, 31, 25);
    if soffset != 0x7c {
        inst.flags |= flags::SOFFSET_SGPR;
        inst.imm2 = soffset as i32;
    }
    Ok(inst)
}

/// The DPP word after a VOP1/VOP2/VOPC instruction whose `src0` is a DPP
/// code: the real `src0`, the lane pattern, and the masks.
fn dpp(words: &Words, code: u32, inst: &mut Inst) -> Result<(), Undecodable> {
    let d = words.get(1)?;
    if code == DPP16 {
        super::dpp16_word(d, inst);
        return Ok(());
    }
    dpp8_word(d, code, inst);
    Ok(())
}

/// A DPP8 word (the same after a 32-bit or a VOP3 encoding): the real
/// `src0` and the eight 3-bit lane selects; `code` says whether inactive
/// lanes are fetched.
fn dpp8_word(d: u32, code: u32, inst: &mut Inst) {
    inst.src[0] = Operand::Vgpr(bits(d, 7, 0) as u16);
    inst.len += 4;
    inst.flags |= flags::DPP8;
    inst.imm = bits(d, 31, 8) as i32;
    if code == DPP8_FI {
        inst.flags |= flags::FETCH_INACTIVE;
    }
}

/// The syntax of a VOP1/VOP2/VOPC instruction: its encoding, and whether
/// VOP3 encodes the same operation at `vop3_opcode` (LLVM then prints the
/// `_e32` suffix).
fn short_syntax(t: &Tables, inst: &mut Inst, encoding: Encoding, vop3_opcode: u32) {
    inst.syntax.encoding = encoding;
    // LLVM 19 decodes `v_mov_b16` in VOP3 only with operands the table
    // generator does not try, so the table lacks it; it prints `_e32`.
    if lookup(t.vop3, "VOP3", vop3_opcode).map(|o| o.mnemonic) == Ok(inst.mnemonic)
        || inst.mnemonic == "v_mov_b16"
    {
        inst.syntax.twin = Some(Encoding::Vop3);
    }
}

fn is_dpp(code: u32) -> bool {
    matches!(code, DPP16 | DPP8 | DPP8_FI)
}

pub(super) fn vop2(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t.vop2, "VOP2", bits(w, 30, 25))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(t, &mut inst, Encoding::Vop2, 0x100 + bits(w, 30, 25));
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    if is_dpp(src0) {
        dpp(words, src0, &mut inst)?;
    } else {
        inst.src[0] = source(t.family, src0, &mut lit)?;
    }
    inst.src[1] = Operand::Vgpr(bits(w, 16, 9) as u16);
    let vdst = Operand::Vgpr(bits(w, 24, 17) as u16);
    inst.dst[0] = vdst;
    if matches!(op, Op::V(v) if v.takes_literal_k()) {
        inst.src[2] = Operand::Literal(lit.take_forced()?);
    }
    super::vop2_implicit(&mut inst, vdst);
    true16_halves(&mut inst);
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn vop1(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t.vop1, "VOP1", bits(w, 16, 9))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(t, &mut inst, Encoding::Vop1, 0x180 + bits(w, 16, 9));
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    if is_dpp(src0) {
        dpp(words, src0, &mut inst)?;
    } else {
        inst.src[0] = source(t.family, src0, &mut lit)?;
    }
    let vdst = bits(w, 24, 17);
    inst.dst[0] = if op == Op::V(Valu::Readfirstlane) {
        sdst(t.family, vdst)?
    } else {
        Operand::Vgpr(vdst as u16)
    };
    true16_halves(&mut inst);
    inst.len += lit.extra();
    Ok(inst)
}

pub(super) fn vopc(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t.vopc, "VOPC", bits(w, 24, 17))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 4);
    short_syntax(t, &mut inst, Encoding::Vopc, bits(w, 24, 17));
    let src0 = bits(w, 8, 0);
    let mut lit = Literal::at(words, 1);
    if is_dpp(src0) {
        dpp(words, src0, &mut inst)?;
    } else {
        inst.src[0] = source(t.family, src0, &mut lit)?;
    }
    inst.src[1] = Operand::Vgpr(bits(w, 16, 9) as u16);
    // GFX11's v_cmpx writes EXEC only.
    if matches!(op, Op::VCmp(_, _, true) | Op::VCmpClass(_, true)) {
        inst.dst[1] = Operand::Sreg(EXEC);
    } else {
        inst.dst[0] = Operand::Sreg(VCC);
    }
    true16_halves(&mut inst);
    inst.len += lit.extra();
    Ok(inst)
}

fn three_sources(t: &Tables, words: &Words, w1: u32, inst: &mut Inst) -> Result<(), Undecodable> {
    let mut lit = Literal::at(words, 2);
    for (i, lo) in [0u32, 9, 18].into_iter().enumerate() {
        let code = bits(w1, lo + 8, lo);
        if i == 0 && is_dpp(code) {
            return Err(Undecodable::Feature("VOP3P DPP", format!("{:?}", inst.op)));
        }
        if let Some(slot) = inst.src.get_mut(i) {
            *slot = source(t.family, code, &mut lit)?;
        }
    }
    if (0..3).any(|i| bits(w1, 9 * i + 8, 9 * i) == LITERAL) {
        inst.len += lit.extra();
    }
    Ok(())
}

/// GFX11's VOP3 DPP16 and DPP8 forms (`v_add_co_u32_e64_dpp`): the VOP3
/// fields as ever, `src0` moved across lanes by the DPP word after them.
/// Only the operations LLVM gives such a form decode (`t.vop3_dpp`:
/// none with a 64-bit operand, whose DPP would have to move register
/// pairs); LLVM rejects the rest, so they are invalid here too. The DPP
/// word takes the literal's place, so a literal source is refused.
fn vop3_dpp(
    t: &Tables,
    words: &Words,
    w1: u32,
    opcode: u32,
    inst: &mut Inst,
) -> Result<(), Undecodable> {
    if lookup(t.vop3_dpp, "VOP3 DPP", opcode)?.mnemonic != inst.mnemonic {
        return Err(Undecodable::Invalid("VOP3 DPP", opcode as u16));
    }
    let mut none = Literal::None;
    for (i, lo) in [(1usize, 9u32), (2, 18)] {
        let operand = source(t.family, bits(w1, lo + 8, lo), &mut none)?;
        if let Some(slot) = inst.src.get_mut(i) {
            *slot = operand;
        }
    }
    let code = bits(w1, 8, 0);
    let d = words.get(2)?;
    if code == DPP16 {
        super::dpp16_control(d, inst);
    } else {
        dpp8_word(d, code, inst);
    }
    Ok(())
}

pub(super) fn vop3(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let opcode = bits(w, 25, 16);
    let row = lookup(t.vop3, "VOP3", opcode)?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Vop3;
    // VOPC, VOP2 and VOP1 operations at their VOP3 opcodes (the table's
    // comment): their 32-bit twin, if that encoding has the same operation.
    let short = match opcode {
        0..=0xff => Some((t.vopc, "VOPC", Encoding::Vopc, opcode)),
        0x100..=0x13f => Some((t.vop2, "VOP2", Encoding::Vop2, opcode - 0x100)),
        0x180..=0x1ff => Some((t.vop1, "VOP1", Encoding::Vop1, opcode - 0x180)),
        _ => None,
    };
    if let Some((table, name, encoding, op32)) = short
        && lookup(table, name, op32).map(|o| o.mnemonic) == Ok(mnemonic)
    {
        inst.syntax.twin = Some(encoding);
    }
    if is_dpp(bits(w1, 8, 0)) {
        vop3_dpp(t, words, w1, opcode, &mut inst)?;
    } else {
        three_sources(t, words, w1, &mut inst)?;
    }
    inst.neg = bits(w1, 31, 29) as u8;
    inst.omod = bits(w1, 28, 27) as u8;
    inst.clamp = bits(w, 15, 15) == 1;
    // LLVM's DPP forms of integer operations have no source modifiers
    // (bar the 16-bit ones' `sext`): a `neg` bit makes them invalid.
    if inst.flags & (flags::DPP16 | flags::DPP8) != 0
        && inst.neg != 0
        && !(0..3).any(|i| crate::disasm::float_source(op, i))
        && !crate::disasm::vop3_dpp_sext(op)
    {
        return Err(Undecodable::Invalid("VOP3 DPP neg", opcode as u16));
    }
    let vdst = bits(w, 7, 0);
    if super::is_vop3b(op) {
        inst.dst[0] = Operand::Vgpr(vdst as u16);
        inst.dst[1] = sdst(t.family, bits(w, 14, 8))?;
        return Ok(inst);
    }
    inst.abs = bits(w, 10, 8) as u8;
    inst.op_sel = bits(w, 14, 11) as u8;
    match op {
        Op::VCmp(_, _, true) | Op::VCmpClass(_, true) => inst.dst[1] = Operand::Sreg(EXEC),
        Op::VCmp(..) | Op::VCmpClass(..) | Op::V(Valu::Readlane | Valu::Readfirstlane) => {
            inst.dst[0] = sdst(t.family, vdst)?;
        }
        _ => inst.dst[0] = Operand::Vgpr(vdst as u16),
    }
    if matches!(op, Op::V(v) if v.accumulates()) {
        inst.src[2] = inst.dst[0];
    }
    super::dot_modifiers(&inst)?;
    Ok(inst)
}

pub(super) fn vop3p(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t.vop3p, "VOP3P", bits(w, 22, 16))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Vop3p;
    three_sources(t, words, w1, &mut inst)?;
    inst.dst[0] = Operand::Vgpr(bits(w, 7, 0) as u16);
    inst.clamp = bits(w, 15, 15) == 1;
    inst.op_sel = bits(w, 13, 11) as u8;
    inst.op_sel_hi = (bits(w1, 28, 27) | bits(w, 14, 14) << 2) as u8;
    inst.neg_hi = bits(w, 10, 8) as u8;
    inst.neg = bits(w1, 31, 29) as u8;
    super::mix_modifiers(&mut inst);
    super::dot_modifiers(&inst)?;
    super::wmma_modifiers(&inst)?;
    Ok(inst)
}

/// VOPD: two operations, X then Y, sharing one literal; both read their
/// sources before either writes, which execution sees to
/// (`exec/dual.rs`).
pub(super) fn vopd(
    t: &Tables,
    words: &Words,
    w: u32,
    out: &mut Vec<Inst>,
) -> Result<(), Undecodable> {
    let w1 = words.get(1)?;
    let x_name = lookup(t.vopd_x, "VOPD X", bits(w, 25, 22))?;
    let y_name = lookup(t.vopd_y, "VOPD Y", bits(w, 21, 17))?;
    let mut lit = Literal::at(words, 2);
    let vdst_x = bits(w1, 31, 24);
    let vdst_y = (bits(w1, 23, 17) << 1) | ((vdst_x & 1) ^ 1);
    let halves = [
        (x_name, bits(w, 8, 0), bits(w, 16, 9), vdst_x),
        (y_name, bits(w1, 8, 0), bits(w1, 16, 9), vdst_y),
    ];
    let mut pair = Vec::with_capacity(2);
    for (i, (name, src0, vsrc1, vdst)) in halves.into_iter().enumerate() {
        // A half `v_dual_X` runs as `v_X`: the table gives it that operation.
        let op = operation(name)?;
        let mut inst = Inst::new(op, name.mnemonic, words.pc(), 0);
        inst.syntax.encoding = Encoding::Vopd;
        inst.src[0] = source(t.family, src0, &mut lit)?;
        inst.src[1] = Operand::Vgpr(vsrc1 as u16);
        let dst = Operand::Vgpr(vdst as u16);
        inst.dst[0] = dst;
        if matches!(op, Op::V(v) if v.takes_literal_k()) {
            inst.src[2] = Operand::Literal(lit.take_forced()?);
        }
        super::vop2_implicit(&mut inst, dst);
        if i == 1 {
            inst.flags |= flags::DUAL_Y;
        }
        pair.push(inst);
    }
    if let Some(first) = pair.first_mut() {
        first.len = 8 + lit.extra();
    }
    out.extend(pair);
    Ok(())
}

pub(super) fn ds(t: &Tables, words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t.ds, "DS", bits(w, 25, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    if bits(w, 17, 17) == 1 {
        return Err(Undecodable::Feature("GDS", format!("{op:?}")));
    }
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Ds;
    inst.imm = bits(w, 7, 0) as i32;
    inst.imm2 = bits(w, 15, 8) as i32;
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = Operand::Vgpr(bits(w1, 15, 8) as u16);
    inst.src[2] = Operand::Vgpr(bits(w1, 23, 16) as u16);
    inst.dst[0] = Operand::Vgpr(bits(w1, 31, 24) as u16);
    Ok(inst)
}

fn mubuf(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(gfx11::MUBUF, "MUBUF", bits(w, 25, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Mubuf;
    for (bit, modifier) in [
        (14, modifiers::GLC),
        (13, modifiers::DLC),
        (12, modifiers::SLC),
    ] {
        if bits(w, bit, bit) == 1 {
            inst.syntax.modifiers |= modifier;
        }
    }
    if bits(w1, 21, 21) == 1 {
        inst.syntax.modifiers |= modifiers::TFE;
    }
    inst.imm = bits(w, 11, 0) as i32;
    for (bit, flag) in [(22, flags::OFFEN), (23, flags::IDXEN)] {
        if bits(w1, bit, bit) == 1 {
            inst.flags |= flag;
        }
    }
    if bits(w, 14, 14) == 1 {
        inst.flags |= flags::GLC;
    }
    let data = Operand::Vgpr(bits(w1, 15, 8) as u16);
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = data;
    inst.dst[0] = data;
    inst.src[3] = Operand::Sreg((bits(w1, 20, 16) * 4) as u8);
    let mut none = Literal::None;
    inst.src[2] = source(F, bits(w1, 31, 24), &mut none)?;
    Ok(inst)
}

fn flat(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let (table, name) = match bits(w, 17, 16) {
        0 => (gfx11::FLAT, "FLAT"),
        1 => (gfx11::SCRATCH, "SCRATCH"),
        2 => (gfx11::GLOBAL, "GLOBAL"),
        _ => return Err(Undecodable::Invalid("FLAT segment", 3)),
    };
    let row = lookup(table, name, bits(w, 24, 18))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Flat;
    for (bit, modifier) in [
        (14, modifiers::GLC),
        (13, modifiers::DLC),
        (15, modifiers::SLC),
    ] {
        if bits(w, bit, bit) == 1 {
            inst.syntax.modifiers |= modifier;
        }
    }
    if bits(w1, 23, 23) == 1 {
        // `sve`: a scratch access's VGPR address is part of its offset.
        inst.flags |= flags::SCRATCH_VADDR;
    }
    inst.imm = if bits(w, 17, 16) == 0 {
        bits(w, 11, 0) as i32
    } else {
        ((bits(w, 12, 0) << 19) as i32) >> 19
    };
    if bits(w, 14, 14) == 1 {
        inst.flags |= flags::GLC;
    }
    inst.src[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[1] = Operand::Vgpr(bits(w1, 15, 8) as u16);
    inst.dst[0] = Operand::Vgpr(bits(w1, 31, 24) as u16);
    let saddr = bits(w1, 22, 16);
    let flat_segment = matches!(op, Op::Load(m) | Op::Store(m) if m.segment == Segment::Flat)
        || matches!(op, Op::Atomic(Segment::Flat, ..));
    inst.src[3] = if saddr == 0x7c || saddr == 0x7f || flat_segment {
        Operand::None
    } else {
        Operand::Sreg(saddr as u8)
    };
    Ok(inst)
}

/// Which operands of an operation are 16-bit: (src0, src1, dst).
fn sixteen_bit(op: Op) -> (bool, bool, bool) {
    use Valu::*;
    let half = |ty| matches!(ty, Ty::F16 | Ty::I16 | Ty::U16);
    match op {
        Op::VCmp(_, ty, _) => (half(ty), half(ty), false),
        Op::VCmpClass(ty, _) => (half(ty), false, false),
        Op::V(CvtF32F16 | CvtU32U16 | CvtI32I16) => (true, false, false),
        Op::V(CvtF16F32) => (false, false, true),
        Op::V(CvtF16I16 | CvtF16U16 | CvtI16F16 | CvtU16F16 | MovB16 | NotB16) => {
            (true, false, true)
        }
        Op::V(
            CeilF16 | FloorF16 | TruncF16 | RndneF16 | FractF16 | SqrtF16 | RcpF16 | RsqF16
            | ExpF16 | LogF16 | SinF16 | CosF16,
        ) => (true, false, true),
        Op::V(
            AddF16 | SubF16 | SubrevF16 | MulF16 | FmaF16 | FmacF16 | FmamkF16 | FmaakF16 | MinF16
            | MaxF16 | AndB16 | OrB16 | XorB16 | AddU16 | SubU16 | SubrevU16 | AddI16 | SubI16
            | MulLoU16 | LshlrevB16 | LshrrevB16 | AshrrevI16 | MinI16 | MaxI16 | MinU16 | MaxU16,
        ) => (true, true, true),
        _ => (false, false, false),
    }
}

/// GFX11's 32-bit encodings (VOP1, VOP2, VOPC) name a 16-bit VGPR operand
/// with 8 bits: bit 7 selects the register's high half (`v1.h`) of
/// v0-v127. Expressed as the `op_sel` bits VOP3 uses for the same choice
/// (source 0: bit 0, source 1: bit 1, destination: bit 3).
fn true16_halves(inst: &mut Inst) {
    let (src0, src1, dst) = sixteen_bit(inst.op);
    for (i, applies, bit) in [(0usize, src0, 1u8), (1, src1, 2)] {
        if applies
            && let Some(Operand::Vgpr(r)) = inst.src.get(i).copied()
            && r >= 128
            && let Some(slot) = inst.src.get_mut(i)
        {
            *slot = Operand::Vgpr(r - 128);
            inst.op_sel |= bit;
        }
    }
    if dst
        && let Operand::Vgpr(r) = inst.dst[0]
        && r >= 128
    {
        let low = Operand::Vgpr(r - 128);
        // A 16-bit FMAC's accumulator is its destination's same half.
        if inst.src[2] == inst.dst[0] {
            inst.src[2] = low;
            inst.op_sel |= 4;
        }
        inst.dst[0] = low;
        inst.op_sel |= 8;
    }
}

/// MTBUF (typed buffer access with a data format): named, not executed.
fn mtbuf(_words: &Words, w: u32) -> Result<(), Undecodable> {
    let row = lookup(gfx11::MTBUF, "MTBUF", bits(w, 18, 15))?;
    Err(Undecodable::Unsupported(row.mnemonic.to_string()))
}
