//! Executing one instruction on one wave.

mod compare;
mod cvt8;
mod dpp;
mod dual;
mod error;
mod float;
mod fp8;
mod gfx950;
mod lanes;
mod lds;
mod lds_load;
mod memory;
mod mfma;
mod microscaling;
mod mix;
mod mode;
mod ocp8;
mod relative;
mod saturate;
mod scalar;
mod scalar_half;
mod scaled_convert;
mod sdwa;
mod sixteen;
mod vector;
mod wmma12;

use crate::arch::{Chip, Family};
use crate::inst::{Inst, flags};
use crate::memory::Segments;
use crate::op::{Branch, Op, Salu};
use crate::program::Program;
use crate::wave::{Wave, Width};

pub(crate) use dual::pair;
pub use error::{Access, ExecError};
pub(crate) use mode::initial as initial_mode;

/// What the wave does after an instruction.
pub(crate) enum Flow {
    /// The next instruction.
    Next,
    /// The instruction at this index.
    Jump(usize),
    /// The wave has ended.
    End,
    /// Wait at the barrier, then the next instruction.
    Barrier,
}

/// What a wave executes against.
pub(crate) struct Context<'a, 'm> {
    /// Device memory, with the kernarg segment and dispatch packet.
    pub memory: &'a mut Segments<'m>,
    /// The work-group's LDS.
    pub lds: &'a mut [u8],
    /// The kernel.
    pub program: &'a Program,
    /// The processor.
    pub chip: Chip,
    /// Most instructions one wave may execute.
    pub instruction_limit: u64,
}

/// Executes `inst` on `wave`; `Err` is a fault's reason.
pub(crate) fn step(wave: &mut Wave, inst: &Inst, cx: &mut Context) -> Result<Flow, ExecError> {
    if inst.flags & (flags::DPP16 | flags::DPP8) != 0 {
        return dpp::run(wave, inst, cx);
    }
    if inst.has(flags::SDWA) {
        return sdwa::run(wave, inst, cx);
    }
    match inst.op {
        Op::S(op @ (Salu::Movrels | Salu::Movreld | Salu::Movrelsd2), wide) => {
            relative::scalar(wave, inst, op, wide)?;
        }
        Op::S(op, wide) => scalar::alu(wave, inst, op, wide),
        Op::SCmp(cmp, ty) => scalar::compare(wave, inst, cmp, ty),
        Op::SBitcmp(set, wide) => scalar::bitcmp(wave, inst, set, wide),
        Op::Branch(b) => return branch(wave, inst, b, cx.program),
        Op::SLoad(dwords, buffer) => scalar::load(wave, inst, dwords, buffer, cx.memory)?,
        Op::SLoadNarrow(bytes, signed, buffer) => {
            scalar::load_narrow(wave, inst, bytes, signed, buffer, cx.memory)?;
        }
        Op::Endpgm => return Ok(Flow::End),
        Op::Barrier => return Ok(Flow::Barrier),
        Op::Nop | Op::CacheControl | Op::Message => {}
        Op::Illegal => {
            return Err(ExecError::IllegalInstruction);
        }
        Op::Getpc => {
            // The absolute address of the next instruction: kernels add a
            // PC-relative offset to it to reach their constant tables.
            let next = cx
                .program
                .entry()
                .wrapping_add(u64::from(inst.pc) + u64::from(inst.len));
            wave.set_scalar64(inst.dst[0], next);
        }
        Op::Setpc | Op::Swappc => return indirect(wave, inst, cx.program),
        Op::Setreg => mode::setreg(wave, inst)?,
        Op::RoundMode => mode::round_mode(wave, inst)?,
        Op::DenormMode => mode::denorm_mode(wave, inst)?,
        Op::V(op) => vector::alu(wave, inst, op, cx.chip)?,
        Op::VCmp(cmp, ty, exec) => compare::vector(wave, inst, cmp, ty, exec, cx.chip),
        Op::VCmpClass(ty, exec) => compare::class(wave, inst, ty, exec, cx.chip),
        Op::Mfma(shape) => mfma::run(wave, inst, shape)?,
        Op::MfmaLdScale => mfma::scaled::load_scales(wave, inst),
        Op::Wmma(kind) if cx.chip.family() == Family::Gfx12 => wmma12::run(wave, inst, kind)?,
        Op::Wmma(kind) => mfma::wmma(wave, inst, kind)?,
        Op::Load(mem) if inst.has(flags::LDS) => lds_load::run(wave, inst, mem, cx)?,
        Op::Load(mem) => memory::load(wave, inst, mem, cx)?,
        Op::Store(mem) => memory::store(wave, inst, mem, cx)?,
        Op::Atomic(segment, op, bytes) => memory::atomic(wave, inst, segment, op, bytes, cx)?,
        Op::Lds(op) => lds::run(wave, inst, op, cx.lds, cx.chip),
    }
    Ok(Flow::Next)
}

/// `s_setpc_b64` and `s_swappc_b64`: a jump to the absolute address in the
/// source pair (`s_swappc_b64` first writes the next instruction's address
/// to its destination, after reading the source, which may be the same
/// pair). Only a target inside the decoded program (the kernel and the
/// code after it) can run; anything else (a call into code before the
/// kernel, or past where decoding stopped) is a fault that names it.
fn indirect(wave: &mut Wave, inst: &Inst, program: &Program) -> Result<Flow, ExecError> {
    let target = wave.scalar64(inst.src[0], Width::B64);
    if inst.op == Op::Swappc {
        let next = program
            .entry()
            .wrapping_add(u64::from(inst.pc) + u64::from(inst.len));
        wave.set_scalar64(inst.dst[0], next);
    }
    let offset = target.wrapping_sub(program.entry());
    if offset >= program.code_bytes() {
        return Err(ExecError::OutsideCode {
            mnemonic: inst.mnemonic,
            target,
            code_bytes: program.code_bytes(),
            entry: program.entry(),
            stopped: program.callees_end().map(ToString::to_string),
        });
    }
    i64::try_from(offset)
        .ok()
        .and_then(|offset| program.index_at(offset))
        .map(Flow::Jump)
        .ok_or(ExecError::IndirectMisaligned {
            mnemonic: inst.mnemonic,
            target,
            offset,
        })
}

fn branch(wave: &Wave, inst: &Inst, b: Branch, program: &Program) -> Result<Flow, ExecError> {
    let taken = match b {
        Branch::Always => true,
        Branch::Scc0 => !wave.scc,
        Branch::Scc1 => wave.scc,
        Branch::Vccz => wave.vcc() == 0,
        Branch::Vccnz => wave.vcc() != 0,
        Branch::Execz => wave.exec() == 0,
        Branch::Execnz => wave.exec() != 0,
    };
    if !taken {
        return Ok(Flow::Next);
    }
    let target = i64::from(inst.pc) + 4 + i64::from(inst.imm) * 4;
    program
        .index_at(target)
        .map(Flow::Jump)
        .ok_or(ExecError::BranchMisaligned { target })
}
