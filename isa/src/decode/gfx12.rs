//! GFX12 encodings (gfx1201): SOP, VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD and
//! DS as GFX11 lays them out (`gfx11.rs` decodes them with GFX12's
//! tables); SMEM, VBUFFER (which replaces MUBUF and MTBUF) and VFLAT,
//! VGLOBAL and VSCRATCH (which replace FLAT) here. The field positions are
//! the tables' comments (`isa/tables/gfx12.py`), read off
//! `llvm-mc-19 -mcpu=gfx1201 -show-encoding`.
//!
//! GFX12 replaces the `glc`/`slc`/`dlc` cache bits with a temporal hint
//! (`th`) and a coherence scope (`scope`): kept for printing
//! ([`crate::inst::Syntax::cache_policy`]), and an atomic's `th` bit 0
//! (`TH_ATOMIC_RETURN`) is what GFX11's `glc` was, the pre-op value
//! returned ([`flags::GLC`]).

use super::gfx11::{self, Tables};
use super::{Literal, Undecodable, Words, bits, lookup, operation, source};
use crate::arch::Family;
use crate::inst::{Encoding, Inst, Operand, flags, modifiers};
use crate::op::{Op, Segment};
use crate::tables::gfx12 as t;

const F: Family = Family::Gfx12;

const GFX12: Tables = Tables {
    family: F,
    sop1: t::SOP1,
    sopc: t::SOPC,
    sopp: t::SOPP,
    sopk: t::SOPK,
    sop2: t::SOP2,
    vop1: t::VOP1,
    vop2: t::VOP2,
    vopc: t::VOPC,
    vop3: t::VOP3,
    vop3_dpp: t::VOP3_DPP,
    vop3p: t::VOP3P,
    vopd_x: t::VOPD_X,
    vopd_y: t::VOPD_Y,
    ds: t::DS,
};

/// The SGPR code that names no register (`null`, `off`).
const NULL: u32 = 0x7c;
/// `s_barrier_signal`'s operand for the work-group barrier (inline -1).
const WORKGROUP_BARRIER: u8 = 193;

pub(super) fn decode(words: &Words, out: &mut Vec<Inst>) -> Result<(), Undecodable> {
    let w = words.get(0)?;
    if let Some(inst) = gfx11::shared(&GFX12, words, w)? {
        barrier_operand(&inst)?;
        wmma_modifiers(&inst)?;
        let inst = scalar_transcendental(inst)?;
        out.push(inst);
        return Ok(());
    }
    let inst = match w >> 26 {
        0b11_1101 => smem(words, w)?,
        0b11_0010 => return gfx11::vopd(&GFX12, words, w, out),
        0b11_0001 => vbuffer(words, w)?,
        0b11_1011 => vflat(words, w)?,
        _ => return Err(Undecodable::Invalid("encoding", (w >> 23) as u16)),
    };
    out.push(inst);
    Ok(())
}

/// `s_barrier_signal` runs as the work-group barrier (the wave waits at
/// the signal for the others, which is one order the hardware allows: the
/// matching `s_barrier_wait` is then a no-op). Only the work-group
/// barrier's operand, -1, means that; named barriers fail to decode.
fn barrier_operand(inst: &Inst) -> Result<(), Undecodable> {
    if inst.op == Op::Barrier
        && inst.syntax.encoding == Encoding::Sop1
        && inst.src[0] != Operand::Inline(WORKGROUP_BARRIER)
    {
        return Err(Undecodable::Feature(
            "named barrier",
            format!("{} {:?}", inst.mnemonic, inst.src[0]),
        ));
    }
    Ok(())
}

/// GFX12's WMMA as executed (`exec/wmma12.rs`): integer inputs signed
/// or not by `neg_lo` bits 0-1, clamp on integer results; any other
/// `op_sel`, `neg` or clamp bit fails to decode, naming it (their meaning
/// on RDNA4 was not checked against an oracle).
fn wmma_modifiers(inst: &Inst) -> Result<(), Undecodable> {
    let Op::Wmma(w) = inst.op else {
        return Ok(());
    };
    let integer = w.integer();
    let allowed_neg = if integer { 3 } else { 0 };
    if inst.op_sel != 0
        || inst.neg & !allowed_neg != 0
        || inst.neg_hi != 0
        || (inst.clamp && !integer)
    {
        return Err(Undecodable::Feature(
            "WMMA modifier",
            format!("{} op_sel/neg/clamp on GFX12", inst.mnemonic),
        ));
    }
    Ok(())
}

/// GFX12's `v_s_rcp_f32` and the other scalar transcendentals: VOP3
/// encodings of a scalar operation (`Op::S`) whose destination field names
/// an SGPR. Source modifiers, clamp and output modifiers fail to decode,
/// naming them (not modelled).
fn scalar_transcendental(mut inst: Inst) -> Result<Inst, Undecodable> {
    if inst.syntax.encoding != Encoding::Vop3 || !matches!(inst.op, Op::S(..)) {
        return Ok(inst);
    }
    if inst.neg != 0 || inst.abs != 0 || inst.clamp || inst.omod != 0 || inst.op_sel != 0 {
        return Err(Undecodable::Feature(
            "scalar transcendental modifiers",
            inst.mnemonic.to_string(),
        ));
    }
    if let Operand::Vgpr(n) = inst.dst[0] {
        inst.dst[0] = super::sdst(F, u32::from(n))?;
    }
    Ok(inst)
}

/// A 24-bit signed offset.
fn signed24(value: u32) -> i32 {
    ((value << 8) as i32) >> 8
}

fn smem(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let row = lookup(t::SMEM, "SMEM", bits(w, 18, 13))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let w1 = words.get(1)?;
    let mut inst = Inst::new(op, mnemonic, words.pc(), 8);
    inst.syntax.encoding = Encoding::Smem;
    inst.syntax.cache_policy = (bits(w, 24, 23) | bits(w, 22, 21) << 3) as u8;
    inst.dst[0] = Operand::Sreg(bits(w, 12, 6) as u8);
    inst.src[0] = Operand::Sreg((bits(w, 5, 0) * 2) as u8);
    inst.imm = signed24(bits(w1, 23, 0));
    let soffset = bits(w1, 31, 25);
    if soffset != NULL {
        inst.flags |= flags::SOFFSET_SGPR;
        inst.imm2 = soffset as i32;
    }
    Ok(inst)
}

/// The cache policy of a vector memory instruction (dword 1 of both
/// VBUFFER and VFLAT): `th` and `scope`; an atomic's `th` bit 0 returns
/// the pre-op value.
fn cache_policy(inst: &mut Inst, w1: u32) {
    let th = bits(w1, 22, 20);
    inst.syntax.cache_policy = (th | bits(w1, 19, 18) << 3) as u8;
    if matches!(inst.op, Op::Atomic(..)) && th & 1 == 1 {
        inst.flags |= flags::GLC;
        inst.syntax.modifiers |= modifiers::GLC;
    }
}

fn vbuffer(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    if bits(w, 21, 18) == 0b1000 {
        // Typed buffer access with a data format: named, not executed.
        let row = lookup(t::VBUFFER_TYPED, "VBUFFER typed", bits(w, 17, 14))?;
        return Err(Undecodable::Unsupported(row.mnemonic.to_string()));
    }
    let row = lookup(t::VBUFFER, "VBUFFER", bits(w, 21, 14))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let (w1, w2) = (words.get(1)?, words.get(2)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 12);
    inst.syntax.encoding = Encoding::Mubuf;
    cache_policy(&mut inst, w1);
    if bits(w, 22, 22) == 1 {
        inst.syntax.modifiers |= modifiers::TFE;
    }
    inst.imm = bits(w2, 31, 8) as i32;
    for (bit, flag) in [(30, flags::OFFEN), (31, flags::IDXEN)] {
        if bits(w1, bit, bit) == 1 {
            inst.flags |= flag;
        }
    }
    let data = Operand::Vgpr(bits(w1, 7, 0) as u16);
    inst.src[0] = Operand::Vgpr(bits(w2, 7, 0) as u16);
    inst.src[1] = data;
    inst.dst[0] = data;
    inst.src[3] = Operand::Sreg(bits(w1, 15, 9) as u8);
    let mut none = Literal::None;
    inst.src[2] = source(F, bits(w, 6, 0), &mut none)?;
    Ok(inst)
}

fn vflat(words: &Words, w: u32) -> Result<Inst, Undecodable> {
    let (table, name) = match bits(w, 25, 24) {
        0 => (t::FLAT, "VFLAT"),
        1 => (t::SCRATCH, "VSCRATCH"),
        2 => (t::GLOBAL, "VGLOBAL"),
        _ => return Err(Undecodable::Invalid("VFLAT segment", 3)),
    };
    let row = lookup(table, name, bits(w, 21, 14))?;
    let (mnemonic, op) = (row.mnemonic, operation(row)?);
    let (w1, w2) = (words.get(1)?, words.get(2)?);
    let mut inst = Inst::new(op, mnemonic, words.pc(), 12);
    inst.syntax.encoding = Encoding::Flat;
    cache_policy(&mut inst, w1);
    if bits(w1, 17, 17) == 1 {
        // `sve`: a scratch access's VGPR address is part of its offset.
        inst.flags |= flags::SCRATCH_VADDR;
    }
    inst.imm = signed24(bits(w2, 31, 8));
    inst.src[0] = Operand::Vgpr(bits(w2, 7, 0) as u16);
    inst.src[1] = Operand::Vgpr(bits(w1, 30, 23) as u16);
    inst.dst[0] = Operand::Vgpr(bits(w1, 7, 0) as u16);
    let saddr = bits(w, 6, 0);
    let flat_segment = matches!(op, Op::Load(m) | Op::Store(m) if m.segment == Segment::Flat)
        || matches!(op, Op::Atomic(Segment::Flat, ..));
    inst.src[3] = if saddr == NULL || flat_segment {
        Operand::None
    } else {
        Operand::Sreg(saddr as u8)
    };
    Ok(inst)
}
