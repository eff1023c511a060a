//! Loads into LDS: MUBUF's (`buffer_load_dword ... lds`; gfx950 adds the
//! `_dwordx3` and `_dwordx4` forms, which IREE's gfx950 matmuls use to
//! stage tiles) and GLOBAL's (`global_load_lds_dword`, gfx950's `_dwordx3`
//! and `_dwordx4`, which Triton's gfx950 matmuls use): each active lane reads its element from the buffer as a
//! plain load would, and writes it to LDS instead of a VGPR, at M0 plus
//! the instruction's offset plus the lane's index times the element's
//! size (LLVM's `llvm.amdgcn.raw.buffer.load.lds`: "imm offset (applied
//! to both global and LDS address)", the LDS base in M0; AMD's CDNA3 ISA
//! guide, "Buffer Load to LDS": `TID * 4` for a dword). An LDS address
//! past the allocation writes nothing, as the other LDS writes.

use crate::exec::Context;
use crate::exec::ExecError;
use crate::exec::memory::{Addressing, read};
use crate::inst::{Inst, M0};
use crate::op::Mem;
use crate::wave::Wave;

/// Runs a MUBUF load with its `lds` bit set.
pub(crate) fn run(
    wave: &mut Wave,
    inst: &Inst,
    mem: Mem,
    cx: &mut Context,
) -> Result<(), ExecError> {
    let bytes = u64::from(mem.bytes);
    let base = wave.sreg(usize::from(M0)).wrapping_add(inst.imm as u32);
    let exec = wave.exec();
    let addressing = Addressing::new(wave, inst, mem.segment, bytes);
    for lane in (0..wave.lanes).filter(|l| exec >> l & 1 == 1) {
        let mut buf = [0u8; 16];
        let out = buf.get_mut(..mem.bytes as usize).unwrap_or_default();
        let at = addressing.at(wave, lane);
        read(wave, cx, at, lane, out)?;
        let address = base.wrapping_add(lane as u32 * u32::from(mem.bytes)) as usize;
        if let Some(slot) = address
            .checked_add(out.len())
            .and_then(|end| cx.lds.get_mut(address..end))
        {
            slot.copy_from_slice(out);
        }
    }
    Ok(())
}
