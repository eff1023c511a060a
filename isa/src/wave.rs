//! One wave's architectural state: the scalar file (SGPRs, VCC, M0, EXEC),
//! SCC, the vector file (VGPRs, then AGPRs on CDNA) lane by lane, and where
//! it is in the program. Register reads and writes outside the files read
//! 0 and are dropped: a program decoded from bad bytes cannot reach past
//! them.

use crate::inst::{EXEC, Operand, SREGS, VCC};

/// Vector registers per lane: 256 VGPRs, then 256 AGPRs (CDNA), then the
/// interpreter's own four, which DPP and SDWA read moved or narrowed
/// sources from and write a narrowed result to, and the second half of a
/// VOPD pair reads the first half's destination from as it was.
pub(crate) const VREGS: usize = 516;
/// The interpreter's register for a DPP or SDWA instruction's first source.
pub(crate) const TEMP_SRC0: u16 = 512;
/// The interpreter's register for an SDWA instruction's second source.
pub(crate) const TEMP_SRC1: u16 = 513;
/// The interpreter's register for an SDWA instruction's full result.
pub(crate) const TEMP_DST: u16 = 514;
/// The interpreter's register for a VOPD pair's first destination as it
/// was before the pair.
pub(crate) const TEMP_DUAL: u16 = 515;
/// Index of the first AGPR in the vector file.
pub(crate) const AGPR_BASE: usize = 256;

/// How an operand's inline constants and literals read (AMDGPUUsage,
/// operand syntax: float inline constants have the operand's width, 64-bit
/// float literals are the high dword).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    /// 16-bit float operand.
    F16,
    /// 32-bit operand (integer or float).
    B32,
    /// 64-bit integer operand.
    B64,
    /// 64-bit float operand.
    F64,
}

/// A wave.
pub(crate) struct Wave {
    /// The scalar file.
    pub s: [u32; SREGS],
    /// SCC.
    pub scc: bool,
    /// Lanes per wave: 32 or 64.
    pub lanes: usize,
    /// The vector file, register-major: `v[reg * 64 + lane]`.
    pub v: Vec<u32>,
    /// Index of the next instruction in the program.
    pub next: usize,
    /// Ended (`s_endpgm`).
    pub done: bool,
    /// Waiting at `s_barrier`.
    pub at_barrier: bool,
    /// Which wave of its work-group (0-based).
    pub index: u32,
    /// Instructions executed since the work-group started (the runaway
    /// limit counts them).
    pub executed: u64,
    /// Private (scratch) memory, `scratch_per_lane` bytes for each lane.
    pub scratch: Vec<u8>,
    /// The kernel's private segment size per work-item.
    pub scratch_per_lane: usize,
    /// The MODE register (`exec/mode.rs`).
    pub mode: u32,
    /// The scales `v_mfma_ld_scale_b32` left for the `f8f6f4` MFMA after
    /// it (`exec::mfma::scaled`).
    pub mfma_scales: Option<Box<PendingScales>>,
}

/// The E8M0 scales a `v_mfma_ld_scale_b32` left for the instruction after
/// it.
#[derive(Clone, Debug)]
pub(crate) struct PendingScales {
    /// The byte offset of the instruction they apply to.
    pub(crate) pc: u32,
    /// A's scale byte, per lane.
    pub(crate) a: [u8; LANES],
    /// B's scale byte, per lane.
    pub(crate) b: [u8; LANES],
}

/// Where a kernel sees its private segment buffer (the buffer resource the
/// packet processor gives CDNA2 kernels for MUBUF scratch access): an
/// aperture no memory uses; an access through it is the lane's own
/// scratch at the offset past the aperture's base.
pub(crate) const SCRATCH_APERTURE: u64 = 0x0000_fd00_0000_0000;
/// Bytes of the scratch aperture.
pub(crate) const SCRATCH_APERTURE_BYTES: u64 = 1 << 32;

/// Lanes the vector file is laid out for (wave32 uses the first half).
pub(crate) const LANES: usize = 64;

/// The value of an inline constant code for an operand of `width`.
pub(crate) fn inline_constant(code: u8, width: Width) -> u64 {
    match code {
        128..=192 => u64::from(code - 128),
        193..=208 => (-(i64::from(code) - 192)) as u64,
        _ => {
            let (f16, f32, f64): (u16, u32, u64) = match code {
                240 => (0x3800, 0x3f00_0000, 0x3fe0_0000_0000_0000),
                241 => (0xb800, 0xbf00_0000, 0xbfe0_0000_0000_0000),
                242 => (0x3c00, 0x3f80_0000, 0x3ff0_0000_0000_0000),
                243 => (0xbc00, 0xbf80_0000, 0xbff0_0000_0000_0000),
                244 => (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
                245 => (0xc000, 0xc000_0000, 0xc000_0000_0000_0000),
                246 => (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
                247 => (0xc400, 0xc080_0000, 0xc010_0000_0000_0000),
                // 1 / (2π).
                248 => (0x3118, 0x3e22_f983, 0x3fc4_5f30_6dc9_c882),
                _ => (0, 0, 0),
            };
            match width {
                Width::F16 => u64::from(f16),
                Width::B32 => u64::from(f32),
                Width::B64 | Width::F64 => f64,
            }
        }
    }
}

impl Wave {
    /// A wave of `lanes` lanes with every register zero.
    pub(crate) fn new(lanes: usize, index: u32) -> Wave {
        Wave {
            s: [0; SREGS],
            scc: false,
            lanes,
            v: vec![0; VREGS * LANES],
            next: 0,
            done: false,
            at_barrier: false,
            executed: 0,
            index,
            scratch: Vec::new(),
            scratch_per_lane: 0,
            mode: 0,
            mfma_scales: None,
        }
    }

    /// The bytes of `lane`'s private memory at `offset`, if inside it.
    pub(crate) fn scratch_range(
        &self,
        lane: usize,
        offset: u64,
        len: usize,
    ) -> Option<std::ops::Range<usize>> {
        let offset = usize::try_from(offset).ok()?;
        let end = offset.checked_add(len)?;
        if end > self.scratch_per_lane {
            return None;
        }
        let base = lane.checked_mul(self.scratch_per_lane)?;
        Some(base + offset..base + end)
    }

    /// Scalar register `i` (0 outside the file).
    pub(crate) fn sreg(&self, i: usize) -> u32 {
        self.s.get(i).copied().unwrap_or(0)
    }

    /// Writes scalar register `i` (dropped outside the file).
    pub(crate) fn set_sreg(&mut self, i: usize, value: u32) {
        if let Some(slot) = self.s.get_mut(i) {
            *slot = value;
        }
    }

    /// EXEC as a lane mask (the low 32 bits in wave32).
    pub(crate) fn exec(&self) -> u64 {
        let mask = u64::from(self.s[EXEC as usize]) | u64::from(self.s[EXEC as usize + 1]) << 32;
        mask & self.lane_mask()
    }

    /// Sets EXEC to `mask`.
    pub(crate) fn set_exec(&mut self, mask: u64) {
        self.set_mask(Operand::Sreg(EXEC), mask);
    }

    /// Every lane of the wave.
    pub(crate) fn lane_mask(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            (1u64 << self.lanes) - 1
        }
    }

    /// VCC as a lane mask.
    pub(crate) fn vcc(&self) -> u64 {
        (u64::from(self.s[VCC as usize]) | u64::from(self.s[VCC as usize + 1]) << 32)
            & self.lane_mask()
    }

    /// A 32-bit scalar operand.
    pub(crate) fn scalar32(&self, operand: Operand, width: Width) -> u32 {
        match operand {
            Operand::Sreg(i) => self.sreg(i as usize),
            Operand::Inline(code) => inline_constant(code, width) as u32,
            Operand::Literal(value) => value,
            Operand::Scc => u32::from(self.scc),
            Operand::Vccz => u32::from(self.vcc() == 0),
            Operand::Execz => u32::from(self.exec() == 0),
            Operand::None | Operand::Null | Operand::Vgpr(_) | Operand::Agpr(_) => 0,
        }
    }

    /// A 64-bit scalar operand (a register pair).
    pub(crate) fn scalar64(&self, operand: Operand, width: Width) -> u64 {
        match operand {
            Operand::Sreg(i) => {
                u64::from(self.sreg(i as usize)) | u64::from(self.sreg(i as usize + 1)) << 32
            }
            Operand::Inline(code) => inline_constant(code, width),
            Operand::Literal(value) if width == Width::F64 => u64::from(value) << 32,
            Operand::Literal(value) => u64::from(value),
            other => u64::from(self.scalar32(other, width)),
        }
    }

    /// Writes a 32-bit scalar destination.
    pub(crate) fn set_scalar32(&mut self, operand: Operand, value: u32) {
        if let Operand::Sreg(i) = operand {
            self.set_sreg(i as usize, value);
        }
    }

    /// Writes a 64-bit scalar destination (a register pair).
    pub(crate) fn set_scalar64(&mut self, operand: Operand, value: u64) {
        if let Operand::Sreg(i) = operand {
            self.set_sreg(i as usize, value as u32);
            self.set_sreg(i as usize + 1, (value >> 32) as u32);
        }
    }

    /// Writes a lane mask to a scalar destination: a pair in wave64, one
    /// register in wave32.
    pub(crate) fn set_mask(&mut self, operand: Operand, mask: u64) {
        if self.lanes == 64 {
            self.set_scalar64(operand, mask);
        } else {
            self.set_scalar32(operand, mask as u32);
        }
    }

    /// Reads a lane mask from a scalar source.
    pub(crate) fn mask(&self, operand: Operand) -> u64 {
        let raw = if self.lanes == 64 {
            self.scalar64(operand, Width::B64)
        } else {
            u64::from(self.scalar32(operand, Width::B32))
        };
        raw & self.lane_mask()
    }

    /// The index in the vector file of register `operand` + `offset`.
    fn vindex(operand: Operand, offset: usize) -> Option<usize> {
        match operand {
            Operand::Vgpr(r) => Some(r as usize + offset),
            Operand::Agpr(r) => Some(AGPR_BASE + r as usize + offset),
            _ => None,
        }
    }

    /// The index of lane 0 of register `operand` + `offset` in [`Wave::v`],
    /// if it is inside the file.
    pub(crate) fn vbase(&self, operand: Operand, offset: usize) -> Option<usize> {
        Self::vindex(operand, offset)
            .filter(|&r| r < VREGS)
            .map(|r| r * LANES)
    }

    /// Lane `lane` of vector register `operand` + `offset` (0 outside the file).
    pub(crate) fn vreg(&self, operand: Operand, offset: usize, lane: usize) -> u32 {
        match Self::vindex(operand, offset) {
            Some(r) if r < VREGS => self.v.get(r * LANES + lane).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// Writes lane `lane` of vector register `operand` + `offset`.
    pub(crate) fn set_vreg(&mut self, operand: Operand, offset: usize, lane: usize, value: u32) {
        if let Some(r) = Self::vindex(operand, offset)
            && r < VREGS
            && let Some(slot) = self.v.get_mut(r * LANES + lane)
        {
            *slot = value;
        }
    }

    /// A 32-bit source for `lane`: a vector register's lane, or a scalar
    /// operand's value in every lane.
    pub(crate) fn src32(&self, operand: Operand, lane: usize, width: Width) -> u32 {
        match operand {
            Operand::Vgpr(_) | Operand::Agpr(_) => self.vreg(operand, 0, lane),
            other => self.scalar32(other, width),
        }
    }

    /// A 64-bit source for `lane`.
    pub(crate) fn src64(&self, operand: Operand, lane: usize, width: Width) -> u64 {
        match operand {
            Operand::Vgpr(_) | Operand::Agpr(_) => {
                u64::from(self.vreg(operand, 0, lane))
                    | u64::from(self.vreg(operand, 1, lane)) << 32
            }
            other => self.scalar64(other, width),
        }
    }

    /// Writes a 64-bit result to `lane` of a register pair.
    pub(crate) fn set_v64(&mut self, operand: Operand, lane: usize, value: u64) {
        self.set_vreg(operand, 0, lane, value as u32);
        self.set_vreg(operand, 1, lane, (value >> 32) as u32);
    }
}

impl Wave {
    /// Lane `lane` of register `operand` + `offset` when `operand` is a
    /// register, else `constant` (a scalar operand's value).
    pub(crate) fn vreg_or(
        &self,
        operand: Operand,
        offset: usize,
        lane: usize,
        constant: u32,
    ) -> u32 {
        match operand {
            Operand::Vgpr(_) | Operand::Agpr(_) => self.vreg(operand, offset, lane),
            _ => constant,
        }
    }

    /// Register `offset` of a multi-register source (C of a matrix
    /// operation), or a constant's value in every register.
    pub(crate) fn src32_at(&self, operand: Operand, offset: usize, lane: usize) -> u32 {
        self.vreg_or(operand, offset, lane, self.scalar32(operand, Width::B32))
    }
}
