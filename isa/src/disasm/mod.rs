//! Decoded instructions back to text, exactly as LLVM's disassembler
//! (`llvm-objdump-19 -d --mcpu=CHIP`) prints them, so that the decoder can
//! be checked operand by operand against LLVM: the mnemonic with the
//! encoding suffix LLVM adds (`_e32`, `_e64`, `_dpp`, `_sdwa`), registers
//! and register tuples, inline constants and literals in LLVM's spelling,
//! and each encoding's modifiers in LLVM's order.
//!
//! What the text needs beyond execution (cache-policy bits, which encoding
//! an operation came from) is in [`Inst::syntax`]; everything else follows
//! from the operation: register counts from operand types, how a constant
//! prints from whether the operand is 16-, 32- or 64-bit, integer or float.
//! A GFX11 instruction prints as objdump prints it with `--mcpu=gfx1100`,
//! i.e. for wave32 (`vcc_lo`, single-SGPR lane masks).

mod kind;
mod memory;
mod modifiers;
mod operand;
mod scalar;
mod special;
mod valu;

use crate::arch::{Chip, Family};
use crate::inst::{Encoding, Inst, Operand, flags};
use crate::op::Op;
use crate::program::Program;
use kind::{B32, B64, Kind};
use operand::operand;

pub(crate) use kind::{float_source, vop3_dpp_sext};

/// `inst` as `llvm-objdump-19 -d --mcpu=CHIP` prints it (without the
/// trailing `// address: words` comment). A VOPD pair decodes to two
/// [`Inst`]s; each prints its own half, and objdump joins them with
/// ` :: ` ([`Program::disassembly`] does).
pub fn disassemble(inst: &Inst, chip: Chip) -> String {
    let mut printer = Printer {
        inst,
        chip,
        family: chip.family(),
        operands: Vec::new(),
        tail: String::new(),
    };
    let name = printer.print();
    let mut out = name;
    if !printer.operands.is_empty() {
        out.push(' ');
        out.push_str(&printer.operands.join(", "));
    }
    out.push_str(&printer.tail);
    out
}

impl Program {
    /// Every instruction as LLVM's disassembler prints it, with its byte
    /// offset from the program's start; the halves of a VOPD pair share one
    /// line, joined with ` :: ` as objdump joins them.
    pub fn disassembly(&self) -> Vec<(u32, String)> {
        let mut out: Vec<(u32, String)> = Vec::new();
        for inst in self.instructions() {
            let text = disassemble(inst, self.chip());
            match out.last_mut() {
                Some((pc, line)) if inst.has(flags::DUAL_Y) && *pc == inst.pc => {
                    line.push_str(" :: ");
                    line.push_str(&text);
                }
                _ => out.push((inst.pc, text)),
            }
        }
        out
    }
}

/// One instruction's text as it is built. Each encoding family's operands
/// and modifiers are printed by an `impl Printer` block in a module of its
/// own: [`scalar`], [`valu`] (its modifiers in [`modifiers`]) and
/// [`memory`]; the special immediates are in [`special`].
struct Printer<'a> {
    inst: &'a Inst,
    chip: Chip,
    family: Family,
    operands: Vec<String>,
    /// Modifiers after the operands, each with its leading space.
    tail: String,
}

impl Printer<'_> {
    /// Prints the operands and modifiers; returns the mnemonic as printed.
    fn print(&mut self) -> String {
        let inst = self.inst;
        if matches!(inst.op, Op::Illegal) {
            // LLVM prints the trap alone, whatever its encoding's fields.
            return inst.mnemonic.to_string();
        }
        match inst.syntax.encoding {
            Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc => self.salu(),
            Encoding::Sopk => self.sopk(),
            Encoding::Sopp => self.sopp(),
            Encoding::Smem => self.smem(),
            Encoding::Vop1
            | Encoding::Vop2
            | Encoding::Vopc
            | Encoding::Vop3
            | Encoding::Vop3p
            | Encoding::Vopd => return self.valu(),
            Encoding::Ds => self.ds(),
            Encoding::Mubuf => self.mubuf(),
            Encoding::Flat => self.flat(),
        }
        inst.mnemonic.to_string()
    }

    /// Width of a lane mask in SGPRs as objdump prints it: wave64 on GFX9,
    /// wave32 on GFX11 (objdump's default for gfx1100).
    fn lane_mask(&self) -> Kind {
        match self.family {
            Family::Gfx9 => B64,
            Family::Gfx11 | Family::Gfx12 => B32,
        }
    }

    fn push(&mut self, text: String) {
        self.operands.push(text);
    }

    fn operand(&self, op: Operand, kind: Kind) -> String {
        operand(op, kind, self.family)
    }
}
