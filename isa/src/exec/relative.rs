//! M0-relative register moves: `s_movrels`/`s_movreld` (SGPRs, GFX9 and
//! later; `s_movrelsd_2_b32` on GFX11 and GFX12) and `v_movrels`/`v_movreld`/
//! `v_movrelsd`/`v_movrelsd_2` (VGPRs, each lane its own, GFX11 and GFX12: LLVM
//! gives gfx90a and gfx942 none). The register an operand names is a base
//! that M0 adds to, as the RDNA3/RDNA4 guides' pseudocode has it:
//!
//! ```text
//! V_MOVRELS_B32:    addr = SRC0.u32 + M0.u32; D0.b32 = VGPR[laneId][addr].b32
//! V_MOVRELD_B32:    addr = DST.u32 + M0.u32;  VGPR[laneId][addr].b32 = S0.b32
//! V_MOVRELSD_B32:   VGPR[DST + M0] = VGPR[SRC0 + M0]
//! V_MOVRELSD_2_B32: VGPR[DST + M0[25:16]] = VGPR[SRC0 + M0[9:0]]
//! S_MOVRELS_B32/64: D = SGPR[SRC0 + M0] (a pair: SRC0 and M0 even)
//! S_MOVRELD_B32/64: SGPR[DST + M0] = S0
//! S_MOVRELSD_2_B32: SGPR[DST + M0[25:16]] = SGPR[SRC0 + M0[9:0]]
//! ```
//!
//! A register past the file (256 VGPRs; the SGPRs below VCC), or a base that
//! is not a register, is a fault that names it
//! ([`ExecError::RelativeIndex`]): hardware leaves it undefined, and a
//! kernel reaching it has a bad index in M0.

use crate::exec::error::ExecError;
use crate::exec::lanes::active;
use crate::inst::{Inst, M0, Operand, VCC};
use crate::op::{Salu, Valu};
use crate::wave::{Wave, Width};

/// VGPRs a relative move can reach: the architectural 256 (not the
/// interpreter's temporaries past them, nor CDNA's AGPRs).
pub(crate) const VGPRS: u64 = 256;
/// SGPRs a relative move can reach: the ordinary ones, below VCC.
pub(crate) const SGPRS: u64 = VCC as u64;

/// `M0[9:0]`, the source offset of the `_2` forms.
fn low_offset(m0: u32) -> u64 {
    u64::from(m0 & 0x3ff)
}

/// `M0[25:16]`, the destination offset of the `_2` forms.
fn high_offset(m0: u32) -> u64 {
    u64::from(m0 >> 16 & 0x3ff)
}

/// The register `base` + `offset` (and the `count` - 1 after it) if all
/// are below `limit`.
fn register(
    inst: &Inst,
    base: Option<u16>,
    offset: u64,
    count: u64,
    limit: u64,
) -> Result<usize, ExecError> {
    let Some(base) = base else {
        return Err(ExecError::RelativeIndex {
            mnemonic: inst.mnemonic,
            index: None,
            registers: limit,
        });
    };
    let index = u64::from(base) + offset;
    if index + count > limit {
        return Err(ExecError::RelativeIndex {
            mnemonic: inst.mnemonic,
            index: Some(index),
            registers: limit,
        });
    }
    Ok(index as usize)
}

fn vgpr(operand: Operand) -> Option<u16> {
    match operand {
        Operand::Vgpr(r) => Some(r),
        _ => None,
    }
}

fn sgpr(operand: Operand) -> Option<u16> {
    match operand {
        Operand::Sreg(r) => Some(u16::from(r)),
        _ => None,
    }
}

/// `v_movrels_b32`, `v_movreld_b32`, `v_movrelsd_b32`, `v_movrelsd_2_b32` in
/// each active lane.
pub(crate) fn vector(wave: &mut Wave, inst: &Inst, op: Valu) -> Result<(), ExecError> {
    let m0 = wave.sreg(M0 as usize);
    let whole = u64::from(m0);
    let (source, destination) = match op {
        Valu::Movrels => (
            Some(register(inst, vgpr(inst.src[0]), whole, 1, VGPRS)?),
            register(inst, vgpr(inst.dst[0]), 0, 1, VGPRS)?,
        ),
        // The source may be any operand (an SGPR, a constant): its value.
        Valu::Movreld => (None, register(inst, vgpr(inst.dst[0]), whole, 1, VGPRS)?),
        Valu::Movrelsd => (
            Some(register(inst, vgpr(inst.src[0]), whole, 1, VGPRS)?),
            register(inst, vgpr(inst.dst[0]), whole, 1, VGPRS)?,
        ),
        _ => (
            Some(register(inst, vgpr(inst.src[0]), low_offset(m0), 1, VGPRS)?),
            register(inst, vgpr(inst.dst[0]), high_offset(m0), 1, VGPRS)?,
        ),
    };
    for lane in active(wave.exec()) {
        let value = match source {
            Some(r) => wave.vreg(Operand::Vgpr(r as u16), 0, lane),
            None => wave.src32(inst.src[0], lane, Width::B32),
        };
        wave.set_vreg(Operand::Vgpr(destination as u16), 0, lane, value);
    }
    Ok(())
}

/// `s_movrels_b32`/`_b64`, `s_movreld_b32`/`_b64`, `s_movrelsd_2_b32`.
pub(crate) fn scalar(wave: &mut Wave, inst: &Inst, op: Salu, wide: bool) -> Result<(), ExecError> {
    let m0 = wave.sreg(M0 as usize);
    let whole = u64::from(m0);
    let count = if wide { 2 } else { 1 };
    let (value, destination) = match op {
        Salu::Movrels => {
            let from = register(inst, sgpr(inst.src[0]), whole, count, SGPRS)?;
            let value = u64::from(wave.sreg(from)) | u64::from(wave.sreg(from + 1)) << 32;
            (value, sgpr(inst.dst[0]).map(usize::from))
        }
        Salu::Movreld => {
            let value = if wide {
                wave.scalar64(inst.src[0], Width::B64)
            } else {
                u64::from(wave.scalar32(inst.src[0], Width::B32))
            };
            let to = register(inst, sgpr(inst.dst[0]), whole, count, SGPRS)?;
            (value, Some(to))
        }
        _ => {
            let from = register(inst, sgpr(inst.src[0]), low_offset(m0), 1, SGPRS)?;
            let to = register(inst, sgpr(inst.dst[0]), high_offset(m0), 1, SGPRS)?;
            (u64::from(wave.sreg(from)), Some(to))
        }
    };
    // A destination outside the file (NULL) drops the value, as any
    // scalar write does.
    if let Some(to) = destination {
        wave.set_sreg(to, value as u32);
        if wide {
            wave.set_sreg(to + 1, (value >> 32) as u32);
        }
    }
    Ok(())
}
