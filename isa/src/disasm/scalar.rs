//! The scalar ALU and program-control encodings (SOP1, SOP2, SOPC, SOPK,
//! SOPP): destination and sources as their operand types print, SOPK's
//! 16-bit constant, and SOPP's immediate (a branch offset, a count, or a
//! special immediate in LLVM's symbolic notation).

use super::Printer;
use super::kind::{B32, scalar_shape};
use super::operand::hex;
use super::special::{delay_alu, depctr};
use crate::inst::Encoding;
use crate::op::{Op, Salu};

impl Printer<'_> {
    pub(super) fn salu(&mut self) {
        let inst = self.inst;
        let shape = scalar_shape(inst.op);
        match inst.syntax.encoding {
            Encoding::Sopc => {}
            // GFX12's `s_barrier_signal` has its barrier as a source only.
            _ if matches!(inst.op, Op::Setpc | Op::Barrier) => {}
            _ => self.push(self.operand(inst.dst[0], shape.dst[0])),
        }
        // `s_fmaak_f32 D, S0, S1, K` and `s_fmamk_f32 D, S0, K, S1` (K in
        // source 2).
        let order: &[usize] = match inst.syntax.encoding {
            Encoding::Sop1 if inst.op == Op::Getpc => &[],
            Encoding::Sop1 => &[0],
            _ if inst.op == Op::S(Salu::FmaakF32, false) => &[0, 1, 2],
            _ if inst.op == Op::S(Salu::FmamkF32, false) => &[0, 2, 1],
            _ => &[0, 1],
        };
        for &i in order {
            let (Some(&op), Some(&kind)) = (inst.src.get(i), shape.src.get(i)) else {
                continue;
            };
            self.push(self.operand(op, kind));
        }
    }

    pub(super) fn sopk(&mut self) {
        let inst = self.inst;
        if inst.op == Op::Setreg {
            // Only MODE decodes; the whole register prints without its
            // offset and size.
            let hwreg = inst.imm as u32;
            let (offset, size) = (hwreg >> 6 & 31, (hwreg >> 11 & 31) + 1);
            self.push(if offset == 0 && size == 32 {
                "hwreg(HW_REG_MODE)".to_string()
            } else {
                format!("hwreg(HW_REG_MODE, {offset}, {size})")
            });
            self.push(self.operand(inst.src[0], B32));
            return;
        }
        self.push(self.operand(inst.dst[0], B32));
        self.push(hex(u64::from(inst.imm as u16)));
    }

    pub(super) fn sopp(&mut self) {
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
                // GFX12's `s_wait_alu` waits on `s_waitcnt_depctr`'s counters.
                "waitcnt_depctr" | "wait_alu" => depctr(imm),
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
                // GFX12's split wait counters (`s_wait_loadcnt 0x0`).
                _ if name.starts_with("wait_") => hex(u64::from(imm)),
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
}
