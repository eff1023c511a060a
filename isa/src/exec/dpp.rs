//! DPP (data-parallel primitives: DPP16 on GFX9 and GFX11, DPP8 on
//! GFX11): the first
//! source read from another lane of the same row (16 lanes) or group of
//! eight. A lane whose source lane is outside its row, or inactive without
//! fetch-inactive, reads 0 with `bound_ctrl` and is otherwise not written;
//! DPP16's row and bank masks leave whole rows and banks unwritten.

use crate::exec::error::ExecError;
use crate::exec::{Context, Flow, step};
use crate::inst::{Inst, Operand, flags};
use crate::wave::{TEMP_SRC0, Wave};

/// The lane `lane` reads under DPP16 control `ctrl`, if any.
fn dpp16_source(ctrl: u32, lane: usize) -> Option<usize> {
    let row = lane & !15;
    let i = lane & 15;
    let n = (ctrl & 15) as usize;
    match ctrl {
        0x000..=0x0ff => Some((lane & !3) | ((ctrl >> (2 * (lane & 3))) & 3) as usize),
        0x101..=0x10f => (i + n < 16).then_some(lane + n),
        0x111..=0x11f => (i >= n).then(|| lane - n),
        0x121..=0x12f => Some(row | ((i + 16 - n) & 15)),
        0x140 => Some(row | (15 - i)),
        0x141 => Some((lane & !7) | (7 - (lane & 7))),
        0x150..=0x15f => Some(row | n),
        0x160..=0x16f => Some(row | (i ^ n)),
        // GFX9's whole-wave shifts and rotates by one lane, and broadcasts.
        0x130 => (lane < 63).then_some(lane + 1),
        0x134 => Some((lane + 1) % 64),
        0x138 => lane.checked_sub(1),
        0x13c => Some((lane + 63) % 64),
        0x142 => (row >= 16).then(|| row - 1),
        0x143 => (lane >= 32).then_some(31),
        _ => None,
    }
}

/// Runs `inst` with its first source moved across lanes.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, cx: &mut Context) -> Result<Flow, ExecError> {
    let exec = wave.exec();
    let ctrl = inst.imm as u32;
    let fetch_inactive = inst.has(flags::FETCH_INACTIVE);
    let bound_zero = inst.has(flags::BOUND_CTRL);
    let (row_mask, bank_mask) = ((inst.imm2 as u32 >> 4) & 15, inst.imm2 as u32 & 15);
    let mut enabled = 0u64;
    let mut values = [0u32; 64];
    for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
        let from = if inst.has(flags::DPP8) {
            Some((lane & !7) | ((ctrl >> (3 * (lane & 7))) & 7) as usize)
        } else {
            if row_mask >> (lane / 16) & 1 == 0 || bank_mask >> ((lane & 15) / 4) & 1 == 0 {
                continue;
            }
            dpp16_source(ctrl, lane)
        };
        match from {
            Some(l) if l < wave.lanes && (exec >> l & 1 == 1 || fetch_inactive) => {
                values[lane] = wave.vreg(inst.src[0], 0, l);
                enabled |= 1 << lane;
            }
            _ if bound_zero => enabled |= 1 << lane,
            _ => {}
        }
    }
    let temp = Operand::Vgpr(TEMP_SRC0);
    for (lane, &v) in values.iter().enumerate().take(wave.lanes) {
        wave.set_vreg(temp, 0, lane, v);
    }
    let mut moved = *inst;
    moved.src[0] = temp;
    moved.flags &= !(flags::DPP16 | flags::DPP8);
    let saved = wave.exec();
    wave.set_exec(enabled);
    let flow = step(wave, &moved, cx);
    // The instruction may have written EXEC itself (v_cmpx).
    if !matches!(moved.dst[1], Operand::Sreg(crate::inst::EXEC)) {
        wave.set_exec(saved);
    }
    flow
}
