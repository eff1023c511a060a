//! The 64-byte kernel descriptor the packet processor reads to start a
//! kernel (AMDGPUUsage, "Kernel Descriptor"): where the code starts, the
//! LDS and scratch it needs, and which SGPRs and VGPRs are set up.

/// Bytes of a kernel descriptor.
pub const KERNEL_DESCRIPTOR_BYTES: usize = 64;

/// A decoded kernel descriptor (the fields a dispatch needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// Static LDS bytes per work-group.
    pub group_segment_fixed_size: u32,
    /// Static scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Offset of the first instruction from the descriptor's address.
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC1`.
    pub compute_pgm_rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`.
    pub compute_pgm_rsrc2: u32,
    /// `COMPUTE_PGM_RSRC3`.
    pub compute_pgm_rsrc3: u32,
    /// `KERNEL_CODE_PROPERTIES`.
    pub kernel_code_properties: u16,
}

impl KernelDescriptor {
    /// Decodes a descriptor; `None` when `bytes` is shorter than 64.
    pub fn parse(bytes: &[u8]) -> Option<KernelDescriptor> {
        let d = bytes.get(..KERNEL_DESCRIPTOR_BYTES)?;
        let u32_at = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(d.get(at..at + 4)?.try_into().ok()?))
        };
        let u16_at = |at: usize| -> Option<u16> {
            Some(u16::from_le_bytes(d.get(at..at + 2)?.try_into().ok()?))
        };
        Some(KernelDescriptor {
            group_segment_fixed_size: u32_at(0)?,
            private_segment_fixed_size: u32_at(4)?,
            kernel_code_entry_byte_offset: i64::from_le_bytes(d.get(16..24)?.try_into().ok()?),
            compute_pgm_rsrc3: u32_at(44)?,
            compute_pgm_rsrc1: u32_at(48)?,
            compute_pgm_rsrc2: u32_at(52)?,
            kernel_code_properties: u16_at(56)?,
        })
    }

    /// User SGPRs the packet processor sets (`COMPUTE_PGM_RSRC2.USER_SGPR_COUNT`,
    /// which includes preloaded kernarg SGPRs).
    pub fn user_sgpr_count(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> 1) & 0x1f
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z}`.
    pub fn workgroup_id_enabled(&self) -> [bool; 3] {
        [7, 8, 9].map(|bit| self.compute_pgm_rsrc2 >> bit & 1 == 1)
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_INFO`.
    pub fn workgroup_info_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 >> 10 & 1 == 1
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT`: the scratch wave offset SGPR.
    pub fn private_segment_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 == 1
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID`: 0 = X, 1 = X and Y, 2 = X, Y and Z.
    pub fn workitem_id_dims(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> 11) & 3
    }

    /// True for a wave32 kernel (`KERNEL_CODE_PROPERTIES` bit 10).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties >> 10 & 1 == 1
    }

    /// `KERNEL_CODE_PROPERTIES` bit `bit` (the user SGPR enables, bits 0-6).
    pub fn property(&self, bit: u32) -> bool {
        self.kernel_code_properties >> bit & 1 == 1
    }

    /// The first AGPR's index in the unified VGPR file of gfx90a/gfx942
    /// (`COMPUTE_PGM_RSRC3.ACCUM_OFFSET`: (value + 1) * 4).
    pub fn accum_offset(&self) -> u32 {
        ((self.compute_pgm_rsrc3 & 0x3f) + 1) * 4
    }
}
