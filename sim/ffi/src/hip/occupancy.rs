//! Occupancy of a kernel on its device, computed as ROCclr's
//! `ihipOccupancyMaxActiveBlocksPerMultiprocessor` computes it from the
//! kernel's code object and the device:
//!
//! - waves per SIMD: at most 8 on gfx9 (CDNA), 16 on gfx10 and later;
//!   SIMDs per compute unit: 4 on gfx9, 2 on gfx10 and later;
//! - VGPR-limited waves per SIMD: the VGPR file (512 registers on gfx90a
//!   and gfx94x, allocated in 8s; 256 in 4s on the other gfx9; 1024 in 8s
//!   on gfx10 and later) over the kernel's `.vgpr_count` rounded up to the
//!   granule; SGPR-limited (gfx9 only): 800 over `.sgpr_count` rounded up
//!   to 16;
//! - threads per compute unit: SIMDs × the least of those × the kernel's
//!   wave size; blocks per compute unit: that over the block size rounded
//!   up to whole waves, and at most the device's LDS over the block's
//!   (static + dynamic) LDS;
//! - blocks per device: blocks per compute unit × compute units.
//!
//! `hipOccupancyMaxPotentialBlockSize` tries every block size in whole
//! waves up to the limit (the caller's, else the least of the device's
//! and the kernel's maximum) and keeps the one with the most resident
//! threads (the larger block on a tie), as CUDA's does.

use amdgpu_sim::hip_registered::FunctionFacts;

/// ROCclr's VGPR file and allocation granule, per SIMD lane.
fn vgpr_file(major: u32, processor: &str) -> (u32, u32) {
    match major {
        0..=9 if processor.starts_with("gfx90a") || processor.starts_with("gfx94") => (512, 8),
        0..=9 => (256, 4),
        _ => (1024, 8),
    }
}

/// The major version of a `gfx…` processor name (`gfx942` → 9,
/// `gfx1100` → 11): every digit but the last two.
fn major_of(processor: &str) -> u32 {
    let digits = processor.trim_start_matches("gfx");
    let digits = digits.split(':').next().unwrap_or_default();
    digits
        .get(..digits.len().saturating_sub(2))
        .and_then(|m| m.parse().ok())
        .unwrap_or(9)
}

fn align_up(value: u64, to: u64) -> u64 {
    value.div_ceil(to.max(1)) * to.max(1)
}

/// The kernel's wave size: its metadata's, else the device's.
fn wave_size(facts: &FunctionFacts) -> u64 {
    match facts.kernel.wavefront_size {
        0 => u64::try_from(facts.device.warp_size).unwrap_or(64).max(1),
        w => u64::from(w),
    }
}

/// Blocks of `block` threads with `dynamic_shared` bytes of dynamic LDS
/// resident at once on one compute unit (see the module's formula).
pub(crate) fn blocks_per_cu(facts: &FunctionFacts, block: u64, dynamic_shared: u64) -> u64 {
    let processor = &facts.device.gcn_arch_name;
    let major = major_of(processor);
    let (max_waves, simds) = if major <= 9 { (8, 4) } else { (16, 2) };
    let (file, granule) = vgpr_file(major, processor);
    let mut waves = max_waves;
    if facts.kernel.vgpr_count > 0 {
        waves = waves.min(
            u64::from(file) / align_up(u64::from(facts.kernel.vgpr_count), u64::from(granule)),
        );
    }
    if major <= 9 && facts.kernel.sgpr_count > 0 {
        waves = waves.min(800 / align_up(u64::from(facts.kernel.sgpr_count), 16));
    }
    let wave = wave_size(facts);
    let threads = simds * waves * wave;
    let by_alu = threads / align_up(block.max(1), wave);
    let lds = u64::from(facts.kernel.group_segment_fixed_size) + dynamic_shared;
    let by_lds = facts.lds_limit.checked_div(lds).unwrap_or(u64::MAX);
    by_alu.min(by_lds)
}

/// The largest block size a launch of the kernel may use on its device.
fn largest_block(facts: &FunctionFacts) -> u64 {
    let device = u64::try_from(facts.device.max_threads_per_block).unwrap_or(0);
    device.min(u64::from(facts.kernel.max_flat_workgroup_size))
}

/// `hipOccupancyMaxPotentialBlockSize`: (blocks per device, block size).
pub(crate) fn potential_block_size(
    facts: &FunctionFacts,
    dynamic_shared: u64,
    limit: u64,
) -> (u64, u64) {
    let largest = largest_block(facts);
    let limit = if limit == 0 {
        largest
    } else {
        limit.min(largest)
    };
    let wave = wave_size(facts);
    let mut best = (0, 0);
    let mut block = wave;
    while block <= limit.max(wave) {
        let size = block.min(limit);
        let resident = blocks_per_cu(facts, size, dynamic_shared) * size;
        if resident >= best.0 && resident > 0 {
            best = (resident, size);
        }
        block += wave;
    }
    let units = u64::try_from(facts.device.multi_processor_count).unwrap_or(0);
    let grid = blocks_per_cu(facts, best.1.max(1), dynamic_shared) * units;
    (grid, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_sim::kernel_meta::KernelLaunchInfo;

    fn facts(arch: &str, vgprs: u32, sgprs: u32, wave: u32, lds: u32) -> FunctionFacts {
        FunctionFacts {
            ordinal: 0,
            kernel: KernelLaunchInfo {
                name: "k".into(),
                symbol: "k.kd".into(),
                kernarg_segment_size: 0,
                max_flat_workgroup_size: 1024,
                reqd_workgroup_size: None,
                group_segment_fixed_size: lds,
                explicit_args: Vec::new(),
                hidden_args: Vec::new(),
                vgpr_count: vgprs,
                sgpr_count: sgprs,
                wavefront_size: wave,
            },
            private_segment_size: 0,
            max_dynamic_shared: 0,
            lds_limit: 65536,
            device: amdgpu_sys::hip_types::HipDeviceProps {
                gcn_arch_name: arch.into(),
                warp_size: 64,
                max_threads_per_block: 1024,
                multi_processor_count: 304,
                ..Default::default()
            },
        }
    }

    /// Worked by hand from the formula: gfx942, 128 VGPRs → 512/128 = 4
    /// waves per SIMD, 4 SIMDs → 16 waves = 1024 threads per CU; blocks
    /// of 256 → 4; of 100 (two waves) → 8.
    #[test]
    fn vgprs_limit_a_cdna_kernel() {
        let f = facts("gfx942:sramecc+:xnack-", 128, 16, 64, 0);
        assert_eq!(blocks_per_cu(&f, 256, 0), 4);
        assert_eq!(blocks_per_cu(&f, 100, 0), 8);
        // 8 VGPRs: the 8-wave cap, 32 waves = 2048 threads: 8 blocks of 256.
        assert_eq!(blocks_per_cu(&facts("gfx942", 8, 16, 64, 0), 256, 0), 8);
    }

    /// LDS: 16 KiB static + 16 KiB dynamic of 64 KiB → 2 blocks.
    #[test]
    fn lds_limits_blocks() {
        let f = facts("gfx90a", 8, 16, 64, 16384);
        assert_eq!(blocks_per_cu(&f, 64, 16384), 2);
    }

    /// gfx1100, wave32, 2 SIMDs × 16 waves × 32 = 1024 threads.
    #[test]
    fn rdna_counts_wave32() {
        let f = facts("gfx1100", 32, 0, 32, 0);
        assert_eq!(blocks_per_cu(&f, 256, 0), 4);
        assert_eq!(major_of("gfx1100"), 11);
        assert_eq!(major_of("gfx90a:sramecc+"), 9);
    }

    /// Every block size up to 1024 fits 2048 threads on a gfx942 CU with
    /// 8 VGPRs; the largest such block wins: 1024 threads, 2 blocks per CU.
    #[test]
    fn potential_block_size_keeps_the_largest_best() {
        let f = facts("gfx942", 8, 16, 64, 0);
        assert_eq!(potential_block_size(&f, 0, 0), (2 * 304, 1024));
        assert_eq!(potential_block_size(&f, 0, 256), (8 * 304, 256));
    }
}
