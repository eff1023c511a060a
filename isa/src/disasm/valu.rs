//! The vector ALU encodings (VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD, and
//! the DPP and SDWA forms): the mnemonic with LLVM's encoding suffix, the
//! destinations, and the sources in LLVM's order with their input
//! modifiers (`neg`, `abs`, `sext`) and GFX11's 16-bit register halves.
//! The modifiers after the operands are in `modifiers`.

use super::Printer;
use super::kind::{
    B32, Kind, Shape, float_source, regs, ty_kind, valu_kinds, valu_sources, vop3_dpp_sext,
};
use crate::arch::Family;
use crate::inst::{EXEC, Encoding, Operand, flags};
use crate::op::{Op, Valu};

impl Printer<'_> {
    pub(super) fn valu(&mut self) -> String {
        let inst = self.inst;
        let encoding = inst.syntax.encoding;
        let dpp = inst.flags & (flags::DPP16 | flags::DPP8) != 0;
        let sdwa = inst.has(flags::SDWA);
        let suffix = if dpp {
            // LLVM 19 prints GFX11's VOPC DPP forms without a suffix.
            if encoding == Encoding::Vopc && self.family.rdna() {
                ""
            } else if encoding == Encoding::Vop3 {
                // GFX11's VOP3 DPP forms, VOP3-only operations included.
                "_e64_dpp"
            } else {
                "_dpp"
            }
        } else if sdwa {
            "_sdwa"
        } else {
            match (encoding, inst.syntax.twin) {
                (Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc, Some(_)) => "_e32",
                (Encoding::Vop3, Some(_)) => "_e64",
                // GFX9's VOP2 `v_pk_fmac_f16` has no VOP3 twin, but LLVM 19
                // names it `v_pk_fmac_f16_e32` there (not on GFX11).
                (Encoding::Vop2, None)
                    if inst.op == Op::V(Valu::PkFmacF16) && self.family == Family::Gfx9 =>
                {
                    "_e32"
                }
                _ => "",
            }
        };
        let name = format!("{}{suffix}", inst.mnemonic);
        let shape = self.valu_shape();
        let compare = matches!(inst.op, Op::VCmp(..) | Op::VCmpClass(..));
        if inst.dst[0] != Operand::None {
            let text = self.vgpr_half(inst.dst[0], shape.dst[0], 3);
            self.push(text);
        }
        if inst.dst[1] != Operand::None && !(compare && inst.dst[1] == Operand::Sreg(EXEC)) {
            self.push(self.operand(inst.dst[1], shape.dst[1]));
        }
        let order = self.source_order();
        for &i in order.iter() {
            let (Some(&op), Some(&kind)) = (inst.src.get(i), shape.src.get(i)) else {
                continue;
            };
            let text = self.source(i, op, kind, sdwa);
            self.push(text);
        }
        if dpp {
            // VOP3's modifiers (clamp, omod, op_sel) come before the lane
            // control, as LLVM prints them.
            if encoding == Encoding::Vop3 {
                self.vop3_tail(order.len());
            }
            self.dpp_tail();
        } else if sdwa {
            self.sdwa_tail();
        } else if encoding == Encoding::Vop3 {
            self.vop3_tail(order.len());
        } else if encoding == Encoding::Vop3p {
            self.vop3p_tail(order.len());
        }
        name
    }

    /// A VGPR operand of a GFX11 true16 32-bit encoding: `v_mov_b16`
    /// names halves (`v1.l`, `v1.h`); LLVM 19 prints the other 16-bit
    /// operations' operands as 32-bit registers and cannot print a high
    /// half, written here as `.h`. `bit` is the operand's
    /// [`Inst::op_sel`](crate::Inst::op_sel) bit.
    fn vgpr_half(&self, op: Operand, kind: Kind, bit: u8) -> String {
        let inst = self.inst;
        let text = self.operand(op, kind);
        let short = matches!(
            inst.syntax.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
        );
        if !self.family.rdna() || !short || !matches!(op, Operand::Vgpr(_)) {
            return text;
        }
        let high = inst.op_sel & (1 << bit) != 0;
        if inst.op == Op::V(Valu::MovB16) {
            format!("{text}{}", if high { ".h" } else { ".l" })
        } else if high {
            format!("{text}.h")
        } else {
            text
        }
    }

    /// The source at index `i` with its input modifiers. LLVM gives an
    /// operation source modifiers only if it has a float source: float
    /// sources take `neg` and `abs`, integer ones `sext` (SDWA's sign
    /// extension, or VOP3's `neg` bit); it ignores the bits otherwise.
    fn source(&self, i: usize, op: Operand, kind: Kind, sdwa: bool) -> String {
        let inst = self.inst;
        let bit = 1u8 << i;
        let text = self.vgpr_half(op, kind, i as u8);
        let float = float_source(inst.op, i);
        let dpp = inst.flags & (flags::DPP16 | flags::DPP8) != 0;
        if sdwa {
            if i < 2 && !float && inst.imm & (8 << (4 * i)) != 0 {
                return format!("sext({text})");
            }
        } else if dpp && inst.syntax.encoding == Encoding::Vop3 && vop3_dpp_sext(inst.op) {
            return if inst.neg & bit != 0 {
                format!("sext({text})")
            } else {
                text
            };
        } else if (inst.syntax.encoding == Encoding::Vop3p && !mix(inst.op))
            || !(0..3).any(|j| float_source(inst.op, j))
        {
            return text;
        }
        if !float {
            return if !sdwa && inst.neg & bit != 0 {
                format!("sext({text})")
            } else {
                text
            };
        }
        let abs = inst.abs & bit != 0;
        let neg = inst.neg & bit != 0;
        let text = if abs { format!("|{text}|") } else { text };
        if !neg {
            return text;
        }
        // A negated constant without `abs` prints as `neg(...)`.
        if !abs && matches!(op, Operand::Inline(_) | Operand::Literal(_)) {
            format!("neg({text})")
        } else {
            format!("-{text}")
        }
    }

    /// Which sources print, in order.
    fn source_order(&self) -> Vec<usize> {
        use Valu::*;
        let inst = self.inst;
        let k = matches!(inst.op, Op::V(FmamkF32 | FmamkF16 | MadmkF32));
        let ak = matches!(inst.op, Op::V(FmaakF32 | FmaakF16 | MadakF32));
        match inst.syntax.encoding {
            // The literal K goes between the sources (`v_fmamk_f32 v0, v1,
            // K, v2`) or last.
            Encoding::Vop2 | Encoding::Vopd if k => vec![0, 2, 1],
            Encoding::Vop2 | Encoding::Vopd if ak => vec![0, 1, 2],
            Encoding::Vop1 => vec![0],
            Encoding::Vopc => vec![0, 1],
            Encoding::Vop2 => match inst.op {
                // VCC as the third source (the mask or carry-in).
                Op::V(Cndmask | AddcCoU32 | SubbCoU32 | SubbrevCoU32) => vec![0, 1, 2],
                _ => vec![0, 1],
            },
            Encoding::Vopd => match inst.op {
                Op::V(Mov32) => vec![0],
                _ => vec![0, 1],
            },
            Encoding::Vop3 => {
                let n = match inst.syntax.twin {
                    Some(Encoding::Vop1) => 1,
                    Some(Encoding::Vopc) => 2,
                    Some(_) => match inst.op {
                        Op::V(Cndmask | AddcCoU32 | SubbCoU32 | SubbrevCoU32) => 3,
                        _ => 2,
                    },
                    None => match inst.op {
                        Op::V(v) => valu_sources(v),
                        // GFX12's `v_s_*_f32`/`_f16`: one scalar source.
                        Op::S(..) => 1,
                        Op::VCmp(..) | Op::VCmpClass(..) => 2,
                        _ => 3,
                    },
                };
                (0..n).collect()
            }
            _ => match inst.op {
                Op::V(
                    PkFmaF32 | PkFmaF16 | FmaMixF32 | FmaMixloF16 | FmaMixhiF16 | Dot2F32F16
                    | Dot4I32I8 | Dot4U32U8 | Dot4I32Iu8 | Dot2I32I16 | Dot2U32U16 | PkMadU16
                    | PkMadI16,
                )
                | Op::Mfma(_)
                | Op::Wmma(_) => vec![0, 1, 2],
                Op::V(AccvgprWrite | AccvgprRead) => vec![0],
                _ => vec![0, 1],
            },
        }
    }

    fn valu_shape(&self) -> Shape {
        let inst = self.inst;
        let lane = self.lane_mask();
        let mut shape = Shape::all(B32);
        // Lane masks: a compare's destination, a carry out or in, a
        // condition mask.
        shape.dst[1] = lane;
        match inst.op {
            Op::VCmp(_, ty, _) => {
                shape.dst[0] = lane;
                shape.src[0] = ty_kind(ty);
                shape.src[1] = ty_kind(ty);
            }
            Op::VCmpClass(ty, _) => {
                shape.dst[0] = lane;
                shape.src[0] = ty_kind(ty);
            }
            Op::Mfma(m) => {
                let out = regs(m.output_regs() as u8);
                let input = regs(m.input_regs() as u8);
                shape.dst[0] = out;
                // A sparse MFMA's third source is its one index register.
                shape.src = if m.sparse {
                    [regs(m.a_regs() as u8), input, B32, B32]
                } else {
                    // B's type differs from A's in gfx950's `f8f6f4`.
                    [input, regs(m.b_regs() as u8), out, B32]
                };
            }
            Op::Wmma(w) => {
                let (input, out) = if self.family == Family::Gfx12 {
                    (w.gfx12_input_regs(), w.gfx12_output_regs())
                } else {
                    (w.input_regs(), 8)
                };
                shape.dst[0] = regs(out);
                shape.src = [regs(input), regs(input), regs(out), B32];
            }
            Op::V(v) => valu_kinds(v, &mut shape, lane),
            _ => {}
        }
        shape
    }
}

/// The mixed-precision FMAs: VOP3P operations whose source modifiers
/// print on the sources (`-v1`, `|v1|`), as VOP3's do.
pub(super) fn mix(op: Op) -> bool {
    matches!(
        op,
        Op::V(Valu::FmaMixF32 | Valu::FmaMixloF16 | Valu::FmaMixhiF16)
    )
}
