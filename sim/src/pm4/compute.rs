//! The compute registers of a queue's command processor, as `SET_SH_REG`
//! writes them, and the launch a `DISPATCH_DIRECT` makes of them.
//!
//! Register numbers and fields are Mesa's `src/amd/common/sid.h`
//! (`R_00B800_COMPUTE_DISPATCH_INITIATOR` to `R_00B900_COMPUTE_USER_DATA_0`,
//! dword addresses being the byte addresses / 4), which IREE's
//! `util/pm4_emitter.h` uses too; what each field means for a kernel is
//! AMDGPUUsage's ("Kernel Descriptor", "Initial Kernel Execution State").
//!
//! The registers live with the queue: an indirect buffer may set them and
//! a later one dispatch with them. An AQL kernel dispatch reprograms them
//! in the packet processor's firmware, so afterwards they are unknown here,
//! and a dispatch reading a register that is unknown is refused
//! ([`Pm4Error::Malformed`]) rather than run with whatever a real queue
//! happened to hold.

use std::collections::BTreeMap;

use super::{Generation, Pm4Error, SH_REG_START, malformed, not_modelled, register};

/// The dword registers the launch reads (Mesa's `R_00B8xx` / 4).
mod reg {
    pub const START_X: u32 = 0x2E04;
    pub const NUM_THREAD_X: u32 = 0x2E07;
    pub const PGM_LO: u32 = 0x2E0C;
    pub const PGM_HI: u32 = 0x2E0D;
    pub const PGM_RSRC1: u32 = 0x2E12;
    pub const PGM_RSRC2: u32 = 0x2E13;
    pub const PGM_RSRC3: u32 = 0x2E28;
    pub const USER_DATA_0: u32 = 0x2E40;
}

/// The last register of the persistent (SH) space `SET_SH_REG` reaches
/// (`PACKET3_SET_SH_REG_END`).
pub const SH_REG_END: u32 = 0x2FFF;
/// `COMPUTE_USER_DATA_0` to `_15`: the user SGPRs a dispatch can seed.
pub const MAX_USER_DATA: u32 = 16;
/// LDS bytes per `COMPUTE_PGM_RSRC2.LDS_SIZE` granule: 128 dwords on every
/// processor from gfx7 to gfx11 (AMDGPUUsage, `GRANULATED_LDS_SIZE`).
pub const LDS_GRANULE_BYTES: u32 = 512;

/// `COMPUTE_DISPATCH_INITIATOR` bits (Mesa's `S_00B800_*`).
mod initiator {
    pub const COMPUTE_SHADER_EN: u32 = 1 << 0;
    pub const FORCE_START_AT_000: u32 = 1 << 2;
    pub const USE_THREAD_DIMENSIONS: u32 = 1 << 5;
    /// How waves are ordered at launch (IREE sets it "for wave launch
    /// overlap"): scheduling only, nothing to change on the node, which
    /// runs work-groups one after another.
    pub const ORDER_MODE: u32 = 1 << 6;
    /// gfx10+: the dispatch runs wave32.
    pub const CS_W32_EN: u32 = 1 << 15;
    pub const MODELLED: u32 =
        COMPUTE_SHADER_EN | FORCE_START_AT_000 | USE_THREAD_DIMENSIONS | ORDER_MODE | CS_W32_EN;
}

/// The registers of one queue: each written one, by dword address.
#[derive(Clone, Debug, Default)]
pub struct ComputeRegisters {
    written: BTreeMap<u32, u32>,
}

/// What a `DISPATCH_DIRECT` launches, read from the registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeLaunch {
    /// The first instruction's address (`COMPUTE_PGM_LO`/`HI` × 256).
    pub entry: u64,
    /// `COMPUTE_PGM_RSRC1`, `RSRC2` and `RSRC3`.
    pub resources: [u32; 3],
    /// Work-items per work-group (`COMPUTE_NUM_THREAD_X/Y/Z`).
    pub block: [u32; 3],
    /// Work-items per dimension: whole work-groups, or the packet's
    /// dimensions themselves under `USE_THREAD_DIMENSIONS` (a last partial
    /// work-group then).
    pub grid_size: [u32; 3],
    /// The user SGPRs, `USER_SGPR_COUNT` of them
    /// (`COMPUTE_USER_DATA_*`).
    pub user_data: Vec<u32>,
    /// LDS bytes per work-group (`COMPUTE_PGM_RSRC2.LDS_SIZE` granules).
    pub lds_bytes: u32,
    /// The dispatch runs wave32 (`CS_W32_EN`).
    pub wave32: bool,
}

impl ComputeRegisters {
    /// `SET_SH_REG`: `values` into consecutive registers from `first`,
    /// which the decoder has kept inside the SH space.
    pub fn set(&mut self, first: u32, values: &[u32]) {
        // Registers past the last address do not exist: nothing is written
        // there (the decoder never asks for them).
        let registers = (0..values.len()).map_while(|i| first.checked_add(u32::try_from(i).ok()?));
        for (register, &value) in registers.zip(values) {
            self.written.insert(register, value);
        }
    }

    /// Every register unknown again (an AQL dispatch reprogrammed them).
    pub fn forget(&mut self) {
        self.written.clear();
    }

    fn read(&self, register: u32) -> Result<u32, Pm4Error> {
        match self.written.get(&register) {
            Some(&value) => Ok(value),
            None => malformed(format!(
                "DISPATCH_DIRECT reads {}, which no SET_SH_REG on this queue has written \
                 since its last AQL dispatch",
                super::register(register)
            )),
        }
    }

    /// The launch of a `DISPATCH_DIRECT` with `dimensions` and
    /// `initiator` over these registers; `None` when a dimension is 0
    /// (nothing is launched).
    pub fn launch(
        &self,
        dimensions: [u32; 3],
        initiator: u32,
        generation: Generation,
    ) -> Result<Option<ComputeLaunch>, Pm4Error> {
        if initiator & initiator::COMPUTE_SHADER_EN == 0 {
            return malformed(format!(
                "DISPATCH_DIRECT initiator {initiator:#x} without COMPUTE_SHADER_EN"
            ));
        }
        let unmodelled = initiator & !initiator::MODELLED;
        if unmodelled != 0 {
            return not_modelled(format!(
                "DISPATCH_DIRECT initiator bits {unmodelled:#x} (partial work-groups, \
                 ordered append, restore and the like)"
            ));
        }
        let wave32 = initiator & initiator::CS_W32_EN != 0;
        if wave32 && generation == Generation::Gfx9 {
            return malformed("DISPATCH_DIRECT CS_W32_EN on gfx9, which has no wave32".into());
        }
        if initiator & initiator::FORCE_START_AT_000 == 0 {
            for axis in 0..3 {
                let start = self.read(reg::START_X + axis)?;
                if start != 0 {
                    return not_modelled(format!(
                        "a dispatch starting at work-group {start} ({})",
                        register(reg::START_X + axis)
                    ));
                }
            }
        }
        let pgm_hi = self.read(reg::PGM_HI)?;
        if pgm_hi > 0xFF {
            return not_modelled(format!(
                "{} {pgm_hi:#x}: bits beyond the address's",
                register(reg::PGM_HI)
            ));
        }
        let entry = (u64::from(pgm_hi) << 32 | u64::from(self.read(reg::PGM_LO)?)) << 8;
        let resources = [
            self.read(reg::PGM_RSRC1)?,
            self.read(reg::PGM_RSRC2)?,
            self.read(reg::PGM_RSRC3)?,
        ];
        let rsrc2 = resources[1];
        if rsrc2 & 1 != 0 {
            return not_modelled(
                "a PM4 dispatch with scratch (COMPUTE_PGM_RSRC2.SCRATCH_EN, COMPUTE_TMPRING_SIZE)"
                    .into(),
            );
        }
        let user_sgprs = (rsrc2 >> 1) & 0x1F;
        if user_sgprs > MAX_USER_DATA {
            return malformed(format!(
                "COMPUTE_PGM_RSRC2.USER_SGPR_COUNT {user_sgprs}: there are {MAX_USER_DATA} \
                 COMPUTE_USER_DATA registers"
            ));
        }
        let user_data = (0..user_sgprs)
            .map(|i| self.read(reg::USER_DATA_0 + i))
            .collect::<Result<Vec<_>, _>>()?;
        let mut block = [0u32; 3];
        for (axis, size) in (0..).zip(block.iter_mut()) {
            // NUM_THREAD_FULL (15:0); NUM_THREAD_PARTIAL only counts with
            // PARTIAL_TG_EN, which is refused above.
            *size = self.read(reg::NUM_THREAD_X + axis)? & 0xFFFF;
        }
        // Each size is 16 bits: their product needs 48.
        let items: u64 = block.iter().map(|&n| u64::from(n)).product();
        if items == 0 || items > 1024 {
            return malformed(format!(
                "COMPUTE_NUM_THREAD_X/Y/Z {block:?}: {items} work-items per work-group"
            ));
        }
        if dimensions.contains(&0) {
            return Ok(None);
        }
        let whole_groups = initiator & initiator::USE_THREAD_DIMENSIONS == 0;
        let mut grid_size = dimensions;
        if whole_groups {
            for (items, size) in grid_size.iter_mut().zip(block) {
                *items = items.checked_mul(size).ok_or_else(|| {
                    Pm4Error::NotModelled(format!(
                        "DISPATCH_DIRECT of {dimensions:?} work-groups of {block:?}: \
                         more than 2^32 work-items in a dimension"
                    ))
                })?;
            }
        }
        Ok(Some(ComputeLaunch {
            entry,
            resources,
            block,
            grid_size,
            user_data,
            lds_bytes: ((rsrc2 >> 15) & 0x1FF) * LDS_GRANULE_BYTES,
            wave32,
        }))
    }
}

/// The registers `SET_SH_REG` names: its offset dword (15:0) from the SH
/// space's start, one register per data dword, all inside the space.
pub(super) fn sh_registers(offset_dword: u32, count: usize) -> Result<u32, Pm4Error> {
    let first = SH_REG_START + (offset_dword & 0xFFFF);
    if offset_dword >> 16 != 0 {
        return malformed(format!(
            "SET_SH_REG offset dword {offset_dword:#x} sets bits past the offset"
        ));
    }
    let last = u64::from(first) + count as u64 - 1;
    if last > u64::from(SH_REG_END) {
        return malformed(format!(
            "SET_SH_REG of {count} registers from {} runs past the SH space's end {SH_REG_END:#x}",
            register(first)
        ));
    }
    Ok(first)
}
