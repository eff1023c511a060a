//! A kernel's code decoded once: every instruction from the entry to the
//! end of the kernel's code, and where each address lands, so that a
//! dispatch executes without decoding and a branch is one lookup. The code
//! that follows the kernel in its segment (the functions it calls: the
//! device library's, which the linker places after the kernels) may be
//! decoded with it ([`Program::decode_with_callees`]), so that
//! `s_swappc_b64` into them runs.

use std::fmt;

use crate::arch::Chip;
use crate::decode::{Undecodable, decode};
use crate::fidelity;
use crate::inst::{Encoding, Inst, flags};

/// Most code bytes one program may hold (a kernel symbol's size is what
/// the caller passes; 64 MiB is far above any kernel LLVM emits).
pub const MAX_CODE_BYTES: usize = 64 << 20;

/// Why a kernel's code cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the instruction from the kernel's entry.
    pub offset: u32,
    /// What is wrong there.
    pub reason: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at entry+{:#x}: {}", self.offset, self.reason)
    }
}

impl std::error::Error for DecodeError {}

/// A decoded kernel.
#[derive(Clone, Debug)]
pub struct Program {
    chip: Chip,
    /// The device address of the first code byte ([`Program::at`]).
    entry: u64,
    insts: Vec<Inst>,
    /// For each dword of the code, the index of the instruction starting
    /// there plus one (0: no instruction starts there).
    starts: Vec<u32>,
    /// Where decoding the code after the kernel stopped, and why (the
    /// offset from the entry): a call past it cannot run.
    callees_end: Option<DecodeError>,
}

impl Program {
    /// Decodes `code`, the kernel's bytes from its entry point, for `chip`.
    /// The first instruction that does not decode, or that the interpreter
    /// lacks, is the error, with its offset.
    pub fn decode(chip: Chip, code: &[u8]) -> Result<Program, DecodeError> {
        if code.len() > MAX_CODE_BYTES {
            return Err(DecodeError {
                offset: 0,
                reason: format!("{} code bytes (at most {MAX_CODE_BYTES})", code.len()),
            });
        }
        Program::decode_with_callees(chip, code, code.len())
    }

    /// Decodes `code`, the kernel's `kernel_len` bytes from its entry
    /// followed by the code after it in its segment (the functions it may
    /// call). The kernel's own bytes must decode, as for
    /// [`Program::decode`]; the code after them is decoded, when the
    /// kernel has an `s_setpc_b64` or `s_swappc_b64` to reach it, as far as
    /// it goes: where an instruction there does not decode, the program
    /// ends and a call past that point is a fault that says why.
    pub fn decode_with_callees(
        chip: Chip,
        code: &[u8],
        kernel_len: usize,
    ) -> Result<Program, DecodeError> {
        if code.len() > MAX_CODE_BYTES {
            return Err(DecodeError {
                offset: 0,
                reason: format!("{} code bytes (at most {MAX_CODE_BYTES})", code.len()),
            });
        }
        let code = code.get(..code.len() & !3).unwrap_or_default();
        let kernel_len = kernel_len.min(code.len());
        let mut insts = Vec::new();
        let mut starts = vec![0u32; code.len() / 4];
        let mut pc = 0u32;
        let mut callees_end = None;
        while (pc as usize) < code.len() {
            // A kernel that never jumps through a register reaches no code
            // after it: the rest is not decoded (a code object of many
            // kernels would otherwise decode its tail once per kernel).
            if pc as usize == kernel_len
                && !insts
                    .iter()
                    .any(|i: &Inst| matches!(i.op, crate::op::Op::Setpc | crate::op::Op::Swappc))
            {
                starts.truncate(pc as usize / 4);
                break;
            }
            let first = insts.len();
            if let Err(e) = decode(chip, code, pc, &mut insts) {
                let error = DecodeError {
                    offset: pc,
                    reason: describe(e),
                };
                if (pc as usize) < kernel_len {
                    return Err(error);
                }
                insts.truncate(first);
                starts.truncate(pc as usize / 4);
                callees_end = Some(error);
                break;
            }
            if let Some(slot) = starts.get_mut(pc as usize / 4) {
                *slot = first as u32 + 1;
            }
            let len = insts.get(first).map_or(4, |i| u32::from(i.len.max(4)));
            pc += len;
        }
        classify(chip, &mut insts);
        Ok(Program {
            chip,
            entry: 0,
            insts,
            starts,
            callees_end,
        })
    }

    /// Where decoding the code after the kernel stopped, and why.
    pub fn callees_end(&self) -> Option<&DecodeError> {
        self.callees_end.as_ref()
    }

    /// The program with its code at device address `entry` (the kernel
    /// descriptor's address plus its `kernel_code_entry_byte_offset`):
    /// what `s_getpc_b64` reads and `s_setpc_b64` jumps by are absolute
    /// addresses, and a kernel reaches its constant tables through them. A
    /// program decoded without one is at address 0.
    pub fn at(mut self, entry: u64) -> Program {
        self.entry = entry;
        self
    }

    /// The device address of the first instruction.
    pub fn entry(&self) -> u64 {
        self.entry
    }

    /// The processor it was decoded for.
    pub fn chip(&self) -> Chip {
        self.chip
    }

    /// The instructions, in address order.
    pub fn instructions(&self) -> &[Inst] {
        &self.insts
    }

    /// Bytes of code decoded.
    pub fn code_bytes(&self) -> u64 {
        self.starts.len() as u64 * 4
    }

    /// The instruction at index `i`.
    pub(crate) fn get(&self, i: usize) -> Option<&Inst> {
        self.insts.get(i)
    }

    /// The index of the instruction starting at byte `offset`.
    pub(crate) fn index_at(&self, offset: i64) -> Option<usize> {
        if offset < 0 || offset % 4 != 0 {
            return None;
        }
        let slot = *self.starts.get(usize::try_from(offset / 4).ok()?)?;
        (slot != 0).then(|| slot as usize - 1)
    }
}

/// Sets each instruction's fidelity; a VOPD pair, executed and counted
/// as one instruction (its first half), gets the less faithful class of
/// its halves.
fn classify(chip: Chip, insts: &mut [Inst]) {
    for inst in insts.iter_mut() {
        inst.fidelity = fidelity::of(inst.op, inst.mnemonic, inst.imm, chip.family());
    }
    for i in 1..insts.len() {
        let (first, second) = insts.split_at_mut(i);
        if let (Some(x), Some(y)) = (first.last_mut(), second.first())
            && x.syntax.encoding == Encoding::Vopd
            && y.has(flags::DUAL_Y)
        {
            x.fidelity = x.fidelity.max(y.fidelity);
        }
    }
}

fn describe(e: Undecodable) -> String {
    match e {
        Undecodable::Truncated => "the code ends inside an instruction".to_string(),
        Undecodable::Invalid(encoding, opcode) => {
            format!("no valid instruction ({encoding} opcode {opcode})")
        }
        Undecodable::Unsupported(mnemonic) => {
            format!("instruction `{mnemonic}` is not supported by the interpreter")
        }
        Undecodable::Feature(feature, detail) => {
            format!("{feature} is not supported by the interpreter ({detail})")
        }
    }
}
