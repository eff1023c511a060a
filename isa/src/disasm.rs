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

use std::fmt::Write as _;

use crate::arch::{Chip, Family};
use crate::inst::{EXEC, Encoding, Inst, M0, Operand, VCC, flags, modifiers};
use crate::op::{Atomic, Lds, Mem, Op, Salu, Segment, Ty, Valu};
use crate::program::Program;

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

/// How an immediate prints: LLVM chooses by the operand's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Imm {
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
struct Kind {
    regs: u8,
    imm: Imm,
}

const B32: Kind = Kind {
    regs: 1,
    imm: Imm::B32,
};
const B64: Kind = Kind {
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
fn regs(n: u8) -> Kind {
    Kind {
        regs: n.max(1),
        imm: Imm::B32,
    }
}

/// The kinds of an instruction's destinations and sources.
struct Shape {
    dst: [Kind; 2],
    src: [Kind; 4],
}

impl Shape {
    fn all(kind: Kind) -> Shape {
        Shape {
            dst: [kind; 2],
            src: [kind; 4],
        }
    }
}

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
            Family::Gfx11 => B32,
        }
    }

    fn push(&mut self, text: String) {
        self.operands.push(text);
    }

    fn operand(&self, op: Operand, kind: Kind) -> String {
        operand(op, kind, self.family)
    }

    // Scalar ALU.

    fn salu(&mut self) {
        let inst = self.inst;
        let shape = scalar_shape(inst.op);
        match inst.syntax.encoding {
            Encoding::Sopc => {}
            _ if inst.op == Op::Setpc => {}
            _ => self.push(self.operand(inst.dst[0], shape.dst[0])),
        }
        let sources = match inst.syntax.encoding {
            Encoding::Sop1 if inst.op == Op::Getpc => 0,
            Encoding::Sop1 => 1,
            _ => 2,
        };
        for i in 0..sources {
            let (Some(&op), Some(&kind)) = (inst.src.get(i), shape.src.get(i)) else {
                continue;
            };
            self.push(self.operand(op, kind));
        }
    }

    fn sopk(&mut self) {
        let inst = self.inst;
        self.push(self.operand(inst.dst[0], B32));
        self.push(hex(u64::from(inst.imm as u16)));
    }

    fn sopp(&mut self) {
        let inst = self.inst;
        let imm = inst.imm as u16;
        let name = inst.mnemonic.strip_prefix("s_").unwrap_or(inst.mnemonic);
        let text = match inst.op {
            // The branch offset in dwords, as an unsigned 16-bit number
            // (objdump adds the target in its comment).
            Op::Branch(_) => imm.to_string(),
            _ => match name {
                "waitcnt" => self.waitcnt(imm),
                "delay_alu" => delay_alu(imm),
                "waitcnt_depctr" => depctr(imm),
                "sendmsg" | "sendmsghalt" => self.sendmsg(imm),
                "clause"
                | "set_inst_prefetch_distance"
                | "inst_prefetch"
                | "round_mode"
                | "wait_event"
                | "ttracedata_imm" => hex(u64::from(imm)),
                "barrier"
                | "icache_inv"
                | "wakeup"
                | "ttracedata"
                | "code_end"
                | "wait_idle"
                | "endpgm_saved"
                | "endpgm_ordered_ps_done"
                | "set_gpr_idx_off" => String::new(),
                "endpgm" if imm == 0 => String::new(),
                "endpgm" => imm.to_string(),
                // `s_nop`, `s_sleep`, `s_setprio`, `s_sethalt`, ...: small
                // values in decimal, others in hex.
                _ if imm <= 64 => imm.to_string(),
                _ => hex(u64::from(imm)),
            },
        };
        if !text.is_empty() {
            self.push(text);
        }
    }

    /// `s_waitcnt`'s counters: those below their maximum, or all three when
    /// none is.
    fn waitcnt(&self, imm: u16) -> String {
        let imm = u32::from(imm);
        let (vm, exp, lgkm, lgkm_max) = match self.family {
            Family::Gfx9 => (
                (imm & 0xf) | ((imm >> 14) & 3) << 4,
                (imm >> 4) & 7,
                (imm >> 8) & 0xf,
                0xf,
            ),
            Family::Gfx11 => ((imm >> 10) & 0x3f, imm & 7, (imm >> 4) & 0x3f, 0x3f),
        };
        let all = vm == 0x3f && exp == 7 && lgkm == lgkm_max;
        let mut parts = Vec::new();
        if vm != 0x3f || all {
            parts.push(format!("vmcnt({vm})"));
        }
        if exp != 7 || all {
            parts.push(format!("expcnt({exp})"));
        }
        if lgkm != lgkm_max || all {
            parts.push(format!("lgkmcnt({lgkm})"));
        }
        parts.join(" ")
    }

    /// `s_sendmsg`'s message: LLVM's symbolic form where the message (and
    /// its operation and stream) is one LLVM names, else the numbers, or
    /// the raw value where the numbers do not make it up.
    fn sendmsg(&self, imm: u16) -> String {
        let imm = u32::from(imm);
        let gfx11 = self.family == Family::Gfx11;
        // GFX11 messages have no operation or stream fields.
        let (id, op, stream) = if gfx11 {
            (imm & 0xff, 0, 0)
        } else {
            (imm & 0xf, (imm >> 4) & 7, (imm >> 8) & 3)
        };
        let name = if gfx11 {
            match id {
                1 => Some("MSG_INTERRUPT"),
                2 => Some("MSG_HS_TESSFACTOR"),
                3 => Some("MSG_DEALLOC_VGPRS"),
                5 => Some("MSG_STALL_WAVE_GEN"),
                6 => Some("MSG_HALT_WAVES"),
                9 => Some("MSG_GS_ALLOC_REQ"),
                128 => Some("MSG_RTN_GET_DOORBELL"),
                129 => Some("MSG_RTN_GET_DDID"),
                130 => Some("MSG_RTN_GET_TMA"),
                131 => Some("MSG_RTN_GET_REALTIME"),
                132 => Some("MSG_RTN_SAVE_WAVE"),
                133 => Some("MSG_RTN_GET_TBA"),
                134 => Some("MSG_RTN_GET_TBA_TO_PC"),
                _ => None,
            }
        } else {
            match id {
                1 => Some("MSG_INTERRUPT"),
                2 => Some("MSG_GS"),
                3 => Some("MSG_GS_DONE"),
                4 => Some("MSG_SAVEWAVE"),
                5 => Some("MSG_STALL_WAVE_GEN"),
                6 => Some("MSG_HALT_WAVES"),
                7 => Some("MSG_ORDERED_PS_DONE"),
                8 => Some("MSG_EARLY_PRIM_DEALLOC"),
                9 => Some("MSG_GS_ALLOC_REQ"),
                10 => Some("MSG_GET_DOORBELL"),
                15 => Some("MSG_SYSMSG"),
                _ => None,
            }
        };
        // GFX9's GS messages and system messages take an operation.
        let gs = !gfx11 && matches!(id, 2 | 3);
        let op_name = match (gs, !gfx11 && id == 15, op) {
            (true, _, 0) if id == 3 => Some("GS_OP_NOP"),
            (true, _, 1) => Some("GS_OP_CUT"),
            (true, _, 2) => Some("GS_OP_EMIT"),
            (true, _, 3) => Some("GS_OP_EMIT_CUT"),
            (_, true, 1) => Some("SYSMSG_OP_ECC_ERR_INTERRUPT"),
            (_, true, 2) => Some("SYSMSG_OP_REG_RD"),
            (_, true, 4) => Some("SYSMSG_OP_TTRACE_PC"),
            _ => None,
        };
        let takes_op = gs || (!gfx11 && id == 15);
        // A GS operation other than NOP takes a stream.
        let takes_stream = gs && op != 0;
        match name {
            Some(name) if takes_op && op_name.is_some() && (takes_stream || stream == 0) => {
                let op_name = op_name.unwrap_or_default();
                if takes_stream {
                    format!("sendmsg({name}, {op_name}, {stream})")
                } else {
                    format!("sendmsg({name}, {op_name})")
                }
            }
            Some(name) if !takes_op && op == 0 && stream == 0 => format!("sendmsg({name})"),
            _ if id | op << 4 | stream << 8 == imm => {
                format!("sendmsg({id}, {op}, {stream})")
            }
            _ => imm.to_string(),
        }
    }

    fn smem(&mut self) {
        let inst = self.inst;
        let Op::SLoad(dwords, buffer) = inst.op else {
            // `s_dcache_inv`, `s_dcache_wb`: no operands.
            return;
        };
        self.push(self.operand(inst.dst[0], regs(dwords)));
        self.push(self.operand(inst.src[0], regs(if buffer { 4 } else { 2 })));
        let soffset = inst.has(flags::SOFFSET_SGPR).then(|| {
            let code = inst.imm2 as u8;
            // GFX11 numbers `M0` 125 ([`Operand::Sreg`] uses GFX9's 124).
            let reg = if self.family == Family::Gfx11 && code == 125 {
                M0
            } else {
                code
            };
            sreg(reg, 1, self.family)
        });
        let offset = signed_hex(i64::from(inst.imm));
        let text = match (self.family, soffset) {
            (Family::Gfx9, Some(reg)) if inst.syntax.modifiers & modifiers::IMM_OFFSET != 0 => {
                format!("{reg} offset:{offset}")
            }
            (_, Some(reg)) if inst.imm != 0 => format!("{reg} offset:{offset}"),
            (_, Some(reg)) => reg,
            (Family::Gfx11, None) if inst.imm == 0 => "null".to_string(),
            (_, None) => offset,
        };
        self.push(text);
        let m = inst.syntax.modifiers;
        if m & modifiers::GLC != 0 {
            self.tail.push_str(" glc");
        }
        if m & modifiers::DLC != 0 {
            self.tail.push_str(" dlc");
        }
    }

    // Vector ALU.

    fn valu(&mut self) -> String {
        let inst = self.inst;
        let encoding = inst.syntax.encoding;
        let dpp = inst.flags & (flags::DPP16 | flags::DPP8) != 0;
        let sdwa = inst.has(flags::SDWA);
        let suffix = if dpp {
            // LLVM 19 prints GFX11's VOPC DPP forms without a suffix.
            if encoding == Encoding::Vopc && self.family == Family::Gfx11 {
                ""
            } else {
                "_dpp"
            }
        } else if sdwa {
            "_sdwa"
        } else {
            match (encoding, inst.syntax.twin) {
                (Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc, Some(_)) => "_e32",
                (Encoding::Vop3, Some(_)) => "_e64",
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
    /// half, written here as `.h`. `bit` is the operand's [`Inst::op_sel`]
    /// bit.
    fn vgpr_half(&self, op: Operand, kind: Kind, bit: u8) -> String {
        let inst = self.inst;
        let text = self.operand(op, kind);
        let short = matches!(
            inst.syntax.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
        );
        if self.family != Family::Gfx11 || !short || !matches!(op, Operand::Vgpr(_)) {
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
        if sdwa {
            if i < 2 && !float && inst.imm & (8 << (4 * i)) != 0 {
                return format!("sext({text})");
            }
        } else if inst.syntax.encoding == Encoding::Vop3p
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
        let k = matches!(inst.op, Op::V(FmamkF32 | MadmkF32));
        let ak = matches!(inst.op, Op::V(FmaakF32 | MadakF32));
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
                        Op::VCmp(..) | Op::VCmpClass(..) => 2,
                        _ => 3,
                    },
                };
                (0..n).collect()
            }
            _ => match inst.op {
                Op::V(PkFmaF32 | PkFmaF16) | Op::Mfma(_) | Op::Wmma(_) => vec![0, 1, 2],
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
                let out =
                    regs(((u16::from(m.m) * u16::from(m.n) * u16::from(m.blocks)) / 64) as u8);
                let input = match m.input {
                    Ty::F32 => B32,
                    _ => regs(2),
                };
                shape.dst[0] = out;
                shape.src = [input, input, out, B32];
            }
            Op::Wmma(_) => {
                shape.dst[0] = regs(8);
                shape.src = [regs(8), regs(8), regs(8), B32];
            }
            Op::V(v) => valu_kinds(v, &mut shape, lane),
            _ => {}
        }
        shape
    }

    fn vop3_tail(&mut self, sources: usize) {
        use Valu::*;
        let inst = self.inst;
        let bit = |b: u8| u8::from(inst.op_sel & (1 << b) != 0);
        let gfx11 = self.family == Family::Gfx11;
        // The operations LLVM 19 gives an op_sel operand; it ignores the
        // field of the others (GFX11's 16-bit operations are its "fake16"
        // forms, which cannot name a high half), and prints nothing.
        let selected = match inst.op {
            Op::V(FmaF16 | PackB32F16) => Some(sources),
            // The accumulator's bit counts too.
            Op::V(FmacF16) if gfx11 => Some(3),
            Op::V(AddU16 | SubU16) if gfx11 => Some(sources),
            _ => None,
        };
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

    fn vop3p_tail(&mut self, sources: usize) {
        let inst = self.inst;
        if let Op::Mfma(_) = inst.op {
            return;
        }
        let list = |bits: u8| {
            (0..sources)
                .map(|i| u8::from(bits & (1 << i) != 0).to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mask = ((1u16 << sources) - 1) as u8;
        // LLVM 19's f32 WMMA has no op_sel operands (it ignores the bits).
        let wmma = matches!(inst.op, Op::Wmma(_));
        if !wmma && inst.op_sel & mask != 0 {
            let _ = write!(self.tail, " op_sel:[{}]", list(inst.op_sel));
        }
        // Packed operations read the high halves by default.
        if !wmma && inst.op_sel_hi & mask != mask {
            let _ = write!(self.tail, " op_sel_hi:[{}]", list(inst.op_sel_hi));
        }
        if inst.neg & mask != 0 {
            let _ = write!(self.tail, " neg_lo:[{}]", list(inst.neg));
        }
        if inst.neg_hi & mask != 0 {
            let _ = write!(self.tail, " neg_hi:[{}]", list(inst.neg_hi));
        }
        if inst.clamp {
            self.tail.push_str(" clamp");
        }
    }

    fn dpp_tail(&mut self) {
        let inst = self.inst;
        let fi = inst.has(flags::FETCH_INACTIVE) && self.family == Family::Gfx11;
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

    fn sdwa_tail(&mut self) {
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
            let _ = write!(self.tail, " dst_sel:{} dst_unused:{unused}", sel(s >> 8));
        }
        let _ = write!(self.tail, " src0_sel:{}", sel(s));
        if encoding != Encoding::Vop1 {
            let _ = write!(self.tail, " src1_sel:{}", sel(s >> 4));
        }
    }

    // LDS.

    fn ds(&mut self) {
        let inst = self.inst;
        let Op::Lds(lds) = inst.op else {
            return;
        };
        let per = |bytes: u8| regs(bytes.div_ceil(4));
        let addr = self.operand(inst.src[0], B32);
        let mut two = false;
        match lds {
            Lds::Load {
                bytes, two: pair, ..
            } => {
                two = pair;
                let n = per(bytes).regs * if pair { 2 } else { 1 };
                self.push(self.operand(inst.dst[0], regs(n)));
                self.push(addr);
            }
            Lds::Store {
                bytes, two: pair, ..
            } => {
                two = pair;
                self.push(addr);
                self.push(self.operand(inst.src[1], per(bytes)));
                if pair {
                    self.push(self.operand(inst.src[2], per(bytes)));
                }
            }
            Lds::Atomic { op, bytes, rtn } => {
                if rtn {
                    self.push(self.operand(inst.dst[0], per(bytes)));
                }
                self.push(addr);
                self.push(self.operand(inst.src[1], per(bytes)));
                if op == Atomic::CmpSwap {
                    self.push(self.operand(inst.src[2], per(bytes)));
                }
            }
            Lds::Bpermute | Lds::Permute => {
                self.push(self.operand(inst.dst[0], B32));
                self.push(addr);
                self.push(self.operand(inst.src[1], B32));
            }
            Lds::Swizzle => {
                self.push(self.operand(inst.dst[0], B32));
                self.push(addr);
                let offset = (inst.imm as u16) | ((inst.imm2 as u16) << 8);
                if offset != 0 {
                    let _ = write!(self.tail, " offset:{}", swizzle(offset));
                }
                return;
            }
        }
        if two {
            if inst.imm != 0 {
                let _ = write!(self.tail, " offset0:{}", inst.imm);
            }
            if inst.imm2 != 0 {
                let _ = write!(self.tail, " offset1:{}", inst.imm2);
            }
        } else {
            let offset = inst.imm | (inst.imm2 << 8);
            if offset != 0 {
                let _ = write!(self.tail, " offset:{offset}");
            }
        }
    }

    // Vector memory.

    /// The data registers of a load or store, and of an atomic (its
    /// returned value is the first half of a compare-swap's data).
    fn data_kinds(&self) -> (Kind, Kind) {
        let inst = self.inst;
        let tfe = u8::from(inst.syntax.modifiers & modifiers::TFE != 0);
        match inst.op {
            Op::Load(m) => {
                let k = regs(mem_regs(m) + tfe);
                (k, k)
            }
            // LLVM counts the status register in a store's data too.
            Op::Store(m) => {
                let k = regs(mem_regs(m) + tfe);
                (k, k)
            }
            Op::Atomic(_, atomic, bytes) => {
                let n = bytes / 4;
                let data = if atomic == Atomic::CmpSwap { 2 * n } else { n };
                (regs(n + tfe), regs(data))
            }
            _ => (B32, B32),
        }
    }

    /// The cache-policy modifiers in LLVM's order for the chip.
    fn cache_policy(&mut self) {
        let m = self.inst.syntax.modifiers;
        let names: &[(u8, &str)] = match self.chip {
            Chip::Gfx90a => &[
                (modifiers::GLC, " glc"),
                (modifiers::SLC, " slc"),
                (modifiers::SCC, " scc"),
            ],
            Chip::Gfx942 => &[
                (modifiers::GLC, " sc0"),
                (modifiers::SLC, " nt"),
                (modifiers::SCC, " sc1"),
            ],
            Chip::Gfx1100 => &[
                (modifiers::GLC, " glc"),
                (modifiers::SLC, " slc"),
                (modifiers::DLC, " dlc"),
            ],
        };
        for &(bit, name) in names {
            if m & bit != 0 {
                self.tail.push_str(name);
            }
        }
    }

    fn mubuf(&mut self) {
        let inst = self.inst;
        if matches!(inst.op, Op::Nop) {
            // A cache write-back or invalidation: no address; LLVM prints
            // the scope bits on gfx940's (`buffer_wbl2 sc0 sc1`) only.
            if self.chip == Chip::Gfx942 {
                self.cache_policy();
            }
            return;
        }
        let (ret, data) = self.data_kinds();
        let lds = inst.has(flags::LDS);
        let returns = match inst.op {
            Op::Load(_) => !lds,
            _ => true,
        };
        if returns {
            let (op, kind) = match inst.op {
                Op::Load(_) => (inst.dst[0], ret),
                _ => (inst.src[1], data),
            };
            self.push(self.operand(op, kind));
        }
        let idxen = inst.has(flags::IDXEN);
        let offen = inst.has(flags::OFFEN);
        self.push(match (idxen, offen) {
            (false, false) => "off".to_string(),
            (true, true) => self.operand(inst.src[0], regs(2)),
            _ => self.operand(inst.src[0], B32),
        });
        self.push(self.operand(inst.src[3], regs(4)));
        self.push(self.operand(inst.src[2], B32));
        if idxen {
            self.tail.push_str(" idxen");
        }
        if offen {
            self.tail.push_str(" offen");
        }
        if inst.imm != 0 {
            let _ = write!(self.tail, " offset:{}", inst.imm);
        }
        self.cache_policy();
        if inst.syntax.modifiers & modifiers::TFE != 0 {
            self.tail.push_str(" tfe");
        }
        if lds {
            self.tail.push_str(" lds");
        }
    }

    fn flat(&mut self) {
        let inst = self.inst;
        let (ret, data) = self.data_kinds();
        let segment = match inst.op {
            Op::Load(m) | Op::Store(m) => m.segment,
            Op::Atomic(segment, ..) => segment,
            _ => Segment::Flat,
        };
        let saddr = inst.src[3] != Operand::None;
        let vaddr = match segment {
            Segment::Scratch if !inst.has(flags::SCRATCH_VADDR) => "off".to_string(),
            Segment::Scratch => self.operand(inst.src[0], B32),
            Segment::Global if saddr => self.operand(inst.src[0], B32),
            _ => self.operand(inst.src[0], regs(2)),
        };
        match inst.op {
            Op::Load(_) => {
                self.push(self.operand(inst.dst[0], ret));
                self.push(vaddr);
            }
            Op::Store(_) => {
                self.push(vaddr);
                self.push(self.operand(inst.src[1], data));
            }
            _ => {
                if inst.syntax.modifiers & modifiers::GLC != 0 {
                    self.push(self.operand(inst.dst[0], ret));
                }
                self.push(vaddr);
                self.push(self.operand(inst.src[1], data));
            }
        }
        if segment != Segment::Flat {
            let base = match segment {
                Segment::Global => regs(2),
                _ => B32,
            };
            self.push(if saddr {
                self.operand(inst.src[3], base)
            } else {
                "off".to_string()
            });
        }
        if inst.imm != 0 {
            let _ = write!(self.tail, " offset:{}", inst.imm);
        }
        self.cache_policy();
    }
}

/// Registers a load or store moves per lane.
fn mem_regs(m: Mem) -> u8 {
    if m.d16 || m.d16_hi {
        1
    } else {
        m.bytes.div_ceil(4)
    }
}

/// The kind of a compare's operands of type `ty`.
fn ty_kind(ty: Ty) -> Kind {
    match ty {
        Ty::F64 => F64,
        Ty::I64 | Ty::U64 => B64,
        Ty::F16 => F16,
        Ty::I16 | Ty::U16 => I16,
        _ => B32,
    }
}

/// Whether source `i` of `op` is a float operand (it takes `neg`/`abs`).
fn float_source(op: Op, i: usize) -> bool {
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
            Cndmask => i < 2,
            AddF32 | SubF32 | SubrevF32 | MulF32 | MulLegacyF32 | FmaF32 | FmacF32 | MacF32
            | MadF32 | FmamkF32 | FmaakF32 | MadmkF32 | MadakF32 | MinF32 | MaxF32 | Min3F32
            | Max3F32 | Med3F32 | ExpF32 | LogF32 | RcpF32 | RcpIflagF32 | RsqF32 | SqrtF32
            | SinF32 | CosF32 | RndneF32 | FloorF32 | CeilF32 | TruncF32 | FractF32
            | FrexpMantF32 | FrexpExpF32 | DivScaleF32 | DivFmasF32 | DivFixupF32 | AddF64
            | MulF64 | FmaF64 | FmacF64 | MinF64 | MaxF64 | RcpF64 | RsqF64 | SqrtF64
            | DivScaleF64 | DivFmasF64 | DivFixupF64 | FractF64 | RndneF64 | FloorF64 | CeilF64
            | TruncF64 | AddF16 | SubF16 | SubrevF16 | MulF16 | FmaF16 | FmacF16 | MinF16
            | MaxF16 | PackB32F16 | CvtI32F32 | CvtU32F32 | CvtF16F32 | CvtF32F16 | CvtF64F32
            | CvtF32F64 | CvtI32F64 | CvtU32F64 | CvtPkrtzF16F32 | CvtFlrI32F32 | CvtRpiI32F32
            | CvtI16F16 | CvtU16F16 => true,
            _ => false,
        },
        _ => false,
    }
}

/// Sources of a vector operation in its VOP3-only form.
fn valu_sources(v: Valu) -> usize {
    use Valu::*;
    match v {
        Mov32 | Mov64 | NotB32 | NotB16 | MovB16 | ExpF32 | LogF32 | RcpF32 | RcpIflagF32
        | RsqF32 | SqrtF32 | SinF32 | CosF32 | RndneF32 | FloorF32 | CeilF32 | TruncF32
        | FractF32 | FrexpMantF32 | FrexpExpF32 | RcpF64 | RsqF64 | SqrtF64 | FractF64
        | RndneF64 | FloorF64 | CeilF64 | TruncF64 | CvtI32F32 | CvtU32F32 | CvtF32I32
        | CvtF32U32 | CvtF16F32 | CvtF32F16 | CvtF64F32 | CvtF32F64 | CvtI32F64 | CvtU32F64
        | CvtF64I32 | CvtF64U32 | CvtF32Ubyte(_) | CvtFlrI32F32 | CvtRpiI32F32 | CvtI16F16
        | CvtU16F16 | CvtF16I16 | CvtF16U16 | CvtU32U16 | CvtI32I16 | FfbhU32 | FfblB32
        | FfbhI32 | BfrevB32 | Readfirstlane => 1,
        FmaF32 | MadF32 | Min3F32 | Max3F32 | Med3F32 | DivScaleF32 | DivFmasF32 | DivFixupF32
        | FmaF64 | DivScaleF64 | DivFmasF64 | DivFixupF64 | FmaF16 | PkFmaF32 | PkFmaF16
        | MadU32U24 | MadI32I24 | MadU64U32 | MadI64I32 | BfeU32 | BfeI32 | BfiB32 | LshlAddU32
        | LshlOrB32 | AddLshlU32 | AndOrB32 | Or3B32 | Xor3B32 | Add3U32 | XadU32 | Min3I32
        | Max3I32 | Med3I32 | Min3U32 | Max3U32 | Med3U32 | AlignbitB32 | AlignbyteB32
        | PermB32 | LshlAddU64 | Permlanex16 | Permlane16 | Cndmask | AddcCoU32 | SubbCoU32
        | SubbrevCoU32 | FmamkF32 | FmaakF32 | MadmkF32 | MadakF32 => 3,
        _ => 2,
    }
}

/// Operand kinds of a vector operation (all 32-bit unless set here).
fn valu_kinds(v: Valu, shape: &mut Shape, lane: Kind) {
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
        PkMov32 | PkAddF32 | PkMulF32 | PkFmaF32 => {
            (*d, *s0, *s1, *s2) = (regs(2), regs(2), regs(2), regs(2));
        }
        AddF64 | MulF64 | FmaF64 | FmacF64 | MinF64 | MaxF64 | RcpF64 | RsqF64 | SqrtF64
        | FractF64 | RndneF64 | FloorF64 | CeilF64 | TruncF64 | DivFmasF64 | DivFixupF64
        | DivScaleF64 => (*d, *s0, *s1, *s2) = (F64, F64, F64, F64),
        LdexpF64 => (*d, *s0) = (F64, F64),
        CvtF64F32 | CvtF64I32 | CvtF64U32 => *d = F64,
        CvtF32F64 | CvtI32F64 | CvtU32F64 => *s0 = F64,
        MadU64U32 | MadI64I32 => (*d, *s2) = (B64, B64),
        LshlrevB64 | LshrrevB64 | AshrrevI64 => (*d, *s1) = (B64, B64),
        LshlAddU64 => (*d, *s0, *s2) = (B64, B64, B64),
        AddF16 | SubF16 | SubrevF16 | MulF16 | FmaF16 | FmacF16 | MinF16 | MaxF16 | PackB32F16 => {
            (*s0, *s1, *s2) = (F16, F16, F16)
        }
        CvtF32F16 | CvtI16F16 | CvtU16F16 => *s0 = F16,
        CvtF16I16 | CvtF16U16 | CvtU32U16 | CvtI32I16 | MovB16 | NotB16 => *s0 = I16,
        AndB16 | OrB16 | XorB16 | AddU16 | SubU16 | MulLoU16 | LshlrevB16 | LshrrevB16
        | AshrrevI16 | MinI16 | MaxI16 | MinU16 | MaxU16 => (*s0, *s1) = (I16, I16),
        PkAddF16 | PkMulF16 | PkFmaF16 | PkMinF16 | PkMaxF16 => {
            (*s0, *s1, *s2) = (v2f16, v2f16, v2f16);
        }
        PkAddU16 | PkAddI16 | PkSubU16 | PkSubI16 | PkMulLoU16 | PkLshlrevB16 | PkLshrrevB16
        | PkAshrrevI16 | PkMinI16 | PkMaxI16 | PkMinU16 | PkMaxU16 => {
            (*s0, *s1) = (v2i16, v2i16);
        }
        // The condition mask or carry-in.
        Cndmask | AddcCoU32 | SubbCoU32 | SubbrevCoU32 => *s2 = lane,
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
fn scalar_shape(op: Op) -> Shape {
    use Salu::*;
    match op {
        Op::S(salu, true) => {
            let mut shape = Shape::all(B64);
            match salu {
                // A 64-bit value shifted or extracted by a 32-bit amount.
                Lshl | Lshr | Ashr | BfeU | BfeI => shape.src[1] = B32,
                Bfm => shape.src = [B32; 4],
                Bcnt1 | Ff1 | Flbit => shape.dst[0] = B32,
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

/// An operand as LLVM spells it.
fn operand(op: Operand, kind: Kind, family: Family) -> String {
    match op {
        Operand::None => String::new(),
        Operand::Sreg(r) => sreg(r, kind.regs, family),
        Operand::Vgpr(r) => range("v", u32::from(r), kind.regs),
        Operand::Agpr(r) => range("a", u32::from(r), kind.regs),
        Operand::Inline(code) => inline(code, kind.imm),
        Operand::Literal(value) => literal(value, kind.imm),
        Operand::Scc => "src_scc".to_string(),
        Operand::Vccz => "src_vccz".to_string(),
        Operand::Execz => "src_execz".to_string(),
        Operand::Null => "null".to_string(),
    }
}

/// `{prefix}N` or `{prefix}[N:M]`.
fn range(prefix: &str, first: u32, n: u8) -> String {
    if n <= 1 {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}[{first}:{}]", first + u32::from(n) - 1)
    }
}

/// A scalar register (in [`Operand::Sreg`]'s numbering) of `n` dwords.
/// LLVM reads an SGPR or trap-temporary tuple from the register number
/// with its low bits cleared (pairs even, larger tuples a multiple of
/// four), as the hardware aligns it.
fn sreg(r: u8, n: u8, family: Family) -> String {
    let pair = n == 2;
    let gfx9 = family == Family::Gfx9;
    let align = |first: u8| match n {
        0 | 1 => first,
        2 => first & !1,
        _ => first & !3,
    };
    let name = match r {
        VCC if pair => "vcc",
        VCC => "vcc_lo",
        107 => "vcc_hi",
        EXEC if pair => "exec",
        EXEC => "exec_lo",
        127 => "exec_hi",
        M0 => "m0",
        102 if gfx9 && pair => "flat_scratch",
        102 if gfx9 => "flat_scratch_lo",
        103 if gfx9 => "flat_scratch_hi",
        104 if gfx9 && pair => "xnack_mask",
        104 if gfx9 => "xnack_mask_lo",
        105 if gfx9 => "xnack_mask_hi",
        108..=123 => return range("ttmp", u32::from(align(r - 108)), n),
        _ => return range("s", u32::from(align(r)), n),
    };
    name.to_string()
}

/// `0x..` in lowercase hex.
fn hex(value: u64) -> String {
    format!("{value:#x}")
}

/// A signed offset in hex (`-0x10`).
fn signed_hex(value: i64) -> String {
    if value < 0 {
        format!("-{:#x}", value.unsigned_abs())
    } else {
        format!("{value:#x}")
    }
}

/// The f16 bits of inline constants 240-248.
const F16_INLINE: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
/// How LLVM spells inline constants 240-248 (as f32 and f16).
const FLOAT_NAMES: [&str; 9] = [
    "0.5",
    "-0.5",
    "1.0",
    "-1.0",
    "2.0",
    "-2.0",
    "4.0",
    "-4.0",
    "0.15915494",
];
/// 1/(2π) at 64 bits, as LLVM prints it.
const INV_2PI_F64: &str = "0.15915494309189532";

/// An inline constant (source codes 128-208 and 240-248).
fn inline(code: u8, imm: Imm) -> String {
    match code {
        128..=192 => (i32::from(code) - 128).to_string(),
        193..=208 => (192 - i32::from(code)).to_string(),
        240..=248 => {
            let i = usize::from(code - 240);
            match imm {
                // LLVM reads a float constant in a 16-bit integer operand
                // as its f16 bits, and prints those.
                Imm::I16 => F16_INLINE
                    .get(i)
                    .map_or(String::new(), |&h| hex(u64::from(h))),
                Imm::B64 | Imm::F64 if code == 248 => INV_2PI_F64.to_string(),
                _ => FLOAT_NAMES.get(i).map_or(String::new(), |s| s.to_string()),
            }
        }
        _ => format!("/* inline constant {code} */"),
    }
}

/// The f32 constants LLVM prints by value.
fn float32_name(value: u32) -> Option<&'static str> {
    let bits: [u32; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    bits.iter()
        .position(|&b| b == value)
        .and_then(|i| FLOAT_NAMES.get(i).copied())
}

/// The f16 constants LLVM prints by value.
fn float16_name(value: u16) -> Option<&'static str> {
    F16_INLINE
        .iter()
        .position(|&b| b == value)
        .and_then(|i| FLOAT_NAMES.get(i).copied())
}

/// A literal: LLVM prints the value it decodes, so a literal that equals
/// an inline constant prints as that constant.
fn literal(value: u32, imm: Imm) -> String {
    let small = |v: i64| (-16..=64).contains(&v);
    match imm {
        Imm::K => hex(u64::from(value)),
        Imm::B32 => {
            if small(i64::from(value as i32)) {
                (value as i32).to_string()
            } else if let Some(name) = float32_name(value) {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
        Imm::B64 if value <= 64 => value.to_string(),
        Imm::B64 => hex(u64::from(value)),
        // The literal is the high half of the double.
        Imm::F64 => {
            let names: [(u32, &str); 8] = [
                (0x3fe0_0000, "0.5"),
                (0xbfe0_0000, "-0.5"),
                (0x3ff0_0000, "1.0"),
                (0xbff0_0000, "-1.0"),
                (0x4000_0000, "2.0"),
                (0xc000_0000, "-2.0"),
                (0x4010_0000, "4.0"),
                (0xc010_0000, "-4.0"),
            ];
            if value == 0 {
                "0".to_string()
            } else if let Some(&(_, name)) = names.iter().find(|&&(b, _)| b == value) {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
        // LLVM reads a 16-bit integer literal as 32 bits (a small value,
        // an f32 constant) but prints its low half in hex; a 16-bit float
        // one as 16 bits.
        Imm::I16 if small(i64::from(value as i32)) => (value as i32).to_string(),
        Imm::I16 => {
            float32_name(value).map_or_else(|| hex(u64::from(value as u16)), str::to_string)
        }
        Imm::F16 => {
            let half = value as u16;
            if small(i64::from(half as i16)) {
                (half as i16).to_string()
            } else if let Some(name) = float16_name(half) {
                name.to_string()
            } else {
                hex(u64::from(half))
            }
        }
        Imm::V2I16 | Imm::V2F16 => {
            if small(i64::from(value as i32)) {
                (value as i32).to_string()
            } else if let (Imm::V2I16, Some(name)) = (imm, float32_name(value)) {
                name.to_string()
            } else if let (Imm::V2F16, Ok(half)) = (imm, u16::try_from(value))
                && let Some(name) = float16_name(half)
            {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
    }
}

/// `s_delay_alu`'s dependencies.
fn delay_alu(imm: u16) -> String {
    const IDS: [&str; 12] = [
        "NO_DEP",
        "VALU_DEP_1",
        "VALU_DEP_2",
        "VALU_DEP_3",
        "VALU_DEP_4",
        "TRANS32_DEP_1",
        "TRANS32_DEP_2",
        "TRANS32_DEP_3",
        "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1",
        "SALU_CYCLE_2",
        "SALU_CYCLE_3",
    ];
    const SKIPS: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let id = |v: u16| {
        IDS.get(usize::from(v))
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    let id0 = imm & 0xf;
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    let skip = (imm >> 4) & 7;
    if skip != 0 {
        let name = SKIPS
            .get(usize::from(skip))
            .copied()
            .unwrap_or("/* invalid instskip value */");
        parts.push(format!("instskip({name})"));
    }
    let id1 = (imm >> 7) & 0xf;
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" | ")
    }
}

/// `s_waitcnt_depctr`'s counters (GFX11): those not at their default, or
/// all when every one is; the raw value when the fields do not cover it.
fn depctr(imm: u16) -> String {
    // (name, default, offset, width), in LLVM's order.
    const FIELDS: [(&str, u16, u16, u16); 7] = [
        ("depctr_hold_cnt", 1, 7, 1),
        ("depctr_sa_sdst", 1, 0, 1),
        ("depctr_va_vdst", 15, 12, 4),
        ("depctr_va_sdst", 7, 9, 3),
        ("depctr_va_ssrc", 1, 8, 1),
        ("depctr_va_vcc", 1, 1, 1),
        ("depctr_vm_vsrc", 7, 2, 3),
    ];
    let covered = FIELDS.iter().fold(0u16, |m, &(_, _, off, width)| {
        m | (((1 << width) - 1) << off)
    });
    if imm & !covered != 0 {
        return hex(u64::from(imm));
    }
    let value = |off: u16, width: u16| (imm >> off) & ((1 << width) - 1);
    let non_default = FIELDS
        .iter()
        .any(|&(_, default, off, width)| value(off, width) != default);
    FIELDS
        .iter()
        .filter(|&&(_, default, off, width)| !non_default || value(off, width) != default)
        .map(|&(name, _, off, width)| format!("{name}({})", value(off, width)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `ds_swizzle_b32`'s offset in LLVM's `swizzle(...)` notation.
fn swizzle(offset: u16) -> String {
    if offset & 0xff00 == 0x8000 {
        let lanes: Vec<String> = (0..4)
            .map(|i| ((offset >> (2 * i)) & 3).to_string())
            .collect();
        return format!("swizzle(QUAD_PERM,{})", lanes.join(","));
    }
    if offset & 0x8000 != 0 {
        return offset.to_string();
    }
    let and = offset & 0x1f;
    let or = (offset >> 5) & 0x1f;
    let xor = (offset >> 10) & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    let probe0 = or ^ xor;
    let probe1 = ((0x1f & and) | or) ^ xor;
    let mask: String = (0..5)
        .rev()
        .map(|b| {
            let (p0, p1) = (probe0 >> b & 1, probe1 >> b & 1);
            match (p0 == p1, p0) {
                (true, 0) => '0',
                (true, _) => '1',
                (false, 0) => 'p',
                (false, _) => 'i',
            }
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{mask}\")")
}
