//! Immediates that pack several fields, in LLVM's symbolic notation:
//! `s_waitcnt`'s counters, `s_sendmsg`'s message, `s_delay_alu`'s
//! dependencies, `s_waitcnt_depctr`'s counters and `ds_swizzle_b32`'s
//! offset.

use super::Printer;
use super::operand::hex;
use crate::arch::Family;

impl Printer<'_> {
    /// `s_waitcnt`'s counters: those below their maximum, or all three when
    /// none is.
    pub(super) fn waitcnt(&self, imm: u16) -> String {
        let imm = u32::from(imm);
        let (vm, exp, lgkm, lgkm_max) = match self.family {
            Family::Gfx9 => (
                (imm & 0xf) | ((imm >> 14) & 3) << 4,
                (imm >> 4) & 7,
                (imm >> 8) & 0xf,
                0xf,
            ),
            Family::Gfx11 | Family::Gfx12 => ((imm >> 10) & 0x3f, imm & 7, (imm >> 4) & 0x3f, 0x3f),
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
    pub(super) fn sendmsg(&self, imm: u16) -> String {
        let imm = u32::from(imm);
        let gfx11 = self.family.rdna();
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
}

/// `s_delay_alu`'s dependencies.
pub(super) fn delay_alu(imm: u16) -> String {
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
pub(super) fn depctr(imm: u16) -> String {
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
pub(super) fn swizzle(offset: u16) -> String {
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
