//! A decoded instruction: its operation and operands in one form for every
//! encoding and both families, so that execution never looks at bits.

use crate::fidelity::Fidelity;
use crate::op::Op;

/// Where an operand's value comes from or a result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Operand {
    /// No operand.
    #[default]
    None,
    /// A scalar register, numbered as GFX9 numbers them: SGPRs from 0,
    /// `FLAT_SCRATCH` 102-103, `XNACK_MASK` 104-105, `VCC` 106-107, trap
    /// temporaries 108-123, `M0` 124, `EXEC` 126-127 (GFX11's `M0`, 125, is
    /// renumbered to 124).
    Sreg(u8),
    /// A vector register.
    Vgpr(u16),
    /// An accumulation register (CDNA).
    Agpr(u16),
    /// An inline constant, by its source code (128-208 integers, 240-248
    /// floats whose bits depend on the operand's type).
    Inline(u8),
    /// A 32-bit literal following the instruction.
    Literal(u32),
    /// `SCC` as a source.
    Scc,
    /// `VCCZ` as a source.
    Vccz,
    /// `EXECZ` as a source.
    Execz,
    /// GFX11's `NULL`: reads 0, writes are dropped.
    Null,
}

/// Index of `VCC_LO` in the scalar file.
pub const VCC: u8 = 106;
/// Index of `M0` in the scalar file.
pub const M0: u8 = 124;
/// Index of `EXEC_LO` in the scalar file.
pub const EXEC: u8 = 126;
/// Entries of the scalar file (SGPRs and the special registers above).
pub const SREGS: usize = 128;

/// Bits of [`Inst::flags`].
pub mod flags {
    /// MUBUF/MTBUF: the VGPR address holds an offset.
    pub const OFFEN: u16 = 1 << 0;
    /// MUBUF/MTBUF: the VGPR address holds an index (first, if both).
    pub const IDXEN: u16 = 1 << 1;
    /// The memory instruction returns the pre-op value (atomics).
    pub const GLC: u16 = 1 << 2;
    /// MUBUF: load into LDS (`exec::lds_load`; dword and wider).
    pub const LDS: u16 = 1 << 4;
    /// VOP3P MAI: C and D are VGPRs rather than AGPRs (gfx90a/gfx942 `acc_cd` clear).
    pub const VGPR_CD: u16 = 1 << 5;
    /// The second half of a VOPD pair (same address as the first).
    pub const DUAL_Y: u16 = 1 << 6;
    /// DPP: out-of-range source lanes read 0 (`bound_ctrl`).
    pub const BOUND_CTRL: u16 = 1 << 7;
    /// DPP: fetch inactive lanes (`fi`).
    pub const FETCH_INACTIVE: u16 = 1 << 8;
    /// SMEM: an SGPR (its index in `imm2`) is added to the offset.
    pub const SOFFSET_SGPR: u16 = 1 << 9;
    /// DPP16: `src[0]` is read through the lane pattern in `imm`, rows and
    /// banks written per the masks in `imm2`.
    pub const DPP16: u16 = 1 << 10;
    /// DPP8: `src[0]` is read through the eight 3-bit lane selects in `imm`.
    pub const DPP8: u16 = 1 << 11;
    /// SDWA (GFX9): sources read as a byte, word or dword (`imm` bits 2:0
    /// and 6:4, sign extension in bits 3 and 7), the result written to the
    /// destination's byte, word or dword (bits 10:8) with the rest padded,
    /// sign-extended or preserved (bits 12:11).
    pub const SDWA: u16 = 1 << 12;
    /// `scratch_*`: the VGPR address is part of the per-lane offset (no
    /// `off` in its place; GFX940+ and GFX11 encode it as `sve`).
    pub const SCRATCH_VADDR: u16 = 1 << 13;
}

/// The encoding an instruction was decoded from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum Encoding {
    #[default]
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    /// One half of a VOPD pair (GFX11).
    Vopd,
    Ds,
    Mubuf,
    /// FLAT, GLOBAL and SCRATCH.
    Flat,
}

/// Bits of [`Syntax::modifiers`]: encoding fields execution ignores
/// (cache policy) or reads elsewhere, kept to print the instruction.
pub mod modifiers {
    /// `glc` (gfx942 vector memory: `sc0`).
    pub const GLC: u8 = 1 << 0;
    /// `slc` (gfx942: `nt`).
    pub const SLC: u8 = 1 << 1;
    /// `dlc` (GFX11).
    pub const DLC: u8 = 1 << 2;
    /// GFX9 `scc` (gfx942: `sc1`).
    pub const SCC: u8 = 1 << 3;
    /// MUBUF `tfe`: one more destination register, the fetch status.
    pub const TFE: u8 = 1 << 4;
    /// GFX9 SMEM `imm`: the offset field is a byte offset (with an SGPR
    /// offset too when [`super::flags::SOFFSET_SGPR`] is set), not an SGPR.
    pub const IMM_OFFSET: u8 = 1 << 5;
}

/// What LLVM's disassembler prints of an instruction beyond its operation
/// and operands ([`crate::disassemble`]); execution never reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Syntax {
    /// The encoding.
    pub encoding: Encoding,
    /// The operation's other VALU encoding, if it has one: a VOP1, VOP2 or
    /// VOPC operation that VOP3 also encodes has `Some(Vop3)` (LLVM prints
    /// `_e32`); a VOP3 operation promoted from a 32-bit encoding has that
    /// encoding (LLVM prints `_e64`, and it takes that encoding's sources).
    pub twin: Option<Encoding>,
    /// [`modifiers`] bits.
    pub modifiers: u8,
    /// GFX12 memory instructions' cache policy: the temporal hint `th`
    /// (bits 2:0) and the scope (bits 4:3), as encoded.
    pub cache_policy: u8,
}

/// One decoded instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inst {
    /// The operation.
    pub op: Op,
    /// The mnemonic LLVM's disassembler prints for it (without the
    /// `_e32`/`_e64`/`_dpp`/`_sdwa` encoding suffix).
    pub mnemonic: &'static str,
    /// Byte offset from the start of the program.
    pub pc: u32,
    /// Length in bytes (literal included); 0 for the second half of a VOPD pair.
    pub len: u8,
    /// Destinations: the result, and a second one (VOP3B's carry or
    /// condition SGPRs, a compare's mask destination).
    pub dst: [Operand; 2],
    /// Sources in order (for memory instructions: address, data, data1,
    /// resource or base).
    pub src: [Operand; 4],
    /// Immediate: SOPK/SOPP `simm16`, memory and LDS offsets, DPP control,
    /// an MFMA's CBSZ (bits 2:0), ABID (6:3) and BLGP (9:7).
    pub imm: i32,
    /// Second immediate: `offset1` of two-address LDS instructions, a
    /// memory instruction's `soffset` register, DPP row and bank masks.
    pub imm2: i32,
    /// VOP3 `abs` per source (bit per source).
    pub abs: u8,
    /// VOP3 `neg` per source; VOP3P `neg_lo`.
    pub neg: u8,
    /// VOP3P `neg_hi`.
    pub neg_hi: u8,
    /// VOP3 `op_sel` / VOP3P `op_sel`.
    pub op_sel: u8,
    /// VOP3P `op_sel_hi`.
    pub op_sel_hi: u8,
    /// Clamp the result.
    pub clamp: bool,
    /// VOP3 output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
    pub omod: u8,
    /// Encoding-specific bits ([`flags`]).
    pub flags: u16,
    /// How it was encoded, for printing only.
    pub syntax: Syntax,
    /// How faithfully it is executed, set once decoded so that a dispatch
    /// counts it without looking at its operation.
    pub fidelity: Fidelity,
}

impl Inst {
    /// An instruction of `op` with nothing else set.
    pub fn new(op: Op, mnemonic: &'static str, pc: u32, len: u8) -> Inst {
        Inst {
            op,
            mnemonic,
            pc,
            len,
            dst: [Operand::None; 2],
            src: [Operand::None; 4],
            imm: 0,
            imm2: 0,
            abs: 0,
            neg: 0,
            neg_hi: 0,
            op_sel: 0,
            op_sel_hi: 0,
            clamp: false,
            omod: 0,
            flags: 0,
            syntax: Syntax::default(),
            fidelity: op.fidelity(),
        }
    }

    /// True when flag `bit` ([`flags`]) is set.
    pub fn has(&self, bit: u16) -> bool {
        self.flags & bit != 0
    }
}
