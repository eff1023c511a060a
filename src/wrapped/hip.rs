//! IREE's wrapped HIP executables (`HIP1`, `hip_executable_def.fbs`): the same
//! 64-byte header, a FlatBuffer whose exports name kernel functions and point
//! at one of several HSACO modules. Read here so that `inspect` handles both
//! containers users have.

use amdgpu_hal_schemas::hip::iree::hal::hip as fb;

use super::header::{DataExtent, ExecutableHeader, HIP1_IDENTIFIER, read_header};
use super::verify::{
    VERIFIER_OPTIONS, check_buffer_identifier, check_dispatch_counts, check_string_terminator,
    hip_debug, verification_failed,
};
use crate::status;
use crate::status::{Result, ResultExt};

/// Device limits the HIP rules check (`hipDeviceAttributeMaxBlockDim{X,Y,Z}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HipLimits {
    /// Most threads along each block dimension.
    pub max_block_dims: [u32; 3],
}

impl HipLimits {
    /// What HIP reports for current AMD GPUs.
    pub const AMDGPU: HipLimits = HipLimits {
        max_block_dims: [1024, 1024, 1024],
    };
}

/// A structurally verified `HIP1` executable borrowed from its bytes.
#[derive(Clone, Copy)]
pub struct Hip1Executable<'a> {
    /// The 64-byte header.
    pub header: ExecutableHeader,
    /// The FlatBuffer (the header's content).
    pub flatbuffer: &'a [u8],
    /// The verified root table.
    pub def: fb::ExecutableDef<'a>,
}

impl<'a> Hip1Executable<'a> {
    /// Reads the header and verifies the FlatBuffer's structure (identifier,
    /// the `flatbuffers` verifier, image terminators).
    pub fn parse(data: &'a [u8], extent: DataExtent) -> Result<Hip1Executable<'a>> {
        let (header, flatbuffer) = read_header(data, HIP1_IDENTIFIER, extent)?;
        check_buffer_identifier(flatbuffer, HIP1_IDENTIFIER)?;
        let def = fb::root_as_executable_def_with_opts(&VERIFIER_OPTIONS, flatbuffer)
            .map_err(verification_failed)?;
        for module in def.modules().iter().flatten() {
            if let Some(image) = module.hsaco_image() {
                check_string_terminator(flatbuffer, &image)?;
            }
        }
        Ok(Hip1Executable {
            header,
            flatbuffer,
            def,
        })
    }

    /// The module images in order (an absent image is empty).
    pub fn module_images(&self) -> Vec<&'a [u8]> {
        self.def
            .modules()
            .iter()
            .flatten()
            .map(|module| {
                module
                    .hsaco_image()
                    .map(|image| image.bytes())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// IREE's semantic rules (`iree_hal_hip_native_executable_flatbuffer_verify`),
    /// each with IREE's message and `INVALID_ARGUMENT`; like the AMD1 rules,
    /// also rejects block dims with a zero dimension.
    pub fn verify(&self, limits: &HipLimits) -> Result<()> {
        let images = self.module_images();
        for (i, image) in images.iter().enumerate() {
            if image.is_empty() {
                return Err(status!(InvalidArgument, "modules[{i}] contents are empty"));
            }
        }
        for (i, export) in self.def.exports().iter().flatten().enumerate() {
            let ordinal = export.module_ordinal();
            if usize::try_from(ordinal).map_or(true, |ordinal| ordinal >= images.len()) {
                return Err(status!(
                    InvalidArgument,
                    "exports[{i}] module_ordinal {ordinal} is out of bounds {}",
                    images.len()
                ));
            }
            if export.kernel_name().is_none_or(str::is_empty) {
                return Err(status!(InvalidArgument, "exports[{i}] name is empty"));
            }
            let Some(dims) = export.block_dims() else {
                return Err(status!(
                    InvalidArgument,
                    "exports[{i}] blocks dims are missing"
                ));
            };
            let [x, y, z] = [dims.x(), dims.y(), dims.z()];
            let [mx, my, mz] = limits.max_block_dims;
            if x > mx || y > my || z > mz {
                return Err(status!(
                    InvalidArgument,
                    "exports[{i}] block dims {x}x{y}x{z} exceeds device maximum {mx}x{my}x{mz}"
                ));
            }
            if x == 0 || y == 0 || z == 0 {
                return Err(status!(
                    InvalidArgument,
                    "exports[{i}] block dims {x}x{y}x{z} has a zero dimension"
                ));
            }
            let binding_count = export.binding_flags().map_or(0, |flags| flags.len());
            check_dispatch_counts(i, export.constant_count(), binding_count)?;
            if let Some(debug) = export.debug_info() {
                hip_debug::verify_export(&debug)
                    .annotate_with(|| format!("verifying exports[{i}] debug_info"))?;
            }
        }
        Ok(())
    }
}
