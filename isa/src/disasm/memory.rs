//! The memory encodings: scalar loads (SMEM), LDS (DS), buffer
//! (MUBUF) and flat, global and scratch (FLAT) loads, stores and atomics:
//! data and address registers, the offsets, and the cache-policy
//! modifiers under each chip's names.

use std::fmt::Write as _;

use super::Printer;
use super::kind::{B32, Kind, mem_regs, regs};
use super::operand::{signed_hex, sreg};
use super::special::swizzle;
use crate::arch::{Chip, Family};
use crate::inst::{M0, Operand, flags, modifiers};
use crate::op::{Atomic, Lds, Op, Segment};

impl Printer<'_> {
    // Scalar memory.

    pub(super) fn smem(&mut self) {
        let inst = self.inst;
        let (dwords, buffer) = match inst.op {
            Op::SLoad(dwords, buffer) => (dwords, buffer),
            Op::SLoadNarrow(_, _, buffer) => (1, buffer),
            // `s_dcache_inv`, `s_dcache_wb`: no operands.
            _ => return,
        };
        self.push(self.operand(inst.dst[0], regs(dwords)));
        self.push(self.operand(inst.src[0], regs(if buffer { 4 } else { 2 })));
        let soffset = inst.has(flags::SOFFSET_SGPR).then(|| {
            let code = inst.imm2 as u8;
            // GFX11 numbers `M0` 125 ([`Operand::Sreg`] uses GFX9's 124).
            let reg = if self.family.rdna() && code == 125 {
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
        if self.family == Family::Gfx12 {
            self.th_scope();
            return;
        }
        let m = inst.syntax.modifiers;
        if m & modifiers::GLC != 0 {
            self.tail.push_str(" glc");
        }
        if m & modifiers::DLC != 0 {
            self.tail.push_str(" dlc");
        }
    }

    // LDS.

    pub(super) fn ds(&mut self) {
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
            Lds::LoadTransposed { .. } => {
                self.push(self.operand(inst.dst[0], regs(2)));
                self.push(addr);
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

    /// GFX12's cache policy as LLVM prints it (`AMDGPUInstPrinter::printTH`
    /// and `printScope`): the temporal hint named for a load, a store or an
    /// atomic, then the scope, each left out at 0.
    fn th_scope(&mut self) {
        let policy = self.inst.syntax.cache_policy;
        let (th, scope) = (policy & 7, policy >> 3 & 3);
        if th != 0 {
            let text = match self.inst.op {
                Op::Atomic(..) => match th {
                    1 => "TH_ATOMIC_RETURN".to_string(),
                    2 => "TH_ATOMIC_NT".to_string(),
                    3 => "TH_ATOMIC_NT_RETURN".to_string(),
                    4..=7 if scope >= 2 => {
                        let kind = if th & 2 != 0 { "NT" } else { "RT" };
                        format!("TH_ATOMIC_CASCADE_{kind}")
                    }
                    _ => format!("TH_ATOMIC_{th:#x}"),
                },
                op => {
                    let store = matches!(op, Op::Store(_));
                    let prefix = if store { "TH_STORE_" } else { "TH_LOAD_" };
                    let name = match th {
                        1 => "NT",
                        2 => "HT",
                        3 if scope == 3 => "BYPASS",
                        3 if store => "RT_WB",
                        3 => "LU",
                        4 => "NT_RT",
                        5 => "RT_NT",
                        6 => "NT_HT",
                        _ if store => "NT_WB",
                        _ => "",
                    };
                    if name.is_empty() {
                        format!("{th:#x}")
                    } else {
                        format!("{prefix}{name}")
                    }
                }
            };
            let _ = write!(self.tail, " th:{text}");
        }
        let scope = match scope {
            1 => "SCOPE_SE",
            2 => "SCOPE_DEV",
            3 => "SCOPE_SYS",
            _ => return,
        };
        let _ = write!(self.tail, " scope:{scope}");
    }

    /// The cache-policy modifiers in LLVM's order for the chip.
    fn cache_policy(&mut self) {
        if self.family == Family::Gfx12 {
            self.th_scope();
            return;
        }
        let m = self.inst.syntax.modifiers;
        let names: &[(u8, &str)] = match self.chip {
            Chip::Gfx90a => &[
                (modifiers::GLC, " glc"),
                (modifiers::SLC, " slc"),
                (modifiers::SCC, " scc"),
            ],
            Chip::Gfx942 | Chip::Gfx950 => &[
                (modifiers::GLC, " sc0"),
                (modifiers::SLC, " nt"),
                (modifiers::SCC, " sc1"),
            ],
            Chip::Gfx1100 | Chip::Gfx1201 => &[
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

    pub(super) fn mubuf(&mut self) {
        let inst = self.inst;
        if matches!(inst.op, Op::CacheControl) {
            // A cache write-back or invalidation: no address; LLVM prints
            // the scope bits on gfx940's (`buffer_wbl2 sc0 sc1`) only.
            if self.chip.gfx940_or_later() {
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

    pub(super) fn flat(&mut self) {
        let inst = self.inst;
        if matches!(inst.op, Op::CacheControl) {
            // GFX12's `global_wb`, `global_inv`, `global_wbinv`: only
            // their scope.
            self.cache_policy();
            return;
        }
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
