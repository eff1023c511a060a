//! The modifiers after a vector ALU instruction's operands, in LLVM's
//! order: VOP3's `op_sel`, `clamp` and output modifier, VOP3P's
//! `op_sel`, `op_sel_hi`, `neg_lo` and `neg_hi`, DPP's lane control
//! (`quad_perm`, `row_shl`, `dpp8`, ...) with its masks, and SDWA's
//! operand selects.

use std::fmt::Write as _;

use super::Printer;
use super::operand::hex;
use crate::arch::Family;
use crate::inst::{Encoding, flags};
use crate::op::{Op, Valu};

impl Printer<'_> {
    pub(super) fn vop3_tail(&mut self, sources: usize) {
        use Valu::*;
        let inst = self.inst;
        let bit = |b: u8| u8::from(inst.op_sel & (1 << b) != 0);
        let gfx11 = self.family.rdna();
        // The operations LLVM 19 gives an op_sel operand; it ignores the
        // field of the others (GFX11's 16-bit operations are its "fake16"
        // forms, which cannot name a high half), and prints nothing.
        // GFX12's conversions to and from one 8-bit float byte name it
        // `byte_sel:N` (its op_sel bits, `exec::cvt8`; LLVM prints nothing
        // for 0); the pairs from 8-bit floats take op_sel's source bit.
        let byte_sel = match inst.op {
            Op::V(CvtF32Fp8 | CvtF32Bf8) => Some((inst.op_sel & 1) << 1 | inst.op_sel >> 1 & 1),
            Op::V(CvtSrFp8F32 | CvtSrBf8F32) => Some(inst.op_sel >> 2 & 3),
            _ => None,
        };
        if self.family == Family::Gfx12
            && let Some(byte) = byte_sel
        {
            if byte != 0 {
                let _ = write!(self.tail, " byte_sel:{byte}");
            }
            self.clamp_omod();
            return;
        }
        let selected = match inst.op {
            Op::V(CvtPkF32Fp8 | CvtPkF32Bf8) if self.family == Family::Gfx12 => Some(1),
            Op::V(FmaF16 | PackB32F16) => Some(sources),
            // gfx942's conversions to fp8/bf8: the destination word (pk:
            // `op_sel:[0,0,1]`) or byte (sr: bits 2 and 3,
            // `op_sel:[0,0,1,1]`).
            Op::V(CvtPkFp8F32 | CvtPkBf8F32) => Some(2),
            Op::V(CvtSrFp8F32 | CvtSrBf8F32) => Some(3),
            // The accumulator's bit counts too.
            Op::V(FmacF16) if gfx11 => Some(3),
            Op::V(AddU16 | SubU16) if gfx11 => Some(sources),
            // VOP3-only on both families, with op_sel.
            Op::V(AddI16 | SubI16) => Some(sources),
            // GFX9's native op_sel forms and GFX11's (the `_legacy` ones
            // have none).
            Op::V(
                MadU16 | MadI16 | MadU32U16 | MadI32I16 | Min3U16 | Min3I16 | Min3F16 | Max3U16
                | Max3I16 | Max3F16 | Med3U16 | Med3I16 | Med3F16 | DivFixupF16,
            ) => Some(sources),
            // gfx950's, after its truth table (`bitop3:`, decimal up to
            // 10 as LLVM 22 prints it, hex above; nothing for 0).
            Op::V(Bitop3B16) => Some(sources),
            // gfx950's scaled FP4 conversions: the source byte
            // (`op_sel:[1,1,0]`) or the destination byte
            // (`op_sel:[0,0,1,1]`).
            Op::V(ScaledCvt(c)) if c.narrow == crate::op::Narrow::Fp4 => {
                Some(if c.to_narrow { 3 } else { 2 })
            }
            _ => None,
        };
        if matches!(inst.op, Op::V(Bitop3B32 | Bitop3B16)) && inst.imm != 0 {
            let _ = match inst.imm {
                0..=10 => write!(self.tail, " bitop3:{}", inst.imm),
                _ => write!(self.tail, " bitop3:{:#x}", inst.imm),
            };
        }
        if matches!(inst.op, Op::V(Permlane16 | Permlanex16)) {
            // `fi` and `bound_ctrl` live in the op_sel bits.
            if inst.op_sel & 3 != 0 {
                let _ = write!(self.tail, " op_sel:[{},{}]", bit(0), bit(1));
            }
        } else if let Some(n) = selected
            && inst.op_sel & (((1u8 << n) - 1) | 8) != 0
        {
            let mut values: Vec<String> = (0..n as u8).map(|b| bit(b).to_string()).collect();
            values.push(bit(3).to_string());
            let _ = write!(self.tail, " op_sel:[{}]", values.join(","));
        }
        self.clamp_omod();
    }

    fn clamp_omod(&mut self) {
        let inst = self.inst;
        if inst.clamp {
            self.tail.push_str(" clamp");
        }
        match inst.omod {
            1 => self.tail.push_str(" mul:2"),
            2 => self.tail.push_str(" mul:4"),
            3 => self.tail.push_str(" div:2"),
            _ => {}
        }
    }

    pub(super) fn vop3p_tail(&mut self, sources: usize) {
        let inst = self.inst;
        if let Op::Mfma(shape) = inst.op {
            if let Some((cbsz, blgp)) = f8f6f4_formats(shape) {
                // The formats as LLVM prints them (the scale bit does
                // not print: LLVM prints the pair with its
                // `v_mfma_ld_scale_b32` as one instruction).
                for (name, value) in [("cbsz", cbsz), ("blgp", blgp)] {
                    if value != 0 {
                        let _ = write!(self.tail, " {name}:{value}");
                    }
                }
                return;
            }
            // gfx942's f64 negations (decoded from BLGP), else the
            // broadcast controls, as LLVM prints them.
            if inst.neg != 0 {
                let _ = write!(
                    self.tail,
                    " neg:[{},{},{}]",
                    inst.neg & 1,
                    inst.neg >> 1 & 1,
                    inst.neg >> 2 & 1
                );
            }
            for (name, value) in [
                ("cbsz", inst.imm & 7),
                ("abid", inst.imm >> 3 & 15),
                ("blgp", inst.imm >> 7 & 7),
            ] {
                if value != 0 {
                    let _ = write!(self.tail, " {name}:{value}");
                }
            }
            return;
        }
        let list = |bits: u8| {
            (0..sources)
                .map(|i| u8::from(bits & (1 << i) != 0).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mask = ((1u16 << sources) - 1) as u8;
        // LLVM 19's WMMA prints op_sel only for 16-bit results (bit 2:
        // which half), never op_sel_hi (it ignores the bits).
        let (wmma, op_sel) = match inst.op {
            Op::Wmma(w) => (true, w.half_output()),
            _ => (false, true),
        };
        if op_sel && inst.op_sel & mask != 0 {
            let _ = write!(self.tail, " op_sel:[{}]", list(inst.op_sel));
        }
        // Packed operations read the high halves by default; the mixed
        // FMAs read f32 sources (and print their negations and absolute
        // values on the sources).
        let mix = super::valu::mix(inst.op);
        let default_hi = if mix { 0 } else { mask };
        if !wmma && inst.op_sel_hi & mask != default_hi {
            let _ = write!(self.tail, " op_sel_hi:[{}]", list(inst.op_sel_hi));
        }
        if inst.neg & mask != 0 && !mix {
            let _ = write!(self.tail, " neg_lo:[{}]", list(inst.neg));
        }
        if inst.neg_hi & mask != 0 {
            let _ = write!(self.tail, " neg_hi:[{}]", list(inst.neg_hi));
        }
        if inst.clamp {
            self.tail.push_str(" clamp");
        }
    }

    pub(super) fn dpp_tail(&mut self) {
        let inst = self.inst;
        let fi = inst.has(flags::FETCH_INACTIVE) && self.family.rdna();
        if inst.has(flags::DPP8) {
            let lanes: Vec<String> = (0..8)
                .map(|i| ((inst.imm >> (3 * i)) & 7).to_string())
                .collect();
            let _ = write!(self.tail, " dpp8:[{}]", lanes.join(","));
            if fi {
                self.tail.push_str(" fi:1");
            }
            return;
        }
        let ctrl = inst.imm as u32 & 0x1ff;
        let gfx9 = self.family == Family::Gfx9;
        let text = match ctrl {
            0..=0xff => format!(
                "quad_perm:[{},{},{},{}]",
                ctrl & 3,
                (ctrl >> 2) & 3,
                (ctrl >> 4) & 3,
                (ctrl >> 6) & 3
            ),
            0x101..=0x10f => format!("row_shl:{}", ctrl - 0x100),
            0x111..=0x11f => format!("row_shr:{}", ctrl - 0x110),
            0x121..=0x12f => format!("row_ror:{}", ctrl - 0x120),
            0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143 if !gfx9 => {
                let what = match ctrl {
                    0x130 => "wave_shl",
                    0x134 => "wave_rol",
                    0x138 => "wave_shr",
                    0x13c => "wave_ror",
                    _ => "row_bcast",
                };
                format!("/* {what} is not supported starting from GFX10 */")
            }
            0x130 => "wave_shl:1".to_string(),
            0x134 => "wave_rol:1".to_string(),
            0x138 => "wave_shr:1".to_string(),
            0x13c => "wave_ror:1".to_string(),
            0x140 => "row_mirror".to_string(),
            0x141 => "row_half_mirror".to_string(),
            0x142 => "row_bcast:15".to_string(),
            0x143 => "row_bcast:31".to_string(),
            // gfx90a and gfx942 broadcast a lane within each row
            // (`row_newbcast`); GFX10+ share a row's lane (`row_share`).
            0x150..=0x15f if gfx9 => format!("row_newbcast:{}", ctrl - 0x150),
            0x150..=0x15f => format!("row_share:{}", ctrl - 0x150),
            0x160..=0x16f if gfx9 => {
                "/* row_xmask is not supported on ASICs earlier than GFX10 */".to_string()
            }
            0x160..=0x16f => format!("row_xmask:{}", ctrl - 0x160),
            _ => "/* Invalid dpp_ctrl value */".to_string(),
        };
        let _ = write!(
            self.tail,
            " {text} row_mask:{} bank_mask:{}",
            hex(u64::from((inst.imm2 as u32 >> 4) & 0xf)),
            hex(u64::from(inst.imm2 as u32 & 0xf))
        );
        if inst.has(flags::BOUND_CTRL) {
            self.tail.push_str(" bound_ctrl:1");
        }
        if fi {
            self.tail.push_str(" fi:1");
        }
    }

    pub(super) fn sdwa_tail(&mut self) {
        let inst = self.inst;
        let s = inst.imm as u32;
        let sel = |v: u32| match v & 7 {
            0 => "BYTE_0",
            1 => "BYTE_1",
            2 => "BYTE_2",
            3 => "BYTE_3",
            4 => "WORD_0",
            5 => "WORD_1",
            _ => "DWORD",
        };
        let encoding = inst.syntax.encoding;
        if encoding != Encoding::Vopc {
            self.clamp_omod();
            let unused = match (s >> 11) & 3 {
                0 => "UNUSED_PAD",
                1 => "UNUSED_SEXT",
                _ => "UNUSED_PRESERVE",
            };
            // gfx942's conversions from fp8/bf8 have no destination select.
            let no_dst_sel = matches!(
                inst.op,
                Op::V(Valu::CvtF32Fp8 | Valu::CvtF32Bf8 | Valu::CvtPkF32Fp8 | Valu::CvtPkF32Bf8)
            );
            if !no_dst_sel {
                let _ = write!(self.tail, " dst_sel:{} dst_unused:{unused}", sel(s >> 8));
            }
        }
        let _ = write!(self.tail, " src0_sel:{}", sel(s));
        if encoding != Encoding::Vop1 {
            let _ = write!(self.tail, " src1_sel:{}", sel(s >> 4));
        }
    }
}

/// The CBSZ and BLGP codes of a gfx950 `f8f6f4` MFMA's formats (0 fp8, 1
/// bf8, 2 fp6, 3 bf6, 4 fp4), or `None` for any other MFMA.
fn f8f6f4_formats(shape: crate::op::Mfma) -> Option<(u8, u8)> {
    if !shape.f8f6f4() {
        return None;
    }
    use crate::op::{MatrixType, Narrow};
    let code = |ty| match ty {
        MatrixType::OcpFp8 => Some(0),
        MatrixType::OcpBf8 => Some(1),
        MatrixType::Mx(Narrow::Fp6) => Some(2),
        MatrixType::Mx(Narrow::Bf6) => Some(3),
        MatrixType::Mx(Narrow::Fp4) => Some(4),
        _ => None,
    };
    Some((code(shape.a)?, code(shape.b)?))
}
