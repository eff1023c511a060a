//! The MODE register: what `s_setreg_b32`/`s_setreg_imm32_b32` on its
//! fields, and GFX11's `s_round_mode`/`s_denorm_mode`, write. The
//! interpreter computes with round to nearest even and keeps denormals
//! whatever MODE says: a rounding mode other than to nearest even would
//! change results, so setting one is a fault that names it; the denormal
//! bits (LLVM's compiler sets them around f32 division in kernels that
//! flush denormals) and the other fields are kept in the wave and have
//! no other effect.

use crate::exec::error::ExecError;
use crate::inst::Inst;
use crate::wave::{Wave, Width};

/// MODE's FP_ROUND bits.
const FP_ROUND: u32 = 0xf;
/// MODE's FP_DENORM bits.
const FP_DENORM: u32 = 0xf0;

/// MODE as the packet processor sets it from `COMPUTE_PGM_RSRC1`
/// (AMDGPUUsage: FLOAT_MODE in bits 19:12 is MODE's bits 7:0; DX10_CLAMP,
/// bit 21, MODE's bit 8; IEEE_MODE, bit 23, MODE's bit 9).
pub(crate) fn initial(rsrc1: u32) -> u32 {
    (rsrc1 >> 12 & 0xff) | (rsrc1 >> 21 & 1) << 8 | (rsrc1 >> 23 & 1) << 9
}

/// `s_setreg_b32`, `s_setreg_imm32_b32`.
pub(crate) fn setreg(wave: &mut Wave, inst: &Inst) -> Result<(), ExecError> {
    let hwreg = inst.imm as u32;
    let offset = hwreg >> 6 & 31;
    let size = (hwreg >> 11 & 31) + 1;
    let mask = (((1u64 << size) - 1) << offset) as u32;
    let value = wave.scalar32(inst.src[0], Width::B32) << offset;
    write(wave, inst, mask, value)
}

/// `s_round_mode`.
pub(crate) fn round_mode(wave: &mut Wave, inst: &Inst) -> Result<(), ExecError> {
    write(wave, inst, FP_ROUND, inst.imm as u32 & 0xf)
}

/// `s_denorm_mode`.
pub(crate) fn denorm_mode(wave: &mut Wave, inst: &Inst) -> Result<(), ExecError> {
    write(wave, inst, FP_DENORM, (inst.imm as u32 & 0xf) << 4)
}

/// Writes the bits of `value` under `mask`.
fn write(wave: &mut Wave, inst: &Inst, mask: u32, value: u32) -> Result<(), ExecError> {
    wave.mode = (wave.mode & !mask) | (value & mask);
    let round = wave.mode & FP_ROUND;
    if mask & FP_ROUND != 0 && round != 0 {
        return Err(ExecError::RoundingMode {
            mnemonic: inst.mnemonic,
            round,
        });
    }
    Ok(())
}
