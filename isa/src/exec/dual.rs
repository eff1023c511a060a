//! VOPD (GFX11 dual issue): the two halves of a pair issue together, so
//! both read their sources before either writes (RDNA3 ISA guide, VOPD).
//! The halves are executed one after the other; where the second reads
//! the first's destination, it reads a copy of that register taken before
//! the first writes. (The first never sees the second's result, being
//! executed first, and the two destinations differ by encoding: one is
//! even, the other odd.)

use crate::exec::error::ExecError;
use crate::exec::{Context, Flow, step};
use crate::inst::{Inst, Operand};
use crate::wave::{LANES, TEMP_DUAL, Wave};

/// Executes the pair `x`, `y`.
pub(crate) fn pair(
    wave: &mut Wave,
    x: &Inst,
    y: &Inst,
    cx: &mut Context,
) -> Result<Flow, ExecError> {
    let hazard = matches!(x.dst[0], Operand::Vgpr(_)) && y.src.contains(&x.dst[0]);
    if !hazard {
        step(wave, x, cx)?;
        return step(wave, y, cx);
    }
    let temp = Operand::Vgpr(TEMP_DUAL);
    if let (Some(from), Some(to)) = (wave.vbase(x.dst[0], 0), wave.vbase(temp, 0)) {
        wave.v.copy_within(from..from + LANES, to);
    }
    let mut late = *y;
    for source in late.src.iter_mut().filter(|s| **s == x.dst[0]) {
        *source = temp;
    }
    step(wave, x, cx)?;
    step(wave, &late, cx)
}
