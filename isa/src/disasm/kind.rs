//! What an operand's text depends on besides its value: how many
//! registers it names and how an immediate in it prints (`Kind`, `Imm`),
//! and the kinds of each operation's destinations and sources (`Shape`),
//! from its operand types; the registers a load or store moves per lane,
//! which vector sources are floats (they take `neg` and `abs`) and how
//! many sources a VOP3-only operation has.

use crate::op::{Mem, Narrow, Op, Salu, Ty, Valu, Wide};

/// How an immediate prints: LLVM chooses by the operand's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Imm {
    /// Any 32-bit operand (integer or float print alike).
    B32,
    /// A 64-bit integer: a literal is zero-extended.
    B64,
    /// A 64-bit float: a literal is the high half.
    F64,
    /// A 16-bit integer: an inline float constant prints as its f16 bits,
    /// a literal is read as 32 bits and printed as its low half.
    I16,
    /// A 16-bit float.
    F16,
    /// Two packed 16-bit integers.
    V2I16,
    /// Two packed 16-bit floats.
    V2F16,
    /// The constant K of `v_fmamk`/`v_fmaak`-style operations, always
    /// printed as its 32 bits in hex.
    K,
}

/// An operand's register count and immediate type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kind {
    pub(super) regs: u8,
    pub(super) imm: Imm,
}

pub(super) const B32: Kind = Kind {
    regs: 1,
    imm: Imm::B32,
};
pub(super) const B64: Kind = Kind {
    regs: 2,
    imm: Imm::B64,
};
const F64: Kind = Kind {
    regs: 2,
    imm: Imm::F64,
};
const I16: Kind = Kind {
    regs: 1,
    imm: Imm::I16,
};
const F16: Kind = Kind {
    regs: 1,
    imm: Imm::F16,
};

/// `n` 32-bit registers.
pub(super) fn regs(n: u8) -> Kind {
    Kind {
        regs: n.max(1),
        imm: Imm::B32,
    }
}

/// The kinds of an instruction's destinations and sources.
pub(super) struct Shape {
    pub(super) dst: [Kind; 2],
    pub(super) src: [Kind; 4],
}

impl Shape {
    pub(super) fn all(kind: Kind) -> Shape {
        Shape {
            dst: [kind; 2],
            src: [kind; 4],
        }
    }
}
/// Registers a load or store moves per lane.
pub(super) fn mem_regs(m: Mem) -> u8 {
    if m.d16 || m.d16_hi {
        1
    } else {
        m.bytes.div_ceil(4)
    }
}

/// The kind of a compare's operands of type `ty`.
pub(super) fn ty_kind(ty: Ty) -> Kind {
    match ty {
        Ty::F64 => F64,
        Ty::I64 | Ty::U64 => B64,
        Ty::F16 => F16,
        Ty::I16 | Ty::U16 => I16,
        _ => B32,
    }
}

/// Whether source `i` of `op` is a float operand (it takes `neg`/`abs`).
pub(crate) fn float_source(op: Op, i: usize) -> bool {
    use Valu::*;
    let float_ty = |ty| matches!(ty, Ty::F16 | Ty::F32 | Ty::F64);
    match op {
        Op::VCmp(_, ty, _) => i < 2 && float_ty(ty),
        Op::VCmpClass(ty, _) => i == 0 && float_ty(ty),
        Op::V(v) => match v {
            // A float and an integer exponent.
            LdexpF32 | LdexpF64 => i == 0,
            // The mask is not; LLVM gives the selected values float
            // modifiers.
            Cndmask | CndmaskB16 => i < 2,
            AddF32 | SubF32 | SubrevF32 | MulF32 | MulLegacyF32 | FmaF32 | FmacF32 | MacF32
            | MadF32 | FmamkF32 | FmaakF32 | FmamkF16 | FmaakF16 | MadmkF32 | MadakF32 | MinF32
            | MaxF32 | Min3F32 | Max3F32 | Med3F32 | ExpF32 | LogF32 | RcpF32 | RcpIflagF32
            | RsqF32 | SqrtF32 | SinF32 | CosF32 | RndneF32 | FloorF32 | CeilF32 | TruncF32
            | FractF32 | FrexpMantF32 | FrexpExpF32 | FrexpMantF64 | FrexpExpF64 | DivScaleF32
            | DivFmasF32 | DivFixupF32 | AddF64 | MulF64 | FmaF64 | FmacF64 | MinF64 | MaxF64
            | RcpF64 | RsqF64 | SqrtF64 | DivScaleF64 | DivFmasF64 | DivFixupF64 | FractF64
            | RndneF64 | FloorF64 | CeilF64 | TruncF64 | AddF16 | SubF16 | SubrevF16 | MulF16
            | FmaF16 | FmacF16 | MinF16 | MaxF16 | MaxminF32 | MinmaxF32 | MaxminF16
            | MinmaxF16 | PackB32F16 | CvtI32F32 | CvtU32F32 | CvtF16F32 | CvtF32F16
            | CvtF64F32 | CvtF32F64 | CvtI32F64 | CvtU32F64 | CvtPkrtzF16F32 | CvtFlrI32F32
            | CvtRpiI32F32 | CvtI16F16 | CvtU16F16 | CvtPkF16F32 | CvtPkBf16F32 => true,
            CvtPkFp8F32 | CvtPkBf8F32 => i < 2,
            // The random bits are not.
            CvtSrFp8F32 | CvtSrBf8F32 => i == 0,
            CeilF16 | FloorF16 | TruncF16 | RndneF16 | FractF16 | SqrtF16 | RcpF16 | RsqF16
            | ExpF16 | LogF16 | SinF16 | CosF16 => true,
            Min3F16 | Max3F16 | Med3F16 | DivFixupF16 | DivFixupLegacyF16 => true,
            FmaMixF32 | FmaMixloF16 | FmaMixhiF16 => i < 3,
            _ => false,
        },
        _ => false,
    }
}

/// Sources of a vector operation in its VOP3-only form.
pub(super) fn valu_sources(v: Valu) -> usize {
    use Valu::*;
    match v {
        Mov32 | AccvgprWrite | AccvgprRead | AccvgprMov | CvtF32Fp8 | CvtF32Bf8 | CvtPkF32Fp8
        | CvtPkF32Bf8 | Mov64 | NotB32 | NotB16 | MovB16 | ExpF32 | LogF32 | RcpF32
        | RcpIflagF32 | RsqF32 | SqrtF32 | SinF32 | CosF32 | RndneF32 | FloorF32 | CeilF32
        | TruncF32 | FractF32 | FrexpMantF32 | FrexpExpF32 | FrexpMantF64 | FrexpExpF64
        | RcpF64 | RsqF64 | SqrtF64 | FractF64 | RndneF64 | FloorF64 | CeilF64 | TruncF64
        | CvtI32F32 | CvtU32F32 | CvtF32I32 | CvtF32U32 | CvtF16F32 | CvtF32F16 | CvtF64F32
        | CvtF32F64 | CvtI32F64 | CvtU32F64 | CvtF64I32 | CvtF64U32 | CvtF32Ubyte(_)
        | CvtFlrI32F32 | CvtRpiI32F32 | CvtI16F16 | CvtU16F16 | CvtF16I16 | CvtF16U16
        | CvtU32U16 | CvtI32I16 | FfbhU32 | FfblB32 | FfbhI32 | BfrevB32 | Readfirstlane => 1,
        CeilF16 | FloorF16 | TruncF16 | RndneF16 | FractF16 | SqrtF16 | RcpF16 | RsqF16
        | ExpF16 | LogF16 | SinF16 | CosF16 => 1,
        FmaF32 | MadF32 | Min3F32 | Max3F32 | Med3F32 | DivScaleF32 | DivFmasF32 | DivFixupF32
        | FmaF64 | DivScaleF64 | DivFmasF64 | DivFixupF64 | FmaF16 | PkFmaF32 | PkFmaF16
        | FmaMixF32 | FmaMixloF16 | FmaMixhiF16 | Dot2F32F16 | Dot4I32I8 | Dot4U32U8
        | Dot4I32Iu8 | Dot2I32I16 | Dot2U32U16 | MadU32U24 | MadI32I24 | MadU64U32 | MadI64I32
        | BfeU32 | BfeI32 | BfiB32 | LshlAddU32 | LshlOrB32 | AddLshlU32 | AndOrB32 | Or3B32
        | Xor3B32 | Add3U32 | XadU32 | Min3I32 | Max3I32 | Med3I32 | Min3U32 | Max3U32
        | Med3U32 | MaxminF32 | MinmaxF32 | MaxminF16 | MinmaxF16 | MaxminI32 | MinmaxI32
        | MaxminU32 | MinmaxU32 | AlignbitB32 | AlignbyteB32 | PermB32 | LshlAddU64
        | Permlanex16 | Permlane16 | Cndmask | CndmaskB16 | AddcCoU32 | SubbCoU32
        | SubbrevCoU32 | FmamkF32 | FmaakF32 | FmamkF16 | FmaakF16 | MadmkF32 | MadakF32 => 3,
        Bitop3B32 | Bitop3B16 => 3,
        // The random bits, or f32's second source, before the scale.
        ScaledCvt(c) if c.to_narrow && (c.stochastic || c.wide == Wide::F32) => 3,
        MadU16 | MadI16 | MadLegacyU16 | MadLegacyI16 | MadU32U16 | MadI32I16 | Min3U16
        | Min3I16 | Min3F16 | Max3U16 | Max3I16 | Max3F16 | Med3U16 | Med3I16 | Med3F16
        | DivFixupF16 | DivFixupLegacyF16 | PkMadU16 | PkMadI16 | SadU8 | SadHiU8 | SadU16
        | SadU32 | MsadU8 => 3,
        _ => 2,
    }
}

/// Operand kinds of a vector operation (all 32-bit unless set here).
pub(super) fn valu_kinds(v: Valu, shape: &mut Shape, lane: Kind) {
    use Valu::*;
    let v2f16 = Kind {
        regs: 1,
        imm: Imm::V2F16,
    };
    let v2i16 = Kind {
        regs: 1,
        imm: Imm::V2I16,
    };
    let [d, _] = &mut shape.dst;
    let [s0, s1, s2, _] = &mut shape.src;
    match v {
        Mov64 => (*d, *s0) = (B64, B64),
        CvtPkF32Fp8 | CvtPkF32Bf8 => *d = B64,
        ScaledCvt(c) => {
            // Two FP4 elements, or 32 six-bit ones (six registers).
            let elements: u8 = if c.narrow == Narrow::Fp4 { 2 } else { 32 };
            let wide = |elements: u8| match c.wide {
                Wide::F32 => regs(elements),
                Wide::F16 | Wide::Bf16 => regs(elements / 2),
            };
            let narrow = regs(if c.narrow == Narrow::Fp4 { 1 } else { 6 });
            if !c.to_narrow {
                (*d, *s0) = (wide(elements), narrow);
            } else if c.wide == Wide::F32 && !c.stochastic && c.narrow != Narrow::Fp4 {
                // `2xpk16`: sixteen elements in each source.
                (*d, *s0, *s1) = (narrow, regs(16), regs(16));
            } else if c.wide == Wide::F32 && !c.stochastic {
                *d = narrow;
            } else {
                (*d, *s0) = (narrow, wide(elements));
            }
        }
        PkMov32 | PkAddF32 | PkMulF32 | PkFmaF32 => {
            (*d, *s0, *s1, *s2) = (regs(2), regs(2), regs(2), regs(2));
        }
        AddF64 | MulF64 | FmaF64 | FmacF64 | MinF64 | MaxF64 | RcpF64 | RsqF64 | SqrtF64
        | FractF64 | FrexpMantF64 | RndneF64 | FloorF64 | CeilF64 | TruncF64 | DivFmasF64
        | DivFixupF64 | DivScaleF64 => (*d, *s0, *s1, *s2) = (F64, F64, F64, F64),
        LdexpF64 => (*d, *s0) = (F64, F64),
        CvtF64F32 | CvtF64I32 | CvtF64U32 => *d = F64,
        CvtF32F64 | CvtI32F64 | CvtU32F64 | FrexpExpF64 => *s0 = F64,
        MadU64U32 | MadI64I32 => (*d, *s2) = (B64, B64),
        LshlrevB64 | LshrrevB64 | AshrrevI64 => (*d, *s1) = (B64, B64),
        LshlAddU64 => (*d, *s0, *s2) = (B64, B64, B64),
        AddF16 | SubF16 | SubrevF16 | MulF16 | FmaF16 | FmacF16 | MinF16 | MaxF16 | MaxminF16
        | MinmaxF16 | PackB32F16 => (*s0, *s1, *s2) = (F16, F16, F16),
        CvtF32F16 | CvtI16F16 | CvtU16F16 => *s0 = F16,
        CeilF16 | FloorF16 | TruncF16 | RndneF16 | FractF16 | SqrtF16 | RcpF16 | RsqF16
        | ExpF16 | LogF16 | SinF16 | CosF16 => *s0 = F16,
        CvtF16I16 | CvtF16U16 | CvtU32U16 | CvtI32I16 | MovB16 | NotB16 => *s0 = I16,
        AndB16 | OrB16 | XorB16 | AddU16 | SubU16 | SubrevU16 | AddI16 | SubI16 | MulLoU16
        | LshlrevB16 | LshrrevB16 | AshrrevI16 | MinI16 | MaxI16 | MinU16 | MaxU16 => {
            (*s0, *s1) = (I16, I16)
        }
        MadU16 | MadI16 | MadLegacyU16 | MadLegacyI16 | Min3U16 | Min3I16 | Max3U16 | Max3I16
        | Med3U16 | Med3I16 | Bitop3B16 => (*s0, *s1, *s2) = (I16, I16, I16),
        // The 32-bit addend prints as a 32-bit operand.
        MadU32U16 | MadI32I16 => (*s0, *s1) = (I16, I16),
        Min3F16 | Max3F16 | Med3F16 | DivFixupF16 | DivFixupLegacyF16 => {
            (*s0, *s1, *s2) = (F16, F16, F16)
        }
        PkMadU16 | PkMadI16 => (*s0, *s1, *s2) = (v2i16, v2i16, v2i16),
        PkFmacF16 => (*s0, *s1) = (v2f16, v2f16),
        PkAddF16 | PkMulF16 | PkFmaF16 | PkMinF16 | PkMaxF16 => {
            (*s0, *s1, *s2) = (v2f16, v2f16, v2f16);
        }
        Dot2F32F16 | Dot2cF32F16 => (*s0, *s1) = (v2f16, v2f16),
        Dot2I32I16 | Dot2U32U16 | Dot2cI32I16 => (*s0, *s1) = (v2i16, v2i16),
        PkAddU16 | PkAddI16 | PkSubU16 | PkSubI16 | PkMulLoU16 | PkLshlrevB16 | PkLshrrevB16
        | PkAshrrevI16 | PkMinI16 | PkMaxI16 | PkMinU16 | PkMaxU16 => {
            (*s0, *s1) = (v2i16, v2i16);
        }
        // The condition mask or carry-in.
        Cndmask | AddcCoU32 | SubbCoU32 | SubbrevCoU32 => *s2 = lane,
        // LLVM 19 reads its sources as 16-bit integers (a float constant
        // prints as its f16 bits).
        CndmaskB16 => (*s0, *s1, *s2) = (I16, I16, lane),
        FmamkF16 | FmaakF16 => {
            (*s0, *s1) = (F16, F16);
            *s2 = Kind {
                regs: 1,
                imm: Imm::K,
            };
        }
        FmamkF32 | FmaakF32 | MadmkF32 | MadakF32 => {
            *s2 = Kind {
                regs: 1,
                imm: Imm::K,
            };
        }
        _ => {}
    }
}

/// Operand kinds of a scalar instruction.
pub(super) fn scalar_shape(op: Op) -> Shape {
    use Salu::*;
    match op {
        Op::S(salu, true) => {
            let mut shape = Shape::all(B64);
            match salu {
                // A 64-bit value shifted or extracted by a 32-bit amount.
                Lshl | Lshr | Ashr | BfeU | BfeI => shape.src[1] = B32,
                // The bit's index is 32-bit.
                Bitset(_) => shape.src[0] = B32,
                Bfm => shape.src = [B32; 4],
                Bcnt1 | Ff1 | Flbit | Cls => shape.dst[0] = B32,
                _ => {}
            }
            shape
        }
        Op::SCmp(_, Ty::I64 | Ty::U64) => Shape::all(B64),
        Op::SBitcmp(_, true) => {
            let mut shape = Shape::all(B32);
            shape.src[0] = B64;
            shape
        }
        Op::Getpc | Op::Setpc | Op::Swappc => Shape::all(B64),
        _ => Shape::all(B32),
    }
}

/// The GFX11 VOP3 DPP forms whose `neg` bits LLVM prints as `sext(...)`:
/// the 16-bit integer operations with `op_sel` (its "IntOpSelMods"
/// operands). The other integer operations' DPP forms take no source
/// modifier, and LLVM rejects them with a `neg` bit set.
pub(crate) fn vop3_dpp_sext(op: Op) -> bool {
    use Valu::*;
    matches!(
        op,
        Op::V(
            AddU16
                | SubU16
                | AddI16
                | SubI16
                | MadU16
                | MadI16
                | MadU32U16
                | MadI32I16
                | Min3U16
                | Min3I16
                | Max3U16
                | Max3I16
                | Med3U16
                | Med3I16
        )
    )
}
