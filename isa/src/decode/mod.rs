//! Machine words to [`Inst`]s: the encodings' fields, per family, and the
//! opcode tables ([`crate::tables`]) for the mnemonic and the operation the
//! table gives it beside the opcode.

mod gfx11;
mod gfx12;
mod gfx9;
mod scalar;

use crate::arch::{Chip, Family};
use crate::inst::{Inst, M0, Operand, VCC};
use crate::op::Op;

/// Why a word does not decode to something the interpreter runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecodable {
    /// The words end inside an instruction.
    Truncated,
    /// No encoding of the family, or an opcode LLVM's disassembler rejects.
    Invalid(&'static str, u16),
    /// A valid instruction the interpreter lacks.
    Unsupported(String),
    /// An encoding feature the interpreter lacks (SDWA, DPP on GFX9, ...).
    Feature(&'static str, String),
}

/// Decodes the instruction at byte `pc` of `code` (one, or two for a VOPD
/// pair) into `out`.
pub(crate) fn decode(
    chip: Chip,
    code: &[u8],
    pc: u32,
    out: &mut Vec<Inst>,
) -> Result<(), Undecodable> {
    let words = Words { code, pc, chip };
    match chip.family() {
        Family::Gfx9 => gfx9::decode(&words, out),
        Family::Gfx11 => gfx11::decode(&words, out),
        Family::Gfx12 => gfx12::decode(&words, out),
    }
}

/// The program's bytes from an instruction's address.
pub(crate) struct Words<'a> {
    code: &'a [u8],
    pc: u32,
    chip: Chip,
}

impl Words<'_> {
    /// The `i`-th dword of the instruction.
    pub(crate) fn get(&self, i: u32) -> Result<u32, Undecodable> {
        let at = self.pc as usize + i as usize * 4;
        let bytes = self.code.get(at..at + 4).ok_or(Undecodable::Truncated)?;
        let mut word = [0u8; 4];
        word.copy_from_slice(bytes);
        Ok(u32::from_le_bytes(word))
    }

    pub(crate) fn pc(&self) -> u32 {
        self.pc
    }

    pub(crate) fn chip(&self) -> Chip {
        self.chip
    }
}

/// `value[hi:lo]`.
pub(crate) fn bits(value: u32, hi: u32, lo: u32) -> u32 {
    (value >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

/// An opcode as its table gives it: the mnemonic LLVM prints, and the
/// operation the interpreter runs for it (`None`: an instruction it lacks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Opcode {
    /// The full mnemonic (`v_fma_f32`).
    pub(crate) mnemonic: &'static str,
    /// Its operation.
    pub(crate) op: Option<Op>,
}

/// `opcode`'s row in a sorted table.
pub(crate) fn lookup(
    table: &'static [(u16, &'static str, Option<Op>)],
    encoding: &'static str,
    opcode: u32,
) -> Result<Opcode, Undecodable> {
    let opcode = u16::try_from(opcode).map_err(|_| Undecodable::Invalid(encoding, u16::MAX))?;
    table
        .binary_search_by_key(&opcode, |&(code, _, _)| code)
        .ok()
        .and_then(|i| table.get(i))
        .map(|&(_, mnemonic, op)| Opcode { mnemonic, op })
        .ok_or(Undecodable::Invalid(encoding, opcode))
}

/// The operation of an opcode, or the instruction the interpreter lacks.
pub(crate) fn operation(opcode: Opcode) -> Result<Op, Undecodable> {
    opcode
        .op
        .ok_or_else(|| Undecodable::Unsupported(opcode.mnemonic.to_string()))
}

/// Source code 255: a 32-bit literal follows the instruction.
pub(crate) const LITERAL: u32 = 255;

/// A 9-bit (or 8-bit scalar) source operand code; `literal` is the dword
/// after the instruction, read only when the code asks for it.
pub(crate) fn source(
    family: Family,
    code: u32,
    literal: &mut Literal,
) -> Result<Operand, Undecodable> {
    Ok(match code {
        0..=123 | 126 | 127 => Operand::Sreg(code as u8),
        124 if family.rdna() => Operand::Null,
        124 => Operand::Sreg(M0),
        125 if family.rdna() => Operand::Sreg(M0),
        128..=208 | 240..=248 => Operand::Inline(code as u8),
        251 => Operand::Vccz,
        252 => Operand::Execz,
        253 => Operand::Scc,
        LITERAL => Operand::Literal(literal.take()?),
        256..=511 => Operand::Vgpr((code - 256) as u16),
        _ => {
            return Err(Undecodable::Feature(
                "source operand",
                format!("code {code}"),
            ));
        }
    })
}

/// A scalar destination code (7 bits).
pub(crate) fn sdst(family: Family, code: u32) -> Result<Operand, Undecodable> {
    let mut none = Literal::None;
    match code {
        0..=127 => source(family, code, &mut none),
        _ => Err(Undecodable::Feature(
            "scalar destination",
            format!("code {code}"),
        )),
    }
}

/// The literal dword of an instruction: where it is, and whether it was used.
pub(crate) enum Literal {
    /// The instruction has no room for one (GFX9 VOP3, a destination).
    None,
    /// The dword at this index of the instruction, not yet used.
    At(u32),
    /// Used: the instruction is one dword longer.
    Used(u32),
}

impl Literal {
    pub(crate) fn at(words: &Words, index: u32) -> Literal {
        match words.get(index) {
            Ok(value) => Literal::At(value),
            Err(_) => Literal::None,
        }
    }

    fn take(&mut self) -> Result<u32, Undecodable> {
        match *self {
            Literal::At(value) | Literal::Used(value) => {
                *self = Literal::Used(value);
                Ok(value)
            }
            Literal::None => Err(Undecodable::Feature(
                "literal",
                "where the encoding has none".to_string(),
            )),
        }
    }

    /// Bytes the literal adds.
    pub(crate) fn extra(&self) -> u8 {
        match self {
            Literal::Used(_) => 4,
            _ => 0,
        }
    }
}

impl Literal {
    /// The literal an encoding always carries (`v_fmamk_f32`'s K).
    pub(crate) fn take_forced(&mut self) -> Result<u32, Undecodable> {
        self.take()
    }
}

/// A SOPK instruction in the two-source form the executor runs: the
/// register is the first source (and the destination), the 16-bit
/// immediate the second, sign-extended except for unsigned compares.
pub(crate) fn sopk(op: Op, mnemonic: &'static str, pc: u32, reg: Operand, simm16: u32) -> Inst {
    use crate::op::{Salu, Ty};
    let signed = simm16 as u16 as i16 as i32 as u32;
    let mut inst = Inst::new(op, mnemonic, pc, 4);
    inst.dst[0] = reg;
    match op {
        Op::S(Salu::Mov | Salu::Cmov, _) => inst.src[0] = Operand::Literal(signed),
        Op::SCmp(_, Ty::U32) => {
            inst.src[0] = reg;
            inst.src[1] = Operand::Literal(simm16);
        }
        _ => {
            inst.src[0] = reg;
            inst.src[1] = Operand::Literal(signed);
        }
    }
    inst.imm = simm16 as i32;
    inst
}

/// The DPP16 word after a VOP1/VOP2/VOPC instruction (the same on GFX9
/// and GFX11, where bit 18 adds fetch-inactive): the real first source,
/// the lane pattern, bound control, modifiers and the row and bank masks.
pub(crate) fn dpp16_word(d: u32, inst: &mut Inst) {
    dpp16_control(d, inst);
    inst.neg |= (bits(d, 20, 20) | bits(d, 22, 22) << 1) as u8;
    inst.abs |= (bits(d, 21, 21) | bits(d, 23, 23) << 1) as u8;
}

/// The DPP16 word's lane control without its source modifiers: all a
/// GFX11 VOP3 DPP16 word holds, VOP3 keeping `neg` and `abs` in its own
/// fields (the hardware ignores the word's bits 23:20 there, as LLVM's
/// encoding notes).
pub(crate) fn dpp16_control(d: u32, inst: &mut Inst) {
    use crate::inst::flags;
    inst.src[0] = Operand::Vgpr(bits(d, 7, 0) as u16);
    inst.len += 4;
    inst.flags |= flags::DPP16;
    inst.imm = bits(d, 16, 8) as i32;
    inst.imm2 = bits(d, 31, 24) as i32;
    if bits(d, 18, 18) == 1 {
        inst.flags |= flags::FETCH_INACTIVE;
    }
    if bits(d, 19, 19) == 1 {
        inst.flags |= flags::BOUND_CTRL;
    }
}

/// The implicit operands of a 32-bit VOP2 encoding, the same on both
/// families: VCC as a condition, carry in or carry out; an FMAC's
/// accumulator in its destination.
pub(crate) fn vop2_implicit(inst: &mut Inst, vdst: Operand) {
    use crate::op::Valu::*;
    match inst.op {
        Op::V(Cndmask) => inst.src[2] = Operand::Sreg(VCC),
        Op::V(AddCoU32 | SubCoU32 | SubrevCoU32) => inst.dst[1] = Operand::Sreg(VCC),
        Op::V(AddcCoU32 | SubbCoU32 | SubbrevCoU32) => {
            inst.dst[1] = Operand::Sreg(VCC);
            inst.src[2] = Operand::Sreg(VCC);
        }
        // The accumulating forms (`Valu::accumulates`): the destination.
        Op::V(v) if v.accumulates() => inst.src[2] = vdst,
        _ => {}
    }
}

/// A VOP3P mixed-precision FMA's `neg_hi` bits take each source's
/// absolute value (`neg_lo` negates it, as for the others): they are kept
/// as VOP3's `abs`, which is what they mean.
pub(crate) fn mix_modifiers(inst: &mut Inst) {
    use crate::op::Valu::*;
    if let Op::V(FmaMixF32 | FmaMixloF16 | FmaMixhiF16) = inst.op {
        inst.abs = inst.neg_hi;
        inst.neg_hi = 0;
    }
}

/// RDNA3 WMMA's modifiers, as AMD's matrix instruction calculator
/// describes them (its README, "OPSEL" and "NEG"): `op_sel[2]` picks the
/// half of C and D for 16-bit results; on float inputs `neg_lo`/`neg_hi`
/// bits 0-1 negate the low/high-half elements of A and B, `neg_lo[2]`
/// negates C and `neg_hi[2]` takes its absolute value; on integer inputs
/// `neg_lo` bits 0-1 make A and B signed. Anything else (`op_sel[1:0]`,
/// `op_sel[2]` with 32-bit results, other `neg` bits on integers, clamp
/// on float results) fails to decode, naming it.
pub(crate) fn wmma_modifiers(inst: &Inst) -> Result<(), Undecodable> {
    let Op::Wmma(w) = inst.op else {
        return Ok(());
    };
    let integer = w.input_bits() < 16;
    let refused = if inst.op_sel & 3 != 0 || (inst.op_sel & 4 != 0 && !w.half_output()) {
        Some("op_sel")
    } else if integer && (inst.neg & 4 != 0 || inst.neg_hi != 0) {
        Some("neg_lo[2]/neg_hi on integers")
    } else if !integer && inst.clamp {
        Some("clamp on float results")
    } else {
        None
    };
    match refused {
        Some(what) => Err(Undecodable::Feature(
            "WMMA modifier",
            format!("{} {what}", inst.mnemonic),
        )),
        None => Ok(()),
    }
}

/// gfx942's conversions to fp8/bf8 have no output modifier (LLVM gives
/// them none, and scaling before an 8-bit rounding is no output modifier
/// any guide describes): one fails to decode, naming it.
pub(crate) fn fp8_modifiers(inst: &Inst) -> Result<(), Undecodable> {
    use crate::op::Valu::*;
    if matches!(
        inst.op,
        Op::V(CvtPkFp8F32 | CvtPkBf8F32 | CvtSrFp8F32 | CvtSrBf8F32)
    ) && inst.omod != 0
    {
        return Err(Undecodable::Feature(
            "fp8 conversion modifiers",
            format!("{} with an output modifier", inst.mnemonic),
        ));
    }
    Ok(())
}

/// gfx950's scaled conversions (`v_cvt_scalef32_*`) with VOP3's neg, abs,
/// output modifier or clamp fail to decode, naming them: LLVM 22 takes
/// neg and abs on their sources, but what they do to a packed or
/// multi-register source was not found in the guides, so they are not
/// modelled. `op_sel` picks bytes (`exec::scaled_convert`).
pub(crate) fn scaled_cvt_modifiers(inst: &Inst) -> Result<(), Undecodable> {
    if matches!(inst.op, Op::V(crate::op::Valu::ScaledCvt(_)))
        && (inst.neg != 0 || inst.abs != 0 || inst.omod != 0 || inst.clamp)
    {
        return Err(Undecodable::Feature(
            "scaled conversion modifiers",
            format!("{} with neg, abs, omod or clamp", inst.mnemonic),
        ));
    }
    Ok(())
}

/// The dot products' modifiers: clamp, and on GFX11's `v_dot4_i32_iu8`
/// `neg_lo` bits 0-1 (A's and B's bytes signed). Other `op_sel`,
/// `op_sel_hi`, `neg` or `abs` bits and output modifiers fail to decode,
/// naming them: the instruction guides' descriptions were not checked for
/// their meaning on these operations.
pub(crate) fn dot_modifiers(inst: &Inst) -> Result<(), Undecodable> {
    use crate::op::Valu::*;
    let allowed_neg = match inst.op {
        Op::V(Dot4I32Iu8) => 3,
        Op::V(
            Dot2F32F16 | Dot2cF32F16 | Dot4I32I8 | Dot4U32U8 | Dot4cI32I8 | Dot2I32I16 | Dot2U32U16
            | Dot2cI32I16,
        ) => 0,
        _ => return Ok(()),
    };
    let default_hi = if inst.syntax.encoding == crate::inst::Encoding::Vop3p {
        7
    } else {
        0
    };
    if inst.op_sel != 0
        || inst.op_sel_hi & 7 != default_hi
        || inst.neg_hi != 0
        || inst.neg & !allowed_neg != 0
        || inst.abs != 0
        || inst.omod != 0
    {
        return Err(Undecodable::Feature(
            "dot product modifiers",
            format!(
                "{} op_sel/op_sel_hi/neg/abs/omod other than clamp",
                inst.mnemonic
            ),
        ));
    }
    Ok(())
}

/// VOP3 operations with a scalar destination in bits 14:8 (VOP3B).
pub(crate) fn is_vop3b(op: Op) -> bool {
    use crate::op::Valu::*;
    matches!(
        op,
        Op::V(
            AddCoU32
                | SubCoU32
                | SubrevCoU32
                | AddcCoU32
                | SubbCoU32
                | SubbrevCoU32
                | DivScaleF32
                | DivScaleF64
                | MadU64U32
                | MadI64I32
        )
    )
}
