//! The 64-byte AMDHSA kernel descriptor (`<kernel>.kd`): the fields the
//! packet processor reads to launch a kernel (LLVM's
//! `AMDHSAKernelDescriptor.h`).

use super::bytes;
use super::symbols::{find_symbol, symbol_bytes};
use crate::{Result, status};

/// Size of a kernel descriptor.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;
/// Required alignment of a kernel descriptor.
pub const KERNEL_DESCRIPTOR_ALIGNMENT: u64 = 64;

/// `kernel_code_properties` bit: wave32 execution (GFX10+).
pub const KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32: u16 = 1 << 10;
/// `kernel_code_properties` bit: the kernel uses a dynamically sized stack.
pub const KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK: u16 = 1 << 11;

/// A decoded kernel descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// Static LDS bytes.
    pub group_segment_fixed_size: u32,
    /// Static scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Kernarg segment bytes.
    pub kernarg_size: u32,
    /// Byte offset of the kernel's code from the descriptor's own address.
    pub kernel_code_entry_byte_offset: i64,
    /// `COMPUTE_PGM_RSRC3` (GFX90A, GFX10+).
    pub compute_pgm_rsrc3: u32,
    /// `COMPUTE_PGM_RSRC1`: register granules, float modes, priority.
    pub compute_pgm_rsrc1: u32,
    /// `COMPUTE_PGM_RSRC2`: user SGPRs, workgroup IDs, LDS size, exceptions.
    pub compute_pgm_rsrc2: u32,
    /// `KERNEL_CODE_PROPERTIES`: which SGPRs are set up, wave32, dynamic stack.
    pub kernel_code_properties: u16,
    /// `KERNARG_PRELOAD`: preload length (bits 0-6) and offset (bits 7-15).
    pub kernarg_preload: u16,
}

impl KernelDescriptor {
    /// Decodes the first 64 bytes of `data` (`OUT_OF_RANGE` when shorter).
    pub fn parse(data: &[u8]) -> Result<KernelDescriptor> {
        let descriptor = data.get(..KERNEL_DESCRIPTOR_SIZE).ok_or_else(|| {
            status!(
                OutOfRange,
                "AMDGPU kernel descriptor truncated ({} of {KERNEL_DESCRIPTOR_SIZE} bytes)",
                data.len()
            )
        })?;
        let u32_at = |at| bytes::u32_at(descriptor, at).unwrap_or(0);
        let u16_at = |at| bytes::u16_at(descriptor, at).unwrap_or(0);
        Ok(KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: bytes::u64_at(descriptor, 16).unwrap_or(0) as i64,
            compute_pgm_rsrc3: u32_at(44),
            compute_pgm_rsrc1: u32_at(48),
            compute_pgm_rsrc2: u32_at(52),
            kernel_code_properties: u16_at(56),
            kernarg_preload: u16_at(58),
        })
    }

    /// The descriptor of kernel symbol `symbol` (`name.kd`) in a code object.
    pub fn from_elf(elf: &[u8], symbol: &str) -> Result<KernelDescriptor> {
        let found = find_symbol(elf, symbol)?;
        if found.size != KERNEL_DESCRIPTOR_SIZE as u64 {
            return Err(status!(
                InvalidArgument,
                "kernel descriptor `{symbol}` is {} bytes, not {KERNEL_DESCRIPTOR_SIZE}",
                found.size
            ));
        }
        KernelDescriptor::parse(symbol_bytes(elf, &found)?)
    }

    /// True when the kernel runs in wave32 mode.
    pub fn is_wave32(&self) -> bool {
        self.kernel_code_properties & KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32 != 0
    }

    /// True when the kernel uses a dynamically sized stack.
    pub fn uses_dynamic_stack(&self) -> bool {
        self.kernel_code_properties & KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK != 0
    }

    /// `COMPUTE_PGM_RSRC2.USER_SGPR_COUNT` (bits 1-5).
    pub fn user_sgpr_count(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> 1) & 0x1f
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT` (bit 0): the kernel uses scratch.
    pub fn enables_private_segment(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 != 0
    }

    /// The kernel code's virtual address, given the descriptor's (`None` on overflow).
    pub fn entry_address(&self, descriptor_address: u64) -> Option<u64> {
        descriptor_address.checked_add_signed(self.kernel_code_entry_byte_offset)
    }
}
