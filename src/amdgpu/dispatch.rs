//! Dispatch packets and dispatch descriptors.
//!
//! A [`DispatchDescriptor`] is everything a queue needs to issue one export on
//! one device without recomputing: its [`KernelArgs`], both kernarg layouts
//! with their block counts, and the largest workgroup counts and dynamic LDS
//! that still fit the 32-bit packet fields. Executables build one per
//! (loaded device, export). [`emplace_packet`] fills an AQL kernel-dispatch
//! packet body the way IREE's device code does, except that it refuses grid
//! sizes that would wrap instead of wrapping silently.

use super::kernarg::{KERNARG_BLOCK_ALIGNMENT, KernargLayout, KernelArgs};
use crate::status::Result;

/// The body of an HSA AQL kernel-dispatch packet (`hsa_kernel_dispatch_packet_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelDispatchPacket {
    /// Packet header; owned by the submitter, never written by emplacement.
    pub header: u16,
    /// Dimension setup.
    pub setup: u16,
    /// Workgroup size in work-items.
    pub workgroup_size: [u16; 3],
    /// Must be 0.
    pub reserved0: u16,
    /// Grid size in work-items.
    pub grid_size: [u32; 3],
    /// Private bytes per work-item.
    pub private_segment_size: u32,
    /// Group bytes per workgroup (static + dynamic).
    pub group_segment_size: u32,
    /// Kernel object on the executing device.
    pub kernel_object: u64,
    /// Device address of the kernarg bytes.
    pub kernarg_address: u64,
    /// Must be 0.
    pub reserved2: u64,
    /// Completion signal handle (0 = none).
    pub completion_signal: u64,
}

/// Fills `packet`'s body for `args` with `workgroup_count` workgroups and
/// `dynamic_workgroup_local_memory` extra LDS bytes. The header is left as
/// is and the completion signal cleared. Zero counts are kept (a valid empty
/// dispatch). A grid dimension or group size that does not fit 32 bits is
/// `OUT_OF_RANGE` (IREE wraps).
pub fn emplace_packet(
    args: &KernelArgs,
    workgroup_count: [u32; 3],
    dynamic_workgroup_local_memory: u32,
    kernarg_address: u64,
    packet: &mut KernelDispatchPacket,
) -> Result<()> {
    let mut grid = [0u32; 3];
    for (i, ((cell, &count), &size)) in grid
        .iter_mut()
        .zip(&workgroup_count)
        .zip(&args.workgroup_size)
        .enumerate()
    {
        *cell = count.checked_mul(u32::from(size)).ok_or_else(|| {
            crate::status!(
                OutOfRange,
                "dispatch grid dimension {i} overflows: {count} workgroups of {size} work-items"
            )
        })?;
    }
    let group = args
        .group_segment_size
        .checked_add(dynamic_workgroup_local_memory)
        .ok_or_else(|| {
            crate::status!(
                OutOfRange,
                "dispatch group segment overflows: {} static + {} dynamic bytes",
                args.group_segment_size,
                dynamic_workgroup_local_memory
            )
        })?;
    packet.setup = args.setup;
    packet.workgroup_size = args.workgroup_size;
    packet.reserved0 = 0;
    packet.grid_size = grid;
    packet.private_segment_size = args.private_segment_size;
    packet.group_segment_size = group;
    packet.kernel_object = args.kernel_object;
    packet.kernarg_address = kernarg_address;
    packet.reserved2 = 0;
    packet.completion_signal = 0;
    Ok(())
}

/// Precomputed dispatch facts for one export on one device
/// (`iree_hal_amdgpu_executable_dispatch_descriptor_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DispatchDescriptor {
    /// The export's kernel args on this device (with its kernel object).
    pub kernel_args: KernelArgs,
    /// HAL ABI kernarg layout.
    pub hal_kernarg_layout: KernargLayout,
    /// Kernarg blocks for a HAL ABI dispatch.
    pub hal_kernarg_block_count: u32,
    /// Custom (raw blob) kernarg layout of the code object's kernarg size.
    pub custom_kernarg_layout: KernargLayout,
    /// Kernarg blocks for a custom dispatch.
    pub custom_kernarg_block_count: u32,
    /// Largest workgroup count per dimension whose grid fits u32.
    pub max_workgroup_count: [u32; 3],
    /// Largest dynamic LDS request whose group segment fits u32.
    pub max_dynamic_workgroup_local_memory: u32,
}

impl DispatchDescriptor {
    /// Builds the descriptor, checking that the kernarg alignment is a power
    /// of two no larger than a kernarg block and that no workgroup dimension
    /// is zero (all `FAILED_PRECONDITION`, as in IREE).
    pub fn new(args: &KernelArgs) -> Result<DispatchDescriptor> {
        let alignment = args.kernarg_alignment;
        if !alignment.is_power_of_two() {
            return Err(crate::status!(
                FailedPrecondition,
                "executable kernel kernarg alignment must be a power of two (got {alignment})"
            ));
        }
        if alignment > KERNARG_BLOCK_ALIGNMENT {
            return Err(crate::status!(
                FailedPrecondition,
                "executable kernel kernarg alignment {alignment} exceeds queue kernarg ring \
                 alignment {KERNARG_BLOCK_ALIGNMENT}"
            ));
        }
        let hal_kernarg_layout = KernargLayout::hal(args);
        let hal_kernarg_block_count = hal_kernarg_layout.block_count()?;
        let custom_kernarg_layout = KernargLayout::custom(args.kernarg_size as usize);
        let custom_kernarg_block_count = custom_kernarg_layout.block_count()?;
        let mut max_workgroup_count = [0u32; 3];
        for (i, (max, dim)) in max_workgroup_count
            .iter_mut()
            .zip(args.workgroup_size)
            .enumerate()
        {
            if dim == 0 {
                return Err(crate::status!(
                    FailedPrecondition,
                    "executable kernel workgroup size dimension {i} is zero"
                ));
            }
            *max = u32::MAX / u32::from(dim);
        }
        Ok(DispatchDescriptor {
            kernel_args: *args,
            hal_kernarg_layout,
            hal_kernarg_block_count,
            custom_kernarg_layout,
            custom_kernarg_block_count,
            max_workgroup_count,
            max_dynamic_workgroup_local_memory: u32::MAX - args.group_segment_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amdgpu::kernarg::IMPLICIT_ARGS_SIZE;
    use crate::status::StatusCode;

    fn make_kernel_args(
        kernel_object: u64,
        kernarg_size: u32,
        bindings: u16,
        constants: u16,
    ) -> KernelArgs {
        KernelArgs {
            kernel_object,
            setup: 3,
            workgroup_size: [4, 5, 6],
            private_segment_size: 7,
            group_segment_size: 8,
            kernarg_size,
            kernarg_alignment: 16,
            constant_count: constants,
            binding_count: bindings,
        }
    }

    /// IREE's `EmplacePacketPreservesZeroWorkgroupCounts`.
    #[test]
    fn emplace_packet_preserves_zero_workgroup_counts() {
        let args = make_kernel_args(0xBEEF, 0, 0, 0);
        let mut packet = KernelDispatchPacket {
            header: 0xFFFF,
            completion_signal: 77,
            reserved0: 5,
            ..Default::default()
        };
        emplace_packet(&args, [0, 2, 0], 9, 0x7000, &mut packet).unwrap();
        assert_eq!(packet.header, 0xFFFF);
        assert_eq!(packet.setup, 3);
        assert_eq!(packet.workgroup_size, [4, 5, 6]);
        assert_eq!(packet.reserved0, 0);
        assert_eq!(packet.grid_size, [0, 10, 0]);
        assert_eq!(packet.private_segment_size, 7);
        assert_eq!(packet.group_segment_size, 17);
        assert_eq!(packet.kernel_object, 0xBEEF);
        assert_eq!(packet.kernarg_address, 0x7000);
        assert_eq!(packet.reserved2, 0);
        assert_eq!(packet.completion_signal, 0);
    }

    #[test]
    fn emplace_packet_rejects_wrapping_grids() {
        let args = make_kernel_args(1, 0, 0, 0);
        let mut packet = KernelDispatchPacket::default();
        let err = emplace_packet(&args, [u32::MAX, 1, 1], 0, 0, &mut packet).unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        let err = emplace_packet(&args, [1, 1, 1], u32::MAX, 0, &mut packet).unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        let d = DispatchDescriptor::new(&args).unwrap();
        emplace_packet(
            &args,
            d.max_workgroup_count,
            d.max_dynamic_workgroup_local_memory,
            0,
            &mut packet,
        )
        .unwrap();
    }

    #[test]
    fn descriptor_has_both_layouts_and_limits() {
        let d = DispatchDescriptor::new(&make_kernel_args(1, 40, 2, 3)).unwrap();
        assert_eq!(
            d.hal_kernarg_layout.total_kernarg_size,
            32 + IMPLICIT_ARGS_SIZE
        );
        assert_eq!(d.hal_kernarg_block_count, 3);
        assert_eq!(d.custom_kernarg_layout, KernargLayout::custom(40));
        assert_eq!(d.custom_kernarg_block_count, 1);
        assert_eq!(
            d.max_workgroup_count,
            [u32::MAX / 4, u32::MAX / 5, u32::MAX / 6]
        );
        assert_eq!(d.max_dynamic_workgroup_local_memory, u32::MAX - 8);
        let zero = DispatchDescriptor::new(&make_kernel_args(1, 0, 0, 0)).unwrap();
        assert_eq!(
            (
                zero.hal_kernarg_block_count,
                zero.custom_kernarg_block_count
            ),
            (1, 1)
        );
    }

    #[test]
    fn descriptor_rejects_bad_alignment_and_zero_workgroups() {
        let mut args = make_kernel_args(1, 40, 2, 3);
        args.kernarg_alignment = 24;
        let err = DispatchDescriptor::new(&args).unwrap_err();
        assert_eq!(err.code(), StatusCode::FailedPrecondition);
        assert!(err.mentions("power of two (got 24)"));
        args.kernarg_alignment = 0;
        assert_eq!(
            DispatchDescriptor::new(&args).unwrap_err().code(),
            StatusCode::FailedPrecondition
        );
        args.kernarg_alignment = 128;
        let err = DispatchDescriptor::new(&args).unwrap_err();
        assert!(err.mentions("exceeds queue kernarg ring alignment 64"));
        args.kernarg_alignment = 64;
        args.workgroup_size = [1, 0, 1];
        let err = DispatchDescriptor::new(&args).unwrap_err();
        assert_eq!(err.code(), StatusCode::FailedPrecondition);
        assert!(err.mentions("dimension 1 is zero"));
    }
}
